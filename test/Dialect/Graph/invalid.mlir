// RUN: mirage-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Dtype and shape constraints (ODS)
//===----------------------------------------------------------------------===//

func.func @non_float_operand(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{'graph.exp' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4x8xi32>'}}
  %0 = graph.exp %a : tensor<4x8xi32>
  return
}

// -----

func.func @dynamic_operand(%a: tensor<?x4xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<?x4xf32>'}}
  %0 = graph.exp %a : tensor<?x4xf32>
  return
}

// -----

func.func @f64_operand(%a: tensor<4x8xf64>, %b: tensor<8x2xf64>) {
  // expected-error @+1 {{'graph.matmul' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4x8xf64>'}}
  %0 = graph.matmul %a, %b : (tensor<4x8xf64>, tensor<8x2xf64>) -> tensor<4x2xf64>
  return
}

// -----

func.func @unranked_operand(%a: tensor<*xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor}}
  %0 = "graph.softmax"(%a) {dim = 0 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @non_float_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.reshape' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<32xi32>'}}
  %0 = graph.reshape %a : tensor<4x8xf32> -> tensor<32xi32>
  return
}

// -----

func.func @dynamic_result(%a: tensor<1x8xf32>) {
  // expected-error @+1 {{'graph.broadcast' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<?x8xf32>'}}
  %0 = graph.broadcast %a : tensor<1x8xf32> -> tensor<?x8xf32>
  return
}

// -----

