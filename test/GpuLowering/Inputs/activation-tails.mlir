// f32 activations at their tails (emulate-activation-tails.test): sigmoid
// where its correctly rounded value is subnormal or tiny, GELU where
// 1 + erf(x / sqrt 2) cancels.
func.func @sigmoid(%x: tensor<16xf32>) -> tensor<16xf32> {
  %y = graph.sigmoid %x : tensor<16xf32>
  return %y : tensor<16xf32>
}

func.func @gelu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %y = graph.gelu %x : tensor<16xf32>
  return %y : tensor<16xf32>
}

// 1 / gelu(x) and its row max: gelu of a very negative x underflows to -0
// in f32, whose reciprocal is -inf; a kernel that turned the -0 into +0
// (a sum accumulator started from +0) gave +inf as the max.
func.func @gelu_sign(%x: tensor<1x8xf32>) -> tensor<1x1xf32> {
  %g = graph.gelu %x : tensor<1x8xf32>
  %r = graph.pow %g, -1.0 : tensor<1x8xf32>
  %m = graph.reduce_max %r, dim = 1 : tensor<1x8xf32> -> tensor<1x1xf32>
  return %m : tensor<1x1xf32>
}
