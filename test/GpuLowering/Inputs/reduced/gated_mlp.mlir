// GatedMLP at a reduced shape (bench/programs/gated_mlp.mlir with
// 4096 -> 128): silu(X W1) * (X W2).
// X (8,128), W1 and W2 (128,128).
func.func @gated_mlp(%X: tensor<8x128xf16>, %W1: tensor<128x128xf16>, %W2: tensor<128x128xf16>) -> tensor<8x128xf16> {
  %a = graph.matmul %X, %W1 : (tensor<8x128xf16>, tensor<128x128xf16>) -> tensor<8x128xf16>
  %g = graph.matmul %X, %W2 : (tensor<8x128xf16>, tensor<128x128xf16>) -> tensor<8x128xf16>
  %s = graph.silu %a : tensor<8x128xf16>
  %y = graph.mul %s, %g : (tensor<8x128xf16>, tensor<8x128xf16>) -> tensor<8x128xf16>
  return %y : tensor<8x128xf16>
}
