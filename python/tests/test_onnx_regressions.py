"""Regression tests from ONNX conformance cases that imported wrongly or
crashed (issue 24): each is checked against onnx's reference evaluator, or
must be refused with a short, located MirageError."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

import mirage_opt as mo  # noqa: E402
from conftest import rel_error  # noqa: E402
import onnx_cases  # noqa: E402
from onnx_cases import check, const  # noqa: E402


model = onnx_cases.model


def refused(m, *words):
    with pytest.raises(mo.MirageError) as e:
        mo.from_onnx(m)
    text = str(e.value)
    assert len(text) < 1000, len(text)
    for w in words:
        assert w in text, text
    return text


X = np.random.default_rng(3).normal(size=(2, 3, 4, 5)).astype(np.float32) * 8


@pytest.mark.parametrize("axis", [-4, -3, -2, -1, 0, 1, 2, 3, 4])
def test_flatten_every_axis(axis):
    m = model([helper.make_node("Flatten", ["x"], ["y"], axis=axis)], [("x", [2, 3, 4, 5])], ["y"])
    check(m, {"x": X})


POOLS = [  # kind, input shape, kernel, strides, dilations, pads, ceil_mode, count_include_pad
    ("AveragePool", [2, 3, 7, 8], [2, 2], [1, 1], [2, 2], [0, 0, 0, 0], 0, 0),   # the case
    ("AveragePool", [1, 2, 9, 7], [3, 2], [2, 1], [2, 3], [1, 0, 2, 1], 0, 0),
    ("AveragePool", [1, 2, 9, 7], [3, 2], [2, 1], [2, 3], [1, 0, 2, 1], 0, 1),
    ("AveragePool", [1, 2, 8, 8], [3, 3], [2, 2], [1, 1], [1, 1, 1, 1], 0, 0),   # pads not counted
    ("AveragePool", [1, 2, 7, 6], [2, 3], [1, 2], [1, 1], [0, 2, 1, 0], 0, 1),   # asymmetric
    ("AveragePool", [1, 1, 5, 5], [2, 2], [1, 1], [1, 1], [2, 2, 2, 2], 0, 1),   # pad = the window
    ("AveragePool", [2, 2, 11], [3], [2], [3], [2, 1], 0, 0),                   # 1-d
    ("AveragePool", [1, 2, 7, 5, 6], [2, 3, 2], [2, 1, 2], [2, 1, 2], [1, 0, 1, 0, 2, 1], 0, 0),
    ("MaxPool", [2, 3, 8, 9], [3, 2], [1, 2], [2, 2], [0, 0, 0, 0], 0, 0),
    ("MaxPool", [1, 2, 9, 7], [3, 3], [2, 2], [2, 1], [2, 1, 1, 2], 0, 0),
    ("MaxPool", [1, 2, 7, 6, 5], [2, 2, 3], [1, 2, 1], [3, 1, 2], [1, 1, 0, 0, 1, 2], 0, 0),
    ("MaxPool", [2, 2, 10], [3], [1], [4], [3, 0], 0, 0),
]


@pytest.mark.parametrize("case", POOLS, ids=lambda c: f"{c[0]}-{len(c[1]) - 2}d-d{c[4]}-p{c[5]}-c{c[7]}")
def test_pooling_that_graph_pooling_cannot_express_is_exact(case):
    """Dilations, asymmetric pads, pads left out of an average, pads as wide as
    the window: pooled window by window along each axis, against the
    reference evaluator (it used to ignore AveragePool's dilations)."""
    kind, shape, kernel, strides, dilations, pads, ceil, counted = case
    attrs = dict(kernel_shape=kernel, strides=strides, dilations=dilations, pads=pads,
                 ceil_mode=ceil)
    if kind == "AveragePool":
        attrs["count_include_pad"] = counted
    m = model([helper.make_node(kind, ["x"], ["y"], **attrs)], [("x", shape)], ["y"], opset=19)
    x = np.random.default_rng(len(shape) + sum(kernel)).normal(size=shape).astype(np.float32)
    check(m, {"x": x}, 1e-6)


@pytest.mark.parametrize("kind", ["MaxPool", "AveragePool"])
@pytest.mark.parametrize("counted", [0, 1])
def test_ceil_mode_partial_windows_match_torch(kind, counted):
    """ceil_mode's last partial window, the divisor counting the padding only
    up to the padded end (PyTorch's rule, which ONNX follows)."""
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(6).normal(size=(2, 3, 8, 7)).astype(np.float32)
    attrs = dict(kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 0], ceil_mode=1)
    if kind == "AveragePool":
        attrs["count_include_pad"] = counted
    m = model([helper.make_node(kind, ["x"], ["y"], **attrs)], [("x", [2, 3, 8, 7])], ["y"])
    p = mo.from_onnx(m)
    out = p.run([x])[0]
    t = torch.from_numpy(x).double()
    if kind == "MaxPool":
        ref = torch.nn.functional.max_pool2d(t, (3, 2), (2, 2), (1, 0), ceil_mode=True)
    else:
        ref = torch.nn.functional.avg_pool2d(t, (3, 2), (2, 2), (1, 0), ceil_mode=True,
                                             count_include_pad=bool(counted))
    assert out.shape == tuple(ref.shape)
    assert rel_error(out, ref.numpy()) < 1e-12


