// --block-to-gpu checks every kernel's memory plan against the shared
// memory a block of the chip may have (docs/GpuLowering.md, "Chips").
// 100 KiB of tiles fit a block of sm_80, sm_87, sm_90 and sm_100, not one of
// sm_86, sm_89 or sm_120 (99 KiB) or sm_75 (64 KiB).
// RUN: mirage-opt %s --block-to-gpu=target=sm_80 | FileCheck %s --check-prefix=FITS
// RUN: mirage-opt %s --block-to-gpu=target=sm_87 | FileCheck %s --check-prefix=FITS
// RUN: mirage-opt %s --block-to-gpu=target=sm_90 | FileCheck %s --check-prefix=FITS
// RUN: mirage-opt %s --block-to-gpu=target=sm_100 | FileCheck %s --check-prefix=FITS
// RUN: not mirage-opt %s --block-to-gpu=target=sm_86 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM86
// RUN: not mirage-opt %s --block-to-gpu=target=sm_89 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM89
// RUN: not mirage-opt %s --block-to-gpu=target=sm_120 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM120
// RUN: not mirage-opt %s --block-to-gpu=target=sm_75 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75


// Two 16x800 f32 tiles (the input and its accumulator): 102400 bytes.
// FITS: kernel.launch @mirage_kernels::@big_0(%{{.*}}) grid = [1, 1, 1] block = [128, 1, 1] dynamic_shared_memory = 102400
// SM86: error: 'kernel.graph_def' op needs 102400 bytes of shared memory per block; sm_86 gives a block at most 101376
// SM89: error: 'kernel.graph_def' op needs 102400 bytes of shared memory per block; sm_89 gives a block at most 101376
// SM120: error: 'kernel.graph_def' op needs 102400 bytes of shared memory per block; sm_120 gives a block at most 101376
// SM75: error: 'kernel.graph_def' op needs 102400 bytes of shared memory per block; sm_75 gives a block at most 65536
func.func @big(%A: tensor<16x800xf32>) -> tensor<16x800xf32> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x800xf32>) -> tensor<16x800xf32> {
  ^bb0(%a: tensor<16x800xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x800xf32> -> !block.tile<16x800xf32>
    %acc = block.accum sum %at : !block.tile<16x800xf32> -> !block.tile<16x800xf32>
    %o = block.output %acc omap = <x: replicate> : !block.tile<16x800xf32> -> tensor<16x800xf32>
    block.yield %o : tensor<16x800xf32>
  }
  return %Y : tensor<16x800xf32>
}
