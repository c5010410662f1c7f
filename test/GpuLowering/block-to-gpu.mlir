// --block-to-gpu compiles each graph-defined kernel into a gpu.func of the
// module's gpu.module @mirage_kernels and launches it with kernel.launch.
// RUN: mirage-opt %s --thread-to-arith --block-to-gpu | FileCheck %s

// RMSNorm + MatMul (Mirage's µGraph, small): X 16x64, W 64x32, 2 blocks of
// 16 columns, 2 iterations of 32 along K.
//
// Memory plan (bytes): accumulators first (16x16 f32 = 1024, 16x1 f32 = 64),
// then the loop-body tiles (the matmul's operands with padded rows: X
// 16x32 f16 in rows of 40 = 1280, W 32x16 f16 in rows of 24 = 1536; the
// square 1024, the row sums 16x1 f16 = 32; the matmul's tile stays in
// registers) or the post-loop tile (16x16 f16), whichever is larger:
// 1088 + 3872 = 4960.
// CHECK-LABEL: func.func @rms_norm_matmul
// CHECK-SAME: mirage.reference = "module {
// CHECK: kernel.launch @mirage_kernels::@rms_norm_matmul_0(%{{.*}}, %{{.*}}) grid = [2, 1, 1] block = [128, 1, 1] dynamic_shared_memory = 4960
// CHECK-LABEL: func.func @batched_f32
// CHECK: kernel.launch @mirage_kernels::@batched_f32_0
func.func @rms_norm_matmul(%X: tensor<16x64xf16>, %W: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 2
      : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16> {
  ^bb0(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<16x32xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf16> -> !block.tile<32x16xf16>
    %sq = block.unary square %xt : !block.tile<16x32xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<16x32xf16> -> !block.tile<16x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x32xf16>, !block.tile<32x16xf16>) -> !block.tile<16x16xf16>
    %acc_mm = block.accum sum %mm : !block.tile<16x16xf16> -> !block.tile<16x16xf16>
    %acc_ss = block.accum sum %ss : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    %y = thread.fused (%acc_mm, %acc_ss) : (!block.tile<16x16xf16>, !block.tile<16x1xf16>) -> !block.tile<16x16xf16> {
    ^bb0(%p: f16, %q: f16):
      %mean = thread.unary scale %q params = [1.5625E-2] : f16
      %rms = thread.unary sqrt %mean : f16
      %d = thread.binary div %p, %rms : f16
      thread.yield %d : f16
    }
    %out = block.output %y omap = <x: 1> : !block.tile<16x16xf16> -> tensor<16x32xf16>
    block.yield %out : tensor<16x32xf16>
  }
  return %Y : tensor<16x32xf16>
}

// CHECK-LABEL: gpu.module @mirage_kernels
// CHECK: gpu.func @rms_norm_matmul_0(%[[X:.*]]: memref<16x64xf16>, %[[W:.*]]: memref<64x32xf16>, %[[Y:.*]]: memref<16x32xf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x1xf32, #gpu.address_space<workgroup>>
// The row-sum accumulator starts at zero; the matmul's lives in registers:
// 16x16 is two m16n8 fragments, one per warp of the first two, four f32
// each; the other two warps have no fragment and skip the mma (a branch on
// the warp index, uniform within each warp).
// CHECK: %[[LOOP:.*]]:4 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32, f32, f32) {
// X's tile rows are 64 bytes: 16-byte cp.async copies, 8 f16 each, one
// group per input, waited for before the barrier that publishes them.
// CHECK: nvgpu.device_async_copy %[[X]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8 {bypassL1} : memref<16x64xf16> to memref<16x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvgpu.device_async_copy %[[W]]
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// Barriers: loads -> square -> row sums; the matmul reads only the loaded
// tiles; the row-sum accumulator reads the sums; one before the next
// iteration overwrites the tiles.
// CHECK-NOT: math.
// CHECK: arith.mulf
// CHECK: gpu.barrier
// CHECK: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: gpu.barrier
// CHECK: %{{.*}}:4 = scf.if %{{.*}} -> (f32, f32, f32, f32) {
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: } else {
// CHECK-NEXT: scf.yield
// CHECK: gpu.barrier
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// After the loop: fragments to the accumulator tile, the fused tail in f32,
// then the output saver (the f16 result tile, 8 elements at a time).
// CHECK: gpu.barrier
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK: gpu.barrier
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %[[Y]]
// CHECK: gpu.return

// -----

// f32 tiles have no tensor-core path: a CUDA-core loop with fma per output
// element. A 3-d (batched) matmul keeps its batch index.
// CHECK-LABEL: gpu.func @batched_f32_0
// CHECK-NOT: nvvm.mma.sync
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (f32) {
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x8xf32, #gpu.address_space<workgroup>>
// CHECK: math.fma
// CHECK: gpu.return
func.func @batched_f32(%A: tensor<2x4x8xf32>, %B: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %Y = kernel.graph_def (%A, %B) grid = [2] forloop = 1
      : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  ^bb0(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<2x4x8xf32> -> !block.tile<2x4x8xf32>
    %bt = block.input %b imap = <x: 2> fmap = <i: replicate> : tensor<2x8x4xf32> -> !block.tile<2x8x2xf32>
    %m = block.matmul %at, %bt : (!block.tile<2x4x8xf32>, !block.tile<2x8x2xf32>) -> !block.tile<2x4x2xf32>
    %acc = block.accum sum %m : !block.tile<2x4x2xf32> -> !block.tile<2x4x2xf32>
    %o = block.output %acc omap = <x: 2> : !block.tile<2x4x2xf32> -> tensor<2x4x4xf32>
    block.yield %o : tensor<2x4x4xf32>
  }
  return %Y : tensor<2x4x4xf32>
}
