"""Reference models in plain PyTorch, for tests and benchmarks.

A Llama-style decoder layer and a BERT-base encoder layer, written out with
torch.nn primitives only (no transformers package), and the torchvision
CNNs, all constructed without downloading weights. ``build(name)`` returns
(module, example inputs) at the shapes the tests and bench/ use.
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def _rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


class LlamaDecoderLayer(nn.Module):
    """Pre-norm attention with rotary embeddings and grouped-query heads,
    a causal mask, and a SwiGLU MLP, as in Llama 2/3."""

    def __init__(self, hidden=4096, heads=32, kv_heads=8, intermediate=14336, seq=16,
                 rope_theta=500000.0, eps=1e-5):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, hidden // heads
        self.input_norm = RMSNorm(hidden, eps)
        self.post_norm = RMSNorm(hidden, eps)
        self.q_proj = nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(heads * self.head_dim, hidden, bias=False)
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)
        inv = 1.0 / rope_theta ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim)
        angles = torch.outer(torch.arange(seq).float(), inv)
        angles = torch.cat([angles, angles], dim=-1)
        self.register_buffer("cos", angles.cos())
        self.register_buffer("sin", angles.sin())
        self.register_buffer("mask", torch.triu(torch.full((seq, seq), float("-inf")), 1))

    def forward(self, x):
        b, s, _ = x.shape
        h = self.input_norm(x)
        q = self.q_proj(h).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(h).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        q = q * self.cos + _rotate_half(q) * self.sin
        k = k * self.cos + _rotate_half(k) * self.sin
        groups = self.heads // self.kv_heads
        k = k[:, :, None].expand(b, self.kv_heads, groups, s, self.head_dim).reshape(b, self.heads, s, self.head_dim)
        v = v[:, :, None].expand(b, self.kv_heads, groups, s, self.head_dim).reshape(b, self.heads, s, self.head_dim)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim) + self.mask
        attn = torch.softmax(scores, dim=-1) @ v
        x = x + self.o_proj(attn.transpose(1, 2).reshape(b, s, -1))
        h = self.post_norm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class BertLayer(nn.Module):
    """Post-norm self-attention with an additive attention mask, GELU MLP,
    LayerNorm, as in BERT-base."""

    def __init__(self, hidden=768, heads=12, intermediate=3072, eps=1e-12):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attn_out = nn.Linear(hidden, hidden)
        self.attn_norm = nn.LayerNorm(hidden, eps=eps)
        self.inter = nn.Linear(hidden, intermediate)
        self.out = nn.Linear(intermediate, hidden)
        self.out_norm = nn.LayerNorm(hidden, eps=eps)

    def forward(self, x, mask):
        b, s, d = x.shape
        def heads(t):
            return t.view(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)
        q, k, v = heads(self.query(x)), heads(self.key(x)), heads(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim) + mask
        ctx = (torch.softmax(scores, dim=-1) @ v).permute(0, 2, 1, 3).reshape(b, s, d)
        x = self.attn_norm(x + self.attn_out(ctx))
        return self.out_norm(x + self.out(F.gelu(self.inter(x))))


def build(name: str, small: bool = False, seed: int = 0):
    """(module in eval mode, example inputs) for a model of the set:
    llama_layer, bert_layer, resnet50, resnext50, inception_v3,
    squeezenet1_1, vgg19. `small` gives the reduced shapes the tests use."""
    import torchvision  # noqa: WPS433 - only the CNNs need it

    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed + 1)
    if name == "llama_layer":
        cfg = dict(hidden=256, heads=8, kv_heads=2, intermediate=512, seq=16) if small else \
            dict(hidden=4096, heads=32, kv_heads=8, intermediate=14336, seq=16)
        m = LlamaDecoderLayer(**cfg)
        _perturb_norms(m)
        return m.eval(), (torch.randn(1, cfg["seq"], cfg["hidden"], generator=g),)
    if name == "bert_layer":
        cfg = dict(hidden=256, heads=4, intermediate=1024) if small else \
            dict(hidden=768, heads=12, intermediate=3072)
        seq = 16 if small else 128
        m = BertLayer(**cfg)
        mask = torch.zeros(1, 1, 1, seq)
        mask[..., seq - seq // 4:] = -10000.0  # padding positions, as BERT masks them
        return m.eval(), (torch.randn(1, seq, cfg["hidden"], generator=g), mask)
    cnns = {
        "resnet50": (lambda: torchvision.models.resnet50(), 64),
        "resnext50": (lambda: torchvision.models.resnext50_32x4d(), 64),
        "inception_v3": (lambda: torchvision.models.inception_v3(
            weights=None, aux_logits=False, init_weights=False), 96),
        "squeezenet1_1": (lambda: torchvision.models.squeezenet1_1(), 96),
        "vgg19": (lambda: torchvision.models.vgg19(), 32),
    }
    if name not in cnns:
        raise ValueError(f"unknown model {name!r}")
    ctor, small_size = cnns[name]
    m = ctor()
    _perturb_norms(m)
    size = small_size if small else (299 if name == "inception_v3" else 224)
    return m.eval(), (torch.randn(1, 3, size, size, generator=g),)


MODELS = ("resnet50", "resnext50", "inception_v3", "squeezenet1_1", "vgg19",
          "llama_layer", "bert_layer")


def _perturb_norms(module: nn.Module) -> None:
    """Freshly built normalizations are the identity (weight 1, bias 0,
    running mean 0, var 1): give them random statistics so that a wrong
    decomposition cannot hide behind them."""
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, (nn.BatchNorm2d,)):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
            elif isinstance(m, (nn.LayerNorm,)):
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
            elif isinstance(m, RMSNorm):
                m.weight.uniform_(0.5, 1.5)
