// block.unary cast (issue 24) converts a tile between any two of f32, f16
// and bf16, its result type printed after the arrow; the other kinds keep
// the input's type or widen f16/bf16 to f32 only.
// RUN: mirage-opt %s -split-input-file | mirage-opt -split-input-file | FileCheck %s
// RUN: mirage-opt %s -split-input-file -mlir-print-op-generic | mirage-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @casts
func.func @casts(%A: tensor<16x64xf32>, %B: tensor<16x64xbf16>)
    -> (tensor<16x64xbf16>, tensor<16x64xf16>) {
  %Y:2 = kernel.graph_def (%A, %B) grid = [2] forloop = 1
      : (tensor<16x64xf32>, tensor<16x64xbf16>) -> (tensor<16x64xbf16>, tensor<16x64xf16>) {
  ^bb0(%a: tensor<16x64xf32>, %b: tensor<16x64xbf16>):
    %at = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %bt = block.input %b imap = <x: 0> fmap = <i: replicate> : tensor<16x64xbf16> -> !block.tile<8x64xbf16>
    // CHECK: block.unary cast %{{.*}} : !block.tile<8x64xf32> -> !block.tile<8x64xbf16>
    %c = block.unary cast %at : !block.tile<8x64xf32> -> !block.tile<8x64xbf16>
    // CHECK: block.unary cast %{{.*}} : !block.tile<8x64xbf16> -> !block.tile<8x64xf16>
    %h = block.unary cast %bt : !block.tile<8x64xbf16> -> !block.tile<8x64xf16>
    // CHECK: block.unary erf %{{.*}} : !block.tile<8x64xf16>{{$}}
    %e = block.unary erf %h : !block.tile<8x64xf16>
    %ac = block.accum sum %c : !block.tile<8x64xbf16> -> !block.tile<8x64xbf16>
    %ae = block.accum sum %e : !block.tile<8x64xf16> -> !block.tile<8x64xf16>
    %o1 = block.output %ac omap = <x: 0> : !block.tile<8x64xbf16> -> tensor<16x64xbf16>
    %o2 = block.output %ae omap = <x: 0> : !block.tile<8x64xf16> -> tensor<16x64xf16>
    block.yield %o1, %o2 : tensor<16x64xbf16>, tensor<16x64xf16>
  }
  return %Y#0, %Y#1 : tensor<16x64xbf16>, tensor<16x64xf16>
}
