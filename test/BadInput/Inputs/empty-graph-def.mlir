func.func @f(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %y = kernel.graph_def (%x) grid = [2] forloop = 1 : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  }
  return %y : tensor<16x64xf32>
}
