// A rule of the matmul family of the shipped rule set applied to a small
// program: concat(x W1, x W2) = x concat(W1, W2): one matmul for two that share an input (rule r1321, reverse).
// RUN: mirage-opt %s --apply-substitutions="rule=r1321 direction=reverse" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: apply-substitutions @f: 1 rewrite(s): r1321 (reversed); 
// REMARK-SAME: verified: finite-field test: 
// CHECK-LABEL: func.func @f
// CHECK: %0 = graph.concat(%arg1, %arg2) dim = 1 : (tensor<64x32xf32>, tensor<64x48xf32>) -> tensor<64x80xf32>
// CHECK-NEXT: %1 = graph.matmul %arg0, %0 : (tensor<16x64xf32>, tensor<64x80xf32>) -> tensor<16x80xf32>
// CHECK-NEXT: return %1 : tensor<16x80xf32>
// CHECK-NEXT: }

func.func @f(%x: tensor<16x64xf32>, %w1: tensor<64x32xf32>, %w2: tensor<64x48xf32>) -> tensor<16x80xf32> {
  %0 = graph.matmul %x, %w1 : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  %1 = graph.matmul %x, %w2 : (tensor<16x64xf32>, tensor<64x48xf32>) -> tensor<16x48xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<16x32xf32>, tensor<16x48xf32>) -> tensor<16x80xf32>
  return %2 : tensor<16x80xf32>
}