def test_window_wholly_in_padding_is_refused():
    m = model([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2], pads=[3, 0])],
              [("x", [1, 1, 4])], ["y"])
    refused(m, "MaxPool", "padding")


def test_dropout_training_mode_true_is_refused_false_is_identity():
    for mode, ok in ((True, False), (False, True)):
        nodes = [const("r", np.array(0.5, np.float32)), const("t", np.array(mode)),
                 helper.make_node("Dropout", ["x", "r", "t"], ["y"])]
        m = model(nodes, [("x", [2, 3, 4, 5])], ["y"])
        if ok:
            check(m, {"x": X})
        else:
            refused(m, "Dropout", "training_mode")


def test_clip_with_graph_input_bounds_is_refused_constant_bounds_work():
    m = model([helper.make_node("Clip", ["x", "lo", "hi"], ["y"])],
              [("x", [2, 3, 4, 5]), ("lo", []), ("hi", [])], ["y"])
    refused(m, "Clip", "constant")
    nodes = [const("lo", np.array(-2.0, np.float32)), const("hi", np.array(3.0, np.float32)),
             helper.make_node("Clip", ["x", "lo", "hi"], ["y"])]
    check(model(nodes, [("x", [2, 3, 4, 5])], ["y"]), {"x": X})


def test_constant_folds_that_numpy_rejects_are_located_errors():
    # Folding a Reshape of a constant to a shape it cannot take raised
    # NumPy's ValueError out of from_onnx; it is a MirageError naming the
    # node and the shapes.
    nodes = [const("c", np.arange(6, dtype=np.float32).reshape(2, 3)),
             const("s", np.array([4, 2], np.int64)),
             helper.make_node("Reshape", ["c", "s"], ["r"], name="fold_me"),
             helper.make_node("Add", ["x", "r"], ["y"])]
    m = model(nodes, [("x", [4, 2])], ["y"])
    text = refused(m, "fold_me", "Reshape", "cannot fold its constant operands ([2, 3], [2])")
    assert "ValueError" not in text, text


def test_rank0_inputs_and_outputs_run():
    g = mo.Graph("f")
    x = g.input((), "f32")
    g.output(g.exp(x))
    out = g.program().run([np.array(1.5)])
    assert out[0].shape == () and np.isclose(out[0], np.exp(1.5))


@pytest.mark.parametrize("case", ["reduce", "split", "reshape"])
def test_zero_size_shapes_are_refused_as_mirage_errors(case):
    if case == "reduce":
        m = model([helper.make_node("ReduceSum", ["x"], ["y"], keepdims=1)], [("x", [2, 0, 4])], ["y"])
    elif case == "split":
        nodes = [const("s", np.array([0, 5], np.int64)),
                 helper.make_node("Split", ["x", "s"], ["a", "b"], axis=3)]
        check(model(nodes, [("x", [2, 3, 4, 5])], ["b"]), {"x": X})
        m = model(nodes, [("x", [2, 3, 4, 5])], ["a"])
    else:
        nodes = [const("s", np.array([0, 4], np.int64)),
                 helper.make_node("Reshape", ["x", "s"], ["y"], allowzero=1)]
        m = model(nodes, [("x", [0, 4])], ["y"], opset=14)
    refused(m, "zero-size")


