// Arguments that stand for constants (the importers' mirage.lifted_constant,
// docs/Importers.md) take their values from the attribute: --input files
// (or the seeded generator) cover the other arguments only, unless one
// file is given for every argument.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f8' 2,2 1 2 3 4
// RUN: mirage-run %s --func=affine --input=%t/x.npy --output-dir=%t --print | FileCheck %s
// CHECK:      out0: shape [2, 2], 4 elements
// CHECK-NEXT:   values: 11, 22, 33, 44

// One file per argument replaces the constants too.
// RUN: %python %S/Inputs/npy.py write %t/w.npy '<f8' 2,2 0 0 0 0
// RUN: mirage-run %s --func=affine --input=%t/x.npy,%t/w.npy --output-dir=%t --print | FileCheck %s --check-prefix=ALL
// ALL:   values: 1, 2, 3, 4

// Random inputs for the others; --save-inputs writes the constants too.
// RUN: mirage-run %s --func=affine --seed=3 --save-inputs --output-dir=%t/random
// RUN: %python %S/Inputs/npy.py dump %t/random/in1.npy | FileCheck %s --check-prefix=SAVED
// SAVED: values 10.0 20.0 30.0 40.0

// Any other number of files is an error that says how many are open.
// RUN: not mirage-run %s --func=affine --input=%t/x.npy,%t/x.npy,%t/x.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: @affine takes 2 arguments (1 without a mirage.lifted_constant), but 3 --input files were given

// The attribute must be a float tensor of the argument's shape.
// RUN: not mirage-run %s --func=bad --input=%t/x.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: argument #1 of @bad has a mirage.lifted_constant attribute that is not a float tensor of its shape

func.func @affine(%x: tensor<2x2xf32>, %w: tensor<2x2xf32> {mirage.lifted_constant = dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>}) -> tensor<2x2xf32> {
  %0 = graph.add %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

func.func @bad(%x: tensor<2x2xf32>, %w: tensor<2x2xf32> {mirage.lifted_constant = dense<[1.0, 2.0]> : tensor<2xf32>}) -> tensor<2x2xf32> {
  %0 = graph.add %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
