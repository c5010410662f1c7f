// --arith=native rounds each op's result to its element type; fp64 does not.
// The inputs are read from '<f2' files, so half decoding is exercised too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f2' 4 1 1 2048 0.5
// RUN: %python %S/Inputs/npy.py write %t/b.npy '<f2' 4 0x1p-12 0x1p-10 1 0x1p-12
// RUN: mirage-run %s --func=add_f16 --input=%t/a.npy,%t/b.npy --output-dir=%t --print \
// RUN:   | FileCheck %s --check-prefix=FP64
// RUN: mirage-run %s --func=add_f16 --input=%t/a.npy,%t/b.npy --output-dir=%t --print \
// RUN:   --arith=native | FileCheck %s --check-prefix=NATIVE

// 1 + 2^-12 is below half an f16 ulp of 1 (2^-11); 2048 + 1 and 0.5 + 2^-12
// are ties that go to the even neighbour; 1 + 2^-10 is exact.
// FP64:   values: 1.000244140625, 1.0009765625, 2049, 0.500244140625
// NATIVE: values: 1, 1.0009765625, 2048, 0.5

// bf16 keeps 8 significant bits: 1 + 2^-8 is a tie that rounds to 1.
// RUN: %python %S/Inputs/npy.py write %t/c.npy '<f8' 2 1 3
// RUN: %python %S/Inputs/npy.py write %t/d.npy '<f8' 2 0x1p-8 0x1p-7
// RUN: mirage-run %s --func=add_bf16 --input=%t/c.npy,%t/d.npy --output-dir=%t --print \
// RUN:   --arith=native | FileCheck %s --check-prefix=BF16
// BF16: values: 1, 3

func.func @add_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = graph.add %a, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

func.func @add_bf16(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> tensor<2xbf16> {
  %0 = graph.add %a, %b : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
