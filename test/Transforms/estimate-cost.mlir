// RUN: mirage-opt %s --estimate-cost="target=sm_80" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=A100
// RUN: mirage-opt %s --estimate-cost="target=sm_90" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=H100
// The example calibration replaces the matmul's time by its "measured" one.
// RUN: mirage-opt %s --estimate-cost="target=sm_90 calibration=%mirage_src/bench/calibration/example-sm_90.json" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=CALIB
// The module is not changed.
// RUN: mirage-opt %s --estimate-cost -o - 2>/dev/null | FileCheck %s --check-prefix=IR

// IR: func.func @graph
// IR: graph.rms_norm

// One kernel per op: the rms_norm is too small to hide its launch; the
// matmul streams W (48 MiB) and is memory-bound.
// A100: estimate-cost.mlir:{{[0-9]+}}:8: remark: graph.rms_norm: 3.15 us on sm_80, launch-bound; device memory 262144 B, L2 0 B, shared memory 0 B, 262144 FLOP
// A100: estimate-cost.mlir:{{[0-9]+}}:8: remark: graph.matmul: 32.23 us on sm_80, memory-bound; device memory 50659328 B, L2 0 B, shared memory 0 B, 805306368 FLOP
// A100: estimate-cost.mlir:{{[0-9]+}}:1: remark: @graph: 35.38 us on sm_80 in 2 kernel(s)
// H100: remark: graph.matmul: 20.29 us on sm_90, memory-bound
// H100: remark: @graph: 22.88 us on sm_90 in 2 kernel(s)
// CALIB: remark: graph.rms_norm: 3.00 us on sm_90, measured;
// CALIB: remark: graph.matmul: 20.00 us on sm_90, measured;
// CALIB: remark: @graph: 23.00 us on sm_90 in 2 kernel(s)
func.func @graph(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %n = graph.rms_norm %X : tensor<16x4096xf16>
  %y = graph.matmul %n, %W : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16>
  return %y : tensor<16x6144xf16>
}

// The fused µGraph of test/Examples/rms_norm_matmul.mlir: X and W are read
// from device memory once (the 95 re-reads of X come from L2), the
// normalized X never goes through device memory, and there is one launch.
// A100: remark: kernel.graph_def: 33.88 us on sm_80, memory-bound; device memory 50659328 B, L2 12451840 B, shared memory 176962560 B, 819887616 FLOP; 96 blocks in 1 wave(s), 57696 B shared memory per block, 32 registers per thread
// A100: remark: @fused: 33.88 us on sm_80 in 1 kernel(s)
// H100: remark: kernel.graph_def: 21.46 us on sm_90, memory-bound
// H100: remark: @fused: 21.46 us on sm_90 in 1 kernel(s)
func.func @fused(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [96] forloop = 16
      : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  ^bb0(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x4096xf16> -> !block.tile<16x256xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<4096x6144xf16> -> !block.tile<256x64xf16>
    %sq = block.unary square %xt : !block.tile<16x256xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<16x256xf16> -> !block.tile<16x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x256xf16>, !block.tile<256x64xf16>) -> !block.tile<16x64xf16>
    %acc_mm = block.accum sum %mm : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %acc_ss = block.accum sum %ss : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    %mean = block.unary scale %acc_ss params = [2.44140625E-4] : !block.tile<16x1xf16>
    %rms = block.unary sqrt %mean : !block.tile<16x1xf16>
    %y = block.binary div %acc_mm, %rms : (!block.tile<16x64xf16>, !block.tile<16x1xf16>) -> !block.tile<16x64xf16>
    %out = block.output %y omap = <x: 1> : !block.tile<16x64xf16> -> tensor<16x6144xf16>
    block.yield %out : tensor<16x6144xf16>
  }
  return %Y : tensor<16x6144xf16>
}

// Predefined kernels: a large f16 matmul runs at the tensor-core rate, an
// f32 one at the CUDA-core rate (2MNK / 312 and / 19.5 TFLOP/s, over the 0.8
// efficiency, plus the 3 us launch), a reshape is a free view.
// A100: remark: kernel.matmul: 4408.09 us on sm_80, compute-bound
// A100: remark: kernel.matmul: 8813.19 us on sm_80, compute-bound
// A100: remark: kernel.reshape: 0.00 us on sm_80, free;
// A100: remark: kernel.unary: {{.*}} us on sm_80, memory-bound; device memory 268435456 B
// A100: remark: @kernels: 13379.17 us on sm_80 in 3 kernel(s)
// H100: remark: kernel.matmul: {{.*}} us on sm_90, compute-bound
func.func @kernels(%a: tensor<8192x8192xf16>, %b: tensor<4096x4096xf32>) -> (tensor<8192x8192xf16>, tensor<4096x4096xf32>, tensor<67108864xf16>) {
  %c = kernel.matmul %a, %a : (tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  %d = kernel.matmul %b, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %e = kernel.reshape %c : tensor<8192x8192xf16> -> tensor<67108864xf16>
  %f = kernel.unary relu %e : tensor<67108864xf16>
  return %c, %d, %f : tensor<8192x8192xf16>, tensor<4096x4096xf32>, tensor<67108864xf16>
}
