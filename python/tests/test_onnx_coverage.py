"""from_onnx's operators beyond one graph op each (issue 24, item 3): constant
chains folded at import (ONNX's causal-mask construction), constants read as
tensors, vector MatMul, LayerNormalization's statistics, CastLike, Sum, Pow
with a constant tensor exponent; against onnx's reference evaluator."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import mirage_opt as mo  # noqa: E402
from conftest import rel_error  # noqa: E402
import onnx_cases  # noqa: E402
from onnx_cases import check, const  # noqa: E402


def model(nodes, inputs, outputs, **kwargs):
    return onnx_cases.model(nodes, inputs, outputs, **{"opset": 18, **kwargs})


def rand(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype(np.float32)


def test_causal_mask_chain_is_folded_and_bound():
    """The mask as exporters build it for causal attention (Range, Trilu,
    ConstantOfShape, Equal, Where on constants), folded with NumPy, then read
    as a tensor by Add: an input bound to the mask's values."""
    s = 6
    nodes = [
        const("n", np.array(s, np.int64)), const("z", np.array(0, np.int64)),
        const("one", np.array(1, np.int64)),
        helper.make_node("Range", ["z", "n", "one"], ["r"]),
        const("ax0", np.array([0], np.int64)), const("ax1", np.array([1], np.int64)),
        helper.make_node("Unsqueeze", ["r", "ax0"], ["col"]),
        helper.make_node("Unsqueeze", ["r", "ax1"], ["row"]),
        helper.make_node("Greater", ["col", "row"], ["future"]),        # j > i
        const("shape", np.array([s, s], np.int64)),
        helper.make_node("ConstantOfShape", ["shape"], ["ones"],
                         value=numpy_helper.from_array(np.array([1.0], np.float32))),
        helper.make_node("Trilu", ["ones"], ["low"], upper=0),
        const("zero", np.array(0.0, np.float32)),
        helper.make_node("Equal", ["low", "zero"], ["above"]),          # the same set
        helper.make_node("Or", ["future", "above"], ["masked"]),
        const("ninf", np.array(-np.inf, np.float32)),
        helper.make_node("Where", ["masked", "ninf", "zero"], ["bias"]),
        helper.make_node("MatMul", ["q", "kt"], ["scores"]),
        helper.make_node("Add", ["scores", "bias"], ["biased"]),
        helper.make_node("Softmax", ["biased"], ["y"], axis=-1),
    ]
    m = model(nodes, [("q", [2, s, 4]), ("kt", [2, 4, s])], ["y"])
    p = check(m, {"q": rand(2, s, 4), "kt": rand(2, 4, s, seed=1)})
    assert len(p.bound) == 1 and not any(i.name.startswith("Add") for i in p.user_inputs)
    assert np.isneginf(next(iter(p.bound.values()))[0, 1])


