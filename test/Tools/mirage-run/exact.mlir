// A program whose results are known exactly, on inputs written by the test:
// the printed summary and the .npy files (read back by an independent reader)
// hold them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f8' 2,3 1 2 3 4 5 6
// RUN: %python %S/Inputs/npy.py write %t/b.npy '<f4' 2,3 0.5 0.25 -3 10 0 -0.125
// RUN: mirage-run %s --input=%t/a.npy --input=%t/b.npy --output-dir=%t/out --print \
// RUN:   | FileCheck %s
// RUN: %python %S/Inputs/npy.py dump %t/out/out0.npy | FileCheck %s --check-prefix=SUM
// RUN: %python %S/Inputs/npy.py dump %t/out/out1.npy | FileCheck %s --check-prefix=PRODUCT

// --input also takes a comma-separated list; --output-dir defaults to ".".
// RUN: cd %t && mirage-run %s --input=a.npy,b.npy
// RUN: cmp %t/out0.npy %t/out/out0.npy
// RUN: cmp %t/out1.npy %t/out/out1.npy

// CHECK:      out0: shape [2, 3], 6 elements
// CHECK-NEXT:   values: 1.5, 2.25, 0, 14, 5, 5.875
// CHECK-NEXT:   min 0, max 14, mean 4.770833333333333
// CHECK-NEXT: out1: shape [2, 3], 6 elements
// CHECK-NEXT:   values: 0.5, 0.5, -9, 40, 0, -0.75
// CHECK-NEXT:   min -9, max 40, mean 5.208333333333333
// CHECK-NOT:  out2

// SUM: version 1.0 descr <f8 fortran_order False shape (2, 3)
// SUM-NEXT: values 1.5 2.25 0.0 14.0 5.0 5.875
// PRODUCT: values 0.5 0.5 -9.0 40.0 0.0 -0.75

func.func @add_mul(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.mul %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
