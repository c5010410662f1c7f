// rms_norm of rows whose squares leave f32's range (emulate-rms-norm-range.test).
func.func @f32_rows(%x: tensor<6x40xf32>) -> tensor<6x40xf32> {
  %y = graph.rms_norm %x : tensor<6x40xf32>
  return %y : tensor<6x40xf32>
}

func.func @f32_rows_eps(%x: tensor<6x40xf32>) -> tensor<6x40xf32> {
  %y = graph.rms_norm %x {eps = 1.0e-06 : f64} : tensor<6x40xf32>
  return %y : tensor<6x40xf32>
}

func.func @bf16_rows(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %y = graph.rms_norm %x : tensor<4x64xbf16>
  return %y : tensor<4x64xbf16>
}
