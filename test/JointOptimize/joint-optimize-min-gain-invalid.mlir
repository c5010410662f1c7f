// min-gain is a fraction of the cost, at least 0 and below 1 (below 1, a
// lower bound outside a near-tie class keeps its verified cost outside
// it): other values are a located error at the module, and the pass fails.
// RUN: mirage-opt %s --joint-optimize="min-gain=-0.001" -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --joint-optimize="min-gain=1" -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --joint-optimize="min-gain=nan" -verify-diagnostics -o /dev/null

// expected-error @below {{joint-optimize: min-gain must be at least 0 and below 1 (a fraction of the cost), got}}
module {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = graph.relu %x : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
