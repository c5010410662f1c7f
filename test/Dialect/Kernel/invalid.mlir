// RUN: mirage-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Predefined kernels: dtype and shape constraints (ODS)
//===----------------------------------------------------------------------===//

func.func @non_float_operand(%a: tensor<4xi32>) {
  // expected-error @+1 {{'kernel.unary' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4xi32>'}}
  %0 = kernel.unary exp %a : tensor<4xi32>
  return
}

// -----

func.func @dynamic_operand(%a: tensor<?x4xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'kernel.matmul' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<?x4xf32>'}}
  %0 = kernel.matmul %a, %b : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @dynamic_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kernel.reshape' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<?xf32>'}}
  %0 = kernel.reshape %a : tensor<4x8xf32> -> tensor<?xf32>
  return
}

// -----

func.func @element_type_mismatch(%a: tensor<4x8xf32>, %b: tensor<4x8xbf16>) {
  // expected-error @+1 {{'kernel.binary' op requires the same element type for all operands and results}}
  %0 = kernel.binary add %a, %b : (tensor<4x8xf32>, tensor<4x8xbf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @unary_type_mismatch(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kernel.unary' op result element type 'f16' must be the input's ('f32'); only kind 'cast' converts}}
  %0 = "kernel.unary"(%a) {kind = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf16>
  return
}

// -----

func.func @unknown_kind(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [exp, sqrt, square, silu, gelu, relu, clamp, scale, pow, offset, tanh, sigmoid, erf, cast]}}
  %0 = kernel.unary cosh %a : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Unary parameters per kind
//===----------------------------------------------------------------------===//

func.func @clamp_no_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'clamp' takes 2 parameter(s), got 0}}
  %0 = kernel.unary clamp %a : tensor<4x8xf32>
  return
}

// -----

func.func @clamp_one_param(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'clamp' takes 2 parameter(s), got 1}}
  %0 = kernel.unary clamp %a params = [0.0] : tensor<4x8xf32>
  return
}

// -----

func.func @clamp_three_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'clamp' takes 2 parameter(s), got 3}}
  %0 = kernel.unary clamp %a params = [0.0, 1.0, 2.0] : tensor<4x8xf32>
  return
}

// -----

func.func @clamp_empty(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{clamp bounds are empty: min 6.000000e+00 > max 0.000000e+00}}
  %0 = kernel.unary clamp %a params = [6.0, 0.0] : tensor<4x8xf32>
  return
}

// -----

func.func @scale_no_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'scale' takes 1 parameter(s), got 0}}
  %0 = kernel.unary scale %a : tensor<4x8xf32>
  return
}

// -----

func.func @offset_no_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'offset' takes 1 parameter(s), got 0}}
  %0 = kernel.unary offset %a : tensor<4x8xf32>
  return
}

// -----

func.func @tanh_with_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'tanh' takes 0 parameter(s), got 1}}
  %0 = kernel.unary tanh %a params = [1.0] : tensor<4x8xf32>
  return
}

// -----

func.func @scale_two_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'scale' takes 1 parameter(s), got 2}}
  %0 = kernel.unary scale %a params = [0.5, 0.5] : tensor<4x8xf32>
  return
}

// -----

func.func @pow_no_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'pow' takes 1 parameter(s), got 0}}
  %0 = kernel.unary pow %a : tensor<4x8xf32>
  return
}

// -----

func.func @pow_empty_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'pow' takes 1 parameter(s), got 0}}
  %0 = kernel.unary pow %a params = [] : tensor<4x8xf32>
  return
}

// -----

func.func @exp_with_param(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'exp' takes 0 parameter(s), got 1}}
  %0 = kernel.unary exp %a params = [1.0] : tensor<4x8xf32>
  return
}

// -----

func.func @sqrt_with_param(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'sqrt' takes 0 parameter(s), got 1}}
  %0 = kernel.unary sqrt %a params = [2.0] : tensor<4x8xf32>
  return
}

// -----

