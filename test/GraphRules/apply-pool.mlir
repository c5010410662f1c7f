// A rule of the pool family of the shipped rule set applied to a small
// program: max_pool2d(relu(x)) = relu(max_pool2d(x)) (rule r1745, forward).
// The field test cannot see an identity of max pooling and relu (both are
// uninterpreted there), so the rewrite is verified in floating point only,
// and the remark says why.
// RUN: mirage-opt %s --apply-substitutions="rule=r1745 direction=forward" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r1745; 
// REMARK-SAME: verified: finite-field test not run (the rewrite uses rule(s) r1745 checked in fp64 only
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.max_pool2d %arg0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x8x14x14xf32> -> tensor<1x8x14x14xf32>
// CHECK-NEXT: %1 = graph.relu %0 : tensor<1x8x14x14xf32>
// CHECK-NEXT: return %1 : tensor<1x8x14x14xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32> {
  %0 = graph.relu %a : tensor<1x8x14x14xf32>
  %1 = graph.max_pool2d %0, kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x8x14x14xf32> -> tensor<1x8x14x14xf32>
  return %1 : tensor<1x8x14x14xf32>
}
