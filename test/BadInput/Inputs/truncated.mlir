func.func @rms(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [96] forloop = 16
      : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  ^bb0(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x4096xf16> -> !block.tile<16x2
