// Verification on fewer slices of a uniform dimension (docs/Verification.md,
// "Verification on fewer slices"): with reduce-uniform=true a pair that is
// proven uniform along a dimension in both functions is verified on two
// groups of its slices, and the remark says which and why; a pair in which
// either function mixes the slices, or a kernel walks them with its
// for-loop, is not reduced along it; a wrong candidate is still rejected.
// RUN: not mirage-opt %s --split-input-file --verify-equivalence="reduce-uniform=true" 2>&1 | FileCheck %s
// RUN: not mirage-opt %s --split-input-file --verify-equivalence 2>&1 | FileCheck %s --check-prefix=OFF

// Attention over 8 heads, fused (the search's kernel): the heads are a
// batch dimension of both matmuls and the softmax runs over another
// dimension; the kernel partitions the heads by grid dimension x, one head
// per block.
// CHECK: remark: @fused is equivalent to @attn: on a reduced instance, 2 of 8 slices of result dimension 0; uniform in both programs (@attn: matmul batch dimensions, softmax over another dimension; @fused: graph-defined kernels partition it by grid dimension x in tiles of 1, no for-loop walks it): finite-field test: {{[0-9]+}} tests {{.*}}false-positive bound 2^-{{[0-9.]+}}; floating point
// OFF: remark: @fused is equivalent to @attn: finite-field test
// OFF-NOT: reduced instance
func.func @attn(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  %s = graph.matmul %Q, %K : (tensor<8x32x16xf16>, tensor<8x16x32xf16>) -> tensor<8x32x32xf16>
  %p = graph.softmax %s, dim = 2 : tensor<8x32x32xf16>
  %o = graph.matmul %p, %V : (tensor<8x32x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
  return %o : tensor<8x32x16xf16>
}
func.func @fused(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
    attributes {mirage.equivalent_to = @attn} {
  %0 = kernel.graph_def(%Q, %K, %V) grid = [8, 16] forloop = 1 : (tensor<8x32x16xf16>, tensor<8x16x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  ^bb0(%q: tensor<8x32x16xf16>, %k: tensor<8x16x32xf16>, %v: tensor<8x32x16xf16>):
    %1 = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x2x16xf16>
    %2 = block.input %k imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x16x32xf16> -> !block.tile<1x16x32xf16>
    %3 = block.input %v imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x32x16xf16>
    %4 = block.matmul %1, %2 : (!block.tile<1x2x16xf16>, !block.tile<1x16x32xf16>) -> !block.tile<1x2x32xf16>
    %o, %st = block.softmax_accum %4, %3 : (!block.tile<1x2x32xf16>, !block.tile<1x32x16xf16>) -> (!block.tile<1x2x16xf32>, !block.tile<1x2x2xf32>)
    %5 = block.output %o omap = <x: 0, y: 1> : !block.tile<1x2x16xf32> -> tensor<8x32x16xf16>
    block.yield %5 : tensor<8x32x16xf16>
  }
  return %0 : tensor<8x32x16xf16>
}

// -----

// Two heads per block (grid x of 4): the slices are uniform in groups of
// two, and the reduced instance keeps two groups, 4 of the 8 heads, with the
// grid shrunk to 2 and the tiles unchanged.
// CHECK: remark: @fused_pairs is equivalent to @attn: on a reduced instance, 4 of 8 slices of result dimension 0; {{.*}}grid dimension x in tiles of 2, no for-loop walks it): finite-field test
func.func @attn(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  %s = graph.matmul %Q, %K : (tensor<8x32x16xf16>, tensor<8x16x32xf16>) -> tensor<8x32x32xf16>
  %p = graph.softmax %s, dim = 2 : tensor<8x32x32xf16>
  %o = graph.matmul %p, %V : (tensor<8x32x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
  return %o : tensor<8x32x16xf16>
}
func.func @fused_pairs(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
    attributes {mirage.equivalent_to = @attn} {
  %0 = kernel.graph_def(%Q, %K, %V) grid = [4, 4] forloop = 2 : (tensor<8x32x16xf16>, tensor<8x16x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  ^bb0(%q: tensor<8x32x16xf16>, %k: tensor<8x16x32xf16>, %v: tensor<8x32x16xf16>):
    %1 = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<2x8x16xf16>
    %2 = block.input %k imap = <x: 0, y: replicate> fmap = <i: 2> : tensor<8x16x32xf16> -> !block.tile<2x16x16xf16>
    %3 = block.input %v imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<8x32x16xf16> -> !block.tile<2x16x16xf16>
    %4 = block.matmul %1, %2 : (!block.tile<2x8x16xf16>, !block.tile<2x16x16xf16>) -> !block.tile<2x8x16xf16>
    %o, %st = block.softmax_accum %4, %3 : (!block.tile<2x8x16xf16>, !block.tile<2x16x16xf16>) -> (!block.tile<2x8x16xf32>, !block.tile<2x8x2xf32>)
    %5 = block.output %o omap = <x: 0, y: 1> : !block.tile<2x8x16xf32> -> tensor<8x32x16xf16>
    block.yield %5 : tensor<8x32x16xf16>
  }
  return %0 : tensor<8x32x16xf16>
}

// -----

// Four heads per block (grid x of 2): two groups would be all 8 heads, so
// the reduced instance keeps one group, 4 of the 8, on a grid of 1.
// CHECK: remark: @fused_quads is equivalent to @attn: on a reduced instance, 4 of 8 slices of result dimension 0; {{.*}}grid dimension x in tiles of 4, no for-loop walks it): finite-field test
func.func @attn(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  %s = graph.matmul %Q, %K : (tensor<8x32x16xf16>, tensor<8x16x32xf16>) -> tensor<8x32x32xf16>
  %p = graph.softmax %s, dim = 2 : tensor<8x32x32xf16>
  %o = graph.matmul %p, %V : (tensor<8x32x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
  return %o : tensor<8x32x16xf16>
}
func.func @fused_quads(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
    attributes {mirage.equivalent_to = @attn} {
  %0 = kernel.graph_def(%Q, %K, %V) grid = [2, 4] forloop = 2 : (tensor<8x32x16xf16>, tensor<8x16x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  ^bb0(%q: tensor<8x32x16xf16>, %k: tensor<8x16x32xf16>, %v: tensor<8x32x16xf16>):
    %1 = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<4x8x16xf16>
    %2 = block.input %k imap = <x: 0, y: replicate> fmap = <i: 2> : tensor<8x16x32xf16> -> !block.tile<4x16x16xf16>
    %3 = block.input %v imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<8x32x16xf16> -> !block.tile<4x16x16xf16>
    %4 = block.matmul %1, %2 : (!block.tile<4x8x16xf16>, !block.tile<4x16x16xf16>) -> !block.tile<4x8x16xf16>
    %o, %st = block.softmax_accum %4, %3 : (!block.tile<4x8x16xf16>, !block.tile<4x16x16xf16>) -> (!block.tile<4x8x16xf32>, !block.tile<4x8x2xf32>)
    %5 = block.output %o omap = <x: 0, y: 1> : !block.tile<4x8x16xf32> -> tensor<8x32x16xf16>
    block.yield %5 : tensor<8x32x16xf16>
  }
  return %0 : tensor<8x32x16xf16>
}

// -----

// A planted wrong candidate, uniform like the right one: it weights the
// queries instead of the values. The reduced instance rejects it.
// CHECK: error: @wrong_values is not equivalent to @attn: output #0 differs at [{{.*}}] in the {{.*}}; on a reduced instance, 2 of 8 slices of result dimension 0; uniform in both programs
// OFF: error: @wrong_values is not equivalent to @attn: output #0 differs
func.func @attn(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  %s = graph.matmul %Q, %K : (tensor<8x32x16xf16>, tensor<8x16x32xf16>) -> tensor<8x32x32xf16>
  %p = graph.softmax %s, dim = 2 : tensor<8x32x32xf16>
  %o = graph.matmul %p, %V : (tensor<8x32x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
  return %o : tensor<8x32x16xf16>
}
func.func @wrong_values(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
    attributes {mirage.equivalent_to = @attn} {
  %0 = kernel.graph_def(%Q, %K, %V) grid = [8, 16] forloop = 1 : (tensor<8x32x16xf16>, tensor<8x16x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  ^bb0(%q: tensor<8x32x16xf16>, %k: tensor<8x16x32xf16>, %v: tensor<8x32x16xf16>):
    %1 = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x2x16xf16>
    %2 = block.input %k imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x16x32xf16> -> !block.tile<1x16x32xf16>
    %3 = block.input %q imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x32x16xf16>
    %4 = block.matmul %1, %2 : (!block.tile<1x2x16xf16>, !block.tile<1x16x32xf16>) -> !block.tile<1x2x32xf16>
    %o, %st = block.softmax_accum %4, %3 : (!block.tile<1x2x32xf16>, !block.tile<1x32x16xf16>) -> (!block.tile<1x2x16xf32>, !block.tile<1x2x2xf32>)
    %5 = block.output %o omap = <x: 0, y: 1> : !block.tile<1x2x16xf32> -> tensor<8x32x16xf16>
    block.yield %5 : tensor<8x32x16xf16>
  }
  return %0 : tensor<8x32x16xf16>
}

// -----

// The original mixes the heads (each head minus the sum over all heads):
// no reduction along them, whatever the candidate; the rows (dimension 1)
// stay apart, and the pair is reduced along those.
// CHECK: remark: @centered_copy is equivalent to @centered: on a reduced instance, 2 of 16 slices of result dimension 1; uniform in both programs (@centered: reductions over another dimension, elementwise ops;
func.func @centered(%x: tensor<8x16x4xf32>) -> tensor<8x16x4xf32> {
  %s = graph.reduce_sum %x, dim = 0 : tensor<8x16x4xf32> -> tensor<1x16x4xf32>
  %y = graph.sub %x, %s : (tensor<8x16x4xf32>, tensor<1x16x4xf32>) -> tensor<8x16x4xf32>
  return %y : tensor<8x16x4xf32>
}
func.func @centered_copy(%x: tensor<8x16x4xf32>) -> tensor<8x16x4xf32>
    attributes {mirage.equivalent_to = @centered} {
  %s = graph.reduce_sum %x, dim = 0 : tensor<8x16x4xf32> -> tensor<1x16x4xf32>
  %y = graph.sub %x, %s : (tensor<8x16x4xf32>, tensor<1x16x4xf32>) -> tensor<8x16x4xf32>
  return %y : tensor<8x16x4xf32>
}

// -----

// The original swaps heads and rows and then multiplies along the heads
// (they become a matmul's rows): no reduction along them. The rows became
// the batch dimension, and the pair is reduced along those.
// CHECK: remark: @swapped_copy is equivalent to @swapped: on a reduced instance, 2 of 16 slices of result dimension 0; uniform in both programs (@swapped: transposes, matmul batch dimensions;
func.func @swapped(%x: tensor<8x16x8xf32>, %w: tensor<16x8x4xf32>) -> tensor<16x8x4xf32> {
  %t = graph.transpose %x, perm = [1, 0, 2] : tensor<8x16x8xf32> -> tensor<16x8x8xf32>
  %y = graph.matmul %t, %w : (tensor<16x8x8xf32>, tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
  return %y : tensor<16x8x4xf32>
}
func.func @swapped_copy(%x: tensor<8x16x8xf32>, %w: tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
    attributes {mirage.equivalent_to = @swapped} {
  %t = graph.transpose %x, perm = [1, 0, 2] : tensor<8x16x8xf32> -> tensor<16x8x8xf32>
  %y = graph.matmul %t, %w : (tensor<16x8x8xf32>, tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
  return %y : tensor<16x8x4xf32>
}

// -----

// A candidate whose kernel walks the heads with its for-loop (a concat
// accumulator gathers them): uniform in fact, but not in a way the analysis
// accepts, so it is not reduced along them; its grid splits the columns
// (dimension 1) in two tiles of 8, and the pair is reduced to one of them.
// CHECK: remark: @looped is equivalent to @scaled: on a reduced instance, 8 of 16 slices of result dimension 1; uniform in both programs (@scaled: elementwise ops; @looped: graph-defined kernels partition it by grid dimension x in tiles of 8, no for-loop walks it): finite-field test
func.func @scaled(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = graph.add %x, %x : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
func.func @looped(%x: tensor<8x16xf32>) -> tensor<8x16xf32>
    attributes {mirage.equivalent_to = @scaled} {
  %0 = kernel.graph_def(%x) grid = [2] forloop = 8 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%a: tensor<8x16xf32>):
    %1 = block.input %a imap = <x: 1> fmap = <i: 0> : tensor<8x16xf32> -> !block.tile<1x8xf32>
    %2 = block.binary add %1, %1 : (!block.tile<1x8xf32>, !block.tile<1x8xf32>) -> !block.tile<1x8xf32>
    %3 = block.accum concat %2, dim = 0 : !block.tile<1x8xf32> -> !block.tile<8x8xf32>
    %4 = block.output %3 omap = <x: 1> : !block.tile<8x8xf32> -> tensor<8x16xf32>
    block.yield %4 : tensor<8x16xf32>
  }
  return %0 : tensor<8x16xf32>
}
