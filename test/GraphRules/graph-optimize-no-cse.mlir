// --graph-optimize needs no --cse before it: reading the function merges
// identical graph ops (WorkGraph::fromFunction), so two matmuls that read
// the same input through two identical reshapes (as an importer writes
// them) share that input, and TASO's merge of the two matmuls applies.
// (Ops outside the rules' vocabulary are kept as they are, each its own
// value.)
// RUN: mirage-opt %s --graph-optimize 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// The two reshapes count as one op from the start.
// REMARK: remark: graph-optimize @reshaped_twice: 5 ops, {{[0-9.]+}} us -> 5 ops,
// REMARK-SAME: rewrite(s): r1332, r0511 (reversed)

// CHECK-LABEL: func.func @reshaped_twice(
// CHECK: graph.reshape
// CHECK-NOT: graph.reshape
// CHECK: graph.matmul
// CHECK-NOT: graph.matmul
// CHECK: return

func.func @reshaped_twice(%x0: tensor<64x8x128xf16>, %w1: tensor<1024x1024xf16> {mirage.weight}, %w2: tensor<1024x1024xf16> {mirage.weight}) -> (tensor<64x1024xf16>, tensor<64x1024xf16>) {
  %x1 = graph.reshape %x0 : tensor<64x8x128xf16> -> tensor<64x1024xf16>
  %x2 = graph.reshape %x0 : tensor<64x8x128xf16> -> tensor<64x1024xf16>
  %a = graph.matmul %x1, %w1 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %b = graph.matmul %x2, %w2 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %ra = graph.relu %a : tensor<64x1024xf16>
  %rb = graph.relu %b : tensor<64x1024xf16>
  return %ra, %rb : tensor<64x1024xf16>, tensor<64x1024xf16>
}
