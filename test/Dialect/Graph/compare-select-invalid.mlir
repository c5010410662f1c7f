// Comparisons and select: broadcasting, dtype and result-type errors.
// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @compare_no_broadcast(%a: tensor<8x64xf32>, %b: tensor<8x32xf32>) {
  // expected-error @+2 {{shapes [8, 64] and [8, 32] do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.lt %a, %b : (tensor<8x64xf32>, tensor<8x32xf32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @compare_mixed_dtypes(%a: tensor<8xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'graph.eq' op requires the same element type for all operands and results}}
  %0 = graph.eq %a, %b : (tensor<8xf32>, tensor<8xf16>) -> tensor<8xf32>
  return
}

// -----

func.func @compare_wrong_result(%a: tensor<8x1xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+2 {{'graph.ge' op inferred type(s) 'tensor<8x4xf32>' are incompatible with return type(s) of operation 'tensor<8x1xf32>'}}
  // expected-error @+1 {{'graph.ge' op failed to infer returned types}}
  %0 = graph.ge %a, %b : (tensor<8x1xf32>, tensor<1x4xf32>) -> tensor<8x1xf32>
  return
}

// -----

func.func @compare_integer(%a: tensor<8xi1>, %b: tensor<8xi1>) {
  // expected-error @+1 {{'graph.ne' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<8xi1>'}}
  %0 = graph.ne %a, %b : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  return
}

// -----

func.func @select_no_broadcast(%c: tensor<8x1xf32>, %a: tensor<8x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{shapes [8, 4] and [3] do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.select %c, %a, %b : (tensor<8x1xf32>, tensor<8x4xf32>, tensor<3xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @select_mixed_dtypes(%c: tensor<8xf16>, %a: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'graph.select' op requires the same element type for all operands and results}}
  %0 = graph.select %c, %a, %b : (tensor<8xf16>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @select_wrong_result(%c: tensor<8x1xf32>, %a: tensor<1x4xf32>, %b: tensor<f32>) {
  // expected-error @+2 {{'graph.select' op inferred type(s) 'tensor<8x4xf32>' are incompatible with return type(s) of operation 'tensor<1x4xf32>'}}
  // expected-error @+1 {{'graph.select' op failed to infer returned types}}
  %0 = graph.select %c, %a, %b : (tensor<8x1xf32>, tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  return
}
