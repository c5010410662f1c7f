func.func @f(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %y = kernel.graph_def (%x) grid = [2] forloop = 1 : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%t: tensor<16x64xf32>):
    %i = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %a = block.binary add %i, %b : (!block.tile<8x64xf32>, !block.tile<8x64xf32>) -> !block.tile<8x64xf32>
    %b = block.binary mul %a, %i : (!block.tile<8x64xf32>, !block.tile<8x64xf32>) -> !block.tile<8x64xf32>
    %s = block.accum sum %b : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %o = block.output %s omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %y : tensor<16x64xf32>
}
