// The pass options name the pair; misuse gives located errors.
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-tests=2 real-tests=2 seed=7" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-bits=61" 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-tests=2 progress scales=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROGRESS
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled seed=5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEED5
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled seed=5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEED5
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled seed=6" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEED6
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled real-tests=0 scales=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOREAL
// RUN: mirage-opt %s --verify-equivalence="original=scaled candidate=doubled scales=2 real-tests=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALES
// RUN: not mirage-opt %s --verify-equivalence="original=scaled candidate=nothere" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mirage-opt %s --verify-equivalence="original=scaled" 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: not mirage-opt %s --verify-equivalence="original=scaled candidate=transposed" 2>&1 | FileCheck %s --check-prefix=TYPES

// Every numeric option is range-checked, with an error at the module (not
// a dump of it) and a non-zero exit.
// RUN: not mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-bits=16" 2>&1 | FileCheck %s --check-prefix=SMALLQ
// RUN: not mirage-opt %s --verify-equivalence="original=scaled candidate=doubled field-bits=63" 2>&1 | FileCheck %s --check-prefix=BIGQ
// RUN: not mirage-opt %s --verify-equivalence="field-tests=1001" 2>&1 | FileCheck %s --check-prefix=FTESTS
// RUN: not mirage-opt %s --verify-equivalence="real-tests=5000" 2>&1 | FileCheck %s --check-prefix=RTESTS
// RUN: not mirage-opt %s --verify-equivalence="scales=0" 2>&1 | FileCheck %s --check-prefix=SCALES0
// RUN: not mirage-opt %s --verify-equivalence="scales=17" 2>&1 | FileCheck %s --check-prefix=SCALES17
// RUN: not mirage-opt %s --verify-equivalence="memory-limit=2000000000000" 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not mirage-opt %s --verify-equivalence="time-limit=-1" 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not mirage-opt %s --verify-equivalence="field-bits=5 field-tests=2000" 2>&1 | FileCheck %s --check-prefix=TWO

// CHECK: remark: @doubled is equivalent to @scaled: finite-field test: 2 tests over p = 3508480463, q = 1754240231 (random primes, q drawn with seed 0x4d452f3345c441b0 from about 2^21.5 31-bit choices; 1 constant, none vanishing or colliding; degree 1, 0 exp/uninterpreted/max sites), false-positive bound 2^-55.4; floating point: 2 input sets at input scales 1, 4, 16, 64, 256, 1024 (f32 ladder)
// BITS: remark: @doubled is equivalent to @scaled: finite-field test: 2 tests over p = 3457741509046619087, q = 1728870754523309543 (random primes, q drawn with seed 0x0fe8267b2464959c from about 2^49.6 61-bit choices; {{.*}} false-positive bound 2^-115.2
// PROGRESS: verify-equivalence: @doubled vs @scaled: finite-field test 1/2 agrees
// PROGRESS-NEXT: verify-equivalence: @doubled vs @scaled: finite-field test 2/2 agrees
// PROGRESS-NEXT: verify-equivalence: @doubled vs @scaled: floating-point checks at input scale 1, set 1/1 done
// PROGRESS-NEXT: verify-equivalence: @doubled vs @scaled: floating-point checks at input scale 4, set 1/1 done
// PROGRESS-NEXT: remark: @doubled is equivalent to @scaled
// The primes follow the seed: the same seed gives the same ones, another
// seed others.
// SEED5: finite-field test: 3 tests over p = 3271234907, q = 1635617453 (random primes, q drawn with seed 0xedd37917c07ed543
// SEED6: finite-field test: 3 tests over p = {{[0-9]+}}, q = {{[0-9]+}} (random primes, q drawn with seed 0x
// SEED6-NOT: p = 3271234907
// NOREAL: floating-point checks skipped (real-tests = 0): the numerics of the program's dtypes are not checked
// SCALES: floating point: 3 input sets at input scales 1, 4 (f32 ladder)
// MISSING: error: no function named @nothere to verify
// HALF: error: verify-equivalence needs both original= and candidate=
// TYPES: error: cannot compare @transposed with @scaled: their types differ ('(tensor<8x4xf32>) -> tensor<4x8xf32>' vs '(tensor<8x4xf32>) -> tensor<8x4xf32>')
// SMALLQ: options.mlir:0:0: error: verify-equivalence: field-bits must be in [31, 62], got 16
// SMALLQ-NOT: func.func
// BIGQ: error: verify-equivalence: field-bits must be in [31, 62], got 63
// FTESTS: error: verify-equivalence: field-tests must be in [0, 1000] (0: enough for a 2^-60 bound), got 1001
// RTESTS: error: verify-equivalence: real-tests must be in [0, 1000], got 5000
// SCALES0: error: verify-equivalence: scales must be in [1, 16], got 0
// SCALES17: error: verify-equivalence: scales must be in [1, 16], got 17
// MEMORY: error: verify-equivalence: memory-limit must be in [0, 2^40] MiB (0: the machine's memory), got 2000000000000
// TIME: error: verify-equivalence: time-limit must be in [0, 10^6] seconds (0: no limit), got -1
// TWO: error: verify-equivalence: field-bits must be in [31, 62], got 5
// TWO: error: verify-equivalence: field-tests must be in [0, 1000] (0: enough for a 2^-60 bound), got 2000

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
