// Inputs --graph-saturate cannot hold in an e-graph: an error where the
// input is wrong, and the pass fails (checked under -verify-diagnostics,
// and once without it for the exit code).
// RUN: mirage-opt %s --split-input-file --verify-diagnostics --graph-saturate
// RUN: not mirage-opt %s --split-input-file --graph-saturate 2>/dev/null

func.func @not_graph(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{the graph search rewrites graph-dialect ops only}}
  %0 = arith.addf %x, %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// expected-error@+1 {{argument 0 is not a ranked tensor}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}
