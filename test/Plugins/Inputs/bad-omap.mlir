func.func @bad(%x: tensor<16x64xf32>) -> tensor<8x64xf32> {
  %y = kernel.graph_def (%x) grid = [2] forloop = 1 : (tensor<16x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%t: tensor<16x64xf32>):
    %i = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %a = block.accum sum %i : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    // VERIFY: bad-omap.mlir:[[@LINE+1]]:10: error: 'block.output' op omap maps grid dimension x (2 blocks) to replicate
    %o = block.output %a omap = <x: replicate> : !block.tile<8x64xf32> -> tensor<8x64xf32>
    block.yield %o : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}
