// --graph-optimize with the shipped rules on TASO's example: two matmuls
// that share their input x become one matmul against the concatenated
// weights (folded before the run: W1 and W2 are weights), followed by one
// relu and a split. The remark names the rules, the estimated time on sm_90
// before and after, the search's counts and the verification.
// RUN: mirage-opt %s --graph-optimize 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// A state budget of one graph: nothing cheaper is reached, the function is
// kept, and the remark says the budget was reached.
// RUN: mirage-opt %s --graph-optimize="budget=1" 2>&1 | FileCheck %s --check-prefix=BUDGET

// REMARK: remark: graph-optimize @two_matmuls: 4 ops, 11.84 us -> 4 ops, 9.48 us on sm_90 (1.25x;
// REMARK-SAME: rewrite(s): r1332, r0511 (reversed); search: {{[0-9]+}} graphs visited
// REMARK-SAME: verified: finite-field test: 3 tests
// REMARK-SAME: false-positive bound 2^-

// CHECK-LABEL: func.func @two_matmuls(
// CHECK-SAME: %[[X:[^:]+]]: tensor<64x1024xf16>, %[[W1:[^:]+]]: tensor<1024x1024xf16> {mirage.weight}, %[[W2:[^:]+]]: tensor<1024x1024xf16> {mirage.weight})
// CHECK-NEXT: %[[W:.+]] = graph.concat(%[[W1]], %[[W2]]) dim = 1 : {{.*}} -> tensor<1024x2048xf16>
// CHECK-NEXT: %[[Y:.+]] = graph.matmul %[[X]], %[[W]] : {{.*}} -> tensor<64x2048xf16>
// CHECK-NEXT: %[[R:.+]] = graph.relu %[[Y]] : tensor<64x2048xf16>
// CHECK-NEXT: %[[S:.+]]:2 = graph.split %[[R]], dim = 1, sizes = [1024, 1024]
// CHECK-NEXT: return %[[S]]#0, %[[S]]#1

// BUDGET: remark: graph-optimize @two_matmuls: no cheaper graph found
// BUDGET-SAME: the budget of 1 graphs was reached
// BUDGET: graph.matmul
// BUDGET: graph.matmul

func.func @two_matmuls(%x: tensor<64x1024xf16>, %w1: tensor<1024x1024xf16> {mirage.weight}, %w2: tensor<1024x1024xf16> {mirage.weight}) -> (tensor<64x1024xf16>, tensor<64x1024xf16>) {
  %a = graph.matmul %x, %w1 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %b = graph.matmul %x, %w2 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %ra = graph.relu %a : tensor<64x1024xf16>
  %rb = graph.relu %b : tensor<64x1024xf16>
  return %ra, %rb : tensor<64x1024xf16>, tensor<64x1024xf16>
}
