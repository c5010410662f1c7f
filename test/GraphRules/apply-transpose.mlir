// A rule of the transpose family of the shipped rule set applied to a small
// program: transpose(transpose(x)) = x (rule r0618, reverse).
// RUN: mirage-opt %s --apply-substitutions="rule=r0618 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r0618 (reversed); 
// REMARK-SAME: verified: finite-field test: 
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.relu %arg0 : tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = graph.transpose %a, perm = [1, 0] : tensor<8x16xf32> -> tensor<16x8xf32>
  %1 = graph.transpose %0, perm = [1, 0] : tensor<16x8xf32> -> tensor<8x16xf32>
  %2 = graph.relu %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
