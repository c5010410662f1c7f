// The indexing ops' shape and dtype rules (ShapeRules.cpp, "Indexing").
// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @gather_result_shape(%t: tensor<100x32xf32>, %ids: tensor<2x5xi64>) {
  // expected-error @+1 {{result shape [2, 32] must be [2, 5, 32]}}
  %e = graph.gather %t, %ids, axis = 0 : (tensor<100x32xf32>, tensor<2x5xi64>) -> tensor<2x32xf32>
  return
}

// -----

func.func @gather_axis(%t: tensor<100x32xf32>, %ids: tensor<5xi64>) {
  // expected-error @+1 {{dimension 2 is out of range for rank 2}}
  %e = graph.gather %t, %ids, axis = 2 : (tensor<100x32xf32>, tensor<5xi64>) -> tensor<100x32xf32>
  return
}

// -----

func.func @gather_float_indices(%t: tensor<100x32xf32>, %ids: tensor<5xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %e = graph.gather %t, %ids, axis = 0 : (tensor<100x32xf32>, tensor<5xf32>) -> tensor<5x32xf32>
  return
}

// -----

func.func @gather_result_dtype(%t: tensor<100x32xf32>, %ids: tensor<5xi64>) {
  // expected-error @+1 {{result element type 'f16' must be 'f32'}}
  %e = graph.gather %t, %ids, axis = 0 : (tensor<100x32xf32>, tensor<5xi64>) -> tensor<5x32xf16>
  return
}

// -----

func.func @no_integer_arithmetic(%a: tensor<5xi64>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values}}
  %e = graph.add %a, %a : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
  return
}

// -----

func.func @gather_elements_rank(%t: tensor<16x8xf32>, %i: tensor<16xi64>) {
  // expected-error @+1 {{indices have rank 1 but the data has rank 2}}
  %g = graph.gather_elements %t, %i, axis = 1 : (tensor<16x8xf32>, tensor<16xi64>) -> tensor<16xf32>
  return
}

// -----

func.func @gather_elements_longer(%t: tensor<16x8xf32>, %i: tensor<17x2xi64>) {
  // expected-error @+1 {{indices are 17 long in dimension 0, longer than the data's 16}}
  %g = graph.gather_elements %t, %i, axis = 1 : (tensor<16x8xf32>, tensor<17x2xi64>) -> tensor<17x2xf32>
  return
}

// -----

func.func @scatter_updates(%t: tensor<16x8xf32>, %i: tensor<16x2xi64>, %u: tensor<16x3xf32>) {
  // expected-error @+1 {{updates shape [16, 3] must be [16, 2]}}
  %s = graph.scatter_elements %t, %i, %u, axis = 1, reduction = none : (tensor<16x8xf32>, tensor<16x2xi64>, tensor<16x3xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @scatter_reduction(%t: tensor<16x8xf32>, %i: tensor<16x2xi64>, %u: tensor<16x2xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'reduction' [none, add]}}
  %s = graph.scatter_elements %t, %i, %u, axis = 1, reduction = max : (tensor<16x8xf32>, tensor<16x2xi64>, tensor<16x2xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @one_hot_shape(%i: tensor<16x2xi64>) {
  // expected-error @+1 {{result shape [16, 8] must be the indices' [16, 2] and one more dimension, the depth}}
  %h = graph.one_hot %i : tensor<16x2xi64> -> tensor<16x8xf32>
  return
}

// -----

func.func @topk_k(%p: tensor<16x8xf32>) {
  // expected-error @+1 {{k = 9 must lie in [1, 8], the size of dimension 1}}
  %v, %i = graph.topk %p, k = 9, dim = 1 : tensor<16x8xf32> -> (tensor<16x9xf32>, tensor<16x9xi64>)
  return
}

// -----

func.func @topk_indices_i64(%p: tensor<16x8xf32>) {
  // expected-error @+1 {{indices element type 'i32' must be 'i64'}}
  %v, %i = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
  return
}
