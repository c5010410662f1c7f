// Matmuls whose operand tiles are a few elements long (issue 24, item 6):
// NVPTX vectorizes the load of a 7x1 or 3x1 tile past its last element and
// reads shared-memory padding that no thread wrote and no result uses
// (emulate-padding-reads.test).
func.func @matmul_4x7_7x1(%a: tensor<4x7xf32>, %b: tensor<7x1xf32>) -> tensor<4x1xf32> {
  %y = graph.matmul %a, %b : (tensor<4x7xf32>, tensor<7x1xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
func.func @matmul_5x3_3x1(%a: tensor<5x3xf32>, %b: tensor<3x1xf32>) -> tensor<5x1xf32> {
  %y = graph.matmul %a, %b : (tensor<5x3xf32>, tensor<3x1xf32>) -> tensor<5x1xf32>
  return %y : tensor<5x1xf32>
}
func.func @matmul_bf16_4x7_7x1(%a: tensor<4x7xbf16>, %b: tensor<7x1xbf16>) -> tensor<4x1xbf16> {
  %y = graph.matmul %a, %b : (tensor<4x7xbf16>, tensor<7x1xbf16>) -> tensor<4x1xbf16>
  return %y : tensor<4x1xbf16>
}
func.func @matmul_bf16_2x3_3x1(%a: tensor<2x3xbf16>, %b: tensor<3x1xbf16>) -> tensor<2x1xbf16> {
  %y = graph.matmul %a, %b : (tensor<2x3xbf16>, tensor<3x1xbf16>) -> tensor<2x1xbf16>
  return %y : tensor<2x1xbf16>
}
