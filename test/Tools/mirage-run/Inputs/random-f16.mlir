func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = graph.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
