// A rule of the conv family of the shipped rule set applied to a small
// program: concat(conv(a, w), conv(b, w), 0) = conv(concat(a, b, 0), w): one convolution for two that share a weight (rule r1921, reverse).
// RUN: mirage-opt %s --apply-substitutions="rule=r1921 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r1921 (reversed); 
// REMARK-SAME: verified: finite-field test: 
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.concat(%arg0, %arg1) dim = 0 : (tensor<1x8x14x14xf32>, tensor<2x8x14x14xf32>) -> tensor<3x8x14x14xf32>
// CHECK-NEXT: %1 = graph.conv2d %0, %arg2 : (tensor<3x8x14x14xf32>, tensor<16x8x1x1xf32>) -> tensor<3x16x14x14xf32>
// CHECK-NEXT: return %1 : tensor<3x16x14x14xf32>
// CHECK-NEXT: }

func.func @f(%a: tensor<1x8x14x14xf32>, %b: tensor<2x8x14x14xf32>, %w: tensor<16x8x1x1xf32>) -> tensor<3x16x14x14xf32> {
  %0 = graph.conv2d %a, %w : (tensor<1x8x14x14xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x14x14xf32>
  %1 = graph.conv2d %b, %w : (tensor<2x8x14x14xf32>, tensor<16x8x1x1xf32>) -> tensor<2x16x14x14xf32>
  %2 = graph.concat(%0, %1) dim = 0 : (tensor<1x16x14x14xf32>, tensor<2x16x14x14xf32>) -> tensor<3x16x14x14xf32>
  return %2 : tensor<3x16x14x14xf32>
}
