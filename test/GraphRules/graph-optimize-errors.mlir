// Bad options and inputs of --graph-optimize: a located error, a failure.
// RUN: not mirage-opt %s --graph-optimize="budget=0" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not mirage-opt %s --graph-optimize="alpha=0.5" 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: not mirage-opt %s --graph-optimize="target=sm_12" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mirage-opt %s --graph-optimize="function=nope" 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not mirage-opt %s --graph-optimize="rules=%t.missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mirage-opt %s --graph-optimize="rules=%S/Inputs/malformed-rules.mlir" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// BUDGET: error: graph-optimize: budget must be at least 1 graph, got 0
// ALPHA: error: graph-optimize: alpha must be between 1 and 10, got 0.5
// TARGET: error: graph-optimize:
// FUNC: error: graph-optimize: no function named 'nope'
// MISSING: error: {{.*}}missing
// MALFORMED: malformed-rules.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the two sides of rule r differ in types

func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.relu %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
