// --fuse-thread-chains replaces each connected group of two or more
// elementwise block ops of a block graph by one thread.fused op. Each
// µGraph below is the copy of a graph-level function (which the pass leaves
// alone, having no block graph); the second RUN line proves every fused
// µGraph equivalent to its original.
// RUN: mirage-opt %s --fuse-thread-chains | FileCheck %s
// RUN: mirage-opt %s --fuse-thread-chains | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// GatedMLP: the post-loop silu * mul tail becomes one fused op.
// EQUIV: remark: @gated_mlp_fused is equivalent to @gated_mlp:
func.func @gated_mlp(%X: tensor<4x32xf32>, %W1: tensor<32x16xf32>, %W2: tensor<32x16xf32>) -> tensor<4x16xf32> {
  %a = graph.matmul %X, %W1 : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
  %b = graph.matmul %X, %W2 : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
  %s = graph.silu %a : tensor<4x16xf32>
  %y = graph.mul %s, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
// CHECK-LABEL: func.func @gated_mlp_fused
// CHECK: %[[A1:.*]] = block.accum sum
// CHECK-NEXT: %[[A2:.*]] = block.accum sum
// CHECK-NEXT: %[[G:.*]] = thread.fused(%[[A1]], %[[A2]]) : (!block.tile<4x8xf32>, !block.tile<4x8xf32>) -> !block.tile<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[P:.*]]: f32, %[[Q:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = thread.unary silu %[[P]] : f32
// CHECK-NEXT: %[[M:.*]] = thread.binary mul %[[S]], %[[Q]] : f32
// CHECK-NEXT: thread.yield %[[M]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: block.output %[[G]]
// CHECK-NOT: block.unary
// CHECK-NOT: block.binary
// CHECK: return
func.func @gated_mlp_fused(%X: tensor<4x32xf32>, %W1: tensor<32x16xf32>, %W2: tensor<32x16xf32>) -> tensor<4x16xf32>
    attributes {mirage.equivalent_to = @gated_mlp} {
  %Y = kernel.graph_def (%X, %W1, %W2) grid = [2] forloop = 2
      : (tensor<4x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%x: tensor<4x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x32xf32> -> !block.tile<4x16xf32>
    %at = block.input %w1 imap = <x: 1> fmap = <i: 0> : tensor<32x16xf32> -> !block.tile<16x8xf32>
    %bt = block.input %w2 imap = <x: 1> fmap = <i: 0> : tensor<32x16xf32> -> !block.tile<16x8xf32>
    %m1 = block.matmul %xt, %at : (!block.tile<4x16xf32>, !block.tile<16x8xf32>) -> !block.tile<4x8xf32>
    %m2 = block.matmul %xt, %bt : (!block.tile<4x16xf32>, !block.tile<16x8xf32>) -> !block.tile<4x8xf32>
    %a1 = block.accum sum %m1 : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %a2 = block.accum sum %m2 : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %s = block.unary silu %a1 : !block.tile<4x8xf32>
    %y = block.binary mul %s, %a2 : (!block.tile<4x8xf32>, !block.tile<4x8xf32>) -> !block.tile<4x8xf32>
    %o = block.output %y omap = <x: 1> : !block.tile<4x8xf32> -> tensor<4x16xf32>
    block.yield %o : tensor<4x16xf32>
  }
  return %Y : tensor<4x16xf32>
}

// RMSNorm + MatMul: the post-loop scale -> sqrt on 4x1 tiles and the
// broadcast div to 4x16 form one group; the fused op takes both
// accumulators, broadcasts the 4x1 one and recomputes the row's sqrt per
// element. The lone loop-body square stays.
// EQUIV: remark: @rms_norm_matmul_fused is equivalent to @rms_norm_matmul:
func.func @rms_norm_matmul(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %n = graph.rms_norm %X : tensor<4x64xf32>
  %y = graph.matmul %n, %W : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
// CHECK-LABEL: func.func @rms_norm_matmul_fused
// CHECK: block.unary square
// CHECK: %[[MM:.*]] = block.accum sum
// CHECK-NEXT: %[[SS:.*]] = block.accum sum
// CHECK-NEXT: %[[Y:.*]] = thread.fused(%[[SS]], %[[MM]]) : (!block.tile<4x1xf32>, !block.tile<4x16xf32>) -> !block.tile<4x16xf32> {
// CHECK-NEXT: ^bb0(%[[P:.*]]: f32, %[[Q:.*]]: f32):
// CHECK-NEXT: %[[MEAN:.*]] = thread.unary scale %[[P]] params = [1.562500e-02] : f32
// CHECK-NEXT: %[[RMS:.*]] = thread.unary sqrt %[[MEAN]] : f32
// CHECK-NEXT: %[[D:.*]] = thread.binary div %[[Q]], %[[RMS]] : f32
// CHECK-NEXT: thread.yield %[[D]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: block.output %[[Y]]
func.func @rms_norm_matmul_fused(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32>
    attributes {mirage.equivalent_to = @rms_norm_matmul} {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 4
      : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x64xf32> -> !block.tile<4x16xf32>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf32> -> !block.tile<16x16xf32>
    %sq = block.unary square %xt : !block.tile<4x16xf32>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<4x16xf32> -> !block.tile<4x1xf32>
    %mm = block.matmul %xt, %wt : (!block.tile<4x16xf32>, !block.tile<16x16xf32>) -> !block.tile<4x16xf32>
    %acc_mm = block.accum sum %mm : !block.tile<4x16xf32> -> !block.tile<4x16xf32>
    %acc_ss = block.accum sum %ss : !block.tile<4x1xf32> -> !block.tile<4x1xf32>
    %mean = block.unary scale %acc_ss params = [0.015625] : !block.tile<4x1xf32>
    %rms = block.unary sqrt %mean : !block.tile<4x1xf32>
    %y = block.binary div %acc_mm, %rms : (!block.tile<4x16xf32>, !block.tile<4x1xf32>) -> !block.tile<4x16xf32>
    %out = block.output %y omap = <x: 1> : !block.tile<4x16xf32> -> tensor<4x32xf32>
    block.yield %out : tensor<4x32xf32>
  }
  return %Y : tensor<4x32xf32>
}

// The same with the 4x1 rms also saved: a value used outside the group must
// have the common 4x16 shape, so the group splits by result shape: scale ->
// sqrt fuse (4x1) and the div stays alone.
// EQUIV: remark: @rms_split_fused is equivalent to @rms_split:
func.func @rms_split(%X: tensor<4x64xf32>, %W: tensor<64x16xf32>) -> (tensor<4x16xf32>, tensor<4x1xf32>) {
  %sq = graph.square %X : tensor<4x64xf32>
  %ss = graph.reduce_sum %sq, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %mean = graph.scalar_mul %ss, 0.015625 : tensor<4x1xf32>
  %rms = graph.sqrt %mean : tensor<4x1xf32>
  %mm = graph.matmul %X, %W : (tensor<4x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
  %y = graph.div %mm, %rms : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %y, %rms : tensor<4x16xf32>, tensor<4x1xf32>
}
// CHECK-LABEL: func.func @rms_split_fused
// CHECK: %[[MM:.*]] = block.accum sum
// CHECK-NEXT: %[[SS:.*]] = block.accum sum
// CHECK-NEXT: %[[R:.*]] = thread.fused(%[[SS]]) : (!block.tile<4x1xf32>) -> !block.tile<4x1xf32> {
// CHECK-NEXT: ^bb0(%[[P:.*]]: f32):
// CHECK-NEXT: %[[MEAN:.*]] = thread.unary scale %[[P]] params = [1.562500e-02] : f32
// CHECK-NEXT: %[[RMS:.*]] = thread.unary sqrt %[[MEAN]] : f32
// CHECK-NEXT: thread.yield %[[RMS]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[Y:.*]] = block.binary div %[[MM]], %[[R]]
// CHECK-NEXT: block.output %[[Y]]
// CHECK-NEXT: block.output %[[R]]
func.func @rms_split_fused(%X: tensor<4x64xf32>, %W: tensor<64x16xf32>) -> (tensor<4x16xf32>, tensor<4x1xf32>)
    attributes {mirage.equivalent_to = @rms_split} {
  %Y:2 = kernel.graph_def (%X, %W) grid = [1] forloop = 4
      : (tensor<4x64xf32>, tensor<64x16xf32>) -> (tensor<4x16xf32>, tensor<4x1xf32>) {
  ^bb0(%x: tensor<4x64xf32>, %w: tensor<64x16xf32>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x64xf32> -> !block.tile<4x16xf32>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x16xf32> -> !block.tile<16x16xf32>
    %sq = block.unary square %xt : !block.tile<4x16xf32>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<4x16xf32> -> !block.tile<4x1xf32>
    %mm = block.matmul %xt, %wt : (!block.tile<4x16xf32>, !block.tile<16x16xf32>) -> !block.tile<4x16xf32>
    %acc_mm = block.accum sum %mm : !block.tile<4x16xf32> -> !block.tile<4x16xf32>
    %acc_ss = block.accum sum %ss : !block.tile<4x1xf32> -> !block.tile<4x1xf32>
    %mean = block.unary scale %acc_ss params = [0.015625] : !block.tile<4x1xf32>
    %rms = block.unary sqrt %mean : !block.tile<4x1xf32>
    %y = block.binary div %acc_mm, %rms : (!block.tile<4x16xf32>, !block.tile<4x1xf32>) -> !block.tile<4x16xf32>
    %o1 = block.output %y omap = <x: 1> : !block.tile<4x16xf32> -> tensor<4x16xf32>
    %o2 = block.output %rms omap = <x: 1> : !block.tile<4x1xf32> -> tensor<4x1xf32>
    block.yield %o1, %o2 : tensor<4x16xf32>, tensor<4x1xf32>
  }
  return %Y#0, %Y#1 : tensor<4x16xf32>, tensor<4x1xf32>
}

// Loop-body chain exp -> mul before a concat accumulator, and post-loop
// chain sqrt -> scale after it: two fused ops, one on each side of the
// accum, never one across it.
// EQUIV: remark: @both_sides_tiles is equivalent to @both_sides:
func.func @both_sides(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = graph.exp %x : tensor<8x8xf32>
  %m = graph.mul %e, %x : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %q = graph.sqrt %m : tensor<8x8xf32>
  %y = graph.scalar_mul %q, 0.5 : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @both_sides_tiles
// CHECK: %[[T:.*]] = block.input
// CHECK-NEXT: %[[L:.*]] = thread.fused(%[[T]]) : (!block.tile<4x4xf32>) -> !block.tile<4x4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32):
// CHECK-NEXT: %[[E:.*]] = thread.unary exp %[[A]] : f32
// CHECK-NEXT: %[[M:.*]] = thread.binary mul %[[E]], %[[A]] : f32
// CHECK-NEXT: thread.yield %[[M]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[C:.*]] = block.accum concat %[[L]]
// CHECK-NEXT: %[[P:.*]] = thread.fused(%[[C]]) : (!block.tile<4x8xf32>) -> !block.tile<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[B:.*]]: f32):
// CHECK-NEXT: %[[Q:.*]] = thread.unary sqrt %[[B]] : f32
// CHECK-NEXT: %[[S:.*]] = thread.unary scale %[[Q]] params = [5.000000e-01] : f32
// CHECK-NEXT: thread.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: block.output %[[P]]
func.func @both_sides_tiles(%x: tensor<8x8xf32>) -> tensor<8x8xf32>
    attributes {mirage.equivalent_to = @both_sides} {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 2
      : (tensor<8x8xf32>) -> tensor<8x8xf32> {
  ^bb0(%a: tensor<8x8xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<8x8xf32> -> !block.tile<4x4xf32>
    %e = block.unary exp %t : !block.tile<4x4xf32>
    %m = block.binary mul %e, %t : (!block.tile<4x4xf32>, !block.tile<4x4xf32>) -> !block.tile<4x4xf32>
    %c = block.accum concat %m, dim = 1 : !block.tile<4x4xf32> -> !block.tile<4x8xf32>
    %q = block.unary sqrt %c : !block.tile<4x8xf32>
    %s = block.unary scale %q params = [0.5] : !block.tile<4x8xf32>
    %o = block.output %s omap = <x: 0> : !block.tile<4x8xf32> -> tensor<8x8xf32>
    block.yield %o : tensor<8x8xf32>
  }
  return %Y : tensor<8x8xf32>
}

// A lone op on each side of the accumulator: nothing to fuse.
// EQUIV: remark: @lone_tiles is equivalent to @lone:
func.func @lone(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = graph.exp %x : tensor<8x8xf32>
  %q = graph.sqrt %e : tensor<8x8xf32>
  return %q : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @lone_tiles
// CHECK: %[[T:.*]] = block.input
// CHECK-NEXT: %[[E:.*]] = block.unary exp %[[T]]
// CHECK-NEXT: %[[C:.*]] = block.accum concat %[[E]]
// CHECK-NEXT: %[[Q:.*]] = block.unary sqrt %[[C]]
// CHECK-NEXT: block.output %[[Q]]
// CHECK-NOT: thread.fused
// CHECK: return
func.func @lone_tiles(%x: tensor<8x8xf32>) -> tensor<8x8xf32>
    attributes {mirage.equivalent_to = @lone} {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 2
      : (tensor<8x8xf32>) -> tensor<8x8xf32> {
  ^bb0(%a: tensor<8x8xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<8x8xf32> -> !block.tile<4x4xf32>
    %e = block.unary exp %t : !block.tile<4x4xf32>
    %c = block.accum concat %e, dim = 1 : !block.tile<4x4xf32> -> !block.tile<4x8xf32>
    %q = block.unary sqrt %c : !block.tile<4x8xf32>
    %o = block.output %q omap = <x: 0> : !block.tile<4x8xf32> -> tensor<8x8xf32>
    block.yield %o : tensor<8x8xf32>
  }
  return %Y : tensor<8x8xf32>
}

// An intermediate used outside the chain (silu saved as well) becomes a
// second result of the fused op.
// EQUIV: remark: @two_results_fused is equivalent to @two_results:
func.func @two_results(%A: tensor<4x16xf32>, %B: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %s = graph.silu %A : tensor<4x16xf32>
  %y = graph.mul %s, %B : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %s : tensor<4x16xf32>, tensor<4x16xf32>
}
// CHECK-LABEL: func.func @two_results_fused
// CHECK: %[[G:.*]]:2 = thread.fused(%{{.*}}, %{{.*}}) : (!block.tile<4x8xf32>, !block.tile<4x8xf32>) -> (!block.tile<4x8xf32>, !block.tile<4x8xf32>) {
// CHECK-NEXT: ^bb0(%[[P:.*]]: f32, %[[Q:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = thread.unary silu %[[P]] : f32
// CHECK-NEXT: %[[M:.*]] = thread.binary mul %[[S]], %[[Q]] : f32
// CHECK-NEXT: thread.yield %[[S]], %[[M]] : f32, f32
// CHECK-NEXT: }
// CHECK-NEXT: block.output %[[G]]#1
// CHECK-NEXT: block.output %[[G]]#0
func.func @two_results_fused(%A: tensor<4x16xf32>, %B: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>)
    attributes {mirage.equivalent_to = @two_results} {
  %Y:2 = kernel.graph_def (%A, %B) grid = [2] forloop = 1
      : (tensor<4x16xf32>, tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  ^bb0(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>):
    %at = block.input %a imap = <x: 1> fmap = <i: replicate> : tensor<4x16xf32> -> !block.tile<4x8xf32>
    %bt = block.input %b imap = <x: 1> fmap = <i: replicate> : tensor<4x16xf32> -> !block.tile<4x8xf32>
    %a1 = block.accum sum %at : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %b1 = block.accum sum %bt : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %s = block.unary silu %a1 : !block.tile<4x8xf32>
    %y = block.binary mul %s, %b1 : (!block.tile<4x8xf32>, !block.tile<4x8xf32>) -> !block.tile<4x8xf32>
    %o1 = block.output %y omap = <x: 1> : !block.tile<4x8xf32> -> tensor<4x16xf32>
    %o2 = block.output %s omap = <x: 1> : !block.tile<4x8xf32> -> tensor<4x16xf32>
    block.yield %o1, %o2 : tensor<4x16xf32>, tensor<4x16xf32>
  }
  return %Y#0, %Y#1 : tensor<4x16xf32>, tensor<4x16xf32>
}
