// QKNorm at a reduced shape (bench/programs/qknorm_b1.mlir with
// 256 -> 32, 4096 -> 128): rms_norm on Q and on K (over K's dimension 1),
// then the attention softmax(Q K) V.
// Q (2,32,64), K (2,64,128), V (2,128,64).
func.func @qknorm(%Q: tensor<2x32x64xf16>, %K: tensor<2x64x128xf16>, %V: tensor<2x128x64xf16>) -> tensor<2x32x64xf16> {
  %qn = graph.rms_norm %Q : tensor<2x32x64xf16>
  %kt = graph.transpose %K, perm = [0, 2, 1] : tensor<2x64x128xf16> -> tensor<2x128x64xf16>
  %ktn = graph.rms_norm %kt : tensor<2x128x64xf16>
  %kn = graph.transpose %ktn, perm = [0, 2, 1] : tensor<2x128x64xf16> -> tensor<2x64x128xf16>
  %s = graph.matmul %qn, %kn : (tensor<2x32x64xf16>, tensor<2x64x128xf16>) -> tensor<2x32x128xf16>
  %p = graph.softmax %s, dim = 2 : tensor<2x32x128xf16>
  %o = graph.matmul %p, %V : (tensor<2x32x128xf16>, tensor<2x128x64xf16>) -> tensor<2x32x64xf16>
  return %o : tensor<2x32x64xf16>
}