func.func @element_type_mismatch(%a: tensor<4x8xf32>, %b: tensor<4x8xf16>) {
  // expected-error @+1 {{'graph.add' op requires the same element type for all operands and results}}
  %0 = graph.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @unary_type_mismatch(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.exp' op requires the same type for all operands and results}}
  %0 = "graph.exp"(%a) : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.reshape' op requires the same element type for all operands and results}}
  %0 = graph.reshape %a : tensor<4x8xf32> -> tensor<32xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Inferred vs declared result types
//===----------------------------------------------------------------------===//

func.func @matmul_wrong_result(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+2 {{'graph.matmul' op inferred type(s) 'tensor<4x2xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @+1 {{'graph.matmul' op failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @binary_wrong_result(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+2 {{'graph.sub' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<1x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.sub %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @reduce_wrong_result(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.reduce_sum' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce_sum %a, dim = 1 : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @transpose_wrong_result(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.transpose' op inferred type(s) 'tensor<8x4xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %a, perm = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @repeat_wrong_result(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.repeat' op inferred type(s) 'tensor<8x8xf32>' are incompatible with return type(s) of operation 'tensor<4x16xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.repeat %a, repeats = [2, 1] : tensor<4x8xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_wrong_result(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.concat' op inferred type(s) 'tensor<4x16xf32>' are incompatible with return type(s) of operation 'tensor<8x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat (%a, %b) dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @split_wrong_result(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.split' op inferred type(s) 'tensor<4x3xf32>', 'tensor<4x5xf32>' are incompatible with return type(s) of operation 'tensor<4x5xf32>', 'tensor<4x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %a, dim = 1, sizes = [3, 5] : tensor<4x8xf32> -> tensor<4x5xf32>, tensor<4x3xf32>
  return
}

// -----

func.func @split_wrong_result_count(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.split' op inferred type(s) 'tensor<4x3xf32>', 'tensor<4x5xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.split %a, dim = 1, sizes = [3, 5] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @split_result_element_type(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'graph.split' op inferred type(s) 'tensor<4x3xf32>', 'tensor<4x5xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>', 'tensor<4x5xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %a, dim = 1, sizes = [3, 5] : tensor<4x8xf32> -> tensor<4x3xf32>, tensor<4x5xf16>
  return
}

// -----

func.func @conv2d_wrong_result(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{'graph.conv2d' op inferred type(s) 'tensor<1x64x112x112xf16>' are incompatible with return type(s) of operation 'tensor<1x64x224x224xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x224x224xf16>
  return
}

// -----

func.func @pool_wrong_result(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{'graph.avg_pool2d' op inferred type(s) 'tensor<1x64x56x56xf16>' are incompatible with return type(s) of operation 'tensor<1x64x112x112xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.avg_pool2d %x, kernel = [3, 3] {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x64x112x112xf16> -> tensor<1x64x112x112xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

func.func @matmul_rank1(%a: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{matmul operands must have equal rank >= 2, got [8] and [8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @matmul_rank_mismatch(%a: tensor<2x4x8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+2 {{matmul operands must have equal rank >= 2, got [2, 4, 8] and [8, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x2xf32>) -> tensor<2x4x2xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x2xf32>) {
  // expected-error @+2 {{matmul batch dimensions differ: [2, 4, 8] and [3, 8, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x2xf32>) -> tensor<2x4x2xf32>
  return
}

// -----

func.func @matmul_contraction(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+2 {{matmul contraction sizes differ: lhs has 8 columns, rhs has 4 rows}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

func.func @binary_no_broadcast(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error @+2 {{shapes [4, 8] and [3, 8] do not broadcast}}
  // expected-error @+1 {{'graph.mul' op failed to infer returned types}}
  %0 = graph.mul %a, %b : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @binary_no_broadcast_trailing(%a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{shapes [4, 8] and [4] do not broadcast}}
  // expected-error @+1 {{'graph.div' op failed to infer returned types}}
  %0 = graph.div %a, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @clamp_empty(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{clamp bounds are empty: min 6.000000e+00 > max 0.000000e+00}}
  %0 = graph.clamp %a, min = 6.0, max = 0.0 : tensor<4x8xf32>
  return
}

// -----

func.func @clamp_nan(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{clamp bounds are empty}}
  %0 = graph.clamp %a, min = 0x7FF8000000000000, max = 1.0 : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

func.func @reduce_dim_too_large(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{'graph.reduce_sum' op failed to infer returned types}}
  %0 = graph.reduce_sum %a, dim = 2 : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_dim_negative(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension -1 is out of range for rank 2}}
  // expected-error @+1 {{'graph.reduce_max' op failed to infer returned types}}
  %0 = graph.reduce_max %a, dim = -1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @softmax_dim(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{dimension 2 is out of range for rank 2}}
  %0 = graph.softmax %a, dim = 2 : tensor<4x8xf32>
  return
}

// -----

func.func @softmax_dim_negative(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{dimension -1 is out of range for rank 2}}
  %0 = graph.softmax %a, dim = -1 : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

func.func @transpose_perm_length(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{permutation has 3 entries for rank 2}}
  // expected-error @+1 {{'graph.transpose' op failed to infer returned types}}
  %0 = graph.transpose %a, perm = [1, 0, 2] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_perm_duplicate(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{perm [0, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %a, perm = [0, 0] : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @transpose_perm_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{perm [2, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %a, perm = [2, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_perm_negative(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{perm [-1, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %a, perm = [-1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @reshape_numel(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{reshape from [4, 8] to [4, 4] changes the element count (32 vs 16)}}
  %0 = graph.reshape %a : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_size(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{shape [2, 8] does not broadcast to [4, 8]}}
  %0 = graph.broadcast %a : tensor<2x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_rank(%a: tensor<2x4x8xf32>) {
  // expected-error @+1 {{shape [2, 4, 8] does not broadcast to [4, 8]}}
  %0 = graph.broadcast %a : tensor<2x4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_shrink(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{shape [4, 8] does not broadcast to [1, 8]}}
  %0 = graph.broadcast %a : tensor<4x8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @repeat_length(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{repeats has 1 entries for rank 2}}
  // expected-error @+1 {{'graph.repeat' op failed to infer returned types}}
  %0 = graph.repeat %a, repeats = [2] : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @repeat_zero(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{repeat counts must be >= 1, got [2, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.repeat %a, repeats = [2, 0] : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+1 {{'graph.concat' op expected 1 or more operands, but found 0}}
  %0 = "graph.concat"() {dim = 0 : i64} : () -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_dim(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{'graph.concat' op failed to infer returned types}}
  %0 = graph.concat (%a, %b) dim = 2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_mismatch(%a: tensor<4x8xf32>, %b: tensor<4x6xf32>) {
  // expected-error @+2 {{concat inputs [4, 8] and [4, 6] differ outside dimension 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat (%a, %b) dim = 0 : (tensor<4x8xf32>, tensor<4x6xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_rank_mismatch(%a: tensor<4x8xf32>, %b: tensor<4x8x1xf32>) {
  // expected-error @+2 {{concat inputs [4, 8] and [4, 8, 1] differ outside dimension 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat (%a, %b) dim = 1 : (tensor<4x8xf32>, tensor<4x8x1xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @split_dim(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{'graph.split' op failed to infer returned types}}
  %0:2 = graph.split %a, dim = 2, sizes = [3, 5] : tensor<4x8xf32> -> tensor<4x3xf32>, tensor<4x5xf32>
  return
}

// -----

func.func @split_zero_size(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{split sizes must be >= 1, got [8, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %a, dim = 1, sizes = [8, 0] : tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x0xf32>
  return
}

// -----

func.func @split_sum(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{split sizes [3, 4] add up to 7, not to dimension 1 of size 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %a, dim = 1, sizes = [3, 4] : tensor<4x8xf32> -> tensor<4x3xf32>, tensor<4x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

func.func @conv2d_rank(%x: tensor<3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{conv2d expects rank-4 NCHW input and OIHW weight, got [3, 224, 224] and [64, 3, 7, 7]}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<64x218x218xf16>
  return
}

// -----

func.func @conv2d_weight_rank(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7xf16>) {
  // expected-error @+2 {{conv2d expects rank-4 NCHW input and OIHW weight, got [1, 3, 224, 224] and [64, 3, 7]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x224x224xf16>, tensor<64x3x7xf16>) -> tensor<1x64x218x218xf16>
  return
}

// -----

func.func @conv2d_strides_length(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{strides must have 2 entries, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 2>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x109x109xf16>
  return
}

// -----

func.func @conv2d_strides_zero(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{strides entries must be >= 1, got [0, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 0, 2>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x109x109xf16>
  return
}

// -----

func.func @conv2d_padding_length(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{padding must have 2 entries, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x220x220xf16>
  return
}

// -----

func.func @conv2d_padding_negative(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{padding entries must be >= 0, got [-1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {padding = array<i64: -1, 0>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x216x218xf16>
  return
}

// -----

func.func @conv2d_dilations_length(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{dilations must have 2 entries, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {dilations = array<i64>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x218x218xf16>
  return
}

// -----

func.func @conv2d_dilations_zero(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>) {
  // expected-error @+2 {{dilations entries must be >= 1, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 1, 0>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x218x224xf16>
  return
}

// -----

func.func @conv2d_groups_zero(%x: tensor<1x4x32x32xf16>, %w: tensor<8x4x3x3xf16>) {
  // expected-error @+2 {{groups = 0 must divide the input channels (4) and output channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 0 : i64} : (tensor<1x4x32x32xf16>, tensor<8x4x3x3xf16>) -> tensor<1x8x30x30xf16>
  return
}

// -----

func.func @conv2d_groups_input(%x: tensor<1x4x32x32xf16>, %w: tensor<9x4x3x3xf16>) {
  // expected-error @+2 {{groups = 3 must divide the input channels (4) and output channels (9)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 3 : i64} : (tensor<1x4x32x32xf16>, tensor<9x4x3x3xf16>) -> tensor<1x9x30x30xf16>
  return
}

// -----

func.func @conv2d_groups_output(%x: tensor<1x4x32x32xf16>, %w: tensor<6x1x3x3xf16>) {
  // expected-error @+2 {{groups = 4 must divide the input channels (4) and output channels (6)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 4 : i64} : (tensor<1x4x32x32xf16>, tensor<6x1x3x3xf16>) -> tensor<1x6x30x30xf16>
  return
}

// -----

func.func @conv2d_channels(%x: tensor<1x4x32x32xf16>, %w: tensor<8x4x3x3xf16>) {
  // expected-error @+2 {{weight has 4 input channels per group, expected 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x32x32xf16>, tensor<8x4x3x3xf16>) -> tensor<1x8x30x30xf16>
  return
}

// -----

func.func @conv2d_channels_ungrouped(%x: tensor<1x3x32x32xf16>, %w: tensor<8x4x3x3xf16>) {
  // expected-error @+2 {{weight has 4 input channels per group, expected 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x32x32xf16>, tensor<8x4x3x3xf16>) -> tensor<1x8x30x30xf16>
  return
}

// -----

func.func @conv2d_window(%x: tensor<1x3x4x32xf16>, %w: tensor<8x3x7x3xf16>) {
  // expected-error @+2 {{window of extent 7 does not fit an input of size 4 with padding 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x4x32xf16>, tensor<8x3x7x3xf16>) -> tensor<1x8x1x32xf16>
  return
}

// -----

func.func @conv2d_dilated_window(%x: tensor<1x3x32x8xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+2 {{window of extent 9 does not fit an input of size 8 with padding 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 1, 4>} : (tensor<1x3x32x8xf16>, tensor<8x3x3x3xf16>) -> tensor<1x8x30x1xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

func.func @pool_rank(%x: tensor<64x112x112xf16>) {
  // expected-error @+2 {{pooling expects a rank-4 NCHW input, got [64, 112, 112]}}
  // expected-error @+1 {{'graph.max_pool2d' op failed to infer returned types}}
  %0 = graph.max_pool2d %x, kernel = [3, 3] : tensor<64x112x112xf16> -> tensor<64x110x110xf16>
  return
}

// -----

func.func @pool_kernel_length(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{kernel must have 2 entries, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x, kernel = [3, 3, 3] : tensor<1x64x112x112xf16> -> tensor<1x64x110x110xf16>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{kernel entries must be >= 1, got [0, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x, kernel = [0, 3] : tensor<1x64x112x112xf16> -> tensor<1x64x113x110xf16>
  return
}

// -----

func.func @pool_strides_length(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{strides must have 2 entries, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.avg_pool2d %x, kernel = [2, 2] {strides = array<i64: 2>} : tensor<1x64x112x112xf16> -> tensor<1x64x56x56xf16>
  return
}

// -----

func.func @pool_strides_zero(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{strides entries must be >= 1, got [2, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.avg_pool2d %x, kernel = [2, 2] {strides = array<i64: 2, 0>} : tensor<1x64x112x112xf16> -> tensor<1x64x56x56xf16>
  return
}

// -----

func.func @pool_padding_length(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{padding must have 2 entries, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x, kernel = [3, 3] {padding = array<i64: 1>} : tensor<1x64x112x112xf16> -> tensor<1x64x112x112xf16>
  return
}

// -----

func.func @pool_padding_negative(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{padding entries must be >= 0, got [0, -1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x, kernel = [3, 3] {padding = array<i64: 0, -1>} : tensor<1x64x112x112xf16> -> tensor<1x64x110x108xf16>
  return
}

// -----

func.func @pool_padding_too_large(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+2 {{padding [1, 3] must be smaller than the window [3, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.max_pool2d %x, kernel = [3, 3] {padding = array<i64: 1, 3>} : tensor<1x64x112x112xf16> -> tensor<1x64x112x116xf16>
  return
}

// -----

func.func @pool_window(%x: tensor<1x64x2x112xf16>) {
  // expected-error @+2 {{window of extent 5 does not fit an input of size 2 with padding 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.avg_pool2d %x, kernel = [5, 3] {padding = array<i64: 1, 1>} : tensor<1x64x2x112xf16> -> tensor<1x64x1x112xf16>
  return
}

// -----

func.func @pool_element_type(%x: tensor<1x64x112x112xf16>) {
  // expected-error @+1 {{'graph.max_pool2d' op requires the same element type for all operands and results}}
  %0 = graph.max_pool2d %x, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x64x112x112xf16> -> tensor<1x64x56x56xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Shape arithmetic that would overflow 64 bits, and degenerate windows
//===----------------------------------------------------------------------===//

func.func @repeat_overflow(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{shape arithmetic overflows 64 bits}}
  // expected-error @+1 {{'graph.repeat' op failed to infer returned types}}
  %0 = graph.repeat %a, repeats = [4611686018427387904, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
  return
}

// -----

func.func @reshape_overflow(%a: tensor<4611686018427387904x4xf32>) {
  // expected-error @+1 {{shape arithmetic overflows 64 bits}}
  %0 = graph.reshape %a : tensor<4611686018427387904x4xf32> -> tensor<0xf32>
  return
}

// -----

func.func @split_overflow(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{shape arithmetic overflows 64 bits}}
  // expected-error @+1 {{'graph.split' op failed to infer returned types}}
  %0:2 = graph.split %a, dim = 1, sizes = [9223372036854775807, 9] : tensor<4x8xf32> -> tensor<4x9223372036854775807xf32>, tensor<4x9xf32>
  return
}

// -----

func.func @conv_empty_kernel(%x: tensor<1x3x8x8xf16>, %w: tensor<4x3x0x0xf16>) {
  // expected-error @+2 {{conv2d kernel must be at least 1x1, got 0x0}}
  // expected-error @+1 {{'graph.conv2d' op failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf16>, tensor<4x3x0x0xf16>) -> tensor<1x4x9x9xf16>
  return
}
