// Bad options of --joint-optimize: a located error and a failure, never a
// crash.
// RUN: not mirage-opt %s --joint-optimize="budget=0" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not mirage-opt %s --joint-optimize="alpha=0.5" 2>&1 | FileCheck %s --check-prefix=ALPHA
// RUN: not mirage-opt %s --joint-optimize="prefilter=0.5" 2>&1 | FileCheck %s --check-prefix=PREFILTER
// RUN: not mirage-opt %s --joint-optimize="mugraph-searches=0" 2>&1 | FileCheck %s --check-prefix=SEARCHES
// RUN: not mirage-opt %s --joint-optimize="state-budget=0" 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: not mirage-opt %s --joint-optimize="candidates=0" 2>&1 | FileCheck %s --check-prefix=CANDIDATES
// RUN: not mirage-opt %s --joint-optimize="max-subprogram-ops=21" 2>&1 | FileCheck %s --check-prefix=SUBOPS
// RUN: not mirage-opt %s --joint-optimize="time-budget=0" 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not mirage-opt %s --joint-optimize="target=sm_12" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mirage-opt %s --joint-optimize="function=nope" 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not mirage-opt %s --joint-optimize="rules=%t.missing" 2>&1 | FileCheck %s --check-prefix=MISSING

// BUDGET: error: joint-optimize: budget must be between 1 and
// ALPHA: error: joint-optimize: alpha must be between 1 and 10, got 0.5
// PREFILTER: error: joint-optimize: prefilter must be between 1 and 100, got 0.5
// SEARCHES: error: joint-optimize: mugraph-searches must be between 1 and
// STATES: error: joint-optimize: state-budget must be between 1 and
// CANDIDATES: error: joint-optimize: candidates must be between 1 and 64, got 0
// SUBOPS: error: joint-optimize: max-subprogram-ops must be between 1 and 20, got 21
// TIME: error: joint-optimize: time-budget must be a number of seconds > 0
// TARGET: error: joint-optimize:
// FUNC: error: joint-optimize: no function named 'nope'
// MISSING: error: {{.*}}missing

func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.relu %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
