// Reshapes that only insert or drop size-1 dimensions are data movement
// (docs/Search.md, "Steps"): they join the subprograms around them, their
// dimensions share the input's index variables, and a kernel holds a tile
// in the layout the program reads it in (a block.reshape after the input
// iterator, or before the output saver). A reshape that merges or splits
// dimensions still separates the subprograms around it. The output is the
// same with 1 and 2 threads, and --verify-equivalence checks each function
// after the pass against its kernel-level reference.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s -split-input-file --superoptimize="cache=off threads=1" -o %t/t1.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: mirage-opt %s -split-input-file --superoptimize="cache=off threads=2" -o %t/t2.mlir 2>/dev/null
// RUN: diff %t/t1.mlir %t/t2.mlir
// RUN: FileCheck %s < %t/t1.mlir
// RUN: mirage-opt %t/t1.mlir -split-input-file --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// A transformer layer's projection as imported: [1, S, D] -> [S, D], the
// matmul, [S, N] -> [1, S, N], the bias and the activation. The reshape of
// the argument is a free view left outside; the other joins the matmul, the
// add and the relu in one kernel that saves its [S, N] tile through a
// block.reshape to [1, S, N].
// REMARK: remark: superoptimize @projection part 0: 4 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3
// REMARK-NOT: @projection part 1
// VERIFY: remark: @projection is equivalent to @projection_ref
// CHECK-LABEL: func.func @projection(
// CHECK: %[[V:.*]] = kernel.reshape %arg0 : tensor<1x64x128xf32> -> tensor<64x128xf32>
// CHECK: kernel.graph_def(%[[V]], %arg1, %arg2)
// CHECK: block.matmul
// CHECK: block.reshape %{{.*}} : !block.tile<{{[0-9]+}}x{{[0-9]+}}xf32> -> !block.tile<1x{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK: block.output
// CHECK-NOT: kernel.
// CHECK: return

func.func @projection_ref(%x: tensor<1x64x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<1x64x256xf32> {
  %v = kernel.reshape %x : tensor<1x64x128xf32> -> tensor<64x128xf32>
  %m = kernel.matmul %v, %w : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %r = kernel.reshape %m : tensor<64x256xf32> -> tensor<1x64x256xf32>
  %a = kernel.binary add %r, %b : (tensor<1x64x256xf32>, tensor<256xf32>) -> tensor<1x64x256xf32>
  %y = kernel.unary relu %a : tensor<1x64x256xf32>
  return %y : tensor<1x64x256xf32>
}

func.func @projection(%x: tensor<1x64x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<1x64x256xf32>
    attributes {mirage.equivalent_to = @projection_ref} {
  %v = graph.reshape %x : tensor<1x64x128xf32> -> tensor<64x128xf32>
  %m = graph.matmul %v, %w : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %r = graph.reshape %m : tensor<64x256xf32> -> tensor<1x64x256xf32>
  %a = graph.add %r, %b : (tensor<1x64x256xf32>, tensor<256xf32>) -> tensor<1x64x256xf32>
  %y = graph.relu %a : tensor<1x64x256xf32>
  return %y : tensor<1x64x256xf32>
}

// -----

// A batch norm whose per-channel divisor the program computes, sqrt(var +
// eps) of shape [C], and reshapes to [C, 1, 1] against the [N, C, H, W]
// activation: the kernel reads var as it is stored and holds its tile as
// [C, 1, 1] (a block.reshape after the input iterator), so the divisor,
// the normalization and the relu are one kernel. The mean, reshaped
// outside any subprogram, is read as the [C, 1, 1] view.
// REMARK: remark: superoptimize @batch_norm part 0: 6 graph op(s) -> 1 kernel(s) (1 graph-defined), was 5
// REMARK-NOT: @batch_norm part 1
// VERIFY: remark: @batch_norm is equivalent to @batch_norm_ref
// CHECK-LABEL: func.func @batch_norm(
// CHECK: %[[M:.*]] = kernel.reshape %arg1 : tensor<8xf32> -> tensor<8x1x1xf32>
// CHECK: kernel.graph_def(%arg0, %[[M]], %arg2)
// CHECK: block.input %arg{{[0-9]+}} {{.*}} : tensor<8xf32> -> !block.tile<[[C:[0-9]+]]xf32>
// CHECK: block.reshape %{{.*}} : !block.tile<[[C]]xf32> -> !block.tile<[[C]]x1x1xf32>
// CHECK: block.output
// CHECK-NOT: kernel.
// CHECK: return

func.func @batch_norm_ref(%x: tensor<2x8x16x16xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>) -> tensor<2x8x16x16xf32> {
  %mr = kernel.reshape %mean : tensor<8xf32> -> tensor<8x1x1xf32>
  %c = kernel.binary sub %x, %mr : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %e = kernel.unary offset %var params = [1.0e-05] : tensor<8xf32>
  %s = kernel.unary sqrt %e : tensor<8xf32>
  %sr = kernel.reshape %s : tensor<8xf32> -> tensor<8x1x1xf32>
  %n = kernel.binary div %c, %sr : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %y = kernel.unary relu %n : tensor<2x8x16x16xf32>
  return %y : tensor<2x8x16x16xf32>
}

func.func @batch_norm(%x: tensor<2x8x16x16xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>) -> tensor<2x8x16x16xf32>
    attributes {mirage.equivalent_to = @batch_norm_ref} {
  %mr = graph.reshape %mean : tensor<8xf32> -> tensor<8x1x1xf32>
  %c = graph.sub %x, %mr : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %e = graph.scalar_add %var, 1.0e-05 : tensor<8xf32>
  %s = graph.sqrt %e : tensor<8xf32>
  %sr = graph.reshape %s : tensor<8xf32> -> tensor<8x1x1xf32>
  %n = graph.div %c, %sr : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %y = graph.relu %n : tensor<2x8x16x16xf32>
  return %y : tensor<2x8x16x16xf32>
}

// -----

// A reshape that merges two dimensions has no index variable to follow:
// the ops on either side are two subprograms, and the reshape stays a
// (free) view between their kernels.
// REMARK: remark: superoptimize @merged part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2
// REMARK: remark: superoptimize @merged part 1: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2
// VERIFY: remark: @merged is equivalent to @merged_ref
// CHECK-LABEL: func.func @merged(
// CHECK: kernel.graph_def
// CHECK: %[[F:.*]] = kernel.reshape %{{.*}} : tensor<16x64xf32> -> tensor<1024xf32>
// CHECK: kernel.graph_def(%[[F]]
// CHECK: return

func.func @merged_ref(%x: tensor<16x64xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = kernel.unary exp %x : tensor<16x64xf32>
  %b = kernel.unary scale %a params = [2.0] : tensor<16x64xf32>
  %f = kernel.reshape %b : tensor<16x64xf32> -> tensor<1024xf32>
  %c = kernel.binary mul %f, %y : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %d = kernel.unary relu %c : tensor<1024xf32>
  return %d : tensor<1024xf32>
}

func.func @merged(%x: tensor<16x64xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32>
    attributes {mirage.equivalent_to = @merged_ref} {
  %a = graph.exp %x : tensor<16x64xf32>
  %b = graph.scalar_mul %a, 2.0 : tensor<16x64xf32>
  %f = graph.reshape %b : tensor<16x64xf32> -> tensor<1024xf32>
  %c = graph.mul %f, %y : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  %d = graph.relu %c : tensor<1024xf32>
  return %d : tensor<1024xf32>
}
