// Every block op, the tile type and the map attributes print, parse and
// print again identically, in the custom and in the generic form.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: func @all_block_ops
func.func @all_block_ops(%A: tensor<64x256xf16>, %B: tensor<256x128xf16>, %C: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %Y = kernel.graph_def (%A, %B, %C) grid = [2, 4] forloop = 4
      : (tensor<64x256xf16>, tensor<256x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16> {
  ^bb0(%a: tensor<64x256xf16>, %b: tensor<256x128xf16>, %c: tensor<64x128xf16>):
    // CHECK: block.input %{{.*}} imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<64x256xf16> -> !block.tile<32x64xf16>
    %at = block.input %a imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<64x256xf16> -> !block.tile<32x64xf16>
    // CHECK: block.input %{{.*}} imap = <x: replicate, y: 1> fmap = <i: 0> : tensor<256x128xf16> -> !block.tile<64x32xf16>
    %bt = block.input %b imap = <x: replicate, y: 1> fmap = <i: 0> : tensor<256x128xf16> -> !block.tile<64x32xf16>
    // CHECK: block.input %{{.*}} imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<64x128xf16> -> !block.tile<32x32xf16>
    %ct = block.input %c imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<64x128xf16> -> !block.tile<32x32xf16>
    // CHECK: block.matmul %{{.*}}, %{{.*}} : (!block.tile<32x64xf16>, !block.tile<64x32xf16>) -> !block.tile<32x32xf16>
    %mm = block.matmul %at, %bt : (!block.tile<32x64xf16>, !block.tile<64x32xf16>) -> !block.tile<32x32xf16>
    // CHECK: block.unary silu %{{.*}} : !block.tile<32x32xf16>
    %s = block.unary silu %mm : !block.tile<32x32xf16>
    // CHECK: block.unary clamp %{{.*}} params = [-1.000000e+00, 1.000000e+00] : !block.tile<32x32xf16>
    %cl = block.unary clamp %s params = [-1.0, 1.0] : !block.tile<32x32xf16>
    // CHECK: block.binary mul %{{.*}}, %{{.*}} : (!block.tile<32x32xf16>, !block.tile<32x32xf16>) -> !block.tile<32x32xf16>
    %p = block.binary mul %cl, %ct : (!block.tile<32x32xf16>, !block.tile<32x32xf16>) -> !block.tile<32x32xf16>
    // CHECK: block.reduce sum %{{.*}}, dim = 1 : !block.tile<32x32xf16> -> !block.tile<32x1xf16>
    %r = block.reduce sum %p, dim = 1 : !block.tile<32x32xf16> -> !block.tile<32x1xf16>
    // CHECK: block.concat(%{{.*}}, %{{.*}}) dim = 1 : (!block.tile<32x32xf16>, !block.tile<32x1xf16>) -> !block.tile<32x33xf16>
    %cat = block.concat(%p, %r) dim = 1 : (!block.tile<32x32xf16>, !block.tile<32x1xf16>) -> !block.tile<32x33xf16>
    // CHECK: block.slice %{{.*}}, offsets = [8, 16], sizes = [16, 8] : !block.tile<32x33xf16> -> !block.tile<16x8xf16>
    %box = block.slice %cat, offsets = [8, 16], sizes = [16, 8] : !block.tile<32x33xf16> -> !block.tile<16x8xf16>
    // CHECK: block.accum sum %{{.*}} : !block.tile<32x32xf16> -> !block.tile<32x32xf16>
    %acc = block.accum sum %p : !block.tile<32x32xf16> -> !block.tile<32x32xf16>
    // CHECK: block.accum max %{{.*}} : !block.tile<32x1xf16> -> !block.tile<32x1xf16>
    %mx = block.accum max %r : !block.tile<32x1xf16> -> !block.tile<32x1xf16>
    // CHECK: block.accum concat %{{.*}}, dim = 1 : !block.tile<32x33xf16> -> !block.tile<32x132xf16>
    %all = block.accum concat %cat, dim = 1 : !block.tile<32x33xf16> -> !block.tile<32x132xf16>
    // Post-loop ops run once per block.
    // CHECK: block.binary sub %{{.*}}, %{{.*}} : (!block.tile<32x32xf16>, !block.tile<32x1xf16>) -> !block.tile<32x32xf16>
    %d = block.binary sub %acc, %mx : (!block.tile<32x32xf16>, !block.tile<32x1xf16>) -> !block.tile<32x32xf16>
    // CHECK: block.output %{{.*}} omap = <x: 0, y: 1> : !block.tile<32x32xf16> -> tensor<64x128xf16>
    %o = block.output %d omap = <x: 0, y: 1> : !block.tile<32x32xf16> -> tensor<64x128xf16>
    // CHECK: block.yield %{{.*}} : tensor<64x128xf16>
    block.yield %o : tensor<64x128xf16>
  }
  return %Y : tensor<64x128xf16>
}

// Attributes and types also stand alone.
// CHECK-LABEL: func @attrs
// CHECK-SAME: fmap = #block.loop_map<i: replicate>
// CHECK-SAME: imap = #block.grid_map<x: replicate, y: 0, z: 2>
// CHECK-SAME: !block.tile<1x2x3xbf16>
func.func @attrs() attributes {imap = #block.grid_map<x: replicate, y: 0, z: 2>,
                               fmap = #block.loop_map<i: replicate>,
                               tile = !block.tile<1x2x3xbf16>} {
  return
}

// f16 data accumulated in f32: a widening matmul, reduce and accumulator,
// and an f32 tile saved into an f16 tensor.
// CHECK-LABEL: func @f32_accumulators
func.func @f32_accumulators(%A: tensor<16x256xf16>, %B: tensor<256x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A, %B) grid = [2] forloop = 4
      : (tensor<16x256xf16>, tensor<256x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x256xf16>, %b: tensor<256x64xf16>):
    %at = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<16x256xf16> -> !block.tile<8x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: 0> : tensor<256x64xf16> -> !block.tile<64x64xf16>
    // CHECK: block.matmul %{{.*}}, %{{.*}} : (!block.tile<8x64xf16>, !block.tile<64x64xf16>) -> !block.tile<8x64xf32>
    %mm = block.matmul %at, %bt : (!block.tile<8x64xf16>, !block.tile<64x64xf16>) -> !block.tile<8x64xf32>
    // CHECK: block.reduce sum %{{.*}}, dim = 1 : !block.tile<8x64xf16> -> !block.tile<8x1xf32>
    %r = block.reduce sum %at, dim = 1 : !block.tile<8x64xf16> -> !block.tile<8x1xf32>
    // An f16 tile combined with an f32 one is widened.
    // CHECK: block.binary mul %{{.*}}, %{{.*}} : (!block.tile<8x64xf16>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32>
    %w = block.binary mul %at, %r : (!block.tile<8x64xf16>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32>
    // A value the original never rounds to f16 is computed and kept in f32:
    // a widening unary op (its result type printed) and a binary op on two
    // f16 tiles with an f32 result.
    // CHECK: block.unary square %{{.*}} : !block.tile<8x64xf16> -> !block.tile<8x64xf32>
    %sq = block.unary square %at : !block.tile<8x64xf16> -> !block.tile<8x64xf32>
    // CHECK: block.unary exp %{{.*}} : !block.tile<8x64xf16>{{$}}
    %ex = block.unary exp %at : !block.tile<8x64xf16>
    // CHECK: block.binary sub %{{.*}}, %{{.*}} : (!block.tile<8x64xf16>, !block.tile<8x64xf16>) -> !block.tile<8x64xf32>
    %df = block.binary sub %at, %ex : (!block.tile<8x64xf16>, !block.tile<8x64xf16>) -> !block.tile<8x64xf32>
    %sq2 = block.binary add %sq, %df : (!block.tile<8x64xf32>, !block.tile<8x64xf32>) -> !block.tile<8x64xf32>
    %w2 = block.binary add %w, %sq2 : (!block.tile<8x64xf32>, !block.tile<8x64xf32>) -> !block.tile<8x64xf32>
    // CHECK: block.accum sum %{{.*}} : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %acc = block.accum sum %mm : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    // CHECK: block.accum sum %{{.*}} : !block.tile<8x1xf32> -> !block.tile<8x1xf32>
    %racc = block.accum sum %r : !block.tile<8x1xf32> -> !block.tile<8x1xf32>
    %wacc = block.accum sum %w2 : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %q0 = block.binary div %acc, %racc : (!block.tile<8x64xf32>, !block.tile<8x1xf32>) -> !block.tile<8x64xf32>
    %q = block.binary add %q0, %wacc : (!block.tile<8x64xf32>, !block.tile<8x64xf32>) -> !block.tile<8x64xf32>
    // CHECK: block.output %{{.*}} omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf16>
    %o = block.output %q omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// CHECK-LABEL: func @widening_accumulator
func.func @widening_accumulator(%A: tensor<16x256xbf16>) -> tensor<16x64xbf16> {
  %Y = kernel.graph_def (%A) grid = [2] forloop = 4
      : (tensor<16x256xbf16>) -> tensor<16x64xbf16> {
  ^bb0(%a: tensor<16x256xbf16>):
    %at = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<16x256xbf16> -> !block.tile<8x64xbf16>
    // CHECK: block.accum sum %{{.*}} : !block.tile<8x64xbf16> -> !block.tile<8x64xf32>
    %acc = block.accum sum %at : !block.tile<8x64xbf16> -> !block.tile<8x64xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xbf16>
    block.yield %o : tensor<16x64xbf16>
  }
  return %Y : tensor<16x64xbf16>
}

// The online softmax, its merge and reshape.
// CHECK-LABEL: func @online_softmax
func.func @online_softmax(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x256xf16>, %V: tensor<2x256x32xf16>) -> (tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>) {
  %P, %S = kernel.graph_def (%Q, %K, %V) grid = [2, 2, 2] forloop = 2 : (tensor<2x64x32xf16>, tensor<2x32x256xf16>, tensor<2x256x32xf16>) -> (tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>) {
  ^bb0(%q: tensor<2x64x32xf16>, %k: tensor<2x32x256xf16>, %v: tensor<2x256x32xf16>):
    %qt = block.input %q imap = <x: 0, y: 1, z: replicate> fmap = <i: replicate> : tensor<2x64x32xf16> -> !block.tile<1x32x32xf16>
    %kt = block.input %k imap = <x: 0, y: replicate, z: 2> fmap = <i: 2> : tensor<2x32x256xf16> -> !block.tile<1x32x64xf16>
    %vt = block.input %v imap = <x: 0, y: replicate, z: 1> fmap = <i: 1> : tensor<2x256x32xf16> -> !block.tile<1x64x32xf16>
    %s = block.matmul %qt, %kt : (!block.tile<1x32x32xf16>, !block.tile<1x32x64xf16>) -> !block.tile<1x32x64xf32>
    // CHECK: block.softmax_accum %{{.*}}, %{{.*}} : (!block.tile<1x32x64xf32>, !block.tile<1x64x32xf16>) -> (!block.tile<1x32x32xf32>, !block.tile<1x32x2xf32>)
    %o, %ml = block.softmax_accum %s, %vt : (!block.tile<1x32x64xf32>, !block.tile<1x64x32xf16>) -> (!block.tile<1x32x32xf32>, !block.tile<1x32x2xf32>)
    // CHECK: block.reshape %{{.*}} : !block.tile<1x32x32xf32> -> !block.tile<1x1x32x32xf32>
    %o4 = block.reshape %o : !block.tile<1x32x32xf32> -> !block.tile<1x1x32x32xf32>
    %ml4 = block.reshape %ml : !block.tile<1x32x2xf32> -> !block.tile<1x1x32x2xf32>
    %po = block.output %o4 omap = <x: 1, y: 2, z: 0> : !block.tile<1x1x32x32xf32> -> tensor<2x2x64x32xf32>
    %ps = block.output %ml4 omap = <x: 1, y: 2, z: 0> : !block.tile<1x1x32x2xf32> -> tensor<2x2x64x2xf32>
    block.yield %po, %ps : tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>
  }
  return %P, %S : tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>
}

// CHECK-LABEL: func @softmax_merge
func.func @softmax_merge(%P: tensor<2x2x64x32xf32>, %S: tensor<2x2x64x2xf32>) -> tensor<2x64x32xf16> {
  %M = kernel.graph_def (%P, %S) grid = [2, 2] forloop = 1 : (tensor<2x2x64x32xf32>, tensor<2x2x64x2xf32>) -> tensor<2x64x32xf16> {
  ^bb0(%p: tensor<2x2x64x32xf32>, %st: tensor<2x2x64x2xf32>):
    %pt = block.input %p imap = <x: 1, y: 2> fmap = <i: replicate> : tensor<2x2x64x32xf32> -> !block.tile<2x1x32x32xf32>
    %stt = block.input %st imap = <x: 1, y: 2> fmap = <i: replicate> : tensor<2x2x64x2xf32> -> !block.tile<2x1x32x2xf32>
    // CHECK: block.softmax_merge %{{.*}}, %{{.*}}, dim = 0 : (!block.tile<2x1x32x32xf32>, !block.tile<2x1x32x2xf32>) -> !block.tile<1x1x32x32xf32>
    %m = block.softmax_merge %pt, %stt, dim = 0 : (!block.tile<2x1x32x32xf32>, !block.tile<2x1x32x2xf32>) -> !block.tile<1x1x32x32xf32>
    %a = block.accum sum %m : !block.tile<1x1x32x32xf32> -> !block.tile<1x1x32x32xf32>
    %a3 = block.reshape %a : !block.tile<1x1x32x32xf32> -> !block.tile<1x32x32xf32>
    %out = block.output %a3 omap = <x: 0, y: 1> : !block.tile<1x32x32xf32> -> tensor<2x64x32xf16>
    block.yield %out : tensor<2x64x32xf16>
  }
  return %M : tensor<2x64x32xf16>
}

// The composite ops: a whole-row RMS norm, and accumulators that reduce
// their tile first.
// CHECK-LABEL: func @composites
func.func @composites(%X: tensor<8x256xf16>) -> (tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x256xf16>) {
  %R, %S, %N = kernel.graph_def (%X) grid = [2] forloop = 4 : (tensor<8x256xf16>) -> (tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x256xf16>) {
  ^bb0(%x: tensor<8x256xf16>):
    %xt = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<8x256xf16> -> !block.tile<4x64xf16>
    // CHECK: block.rms_norm %{{.*}}, dim = 1 : !block.tile<4x64xf16> -> !block.tile<4x64xf32>
    %n = block.rms_norm %xt, dim = 1 : !block.tile<4x64xf16> -> !block.tile<4x64xf32>
    // CHECK: block.accum red_rms %{{.*}}, dim = 1 : !block.tile<4x64xf16> -> !block.tile<4x1xf32>
    %r = block.accum red_rms %xt, dim = 1 : !block.tile<4x64xf16> -> !block.tile<4x1xf32>
    // CHECK: block.accum red_sum %{{.*}}, dim = 1 : !block.tile<4x64xf16> -> !block.tile<4x1xf32>
    %s = block.accum red_sum %xt, dim = 1 : !block.tile<4x64xf16> -> !block.tile<4x1xf32>
    %c = block.accum concat %n, dim = 1 : !block.tile<4x64xf32> -> !block.tile<4x256xf32>
    %h = block.reshape %c : !block.tile<4x256xf32> -> !block.tile<4x256xf32>
    %ro = block.output %r omap = <x: 0> : !block.tile<4x1xf32> -> tensor<8x1xf32>
    %so = block.output %s omap = <x: 0> : !block.tile<4x1xf32> -> tensor<8x1xf32>
    %no = block.output %h omap = <x: 0> : !block.tile<4x256xf32> -> tensor<8x256xf16>
    block.yield %ro, %so, %no : tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x256xf16>
  }
  return %R, %S, %N : tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x256xf16>
}
