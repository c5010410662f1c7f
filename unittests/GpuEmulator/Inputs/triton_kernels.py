"""Triton kernels compiled without a GPU, for the emulator's tests.

Writes triton_<name>.sm_80.ptx next to this file with Triton's own
compiler (PyPI `triton`, 3.9.0 when they were made), for an explicit
target, as a user would run them: a row softmax, an RMSNorm with an f16
output, a LayerNorm, a tiled f16 matmul with tl.dot (mma.sync and
ldmatrix), and a fused attention forward pass (online softmax over key
blocks, two tl.dot per block). TritonKernelsTest runs them in the
emulator.

    TRITON_DEFAULT_FP_FUSION=1 .venv/bin/python triton_kernels.py
"""

import pathlib

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols,
                other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0),
             mask=cols < n_cols)


@triton.jit
def rmsnorm_kernel(out_ptr, in_ptr, w_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(in_ptr + row * n_cols + cols, mask=m, other=0.0).to(tl.float32)
    r = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=m)
    tl.store(out_ptr + row * n_cols + cols, (x * r * w).to(tl.float16), mask=m)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def layernorm_kernel(out_ptr, in_ptr, w_ptr, b_ptr, n_cols, eps,
                     BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(in_ptr + row * n_cols + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    y = d * tl.rsqrt(var + eps) * tl.load(w_ptr + cols, mask=m) + \
        tl.load(b_ptr + cols, mask=m)
    tl.store(out_ptr + row * n_cols + cols, y, mask=m)


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale,
                     D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, seq, BN):
        rn = start + tl.arange(0, BN)
        k = tl.load(k_ptr + rn[None, :] * D + rd[:, None])
        s = tl.dot(q, k) * scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(o_ptr + rm[:, None] * D + rd[None, :],
             (acc / l_i[:, None]).to(tl.float16))


def build(fn, signature, constexprs, name, arch=80, **options):
    source = ASTSource(fn=fn, signature=signature, constexprs=constexprs)
    kernel = triton.compile(source, target=GPUTarget("cuda", arch, 32),
                            options=options)
    here = pathlib.Path(__file__).parent
    (here / f"triton_{name}.sm_{arch}.ptx").write_text(kernel.asm["ptx"])
    print(name, f"sm_{arch}", "warps", kernel.metadata.num_warps,
          "shared", kernel.metadata.shared)


build(softmax_kernel,
      {"out_ptr": "*fp32", "in_ptr": "*fp32", "stride": "i32",
       "n_cols": "i32", "BLOCK": "constexpr"},
      {"BLOCK": 1024}, "softmax")
build(rmsnorm_kernel,
      {"out_ptr": "*fp16", "in_ptr": "*fp16", "w_ptr": "*fp32",
       "n_cols": "i32", "eps": "fp32", "BLOCK": "constexpr"},
      {"BLOCK": 1024}, "rmsnorm")
build(matmul_kernel,
      {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32",
       "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr",
       "BK": "constexpr"},
      {"BM": 64, "BN": 64, "BK": 32}, "matmul", num_stages=3)
build(layernorm_kernel,
      {"out_ptr": "*fp32", "in_ptr": "*fp32", "w_ptr": "*fp32",
       "b_ptr": "*fp32", "n_cols": "i32", "eps": "fp32", "BLOCK": "constexpr"},
      {"BLOCK": 1024}, "layernorm")
build(attention_kernel,
      {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16",
       "seq": "i32", "scale": "fp32", "D": "constexpr", "BM": "constexpr",
       "BN": "constexpr"},
      {"D": 64, "BM": 64, "BN": 64}, "attention", num_stages=2)
