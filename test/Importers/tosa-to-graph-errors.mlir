// RUN: mirage-opt %s --tosa-to-graph -split-input-file -verify-diagnostics
// RUN: not mirage-opt %s --tosa-to-graph -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATUS

// Each TOSA op without an exact graph form is reported at its location,
// with the op and the reason, and the pass fails (non-zero exit status).
// STATUS: error: tosa.conv2d: asymmetric padding [1, 2, 1, 1] has no graph.conv2d form

func.func @asymmetric_conv(%x: tensor<1x8x8x4xf32>, %w: tensor<6x3x3x4xf32>, %b: tensor<6xf32>) -> tensor<1x9x8x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.conv2d: asymmetric padding [1, 2, 1, 1] has no graph.conv2d form}}
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 2, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x8x6xf32>
  return %c : tensor<1x9x8x6xf32>
}

// -----

func.func @avg_pool_excludes_padding(%x: tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.avg_pool2d: padding [1, 1, 1, 1] is left out of the average by TOSA, but graph.avg_pool2d counts padded zeros}}
  %y = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x6x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x3xf32>
  return %y : tensor<1x6x6x3xf32>
}

// -----

func.func @quantized_matmul(%a: tensor<1x2x4xi8>, %b: tensor<1x4x3xi8>) -> tensor<1x2x3xi32> {
  %azp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %bzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{tosa.matmul: the A zero point is the constant 3, not 0; a quantized matmul has no graph form}}
  %0 = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x2x4xi8>, tensor<1x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x3xi32>
  return %0 : tensor<1x2x3xi32>
}

// -----

func.func @int8_matmul(%a: tensor<1x2x4xi8>, %b: tensor<1x4x3xi8>) -> tensor<1x2x3xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{tosa.matmul: operand A has element type i8; graph tensors are f16, bf16 or f32}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x4xi8>, tensor<1x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x3xi32>
  return %0 : tensor<1x2x3xi32>
}

// -----

func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{tosa.exp: the input has the dynamic shape tensor<?x8xf32>; graph tensors have static shapes}}
  %0 = tosa.exp %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @lone_slice(%x: tensor<2x12xf32>) -> tensor<2x4xf32> {
  %s = tosa.const_shape {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{tosa.slice: this slice [4, 8) along dim 1 is not one piece of a split: the slices of this tensor along that dim are [4, 8), which do not cut [0, 12) into pieces}}
  %0 = tosa.slice %x, %s, %z : (tensor<2x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @integer_cast(%x: tensor<8xf32>) -> tensor<8xi32> {
  // expected-error @+1 {{tosa.cast: a cast to i32 has no graph form (graph.cast converts among f32, f16 and bf16)}}
  %0 = tosa.cast %x : (tensor<8xf32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

// A comparison whose i1 result is read as a value, not as a mask.
func.func @comparison_returned(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xi1> {
  // expected-error @+1 {{tosa.greater: a comparison converts where every reader takes its i1 result as a mask (tosa.select, a tosa.cast to a float type, a tosa.logical_not read by selects); graph tensors are float}}
  %0 = tosa.greater %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

func.func @maximum(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{tosa.maximum: maximum of two tensors has no graph form (only against a splat constant: relu or clamp)}}
  %0 = tosa.maximum %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @pad_alone(%x: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %p = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.pad: graph has no pad op; a pad converts only when the conv2d, depthwise_conv2d or pooling op that takes it as its input folds it into its padding, and func.return does not}}
  %0 = tosa.pad %x, %p, %c : (tensor<4x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<6x6xf32>
  return %0 : tensor<6x6xf32>
}

// -----

func.func @pad_nonzero(%x: tensor<1x6x6x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %c = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.pad: graph has no pad op, and this one cannot fold into the padding of tosa.conv2d: the padding value is 1, not 0}}
  %0 = tosa.pad %x, %p, %c : (tensor<1x6x6x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x8x8x3xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = tosa.conv2d %0, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  return %1 : tensor<1x6x6x4xf32>
}

// -----

func.func @pad_then_asymmetric(%x: tensor<1x6x6x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x7x6x4xf32> {
  %p = tosa.const_shape {values = dense<[0, 0, 1, 0, 0, 0, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %c = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.pad %x, %p, %c : (tensor<1x6x6x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x7x6x3xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.conv2d: asymmetric padding [2, 1, 1, 1] has no graph.conv2d form}}
  %1 = tosa.conv2d %0, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x6x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x6x4xf32>
  return %1 : tensor<1x7x6x4xf32>
}

// -----

// Every op without a graph form is reported, not only the first.
func.func @several(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{tosa.pow: only a splat constant exponent has a graph form (graph.pow)}}
  %0 = tosa.pow %x, %e : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-error @+1 {{tosa.log: no graph op computes this (docs/Importers.md lists the TOSA ops that convert)}}
  %1 = tosa.log %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-error @+1 {{tosa.reduce_min: no graph op computes this (graph reduces with sum and max only)}}
  %2 = tosa.reduce_min %1 {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %2 : tensor<4x1xf32>
}

// -----

func.func @intdiv(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  // expected-error @+1 {{tosa.intdiv: integer division has no graph form (graph tensors are f16, bf16 or f32)}}
  %0 = tosa.intdiv %x, %y : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

func.func @maxpool_asymmetric(%x: tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32> {
  // expected-error @+1 {{tosa.max_pool2d: asymmetric padding [0, 1, 0, 1] has no graph.max_pool2d form}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

func.func @two_dims(%x: tensor<4x12xf32>) -> tensor<2x4xf32> {
  %s = tosa.const_shape {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{tosa.slice: slice [0, 4] + [2, 4] cuts more than one dimension; graph.split cuts one}}
  %0 = tosa.slice %x, %s, %z : (tensor<4x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @overlapping(%x: tensor<8xf32>) -> (tensor<4xf32>, tensor<6xf32>) {
  %s0 = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %z0 = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %z1 = tosa.const_shape {values = dense<6> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @+1 {{tosa.slice: slices [0, 4) and [0, 6) along dim 0 overlap; graph.split cuts disjoint pieces}}
  %0 = tosa.slice %x, %s0, %z0 : (tensor<8xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<4xf32>
  // expected-error @+1 {{tosa.slice: slices [0, 4) and [0, 6) along dim 0 overlap; graph.split cuts disjoint pieces}}
  %1 = tosa.slice %x, %s0, %z1 : (tensor<8xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<6xf32>
  return %0, %1 : tensor<4xf32>, tensor<6xf32>
}

// -----

// An f16 matmul whose f32 result is not narrowed back: graph.matmul keeps
// its operands' element type.
func.func @mixed(%a: tensor<1x2x4xf16>, %b: tensor<1x4x3xf16>) -> tensor<1x2x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  // expected-error @+1 {{tosa.matmul: the graph form computes tensor<1x2x3xf16> but the result is tensor<1x2x3xf32>}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x4xf16>, tensor<1x4x3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

func.func @transpose_conv(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x6x6x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.transpose_conv2d: transposed convolution has no graph form}}
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x3xf32>
  return %0 : tensor<1x6x6x3xf32>
}

// -----

// A constant needs lifting but is not a graph tensor.
func.func @int_constant() -> tensor<4xi32> {
  // expected-error @+1 {{tosa.const: constant of type tensor<4xi32> is used as a tensor by func.return; graph tensors are f16, bf16 or f32}}
  %0 = "tosa.const"() <{values = dense<[1, 2, 3, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
