// Hand-written attention µGraphs with the online softmax, for the PTX
// emulator (emulate-online-softmax.test): one kernel (@fused, tensor cores
// for Q K and P V), the FlashDecoding split over two kernels (@split), and
// one kernel in f32 (@fused_f32: CUDA cores throughout). @attention and
// @attention_f32 are the graph programs whose inputs mirage-run draws.
func.func @attention(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x256xf16>, %V: tensor<2x256x32xf16>) -> tensor<2x64x32xf16> {
  %s = graph.matmul %Q, %K : (tensor<2x64x32xf16>, tensor<2x32x256xf16>) -> tensor<2x64x256xf16>
  %p = graph.softmax %s, dim = 2 : tensor<2x64x256xf16>
  %o = graph.matmul %p, %V : (tensor<2x64x256xf16>, tensor<2x256x32xf16>) -> tensor<2x64x32xf16>
  return %o : tensor<2x64x32xf16>
}
func.func @fused(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x256xf16>, %V: tensor<2x256x32xf16>) -> tensor<2x64x32xf16> {
  %O = kernel.graph_def (%Q, %K, %V) grid = [2, 2] forloop = 4 : (tensor<2x64x32xf16>, tensor<2x32x256xf16>, tensor<2x256x32xf16>) -> tensor<2x64x32xf16> {
  ^bb0(%q: tensor<2x64x32xf16>, %k: tensor<2x32x256xf16>, %v: tensor<2x256x32xf16>):
    %qt = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<2x64x32xf16> -> !block.tile<1x32x32xf16>
    %kt = block.input %k imap = <x: 0, y: replicate> fmap = <i: 2> : tensor<2x32x256xf16> -> !block.tile<1x32x64xf16>
    %vt = block.input %v imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<2x256x32xf16> -> !block.tile<1x64x32xf16>
    %s = block.matmul %qt, %kt : (!block.tile<1x32x32xf16>, !block.tile<1x32x64xf16>) -> !block.tile<1x32x64xf32>
    %o, %ml = block.softmax_accum %s, %vt : (!block.tile<1x32x64xf32>, !block.tile<1x64x32xf16>) -> (!block.tile<1x32x32xf32>, !block.tile<1x32x2xf32>)
    %out = block.output %o omap = <x: 0, y: 1> : !block.tile<1x32x32xf32> -> tensor<2x64x32xf16>
    block.yield %out : tensor<2x64x32xf16>
  }
  return %O : tensor<2x64x32xf16>
}
func.func @split(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x256xf16>, %V: tensor<2x256x32xf16>) -> tensor<2x64x32xf16> {
  %P, %S = kernel.graph_def (%Q, %K, %V) grid = [2, 2, 2] forloop = 2 : (tensor<2x64x32xf16>, tensor<2x32x256xf16>, tensor<2x256x32xf16>) -> (tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>) {
  ^bb0(%q: tensor<2x64x32xf16>, %k: tensor<2x32x256xf16>, %v: tensor<2x256x32xf16>):
    %qt = block.input %q imap = <x: 0, y: 1, z: replicate> fmap = <i: replicate> : tensor<2x64x32xf16> -> !block.tile<1x32x32xf16>
    %kt = block.input %k imap = <x: 0, y: replicate, z: 2> fmap = <i: 2> : tensor<2x32x256xf16> -> !block.tile<1x32x64xf16>
    %vt = block.input %v imap = <x: 0, y: replicate, z: 1> fmap = <i: 1> : tensor<2x256x32xf16> -> !block.tile<1x64x32xf16>
    %s = block.matmul %qt, %kt : (!block.tile<1x32x32xf16>, !block.tile<1x32x64xf16>) -> !block.tile<1x32x64xf32>
    %o, %ml = block.softmax_accum %s, %vt : (!block.tile<1x32x64xf32>, !block.tile<1x64x32xf16>) -> (!block.tile<1x32x32xf32>, !block.tile<1x32x2xf32>)
    %o4 = block.reshape %o : !block.tile<1x32x32xf32> -> !block.tile<1x1x32x32xf32>
    %ml4 = block.reshape %ml : !block.tile<1x32x2xf32> -> !block.tile<1x1x32x2xf32>
    %po = block.output %o4 omap = <x: 1, y: 2, z: 0> : !block.tile<1x1x32x32xf32> -> tensor<2x2x64x32xf32>
    %ps = block.output %ml4 omap = <x: 1, y: 2, z: 0> : !block.tile<1x1x32x2xf32> -> tensor<2x2x64x2xf32>
    block.yield %po, %ps : tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>
  }
  %M = kernel.graph_def (%P, %S) grid = [2, 2] forloop = 1 : (tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>) -> tensor<2x64x32xf16> {
  ^bb0(%p: tensor<2x2x64x32xf32>, %st: tensor<2x2x64x2xf32>):
    %pt = block.input %p imap = <x: 1, y: 2> fmap = <i: replicate> : tensor<2x2x64x32xf32> -> !block.tile<2x1x32x32xf32>
    %stt = block.input %st imap = <x: 1, y: 2> fmap = <i: replicate> : tensor<2x2x64x2xf32> -> !block.tile<2x1x32x2xf32>
    %m = block.softmax_merge %pt, %stt, dim = 0 : (!block.tile<2x1x32x32xf32>, !block.tile<2x1x32x2xf32>) -> !block.tile<1x1x32x32xf32>
    %a = block.accum sum %m : !block.tile<1x1x32x32xf32> -> !block.tile<1x1x32x32xf32>
    %a3 = block.reshape %a : !block.tile<1x1x32x32xf32> -> !block.tile<1x32x32xf32>
    %out = block.output %a3 omap = <x: 0, y: 1> : !block.tile<1x32x32xf32> -> tensor<2x64x32xf16>
    block.yield %out : tensor<2x64x32xf16>
  }
  return %M : tensor<2x64x32xf16>
}
func.func @attention_f32(%Q: tensor<2x64x32xf32>, %K: tensor<2x32x256xf32>, %V: tensor<2x256x32xf32>) -> tensor<2x64x32xf32> {
  %s = graph.matmul %Q, %K : (tensor<2x64x32xf32>, tensor<2x32x256xf32>) -> tensor<2x64x256xf32>
  %p = graph.softmax %s, dim = 2 : tensor<2x64x256xf32>
  %o = graph.matmul %p, %V : (tensor<2x64x256xf32>, tensor<2x256x32xf32>) -> tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}
