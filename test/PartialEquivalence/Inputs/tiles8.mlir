// Eight tiles of a 3x3 convolution stitched along H (as in ../apply.mlir).
func.func @tiles8(%x0: tensor<1x4x6x8xf32>, %x1: tensor<1x4x6x8xf32>, %x2: tensor<1x4x6x8xf32>, %x3: tensor<1x4x6x8xf32>, %x4: tensor<1x4x6x8xf32>, %x5: tensor<1x4x6x8xf32>, %x6: tensor<1x4x6x8xf32>, %x7: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x48x8xf32> {
  %c0 = graph.conv2d %x0, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c1 = graph.conv2d %x1, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c2 = graph.conv2d %x2, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c3 = graph.conv2d %x3, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c4 = graph.conv2d %x4, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c5 = graph.conv2d %x5, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c6 = graph.conv2d %x6, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c7 = graph.conv2d %x7, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %y = graph.concat(%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7) dim = 2 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x48x8xf32>
  return %y : tensor<1x4x48x8xf32>
}
