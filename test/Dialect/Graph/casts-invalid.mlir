// The verifiers of graph.cast and of the ops that meet mixed dtypes
// (issue 24): casts are explicit, every other op takes one dtype.
// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @cast_shape(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'graph.cast' op result shape [8, 4] must be the input's [4, 8]}}
  %0 = graph.cast %x : tensor<4x8xf16> -> tensor<8x4xf32>
  return
}

// -----

func.func @cast_to_integer(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'graph.cast' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4x8xi32>'}}
  %0 = graph.cast %x : tensor<4x8xf16> -> tensor<4x8xi32>
  return
}

// -----

func.func @cast_from_f64(%x: tensor<4x8xf64>) {
  // expected-error @+1 {{'graph.cast' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4x8xf64>'}}
  %0 = graph.cast %x : tensor<4x8xf64> -> tensor<4x8xf32>
  return
}

// -----

func.func @mixed_matmul(%x: tensor<4x8xf16>, %w: tensor<8x2xbf16>) {
  // expected-error @+1 {{'graph.matmul' op requires the same element type for all operands and results}}
  %0 = "graph.matmul"(%x, %w) : (tensor<4x8xf16>, tensor<8x2xbf16>) -> tensor<4x2xf16>
  return
}

// -----

func.func @mixed_add(%x: tensor<4x8xf16>, %y: tensor<4x8xf32>) {
  // expected-error @+1 {{'graph.add' op requires the same element type for all operands and results}}
  %0 = "graph.add"(%x, %y) : (tensor<4x8xf16>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @erf_type(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'graph.erf' op requires the same type for all operands and results}}
  %0 = "graph.erf"(%x) : (tensor<4x8xf16>) -> tensor<4x8xf32>
  return
}
