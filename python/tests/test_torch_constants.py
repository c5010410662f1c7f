"""from_torch folds what is known at import: index arithmetic, arange,
integer buffers and the lookups they feed (T5's relative position buckets,
GPT-2's position embedding) become constants evaluated by PyTorch itself;
only where a constant meets the computed graph does it become a bound input."""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import mirage_opt as mo  # noqa: E402
from conftest import rel_error  # noqa: E402


def relative_position_bucket(relative_position, num_buckets=32, max_distance=128):
    # T5's bidirectional bucketing, written the way HF writes it.
    num_buckets //= 2
    buckets = (relative_position > 0).to(torch.long) * num_buckets
    n = torch.abs(relative_position)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    large = max_exact + (
        torch.log(n.float() / max_exact) / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)).to(torch.long)
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(is_small, n, large)


class T5SelfAttention(torch.nn.Module):
    def __init__(self, d=32, heads=4, buckets=32):
        super().__init__()
        self.heads, self.dk = heads, d // heads
        self.q = torch.nn.Linear(d, d, bias=False)
        self.k = torch.nn.Linear(d, d, bias=False)
        self.v = torch.nn.Linear(d, d, bias=False)
        self.o = torch.nn.Linear(d, d, bias=False)
        self.relative_attention_bias = torch.nn.Embedding(buckets, heads)

    def compute_bias(self, q_len, k_len):
        context = torch.arange(q_len, dtype=torch.long)[:, None]
        memory = torch.arange(k_len, dtype=torch.long)[None, :]
        bucket = relative_position_bucket(memory - context)
        values = self.relative_attention_bias(bucket)          # [q, k, heads]
        return values.permute([2, 0, 1]).unsqueeze(0)          # [1, heads, q, k]

    def forward(self, x):
        b, s, d = x.shape
        def split(t):
            return t.view(b, s, self.heads, self.dk).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.matmul(q, k.transpose(3, 2)) + self.compute_bias(s, s)
        w = torch.softmax(scores.float(), dim=-1)
        y = torch.matmul(w, v).transpose(1, 2).reshape(b, s, d)
        return self.o(y)


class Gpt2Embeddings(torch.nn.Module):
    def __init__(self, n=64, d=16):
        super().__init__()
        self.wpe = torch.nn.Embedding(n, d)
        self.register_buffer("offset", torch.tensor(3, dtype=torch.long))

    def forward(self, tok_emb):
        t = tok_emb.shape[1]
        pos = torch.arange(0, t, dtype=torch.long) + self.offset
        return tok_emb + self.wpe(pos)


def test_t5_relative_position_bias_is_folded():
    torch.manual_seed(0)
    m = T5SelfAttention().eval()
    x = torch.randn(2, 24, 32)
    p = mo.from_torch(m, (x,))
    assert "i64" not in p.mlir()
    out = p.run([x.double().numpy()])[0]
    with torch.no_grad():
        ref = m(x).double().numpy()
    assert rel_error(out, ref) < 1e-5


def test_gpt2_position_embedding_with_an_integer_buffer():
    torch.manual_seed(1)
    m = Gpt2Embeddings().eval()
    x = torch.randn(2, 10, 16)
    p = mo.from_torch(m, (x,))
    out = p.run([x.double().numpy()])[0]
    with torch.no_grad():
        ref = m(x).double().numpy()
    assert rel_error(out, ref) < 1e-6


def test_token_ids_are_an_index_input():
    emb = torch.nn.Embedding(50, 8)
    ids = torch.tensor([[1, 2, 3], [49, 0, 2]])
    p = mo.from_torch(emb, (ids,))
    assert [u.dtype for u in p.user_inputs] == ["i64"]
    with torch.no_grad():
        ref = emb(ids).double().numpy()
    assert rel_error(p.run([ids.numpy()])[0], ref) < 1e-6
