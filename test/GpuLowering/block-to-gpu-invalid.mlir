// RUN: mirage-opt %s --block-to-gpu -split-input-file -verify-diagnostics
// RUN: not mirage-opt %s --block-to-gpu="threads=100" 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: block-to-gpu: threads must be a multiple of 32 in [32, 1024], got 100

// More shared memory than any chip gives a block: four 128x256 f32 tiles
// (two inputs, their sum, the accumulator) = 512 KiB.
func.func @too_big(%A: tensor<128x256xf32>, %B: tensor<128x256xf32>) -> tensor<128x256xf32> {
  // expected-error @+1 {{'kernel.graph_def' op needs 524288 bytes of shared memory per block; at most 232448 can be given}}
  %Y = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<128x256xf32>, tensor<128x256xf32>) -> tensor<128x256xf32> {
  ^bb0(%a: tensor<128x256xf32>, %b: tensor<128x256xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<128x256xf32> -> !block.tile<128x256xf32>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<128x256xf32> -> !block.tile<128x256xf32>
    %s = block.binary add %at, %bt : (!block.tile<128x256xf32>, !block.tile<128x256xf32>) -> !block.tile<128x256xf32>
    %acc = block.accum sum %s : !block.tile<128x256xf32> -> !block.tile<128x256xf32>
    %o = block.output %acc omap = <x: replicate> : !block.tile<128x256xf32> -> tensor<128x256xf32>
    block.yield %o : tensor<128x256xf32>
  }
  return %Y : tensor<128x256xf32>
}

// -----

// A fused chain needs its scalar code from --thread-to-arith first.
func.func @unlowered_fused(%A: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %aa = block.accum sum %at : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%aa) : (!block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16):
      // expected-error @+1 {{'thread.unary' op has no scalar code yet: run --thread-to-arith before --block-to-gpu}}
      %e = thread.unary exp %p : f16
      thread.yield %e : f16
    }
    %o = block.output %f omap = <x: replicate> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}
