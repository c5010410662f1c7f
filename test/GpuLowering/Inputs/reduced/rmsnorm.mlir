// RMSNorm at a reduced shape (bench/programs/rmsnorm_b1.mlir with
// 4096 -> 256, 6144 -> 128): rms_norm(X) W.
// X (2,256), W (256,128).
func.func @rmsnorm(%X: tensor<2x256xf16>, %W: tensor<256x128xf16>) -> tensor<2x128xf16> {
  %n = graph.rms_norm %X : tensor<2x256xf16>
  %y = graph.matmul %n, %W : (tensor<2x256xf16>, tensor<256x128xf16>) -> tensor<2x128xf16>
  return %y : tensor<2x128xf16>
}
