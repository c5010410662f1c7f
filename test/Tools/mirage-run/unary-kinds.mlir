// The unary kinds with closed forms at exact inputs, in fp64: tanh and
// sigmoid at 0 and at +-inf-like magnitudes, and a constant offset.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 4 0 -0.5 40 -40
// RUN: mirage-run %s --input=%t/x.npy --output-dir=%t --print | FileCheck %s

// tanh(40) and sigmoid(40) round to 1 in double; sigmoid(-40) = e^-40 / (1 + e^-40).
// CHECK:      out0: shape [4], 4 elements
// CHECK-NEXT:   values: 0, -0.46211715726000974, 1, -1
// CHECK:      out1: shape [4], 4 elements
// CHECK-NEXT:   values: 0.5, 0.3775406687981454, 1, 4.248354255291589e-18
// CHECK:      out2: shape [4], 4 elements
// CHECK-NEXT:   values: 0.25, -0.25, 40.25, -39.75
func.func @kinds(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %t = graph.tanh %x : tensor<4xf32>
  %s = graph.sigmoid %x : tensor<4xf32>
  %o = graph.scalar_add %x, 0.25 : tensor<4xf32>
  return %t, %s, %o : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
