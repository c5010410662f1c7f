// GatedMLP: the search puts both matmuls and silu(.) * (.) in one kernel
// (Mirage's best µGraph). At this small size the whole reduction fits one
// iteration, so one accumulator after silu * mul suffices.
//
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=false target=sm_80 forloop-ranges=4 grid-sizes=8,16" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=false target=sm_80 forloop-ranges=4 grid-sizes=8,16" -o - 2>/dev/null | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// CHECK: remark: superoptimize @gated_mlp part 0: 4 graph op(s) -> 1 kernel(s) (1 graph-defined), was 4
// CHECK: kernel.graph_def
// CHECK-COUNT-2: block.matmul
// CHECK: thread.fused
// CHECK: thread.unary silu
// CHECK: thread.binary mul
// CHECK: block.accum sum
// CHECK: block.output
// CHECK-NOT: kernel.
// CHECK: return

// VERIFY: remark: @gated_mlp is equivalent to @reference: finite-field test

func.func @reference(%X: tensor<8x512xf16>, %W1: tensor<512x512xf16>, %W2: tensor<512x512xf16>) -> tensor<8x512xf16> {
  %a = kernel.matmul %X, %W1 : (tensor<8x512xf16>, tensor<512x512xf16>) -> tensor<8x512xf16>
  %b = kernel.matmul %X, %W2 : (tensor<8x512xf16>, tensor<512x512xf16>) -> tensor<8x512xf16>
  %s = kernel.unary silu %a : tensor<8x512xf16>
  %y = kernel.binary mul %s, %b : (tensor<8x512xf16>, tensor<8x512xf16>) -> tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}

func.func @gated_mlp(%X: tensor<8x512xf16>, %W1: tensor<512x512xf16>, %W2: tensor<512x512xf16>) -> tensor<8x512xf16>
    attributes {mirage.equivalent_to = @reference} {
  %a = graph.matmul %X, %W1 : (tensor<8x512xf16>, tensor<512x512xf16>) -> tensor<8x512xf16>
  %b = graph.matmul %X, %W2 : (tensor<8x512xf16>, tensor<512x512xf16>) -> tensor<8x512xf16>
  %s = graph.silu %a : tensor<8x512xf16>
  %y = graph.mul %s, %b : (tensor<8x512xf16>, tensor<8x512xf16>) -> tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}
