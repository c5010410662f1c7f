// Bad options are errors at the module, before any search, without
// printing the module; unknown targets list the supported ones.
// RUN: mirage-opt %s -verify-diagnostics --superoptimize="target=sm_70 cache=off"
// RUN: not mirage-opt %s --superoptimize="target=sm_86 cache=off" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mirage-opt %s --superoptimize="field-bits=5" 2>&1 | FileCheck %s --check-prefix=FB-LOW
// RUN: not mirage-opt %s --superoptimize="field-bits=63" 2>&1 | FileCheck %s --check-prefix=FB-HIGH
// RUN: not mirage-opt %s --superoptimize="kernel-ops=0" 2>&1 | FileCheck %s --check-prefix=KOPS
// RUN: not mirage-opt %s --superoptimize="block-ops=2" 2>&1 | FileCheck %s --check-prefix=BOPS-LOW
// RUN: not mirage-opt %s --superoptimize="block-ops=33" 2>&1 | FileCheck %s --check-prefix=BOPS-HIGH
// RUN: not mirage-opt %s --superoptimize="grid-dims=0" 2>&1 | FileCheck %s --check-prefix=GRID-LOW
// RUN: not mirage-opt %s --superoptimize="grid-dims=4" 2>&1 | FileCheck %s --check-prefix=GRID-HIGH
// RUN: not mirage-opt %s --superoptimize="grid-sizes=4,0" 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: not mirage-opt %s --superoptimize="grid-sizes=-8" 2>&1 | FileCheck %s --check-prefix=SIZES-NEG
// RUN: not mirage-opt %s --superoptimize="forloop-ranges=0" 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: not mirage-opt %s --superoptimize="state-budget=0" 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: not mirage-opt %s --superoptimize="memory-budget=0" 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not mirage-opt %s --superoptimize="time-budget=0" 2>&1 | FileCheck %s --check-prefix=TIME-ZERO
// RUN: not mirage-opt %s --superoptimize="time-budget=-1" 2>&1 | FileCheck %s --check-prefix=TIME-NEG
// RUN: not mirage-opt %s --superoptimize="time-budget=inf" 2>&1 | FileCheck %s --check-prefix=TIME-INF
// RUN: not mirage-opt %s --superoptimize="time-budget=nan" 2>&1 | FileCheck %s --check-prefix=TIME-NAN
// RUN: not mirage-opt %s --superoptimize="threads=1025" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-opt %s --superoptimize="max-subprogram-ops=0" 2>&1 | FileCheck %s --check-prefix=SUB-LOW
// RUN: not mirage-opt %s --superoptimize="max-subprogram-ops=21" 2>&1 | FileCheck %s --check-prefix=SUB-HIGH
// RUN: not mirage-opt %s --superoptimize="cache=maybe" 2>&1 | FileCheck %s --check-prefix=CACHE
// RUN: not mirage-opt %s --superoptimize="calibration=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=CALIB
// RUN: not mirage-opt %s --superoptimize="preset=taso" 2>&1 | FileCheck %s --check-prefix=PRESET
// RUN: not mirage-opt %s --superoptimize="preset=mirage-limits block-ops=11" 2>&1 | FileCheck %s --check-prefix=PRESET-BOPS
// RUN: not mirage-opt %s --superoptimize="preset=mirage-limits forloop-ranges=8" 2>&1 | FileCheck %s --check-prefix=PRESET-LOOPS

// PRESET: error: superoptimize: preset must be default or mirage-limits, got 'taso'
// PRESET-BOPS: error: superoptimize: block-ops may not be given with preset=mirage-limits, which sets it
// PRESET-LOOPS: error: superoptimize: forloop-ranges may not be given with preset=mirage-limits, which sets it
// CHIP: error: superoptimize: the cost model has no l2BandwidthGBs and launchOverheadUs for sm_86 (RTX-3090)
// CHIP-NOT: note: see current operation
// CHIP-NOT: func.func
// FB-LOW: error: superoptimize: field-bits must be between 31 and 62, got 5
// FB-LOW-NOT: func.func
// FB-HIGH: error: superoptimize: field-bits must be between 31 and 62, got 63
// KOPS: error: superoptimize: kernel-ops must be between 1 and 64, got 0
// BOPS-LOW: error: superoptimize: block-ops must be between 3 and 32, got 2
// BOPS-HIGH: error: superoptimize: block-ops must be between 3 and 32, got 33
// GRID-LOW: error: superoptimize: grid-dims must be between 1 and 3, got 0
// GRID-HIGH: error: superoptimize: grid-dims must be between 1 and 3, got 4
// SIZES: error: superoptimize: grid-sizes must be positive, got 0
// SIZES-NEG: error: superoptimize: grid-sizes must be positive, got -8
// LOOPS: error: superoptimize: forloop-ranges must be positive, got 0
// STATES: error: superoptimize: state-budget must be between 1 and 18446744073709551615, got 0
// MEMORY: error: superoptimize: memory-budget must be between 1 and 1048576, got 0
// TIME-ZERO: error: superoptimize: time-budget must be a positive number of seconds, got 0{{$}}
// TIME-NEG: error: superoptimize: time-budget must be a positive number of seconds, got -1{{$}}
// TIME-INF: error: superoptimize: time-budget must be a positive number of seconds, got inf
// TIME-NAN: error: superoptimize: time-budget must be a positive number of seconds, got nan
// THREADS: error: superoptimize: threads must be between 0 and 1024, got 1025
// SUB-LOW: error: superoptimize: max-subprogram-ops must be between 1 and 20, got 0
// SUB-HIGH: error: superoptimize: max-subprogram-ops must be between 1 and 20, got 21
// CACHE: error: superoptimize: cache must be on, off, only, refresh or clear (or true/false), got 'maybe'
// CALIB: error: superoptimize: calibration: cannot read '{{.*}}missing.json'

// expected-error @+1 {{superoptimize: unknown target 'sm_70'; known targets: sm_75 (T4), sm_80 (A100-SXM4-80GB)}}
module {
  func.func @f(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
    %y = graph.exp %x : tensor<4x4xf16>
    return %y : tensor<4x4xf16>
  }
}
