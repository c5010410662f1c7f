// --mirage-to-ptx checks its options when the pipeline is built, before any
// pass runs or any file is written: a chip outside the table
// (docs/GpuLowering.md, "Chips") is an error naming the supported chips,
// never an abort in LLVM (sm_70 and sm_75 aborted in instruction selection
// on cp.async before sm_75 was supported).
// RUN: rm -rf %t && mkdir -p %t
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_70 output=%t/out" 2>&1 | FileCheck %s --check-prefix=SM70
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_72 output=%t/out" 2>&1 | FileCheck %s --check-prefix=SM72
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_61 output=%t/out" 2>&1 | FileCheck %s --check-prefix=SM61
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_90a output=%t/out" 2>&1 | FileCheck %s --check-prefix=SM90A
// RUN: not mirage-opt %s --mirage-to-ptx="target=gfx90a output=%t/out" 2>&1 | FileCheck %s --check-prefix=GFX
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_86 output=%t/out search=true" 2>&1 | FileCheck %s --check-prefix=SEARCH
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_80" 2>&1 | FileCheck %s --check-prefix=OUTPUT
// RUN: not mirage-opt %s --mirage-to-ptx="output=%t/out threads=100" 2>&1 | FileCheck %s --check-prefix=THREADS100
// RUN: not mirage-opt %s --mirage-to-ptx="output=%t/out threads=0" 2>&1 | FileCheck %s --check-prefix=THREADS0
// RUN: not mirage-opt %s --mirage-to-ptx="output=%t/out threads=2048" 2>&1 | FileCheck %s --check-prefix=THREADS2048
// RUN: not mirage-opt %s --mirage-to-ptx="output=%t/out time-budget=0" 2>&1 | FileCheck %s --check-prefix=BUDGET0
// RUN: not mirage-opt %s --mirage-to-ptx="output=%t/out time-budget=-1" 2>&1 | FileCheck %s --check-prefix=BUDGETNEG
// RUN: not mirage-opt %s --mirage-to-ptx="output=%t/out time-budget=inf" 2>&1 | FileCheck %s --check-prefix=BUDGETINF
// RUN: not mirage-opt %s --mirage-to-ptx="output=%t/out time-budget=nan" 2>&1 | FileCheck %s --check-prefix=BUDGETNAN
// Nothing was written.
// RUN: ls %t | count 0

// SM70: error: mirage-to-ptx: chip 'sm_70' is not supported (Volta has neither cp.async nor mma.sync m16n8k8/m16n8k16, and ptxas of CUDA 13 no longer targets it); supported chips: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120
// SM72: error: mirage-to-ptx: chip 'sm_72' is not supported (Volta
// SM61: error: mirage-to-ptx: chip 'sm_61' is not supported (its limits are not in the lowering's chip table); supported chips: sm_75,
// SM90A: error: mirage-to-ptx: chip 'sm_90a' is not supported (the lowering uses no architecture- or family-specific instruction: name the chip without its suffix); supported chips:
// GFX: error: mirage-to-ptx: chip 'gfx90a' is not supported (not an NVIDIA chip name like sm_90); supported chips:
// SEARCH: error: mirage-to-ptx: search=true: the cost model has no l2BandwidthGBs and launchOverheadUs for sm_86 (RTX-3090): nothing published has been checked for it; give l2BandwidthGBs and launchOverheadUs in a calibration file (docs/CostModel.md); without search every supported chip works
// OUTPUT: error: mirage-to-ptx: output must name the path prefix of the .ptx, .cubin and .json files
// THREADS100: error: mirage-to-ptx: threads must be a multiple of 32 in [32, 1024], got 100
// THREADS0: error: mirage-to-ptx: threads must be a multiple of 32 in [32, 1024], got 0
// THREADS2048: error: mirage-to-ptx: threads must be a multiple of 32 in [32, 1024], got 2048
// BUDGET0: error: mirage-to-ptx: time-budget must be a finite number of seconds > 0, got 0
// BUDGETNEG: error: mirage-to-ptx: time-budget must be a finite number of seconds > 0, got -1
// BUDGETINF: error: mirage-to-ptx: time-budget must be a finite number of seconds > 0, got inf
// BUDGETNAN: error: mirage-to-ptx: time-budget must be a finite number of seconds > 0, got nan

func.func @f(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %y = graph.exp %x : tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}
