func.func @scalar(%x: i32) {
  return
}

func.func private @external(tensor<2xf32>) -> tensor<2xf32>

func.func @calls(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @external(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
