// The thread level computes in one type (docs/MicroGraphs.md): erf is a
// thread op like the others, a cast only its identity form; a converting
// cast stays a block op (--fuse-thread-chains keeps it out of a chain).
// RUN: mirage-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @erf_chain
func.func @erf_chain(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%x: tensor<16x64xf32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    %f = thread.fused (%t) : (!block.tile<16x64xf32>) -> !block.tile<16x64xf32> {
    ^bb0(%p: f32):
      // CHECK: thread.unary erf %{{.*}} : f32
      %e = thread.unary erf %p : f32
      // CHECK: thread.unary cast %{{.*}} : f32
      %c = thread.unary cast %e : f32
      thread.yield %c : f32
    }
    %a = block.accum sum %f : !block.tile<16x64xf32> -> !block.tile<16x64xf32>
    %o = block.output %a omap = <x: replicate> : !block.tile<16x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @converting_cast(%X: tensor<16x64xf32>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    %f = thread.fused (%t) : (!block.tile<16x64xf32>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f32):
      // expected-error @+1 {{'thread.unary' op requires the same type for all operands and results}}
      %c = "thread.unary"(%p) {kind = 13 : i32} : (f32) -> f16
      thread.yield %c : f16
    }
    %a = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: replicate> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}
