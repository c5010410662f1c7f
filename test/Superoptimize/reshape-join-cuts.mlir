// Size-1 reshapes join whole subprograms only (docs/Search.md, "Steps" 1):
// the grouping without them is made first, and a reshape then merges its
// producer's subprogram with its users' when the union fits
// `max-subprogram-ops` and the memory its verification needs at the least
// (what the finite-field test holds) fits `memory-budget`. So a join never
// moves a cut of the grouping without it.
//
// RUN: mirage-opt %s -split-input-file --superoptimize="cache=off threads=1 max-subprogram-ops=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: mirage-opt %s -split-input-file --superoptimize="cache=off threads=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: mirage-opt %s -split-input-file --superoptimize="cache=off threads=1 memory-budget=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEM

// A matmul, a reshape and three elementwise ops. Without the reshape the
// cap of 3 makes {matmul} and {add, relu, exp}; joining them would take 4
// ops, so the reshape stays with the matmul and the elementwise ops stay
// whole (taken in the walk, the reshape let the add and the relu join the
// matmul and cut the exp off alone).
// CAP: remark: superoptimize @cut part 0: 2 graph op(s)
// CAP: remark: superoptimize @cut part 1: 3 graph op(s)
// CAP-NOT: @cut part 2
// WIDE: remark: superoptimize @cut part 0: 5 graph op(s)
// WIDE-NOT: @cut part 1
func.func @cut(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> tensor<1x16x32xf32> {
  %m = graph.matmul %x, %w : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %r = graph.reshape %m : tensor<16x32xf32> -> tensor<1x16x32xf32>
  %a = graph.add %r, %b : (tensor<1x16x32xf32>, tensor<32xf32>) -> tensor<1x16x32xf32>
  %e = graph.relu %a : tensor<1x16x32xf32>
  %n = graph.exp %e : tensor<1x16x32xf32>
  return %n : tensor<1x16x32xf32>
}

// -----

// Two projections of one input, multiplied (a gated MLP's shape). Joined
// through their reshapes they read both 128 x 256 weights: the finite-field
// test needs at least 3 x 16 B x (2 x 32768 + 2048 read + 4096 for the
// largest result) = 3.28 MiB, over a budget of 2 MiB, so the second
// projection stays apart (1.97 MiB for the first with the multiply). With
// the default budget they are one.
// MEM: remark: superoptimize @gated part 0: 3 graph op(s)
// MEM: remark: superoptimize @gated part 1: 2 graph op(s)
// WIDE: remark: superoptimize @gated part 0: 5 graph op(s)
// WIDE-NOT: @gated part 1
func.func @gated(%x: tensor<1x16x128xf32>, %w1: tensor<128x256xf32>, %w2: tensor<128x256xf32>) -> tensor<1x16x256xf32> {
  %v = graph.reshape %x : tensor<1x16x128xf32> -> tensor<16x128xf32>
  %m1 = graph.matmul %v, %w1 : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32>
  %r1 = graph.reshape %m1 : tensor<16x256xf32> -> tensor<1x16x256xf32>
  %m2 = graph.matmul %v, %w2 : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32>
  %r2 = graph.reshape %m2 : tensor<16x256xf32> -> tensor<1x16x256xf32>
  %y = graph.mul %r1, %r2 : (tensor<1x16x256xf32>, tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
  return %y : tensor<1x16x256xf32>
}
