"""Pooling and strided slices beyond graph's 2-d pooling (python/mirage_opt/
_windows.py), from PyTorch and ONNX, against PyTorch and onnx's reference
evaluator: 1-d and 3-d inputs, dilations, ceil_mode's partial windows,
uncounted and asymmetric padding, adaptive windows of unequal size."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")
import torch.nn.functional as F  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import mirage_opt as mo  # noqa: E402
from conftest import rel_error  # noqa: E402


def check_torch(fn, *inputs, tol=1e-12):
    p = mo.from_torch(fn, inputs)
    outs = p.run([t.numpy() for t in inputs])
    ref = fn(*(t.double() for t in inputs))
    assert outs[0].shape == tuple(ref.shape)
    assert rel_error(outs[0], ref.numpy()) < tol
    return p


POOLS = [
    lambda x: F.max_pool1d(x, 3, 2, 1),
    lambda x: F.max_pool1d(x, 3, 1, 1, dilation=3),
    lambda x: F.avg_pool1d(x, 4, 3, 2, ceil_mode=True, count_include_pad=False),
    lambda x: F.avg_pool1d(x, 4, 3, 2, ceil_mode=True),
    lambda x: F.max_pool1d(x, 2, 2, ceil_mode=True),
]


@pytest.mark.parametrize("i", range(len(POOLS)))
def test_1d_pooling_matches_torch(i):
    torch.manual_seed(i)
    check_torch(POOLS[i], torch.randn(2, 3, 11))


@pytest.mark.parametrize("fn", [
    lambda x: F.max_pool2d(x, 3, 2, 1, dilation=2),
    lambda x: F.max_pool2d(x, (3, 2), (2, 1), (1, 1), ceil_mode=True),
    lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
    lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True),
    lambda x: F.avg_pool2d(x, (2, 3), 2, (1, 1), count_include_pad=False),
    lambda x: F.adaptive_avg_pool2d(x, (3, 4)),
    lambda x: F.adaptive_max_pool2d(x, (4, 3)),
    lambda x: F.max_pool2d(x[0], 2),   # unbatched
], ids=["dilated-max", "ceil-max", "ceil-avg-uncounted", "ceil-avg", "uncounted",
        "adaptive-avg", "adaptive-max", "unbatched"])
def test_2d_pooling_matches_torch(fn):
    torch.manual_seed(3)
    check_torch(fn, torch.randn(2, 3, 9, 10))


@pytest.mark.parametrize("fn", [
    lambda x: F.max_pool3d(x, 2),
    lambda x: F.max_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 1, 0), dilation=(1, 2, 1)),
    lambda x: F.avg_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 1)),
    lambda x: F.avg_pool3d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
], ids=["max", "dilated-max", "avg-padded", "ceil-avg-uncounted"])
def test_3d_pooling_matches_torch(fn):
    torch.manual_seed(4)
    check_torch(fn, torch.randn(1, 2, 7, 6, 5))


@pytest.mark.parametrize("sl", [(0, None, 2), (1, 7, 3), (2, None, 5), (4, 5, 2), (0, 8, 1)])
def test_torch_slice_with_steps(sl):
    s, e, st = sl
    check_torch(lambda x: x[:, s:e:st] * 2, torch.randn(3, 8, 2))


def test_graph_pooling_is_used_where_it_computes_the_same():
    """The window-by-window form only where graph's own pooling differs."""
    p = mo.from_torch(lambda x: F.max_pool2d(x, 3, 2, 1), (torch.randn(1, 2, 9, 9),))
    assert "graph.max_pool2d" in p.mlir() and "graph.concat" not in p.mlir()
    p = mo.from_torch(lambda x: F.max_pool2d(x, 3, 2, 1, dilation=2), (torch.randn(1, 2, 9, 9),))
    assert "graph.max_pool2d" not in p.mlir() and "graph.reduce_max" in p.mlir()


def onnx_model(node, shape):
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


@pytest.mark.parametrize("seed", range(24))
def test_random_onnx_pooling_matches_the_reference_evaluator(seed):
    """Random 1-3 d pooling configurations (floor mode; the reference
    evaluator pads ceil_mode's windows its own way, so ceil_mode is checked
    against PyTorch above and against onnx's backend cases)."""
    rng = np.random.default_rng(seed)
    nd = int(rng.integers(1, 4))
    kind = "MaxPool" if seed % 2 else "AveragePool"
    kernel = [int(v) for v in rng.integers(1, 4, nd)]
    dil = [int(v) for v in rng.integers(1, 3, nd)]
    strides = [int(v) for v in rng.integers(1, 3, nd)]
    pads = [int(rng.integers(0, k)) for k in kernel] + [int(rng.integers(0, k)) for k in kernel]
    shape = [1, 2] + [int(v) for v in rng.integers(5, 9, nd)]
    attrs = dict(kernel_shape=kernel, strides=strides, dilations=dil, pads=pads)
    if kind == "AveragePool":
        attrs["count_include_pad"] = int(rng.integers(0, 2))
    m = onnx_model(helper.make_node(kind, ["x"], ["y"], **attrs), shape)
    x = rng.normal(size=shape).astype(np.float32)
    ref = ReferenceEvaluator(m).run(None, {"x": x})[0]
    try:
        p = mo.from_onnx(m)
    except mo.MirageError as e:
        assert "padding" in str(e), e  # a window wholly in uncounted padding
        return
    out = p.run([x])[0]
    assert out.shape == ref.shape
    assert rel_error(out, ref) < 1e-6


def test_global_pooling_of_1d_and_3d_inputs():
    """N x C x 1 x ... as the operator's definition says (onnx 1.23's reference
    GlobalMaxPool reduces the wrong axes for inputs that are not 4-d, so
    NumPy is the reference here)."""
    for kind, reduce in (("GlobalAveragePool", np.mean), ("GlobalMaxPool", np.max)):
        for shape in ([2, 3, 7], [1, 2, 3, 4, 5]):
            m = onnx_model(helper.make_node(kind, ["x"], ["y"]), shape)
            x = np.random.default_rng(len(shape)).normal(size=shape).astype(np.float32)
            out = mo.from_onnx(m).run([x])[0]
            ref = reduce(x.astype(np.float64), axis=tuple(range(2, len(shape))), keepdims=True)
            assert out.shape == ref.shape and rel_error(out, ref) < 1e-12
