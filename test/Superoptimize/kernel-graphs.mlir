// The kernel-level enumeration (docs/Search.md, "Kernel-level
// enumeration"): kernel graphs of predefined ops over the inputs and the
// intermediates made before, pruned by abstract expressions; each other
// formulation is searched like the program, and its µGraph is verified
// against the program as written.
//
// RUN: mirage-opt %s --superoptimize="cache=off threads=1" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 kernel-graph-ops=0" 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 kernel-graph-states=5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 formulations=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMS

// The naive merged LoRA X (A B) (rank 16) forms the 4096 x 256 update A B.
// (X A) B multiplies through the 16 x 16 intermediate X A instead, a
// tensor the program never names: one kernel at a lower estimate, verified
// against X (A B) in the floating-point checks, native dtype included.
// (%arg0 is A, %arg1 B, %arg2 X: the subprogram's inputs in order of use.)
// CHECK: remark: superoptimize @merged part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2;
// CHECK-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 1 other formulation(s) searched
// CHECK-SAME: 1 verified as cheaper; chosen: %t3 = matmul(%arg2,%arg0), %t4 = matmul(%t3,%arg1);
// CHECK-SAME: native dtypes: max error

// Three matmuls: four other formulations within three ops.
// CHECK: remark: superoptimize @chain part 0:
// CHECK-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 4 other formulation(s) searched

// A softmax is a kernel-graph op along the program's dimension: the
// subprogram is enumerated, and within three ops its only formulation is
// its own (kernel-graphs-softmax.mlir has more).
// CHECK: remark: superoptimize @attn part 0:
// CHECK-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 0 other formulation(s) searched
// CHECK-SAME: chosen: the program as written

// The IR follows the remarks: no A B anywhere in the merged LoRA's µGraph.
// CHECK-LABEL: func.func @merged
// CHECK-NOT: tensor<4096x256xf16>
// CHECK: kernel.graph_def
// CHECK-NOT: tensor<4096x256xf16>
// CHECK: return

// Off: the program as written only, with its own fused kernel, which reads
// the update A B as a product of tiles.
// OFF: remark: superoptimize @merged part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2;
// OFF-NOT: kernel level
// OFF: remark: superoptimize @chain part 0:
// OFF-NOT: kernel level

// STATES: remark: superoptimize @merged part 0:
// STATES-SAME: enumeration budget reached: the kernel-level enumeration stopped after 5 states (kernel-graph-states)
// STATES: remark: superoptimize @chain part 0:
// STATES-SAME: enumeration budget reached

// FORMS: remark: superoptimize @merged part 0:
// FORMS-NOT: formulation budget reached
// FORMS-SAME: kernel level
// FORMS: remark: superoptimize @chain part 0:
// FORMS-SAME: formulation budget reached: 2 other formulation(s) searched, more were found (formulations)
// FORMS-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 2 other formulation(s) searched

func.func @merged(%X: tensor<16x4096xf16>, %A: tensor<4096x16xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %ab = graph.matmul %A, %B : (tensor<4096x16xf16>, tensor<16x256xf16>) -> tensor<4096x256xf16>
  %y = graph.matmul %X, %ab : (tensor<16x4096xf16>, tensor<4096x256xf16>) -> tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}

func.func @chain(%X: tensor<8x256xf16>, %A: tensor<256x16xf16>, %B: tensor<16x128xf16>, %C: tensor<128x32xf16>) -> tensor<8x32xf16> {
  %xa = graph.matmul %X, %A : (tensor<8x256xf16>, tensor<256x16xf16>) -> tensor<8x16xf16>
  %xab = graph.matmul %xa, %B : (tensor<8x16xf16>, tensor<16x128xf16>) -> tensor<8x128xf16>
  %y = graph.matmul %xab, %C : (tensor<8x128xf16>, tensor<128x32xf16>) -> tensor<8x32xf16>
  return %y : tensor<8x32xf16>
}

func.func @attn(%X: tensor<8x64xf16>, %W: tensor<64x64xf16>) -> tensor<8x64xf16> {
  %a = graph.matmul %X, %W : (tensor<8x64xf16>, tensor<64x64xf16>) -> tensor<8x64xf16>
  %y = graph.softmax %a, dim = 1 : tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
