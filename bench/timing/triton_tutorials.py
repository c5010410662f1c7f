"""The Triton tutorials' kernels, compiled without a GPU for the timing
model's validation (docs/TimingModel.md, "Validation").

Writes triton_tutorial_{softmax,matmul}.sm_80.ptx next to this file with
Triton's own compiler (PyPI `triton`, 3.9.0 when they were made) for an
explicit sm_80 target, with the tutorials' own configurations:

- 02 "Fused Softmax": one row per program, BLOCK = next power of two of
  the row (4096 here), num_warps = 16 for BLOCK >= 4096 (the tutorial's
  heuristic in the releases whose output it publishes);
- 03 "Matrix Multiplication": 128 x 256 x 64 tiles, GROUP_SIZE_M = 8,
  num_stages = 3, num_warps = 8 (the first of its sm_80 autotune configs),
  f16 inputs, f32 accumulation, f16 output.

    TRITON_DEFAULT_FP_FUSION=1 .venv/bin/python bench/timing/triton_tutorials.py
"""

import pathlib

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    row = tl.load(input_ptrs, mask=col_offsets < n_cols, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=col_offsets < n_cols)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak,
                  stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def build(fn, signature, constexprs, name, divisible, **options):
    # Triton's launcher specializes as it would at these shapes: pointers
    # and sizes divisible by 16 get tt.divisibility = 16 (16-byte vector
    # loads, cp.async), and unit strides become the constant 1.
    attrs = {(fn.arg_names.index(a),): [["tt.divisibility", 16]]
             for a in divisible}
    source = ASTSource(fn=fn, signature=signature, constexprs=constexprs,
                       attrs=attrs)
    kernel = triton.compile(source, target=GPUTarget("cuda", 80, 32),
                            options=options)
    here = pathlib.Path(__file__).parent
    (here / f"triton_tutorial_{name}.sm_80.ptx").write_text(kernel.asm["ptx"])
    print(name, "warps", kernel.metadata.num_warps, "shared",
          kernel.metadata.shared)


build(softmax_kernel,
      {"output_ptr": "*fp32", "input_ptr": "*fp32", "input_row_stride": "i32",
       "output_row_stride": "i32", "n_cols": "i32", "BLOCK_SIZE": "constexpr"},
      {"BLOCK_SIZE": 4096}, "softmax",
      ["output_ptr", "input_ptr", "input_row_stride", "output_row_stride",
       "n_cols"], num_warps=16)
build(matmul_kernel,
      {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32",
       "N": "i32", "K": "i32", "stride_am": "i32", "stride_ak": "constexpr",
       "stride_bk": "i32", "stride_bn": "constexpr", "stride_cm": "i32",
       "stride_cn": "constexpr", "BLOCK_SIZE_M": "constexpr",
       "BLOCK_SIZE_N": "constexpr", "BLOCK_SIZE_K": "constexpr",
       "GROUP_SIZE_M": "constexpr"},
      {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_SIZE_M": 128,
       "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}, "matmul",
      ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk",
       "stride_cm"], num_stages=3, num_warps=8)
