// A batch norm and ReLU as imported CNNs have them (sub, mul and add with
// three per-channel [C, 1, 1] operands, then relu) is one subprogram of 4
// elementwise ops, searched as one kernel. Its block-level enumeration must
// stay small: without a loop the accumulator is the last op and only on the
// goal, and the inputs read must cover the tensors the goal mentions
// (docs/Search.md, "Pruning"). It explored 4.59 M states before (about 9 s
// single-threaded); now about 13 k, and the same 23 block graphs. The
// bound of at most five digits fails on the old enumeration.
//
// RUN: mirage-opt %s --superoptimize="target=sm_90 threads=1 cache=off" -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t

// REMARK: remark: superoptimize @bn_relu part 0: 4 graph op(s) -> 1 kernel(s) (1 graph-defined), was 4
// REMARK-SAME: search: {{[0-9][0-9]?[0-9]?[0-9]?[0-9]?}} states explored, {{[0-9]+}} pruned, 23 block graphs
// REMARK-NOT: budget reached
// REMARK-SAME: verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test

// CHECK-LABEL: func.func @bn_relu
// CHECK-COUNT-1: kernel.graph_def
// CHECK-NOT: kernel.graph_def
// CHECK-NOT: kernel.binary
// CHECK-NOT: kernel.unary
// CHECK: return
func.func @bn_relu(%x: tensor<1x8x4x4xf32>, %m: tensor<8x1x1xf32>, %s: tensor<8x1x1xf32>, %b: tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32> {
  %0 = graph.sub %x, %m : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %1 = graph.mul %0, %s : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %2 = graph.add %1, %b : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %3 = graph.relu %2 : tensor<1x8x4x4xf32>
  return %3 : tensor<1x8x4x4xf32>
}