def test_folded_integer_division_truncates():
    nodes = [const("a", np.array([-7, 7, -6, 5], np.int64)), const("b", np.array([2, -2, 4, 3], np.int64)),
             helper.make_node("Div", ["a", "b"], ["q"]),                 # [-3, -3, -1, 1]
             helper.make_node("Cast", ["q"], ["qf"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["x", "qf"], ["y"])]
    check(model(nodes, [("x", [3, 4])], ["y"]), {"x": rand(3, 4)})


@pytest.mark.parametrize("a,b", [([5], [5, 3]), ([2, 4, 5], [5]), ([5], [5]), ([2, 1, 3, 5], [4, 5, 2])])
def test_matmul_with_vectors(a, b):
    m = model([helper.make_node("MatMul", ["a", "b"], ["y"])], [("a", a), ("b", b)], ["y"])
    check(m, {"a": rand(*a), "b": rand(*b, seed=1)})


@pytest.mark.parametrize("axis", [-1, -2, 1])
def test_layer_normalization_mean_and_inv_std_dev(axis):
    nodes = [helper.make_node("LayerNormalization", ["x", "w", "b"], ["y", "mean", "inv"],
                              axis=axis, epsilon=1e-3)]
    shape = [2, 3, 5]
    wshape = shape[axis % 3:]
    m = model(nodes, [("x", shape), ("w", wshape), ("b", wshape)], ["y", "mean", "inv"], opset=17)
    check(m, {"x": rand(*shape) * 3 + 1, "w": rand(*wshape, seed=1), "b": rand(*wshape, seed=2)})


def test_castlike_of_a_constant_takes_the_tensors_dtype():
    """CastLike(0.5, x) as Gelu's function body writes it, in f16."""
    h = TensorProto.FLOAT16
    nodes = [const("half", np.array(0.5, np.float32)),
             helper.make_node("CastLike", ["half", "x"], ["h"]),
             helper.make_node("Mul", ["x", "h"], ["y"])]
    p = mo.from_onnx(model(nodes, [("x", [3, 4])], ["y"], elem=h))
    x = rand(3, 4).astype(np.float16)
    assert rel_error(p.run([x])[0], 0.5 * x.astype(np.float64)) < 1e-12


def test_variadic_sum():
    m = model([helper.make_node("Sum", ["a", "b", "c"], ["y"])],
              [("a", [3, 4]), ("b", [4]), ("c", [3, 1])], ["y"])
    check(m, {"a": rand(3, 4), "b": rand(4, seed=1), "c": rand(3, 1, seed=2)})


def test_pow_with_one_constant_exponent_in_a_tensor():
    nodes = [const("e", np.full((1, 4), 3.0, np.float32)), helper.make_node("Pow", ["x", "e"], ["y"])]
    check(model(nodes, [("x", [3, 4])], ["y"]), {"x": rand(3, 4)})
    nodes = [const("e", np.array([1.0, 2.0, 3.0, 2.0], np.float32)), helper.make_node("Pow", ["x", "e"], ["y"])]
    with pytest.raises(mo.MirageError, match="Pow.*exponent"):
        mo.from_onnx(model(nodes, [("x", [3, 4])], ["y"]))


def test_operators_folded_only_name_themselves_on_computed_tensors():
    m = model([helper.make_node("Floor", ["x"], ["y"])], [("x", [3, 4])], ["y"])
    with pytest.raises(mo.MirageError, match=r"\(Floor\): Floor of a computed tensor"):
        mo.from_onnx(m)


@pytest.mark.parametrize("idx,axis", [([2, 0, 1, 3], 1), ([[0, 2], [4, 4]], 2), (-1, 0), ([1, 3, 5], 2),
                                      ([4, 3, 2, 1, 0], 2)])
def test_gather_with_constant_indices(idx, axis):
    nodes = [const("i", np.array(idx, np.int64)), helper.make_node("Gather", ["x", "i"], ["y"], axis=axis)]
    check(model(nodes, [("x", [2, 4, 6])], ["y"]), {"x": rand(2, 4, 6)})


def test_gather_out_of_range_is_refused_and_scattered_indices_gather():
    nodes = [const("i", np.array([0, 6], np.int64)), helper.make_node("Gather", ["x", "i"], ["y"], axis=2)]
    with pytest.raises(mo.MirageError, match="Gather.*out of range"):
        mo.from_onnx(model(nodes, [("x", [2, 4, 6])], ["y"]))
    # 200 scattered constant positions are no run of slices: they become a
    # graph.gather of a bound index constant.
    idx = np.random.default_rng(0).permutation(200)
    nodes = [const("i", idx), helper.make_node("Gather", ["x", "i"], ["y"], axis=0)]
    p = mo.from_onnx(model(nodes, [("x", [200, 3])], ["y"]))
    assert "graph.gather" in p.text
    x = rand(200, 3)
    assert np.array_equal(p.run([x])[0], x[idx])


@pytest.mark.parametrize("start,end,step", [(-1, -100, -1), (5, 0, -2), (3, 1, -1)])
def test_slice_backwards(start, end, step):
    nodes = [const("s", np.array([start], np.int64)), const("e", np.array([end], np.int64)),
             const("a", np.array([1], np.int64)), const("t", np.array([step], np.int64)),
             helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["y"])]
    check(model(nodes, [("x", [2, 6])], ["y"]), {"x": rand(2, 6)})


def test_max_min_with_constant_scalars_and_clip_with_min_above_max():
    nodes = [const("z", np.array(0.0, np.float32)), const("c", np.array([0.5], np.float32)),
             helper.make_node("Max", ["x", "z"], ["r"]), helper.make_node("Min", ["r", "c"], ["m"]),
             const("lo", np.array(1.0, np.float32)), const("hi", np.array(-1.0, np.float32)),
             helper.make_node("Clip", ["x", "lo", "hi"], ["k"]), helper.make_node("Add", ["m", "k"], ["y"])]
    p = check(model(nodes, [("x", [3, 4])], ["y"]), {"x": rand(3, 4)})
    assert "graph.relu" in p.mlir()
    m = model([helper.make_node("Max", ["x", "w"], ["y"])], [("x", [3, 4]), ("w", [3, 4])], ["y"])
    with pytest.raises(mo.MirageError, match="Max of 2 computed tensors"):
        mo.from_onnx(m)
