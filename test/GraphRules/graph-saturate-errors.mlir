// Bad options and inputs of --graph-saturate: a located error, a failure.
// RUN: not mirage-opt %s --graph-saturate="node-limit=0" 2>&1 | FileCheck %s --check-prefix=NODES
// RUN: not mirage-opt %s --graph-saturate="iter-limit=0" 2>&1 | FileCheck %s --check-prefix=ITERS
// RUN: not mirage-opt %s --graph-saturate="extraction=best" 2>&1 | FileCheck %s --check-prefix=EXTRACT
// RUN: not mirage-opt %s --graph-saturate="time-limit=-1" 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not mirage-opt %s --graph-saturate="target=sm_12" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mirage-opt %s --graph-saturate="function=nope" 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not mirage-opt %s --graph-saturate="rules=%t.missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mirage-opt %s --graph-saturate="rules=%S/Inputs/malformed-rules.mlir" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// NODES: error: graph-saturate: node-limit must be at least 1 e-node, got 0
// ITERS: error: graph-saturate: iter-limit must be at least 1 iteration, got 0
// EXTRACT: error: graph-saturate: extraction must be greedy or ilp, got 'best'
// TIME: error: graph-saturate: time-limit must be a number of seconds >= 0
// TARGET: error: graph-saturate:
// FUNC: error: graph-saturate: no function named 'nope'
// MISSING: error: {{.*}}missing
// MALFORMED: malformed-rules.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the two sides of rule r differ in types

func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.relu %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

