// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @exp_converts(%a: tensor<4x8xf16>) {
  // expected-error @+1 {{'kernel.unary' op result element type 'f32' must be the input's ('f16'); only kind 'cast' converts}}
  %0 = kernel.unary exp %a : tensor<4x8xf16> -> tensor<4x8xf32>
  return
}

// -----

func.func @cast_shape(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kernel.unary' op requires the same shape for all operands and results}}
  %0 = "kernel.unary"(%a) {kind = 13 : i32} : (tensor<4x8xf32>) -> tensor<4x4xf16>
  return
}

// -----

func.func @cast_with_params(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{unary kind 'cast' takes 0 parameter(s), got 1}}
  %0 = kernel.unary cast %a params = [1.0] : tensor<4x8xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @cast_to_integer(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'kernel.unary' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4x8xi8>'}}
  %0 = kernel.unary cast %a : tensor<4x8xf32> -> tensor<4x8xi8>
  return
}
