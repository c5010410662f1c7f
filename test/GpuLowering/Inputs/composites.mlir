// Hand-written µGraphs with the composite block ops (emulate-composites.test,
// Verification/composites.mlir): an RMS norm's denominator accumulated over
// the for-loop (block.accum red_rms) beside the matmul (RMSNorm + MatMul in
// 6 block ops), the nTrans update with two whole-row norms (block.rms_norm),
// and a row sum over the for-loop (block.accum red_sum).
func.func @rms_norm_matmul(%X: tensor<8x256xf16>, %W: tensor<256x64xf16>) -> tensor<8x64xf16> {
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
func.func @ntrans(%H: tensor<4x512xf16>, %X: tensor<4x512xf16>, %A: tensor<4x512xf16>) -> tensor<4x512xf16> {
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
func.func @row_sum(%X: tensor<16x1024xf32>) -> tensor<16x1xf32> {
  %Y = kernel.graph_def (%X) grid = [2] forloop = 8 : (tensor<16x1024xf32>) -> tensor<16x1xf32> {
  ^bb0(%x: tensor<16x1024xf32>):
    %xt = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x1024xf32> -> !block.tile<8x128xf32>
    %s = block.accum red_sum %xt, dim = 1 : !block.tile<8x128xf32> -> !block.tile<8x1xf32>
    %o = block.output %s omap = <x: 0> : !block.tile<8x1xf32> -> tensor<16x1xf32>
    block.yield %o : tensor<16x1xf32>
  }
  return %Y : tensor<16x1xf32>
}
