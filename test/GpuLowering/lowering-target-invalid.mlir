// RUN: mirage-opt %s --split-input-file --verify-diagnostics --block-to-gpu -o /dev/null
// One module is lowered for one chip (its kernels share @mirage_kernels and
// its #nvvm.target): functions searched for different targets need
// `target`, and then each one searched for another chip gets a warning.
// RUN: not mirage-opt %s --split-input-file --block-to-gpu=target=sm_80 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GIVEN

// GIVEN: warning: block-to-gpu: lowering for target 'sm_80', but the function was searched for 'sm_90'
// GIVEN-NOT: warning
// GIVEN: error: block-to-gpu: @mirage_kernels holds kernels for sm_90

// expected-error @+1 {{block-to-gpu: the functions were searched for different targets (@a: sm_80, @b: sm_90), and one module is lowered for one target: give `target`}}
module {
  func.func @a() attributes {mirage.target = "sm_80"} {
    return
  }
  func.func @b() attributes {mirage.target = "sm_90"} {
    return
  }
}

// -----

// A module whose kernel module holds kernels for another chip.
module {
  func.func @a(%x: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {mirage.target = "sm_80"} {
    %y = kernel.graph_def (%x) grid = [1] forloop = 1
        : (tensor<16x16xf32>) -> tensor<16x16xf32> {
    ^bb0(%a: tensor<16x16xf32>):
      %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x16xf32> -> !block.tile<16x16xf32>
      %acc = block.accum sum %at : !block.tile<16x16xf32> -> !block.tile<16x16xf32>
      %o = block.output %acc omap = <x: replicate> : !block.tile<16x16xf32> -> tensor<16x16xf32>
      block.yield %o : tensor<16x16xf32>
    }
    return %y : tensor<16x16xf32>
  }
  // expected-error @+1 {{block-to-gpu: @mirage_kernels holds kernels for sm_90; the new ones would be for sm_80}}
  gpu.module @mirage_kernels attributes {mirage.target = "sm_90"} {
  }
}
