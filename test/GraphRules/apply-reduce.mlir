// A rule of the reduce family of the shipped rule set applied to a small
// program: reduce_sum(a + b, 0) = reduce_sum(concat(a, b, 0), 0) (rule r0659, forward).
// RUN: mirage-opt %s --apply-substitutions="rule=r0659 direction=forward" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r0659; 
// REMARK-SAME: verified: finite-field test: 
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.concat(%arg0, %arg1) dim = 0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %1 = graph.reduce_sum %0, dim = 0 : tensor<16x16xf32> -> tensor<1x16xf32>
// CHECK-NEXT: return %1 : tensor<1x16xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<1x16xf32> {
  %0 = graph.add %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = graph.reduce_sum %0, dim = 0 : tensor<8x16xf32> -> tensor<1x16xf32>
  return %1 : tensor<1x16xf32>
}
