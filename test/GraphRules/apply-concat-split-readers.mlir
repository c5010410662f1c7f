// concat(split_0(x), split_1(x)) = x (rule r0905, reversed) needs both
// results of the *same* split: the matcher binds the split through the
// concat's first operand and must check the second. With the halves of two
// different splits the rule does not apply.
// RUN: mirage-opt %s --apply-substitutions="rule=r0905 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK-DAG: remark: apply-substitutions @same: 1 rewrite(s): r0905 (reversed);
// REMARK-DAG: remark: apply-substitutions @mixed: no rule applies

// CHECK-LABEL: func.func @same
// CHECK-NEXT: %0 = graph.relu %arg0 : tensor<2x7xf32>
// CHECK-NEXT: return %0
func.func @same(%x: tensor<2x7xf32>) -> tensor<2x7xf32> {
  %s:2 = graph.split %x, dim = 1, sizes = [3, 4] : tensor<2x7xf32> -> tensor<2x3xf32>, tensor<2x4xf32>
  %c = graph.concat(%s#0, %s#1) dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
  %r = graph.relu %c : tensor<2x7xf32>
  return %r : tensor<2x7xf32>
}

// CHECK-LABEL: func.func @mixed
// CHECK: graph.split %arg0
// CHECK: graph.split %arg1
// CHECK: graph.concat
// CHECK: graph.relu
func.func @mixed(%x: tensor<2x7xf32>, %y: tensor<2x7xf32>) -> tensor<2x7xf32> {
  %s:2 = graph.split %x, dim = 1, sizes = [3, 4] : tensor<2x7xf32> -> tensor<2x3xf32>, tensor<2x4xf32>
  %t:2 = graph.split %y, dim = 1, sizes = [3, 4] : tensor<2x7xf32> -> tensor<2x3xf32>, tensor<2x4xf32>
  %c = graph.concat(%s#0, %t#1) dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
  %r = graph.relu %c : tensor<2x7xf32>
  return %r : tensor<2x7xf32>
}
