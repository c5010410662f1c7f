// Comparisons as thread.binary kinds and thread.select in a thread.fused
// chain, beside block.binary's comparison kinds; all print, parse and print
// again identically.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// relu-like clipping by a per-row threshold: x > t ? x : t.
// CHECK-LABEL: func @threshold
func.func @threshold(%X: tensor<16x64xf32>, %T: tensor<16x1xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %Y:2 = kernel.graph_def (%X, %T) grid = [2] forloop = 1
      : (tensor<16x64xf32>, tensor<16x1xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  ^bb0(%x: tensor<16x64xf32>, %t: tensor<16x1xf32>):
    %xt = block.input %x imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %tt = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<16x1xf32> -> !block.tile<8x1xf32>
    // CHECK: block.binary le %{{.*}}, %{{.*}} : (!block.tile<8x64xf32>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32>
    %le = block.binary le %xt, %tt : (!block.tile<8x64xf32>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32>
    // CHECK: thread.fused(%{{.*}}, %{{.*}}) : (!block.tile<8x64xf32>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32> {
    // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
    // CHECK-NEXT: %[[G:.*]] = thread.binary gt %[[A]], %[[B]] : f32
    // CHECK-NEXT: %[[S:.*]] = thread.select %[[G]], %[[A]], %[[B]] : f32
    // CHECK-NEXT: thread.yield %[[S]] : f32
    %q = thread.fused (%xt, %tt) : (!block.tile<8x64xf32>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %g = thread.binary gt %a, %b : f32
      %s = thread.select %g, %a, %b : f32
      thread.yield %s : f32
    }
    %acc = block.accum sum %q : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %acc2 = block.accum sum %le : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf32>
    %o2 = block.output %acc2 omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf32>
    block.yield %o, %o2 : tensor<16x64xf32>, tensor<16x64xf32>
  }
  return %Y#0, %Y#1 : tensor<16x64xf32>, tensor<16x64xf32>
}
