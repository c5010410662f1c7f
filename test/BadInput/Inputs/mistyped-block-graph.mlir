func.func @f(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %y = kernel.graph_def (%x, %w) grid = [2] forloop = 1 : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%t: tensor<16x64xf32>, %u: tensor<64x32xf32>):
    %i = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %j = block.input %u imap = <x: replicate> fmap = <i: replicate> : tensor<64x32xf32> -> !block.tile<64x32xf32>
    %m = block.matmul %j, %i : (!block.tile<64x32xf32>, !block.tile<8x64xf32>) -> !block.tile<64x64xf32>
    %s = block.accum sum %m : !block.tile<64x64xf32> -> !block.tile<64x64xf32>
    %o = block.output %s omap = <x: 0> : !block.tile<64x64xf32> -> tensor<128x64xf32>
    block.yield %o : tensor<128x64xf32>
  }
  return %y : tensor<16x32xf32>
}