func.func @fused_f32(%Q: tensor<2x64x32xf32>, %K: tensor<2x32x256xf32>, %V: tensor<2x256x32xf32>) -> tensor<2x64x32xf32> {
  %O = kernel.graph_def (%Q, %K, %V) grid = [2, 2] forloop = 4 : (tensor<2x64x32xf32>, tensor<2x32x256xf32>, tensor<2x256x32xf32>) -> tensor<2x64x32xf32> {
  ^bb0(%q: tensor<2x64x32xf32>, %k: tensor<2x32x256xf32>, %v: tensor<2x256x32xf32>):
    %qt = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<2x64x32xf32> -> !block.tile<1x32x32xf32>
    %kt = block.input %k imap = <x: 0, y: replicate> fmap = <i: 2> : tensor<2x32x256xf32> -> !block.tile<1x32x64xf32>
    %vt = block.input %v imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<2x256x32xf32> -> !block.tile<1x64x32xf32>
    %s = block.matmul %qt, %kt : (!block.tile<1x32x32xf32>, !block.tile<1x32x64xf32>) -> !block.tile<1x32x64xf32>
    %o, %ml = block.softmax_accum %s, %vt : (!block.tile<1x32x64xf32>, !block.tile<1x64x32xf32>) -> (!block.tile<1x32x32xf32>, !block.tile<1x32x2xf32>)
    %out = block.output %o omap = <x: 0, y: 1> : !block.tile<1x32x32xf32> -> tensor<2x64x32xf32>
    block.yield %out : tensor<2x64x32xf32>
  }
  return %O : tensor<2x64x32xf32>
}
