// --block-to-gpu loads whole mma fragments from shared memory with one
// ldmatrix each: x4 for A, x2 transposed for B, from tiles whose rows are
// padded by 16 bytes (8 halves) to an odd number of 16-byte units, so that
// eight consecutive rows take distinct banks. An A tile of 8 rows (a
// batch of 8 tokens) reads clamped rows and zeroes the fragment's rows
// 8-15 (a1, a3) with a warp-uniform select; a K that is no multiple of 16
// keeps the element loads, which pad with zeros.
// RUN: mirage-opt %s --split-input-file --block-to-gpu=target=sm_80 | FileCheck %s

// CHECK-LABEL: gpu.func @eight_rows_0
// CHECK: %[[LA:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<8x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[LB:.*]] = nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true} : memref<32x16xf16, strided<[24, 1]>, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK: %[[A0:.*]] = vector.extract %[[LA]][0]
// CHECK: %[[A1:.*]] = vector.extract %[[LA]][1]
// CHECK: %[[A2:.*]] = vector.extract %[[LA]][2]
// CHECK: %[[A3:.*]] = vector.extract %[[LA]][3]
// CHECK: %[[Z1:.*]] = arith.select %{{.*}}, %[[A1]], %{{.*}} : vector<2xf16>
// CHECK: %[[Z3:.*]] = arith.select %{{.*}}, %[[A3]], %{{.*}} : vector<2xf16>
// CHECK: nvvm.mma.sync A[%[[A0]], %[[Z1]], %[[A2]], %[[Z3]]]
// CHECK-NOT: vector.from_elements
func.func @eight_rows(%X: tensor<8x64xf16>, %W: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 2
      : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16> {
  ^bb0(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<8x64xf16> -> !block.tile<8x32xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf16> -> !block.tile<32x16xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<8x32xf16>, !block.tile<32x16xf16>) -> !block.tile<8x16xf16>
    %acc = block.accum sum %mm : !block.tile<8x16xf16> -> !block.tile<8x16xf16>
    %out = block.output %acc omap = <x: 1> : !block.tile<8x16xf16> -> tensor<8x32xf16>
    block.yield %out : tensor<8x32xf16>
  }
  return %Y : tensor<8x32xf16>
}

// -----

// CHECK-LABEL: gpu.func @short_k_0
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: vector.from_elements
// CHECK: nvvm.mma.sync
func.func @short_k(%X: tensor<16x16xf16>, %W: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 2
      : (tensor<16x16xf16>, tensor<16x32xf16>) -> tensor<16x32xf16> {
  ^bb0(%x: tensor<16x16xf16>, %w: tensor<16x32xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x16xf16> -> !block.tile<16x8xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<16x32xf16> -> !block.tile<8x16xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x8xf16>, !block.tile<8x16xf16>) -> !block.tile<16x16xf16>
    %acc = block.accum sum %mm : !block.tile<16x16xf16> -> !block.tile<16x16xf16>
    %out = block.output %acc omap = <x: 1> : !block.tile<16x16xf16> -> tensor<16x32xf16>
    block.yield %out : tensor<16x32xf16>
  }
  return %Y : tensor<16x32xf16>
}
