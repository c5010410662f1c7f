// The pass options name the pair; misuse gives located errors.
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-tests=2 real-tests=2 seed=7" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-bits=61" 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-tests=2 progress" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROGRESS
// RUN: not mirage-opt %s --verify-equivalence="original=scaled candidate=nothere" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mirage-opt %s --verify-equivalence="original=scaled" 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: not mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-bits=16" 2>&1 | FileCheck %s --check-prefix=SMALLQ
// RUN: not mirage-opt %s --verify-equivalence="original=scaled candidate=transposed" 2>&1 | FileCheck %s --check-prefix=TYPES

// CHECK: remark: @doubled is equivalent to @scaled: finite-field test: 2 tests {{.*}}; fp64 check: 2 input sets
// BITS: remark: @doubled is equivalent to @scaled: finite-field test: 2 tests over p = 9223372036854774893, q = 2305843009213693723 {{.*}} false-positive bound 2^-116.0
// PROGRESS: verify-equivalence: @doubled vs @scaled: finite-field test 1/2 agrees
// PROGRESS-NEXT: verify-equivalence: @doubled vs @scaled: finite-field test 2/2 agrees
// PROGRESS-NEXT: verify-equivalence: @doubled vs @scaled: fp64 and native run 1/1 done
// PROGRESS-NEXT: remark: @doubled is equivalent to @scaled
// MISSING: error: no function named @nothere to verify
// HALF: error: verify-equivalence needs both original= and candidate=
// SMALLQ: error: field-bits must be in [31, 62], got 16
// TYPES: error: cannot compare @transposed with @scaled: their types differ ('(tensor<8x4xf32>) -> tensor<4x8xf32>' vs '(tensor<8x4xf32>) -> tensor<8x4xf32>')

func.func @scaled(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %y = graph.scalar_mul %x, 2.0 : tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
func.func @doubled(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %y = graph.add %x, %x : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
func.func @transposed(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %y = graph.transpose %x, perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
