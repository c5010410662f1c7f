// A rule of the exp family of the shipped rule set applied to a small
// program: exp(a) * exp(b) = exp(a + b) (rule r0419, reverse).
// RUN: mirage-opt %s --apply-substitutions="rule=r0419 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r0419 (reversed); 
// REMARK-SAME: verified: finite-field test: 
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.add %arg0, %arg1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = graph.exp %0 : tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = graph.exp %a : tensor<8x16xf32>
  %1 = graph.exp %b : tensor<8x16xf32>
  %2 = graph.mul %0, %1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
