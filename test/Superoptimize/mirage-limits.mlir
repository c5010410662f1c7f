// preset=mirage-limits: Mirage's search limits, counted as Mirage counts
// them (docs/Search.md, "Presets"): at most 5 kernel-graph ops with the
// inputs (2 here, so 3 kernels), one graph-defined kernel (so no split
// loop, which takes two), 9 block ops plus the output saver, for-loop
// ranges 4, 16 and 64. Mirage's RMSNorm + MatMul µGraph is inside them and
// found; the residual add below needs a second kernel, which is predefined.
//
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=off preset=mirage-limits" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir

// REMARK: remark: superoptimize @rms_norm_matmul part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2;
// REMARK-SAME: verified: on a reduced instance, {{[0-9]+}} of {{[0-9]+}} slices {{.*}}: finite-field test
// REMARK: remark: superoptimize @residual_rms_norm_matmul part 0: 3 graph op(s) -> 2 kernel(s) (1 graph-defined), was 3;
// REMARK-SAME: verified: on a reduced instance, {{[0-9]+}} of {{[0-9]+}} slices {{.*}}: finite-field test

// CHECK-LABEL: func.func @rms_norm_matmul
// CHECK: kernel.graph_def
// CHECK-SAME: forloop = {{4|16|64}}
// CHECK: block.matmul
// CHECK: block.accum red_rms
// CHECK: block.binary div
// CHECK-NOT: kernel.
// CHECK: return
// CHECK-LABEL: func.func @residual_rms_norm_matmul
// CHECK-COUNT-1: kernel.graph_def
// CHECK-NOT: kernel.graph_def
// CHECK: return

func.func @rms_norm_matmul(%X: tensor<16x4096xf16>, %W: tensor<4096x1024xf16>) -> tensor<16x1024xf16> {
  %n = graph.rms_norm %X : tensor<16x4096xf16>
  %y = graph.matmul %n, %W : (tensor<16x4096xf16>, tensor<4096x1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
}

func.func @residual_rms_norm_matmul(%x: tensor<16x1024xf16>, %r: tensor<16x1024xf16>, %W: tensor<1024x512xf16>) -> (tensor<16x1024xf16>, tensor<16x512xf16>) {
  %h = graph.add %x, %r : (tensor<16x1024xf16>, tensor<16x1024xf16>) -> tensor<16x1024xf16>
  %n = graph.rms_norm %h : tensor<16x1024xf16>
  %y = graph.matmul %n, %W : (tensor<16x1024xf16>, tensor<1024x512xf16>) -> tensor<16x512xf16>
  return %h, %y : tensor<16x1024xf16>, tensor<16x512xf16>
}
