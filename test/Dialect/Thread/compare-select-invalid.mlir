// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @select_mixed_types(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%t) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%a: f16):
      %w = thread.unary exp %a : f16
      // expected-error @+1 {{'thread.select' op requires the same type for all operands and results}}
      %s = "thread.select"(%a, %w, %a) : (f16, f16, f16) -> f32
      thread.yield %a : f16
    }
    %c = block.accum sum %f : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %c omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @select_outside_fused(%a: f32) -> f32 {
  // expected-error @+1 {{'thread.select' op expects parent op 'thread.fused'}}
  %s = thread.select %a, %a, %a : f32
  return %s : f32
}