func.func @square_with_param(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'square' takes 0 parameter(s), got 1}}
  %0 = kernel.unary square %a params = [2.0] : tensor<4x8xf32>
  return
}

// -----

func.func @silu_with_param(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'silu' takes 0 parameter(s), got 1}}
  %0 = kernel.unary silu %a params = [1.0] : tensor<4x8xf32>
  return
}

// -----

func.func @gelu_with_param(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'gelu' takes 0 parameter(s), got 2}}
  %0 = kernel.unary gelu %a params = [1.0, 2.0] : tensor<4x8xf32>
  return
}

// -----

func.func @relu_with_param(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'relu' takes 0 parameter(s), got 1}}
  %0 = kernel.unary relu %a params = [0.0] : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Predefined kernels: shape rules
//===----------------------------------------------------------------------===//

func.func @matmul_wrong_result(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+2 {{'kernel.matmul' op inferred type(s) 'tensor<4x2xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{'kernel.matmul' op failed to infer returned types}}
  %0 = kernel.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+2 {{matmul operands must have equal rank >= 2, got [8] and [8, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.matmul %a, %b : (tensor<8xf32>, tensor<8x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<4x8x2xf32>) {
  // expected-error @+2 {{matmul batch dimensions differ: [2, 4, 8] and [4, 8, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.matmul %a, %b : (tensor<2x4x8xf32>, tensor<4x8x2xf32>) -> tensor<2x4x2xf32>
  return
}

// -----

func.func @matmul_contraction(%a: tensor<4x8xf32>, %b: tensor<6x2xf32>) {
  // expected-error @+2 {{matmul contraction sizes differ: lhs has 8 columns, rhs has 6 rows}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.matmul %a, %b : (tensor<4x8xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @binary_no_broadcast(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+2 {{shapes [4, 8] and [4, 2] do not broadcast}}
  // expected-error @+1 {{'kernel.binary' op failed to infer returned types}}
  %0 = kernel.binary mul %a, %b : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @binary_wrong_result(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+2 {{'kernel.binary' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<1x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.binary add %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @reduce_dim(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{'kernel.reduce' op failed to infer returned types}}
  %0 = kernel.reduce max %a, dim = 2 : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_wrong_result(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'kernel.reduce' op inferred type(s) 'tensor<1x8xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.reduce sum %a, dim = 0 : tensor<4x8xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @softmax_dim(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{dimension 3 is out of range for rank 2}}
  %0 = kernel.softmax %a, dim = 3 : tensor<4x8xf32>
  return
}

// -----

func.func @transpose_perm_length(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{permutation has 1 entries for rank 2}}
  // expected-error @+1 {{'kernel.transpose' op failed to infer returned types}}
  %0 = kernel.transpose %a, perm = [0] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @transpose_not_perm(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{perm [1, 1] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.transpose %a, perm = [1, 1] : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @reshape_numel(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{reshape from [4, 8] to [2, 8] changes the element count (32 vs 16)}}
  %0 = kernel.reshape %a : tensor<4x8xf32> -> tensor<2x8xf32>
  return
}

// -----

func.func @broadcast(%a: tensor<3x8xf32>) {
  // expected-error @+1 {{shape [3, 8] does not broadcast to [2, 3, 4]}}
  %0 = kernel.broadcast %a : tensor<3x8xf32> -> tensor<2x3x4xf32>
  return
}

// -----

func.func @repeat_length(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{repeats has 3 entries for rank 2}}
  // expected-error @+1 {{'kernel.repeat' op failed to infer returned types}}
  %0 = kernel.repeat %a, repeats = [1, 1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @repeat_negative(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{repeat counts must be >= 1, got [-1, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.repeat %a, repeats = [-1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+1 {{'kernel.concat' op expected 1 or more operands, but found 0}}
  %0 = kernel.concat () dim = 0 : () -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_dim(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension -1 is out of range for rank 2}}
  // expected-error @+1 {{'kernel.concat' op failed to infer returned types}}
  %0 = kernel.concat (%a, %a) dim = -1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_mismatch(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) {
  // expected-error @+2 {{concat inputs [4, 8] and [2, 8] differ outside dimension 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.concat (%a, %b) dim = 1 : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @split_dim(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension 5 is out of range for rank 2}}
  // expected-error @+1 {{'kernel.split' op failed to infer returned types}}
  %0:2 = kernel.split %a, dim = 5, sizes = [2, 2] : tensor<4x8xf32> -> tensor<2x8xf32>, tensor<2x8xf32>
  return
}

// -----

func.func @split_size(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{split sizes must be >= 1, got [-4, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = kernel.split %a, dim = 0, sizes = [-4, 8] : tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  return
}

// -----

func.func @split_sum(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{split sizes [2, 1] add up to 3, not to dimension 0 of size 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = kernel.split %a, dim = 0, sizes = [2, 1] : tensor<4x8xf32> -> tensor<2x8xf32>, tensor<1x8xf32>
  return
}

// -----

func.func @conv2d_rank(%x: tensor<1x3x32x32xf16>, %w: tensor<8x3x3xf16>) {
  // expected-error @+2 {{conv2d expects rank-4 NCHW input and OIHW weight, got [1, 3, 32, 32] and [8, 3, 3]}}
  // expected-error @+1 {{'kernel.conv2d' op failed to infer returned types}}
  %0 = kernel.conv2d %x, %w : (tensor<1x3x32x32xf16>, tensor<8x3x3xf16>) -> tensor<1x8x30x30xf16>
  return
}

// -----

func.func @conv2d_strides(%x: tensor<1x3x32x32xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+2 {{strides must have 2 entries, got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.conv2d %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x3x32x32xf16>, tensor<8x3x3x3xf16>) -> tensor<1x8x30x30xf16>
  return
}

// -----

func.func @conv2d_padding(%x: tensor<1x3x32x32xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+2 {{padding entries must be >= 0, got [-2, -2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.conv2d %x, %w {padding = array<i64: -2, -2>} : (tensor<1x3x32x32xf16>, tensor<8x3x3x3xf16>) -> tensor<1x8x26x26xf16>
  return
}

// -----

func.func @conv2d_dilations(%x: tensor<1x3x32x32xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+2 {{dilations entries must be >= 1, got [0, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.conv2d %x, %w {dilations = array<i64: 0, 0>} : (tensor<1x3x32x32xf16>, tensor<8x3x3x3xf16>) -> tensor<1x8x32x32xf16>
  return
}

// -----

func.func @conv2d_groups(%x: tensor<1x6x32x32xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+2 {{groups = 4 must divide the input channels (6) and output channels (8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.conv2d %x, %w {groups = 4 : i64} : (tensor<1x6x32x32xf16>, tensor<8x3x3x3xf16>) -> tensor<1x8x30x30xf16>
  return
}

// -----

func.func @conv2d_channels(%x: tensor<1x6x32x32xf16>, %w: tensor<8x6x3x3xf16>) {
  // expected-error @+2 {{weight has 6 input channels per group, expected 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.conv2d %x, %w {groups = 2 : i64} : (tensor<1x6x32x32xf16>, tensor<8x6x3x3xf16>) -> tensor<1x8x30x30xf16>
  return
}

// -----

func.func @conv2d_window(%x: tensor<1x3x32x2xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+2 {{window of extent 3 does not fit an input of size 2 with padding 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.conv2d %x, %w : (tensor<1x3x32x2xf16>, tensor<8x3x3x3xf16>) -> tensor<1x8x30x1xf16>
  return
}

// -----

func.func @conv2d_wrong_result(%x: tensor<1x3x32x32xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+2 {{'kernel.conv2d' op inferred type(s) 'tensor<1x8x30x30xf16>' are incompatible with return type(s) of operation 'tensor<1x8x32x32xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.conv2d %x, %w : (tensor<1x3x32x32xf16>, tensor<8x3x3x3xf16>) -> tensor<1x8x32x32xf16>
  return
}

// -----

func.func @pool_rank(%x: tensor<8x32x32xf16>) {
  // expected-error @+2 {{pooling expects a rank-4 NCHW input, got [8, 32, 32]}}
  // expected-error @+1 {{'kernel.pool2d' op failed to infer returned types}}
  %0 = kernel.pool2d avg %x, kernel = [2, 2] : tensor<8x32x32xf16> -> tensor<8x16x16xf16>
  return
}

// -----

func.func @pool_kernel(%x: tensor<1x8x32x32xf16>) {
  // expected-error @+2 {{kernel must have 2 entries, got 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.pool2d max %x, kernel = [2] : tensor<1x8x32x32xf16> -> tensor<1x8x31x31xf16>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x8x32x32xf16>) {
  // expected-error @+2 {{kernel entries must be >= 1, got [2, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.pool2d max %x, kernel = [2, 0] : tensor<1x8x32x32xf16> -> tensor<1x8x31x33xf16>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x8x32x32xf16>) {
  // expected-error @+2 {{padding [2, 0] must be smaller than the window [2, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.pool2d max %x, kernel = [2, 2] {padding = array<i64: 2, 0>} : tensor<1x8x32x32xf16> -> tensor<1x8x35x31xf16>
  return
}

// -----

func.func @pool_window(%x: tensor<1x8x32x1xf16>) {
  // expected-error @+2 {{window of extent 2 does not fit an input of size 1 with padding 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.pool2d avg %x, kernel = [2, 2] : tensor<1x8x32x1xf16> -> tensor<1x8x31x1xf16>
  return
}

// -----

func.func @pool_wrong_result(%x: tensor<1x8x32x32xf16>) {
  // expected-error @+2 {{'kernel.pool2d' op inferred type(s) 'tensor<1x8x16x16xf16>' are incompatible with return type(s) of operation 'tensor<1x8x32x32xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = kernel.pool2d avg %x, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x8x32x32xf16> -> tensor<1x8x32x32xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// kernel.graph_def: grid and for-loop
//===----------------------------------------------------------------------===//

func.func @grid_rank0(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op grid must have 1 to 3 dimensions, got 0}}
  %Y = kernel.graph_def (%X) grid = [] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @grid_rank4(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op grid must have 1 to 3 dimensions, got 4}}
  %Y = kernel.graph_def (%X) grid = [1, 1, 1, 1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @grid_dim_zero(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op grid dimensions must be >= 1, got 0}}
  %Y = kernel.graph_def (%X) grid = [2, 0] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<8x64xf16>
    %a = block.accum sum %t : !block.tile<8x64xf16> -> !block.tile<8x64xf16>
    %o = block.output %a omap = <x: 0, y: 1> : !block.tile<8x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @grid_dim_negative(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op grid dimensions must be >= 1, got -4}}
  %Y = kernel.graph_def (%X) grid = [-4] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @forloop_zero(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op for-loop range must be >= 1, got 0}}
  %Y = kernel.graph_def (%X) grid = [1] forloop = 0
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @non_float_kernel_operand(%X: tensor<16x64xi32>) {
  // expected-error @+1 {{'kernel.graph_def' op operand #0 must be variadic of statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<16x64xi32>'}}
  kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<16x64xi32>) -> () {
  ^bb0(%x: tensor<16x64xi32>):
    block.yield
  }
  return
}

// -----

func.func @empty_body() {
  // expected-error @+1 {{'kernel.graph_def' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "kernel.graph_def"() ({}) {grid = array<i64: 1>, forloop = 1 : i64} : () -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// kernel.graph_def: region arguments vs operands
//===----------------------------------------------------------------------===//

func.func @region_arg_count(%X: tensor<16x64xf16>, %W: tensor<64x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op block graph takes 1 device tensors but the kernel has 2 operands}}
  %Y = kernel.graph_def (%X, %W) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<64x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @region_arg_count_extra(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op block graph takes 2 device tensors but the kernel has 1 operands}}
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %w: tensor<64x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @region_arg_type(%X: tensor<16x64xf16>, %W: tensor<64x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op block graph argument #1 has type 'tensor<64x32xf16>' but the kernel operand has type 'tensor<64x64xf16>'}}
  %Y = kernel.graph_def (%X, %W) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<64x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @region_arg_element_type(%X: tensor<16x64xf16>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'kernel.graph_def' op block graph argument #0 has type 'tensor<16x64xf32>' but the kernel operand has type 'tensor<16x64xf16>'}}
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf32> {
  ^bb0(%x: tensor<16x64xf32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    %a = block.accum sum %t : !block.tile<16x64xf32> -> !block.tile<16x64xf32>
    %c = block.output %a omap = <x: 0> : !block.tile<16x64xf32> -> tensor<16x64xf32>
    block.yield %c : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// kernel.graph_def: the terminator
//===----------------------------------------------------------------------===//

func.func @yield_too_few(%X: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  %Y:2 = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{'block.yield' op yields 1 tensors but the kernel has 2 results}}
    block.yield %o : tensor<16x64xf16>
  }
  return %Y#0, %Y#1 : tensor<16x64xf16>, tensor<16x64xf16>
}

// -----

func.func @yield_too_many(%X: tensor<16x64xf16>) {
  kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<16x64xf16>) -> () {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{'block.yield' op yields 1 tensors but the kernel has 0 results}}
    block.yield %o : tensor<16x64xf16>
  }
  return
}

// -----

func.func @yield_type(%X: tensor<16x64xf16>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf32> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{'block.yield' op operand #0 has type 'tensor<16x64xf16>' but kernel result #0 has type 'tensor<16x64xf32>'}}
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @yield_shape(%X: tensor<16x64xf16>) -> tensor<64x16xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<64x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{'block.yield' op operand #0 has type 'tensor<16x64xf16>' but kernel result #0 has type 'tensor<64x16xf16>'}}
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<64x16xf16>
}

// -----

func.func @yield_kernel_argument(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.yield' op operand #0 is not produced by an output saver (block.output)}}
    block.yield %x : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @yield_second_not_saver(%X: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  %Y:2 = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{'block.yield' op operand #1 is not produced by an output saver (block.output)}}
    block.yield %o, %x : tensor<16x64xf16>, tensor<16x64xf16>
  }
  return %Y#0, %Y#1 : tensor<16x64xf16>, tensor<16x64xf16>
}

// -----

func.func @yield_saver_twice(%X: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  %Y:2 = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'block.output' op result must be yielded exactly once}}
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o, %o : tensor<16x64xf16>, tensor<16x64xf16>
  }
  return %Y#0, %Y#1 : tensor<16x64xf16>, tensor<16x64xf16>
}

// -----

func.func @saver_not_yielded(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{'block.output' op result is never yielded: every saver must produce one kernel result}}
    %unused = block.output %a omap = <x: 1> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// kernel.graph_def: ops allowed in the body
//===----------------------------------------------------------------------===//

func.func @graph_op_in_body(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'graph.exp' op is not allowed in a block graph, which holds only block and thread ops}}
    %e = graph.exp %x : tensor<16x64xf16>
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @kernel_op_in_body(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{'kernel.unary' op is not allowed in a block graph}}
    %e = kernel.unary relu %o : tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @arith_op_in_body(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'arith.constant' op is not allowed in a block graph, which holds only block and thread ops}}
    %c = arith.constant 1.0 : f16
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @foreign_terminator(%X: tensor<16x64xf16>) {
  kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<16x64xf16>) -> () {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return
  }
  return
}

// -----

func.func @no_terminator(%X: tensor<16x64xf16>) {
  kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<16x64xf16>) -> () {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{block with no terminator}}
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
  }
  return
}

// -----

// The range is an I64Attr: a negative value must not read as a huge unsigned.
func.func @negative_forloop(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op for-loop range must be >= 1, got -2}}
  %Y = kernel.graph_def (%X) grid = [4] forloop = -2 : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 5> fmap = <i: 7> : tensor<16x64xf16> -> !block.tile<3x3xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<3x3xf16> -> !block.tile<1x1xf16>
    %o = block.output %a omap = <x: replicate> : !block.tile<1x1xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}
