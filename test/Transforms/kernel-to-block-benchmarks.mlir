// REQUIRES: slow
// Default block graphs of two benchmark programs at full size
// (bench/programs/rmsnorm_b1.mlir and gqa_b1.mlir). Each original is
// paired with its default schedule (what --graph-to-kernel makes of it),
// which --kernel-to-block rewrites and --verify-equivalence proves equal.
// RUN: mirage-opt %s --kernel-to-block | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV --implicit-check-not="error:"
// The shapes come from the benchmark files themselves, through the whole
// default pipeline; the cost model accepts every block graph.
// RUN: mirage-opt %mirage_src/bench/programs/rmsnorm_b1.mlir --graph-to-kernel --kernel-to-block | FileCheck %s --check-prefix=RMS
// RUN: mirage-opt %mirage_src/bench/programs/gqa_b1.mlir --graph-to-kernel --kernel-to-block | FileCheck %s --check-prefix=GQA
// RUN: mirage-opt %mirage_src/bench/programs/gqa_b1.mlir --graph-to-kernel --kernel-to-block | mirage-opt --estimate-cost=target=sm_80 -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST --implicit-check-not="error:"

// RMSNorm, b = 1: one block per row for the rms_norm; the matmul is
// Mirage's layout for this shape: 96 blocks of 64 columns, K in 16 steps
// of 256.
// RMS-LABEL: func.func @rmsnorm
// RMS: kernel.graph_def(%arg0) grid = [2] forloop = 1
// RMS: block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<2x4096xf16> -> !block.tile<1x4096xf16>
// RMS: kernel.graph_def(%{{.*}}, %arg1) grid = [96] forloop = 16
// RMS: block.input %{{.*}} imap = <x: replicate> fmap = <i: 1> : tensor<2x4096xf16> -> !block.tile<2x256xf16>
// RMS: block.input %{{.*}} imap = <x: 1> fmap = <i: 0> : tensor<4096x6144xf16> -> !block.tile<256x64xf16>
// RMS: block.accum sum %{{.*}} : !block.tile<2x64xf16>
// RMS-NOT: kernel.rms_norm
// RMS-NOT: kernel.matmul
// EQUIV: remark: @rmsnorm_k is equivalent to @rmsnorm: finite-field test:
func.func @rmsnorm(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = graph.rms_norm %X : tensor<2x4096xf16>
  %y = graph.matmul %n, %W : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
func.func @rmsnorm_k(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16>
    attributes {mirage.equivalent_to = @rmsnorm} {
  %n = kernel.rms_norm %X : tensor<2x4096xf16>
  %y = kernel.matmul %n, %W : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}

// GQA, b = 1: Q K in 64 x 64 tiles with K = 64 whole (512 blocks), softmax
// one row of 4096 per block, P V in 16 x 32 tiles walking 4096 in 16 steps
// (64 blocks: without split-K, the most this shape allows at 32 columns).
// GQA-LABEL: func.func @gqa
// GQA: kernel.graph_def(%arg0, %arg1) grid = [64, 4, 2] forloop = 1
// GQA: block.input %{{.*}} imap = <x: replicate, y: 1, z: 0> fmap = <i: replicate> : tensor<2x256x64xf16> -> !block.tile<1x64x64xf16>
// GQA: block.input %{{.*}} imap = <x: 2, y: replicate, z: 0> fmap = <i: replicate> : tensor<2x64x4096xf16> -> !block.tile<1x64x64xf16>
// GQA: kernel.graph_def(%{{.*}}) grid = [256, 2] forloop = 1
// GQA: block.reduce max %{{.*}}, dim = 2 : !block.tile<1x1x4096xf16> -> !block.tile<1x1x1xf16>
// GQA: kernel.graph_def(%{{.*}}, %arg2) grid = [2, 16, 2] forloop = 16
// GQA: block.input %{{.*}} imap = <x: replicate, y: 1, z: 0> fmap = <i: 2> : tensor<2x256x4096xf16> -> !block.tile<1x16x256xf16>
// GQA: block.input %{{.*}} imap = <x: 2, y: replicate, z: 0> fmap = <i: 1> : tensor<2x4096x64xf16> -> !block.tile<1x256x32xf16>
// COST-COUNT-3: remark: kernel.graph_def:
// COST: remark: @gqa:
// EQUIV: remark: @gqa_k is equivalent to @gqa: finite-field test: {{[0-9]+}} tests over
func.func @gqa(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %s = graph.matmul %Q, %K : (tensor<2x256x64xf16>, tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16>
  %p = graph.softmax %s, dim = 2 : tensor<2x256x4096xf16>
  %o = graph.matmul %p, %V : (tensor<2x256x4096xf16>, tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
  return %o : tensor<2x256x64xf16>
}
func.func @gqa_k(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
    attributes {mirage.equivalent_to = @gqa} {
  %s = kernel.matmul %Q, %K : (tensor<2x256x64xf16>, tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16>
  %p = kernel.softmax %s, dim = 2 : tensor<2x256x4096xf16>
  %o = kernel.matmul %p, %V : (tensor<2x256x4096xf16>, tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
  return %o : tensor<2x256x64xf16>
}
