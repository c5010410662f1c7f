// Per-tile chains that cannot move after the concat: the site is not
// formed, and the remark says why. The chains must be the same ops with the
// same other operands for every tile, each operand constant along the
// concat axis, and every value on the way read only by the next op.
// RUN: mirage-opt %s --partial-equivalence-optimize -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: partial-equivalence-optimize @differ: no stitched-convolution site (the ops after the per-tile convolutions differ)
// CHECK-LABEL: func.func @differ
// CHECK-COUNT-2: graph.conv2d
func.func @differ(%a: tensor<1x4x6x8xf32>, %b: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>, %s: tensor<1x4x1x1xf32>, %t: tensor<1x4x1x1xf32>) -> tensor<1x4x12x8xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %1 = graph.mul %0, %s : (tensor<1x4x6x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x8xf32>
  %2 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %3 = graph.mul %2, %t : (tensor<1x4x6x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x8xf32>
  %4 = graph.concat(%1, %3) dim = 2 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x12x8xf32>
  return %4 : tensor<1x4x12x8xf32>
}

// -----

// A scale per row: the same value for both tiles, but it varies along H,
// so it does not commute with the concat.
// REMARK: remark: partial-equivalence-optimize @along_axis: no stitched-convolution site (an operand of an op after a per-tile convolution varies along the concat axis (or broadcasts the tile))
// CHECK-LABEL: func.func @along_axis
// CHECK-COUNT-2: graph.conv2d
func.func @along_axis(%a: tensor<1x4x6x8xf32>, %b: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>, %s: tensor<1x1x6x1xf32>) -> tensor<1x4x12x8xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %1 = graph.mul %0, %s : (tensor<1x4x6x8xf32>, tensor<1x1x6x1xf32>) -> tensor<1x4x6x8xf32>
  %2 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %3 = graph.mul %2, %s : (tensor<1x4x6x8xf32>, tensor<1x1x6x1xf32>) -> tensor<1x4x6x8xf32>
  %4 = graph.concat(%1, %3) dim = 2 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x12x8xf32>
  return %4 : tensor<1x4x12x8xf32>
}

// -----

// The first tile's ReLU is also returned: its chain cannot go away.
// REMARK: remark: partial-equivalence-optimize @shared: no stitched-convolution site (a convolution or an op after it has another user)
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-2: graph.conv2d
func.func @shared(%a: tensor<1x4x6x8xf32>, %b: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>) -> (tensor<1x4x12x8xf32>, tensor<1x4x6x8xf32>) {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %1 = graph.relu %0 : tensor<1x4x6x8xf32>
  %2 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %3 = graph.relu %2 : tensor<1x4x6x8xf32>
  %4 = graph.concat(%1, %3) dim = 2 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x12x8xf32>
  return %4, %1 : tensor<1x4x12x8xf32>, tensor<1x4x6x8xf32>
}

// -----

// A softmax over the channels is not elementwise: no site, and no reason
// given (the concat's inputs are not convolutions or elementwise ops after
// them).
// REMARK: remark: partial-equivalence-optimize @softmax: no stitched-convolution site{{$}}
// CHECK-LABEL: func.func @softmax
// CHECK-COUNT-2: graph.conv2d
func.func @softmax(%a: tensor<1x4x6x8xf32>, %b: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x12x8xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %1 = graph.softmax %0, dim = 1 : tensor<1x4x6x8xf32>
  %2 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %3 = graph.softmax %2, dim = 1 : tensor<1x4x6x8xf32>
  %4 = graph.concat(%1, %3) dim = 2 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x12x8xf32>
  return %4 : tensor<1x4x12x8xf32>
}

// -----

// A bias per row added from the left (the tile is the second operand):
// also found, and also refused.
// REMARK: remark: partial-equivalence-optimize @row_bias: no stitched-convolution site (an operand of an op after a per-tile convolution varies along the concat axis (or broadcasts the tile))
// CHECK-LABEL: func.func @row_bias
// CHECK-COUNT-2: graph.conv2d
func.func @row_bias(%a: tensor<1x4x6x8xf32>, %b: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>, %r: tensor<6x1xf32>) -> tensor<1x4x12x8xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %1 = graph.add %r, %0 : (tensor<6x1xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x8xf32>
  %2 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %3 = graph.add %r, %2 : (tensor<6x1xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x6x8xf32>
  %4 = graph.concat(%1, %3) dim = 2 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x12x8xf32>
  return %4 : tensor<1x4x12x8xf32>
}

// -----

// The scale has two images: it broadcasts each tile to a batch of two.
// REMARK: remark: partial-equivalence-optimize @broadcasts: no stitched-convolution site (an operand of an op after a per-tile convolution varies along the concat axis (or broadcasts the tile))
// CHECK-LABEL: func.func @broadcasts
// CHECK-COUNT-2: graph.conv2d
func.func @broadcasts(%a: tensor<1x4x6x8xf32>, %b: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>, %s: tensor<2x4x1x1xf32>) -> tensor<2x4x12x8xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %1 = graph.mul %0, %s : (tensor<1x4x6x8xf32>, tensor<2x4x1x1xf32>) -> tensor<2x4x6x8xf32>
  %2 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %3 = graph.mul %2, %s : (tensor<1x4x6x8xf32>, tensor<2x4x1x1xf32>) -> tensor<2x4x6x8xf32>
  %4 = graph.concat(%1, %3) dim = 2 : (tensor<2x4x6x8xf32>, tensor<2x4x6x8xf32>) -> tensor<2x4x12x8xf32>
  return %4 : tensor<2x4x12x8xf32>
}
