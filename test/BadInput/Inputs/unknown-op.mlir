func.func @f(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %0 = graph.cosh %x : tensor<8x64xf16>
  return %0 : tensor<8x64xf16>
}
