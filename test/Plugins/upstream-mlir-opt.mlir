// Upstream mlir-opt (same LLVM) loads the dialect plugin to parse and verify
// the four dialects, and the pass plugin to run graph-to-kernel.
// RUN: %upstream_mlir_opt --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so %s | FileCheck %s --check-prefix=PARSE
// RUN: %upstream_mlir_opt --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so --load-pass-plugin=%mirage_libs/MiragePassPlugin.so --pass-pipeline='builtin.module(func.func(graph-to-kernel))' %s | FileCheck %s --check-prefix=LOWER
// The equivalence check runs there too (the lowered copy of @f against @f).
// RUN: %upstream_mlir_opt --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so --load-pass-plugin=%mirage_libs/MiragePassPlugin.so --pass-pipeline='builtin.module(verify-equivalence{original=f candidate=f_kernels})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV: remark: @f_kernels is equivalent to @f: finite-field test
// So does --print-mugraph-dot, with its options.
// RUN: %upstream_mlir_opt --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so --load-pass-plugin=%mirage_libs/MiragePassPlugin.so --pass-pipeline='builtin.module(print-mugraph-dot{function=custom})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOT
// DOT: digraph "custom" {
// DOT: subgraph cluster_k0 {
// DOT: label = "thread.fused\nt0 = relu(#0)\nyield t0\n8x64xf32"
// DOT-NOT: digraph
// Its verifier runs too: a broken block graph is rejected.
// RUN: not %upstream_mlir_opt --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so %S/Inputs/bad-omap.mlir 2>&1 | FileCheck %S/Inputs/bad-omap.mlir --check-prefix=VERIFY

// PARSE-LABEL: func @f
// PARSE: graph.rms_norm
// PARSE: graph.matmul
// LOWER-LABEL: func @f
// LOWER: kernel.rms_norm
// LOWER: kernel.matmul
func.func @f(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %0 = graph.rms_norm %x : tensor<8x64xf16>
  %1 = graph.matmul %0, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  return %1 : tensor<8x32xf16>
}

func.func @f_kernels(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %0 = kernel.rms_norm %x : tensor<8x64xf16>
  %1 = kernel.matmul %0, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  return %1 : tensor<8x32xf16>
}

// PARSE-LABEL: func @custom
// PARSE: kernel.graph_def
// PARSE: block.input
// PARSE: thread.fused
func.func @custom(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %y = kernel.graph_def (%x) grid = [2] forloop = 1 : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%t: tensor<16x64xf32>):
    %i = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %e = thread.fused (%i) : (!block.tile<8x64xf32>) -> !block.tile<8x64xf32> {
    ^bb0(%v: f32):
      %r = thread.unary relu %v : f32
      thread.yield %r : f32
    }
    %a = block.accum sum %e : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %o = block.output %a omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %y : tensor<16x64xf32>
}
