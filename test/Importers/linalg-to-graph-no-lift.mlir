// RUN: mirage-opt %s --linalg-to-graph="lift-constants=false" -split-input-file -verify-diagnostics | FileCheck %s

// With lift-constants=false a constant tensor that a graph op needs is an
// error; fills of 0 as inits and scalar constants in bodies are no tensors
// and convert.

func.func @weights(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  // expected-error @+1 {{arith.constant: constant tensor<4x3xf32> is used as a tensor by graph.matmul; the graph dialect has no tensor constants (lift-constants=true makes it an argument)}}
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<4x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%z : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A fill used as data (not as an init) is a splat constant tensor too.
func.func @fill_as_data(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %ew = tensor.empty() : tensor<4x3xf32>
  // expected-error @+1 {{linalg.fill: constant tensor<4x3xf32> is used as a tensor by graph.matmul; the graph dialect has no tensor constants (lift-constants=true makes it an argument)}}
  %w = linalg.fill ins(%half : f32) outs(%ew : tensor<4x3xf32>) -> tensor<4x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%z : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[A:.*]] = graph.scalar_mul %[[X]], 5.000000e-01 : tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = graph.scalar_add %[[A]], 1.000000e+00 : tensor<2x3xf32>
// CHECK-NEXT: return %[[B]]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @scalars(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %half = arith.constant 5.000000e-01 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.000000e+00 : f32
    %1 = arith.mulf %in, %half : f32
    %2 = arith.addf %1, %one : f32
    linalg.yield %2 : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
