"""Casts between float32, float16 and bfloat16, and erf on its own (issue 24):
graph.cast from Python, from PyTorch (`x.to(dtype)`, `_to_copy`, `type_as`,
type promotion made explicit) and from ONNX (`Cast`, `Erf`), checked against
PyTorch itself: a bf16-weight / f16-activation MLP and a T5 layer as
Hugging Face writes it, each also after superoptimize()."""

import math

import numpy as np
import pytest

import mirage_opt as mo
from conftest import rel_error

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional

# Relative to the largest reference magnitude: a few roundings of each dtype.
TOL = {torch.float32: 1e-5, torch.float16: 4e-3, torch.bfloat16: 3e-2}


# -- the graph builder ------------------------------------------------------------


def test_graph_cast_and_erf(rng):
    g = mo.Graph("mixed")
    x = g.input((4, 8), "f16")
    w = g.input((8, 3), "bf16")
    y = g.matmul(g.cast(x, "f32"), g.cast(w, "f32"))
    g.output(g.cast(g.erf(y), "f16"), g.cast(x, "bf16"))
    assert g.cast(x, "f16") is x  # a cast to its own dtype is the value
    p = g.program()
    assert "graph.cast %arg1 : tensor<8x3xbf16> -> tensor<8x3xf32>" in p.mlir()
    xs = rng.uniform(-1, 1, (4, 8)).astype(np.float16)
    ws = rng.uniform(-1, 1, (8, 3)).astype(np.float32)
    out, xb = p.run([xs, ws], mode="native")
    wb = torch.tensor(ws).bfloat16()
    ref = torch.erf(torch.tensor(xs).float() @ wb.float()).half().double().numpy()
    assert rel_error(out, ref) <= 1e-3
    # bf16 keeps 8 significant bits: the native run rounds to them.
    assert np.array_equal(xb, torch.tensor(xs).bfloat16().double().numpy())
    # fp64 mode computes in double precision throughout: the cast is exact.
    assert np.array_equal(p.run([xs, ws])[1], xs.astype(np.float64))
    with pytest.raises(mo.GraphError, match="dtype 'f64'"):
        g.cast(x, "f64")
    with pytest.raises(mo.GraphError, match="different dtypes"):
        g.add(x, g.cast(x, "f32"))


# -- PyTorch -----------------------------------------------------------------------


class T5LayerNorm(nn.Module):
    """transformers' T5LayerNorm (modeling_t5.py): RMS norm, the variance in
    float32 whatever the model's dtype, the result back in the weight's."""

    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        if self.weight.dtype in [torch.float16, torch.bfloat16]:
            hidden_states = hidden_states.to(self.weight.dtype)
        return self.weight * hidden_states


class T5DenseActDense(nn.Module):
    """transformers' T5DenseActDense: `wo` may be kept in float32 in a half
    model (T5's _keep_in_fp32_modules), its input converted to it."""

    def __init__(self, d_model, d_ff):
        super().__init__()
        self.wi = nn.Linear(d_model, d_ff, bias=False)
        self.wo = nn.Linear(d_ff, d_model, bias=False)
        self.dropout = nn.Dropout(0.1)
        self.act = nn.ReLU()

    def forward(self, hidden_states):
        hidden_states = self.wi(hidden_states)
        hidden_states = self.act(hidden_states)
        hidden_states = self.dropout(hidden_states)
        if (
            isinstance(self.wo.weight, torch.Tensor)
            and hidden_states.dtype != self.wo.weight.dtype
            and self.wo.weight.dtype != torch.int8
        ):
            hidden_states = hidden_states.to(self.wo.weight.dtype)
        hidden_states = self.wo(hidden_states)
        return hidden_states


class T5LayerFF(nn.Module):
    """transformers' T5LayerFF: pre-norm feed-forward with a residual."""

    def __init__(self, d_model, d_ff, eps=1e-6):
        super().__init__()
        self.DenseReluDense = T5DenseActDense(d_model, d_ff)
        self.layer_norm = T5LayerNorm(d_model, eps=eps)
        self.dropout = nn.Dropout(0.1)

    def forward(self, hidden_states):
        forwarded_states = self.layer_norm(hidden_states)
        forwarded_states = self.DenseReluDense(forwarded_states)
        hidden_states = hidden_states + self.dropout(forwarded_states)
        return hidden_states


def t5_layer(dtype, keep_wo_fp32=False):
    torch.manual_seed(3)
    m = T5LayerFF(64, 128).eval()
    with torch.no_grad():
        m.layer_norm.weight.uniform_(0.5, 1.5)
    m = m.to(dtype)
    if keep_wo_fp32:
        m.DenseReluDense.wo.to(torch.float32)
    return m


class MixedMLP(nn.Module):
    """bf16 weights, f16 activations: each conversion written out, the
    products and the activation in float32, the result back in f16."""

    def __init__(self, d, h):
        super().__init__()
        self.fc1 = nn.Linear(d, h, bias=False).to(torch.bfloat16)
        self.w2 = nn.Parameter((torch.randn(h, d) / math.sqrt(h)).to(torch.bfloat16))

    def forward(self, x):
        h = F.linear(x.to(torch.float32), self.fc1.weight.to(torch.float32))
        h = F.silu(h)
        y = h @ self.w2.float()
        return y.type_as(x)


def mixed_mlp():
    torch.manual_seed(4)
    return MixedMLP(64, 96).eval()


