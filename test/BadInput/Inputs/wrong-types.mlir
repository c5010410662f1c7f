func.func @f(%x: tensor<8x64xi32>) -> tensor<8x64xi32> {
  %0 = graph.exp %x : tensor<8x64xi32>
  return %0 : tensor<8x64xi32>
}
