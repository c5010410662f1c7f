// An f16 softmax over rows of 2048, then pow -0.5, which magnifies the
// softmax's error (emulate-softmax-f16-rounding.test).
func.func @softmax_pow(%x: tensor<4x2048xf16>) -> tensor<4x2048xf16> {
  %s = graph.softmax %x, dim = 1 : tensor<4x2048xf16>
  %p = graph.pow %s, -0.5 : tensor<4x2048xf16>
  return %p : tensor<4x2048xf16>
}
