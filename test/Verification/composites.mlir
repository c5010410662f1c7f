// The composite block ops verified against the graph programs they
// implement (the µGraphs of ../GpuLowering/Inputs/composites.mlir, which the
// emulator runs): RMS norms and row sums in one op each, with the field
// test's full bound.
// RUN: mirage-opt %s --verify-equivalence 2>&1 | FileCheck %s

// CHECK: remark: @rms_norm_matmul is equivalent to @rms_norm_matmul_graph: finite-field test: {{[0-9]+}} tests over {{.*}}; 1 constant, none vanishing or colliding; degree 3, 2 exp/uninterpreted/max sites)
// CHECK: remark: @ntrans is equivalent to @ntrans_graph: finite-field test:
// CHECK: remark: @row_sum is equivalent to @row_sum_graph: finite-field test:
func.func @rms_norm_matmul_graph(%X: tensor<8x256xf16>, %W: tensor<256x64xf16>) -> tensor<8x64xf16> {
  %n = graph.rms_norm %X : tensor<8x256xf16>
  %y = graph.matmul %n, %W : (tensor<8x256xf16>, tensor<256x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
func.func @ntrans_graph(%H: tensor<4x512xf16>, %X: tensor<4x512xf16>, %A: tensor<4x512xf16>) -> tensor<4x512xf16> {
  %xn = graph.rms_norm %X : tensor<4x512xf16>
  %d = graph.sub %xn, %H : (tensor<4x512xf16>, tensor<4x512xf16>) -> tensor<4x512xf16>
  %ad = graph.mul %A, %d : (tensor<4x512xf16>, tensor<4x512xf16>) -> tensor<4x512xf16>
  %u = graph.add %H, %ad : (tensor<4x512xf16>, tensor<4x512xf16>) -> tensor<4x512xf16>
  %y = graph.rms_norm %u : tensor<4x512xf16>
  return %y : tensor<4x512xf16>
}
func.func @row_sum_graph(%X: tensor<16x1024xf32>) -> tensor<16x1xf32> {
  %y = graph.reduce_sum %X, dim = 1 : tensor<16x1024xf32> -> tensor<16x1xf32>
  return %y : tensor<16x1xf32>
}
func.func @rms_norm_matmul(%X: tensor<8x256xf16>, %W: tensor<256x64xf16>) -> tensor<8x64xf16>
    attributes {mirage.equivalent_to = @rms_norm_matmul_graph} {
  %Y = kernel.graph_def (%X, %W) grid = [4] forloop = 4 : (tensor<8x256xf16>, tensor<256x64xf16>) -> tensor<8x64xf16> {
  ^bb0(%x: tensor<8x256xf16>, %w: tensor<256x64xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<8x256xf16> -> !block.tile<8x64xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<256x64xf16> -> !block.tile<64x16xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<8x64xf16>, !block.tile<64x16xf16>) -> !block.tile<8x16xf32>
    %acc = block.accum sum %mm : !block.tile<8x16xf32> -> !block.tile<8x16xf32>
    %rms = block.accum red_rms %xt, dim = 1 : !block.tile<8x64xf16> -> !block.tile<8x1xf32>
    %y = block.binary div %acc, %rms : (!block.tile<8x16xf32>, !block.tile<8x1xf32>) -> !block.tile<8x16xf32>
    %o = block.output %y omap = <x: 1> : !block.tile<8x16xf32> -> tensor<8x64xf16>
    block.yield %o : tensor<8x64xf16>
  }
  return %Y : tensor<8x64xf16>
}
func.func @ntrans(%H: tensor<4x512xf16>, %X: tensor<4x512xf16>, %A: tensor<4x512xf16>) -> tensor<4x512xf16>
    attributes {mirage.equivalent_to = @ntrans_graph} {
  %Y = kernel.graph_def (%H, %X, %A) grid = [4] forloop = 1 : (tensor<4x512xf16>, tensor<4x512xf16>, tensor<4x512xf16>) -> tensor<4x512xf16> {
  ^bb0(%h: tensor<4x512xf16>, %x: tensor<4x512xf16>, %a: tensor<4x512xf16>):
    %ht = block.input %h imap = <x: 0> fmap = <i: replicate> : tensor<4x512xf16> -> !block.tile<1x512xf16>
    %xt = block.input %x imap = <x: 0> fmap = <i: replicate> : tensor<4x512xf16> -> !block.tile<1x512xf16>
    %at = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<4x512xf16> -> !block.tile<1x512xf16>
    %xn = block.rms_norm %xt, dim = 1 : !block.tile<1x512xf16> -> !block.tile<1x512xf32>
    %d = block.binary sub %xn, %ht : (!block.tile<1x512xf32>, !block.tile<1x512xf16>) -> !block.tile<1x512xf32>
    %ad = block.binary mul %at, %d : (!block.tile<1x512xf16>, !block.tile<1x512xf32>) -> !block.tile<1x512xf32>
    %u = block.binary add %ht, %ad : (!block.tile<1x512xf16>, !block.tile<1x512xf32>) -> !block.tile<1x512xf32>
    %y = block.rms_norm %u, dim = 1 : !block.tile<1x512xf32> -> !block.tile<1x512xf32>
    %acc = block.accum sum %y : !block.tile<1x512xf32> -> !block.tile<1x512xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<1x512xf32> -> tensor<4x512xf16>
    block.yield %o : tensor<4x512xf16>
  }
  return %Y : tensor<4x512xf16>
}
func.func @row_sum(%X: tensor<16x1024xf32>) -> tensor<16x1xf32>
    attributes {mirage.equivalent_to = @row_sum_graph} {
  %Y = kernel.graph_def (%X) grid = [2] forloop = 8 : (tensor<16x1024xf32>) -> tensor<16x1xf32> {
  ^bb0(%x: tensor<16x1024xf32>):
    %xt = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x1024xf32> -> !block.tile<8x128xf32>
    %s = block.accum red_sum %xt, dim = 1 : !block.tile<8x128xf32> -> !block.tile<8x1xf32>
    %o = block.output %s omap = <x: 0> : !block.tile<8x1xf32> -> tensor<16x1xf32>
    block.yield %o : tensor<16x1xf32>
  }
  return %Y : tensor<16x1xf32>
}
