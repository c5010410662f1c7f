// --joint-optimize on a LoRA adapter followed by an activation,
// silu(X W + (X A) B), W, A and B weights. Alone, the rules' search folds
// the adapter into the weights, X (W + A B), but runs silu as a second
// kernel; alone, the µGraph search fuses the whole program into one kernel
// that still computes three matmuls. Ranked by what the µGraph search makes
// of each graph, the joint search keeps the rewrite (its ops on weights are
// folded before the run) and fuses the one matmul left with the silu: one
// graph-defined kernel, cheaper than either search alone.
// RUN: mirage-opt %s --joint-optimize="weights-from=1 threads=1" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// The same with one µGraph search allowed: only the input is costed, and
// the result is the µGraph-only one; the remark says the budget was reached.
// RUN: mirage-opt %s --joint-optimize="weights-from=1 threads=1 mugraph-searches=1" 2>&1 -o /dev/null | FileCheck %s --check-prefix=ONE
// Deterministic: the same program whatever the µGraph search's threads.
// RUN: mirage-opt %s --joint-optimize="weights-from=1 threads=1" -o %t.1 2>/dev/null
// RUN: mirage-opt %s --joint-optimize="weights-from=1 threads=2" -o %t.2 2>/dev/null
// RUN: diff %t.1 %t.2

// REMARK: remark: joint-optimize @lora_silu on sm_90: default 12.54 us; graph-only 5.02 us; µGraph-only 2.64 us; joint 2.58 us in 1 kernel(s), 1 graph-defined
// REMARK-SAME: 2 rewrite(s): r1305, r1331 (reversed);
// REMARK-SAME: µGraph searches: {{[0-9]+}} of 64 allowed
// The input's segment is searched verifying; the other graphs are ranked
// by unverified µGraph costs, and the rewritten graph's segment is searched
// again, verifying, before the choice.
// REMARK-SAME: 2 verifying search(es): the input's segments, then those of 1 other graph(s) costed unverified
// REMARK-SAME: verified: the µGraphs of its 1 segment(s) each against the segment's ops by the µGraph search
// REMARK-SAME: the rewritten graph against the input: finite-field test
// REMARK-SAME: false-positive bound 2^-

// The ops on weights only first (predefined kernels, folded before the
// run), then one graph-defined kernel: the matmul and the silu.
// CHECK-LABEL: func.func @lora_silu(
// CHECK-SAME: %[[X:[^:]+]]: tensor<16x64xf16>, %[[W:[^:]+]]: tensor<64x256xf16>, %[[A:[^:]+]]: tensor<64x8xf16>, %[[B:[^:]+]]: tensor<8x256xf16>)
// CHECK-NEXT: %[[AB:.+]] = kernel.matmul %[[A]], %[[B]]
// CHECK-NEXT: %[[WS:.+]] = kernel.binary add %[[W]], %[[AB]]
// CHECK-NEXT: %[[Y:.+]] = kernel.graph_def(%[[X]], %[[WS]])
// CHECK: block.matmul
// CHECK: silu
// CHECK: return %[[Y]]
// CHECK-NOT: kernel.

// ONE: remark: joint-optimize @lora_silu on sm_90: default 12.54 us; graph-only 5.02 us; µGraph-only 2.64 us; joint 2.64 us
// ONE-SAME: 0 rewrite(s);
// ONE-SAME: µGraph searches: 1 of 1 allowed
// ONE-SAME: the budget of µGraph searches was reached
// ONE-SAME: 1 verifying search(es): the input's segments, then those of 0 other graph(s)
// ONE-SAME: verified: the µGraphs of its 1 segment(s) each against the segment's ops by the µGraph search, as --superoptimize verifies them; the graph is the input as written (no rewrite to check)

func.func @lora_silu(%X: tensor<16x64xf16>, %W: tensor<64x256xf16>, %A: tensor<64x8xf16>, %B: tensor<8x256xf16>) -> tensor<16x256xf16> {
  %xw = graph.matmul %X, %W : (tensor<16x64xf16>, tensor<64x256xf16>) -> tensor<16x256xf16>
  %xa = graph.matmul %X, %A : (tensor<16x64xf16>, tensor<64x8xf16>) -> tensor<16x8xf16>
  %xab = graph.matmul %xa, %B : (tensor<16x8xf16>, tensor<8x256xf16>) -> tensor<16x256xf16>
  %s = graph.add %xw, %xab : (tensor<16x256xf16>, tensor<16x256xf16>) -> tensor<16x256xf16>
  %y = graph.silu %s : tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}
