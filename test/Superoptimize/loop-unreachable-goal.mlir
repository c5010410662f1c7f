// x + sum_j (x_i - y_j) (a broadcast sub, a reduce_sum and an add) cannot
// be the result of a for-loop over j: every tile after the loop is built
// from accumulators, which sum over j, and the lone x is not such a sum
// (AbstractExpr.h, computableAfterLoop). That task used to be enumerated at
// every size up to block-ops and spent the whole 10 M-state budget (112 s)
// for nothing; now it is skipped and the search is complete, with the same
// 15 block graphs. The bound of at most five digits fails on the old search.
//
// RUN: mirage-opt %s --superoptimize="target=sm_90 threads=1 cache=off" -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t

// REMARK: remark: superoptimize @f part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3
// REMARK-SAME: search: {{[0-9][0-9]?[0-9]?[0-9]?[0-9]?}} states explored, {{[0-9]+}} pruned, 15 block graphs
// REMARK-NOT: budget reached
// REMARK-SAME: verified:

// CHECK-LABEL: func.func @f
// CHECK-COUNT-1: kernel.graph_def
// CHECK-NOT: kernel.graph_def
// CHECK: return
func.func @f(%x: tensor<96x1xf32>, %y: tensor<1x17xf32>) -> tensor<96x1xf32> {
  %0 = graph.sub %x, %y : (tensor<96x1xf32>, tensor<1x17xf32>) -> tensor<96x17xf32>
  %1 = graph.reduce_sum %0, dim = 1 : tensor<96x17xf32> -> tensor<96x1xf32>
  %2 = graph.add %1, %x : (tensor<96x1xf32>, tensor<96x1xf32>) -> tensor<96x1xf32>
  return %2 : tensor<96x1xf32>
}
