"""Index tensors through both importers, against PyTorch and onnx's reference
evaluator (issue 24): token embeddings from int64 ids, T5's relative-position
bias (an embedding of a constant bucket table), torch.gather / scatter /
one_hot, topk, and a Mixtral-style top-2 MoE layer."""

import io

import numpy as np
import pytest

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

import mirage_opt as mo  # noqa: E402
from conftest import rel_error  # noqa: E402
from onnx_cases import check, const  # noqa: E402


def _onnx_of(module, inputs):
    buf = io.BytesIO()
    torch.onnx.export(module, inputs, buf, opset_version=17, dynamo=False)
    return onnx.load_from_string(buf.getvalue())


def _import(via, module, inputs):
    return mo.from_torch(module, inputs) if via == "torch" else mo.from_onnx(_onnx_of(module, inputs))


def _feeds(inputs):
    return [t.numpy() for t in inputs]


# -- Mixtral-style MoE ---------------------------------------------------------------


class Expert(nn.Module):
    def __init__(self, d, f):
        super().__init__()
        self.w1 = nn.Linear(d, f, bias=False)
        self.w2 = nn.Linear(f, d, bias=False)
        self.w3 = nn.Linear(d, f, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoE(nn.Module):
    """Mixtral's sparse MoE block: router softmax in f32, top-2 experts,
    gates renormalized over the two, cast back to the model's dtype. The
    dispatch is written with static shapes (every expert sees every token,
    its output weighted by the token's gate, zero where not selected), as
    exporters need; `combine` picks how the gates are spread: a scatter of
    the gates or a sum of one-hot rows."""

    def __init__(self, d=32, f=64, experts=4, k=2, combine="scatter"):
        super().__init__()
        self.gate = nn.Linear(d, experts, bias=False)
        self.experts = nn.ModuleList([Expert(d, f) for _ in range(experts)])
        self.k, self.n, self.combine = k, experts, combine

    def forward(self, x):
        b, t, d = x.shape
        h = x.view(-1, d)
        w = F.softmax(self.gate(h), dim=1, dtype=torch.float)
        w, chosen = torch.topk(w, self.k, dim=-1)
        w = (w / w.sum(dim=-1, keepdim=True)).to(h.dtype)
        if self.combine == "scatter":
            gates = torch.zeros(h.shape[0], self.n, dtype=h.dtype).scatter(1, chosen, w)
        else:
            gates = (F.one_hot(chosen, self.n).to(h.dtype) * w.unsqueeze(-1)).sum(1)
        out = torch.zeros_like(h)
        for i, expert in enumerate(self.experts):
            out = out + expert(h) * gates[:, i:i + 1]
        return out.view(b, t, d)


def _moe(combine, dtype=torch.float32):
    torch.manual_seed(3)
    m = SparseMoE(combine=combine).eval().to(dtype)
    return m, torch.randn(2, 8, 32, dtype=dtype)


@pytest.mark.parametrize("combine", ["scatter", "one_hot"])
@pytest.mark.parametrize("via", ["torch", "onnx"])
def test_mixtral_moe_matches_pytorch(via, combine):
    m, x = _moe(combine)
    with torch.no_grad():
        ref = m(x).double().numpy()
    p = _import(via, m, (x,))
    assert "graph.topk" in p.text
    assert rel_error(p.run([x.numpy()])[0], ref) < 1e-6


def test_mixtral_moe_bf16_matches_pytorch_in_its_dtype():
    m, x = _moe("scatter", torch.bfloat16)
    with torch.no_grad():
        ref = m(x).double().numpy()
    p = mo.from_torch(m, (x,))
    out = p.run([x.float().numpy()], mode="native")[0]
    # bf16 rounding in each op, as PyTorch's bf16 CPU kernels round.
    assert rel_error(out, ref) < 3e-2


def test_mixtral_moe_superoptimized_still_matches():
    m, x = _moe("scatter")
    with torch.no_grad():
        ref = m(x).double().numpy()
    p = mo.from_torch(m, (x,))
    q = p.superoptimize("sm_90", state_budget=2000, cache="off", verbose=False)
    assert "kernel.topk" in q.text and "kernel.scatter_elements" in q.text
    assert rel_error(q.run([x.numpy()])[0], ref) < 1e-6


# -- embeddings -----------------------------------------------------------------------


class TokenEmbedding(nn.Module):
    """GPT-2's input: token embedding of int64 ids plus learned positions."""

    def __init__(self, vocab=100, ctx=16, d=32):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(ctx, d)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], dtype=torch.long)
        return self.wte(ids) + self.wpe(pos)


