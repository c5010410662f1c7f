// Kernels that the block dialect cannot express get an error, and the pass
// fails.
// RUN: mirage-opt %s --kernel-to-block -split-input-file -verify-diagnostics

func.func @split(%x: tensor<8x64xf16>) -> (tensor<3x64xf16>, tensor<5x64xf16>) {
  // expected-error @+1 {{'kernel.split' op has no block-graph form: the block dialect cannot select part of a tile, and every output saver writes every block's tile}}
  %a:2 = kernel.split %x, dim = 0, sizes = [3, 5] : tensor<8x64xf16> -> tensor<3x64xf16>, tensor<5x64xf16>
  return %a#0, %a#1 : tensor<3x64xf16>, tensor<5x64xf16>
}

// -----

func.func @conv2d(%img: tensor<1x3x16x16xf16>, %k: tensor<4x3x3x3xf16>) -> tensor<1x4x16x16xf16> {
  // expected-error @+1 {{'kernel.conv2d' op has no block-graph form: input iterators read disjoint tiles, not the overlapping sliding windows it needs}}
  %y = kernel.conv2d %img, %k {padding = array<i64: 1, 1>} : (tensor<1x3x16x16xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x16x16xf16>
  return %y : tensor<1x4x16x16xf16>
}

// -----

func.func @pool(%x: tensor<1x4x16x16xf16>) -> tensor<1x4x8x8xf16> {
  // expected-error @+1 {{'kernel.pool2d' op has no block-graph form: input iterators read disjoint tiles}}
  %y = kernel.pool2d max %x, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x4x16x16xf16> -> tensor<1x4x8x8xf16>
  return %y : tensor<1x4x8x8xf16>
}

// -----

// Reversing six dims moves all of them: five would need a grid dim each
// (the loop takes one).
func.func @reverse(%x: tensor<2x3x4x5x6x7xf32>) -> tensor<7x6x5x4x3x2xf32> {
  // expected-error @+1 {{'kernel.transpose' op has no block-graph form: its 5 moved dimensions besides the accumulated one need one grid dimension each, and a grid has at most 3}}
  %y = kernel.transpose %x, perm = [5, 4, 3, 2, 1, 0] : tensor<2x3x4x5x6x7xf32> -> tensor<7x6x5x4x3x2xf32>
  return %y : tensor<7x6x5x4x3x2xf32>
}

// -----

func.func @broadcast4(%x: tensor<1x1x1x1x8xf32>) -> tensor<2x2x2x2x8xf32> {
  // expected-error @+1 {{'kernel.broadcast' op has no block-graph form: its 4 broadcast dimensions need one grid dimension each, and a grid has at most 3}}
  %y = kernel.broadcast %x : tensor<1x1x1x1x8xf32> -> tensor<2x2x2x2x8xf32>
  return %y : tensor<2x2x2x2x8xf32>
}

// -----

// A softmax row of 32768 f32 must sit whole in shared memory: its tiles
// would need 640 KiB.
func.func @long_row(%x: tensor<2x32768xf32>) -> tensor<2x32768xf32> {
  // expected-error @+1 {{'kernel.softmax' op has no block-graph form within shared memory: its default block graph needs 655368 bytes per block, more than 98304}}
  %y = kernel.softmax %x, dim = 1 : tensor<2x32768xf32>
  return %y : tensor<2x32768xf32>
}

// -----

// Only the ops without a form fail; the others are still rewritten.
func.func @mixed(%x: tensor<8x64xf16>) -> (tensor<8x64xf16>, tensor<3x64xf16>, tensor<5x64xf16>) {
  %e = kernel.unary exp %x : tensor<8x64xf16>
  // expected-error @+1 {{'kernel.split' op has no block-graph form}}
  %a:2 = kernel.split %e, dim = 0, sizes = [3, 5] : tensor<8x64xf16> -> tensor<3x64xf16>, tensor<5x64xf16>
  return %e, %a#0, %a#1 : tensor<8x64xf16>, tensor<3x64xf16>, tensor<5x64xf16>
}
