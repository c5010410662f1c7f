// Inputs --joint-optimize cannot take: the error is at the op, the pass
// fails, nothing crashes.
// RUN: mirage-opt %s -split-input-file --joint-optimize -verify-diagnostics -o /dev/null

func.func @mixed(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{the graph search rewrites graph-dialect ops only}}
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %0 = graph.add %x, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// expected-error @below {{argument 0 is not a ranked tensor}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}
