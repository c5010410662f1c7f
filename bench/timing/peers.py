"""The eager baseline of a benchmark program: one Triton kernel per graph op
(docs/TimingModel.md, "The benchmark programs on the clock").

What a PyTorch user runs without a compiler is one library kernel per op:
a GEMM per matmul, a row kernel per norm and softmax, one elementwise
kernel per add or multiply. This writes that composition for a program of
bench/programs as a mirage-gpu-run manifest: each op a Triton kernel
compiled here without a GPU (PyPI `triton`, explicit sm_80 target, the
shapes as constants, the pointers 16-byte aligned as Triton's launcher
specializes them), merged into one PTX module, with the program's own
reference, so that `mirage-gpu-run --emulate --timing` both checks the
baseline against the fp64 interpreter and times it beside our kernels.

The GEMMs use tiles a tuned library would pick for these shapes: 16 rows
for the skinny (M <= 16) matmuls, 64 x 64 otherwise, 64-deep K steps, four
cp.async stages (Triton's pipelining). The code is sm_80's (mma.sync):
Triton's sm_90 code for tl.dot is wgmma, which the emulator does not run
yet, so on the sm_90 model this baseline is Ampere-style code on Hopper
(said in the table).

    .venv/bin/python bench/timing/peers.py PROGRAM DEFAULT_MANIFEST OUT_PREFIX [fused]

PROGRAM is the name of bench/programs/PROGRAM.mlir; DEFAULT_MANIFEST the
manifest --mirage-to-ptx wrote for its default schedule (its reference and
buffers are reused); OUT_PREFIX.json and OUT_PREFIX.ptx are written.
With `fused` (GQA and QKNorm), the attention is one FlashAttention-style
Triton kernel (the online softmax of Triton's fused-attention tutorial)
instead of GEMM, softmax, GEMM: what a user of a fused-attention library
runs.
"""

import json
import pathlib
import re
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                  K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    z = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + z * M * K + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + z * K * N + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    c_ptrs = c_ptr + z * M * N + rm[:, None] * N + rn[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=rm[:, None] < M)


@triton.jit
def rmsnorm_kernel(x_ptr, y_ptr, C: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < C
    x = tl.load(x_ptr + row * C + cols, mask=m, other=0.0).to(tl.float32)
    r = tl.rsqrt(tl.sum(x * x, axis=0) / C)
    tl.store(y_ptr + row * C + cols, (x * r).to(tl.float16), mask=m)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, C: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < C
    x = tl.load(x_ptr + row * C + cols, mask=m,
                other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * C + cols, (e / tl.sum(e, axis=0)).to(tl.float16),
             mask=m)


@triton.jit
def binary_kernel(a_ptr, b_ptr, y_ptr, OP: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + i).to(tl.float32)
    b = tl.load(b_ptr + i).to(tl.float32)
    if OP == 0:
        y = a + b
    elif OP == 1:
        y = a - b
    else:
        y = a * b
    tl.store(y_ptr + i, y.to(tl.float16))


@triton.jit
def silu_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i).to(tl.float32)
    tl.store(y_ptr + i, (x / (1.0 + tl.exp(-x))).to(tl.float16))


@triton.jit
def transpose_kernel(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr,
                     TR: tl.constexpr, TC: tl.constexpr):
    # x[z, R, C] -> y[z, C, R], one TR x TC tile per program.
    pr = tl.program_id(0)
    pc = tl.program_id(1)
    z = tl.program_id(2)
    rr = pr * TR + tl.arange(0, TR)
    rc = pc * TC + tl.arange(0, TC)
    x = tl.load(x_ptr + z * R * C + rr[:, None] * C + rc[None, :])
    tl.store(y_ptr + z * R * C + rc[None, :] * R + rr[:, None], x)


