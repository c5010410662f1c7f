// The kernel-level enumeration's options out of range are errors at the
// module, before any search, in every module of the input.
// RUN: mirage-opt %s -split-input-file -verify-diagnostics --superoptimize="kernel-graph-ops=9 cache=off"
// RUN: not mirage-opt %s -split-input-file --superoptimize="kernel-graph-states=0 cache=off" 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: not mirage-opt %s -split-input-file --superoptimize="formulations=0 cache=off" 2>&1 | FileCheck %s --check-prefix=FORMS-LOW
// RUN: not mirage-opt %s -split-input-file --superoptimize="formulations=65 cache=off" 2>&1 | FileCheck %s --check-prefix=FORMS-HIGH

// STATES: error: superoptimize: kernel-graph-states must be between 1 and 18446744073709551615, got 0
// STATES-NOT: func.func
// FORMS-LOW: error: superoptimize: formulations must be between 1 and 64, got 0
// FORMS-HIGH: error: superoptimize: formulations must be between 1 and 64, got 65

// expected-error @+1 {{superoptimize: kernel-graph-ops must be between 0 and 8, got 9}}
module {
  func.func @f(%x: tensor<4x8xf16>, %a: tensor<8x4xf16>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> {
    %ab = graph.matmul %a, %b : (tensor<8x4xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
    %y = graph.matmul %x, %ab : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
    return %y : tensor<4x8xf16>
  }
}

// -----

// expected-error @+1 {{superoptimize: kernel-graph-ops must be between 0 and 8, got 9}}
module {
  func.func @g(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
    %y = graph.exp %x : tensor<4x4xf16>
    return %y : tensor<4x4xf16>
  }
}
