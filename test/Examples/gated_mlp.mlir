// The README's first example: GatedMLP (silu(X W1) * (X W2)) at the graph
// level, lowered to the default one-kernel-per-op schedule.
// RUN: mirage-opt %s --graph-to-kernel | FileCheck %s

// CHECK-LABEL: func @gated_mlp
// CHECK: %[[A:.*]] = kernel.matmul %arg0, %arg1
// CHECK: %[[B:.*]] = kernel.matmul %arg0, %arg2
// CHECK: %[[S:.*]] = kernel.unary silu %[[A]]
// CHECK: %[[Y:.*]] = kernel.binary mul %[[S]], %[[B]]
// CHECK: return %[[Y]]
func.func @gated_mlp(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>,
                     %W2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %a = graph.matmul %X, %W1 : (tensor<8x4096xf16>, tensor<4096x4096xf16>) -> tensor<8x4096xf16>
  %b = graph.matmul %X, %W2 : (tensor<8x4096xf16>, tensor<4096x4096xf16>) -> tensor<8x4096xf16>
  %s = graph.silu %a : tensor<8x4096xf16>
  %y = graph.mul %s, %b : (tensor<8x4096xf16>, tensor<8x4096xf16>) -> tensor<8x4096xf16>
  return %y : tensor<8x4096xf16>
}