def compare(p, m, x, tol, search=False):
    """p's results in its own dtypes and in fp64 against PyTorch's, within
    `tol` of the largest reference magnitude; also after superoptimize()."""
    with torch.no_grad():
        ref = m(x).double().numpy()
    feed = [x.double().numpy()]
    for mode in ("native", "fp64"):
        (out,) = p.run(feed, mode=mode)
        assert out.shape == ref.shape
        assert rel_error(out, ref) <= tol, mode
    if search:
        q = p.superoptimize("sm_90", state_budget=20000, cache="off", verbose=False)
        (out,) = q.run(feed, mode="native")
        assert rel_error(out, ref) <= tol
    return p


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_t5_layer_from_torch(dtype):
    m = t5_layer(dtype)
    x = torch.randn(2, 8, 64).to(dtype)
    p = mo.from_torch(m, (x,))
    if dtype != torch.float32:
        # The variance in f32 and back: two conversions each way.
        assert p.mlir().count("graph.cast") >= 2
    compare(p, m, x, TOL[dtype], search=dtype == torch.float16)


def test_t5_layer_with_fp32_wo_from_torch():
    # T5 in half keeps `wo` in float32: its input is converted up, and the
    # residual f16 + f32 is computed in f32 (PyTorch's type promotion, made
    # explicit as a cast of the f16 operand).
    m = t5_layer(torch.float16, keep_wo_fp32=True)
    x = torch.randn(2, 8, 64).half()
    p = mo.from_torch(m, (x,))
    assert p.outputs[0].dtype == "f32"
    compare(p, m, x, TOL[torch.float16], search=True)


def test_mixed_mlp_from_torch():
    m = mixed_mlp()
    x = torch.randn(4, 64).half()
    p = mo.from_torch(m, (x,))
    text = p.mlir()
    assert "tensor<64x96xbf16> -> tensor<64x96xf32>" in text or \
        "tensor<96x64xbf16> -> tensor<96x64xf32>" in text
    assert "-> tensor<4x64xf16>" in text
    compare(p, m, x, TOL[torch.float16], search=True)


def test_torch_cast_ops_and_erf():
    def fn(x, y):
        return (torch.erf(x), x.to(torch.bfloat16), x.half().float(), x.type_as(y),
                torch.softmax(y, -1, dtype=torch.float32), y.sum(-1, dtype=torch.float32),
                x * y)
    x, y = torch.randn(3, 8), torch.randn(3, 8).half()
    p = mo.from_torch(fn, (x, y))
    outs = p.run([x.numpy(), y.double().numpy()], mode="native")
    with torch.no_grad():
        refs = fn(x, y)
    for out, ref in zip(outs, refs):
        assert rel_error(out, ref.double().numpy()) <= TOL[ref.dtype], ref.dtype
    assert [o.dtype for o in p.outputs] == ["f32", "bf16", "f32", "f16", "f32", "f32", "f32"]


def test_torch_cast_to_other_dtypes_is_refused():
    with pytest.raises(mo.MirageError, match="float64.*float32, float16 and bfloat16"):
        mo.from_torch(lambda x: x.to(torch.float64) * 2, (torch.randn(4),))


# -- ONNX --------------------------------------------------------------------------


def export(m, x, path, fold=True):
    torch.onnx.export(m, (x,), str(path), dynamo=False, opset_version=17,
                      do_constant_folding=fold)
    return mo.from_onnx(str(path))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_t5_layer_from_onnx(dtype, tmp_path):
    m = t5_layer(dtype)
    x = torch.randn(2, 8, 64).to(dtype)
    p = export(m, x, tmp_path / "t5.onnx")
    compare(p, m, x, TOL[dtype], search=dtype == torch.float16)


def test_mixed_mlp_from_onnx(tmp_path):
    m = mixed_mlp()
    x = torch.randn(4, 64).half()
    # Without the exporter's folding the bf16 weights stay bf16
    # initializers, each read by a Cast to float32.
    p = export(m, x, tmp_path / "mlp.onnx", fold=False)
    assert "tensor<96x64xbf16> -> tensor<96x64xf32>" in p.mlir()
    compare(p, m, x, TOL[torch.float16], search=True)


def test_onnx_cast_and_erf(rng):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    nodes = [helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
             helper.make_node("Cast", ["h"], ["b"], to=TensorProto.BFLOAT16),
             helper.make_node("Erf", ["x"], ["e"]),
             helper.make_node("Cast", ["e"], ["y"], to=TensorProto.FLOAT16)]
    graph = helper.make_graph(
        nodes, "casts", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8])],
        [helper.make_tensor_value_info("b", TensorProto.BFLOAT16, [4, 8]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT16, [4, 8])])
    p = mo.from_onnx(helper.make_model(graph))
    x = rng.uniform(-2, 2, (4, 8)).astype(np.float32)
    b, y = p.run([x], mode="native")
    xt = torch.tensor(x)
    assert np.array_equal(b, xt.half().bfloat16().double().numpy())
    assert rel_error(y, torch.erf(xt).half().double().numpy()) <= 1e-3
    bad = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["i"], to=TensorProto.INT32, name="to_int")], "bad",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("i", TensorProto.INT32, [4])])
    with pytest.raises(mo.MirageError, match=r"to_int \(Cast\): a cast from f32 to INT32: "
                                             r"the graph dialect computes in FLOAT, FLOAT16"):
        mo.from_onnx(helper.make_model(bad))
