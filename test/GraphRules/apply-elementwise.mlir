// A rule of the elementwise family of the shipped rule set applied to a small
// program: x*b + x*c = x*(b + c), with c a bias broadcast over the rows (distributivity, reversed) (rule r0068, reverse).
// RUN: mirage-opt %s --apply-substitutions="rule=r0068 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r0068 (reversed); 
// REMARK-SAME: verified: finite-field test: 
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.add %arg1, %arg2 : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %1 = graph.mul %arg0, %0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %1 : tensor<8x16xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = graph.mul %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = graph.mul %a, %c : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %2 = graph.add %0, %1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
