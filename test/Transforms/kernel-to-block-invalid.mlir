// Kernels that the block dialect cannot express get an error, and the pass
// fails.
// RUN: mirage-opt %s --kernel-to-block -split-input-file -verify-diagnostics

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
// would need 640 KiB (each tile 16-byte aligned, as the code generator
// places them).
func.func @long_row(%x: tensor<2x32768xf32>) -> tensor<2x32768xf32> {
  // expected-error @+1 {{'kernel.softmax' op has no block-graph form within shared memory: its default block graph needs 655392 bytes per block, more than 98304}}
  %y = kernel.softmax %x, dim = 1 : tensor<2x32768xf32>
  return %y : tensor<2x32768xf32>
}

// -----

// Only the ops without a form fail; the others are still rewritten.
func.func @mixed(%x: tensor<1x4x8x8xf16>) -> (tensor<1x4x8x8xf16>, tensor<1x4x4x4xf16>) {
  %e = kernel.unary exp %x : tensor<1x4x8x8xf16>
  // expected-error @+1 {{'kernel.pool2d' op has no block-graph form}}
  %p = kernel.pool2d max %e, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x4x8x8xf16> -> tensor<1x4x4x4xf16>
  return %e, %p : tensor<1x4x8x8xf16>, tensor<1x4x4x4xf16>
}

// -----

// Empty tensors have no tiles (a tile has at least one element per
// dimension), whichever of them is empty: K = 0, a batch of 0, a reduced
// extent of 0, an empty result. Before, K = 0 and the reduction divided by
// zero, and the others printed tiles with a 0 dimension.
func.func @matmul_k0(%a: tensor<16x0xf16>, %b: tensor<0x32xf16>) -> tensor<16x32xf16> {
  // expected-error @+1 {{'kernel.matmul' op has no block-graph form: operand #0 'tensor<16x0xf16>' is empty, and a tile has at least one element per dimension; an empty tensor needs no kernel}}
  %y = kernel.matmul %a, %b : (tensor<16x0xf16>, tensor<0x32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// -----

func.func @matmul_batch0(%a: tensor<0x4x8xf16>, %b: tensor<0x8x4xf16>) -> tensor<0x4x4xf16> {
  // expected-error @+1 {{'kernel.matmul' op has no block-graph form: operand #0 'tensor<0x4x8xf16>' is empty}}
  %y = kernel.matmul %a, %b : (tensor<0x4x8xf16>, tensor<0x8x4xf16>) -> tensor<0x4x4xf16>
  return %y : tensor<0x4x4xf16>
}

// -----

func.func @reduce_extent0(%x: tensor<4x0xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'kernel.reduce' op has no block-graph form: operand #0 'tensor<4x0xf32>' is empty}}
  %y = kernel.reduce sum %x, dim = 1 : tensor<4x0xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

func.func @reduce_max_extent0(%x: tensor<0x8xf16>) -> tensor<1x8xf16> {
  // expected-error @+1 {{'kernel.reduce' op has no block-graph form: operand #0 'tensor<0x8xf16>' is empty}}
  %y = kernel.reduce max %x, dim = 0 : tensor<0x8xf16> -> tensor<1x8xf16>
  return %y : tensor<1x8xf16>
}

// -----

func.func @unary_empty(%x: tensor<8x0xbf16>) -> tensor<8x0xbf16> {
  // expected-error @+1 {{'kernel.unary' op has no block-graph form: operand #0 'tensor<8x0xbf16>' is empty}}
  %y = kernel.unary exp %x : tensor<8x0xbf16>
  return %y : tensor<8x0xbf16>
}

// -----

// Rank-0 tensors: tiles have rank >= 1 (before, a rank-0 tile was built
// that the tile parser rejects, and block-to-gpu crashed on it).
func.func @rank0(%x: tensor<f16>, %y: tensor<f16>) -> tensor<f16> {
  // expected-error @+1 {{'kernel.binary' op has no block-graph form: operand #0 is a rank-0 tensor 'tensor<f16>', and tiles have rank >= 1; reshape it to rank 1 first}}
  %z = kernel.binary add %x, %y : (tensor<f16>, tensor<f16>) -> tensor<f16>
  return %z : tensor<f16>
}

// -----

func.func @rank0_softmax(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'kernel.unary' op has no block-graph form: operand #0 is a rank-0 tensor}}
  %z = kernel.unary relu %x : tensor<f32>
  return %z : tensor<f32>
}

// -----

// Sizes are checked before any tile product is formed: a 2^32 x 2^32
// matmul has more elements than 64 bits count (before, the products
// wrapped around and the divisor scan started below zero).
func.func @huge(%a: tensor<4294967296x4294967296xf16>, %b: tensor<4294967296x4294967296xf16>) -> tensor<4294967296x4294967296xf16> {
  // expected-error @+1 {{kernel.matmul operand #0 [4294967296, 4294967296] has too many elements to count in 64 bits}}
  %y = kernel.matmul %a, %b : (tensor<4294967296x4294967296xf16>, tensor<4294967296x4294967296xf16>) -> tensor<4294967296x4294967296xf16>
  return %y : tensor<4294967296x4294967296xf16>
}

// -----

// 2^40 elements fit in 64 bits but in no GPU's memory.
func.func @too_many(%x: tensor<1048576x1048576xf16>) -> tensor<1048576x1048576xf16> {
  // expected-error @+1 {{kernel.unary operand #0 [1048576, 1048576] has 1099511627776 elements, more than the limit of 274877906944 (2^38) of a GPU kernel's tensor, more than any GPU's memory holds}}
  %y = kernel.unary exp %x : tensor<1048576x1048576xf16>
  return %y : tensor<1048576x1048576xf16>
}

// -----

// A prime extent cannot be split into larger tiles, so each block takes one
// element: 137438953447 (a prime near 2^37) blocks are more than grid x
// allows. The divisor scan takes about sqrt(n) steps, not n (before, it
// walked toward the prime one step at a time).
func.func @prime_extent(%x: tensor<137438953447xf16>) -> tensor<137438953447xf16> {
  // expected-error @+1 {{'kernel.unary' op has no block-graph form: its default grid [137438953447] has more than 2147483647 blocks along x}}
  %y = kernel.unary exp %x : tensor<137438953447xf16>
  return %y : tensor<137438953447xf16>
}

// -----

// Scatters write where an index tensor says: no GPU lowering (gather,
// gather_elements, one_hot and topk are left for kernel-to-gpu:
// kernel-to-gpu-indexing.mlir).
func.func @scatter(%d: tensor<8x4xf32>, %i: tensor<3x4xi64>, %u: tensor<3x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'kernel.scatter_elements' op has no GPU lowering: its writes go where an index tensor says}}
  %s = kernel.scatter_elements %d, %i, %u, axis = 0, reduction = add : (tensor<8x4xf32>, tensor<3x4xi64>, tensor<3x4xf32>) -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}
