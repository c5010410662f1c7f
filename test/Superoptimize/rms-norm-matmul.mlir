// The search finds Mirage's RMSNorm + MatMul µGraph (small shapes): one
// graph-defined kernel whose for-loop accumulates X W and, with the
// reduce-then-accumulate composite block.accum red_rms (Mirage's
// accum_red_ld_rms), sqrt(mean(X^2)), and divides after the loop. The result is re-checked against the default
// schedule, which the pass leaves alone (it has no graph ops). The grid sizes
// are limited so that a one-iteration kernel would overflow shared memory.
//
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=false forloop-ranges=16 grid-sizes=4,32" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=false forloop-ranges=16 grid-sizes=4,32" -o - 2>/dev/null | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// CHECK: remark: superoptimize @rms_norm_matmul part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2
// CHECK-SAME: states explored
// CHECK-SAME: verified: on a reduced instance, 64 of 1024 slices of result dimension 1; uniform in both programs ({{.*}}matmul columns of a shared left operand{{.*}}): finite-field test: {{[0-9]+}} tests
// CHECK-LABEL: func.func @rms_norm_matmul
// CHECK-SAME: mirage.equivalent_to = @reference
// CHECK: kernel.graph_def
// CHECK-SAME: grid = [4, 32] forloop = 16
// CHECK: block.input %{{.*}} imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<16x4096xf16> -> !block.tile<4x256xf16>
// CHECK: block.input %{{.*}} imap = <x: replicate, y: 1> fmap = <i: 0> : tensor<4096x1024xf16> -> !block.tile<256x32xf16>
// CHECK: block.matmul
// CHECK: block.accum red_rms %{{.*}}, dim = 1 : !block.tile<4x256xf16> -> !block.tile<4x1xf32>
// CHECK: block.accum sum
// The division runs once, after the loop, on the accumulated tiles.
// CHECK: block.binary div
// CHECK: block.output
// CHECK-NOT: kernel.
// CHECK: return

// VERIFY: remark: @rms_norm_matmul is equivalent to @reference: finite-field test

func.func @reference(%X: tensor<16x4096xf16>, %W: tensor<4096x1024xf16>) -> tensor<16x1024xf16> {
  %n = kernel.rms_norm %X : tensor<16x4096xf16>
  %y = kernel.matmul %n, %W : (tensor<16x4096xf16>, tensor<4096x1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

func.func @rms_norm_matmul(%X: tensor<16x4096xf16>, %W: tensor<4096x1024xf16>) -> tensor<16x1024xf16>
    attributes {mirage.equivalent_to = @reference} {
  %n = graph.rms_norm %X : tensor<16x4096xf16>
  %y = graph.matmul %n, %W : (tensor<16x4096xf16>, tensor<4096x1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}
