// RUN: mirage-opt %s --block-to-gpu -split-input-file -verify-diagnostics
// Option errors name the option and are located at the module, which is
// not dumped with them.
// RUN: not mirage-opt %s --block-to-gpu="threads=100" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-opt %s --block-to-gpu="threads=0" 2>&1 | FileCheck %s --check-prefix=THREADS0
// RUN: not mirage-opt %s --block-to-gpu="threads=2048" 2>&1 | FileCheck %s --check-prefix=THREADS2048
// RUN: not mirage-opt %s --block-to-gpu="target=sm_70" 2>&1 | FileCheck %s --check-prefix=CHIP
// THREADS: error: block-to-gpu: threads must be a multiple of 32 in [32, 1024], got 100
// THREADS-NOT: see current operation
// THREADS0: error: block-to-gpu: threads must be a multiple of 32 in [32, 1024], got 0
// THREADS2048: error: block-to-gpu: threads must be a multiple of 32 in [32, 1024], got 2048
// CHIP: error: block-to-gpu: chip 'sm_70' is not supported (Volta has neither cp.async nor mma.sync m16n8k8/m16n8k16, and ptxas of CUDA 13 no longer targets it); supported chips: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120
// CHIP-NOT: see current operation

// More shared memory than any chip gives a block: four 128x256 f32 tiles
// (two inputs, their sum, the accumulator) = 512 KiB.
func.func @too_big(%A: tensor<128x256xf32>, %B: tensor<128x256xf32>) -> tensor<128x256xf32> {
  // expected-error @+1 {{'kernel.graph_def' op needs 524288 bytes of shared memory per block; sm_90 gives a block at most 232448}}
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

// -----

// Grid y and z have at most 65535 blocks on every GPU.
func.func @grid_y(%A: tensor<16x70000xf32>) -> tensor<16x70000xf32> {
  // expected-error @+1 {{'kernel.graph_def' op has a grid [1, 70000] that no GPU launches: at most 2147483647 blocks along x and 65535 along y and z}}
  %Y = kernel.graph_def (%A) grid = [1, 70000] forloop = 1
      : (tensor<16x70000xf32>) -> tensor<16x70000xf32> {
  ^bb0(%a: tensor<16x70000xf32>):
    %at = block.input %a imap = <x: replicate, y: 1> fmap = <i: replicate> : tensor<16x70000xf32> -> !block.tile<16x1xf32>
    %acc = block.accum sum %at : !block.tile<16x1xf32> -> !block.tile<16x1xf32>
    %o = block.output %acc omap = <x: replicate, y: 1> : !block.tile<16x1xf32> -> tensor<16x70000xf32>
    block.yield %o : tensor<16x70000xf32>
  }
  return %Y : tensor<16x70000xf32>
}

// -----

// A tile's element count is bounded before any size is computed from it
// (2^40 f32 would overflow the byte count of the memory plan).
func.func @huge_tile(%A: tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32> {
  ^bb0(%a: tensor<1048576x1048576xf32>):
    // expected-error @+1 {{block.input tile [1048576, 1048576] has 1099511627776 elements, more than the limit of 232448 (the shared memory per block of sm_90, in bytes)}}
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<1048576x1048576xf32> -> !block.tile<1048576x1048576xf32>
    %acc = block.accum sum %at : !block.tile<1048576x1048576xf32> -> !block.tile<1048576x1048576xf32>
    %o = block.output %acc omap = <x: replicate> : !block.tile<1048576x1048576xf32> -> tensor<1048576x1048576xf32>
    block.yield %o : tensor<1048576x1048576xf32>
  }
  return %Y : tensor<1048576x1048576xf32>
}
