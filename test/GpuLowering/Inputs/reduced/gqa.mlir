// GQA at a reduced shape (bench/programs/gqa_b1.mlir with 256 -> 32,
// 4096 -> 128): softmax(Q K) V.
// Q (2,32,64), K (2,64,128), V (2,128,64).
func.func @gqa(%Q: tensor<2x32x64xf16>, %K: tensor<2x64x128xf16>, %V: tensor<2x128x64xf16>) -> tensor<2x32x64xf16> {
  %s = graph.matmul %Q, %K : (tensor<2x32x64xf16>, tensor<2x64x128xf16>) -> tensor<2x32x128xf16>
  %p = graph.softmax %s, dim = 2 : tensor<2x32x128xf16>
  %o = graph.matmul %p, %V : (tensor<2x32x128xf16>, tensor<2x128x64xf16>) -> tensor<2x32x64xf16>
  return %o : tensor<2x32x64xf16>
}
