// Every .npy variant mirage-run reads gives the same tensor; the output is
// always '<f8' version 1.0, special values included.
// RUN: rm -rf %t && mkdir -p %t

// '<f2': the smallest and the largest subnormal, the largest finite half,
// -0, -inf and nan.
// RUN: %python %S/Inputs/npy.py write %t/half.npy '<f2' 6 0x1p-24 0x1.ff8p-15 65504 -0.0 -inf nan
// RUN: mirage-run %s --func=reshape --input=%t/half.npy --output-dir=%t --print | FileCheck %s --check-prefix=HALF
// HALF:      out0: shape [2, 3], 6 elements
// HALF-NEXT:   values: 5.960464477539063e-08, 6.097555160522461e-05, 65504, -0, -inf, nan
// HALF-NEXT:   min nan, max nan, mean nan
// RUN: %python %S/Inputs/npy.py dump %t/out0.npy | FileCheck %s --check-prefix=HALF-FILE
// HALF-FILE:      version 1.0 descr <f8 fortran_order False shape (2, 3)
// HALF-FILE-NEXT: values 5.960464477539063e-08 6.097555160522461e-05 65504.0 -0.0 -inf nan

// '<f4' and '<f8', version 1.0 and 2.0, and headers as other writers lay
// them out (any key order, no trailing comma, Python 2's long integers).
// RUN: %python %S/Inputs/npy.py write %t/f4.npy '<f4' 6 1 -2 0.1 3 4 5
// RUN: %python %S/Inputs/npy.py write %t/f8v2.npy '<f8' 6 1 -2 0.100000001490116119384765625 3 4 5 --version 2
// RUN: %python %S/Inputs/npy.py write %t/order.npy '<f8' 6 1 -2 0.100000001490116119384765625 3 4 5 \
// RUN:   --header "{'shape': (6L,), 'fortran_order': False, 'descr': '<f8'}"
// RUN: mirage-run %s --func=reshape --input=%t/f4.npy --output-dir=%t/f4 --print | FileCheck %s --check-prefix=SAME
// RUN: mirage-run %s --func=reshape --input=%t/f8v2.npy --output-dir=%t/f8v2 --print | FileCheck %s --check-prefix=SAME
// RUN: mirage-run %s --func=reshape --input=%t/order.npy --output-dir=%t/order --print | FileCheck %s --check-prefix=SAME
// SAME: values: 1, -2, 0.10000000149011612, 3, 4, 5
// RUN: cmp %t/f4/out0.npy %t/f8v2/out0.npy
// RUN: cmp %t/f4/out0.npy %t/order/out0.npy

// More than eight elements: the summary shows the first eight.
// RUN: %python %S/Inputs/npy.py write %t/long.npy '<f8' 10 1 2 3 4 5 6 7 8 9 10
// RUN: mirage-run %s --func=long --input=%t/long.npy --output-dir=%t --print \
// RUN:   | FileCheck %s --check-prefix=LONG
// LONG:      out0: shape [10], 10 elements
// LONG-NEXT:   values: 1, 2, 3, 4, 5, 6, 7, 8, ...
// LONG-NEXT:   min 1, max 10, mean 5.5

func.func @reshape(%x: tensor<6xf32>) -> tensor<2x3xf32> {
  %0 = graph.reshape %x : tensor<6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @long(%x: tensor<10xf32>) -> tensor<10xf32> {
  %0 = graph.relu %x : tensor<10xf32>
  return %0 : tensor<10xf32>
}
