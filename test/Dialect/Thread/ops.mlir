// thread.fused and the thread ops print, parse and print again identically,
// in the custom and in the generic form.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// silu(x W1) * (x W2): the elementwise tail of GatedMLP fused in registers.
// CHECK-LABEL: func @gated_tail
func.func @gated_tail(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %Y = kernel.graph_def (%X, %W1, %W2) grid = [64] forloop = 64
      : (tensor<8x4096xf16>, tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  ^bb0(%x: tensor<8x4096xf16>, %w1: tensor<4096x4096xf16>, %w2: tensor<4096x4096xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<8x4096xf16> -> !block.tile<8x64xf16>
    %at = block.input %w1 imap = <x: 1> fmap = <i: 0> : tensor<4096x4096xf16> -> !block.tile<64x64xf16>
    %bt = block.input %w2 imap = <x: 1> fmap = <i: 0> : tensor<4096x4096xf16> -> !block.tile<64x64xf16>
    %m1 = block.matmul %xt, %at : (!block.tile<8x64xf16>, !block.tile<64x64xf16>) -> !block.tile<8x64xf16>
    %m2 = block.matmul %xt, %bt : (!block.tile<8x64xf16>, !block.tile<64x64xf16>) -> !block.tile<8x64xf16>
    %a1 = block.accum sum %m1 : !block.tile<8x64xf16> -> !block.tile<8x64xf16>
    %a2 = block.accum sum %m2 : !block.tile<8x64xf16> -> !block.tile<8x64xf16>
    // CHECK: thread.fused(%{{.*}}, %{{.*}}) : (!block.tile<8x64xf16>, !block.tile<8x64xf16>) -> (!block.tile<8x64xf16>, !block.tile<8x64xf16>) {
    // CHECK-NEXT: ^bb0(%[[P:.*]]: f16, %[[Q:.*]]: f16):
    // CHECK-NEXT: %[[S:.*]] = thread.unary silu %[[P]] : f16
    // CHECK-NEXT: %[[M:.*]] = thread.binary mul %[[S]], %[[Q]] : f16
    // CHECK-NEXT: %[[C:.*]] = thread.unary clamp %[[M]] params = [-6.550400e+04, 6.550400e+04] : f16
    // CHECK-NEXT: thread.yield %[[M]], %[[C]] : f16, f16
    %g:2 = thread.fused (%a1, %a2) : (!block.tile<8x64xf16>, !block.tile<8x64xf16>) -> (!block.tile<8x64xf16>, !block.tile<8x64xf16>) {
    ^bb0(%p: f16, %q: f16):
      %s = thread.unary silu %p : f16
      %m = thread.binary mul %s, %q : f16
      %c = thread.unary clamp %m params = [-65504.0, 65504.0] : f16
      thread.yield %m, %c : f16, f16
    }
    %o = block.output %g#0 omap = <x: 1> : !block.tile<8x64xf16> -> tensor<8x4096xf16>
    block.yield %o : tensor<8x4096xf16>
  }
  return %Y : tensor<8x4096xf16>
}

// Broadcasting inputs: a row scale applied to a tile.
// CHECK-LABEL: func @broadcast_inputs
func.func @broadcast_inputs(%X: tensor<16x64xf32>, %R: tensor<16x1xf32>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%X, %R) grid = [2] forloop = 1
      : (tensor<16x64xf32>, tensor<16x1xf32>) -> tensor<16x64xf32> {
  ^bb0(%x: tensor<16x64xf32>, %r: tensor<16x1xf32>):
    %xt = block.input %x imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %rt = block.input %r imap = <x: 0> fmap = <i: replicate> : tensor<16x1xf32> -> !block.tile<8x1xf32>
    // CHECK: thread.fused(%{{.*}}, %{{.*}}) : (!block.tile<8x64xf32>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32>
    %q = thread.fused (%xt, %rt) : (!block.tile<8x64xf32>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = thread.binary div %a, %b : f32
      thread.yield %d : f32
    }
    %acc = block.accum sum %q : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}
