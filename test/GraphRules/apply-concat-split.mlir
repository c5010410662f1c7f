// A rule of the concat-split family of the shipped rule set applied to a small
// program: split(concat(a, b)) = a, b (rule r0906, reverse).
// RUN: mirage-opt %s --apply-substitutions="rule=r0906 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r0906 (reversed); 
// REMARK-SAME: verified: finite-field test: 
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.relu %arg0 : tensor<1x8x14x14xf32>
// CHECK-NEXT: %1 = graph.relu %arg1 : tensor<2x8x14x14xf32>
// CHECK-NEXT: return %0, %1 : tensor<1x8x14x14xf32>, tensor<2x8x14x14xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<1x8x14x14xf32>, %b: tensor<2x8x14x14xf32>) -> (tensor<1x8x14x14xf32>, tensor<2x8x14x14xf32>) {
  %0 = graph.concat(%a, %b) dim = 0 : (tensor<1x8x14x14xf32>, tensor<2x8x14x14xf32>) -> tensor<3x8x14x14xf32>
  %1:2 = graph.split %0, dim = 0, sizes = [1, 2] : tensor<3x8x14x14xf32> -> tensor<1x8x14x14xf32>, tensor<2x8x14x14xf32>
  %2 = graph.relu %1#0 : tensor<1x8x14x14xf32>
  %3 = graph.relu %1#1 : tensor<2x8x14x14xf32>
  return %2, %3 : tensor<1x8x14x14xf32>, tensor<2x8x14x14xf32>
}
