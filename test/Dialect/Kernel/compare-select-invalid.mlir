// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @unknown_kind(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, sub, mul, div, eq, ne, lt, le, gt, ge]}}
  %0 = kernel.binary less %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_no_broadcast(%c: tensor<4x8xf32>, %a: tensor<4x8xf32>, %b: tensor<2x8xf32>) {
  // expected-error @+2 {{shapes [4, 8] and [2, 8] do not broadcast}}
  // expected-error @+1 {{'kernel.select' op failed to infer returned types}}
  %0 = kernel.select %c, %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @select_mixed_dtypes(%c: tensor<4xbf16>, %a: tensor<4xf16>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'kernel.select' op requires the same element type for all operands and results}}
  %0 = kernel.select %c, %a, %b : (tensor<4xbf16>, tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return
}
