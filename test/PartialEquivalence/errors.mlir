// Bad options are errors at the module (each chunk its own module), and
// the pass fails.
// RUN: mirage-opt %s -split-input-file -verify-diagnostics --partial-equivalence-optimize="budget=0"
// RUN: not mirage-opt %s -split-input-file --partial-equivalence-optimize="target=sm_86" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mirage-opt %s -split-input-file --partial-equivalence-optimize="field-bits=20" 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: not mirage-opt %s -split-input-file --partial-equivalence-optimize="region-bound=0" 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: not mirage-opt %s -split-input-file --partial-equivalence-optimize="function=nope" 2>&1 | FileCheck %s --check-prefix=NAME

// TARGET: error: partial-equivalence-optimize: the cost model has no l2BandwidthGBs and launchOverheadUs for sm_86 (RTX-3090)
// BITS: error: partial-equivalence-optimize: field-bits must be between 31 and 62, got 20
// BOUND: error: partial-equivalence-optimize: region-bound must be between -200 and -1, got 0
// NAME: error: partial-equivalence-optimize: no function named 'nope'

// expected-error@below {{partial-equivalence-optimize: budget must be at least 1 mutant, got 0}}
module {
func.func @f(%a: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  return %a : tensor<1x2x4x4xf32>
}
}

// -----

// expected-error@below {{partial-equivalence-optimize: budget must be at least 1 mutant, got 0}}
module {
func.func @g(%a: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}
}