@pytest.mark.parametrize("via", ["torch", "onnx"])
def test_token_embedding_of_int64_ids(via):
    torch.manual_seed(1)
    m = TokenEmbedding().eval()
    ids = torch.randint(0, 100, (2, 12))
    with torch.no_grad():
        ref = m(ids).double().numpy()
    p = _import(via, m, (ids,))
    assert "graph.gather" in p.text and "xi64>" in p.text
    assert rel_error(p.run([ids.numpy()])[0], ref) < 1e-7
    # The verifier draws ids as valid positions: the program verifies.
    q = p.superoptimize("sm_90", state_budget=500, cache="off", verbose=False)
    assert rel_error(q.run([ids.numpy()])[0], ref) < 1e-7


def test_token_id_out_of_range_is_an_error_not_a_clamp():
    m = TokenEmbedding().eval()
    p = mo.from_torch(m, (torch.randint(0, 100, (2, 12)),))
    bad = np.full((2, 12), 7, dtype=np.int64)
    bad[1, 3] = 100
    with pytest.raises(mo.MirageError, match=r"index 100 at flat position 15 lies outside \[0, 100\)"):
        p.run([bad])


def _bucket(relative, buckets=32, max_distance=128):
    """T5's bidirectional relative-position bucket, as HF computes it: half
    the buckets per direction, exact below a quarter, log-spaced above."""
    half = buckets // 2
    out = (relative > 0).long() * half
    n = relative.abs()
    exact = half // 2
    large = exact + (torch.log(n.float() / exact) / np.log(max_distance / exact) *
                     (half - exact)).long()
    large = torch.minimum(large, torch.full_like(large, half - 1))
    return out + torch.where(n < exact, n, large)


class T5Bias(nn.Module):
    """T5Attention.compute_bias: the bucket table depends only on the
    lengths, so it is a constant of the import; the embedding of it is a
    gather of the learned bias by that constant table."""

    def __init__(self, heads=4, buckets=32):
        super().__init__()
        self.rel = nn.Embedding(buckets, heads)

    def forward(self, scores):
        q, k = scores.shape[-2:]
        ctx = torch.arange(q, dtype=torch.long)[:, None]
        mem = torch.arange(k, dtype=torch.long)[None, :]
        bias = self.rel(_bucket(mem - ctx)).permute(2, 0, 1).unsqueeze(0)
        return scores + bias


@pytest.mark.parametrize("via", ["torch", "onnx"])
def test_t5_relative_position_bias(via):
    torch.manual_seed(2)
    m = T5Bias().eval()
    s = torch.randn(2, 4, 10, 10)
    with torch.no_grad():
        ref = m(s).double().numpy()
    # The bias is a constant once the weights are: keep them as inputs to
    # see the gather of the learned table by the constant bucket table.
    if via == "torch":
        p = mo.from_torch(m, (s,), keep_weights_as_inputs=True)
        feeds = [s.numpy(), m.rel.weight.detach().double().numpy()]
    else:
        p = mo.from_onnx(_onnx_of(m, (s,)), keep_weights_as_inputs=True)
        feeds = [s.numpy(), m.rel.weight.detach().double().numpy()]
    assert "graph.gather" in p.text
    assert rel_error(p.run(feeds)[0], ref) < 1e-7
    assert rel_error(_import(via, m, (s,)).run([s.numpy()])[0], ref) < 1e-7


# -- gather, scatter, one_hot and topk one by one --------------------------------------


def test_gather_scatter_one_hot_topk_from_torch():
    def fn(x, idx, rows):
        v, i = torch.topk(x, 3, dim=1, largest=False)
        g = torch.gather(x, 1, i)
        s = torch.zeros_like(x).scatter_add(1, idx, torch.ones(4, 2))
        h = F.one_hot(i, 6).float().sum(1)
        e = torch.index_select(x, 0, rows)
        return v, g, s, h, e, i

    torch.manual_seed(4)
    x, idx = torch.randn(4, 6), torch.tensor([[0, 5], [1, 1], [2, 0], [3, 3]])
    rows = torch.tensor([3, 0, 0])
    refs = fn(x, idx, rows)
    p = mo.from_torch(fn, (x, idx, rows))
    outs = p.run([x.numpy(), idx.numpy(), rows.numpy()])
    for out, ref in zip(outs, refs):
        assert np.array_equal(out, ref.double().numpy())


