// Casts and erf through the default schedule (issue 24): graph.cast becomes
// kernel.unary cast, whose default block graph converts each tile with
// block.unary cast; --fuse-thread-chains leaves a converting cast a block
// op and fuses erf. Each lowered copy is proved equivalent to its original.
// RUN: mirage-opt %s --graph-to-kernel | FileCheck %s --check-prefix=KERNEL
// RUN: mirage-opt %s --graph-to-kernel --kernel-to-block | FileCheck %s --check-prefix=BLOCK
// RUN: mirage-opt %s --graph-to-kernel --kernel-to-block --fuse-thread-chains | FileCheck %s --check-prefix=FUSED
// RUN: mirage-opt %s --kernel-to-block --fuse-thread-chains | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV --implicit-check-not="error:"

// KERNEL-LABEL: func.func @mixed_mlp(
// KERNEL: kernel.unary cast %{{.*}} : tensor<8x64xf16> -> tensor<8x64xf32>
// KERNEL: kernel.unary cast %{{.*}} : tensor<64x32xbf16> -> tensor<64x32xf32>
// KERNEL: kernel.matmul %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
// KERNEL: kernel.unary erf %{{.*}} : tensor<8x32xf32>
// KERNEL: kernel.unary cast %{{.*}} : tensor<8x32xf32> -> tensor<8x32xf16>
// BLOCK-LABEL: func.func @mixed_mlp(
// BLOCK: block.unary cast %{{.*}} : !block.tile<{{.*}}xf16> -> !block.tile<{{.*}}xf32>
// BLOCK: block.unary cast %{{.*}} : !block.tile<{{.*}}xbf16> -> !block.tile<{{.*}}xf32>
// BLOCK: block.unary erf %{{.*}} : !block.tile<{{.*}}xf32>{{$}}
// BLOCK: block.unary cast %{{.*}} : !block.tile<{{.*}}xf32> -> !block.tile<{{.*}}xf16>
func.func @mixed_mlp(%x: tensor<8x64xf16>, %w: tensor<64x32xbf16>) -> tensor<8x32xf16> {
  %x32 = graph.cast %x : tensor<8x64xf16> -> tensor<8x64xf32>
  %w32 = graph.cast %w : tensor<64x32xbf16> -> tensor<64x32xf32>
  %y = graph.matmul %x32, %w32 : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %e = graph.erf %y : tensor<8x32xf32>
  %h = graph.cast %e : tensor<8x32xf32> -> tensor<8x32xf16>
  return %h : tensor<8x32xf16>
}

// EQUIV: remark: @mixed_mlp_k is equivalent to @mixed_mlp_ref: finite-field test:
func.func @mixed_mlp_ref(%x: tensor<8x64xf16>, %w: tensor<64x32xbf16>) -> tensor<8x32xf16> {
  %x32 = graph.cast %x : tensor<8x64xf16> -> tensor<8x64xf32>
  %w32 = graph.cast %w : tensor<64x32xbf16> -> tensor<64x32xf32>
  %y = graph.matmul %x32, %w32 : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %e = graph.erf %y : tensor<8x32xf32>
  %h = graph.cast %e : tensor<8x32xf32> -> tensor<8x32xf16>
  return %h : tensor<8x32xf16>
}
func.func @mixed_mlp_k(%x: tensor<8x64xf16>, %w: tensor<64x32xbf16>) -> tensor<8x32xf16>
    attributes {mirage.equivalent_to = @mixed_mlp_ref} {
  %x32 = kernel.unary cast %x : tensor<8x64xf16> -> tensor<8x64xf32>
  %w32 = kernel.unary cast %w : tensor<64x32xbf16> -> tensor<64x32xf32>
  %y = kernel.matmul %x32, %w32 : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %e = kernel.unary erf %y : tensor<8x32xf32>
  %h = kernel.unary cast %e : tensor<8x32xf32> -> tensor<8x32xf16>
  return %h : tensor<8x32xf16>
}

// bf16 <-> f16 both ways, and f32 to bf16.
// EQUIV: remark: @conversions_k is equivalent to @conversions_ref: finite-field test:
func.func @conversions_ref(%h: tensor<16x128xf16>, %b: tensor<16x128xbf16>, %f: tensor<16x128xf32>)
    -> (tensor<16x128xbf16>, tensor<16x128xf16>, tensor<16x128xbf16>) {
  %0 = graph.cast %h : tensor<16x128xf16> -> tensor<16x128xbf16>
  %1 = graph.cast %b : tensor<16x128xbf16> -> tensor<16x128xf16>
  %2 = graph.cast %f : tensor<16x128xf32> -> tensor<16x128xbf16>
  return %0, %1, %2 : tensor<16x128xbf16>, tensor<16x128xf16>, tensor<16x128xbf16>
}
func.func @conversions_k(%h: tensor<16x128xf16>, %b: tensor<16x128xbf16>, %f: tensor<16x128xf32>)
    -> (tensor<16x128xbf16>, tensor<16x128xf16>, tensor<16x128xbf16>)
    attributes {mirage.equivalent_to = @conversions_ref} {
  %0 = kernel.unary cast %h : tensor<16x128xf16> -> tensor<16x128xbf16>
  %1 = kernel.unary cast %b : tensor<16x128xbf16> -> tensor<16x128xf16>
  %2 = kernel.unary cast %f : tensor<16x128xf32> -> tensor<16x128xbf16>
  return %0, %1, %2 : tensor<16x128xbf16>, tensor<16x128xf16>, tensor<16x128xbf16>
}

// A chain erf -> scale -> cast to f16 in one block graph: erf and scale fuse
// into registers, the converting cast stays a block op after them.
// EQUIV: remark: @chain_blocks is equivalent to @chain_ref: finite-field test:
func.func @chain_ref(%x: tensor<16x64xf32>) -> tensor<16x64xf16> {
  %e = graph.erf %x : tensor<16x64xf32>
  %s = graph.scalar_mul %e, 0.5 : tensor<16x64xf32>
  %h = graph.cast %s : tensor<16x64xf32> -> tensor<16x64xf16>
  return %h : tensor<16x64xf16>
}
// FUSED-LABEL: func.func @chain_blocks(
// FUSED: thread.fused
// FUSED-NEXT: ^bb0(%{{.*}}: f32):
// FUSED-NEXT: thread.unary erf
// FUSED-NEXT: thread.unary scale
// FUSED-NEXT: thread.yield
// FUSED: block.unary cast %{{.*}} : !block.tile<8x64xf32> -> !block.tile<8x64xf16>
func.func @chain_blocks(%x: tensor<16x64xf32>) -> tensor<16x64xf16>
    attributes {mirage.equivalent_to = @chain_ref} {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %e = block.unary erf %t : !block.tile<8x64xf32>
    %s = block.unary scale %e params = [0.5] : !block.tile<8x64xf32>
    %h = block.unary cast %s : !block.tile<8x64xf32> -> !block.tile<8x64xf16>
    %c = block.accum sum %h : !block.tile<8x64xf16> -> !block.tile<8x64xf16>
    %o = block.output %c omap = <x: 0> : !block.tile<8x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}
