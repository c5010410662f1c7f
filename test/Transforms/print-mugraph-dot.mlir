// --print-mugraph-dot on the corner cases of a µGraph: kernels feeding
// kernels, several results, a tensor the block graph does not read, an
// argument returned as is, a fused chain's body, ops of other dialects, and
// a name that DOT must escape. The module is printed unchanged.
// RUN: mirage-opt %s --print-mugraph-dot -o /dev/null 2>&1 | FileCheck %s
// RUN: mirage-opt %s -o %t.plain.mlir
// RUN: mirage-opt %s --print-mugraph-dot -o %t.mlir 2>/dev/null
// RUN: diff %t.plain.mlir %t.mlir
// Deterministic: the same text on every run, also with the other options.
// RUN: mirage-opt %s --print-mugraph-dot -o /dev/null 2> %t.1.dot
// RUN: mirage-opt %s --print-mugraph-dot -o /dev/null 2> %t.2.dot
// RUN: diff %t.1.dot %t.2.dot
// Upstream's pass manager options do not change it (one pass on the module).
// RUN: mirage-opt %s --mlir-disable-threading --print-mugraph-dot -o /dev/null 2> %t.3.dot
// RUN: diff %t.1.dot %t.3.dot

// Two outputs, one read by a predefined kernel and returned; an input the
// block graph does not read reaches the cluster's border (lhead) through an
// invisible node; an argument returned as is.
// CHECK-LABEL: digraph "two_outputs" {
// CHECK:      n0 [label = "arg0\n16x64xf32"
// CHECK-NEXT: n1 [label = "arg1\n8x8xf32"
// CHECK-NEXT: subgraph cluster_k0 {
// CHECK-NEXT:   label = "kernel.graph_def #0\lgrid = [2], forloop = 1\l";
// CHECK:          label = "for-loop body: 1 iteration";
// CHECK:          n2 [label = "block.input\nimap = \<x: 0\>\nfmap = \<i: replicate\>\n8x64xf32"
// CHECK:        n3 [label = "block.accum sum\n8x64xf32"
// CHECK-NEXT:   n4 [label = "block.unary exp\n8x64xf32"
// CHECK-NEXT:   n5 [label = "block.output\nomap = \<x: 0\>\n16x64xf32"
// CHECK-NEXT:   n6 [label = "block.output\nomap = \<x: 0\>\n16x64xf32"
// CHECK-NEXT:   {rank = same; n3;}
// CHECK-NEXT:   n7 [label = "", shape = point, style = invis];
// CHECK-NEXT: }
// CHECK-NEXT: n8 [label = "kernel.binary add\n16x64xf32"
// CHECK-NEXT: n9 [label = "result 0\n16x64xf32"
// CHECK-NEXT: n10 [label = "result 1\n16x64xf32"
// CHECK-NEXT: n11 [label = "result 2\n8x8xf32"
// CHECK-NEXT: {rank = source; n0; n1;}
// CHECK-NEXT: {rank = sink; n9; n10; n11;}
// CHECK-NEXT: n0 -> n2 [label = "16x64xf32", penwidth = 1.6];
// CHECK-NEXT: n2 -> n3 [label = "8x64xf32"];
// CHECK-NEXT: n3 -> n4 [label = "8x64xf32"];
// CHECK-NEXT: n3 -> n5 [label = "8x64xf32"];
// CHECK-NEXT: n4 -> n6 [label = "8x64xf32"];
// CHECK-NEXT: n1 -> n7 [label = "8x8xf32", penwidth = 1.6, lhead = cluster_k0];
// CHECK-NEXT: n5 -> n8 [label = "0: 16x64xf32", penwidth = 1.6];
// CHECK-NEXT: n6 -> n8 [label = "1: 16x64xf32", penwidth = 1.6];
// CHECK-NEXT: n8 -> n9 [label = "16x64xf32", penwidth = 1.6];
// CHECK-NEXT: n6 -> n10 [label = "16x64xf32", penwidth = 1.6];
// CHECK-NEXT: n1 -> n11 [label = "8x8xf32", penwidth = 1.6];
// CHECK-NEXT: }
func.func @two_outputs(%x: tensor<16x64xf32>, %u: tensor<8x8xf32>)
    -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<8x8xf32>) {
  %y:2 = kernel.graph_def (%x, %u) grid = [2] forloop = 1
      : (tensor<16x64xf32>, tensor<8x8xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  ^bb0(%t: tensor<16x64xf32>, %v: tensor<8x8xf32>):
    %i = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<8x64xf32>
    %a = block.accum sum %i : !block.tile<8x64xf32> -> !block.tile<8x64xf32>
    %e = block.unary exp %a : !block.tile<8x64xf32>
    %o = block.output %a omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf32>
    %p = block.output %e omap = <x: 0> : !block.tile<8x64xf32> -> tensor<16x64xf32>
    block.yield %o, %p : tensor<16x64xf32>, tensor<16x64xf32>
  }
  %z = kernel.binary add %y#0, %y#1 : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %z, %y#1, %u : tensor<16x64xf32>, tensor<16x64xf32>, tensor<8x8xf32>
}

