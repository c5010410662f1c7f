// --kernel-to-block sizes the default block graphs for the chip's shared
// memory (docs/GpuLowering.md, "Chips"): all tiles of a graph within
// min(96 KiB, the chip's shared memory per block), a matmul's within
// min(64 KiB, half the chip's shared memory per SM) so that two blocks
// share an SM.
// RUN: mirage-opt %s --split-input-file --kernel-to-block=target=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %s --split-input-file --kernel-to-block=target=sm_86 | FileCheck %s --check-prefix=SM86
// RUN: mirage-opt %s --split-input-file --kernel-to-block=target=sm_75 -verify-diagnostics | FileCheck %s --check-prefix=SM75
// Every block graph is still the same computation: kernel-to-block-chips-
// verify.test checks the EQUIV lines (at full size, so marked slow).
// A chip outside the table is an error, without the module dumped.
// RUN: not mirage-opt %s --split-input-file --kernel-to-block=target=sm_70 2>&1 | FileCheck %s --check-prefix=SM70
// SM70: error: kernel-to-block: chip 'sm_70' is not supported (Volta has neither cp.async nor mma.sync m16n8k8/m16n8k16, and ptxas of CUDA 13 no longer targets it); supported chips: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120
// SM70-NOT: kernel.matmul

// 256x4096 @ 4096x4096 f16: 64x64 output tiles on every chip; K tiles of
// 128 in 64 KiB (sm_90), of 64 in 50 KiB (sm_86: 100 KiB per SM), of 32 in
// 32 KiB (sm_75: 64 KiB per SM).
// SM90: kernel.graph_def(%{{.*}}, %{{.*}}) grid = [64, 4] forloop = 32
// SM90: !block.tile<64x128xf16>
// SM86: kernel.graph_def(%{{.*}}, %{{.*}}) grid = [64, 4] forloop = 64
// SM86: !block.tile<64x64xf16>
// SM75: kernel.graph_def(%{{.*}}, %{{.*}}) grid = [64, 4] forloop = 128
// SM75: !block.tile<64x32xf16>
// EQUIV: remark: @matmul_k is equivalent to @matmul
func.func @matmul(%x: tensor<256x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<256x4096xf16> {
  %y = graph.matmul %x, %w : (tensor<256x4096xf16>, tensor<4096x4096xf16>) -> tensor<256x4096xf16>
  return %y : tensor<256x4096xf16>
}
func.func @matmul_k(%x: tensor<256x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<256x4096xf16> attributes {mirage.equivalent_to = @matmul} {
  %y = kernel.matmul %x, %w : (tensor<256x4096xf16>, tensor<4096x4096xf16>) -> tensor<256x4096xf16>
  return %y : tensor<256x4096xf16>
}

// -----

// A softmax row of 4096 f32 stays whole in its block: 80 KiB of tiles fit
// sm_90 and sm_86, but not the 64 KiB of an sm_75 block (the error is
// expected in the sm_75 run only, the one that verifies diagnostics).
// SM90: kernel.graph_def(%{{.*}}) grid = [8] forloop = 1
// SM86: kernel.graph_def(%{{.*}}) grid = [8] forloop = 1
// EQUIV: remark: @softmax_k is equivalent to @softmax
func.func @softmax(%x: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  %y = graph.softmax %x, dim = 1 : tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}
func.func @softmax_k(%x: tensor<8x4096xf32>) -> tensor<8x4096xf32> attributes {mirage.equivalent_to = @softmax} {
  // expected-error @+1 {{'kernel.softmax' op has no block-graph form within shared memory: its default block graph needs 81952 bytes per block, more than 65536}}
  %y = kernel.softmax %x, dim = 1 : tensor<8x4096xf32>
  return %y : tensor<8x4096xf32>
}
