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
