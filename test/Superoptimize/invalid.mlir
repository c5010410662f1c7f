// Bad options are errors at the module, before any search.
// RUN: mirage-opt %s -verify-diagnostics --superoptimize="target=sm_70 cache=false"
// RUN: not mirage-opt %s --superoptimize="grid-dims=4 cache=false" 2>&1 | FileCheck %s --check-prefix=GRID

// GRID: error: superoptimize: grid-dims must be 1, 2 or 3

// expected-error @+1 {{superoptimize: unknown target 'sm_70'}}
module {
  func.func @f(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
    %y = graph.exp %x : tensor<4x4xf16>
    return %y : tensor<4x4xf16>
  }
}