// One kernel's saver feeds the next kernel's input iterator, with the
// device tensor's shape; a fused chain lists its body (#i: input i, tk: the
// k-th value), with the parameters of scale; a 2-d grid and concat
// accumulator; kernels are numbered in order.
// CHECK-LABEL: digraph "chain" {
// CHECK:      subgraph cluster_k0 {
// CHECK-NEXT:   label = "kernel.graph_def #0\lgrid = [2, 4], forloop = 2\l";
// CHECK:        n[[IN0:[0-9]+]] [label = "block.input\nimap = \<x: 0, y: 1\>\nfmap = \<i: 1\>\n8x8xf32"
// CHECK:        n[[ACC:[0-9]+]] [label = "block.accum concat\ndim = 1\n8x16xf32"
// CHECK-NEXT:   n[[OUT0:[0-9]+]] [label = "block.output\nomap = \<x: 0, y: 1\>\n16x64xf32", shape = house
// CHECK:      subgraph cluster_k1 {
// CHECK-NEXT:   label = "kernel.graph_def #1\lgrid = [16], forloop = 1\l";
// CHECK:        n[[IN1:[0-9]+]] [label = "block.input\nimap = \<x: 0\>\nfmap = \<i: replicate\>\n1x64xf32"
// CHECK:        n[[FUSED:[0-9]+]] [label = "thread.fused\nt0 = scale[5.000000e-01](#0)\nt1 = mul(t0, #1)\nt2 = exp(t1)\nyield t2, t1\n1x64xf32, 1x64xf32", shape = note
// CHECK:      n[[OUT0]] -> n[[IN1]] [label = "16x64xf32", penwidth = 1.6];
// CHECK:      n[[IN1]] -> n[[FUSED]] [label = "0: 1x64xf32"];
// CHECK-NEXT: n[[IN1]] -> n[[FUSED]] [label = "1: 1x64xf32"];
func.func @chain(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %y = kernel.graph_def (%x) grid = [2, 4] forloop = 2 : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%t: tensor<16x64xf32>):
    %i = block.input %t imap = <x: 0, y: 1> fmap = <i: 1> : tensor<16x64xf32> -> !block.tile<8x8xf32>
    %a = block.accum concat %i, dim = 1 : !block.tile<8x8xf32> -> !block.tile<8x16xf32>
    %o = block.output %a omap = <x: 0, y: 1> : !block.tile<8x16xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  %z = kernel.graph_def (%y) grid = [16] forloop = 1 : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%t: tensor<16x64xf32>):
    %i = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<1x64xf32>
    %f:2 = thread.fused (%i, %i) : (!block.tile<1x64xf32>, !block.tile<1x64xf32>) -> (!block.tile<1x64xf32>, !block.tile<1x64xf32>) {
    ^bb0(%p: f32, %q: f32):
      %s = thread.unary scale %p params = [0.5] : f32
      %m = thread.binary mul %s, %q : f32
      %e = thread.unary exp %m : f32
      thread.yield %e, %m : f32, f32
    }
    %a = block.accum sum %f#0 : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %o = block.output %a omap = <x: 0> : !block.tile<1x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %z : tensor<16x64xf32>
}

// Other kernel-level ops get a generic label: their attributes one per
// line (the kind next to the name), discardable attributes left out; a
// function name that needs escaping; a function without a body is skipped.
// CHECK-LABEL: digraph "with \"quotes\" and \<angles\>" {
// CHECK-NEXT:   label = "@with \"quotes\" and \<angles\>";
// CHECK:        n1 [label = "kernel.reduce max\ndim = 1\n4x1xf16"
// CHECK-NEXT:   n2 [label = "kernel.transpose\nperm = [1, 0]\n1x4xf16"
// CHECK-NEXT:   n3 [label = "kernel.reshape\n4xf16"
// CHECK-NEXT:   n4 [label = "kernel.split\ndim = 0\nsizes = [1, 3]\n1xf16, 3xf16"
// CHECK-NEXT:   n5 [label = "result 0\n1xf16"
// CHECK-NEXT:   n6 [label = "result 1\n3xf16"
// CHECK-NOT:  digraph
func.func @"with \"quotes\" and <angles>"(%x: tensor<4x8xf16>) -> (tensor<1xf16>, tensor<3xf16>) {
  %r = kernel.reduce max %x, dim = 1 {mirage.note = "left out"} : tensor<4x8xf16> -> tensor<4x1xf16>
  %t = kernel.transpose %r, perm = [1, 0] : tensor<4x1xf16> -> tensor<1x4xf16>
  %v = kernel.reshape %t : tensor<1x4xf16> -> tensor<4xf16>
  %s:2 = kernel.split %v, dim = 0, sizes = [1, 3] : tensor<4xf16> -> tensor<1xf16>, tensor<3xf16>
  return %s#0, %s#1 : tensor<1xf16>, tensor<3xf16>
}

func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
