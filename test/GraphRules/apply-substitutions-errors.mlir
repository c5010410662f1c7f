// Bad options of --apply-substitutions: a located error, a failure.
// RUN: not mirage-opt %s --apply-substitutions="rule=r9999" 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not mirage-opt %s --apply-substitutions="direction=sideways" 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not mirage-opt %s --apply-substitutions="max-steps=0" 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not mirage-opt %s --apply-substitutions="rules=%S/Inputs/malformed-rules.mlir" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// NAME: error: apply-substitutions: the rule file has no rule named 'r9999'
// DIR: error: apply-substitutions: direction must be forward, reverse or both, got 'sideways'
// STEPS: error: apply-substitutions: max-steps must be between 1 and 100000, got 0
// MALFORMED: malformed-rules.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the two sides of rule r differ in types

func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.relu %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
