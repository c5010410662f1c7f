// A rule of the relu family of the shipped rule set applied to a small
// program: relu(relu(x)) = relu(x): an fp64-checked rule (relu is uninterpreted in the finite field), so the result is verified in floating point only (rule r0468, reverse).
// RUN: mirage-opt %s --apply-substitutions="rule=r0468 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r0468 (reversed); 
// REMARK-SAME: verified: finite-field test not run (the rewrite uses rule(s) r0468 checked in fp64 only: an identity of relu or max pooling, such as relu(relu(x)) = relu(x), which the field test cannot see)
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.relu %arg0 : tensor<8x16xf32>
// CHECK-NEXT: return %0 : tensor<8x16xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = graph.relu %a : tensor<8x16xf32>
  %1 = graph.relu %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
