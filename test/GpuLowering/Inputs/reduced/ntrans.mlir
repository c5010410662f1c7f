// nTrans at a reduced shape (bench/programs/ntrans_b8.mlir with b = 8 -> 2,
// 4096 -> 256): h' = rms_norm(H + alpha * (rms_norm(X) - H)).
// H, X, alpha (2,256).
func.func @ntrans(%H: tensor<2x256xf16>, %X: tensor<2x256xf16>, %alpha: tensor<2x256xf16>) -> tensor<2x256xf16> {
  %xn = graph.rms_norm %X : tensor<2x256xf16>
  %d = graph.sub %xn, %H : (tensor<2x256xf16>, tensor<2x256xf16>) -> tensor<2x256xf16>
  %ad = graph.mul %alpha, %d : (tensor<2x256xf16>, tensor<2x256xf16>) -> tensor<2x256xf16>
  %u = graph.add %H, %ad : (tensor<2x256xf16>, tensor<2x256xf16>) -> tensor<2x256xf16>
  %y = graph.rms_norm %u : tensor<2x256xf16>
  return %y : tensor<2x256xf16>
}
