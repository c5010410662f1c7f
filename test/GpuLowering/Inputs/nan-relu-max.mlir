// relu and reduce_max of an input with a NaN planted in it
// (emulate-nan.test): the kernels keep the NaN (max.NaN), as PyTorch does,
// and so must the reference interpreter they are checked against.
func.func @relu_max(%x: tensor<1x2x5x33xf32>) -> (tensor<1x2x5x33xf32>, tensor<1x2x5x1xf32>, tensor<1x2x5x1xf32>) {
  %r = graph.relu %x : tensor<1x2x5x33xf32>
  %m = graph.reduce_max %x, dim = 3 : tensor<1x2x5x33xf32> -> tensor<1x2x5x1xf32>
  %n = graph.reduce_max %r, dim = 3 : tensor<1x2x5x33xf32> -> tensor<1x2x5x1xf32>
  return %r, %m, %n : tensor<1x2x5x33xf32>, tensor<1x2x5x1xf32>, tensor<1x2x5x1xf32>
}