def test_max_pool_1d_with_pads():
    m = model([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3], pads=[1, 1], strides=[2])],
              [("x", [2, 3, 9])], ["y"])
    check(m, {"x": np.random.default_rng(1).normal(size=(2, 3, 9)).astype(np.float32)})


@pytest.mark.parametrize("kind", ["MaxPool", "AveragePool"])
def test_pool_3d_is_separable(kind):
    m = model([helper.make_node(kind, ["x"], ["y"], kernel_shape=[2, 3, 2], strides=[2, 1, 2],
                                pads=[1, 1, 0, 1, 1, 0], **({"count_include_pad": 1} if kind == "AveragePool" else {}))],
              [("x", [1, 2, 5, 6, 4])], ["y"])
    check(m, {"x": np.random.default_rng(2).normal(size=(1, 2, 5, 6, 4)).astype(np.float32)}, 1e-6)


def test_auto_pad_same_upper_pooling():
    m = model([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], auto_pad="SAME_UPPER")],
              [("x", [2, 3, 4, 5])], ["y"])
    check(m, {"x": X})


def test_slice_before_opset_10_takes_attributes():
    m = model([helper.make_node("Slice", ["x"], ["y"], starts=[1, 0], ends=[3, -1], axes=[1, 3])],
              [("x", [2, 3, 4, 5])], ["y"], opset=9)
    check(m, {"x": X})


@pytest.mark.parametrize("start,end,step", [(0, 5, 2), (1, 5, 2), (0, 4, 3), (1, 100, 3), (4, 5, 7)])
def test_slice_with_steps(start, end, step):
    nodes = [const("s", np.array([start], np.int64)), const("e", np.array([end], np.int64)),
             const("a", np.array([3], np.int64)), const("t", np.array([step], np.int64)),
             helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["y"])]
    check(model(nodes, [("x", [2, 3, 4, 5])], ["y"]), {"x": X})


def test_f16_gelu_pattern_with_rounded_sqrt2():
    h = TensorProto.FLOAT16
    nodes = [const("sqrt2", np.array(1.4140625, np.float16)),
             helper.make_node("Div", ["x", "sqrt2"], ["d"]),
             helper.make_node("Erf", ["d"], ["e"]),
             const("one", np.array(1.0, np.float16)),
             helper.make_node("Add", ["e", "one"], ["a"]),
             helper.make_node("Mul", ["x", "a"], ["m"]),
             const("half", np.array(0.5, np.float16)),
             helper.make_node("Mul", ["m", "half"], ["y"])]
    p = mo.from_onnx(model(nodes, [("x", [4, 8])], ["y"], elem=h))
    assert "graph.gelu" in p.mlir()


def test_bf16_initializers_are_read_as_values():
    w = np.random.default_rng(4).normal(size=(8, 4)).astype(np.float32)
    bits = (w.view(np.uint32) >> 16).astype(np.uint16)  # truncated to bf16
    init = helper.make_tensor("w", TensorProto.BFLOAT16, [8, 4], bits.tobytes(), raw=True)
    m = model([helper.make_node("MatMul", ["x", "w"], ["y"])], [("x", [2, 8])], ["y"],
              inits=[init], elem=TensorProto.BFLOAT16)
    p = mo.from_onnx(m)
    wv = (bits.astype(np.uint32) << 16).view(np.float32)
    x = np.random.default_rng(5).normal(size=(2, 8))
    out = p.run([x])[0]
    assert rel_error(out, x @ wv.astype(np.float64)) < 1e-12


def test_long_constants_do_not_make_long_messages():
    # A 128x128 index constant with positions up to 6 on an axis of 5: the
    # refusal names the first bad index, not the whole constant.
    idx = np.arange(128 * 128, dtype=np.int64).reshape(128, 128) % 7
    nodes = [const("i", idx), helper.make_node("Gather", ["x", "i"], ["y"], axis=3)]
    refused(model(nodes, [("x", [2, 3, 4, 5])], ["y"]), "Gather", "out of range")
