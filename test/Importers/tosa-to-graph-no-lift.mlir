// RUN: mirage-opt %s --tosa-to-graph="lift-constants=false" -split-input-file -verify-diagnostics | FileCheck %s

// With lift-constants=false a constant tensor that a graph op needs is an
// error; splat operands that fold into scalar forms, zero points and shapes
// are no tensors and convert.

func.func @weights(%x: tensor<1x2x4xf32>) -> tensor<1x2x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{tosa.const: constant tensor<1x4x3xf32> is used as a tensor by graph.matmul; the graph dialect has no tensor constants (lift-constants=true makes it an argument)}}
  %w = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x4x3xf32>}> : () -> tensor<1x4x3xf32>
  %0 = tosa.matmul %x, %w, %zp, %zp : (tensor<1x2x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[A:.*]] = graph.scalar_mul %[[X]], 5.000000e-01 : tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = graph.scalar_add %[[A]], 1.000000e+00 : tensor<2x3xf32>
// CHECK-NEXT: return %[[B]]
func.func @scalars(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %half = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %one = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %x, %half, %shift : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %1 = tosa.add %0, %one : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
