// graph.cast (issue 24): the identity in fp64; in --arith=native its result
// is rounded to its element type, ties to even and overflow to inf.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 4 0x1.555556p-2 65520 1.00390625 -0.0
// RUN: mirage-run %s --input=%t/x.npy --output-dir=%t --print | FileCheck %s --check-prefix=FP64
// RUN: mirage-run %s --input=%t/x.npy --output-dir=%t --print --arith=native | FileCheck %s --check-prefix=NATIVE

// FP64:      out0: shape [4], 4 elements
// FP64-NEXT:   values: 0.3333333432674408, 65520, 1.00390625, -0
// FP64:      out1: shape [4], 4 elements
// FP64-NEXT:   values: 0.3333333432674408, 65520, 1.00390625, -0

// bf16 keeps 8 significant bits: 65520 rounds up to 2^16, 1 + 2^-8 is a
// tie that goes to 1. f16 keeps 11: 1 + 2^-8 is exact, 65520 is the tie
// between f16's largest value 65504 and 2^16, and overflows.
// NATIVE:      out0: shape [4], 4 elements
// NATIVE-NEXT:   values: 0.333984375, 65536, 1, -0
// NATIVE:      out1: shape [4], 4 elements
// NATIVE-NEXT:   values: 0.333251953125, inf, 1.00390625, -0
func.func @casts(%x: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xf16>) {
  %b = graph.cast %x : tensor<4xf32> -> tensor<4xbf16>
  %h = graph.cast %x : tensor<4xf32> -> tensor<4xf16>
  return %b, %h : tensor<4xbf16>, tensor<4xf16>
}
