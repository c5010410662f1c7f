// RUN: mirage-opt %s --split-input-file --verify-diagnostics --estimate-cost="target=sm_90" -o /dev/null
// RUN: not mirage-opt %s --estimate-cost="target=sm_75" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mirage-opt %s --estimate-cost="target=sm_86" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET86
// RUN: not mirage-opt %s --estimate-cost="target=sm_89" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET89
// RUN: not mirage-opt %s --estimate-cost="target=sm_70" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN70
// A calibration that gives them makes the chip usable.
// RUN: echo '{"target": "sm_86", "constants": {"l2BandwidthGBs": 2000, "launchOverheadUs": 3}}' > %t.sm86.json
// RUN: not mirage-opt %s --split-input-file --estimate-cost="target=sm_86 calibration=%t.sm86.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CALIBRATED86
// RUN: echo '{"constants": {"dramBandwidthGBs": -1}}' > %t.negative.json
// RUN: not mirage-opt %s --estimate-cost="target=sm_90 calibration=%t.negative.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: echo '{"target": "sm_90", "constants": {"launch": 2}}' > %t.unknown.json
// RUN: not mirage-opt %s --estimate-cost="target=sm_90 calibration=%t.unknown.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mirage-opt %s --estimate-cost="target=sm_80 calibration=%mirage_src/bench/calibration/example-sm_90.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not mirage-opt %s --estimate-cost="target=sm_90 calibration=%t.missing.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// A chip of the target database without the cost model's own parameters
// is refused with what a calibration file must give.
// TARGET: error: estimate-cost: the cost model has no l2BandwidthGBs and launchOverheadUs for sm_75 (T4): nothing published has been checked for it; give l2BandwidthGBs and launchOverheadUs in a calibration file (docs/CostModel.md)
// The error names the module's location without printing the module.
// TARGET-NOT: note: see current operation
// TARGET-NOT: func.func
// TARGET86: error: estimate-cost: the cost model has no l2BandwidthGBs and launchOverheadUs for sm_86 (RTX-3090)
// UNKNOWN70: error: estimate-cost: unknown target 'sm_70'; known targets: sm_75 (T4), sm_80 (A100-SXM4-80GB),
// CALIBRATED86: error: estimate-cost: block graph needs 786432 bytes of shared memory per block; sm_86 allows 101376
// TARGET89: error: estimate-cost: the cost model has no l2BandwidthGBs and launchOverheadUs for sm_89 (RTX-4090)
// NEGATIVE: error: estimate-cost: {{.*}}negative.json: calibration: constant 'dramBandwidthGBs' must be positive, got -1
// UNKNOWN: error: estimate-cost: {{.*}}unknown.json: calibration: unknown constant 'launch'
// MISMATCH: error: estimate-cost: {{.*}}example-sm_90.json: calibration: the file is for 'sm_90', not for 'sm_80'
// MISSING: error: estimate-cost: calibration: cannot read '{{.*}}missing.json'

// A 256x512 f16 tile and its accumulator, which the code generator keeps
// in f32: 768 KiB of shared memory.
func.func @smem(%x: tensor<256x512xf16>) -> tensor<256x512xf16> {
  // expected-error@+1 {{estimate-cost: block graph needs 786432 bytes of shared memory per block; sm_90 allows 232448}}
  %y = kernel.graph_def (%x) grid = [1] forloop = 1
      : (tensor<256x512xf16>) -> tensor<256x512xf16> {
  ^bb0(%a: tensor<256x512xf16>):
    %t = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<256x512xf16> -> !block.tile<256x512xf16>
    %s = block.accum sum %t : !block.tile<256x512xf16> -> !block.tile<256x512xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<256x512xf16> -> tensor<256x512xf16>
    block.yield %o : tensor<256x512xf16>
  }
  return %y : tensor<256x512xf16>
}

// -----

// A fused chain over a 128x128 tile: 128 elements per thread at 128 threads,
// two live values each.
func.func @registers(%x: tensor<128x128xf16>) -> tensor<128x128xf16> {
  // expected-error@+1 {{estimate-cost: thread.fused chain needs about 288 registers per thread (128 threads per block); sm_90 allows 255}}
  %y = kernel.graph_def (%x) grid = [1] forloop = 1
      : (tensor<128x128xf16>) -> tensor<128x128xf16> {
  ^bb0(%a: tensor<128x128xf16>):
    %t = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<128x128xf16> -> !block.tile<128x128xf16>
    %e = thread.fused (%t) : (!block.tile<128x128xf16>) -> !block.tile<128x128xf16> {
    ^bb0(%v: f16):
      %r = thread.unary exp %v : f16
      thread.yield %r : f16
    }
    %s = block.accum sum %e : !block.tile<128x128xf16> -> !block.tile<128x128xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<128x128xf16> -> tensor<128x128xf16>
    block.yield %o : tensor<128x128xf16>
  }
  return %y : tensor<128x128xf16>
}

// -----

// Ops outside the kernel and graph dialects cannot be costed.
func.func @other(%x: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error@+1 {{estimate-cost: 'func.call' is not a kernel or graph op}}
  %y = func.call @other(%x) : (tensor<4xf16>) -> tensor<4xf16>
  return %y : tensor<4xf16>
}
