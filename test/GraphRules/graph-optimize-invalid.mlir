// A function with an op outside the graph dialect: --graph-optimize and
// --apply-substitutions report it at the op and fail, never crash.
// RUN: mirage-opt %s --graph-optimize -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --apply-substitutions -verify-diagnostics -o /dev/null

func.func @mixed(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{the graph search rewrites graph-dialect ops only}}
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %0 = graph.add %x, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
