// Bad options and inputs of --graph-saturate: a located error, a failure.
// RUN: not mirage-opt %s --graph-saturate="node-factor=0" 2>&1 | FileCheck %s --check-prefix=FACTOR
// RUN: not mirage-opt %s --graph-saturate="node-factor=1001" 2>&1 | FileCheck %s --check-prefix=FACTOR-BIG
// RUN: not mirage-opt %s --graph-saturate="extract-eval-limit=0" 2>&1 | FileCheck %s --check-prefix=EVALS
// RUN: not mirage-opt %s --graph-saturate="multi-iter-limit=-1" 2>&1 | FileCheck %s --check-prefix=MULTI
// RUN: not mirage-opt %s --graph-saturate="iter-limit=0" 2>&1 | FileCheck %s --check-prefix=ITERS
// RUN: not mirage-opt %s --graph-saturate="extraction=best" 2>&1 | FileCheck %s --check-prefix=EXTRACT
// RUN: not mirage-opt %s --graph-saturate="time-limit=-1" 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not mirage-opt %s --graph-saturate="target=sm_12" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mirage-opt %s --graph-saturate="function=nope" 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not mirage-opt %s --graph-saturate="rules=%t.missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mirage-opt %s --graph-saturate="rules=%S/Inputs/malformed-rules.mlir" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// FACTOR: error: graph-saturate: node-factor must be between 1 and 1000, got 0
// FACTOR-BIG: error: graph-saturate: node-factor must be between 1 and 1000, got 1001
// EVALS: error: graph-saturate: extract-eval-limit must be at least 1, got 0
// MULTI: for the --multi-iter-limit option: '-1' value invalid for uint argument!
// ITERS: error: graph-saturate: iter-limit must be at least 1 iteration, got 0
// EXTRACT: error: graph-saturate: extraction must be greedy, sharing or ilp, got 'best'
// TIME: error: graph-saturate: time-limit must be a number of seconds >= 0
// TARGET: error: graph-saturate:
// FUNC: error: graph-saturate: no function named 'nope'
// MISSING: error: {{.*}}missing
// MALFORMED: malformed-rules.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the two sides of rule r differ in types

func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.relu %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

