// Decoding attention (16 queries per head against 2048 keys) and a gated
// product of two matmuls over a long K: too little parallelism over the
// outputs, so the search splits the keys (K) across one more grid
// dimension and combines the partial results in a second kernel.
func.func @decode(%Q: tensor<2x16x64xf16>, %K: tensor<2x64x2048xf16>, %V: tensor<2x2048x64xf16>) -> tensor<2x16x64xf16> {
  %s = graph.matmul %Q, %K : (tensor<2x16x64xf16>, tensor<2x64x2048xf16>) -> tensor<2x16x2048xf16>
  %p = graph.softmax %s, dim = 2 : tensor<2x16x2048xf16>
  %o = graph.matmul %p, %V : (tensor<2x16x2048xf16>, tensor<2x2048x64xf16>) -> tensor<2x16x64xf16>
  return %o : tensor<2x16x64xf16>
}
func.func @gated_long_k(%X: tensor<16x65536xf16>, %W: tensor<65536x16xf16>, %V: tensor<65536x16xf16>) -> tensor<16x16xf16> {
  %a = graph.matmul %X, %W : (tensor<16x65536xf16>, tensor<65536x16xf16>) -> tensor<16x16xf16>
  %g = graph.matmul %X, %V : (tensor<16x65536xf16>, tensor<65536x16xf16>) -> tensor<16x16xf16>
  %s = graph.silu %a : tensor<16x16xf16>
  %y = graph.mul %s, %g : (tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xf16>
  return %y : tensor<16x16xf16>
}