def test_topk_ties_and_nan():
    x = torch.tensor([[1.0, 3.0, 3.0, float("nan"), -2.0, 3.0]])
    p = mo.from_torch(lambda t: torch.topk(t, 4, dim=1), (x,))
    v, i = p.run([x.numpy()])
    rv, ri = torch.topk(x, 4, dim=1)
    # NaN counts as the largest (PyTorch's rule); PyTorch leaves the order
    # of ties open, and the graph op puts them in position order (ONNX's).
    assert np.array_equal(v, rv.double().numpy(), equal_nan=True)
    assert i.tolist() == [[3, 1, 2, 5]] and sorted(ri.tolist()[0]) == [1, 2, 3, 5]


def test_scatter_with_two_updates_of_one_element_is_an_error():
    def fn(x, idx, u):
        return x.scatter(1, idx, u)

    x, u = torch.zeros(2, 4), torch.ones(2, 2)
    p = mo.from_torch(fn, (x, torch.tensor([[0, 1], [2, 3]]), u))
    with pytest.raises(mo.MirageError, match="two updates to the element"):
        p.run([x.numpy(), np.array([[1, 1], [2, 3]]), u.numpy()])


def test_integer_arithmetic_is_refused_clearly():
    with pytest.raises(mo.MirageError, match="is an index tensor"):
        mo.from_torch(lambda ids, t: t[0] * ids.float(), (torch.tensor([1, 2]), torch.ones(2)))


# -- ONNX nodes against the reference evaluator ------------------------------------------


def _index_model(nodes, inputs, outputs):
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


F32, I64 = TensorProto.FLOAT, TensorProto.INT64


def test_onnx_gather_of_int64_input_and_gather_elements(rng):
    m = _index_model(
        [helper.make_node("Gather", ["w", "ids"], ["e"], axis=0),
         helper.make_node("GatherElements", ["w", "pos"], ["g"], axis=1)],
        [("w", F32, [10, 6]), ("ids", I64, [3, 2]), ("pos", I64, [10, 2])],
        [("e", F32), ("g", F32)])
    check(m, {"w": rng.standard_normal((10, 6)).astype(np.float32),
              "ids": rng.integers(0, 10, (3, 2)), "pos": rng.integers(0, 6, (10, 2))})


@pytest.mark.parametrize("reduction", ["none", "add"])
def test_onnx_scatter_elements_with_negative_constant_indices(rng, reduction):
    idx = np.array([[-1, 0], [2, -4]], dtype=np.int64)
    m = _index_model(
        [const("idx", idx),
         helper.make_node("ScatterElements", ["x", "idx", "u"], ["y"], axis=1,
                          reduction=reduction)],
        [("x", F32, [2, 5]), ("u", F32, [2, 2])], [("y", F32)])
    check(m, {"x": rng.standard_normal((2, 5)).astype(np.float32),
              "u": rng.standard_normal((2, 2)).astype(np.float32)})


def test_onnx_topk_ties_in_position_order():
    m = _index_model(
        [const("k", np.array([3], dtype=np.int64)),
         helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1)],
        [("x", F32, [2, 5])], [("v", F32), ("i", I64)])
    check(m, {"x": np.array([[1, 2, 2, 0, 2], [5, 5, 5, 5, 5]], dtype=np.float32)})


def test_onnx_topk_smallest_and_one_hot_with_values(rng):
    m = _index_model(
        [const("k", np.array([2], dtype=np.int64)),
         helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1, largest=0),
         const("depth", np.array(5, dtype=np.int64)),
         const("vals", np.array([-1.0, 3.0], dtype=np.float32)),
         helper.make_node("OneHot", ["i", "depth", "vals"], ["h"], axis=-1)],
        [("x", F32, [3, 5])], [("v", F32), ("i", I64), ("h", F32)])
    check(m, {"x": rng.standard_normal((3, 5)).astype(np.float32)})