def strip_debug(ptx):
    """The PTX without its line information and DWARF sections, whose file
    indices and labels would collide once several kernels share a module."""
    ptx = re.sub(r"^\s*\.(file|loc)\b.*$", "", ptx, flags=re.M)
    out, depth, skipping = [], 0, False
    for line in ptx.splitlines():
        if not skipping and line.lstrip().startswith(".section"):
            skipping = True
        if skipping:
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                skipping, depth = False, 0
            continue
        out.append(line)
    return "\n".join(out) + "\n"


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, M: tl.constexpr,
                     N: tl.constexpr, D: tl.constexpr, BM: tl.constexpr,
                     BN: tl.constexpr):
    # softmax(Q K) V for Q [z, M, D], K [z, D, N], V [z, N, D], with the
    # online softmax over BN-wide blocks of keys (FlashAttention's form, as
    # in Triton's fused-attention tutorial; no scale: the program has none).
    pid = tl.program_id(0)
    z = tl.program_id(1)
    rm = pid * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + z * M * D + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, N, BN):
        rn = start + tl.arange(0, BN)
        k = tl.load(k_ptr + z * D * N + rd[:, None] * N + rn[None, :])
        s = tl.dot(q, k)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + z * N * D + rn[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(o_ptr + z * M * D + rm[:, None] * D + rd[None, :],
             (acc / l_i[:, None]).to(tl.float16))


class Composition:
    """Kernels, buffers and launches of one eager program."""

    def __init__(self):
        self.ptx = []
        self.launches = []
        self.temps = []

    def temp(self, shape):
        name = f"tmp{len(self.temps)}"
        size = 1
        for d in shape:
            size *= d
        self.temps.append({"name": name, "role": "temp", "shape": shape,
                           "dtype": "f16", "bytes": 2 * size})
        return name

    def add(self, fn, constexprs, args, grid, **options):
        names = fn.arg_names
        signature = {n: ("constexpr" if n in constexprs else "*fp16")
                     for n in names}
        attrs = {(names.index(n),): [["tt.divisibility", 16]]
                 for n in names if n not in constexprs}
        kernel = triton.compile(
            ASTSource(fn=fn, signature=signature, constexprs=constexprs,
                      attrs=attrs),
            target=GPUTarget("cuda", 80, 32), options=options)
        index = len(self.launches)
        name = f"{fn.__name__}_{index}"
        text = re.sub(rf"\b{fn.__name__}\b", name, strip_debug(kernel.asm["ptx"]))
        # Module-level names each kernel's module declares.
        text = re.sub(r"\bglobal_smem\b", f"global_smem_{index}", text)
        text = re.sub(r"_\$_str\b", f"_$_str_{index}", text)
        self.ptx.append(text)
        self.launches.append({
            "kernel": name, "grid": list(grid),
            "block": [32 * kernel.metadata.num_warps, 1, 1],
            "dynamic_shared_memory": kernel.metadata.shared,
            # Triton's global and profile scratch pointers: unused here.
            "args": list(args) + ["scratch", "scratch"]})

    def matmul(self, a, b, c, batch, m, n, k):
        bm = 16 if m <= 16 else 64
        bn = min(64, n)
        bk = min(64, k)
        self.add(matmul_kernel,
                 {"M": m, "N": n, "K": k, "BM": bm, "BN": bn, "BK": bk},
                 [a, b, c], ((m + bm - 1) // bm, n // bn, batch),
                 num_warps=4 if bm * bn >= 1024 else 1, num_stages=4)

    # Warps so that every thread holds distinct elements (Triton's
    # tutorials' heuristic, capped at 8): more would only duplicate them.
    def rows(self, fn, x, y, rows, cols):
        block = triton.next_power_of_2(cols)
        warps = max(1, min(8, block // 256))
        self.add(fn, {"C": cols, "BLOCK": block}, [x, y], (rows, 1, 1),
                 num_warps=warps)

    @staticmethod
    def elementwise_block(size):
        """1024 elements per program, or the largest power of two that
        divides a smaller size (the kernels have no tail mask)."""
        block = 1024
        while size % block:
            block //= 2
        if block < 32:
            sys.exit(f"peers.py: {size} elements is not a multiple of 32")
        return block

    def binary(self, op, a, b, y, size):
        block = self.elementwise_block(size)
        self.add(binary_kernel, {"OP": op, "BLOCK": block}, [a, b, y],
                 (size // block, 1, 1), num_warps=max(1, min(4, block // 128)))

    def silu(self, x, y, size):
        block = self.elementwise_block(size)
        self.add(silu_kernel, {"BLOCK": block}, [x, y], (size // block, 1, 1),
                 num_warps=max(1, min(4, block // 128)))

    def attention(self, q, k, v, o, batch, m, n, d):
        bm, bn = min(64, m), min(64, n)
        self.add(attention_kernel,
                 {"M": m, "N": n, "D": d, "BM": bm, "BN": bn}, [q, k, v, o],
                 (m // bm, batch, 1), num_warps=4, num_stages=2)

    def transpose(self, x, y, batch, r, c):
        self.add(transpose_kernel, {"R": r, "C": c, "TR": 64, "TC": 64},
                 [x, y], (r // 64, c // 64, batch), num_warps=4)


ADD, SUB, MUL = 0, 1, 2


def compose(program, inputs, output, fused=False):
    """The eager kernels of `program`, reading the buffers `inputs` (the
    function's arguments) and writing `output`; with `fused`, attention is
    one FlashAttention-style kernel."""
    c = Composition()
    shapes = {b["name"]: b["shape"] for b in inputs}
    shapes[output["name"]] = output["shape"]
    args = [b["name"] for b in inputs]
    out = output["name"]
    kind = re.sub(r"_b\d+$", "", program)
    if kind == "rmsnorm":
        x, w = args
        (m, k), (_, n) = shapes[x], shapes[w]
        t = c.temp([m, k])
        c.rows(rmsnorm_kernel, x, t, m, k)
        c.matmul(t, w, out, 1, m, n, k)
    elif kind == "gated_mlp":
        x, w1, w2 = args
        (m, k), (_, n) = shapes[x], shapes[w1]
        a, g, s = c.temp([m, n]), c.temp([m, n]), c.temp([m, n])
        c.matmul(x, w1, a, 1, m, n, k)
        c.matmul(x, w2, g, 1, m, n, k)
        c.silu(a, s, m * n)
        c.binary(MUL, s, g, out, m * n)
    elif kind == "lora":
        x, w, a_, b_ = args
        (m, k), (_, n), (_, r) = shapes[x], shapes[w], shapes[a_]
        xw, xa, xab = c.temp([m, n]), c.temp([m, r]), c.temp([m, n])
        c.matmul(x, w, xw, 1, m, n, k)
        c.matmul(x, a_, xa, 1, m, r, k)
        c.matmul(xa, b_, xab, 1, m, n, r)
        c.binary(ADD, xw, xab, out, m * n)
    elif kind == "ntrans":
        h, x, alpha = args
        m, k = shapes[x]
        xn, d, ad, u = (c.temp([m, k]) for _ in range(4))
        c.rows(rmsnorm_kernel, x, xn, m, k)
        c.binary(SUB, xn, h, d, m * k)
        c.binary(MUL, alpha, d, ad, m * k)
        c.binary(ADD, h, ad, u, m * k)
        c.rows(rmsnorm_kernel, u, out, m, k)
    elif kind in ("gqa", "qknorm"):
        q, k_, v = args
        (bt, m, d), (_, _, n) = shapes[q], shapes[k_]
        if kind == "qknorm":
            qn, kt, ktn, kn = (c.temp(s) for s in
                               ([bt, m, d], [bt, n, d], [bt, n, d], [bt, d, n]))
            c.rows(rmsnorm_kernel, q, qn, bt * m, d)
            c.transpose(k_, kt, bt, d, n)
            c.rows(rmsnorm_kernel, kt, ktn, bt * n, d)
            c.transpose(ktn, kn, bt, n, d)
            q, k_ = qn, kn
        if fused:
            c.attention(q, k_, v, out, bt, m, n, d)
        else:
            s, p = c.temp([bt, m, n]), c.temp([bt, m, n])
            c.matmul(q, k_, s, bt, m, n, d)
            c.rows(softmax_kernel, s, p, bt * m, n)
            c.matmul(p, v, out, bt, m, d, n)
    else:
        sys.exit(f"peers.py: no eager composition for {program}")
    return c


def main():
    program, default_manifest, prefix = sys.argv[1:4]
    fused = sys.argv[4:5] == ["fused"]
    if fused and re.sub(r"_b\d+$", "", program) not in ("gqa", "qknorm"):
        sys.exit(f"peers.py: no fused baseline for {program}")
    manifest = json.loads(pathlib.Path(default_manifest).read_text())
    function = manifest["functions"][0]
    inputs = [b for b in function["buffers"] if b["role"] == "input"]
    outputs = [b for b in function["buffers"] if b["role"] == "output"]
    c = compose(program, inputs, outputs[0], fused)
    # One module: the first kernel's header, the others' bodies.
    header = re.compile(r"^\s*\.(version|target|address_size)\b.*$", re.M)
    ptx = c.ptx[0] + "".join(header.sub("", text) for text in c.ptx[1:])
    ptx_path = pathlib.Path(prefix + ".ptx")
    ptx_path.write_text(ptx)
    buffers = inputs + c.temps + [
        {"name": "scratch", "role": "temp", "shape": [128], "dtype": "f16",
         "bytes": 256}] + outputs
    # The code is sm_80's whatever the program was lowered for; run it on
    # another chip's model with mirage-gpu-run --timing-target.
    out = {"format": "mirage-gpu-manifest", "version": 1,
           "chip": "sm_80", "ptx": ptx_path.name,
           "functions": [{"name": function["name"],
                          "reference": function["reference"],
                          "buffers": buffers, "launches": c.launches}]}
    pathlib.Path(prefix + ".json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
