// The composite block ops are in the search space (docs/Search.md,
// "Composite block ops"): an rms_norm is computed by block.rms_norm over a
// whole row in the tile, or over the for-loop by block.accum red_rms (sqrt of
// the mean of squares) and a division after the loop (Mirage's
// accum_red_ld_rms µGraph; see rms-norm-matmul.mlir). Here two RMS norms and
// the residual add between them fuse into one kernel of 7 block ops, which
// the fine-grained form (square, reduce, scale, sqrt, div per norm) could
// not reach within the 11-op limit. The result is verified before it is
// emitted and again against the default schedule.
//
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=off" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=off" -o - 2>/dev/null | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// REMARK: remark: superoptimize @residual_norms part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3;
// REMARK-NOT: budget reached
// REMARK-SAME: verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test: {{[0-9]+}} tests
// REMARK-SAME: false-positive bound 2^-{{[0-9.]+}}

// CHECK-LABEL: func.func @residual_norms
// CHECK: kernel.graph_def
// CHECK: block.rms_norm %{{.*}}, dim = 1
// CHECK: block.binary add
// CHECK: block.rms_norm %{{.*}}, dim = 1
// CHECK: block.accum sum
// CHECK: block.output
// CHECK-NOT: kernel.rms_norm
// CHECK: return

// VERIFY: remark: @residual_norms is equivalent to @reference: finite-field test

func.func @reference(%H: tensor<8x512xf16>, %X: tensor<8x512xf16>) -> tensor<8x512xf16> {
  %xn = kernel.rms_norm %X : tensor<8x512xf16>
  %u = kernel.binary add %H, %xn : (tensor<8x512xf16>, tensor<8x512xf16>) -> tensor<8x512xf16>
  %y = kernel.rms_norm %u : tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}

func.func @residual_norms(%H: tensor<8x512xf16>, %X: tensor<8x512xf16>) -> tensor<8x512xf16>
    attributes {mirage.equivalent_to = @reference} {
  %xn = graph.rms_norm %X : tensor<8x512xf16>
  %u = graph.add %H, %xn : (tensor<8x512xf16>, tensor<8x512xf16>) -> tensor<8x512xf16>
  %y = graph.rms_norm %u : tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}
