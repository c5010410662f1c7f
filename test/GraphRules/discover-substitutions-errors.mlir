// Bad options of --discover-substitutions: a located error, a failure.
// RUN: not mirage-opt %s --discover-substitutions="max-ops=0" 2>&1 | FileCheck %s --check-prefix=OPS0
// RUN: not mirage-opt %s --discover-substitutions="max-ops=6" 2>&1 | FileCheck %s --check-prefix=OPS6
// RUN: not mirage-opt %s --discover-substitutions="inputs=0" 2>&1 | FileCheck %s --check-prefix=INPUTS
// RUN: not mirage-opt %s --discover-substitutions="time-budget=0" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not mirage-opt %s --discover-substitutions="proof-limit=0" 2>&1 | FileCheck %s --check-prefix=PROOF
// RUN: not mirage-opt %s --discover-substitutions="ops=matmul,frobnicate" 2>&1 | FileCheck %s --check-prefix=MENU
// RUN: not mirage-opt %s --discover-substitutions="sizes=matrix=1" 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not mirage-opt %s --discover-substitutions="sizes=depth=3" 2>&1 | FileCheck %s --check-prefix=SIZENAME

// OPS0: error: discover-substitutions: max-ops must be between 1 and 5, got 0
// OPS6: error: discover-substitutions: max-ops must be between 1 and 5, got 6
// INPUTS: error: discover-substitutions: inputs must be between 1 and 8, got 0
// BUDGET: error: discover-substitutions: time-budget must be a positive number of seconds
// PROOF: error: discover-substitutions: proof-limit and proof-timeout must be positive
// MENU: error: discover-substitutions: unknown op 'frobnicate' in the menu
// SIZE: error: discover-substitutions: fingerprint size 'matrix' must be between 2 and 8, got 1
// SIZENAME: error: discover-substitutions: sizes: unknown name 'depth' (matrix, batch, channels, spatial)
