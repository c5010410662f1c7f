// --kernel-to-block gives every predefined kernel a default block graph.
// Each pair below is a graph-level original (which the pass leaves alone)
// and its kernel-level copy, which the pass rewrites; the second RUN line
// proves every rewritten copy equivalent to its original.
// RUN: mirage-opt %s --kernel-to-block | FileCheck %s
// RUN: mirage-opt %s --kernel-to-block | mirage-opt --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV --implicit-check-not="error:"

// Matmul, f16, rank 2: M = 8 is taken whole; N is split into tiles of 32
// (64 would leave the grid under half a wave); K = 512 is walked in two K
// tiles of 256 (deep, as the tiles are skinny) and accumulated.
// EQUIV: remark: @matmul_k is equivalent to @matmul: finite-field test:
func.func @matmul(%x: tensor<8x512xf16>, %w: tensor<512x256xf16>) -> tensor<8x256xf16> {
  %y = graph.matmul %x, %w : (tensor<8x512xf16>, tensor<512x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}
// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT: graph.matmul
// CHECK-LABEL: func.func @matmul_k(
// CHECK-NEXT: %[[Y:.*]] = kernel.graph_def(%arg0, %arg1) grid = [8] forloop = 2 : (tensor<8x512xf16>, tensor<512x256xf16>) -> tensor<8x256xf16> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<8x512xf16>, %[[W:.*]]: tensor<512x256xf16>):
// CHECK-NEXT: %[[XT:.*]] = block.input %[[X]] imap = <x: replicate> fmap = <i: 1> : tensor<8x512xf16> -> !block.tile<8x256xf16>
// CHECK-NEXT: %[[WT:.*]] = block.input %[[W]] imap = <x: 1> fmap = <i: 0> : tensor<512x256xf16> -> !block.tile<256x32xf16>
// CHECK-NEXT: %[[MM:.*]] = block.matmul %[[XT]], %[[WT]] : (!block.tile<8x256xf16>, !block.tile<256x32xf16>) -> !block.tile<8x32xf16>
// CHECK-NEXT: %[[ACC:.*]] = block.accum sum %[[MM]] : !block.tile<8x32xf16> -> !block.tile<8x32xf16>
// CHECK-NEXT: %[[OUT:.*]] = block.output %[[ACC]] omap = <x: 1> : !block.tile<8x32xf16> -> tensor<8x256xf16>
// CHECK-NEXT: block.yield %[[OUT]] : tensor<8x256xf16>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[Y]]
func.func @matmul_k(%x: tensor<8x512xf16>, %w: tensor<512x256xf16>) -> tensor<8x256xf16>
    attributes {mirage.equivalent_to = @matmul} {
  %y = kernel.matmul %x, %w : (tensor<8x512xf16>, tensor<512x256xf16>) -> tensor<8x256xf16>
  return %y : tensor<8x256xf16>
}

// Batched matmul, f32, rank 3: x = N tiles of 32, y = M tiles of 16,
// z = batch; two K tiles of 256.
// EQUIV: remark: @bmm_k is equivalent to @bmm: finite-field test:
func.func @bmm(%q: tensor<2x32x512xf32>, %k: tensor<2x512x64xf32>) -> tensor<2x32x64xf32> {
  %y = graph.matmul %q, %k : (tensor<2x32x512xf32>, tensor<2x512x64xf32>) -> tensor<2x32x64xf32>
  return %y : tensor<2x32x64xf32>
}
// CHECK-LABEL: func.func @bmm_k(
// CHECK-NEXT: kernel.graph_def(%arg0, %arg1) grid = [2, 2, 2] forloop = 2
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: replicate, y: 1, z: 0> fmap = <i: 2> : tensor<2x32x512xf32> -> !block.tile<1x16x256xf32>
// CHECK-NEXT: block.input %{{.*}} imap = <x: 2, y: replicate, z: 0> fmap = <i: 1> : tensor<2x512x64xf32> -> !block.tile<1x256x32xf32>
// CHECK-NEXT: block.matmul %{{.*}} -> !block.tile<1x16x32xf32>
// CHECK-NEXT: block.accum sum
// CHECK-NEXT: block.output %{{.*}} omap = <x: 2, y: 1, z: 0> : !block.tile<1x16x32xf32> -> tensor<2x32x64xf32>
func.func @bmm_k(%q: tensor<2x32x512xf32>, %k: tensor<2x512x64xf32>) -> tensor<2x32x64xf32>
    attributes {mirage.equivalent_to = @bmm} {
  %y = kernel.matmul %q, %k : (tensor<2x32x512xf32>, tensor<2x512x64xf32>) -> tensor<2x32x64xf32>
  return %y : tensor<2x32x64xf32>
}

// A large matmul (structure only): 64 x 128 output tiles, N on x and M on
// y, K tiles shrunk to 32 to fit the 64 KiB budget.
// CHECK-LABEL: func.func @matmul_large(
// CHECK-NEXT: kernel.graph_def(%arg0, %arg1) grid = [32, 64] forloop = 128
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: replicate, y: 0> fmap = <i: 1> : tensor<4096x4096xf16> -> !block.tile<64x32xf16>
// CHECK-NEXT: block.input %{{.*}} imap = <x: 1, y: replicate> fmap = <i: 0> : tensor<4096x4096xf16> -> !block.tile<32x128xf16>
// CHECK-NEXT: block.matmul
// CHECK-NEXT: block.accum sum
// CHECK-NEXT: block.output %{{.*}} omap = <x: 1, y: 0> : !block.tile<64x128xf16> -> tensor<4096x4096xf16>
func.func @matmul_large(%x: tensor<4096x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %y = kernel.matmul %x, %w : (tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %y : tensor<4096x4096xf16>
}

// Elementwise unary, f16: row tiles of 2 x 512 (1024 elements, 8 per
// thread), one iteration; the accumulator passes the tile to the saver.
// EQUIV: remark: @silu_k is equivalent to @silu: finite-field test:
func.func @silu(%x: tensor<8x512xf16>) -> tensor<8x512xf16> {
  %y = graph.silu %x : tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}
// CHECK-LABEL: func.func @silu_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [4] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[X:.*]] = block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<8x512xf16> -> !block.tile<2x512xf16>
// CHECK-NEXT: %[[S:.*]] = block.unary silu %[[X]] : !block.tile<2x512xf16>
// CHECK-NEXT: %[[A:.*]] = block.accum sum %[[S]] : !block.tile<2x512xf16> -> !block.tile<2x512xf16>
// CHECK-NEXT: block.output %[[A]] omap = <x: 0> : !block.tile<2x512xf16> -> tensor<8x512xf16>
func.func @silu_k(%x: tensor<8x512xf16>) -> tensor<8x512xf16>
    attributes {mirage.equivalent_to = @silu} {
  %y = kernel.unary silu %x : tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}

// Unary with a parameter, f32; a small tensor is one block: grid [1] with
// replicate maps.
// EQUIV: remark: @scale_k is equivalent to @scale: finite-field test:
func.func @scale(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %y = graph.scalar_mul %x, 0.125 : tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
// CHECK-LABEL: func.func @scale_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [1] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: replicate> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<4x64xf32>
// CHECK-NEXT: block.unary scale %{{.*}} params = [1.250000e-01] : !block.tile<4x64xf32>
// CHECK-NEXT: block.accum sum
// CHECK-NEXT: block.output %{{.*}} omap = <x: replicate> : !block.tile<4x64xf32> -> tensor<4x64xf32>
func.func @scale_k(%x: tensor<4x64xf32>) -> tensor<4x64xf32>
    attributes {mirage.equivalent_to = @scale} {
  %y = kernel.unary scale %x params = [1.250000e-01] : tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// Broadcasting binary ops, f32: a lower-rank row vector and a column. A
// broadcast operand's tile replicates along the split dim, and block.binary
// broadcasts it; the first kernel's tensor flows into the second.
// EQUIV: remark: @bias_scale_k is equivalent to @bias_scale: finite-field test:
func.func @bias_scale(%x: tensor<16x256xf32>, %b: tensor<256xf32>, %s: tensor<16x1xf32>) -> tensor<16x256xf32> {
  %a = graph.add %x, %b : (tensor<16x256xf32>, tensor<256xf32>) -> tensor<16x256xf32>
  %y = graph.mul %a, %s : (tensor<16x256xf32>, tensor<16x1xf32>) -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}
// CHECK-LABEL: func.func @bias_scale_k(
// CHECK-NEXT: %[[A:.*]] = kernel.graph_def(%arg0, %arg1) grid = [4] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<16x256xf32> -> !block.tile<4x256xf32>
// CHECK-NEXT: block.input %{{.*}} imap = <x: replicate> fmap = <i: replicate> : tensor<256xf32> -> !block.tile<256xf32>
// CHECK-NEXT: block.binary add %{{.*}} : (!block.tile<4x256xf32>, !block.tile<256xf32>) -> !block.tile<4x256xf32>
// CHECK-NEXT: block.accum sum
// CHECK-NEXT: block.output %{{.*}} omap = <x: 0>
// CHECK: kernel.graph_def(%[[A]], %arg2) grid = [4] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<16x256xf32> -> !block.tile<4x256xf32>
// CHECK-NEXT: block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<16x1xf32> -> !block.tile<4x1xf32>
// CHECK-NEXT: block.binary mul %{{.*}} : (!block.tile<4x256xf32>, !block.tile<4x1xf32>) -> !block.tile<4x256xf32>
func.func @bias_scale_k(%x: tensor<16x256xf32>, %b: tensor<256xf32>, %s: tensor<16x1xf32>) -> tensor<16x256xf32>
    attributes {mirage.equivalent_to = @bias_scale} {
  %a = kernel.binary add %x, %b : (tensor<16x256xf32>, tensor<256xf32>) -> tensor<16x256xf32>
  %y = kernel.binary mul %a, %s : (tensor<16x256xf32>, tensor<16x1xf32>) -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}

// Sum over the last dim, f16, walked in 2 chunks: each chunk's partial sum
// is an f32 tile, so the result rounds to f16 once, at the saver (an f16
// partial would round each chunk's sum first).
// EQUIV: remark: @row_sum_f16_k is equivalent to @row_sum_f16: finite-field test:
func.func @row_sum_f16(%x: tensor<8x8192xf16>) -> tensor<8x1xf16> {
  %y = graph.reduce_sum %x, dim = 1 : tensor<8x8192xf16> -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}
// CHECK-LABEL: func.func @row_sum_f16_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [8] forloop = 2
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 0> fmap = <i: 1> : tensor<8x8192xf16> -> !block.tile<1x4096xf16>
// CHECK-NEXT: block.reduce sum %{{.*}}, dim = 1 : !block.tile<1x4096xf16> -> !block.tile<1x1xf32>
// CHECK-NEXT: block.accum sum %{{.*}} : !block.tile<1x1xf32> -> !block.tile<1x1xf32>
// CHECK-NEXT: block.output %{{.*}} omap = <x: 0> : !block.tile<1x1xf32> -> tensor<8x1xf16>
func.func @row_sum_f16_k(%x: tensor<8x8192xf16>) -> tensor<8x1xf16>
    attributes {mirage.equivalent_to = @row_sum_f16} {
  %y = kernel.reduce sum %x, dim = 1 : tensor<8x8192xf16> -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}

// A binary op whose operands are one tensor, f16: one device tensor, one
// input iterator.
// EQUIV: remark: @square_by_mul_k is equivalent to @square_by_mul: finite-field test:
func.func @square_by_mul(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %y = graph.mul %x, %x : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}
// CHECK-LABEL: func.func @square_by_mul_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [1] forloop = 1 : (tensor<4x64xf16>) -> tensor<4x64xf16>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[X:.*]] = block.input
// CHECK-NEXT: block.binary mul %[[X]], %[[X]]
func.func @square_by_mul_k(%x: tensor<4x64xf16>) -> tensor<4x64xf16>
    attributes {mirage.equivalent_to = @square_by_mul} {
  %y = kernel.binary mul %x, %x : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}

// Sum over the last dim, f32: one block per row; the for-loop walks the row
// in 4 chunks of 2048 and a sum accumulator adds the chunks' sums.
// EQUIV: remark: @row_sum_k is equivalent to @row_sum: finite-field test:
func.func @row_sum(%x: tensor<4x8192xf32>) -> tensor<4x1xf32> {
  %y = graph.reduce_sum %x, dim = 1 : tensor<4x8192xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
// CHECK-LABEL: func.func @row_sum_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [4] forloop = 4
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 0> fmap = <i: 1> : tensor<4x8192xf32> -> !block.tile<1x2048xf32>
// CHECK-NEXT: block.reduce sum %{{.*}}, dim = 1 : !block.tile<1x2048xf32> -> !block.tile<1x1xf32>
// CHECK-NEXT: block.accum sum %{{.*}} : !block.tile<1x1xf32> -> !block.tile<1x1xf32>
// CHECK-NEXT: block.output %{{.*}} omap = <x: 0> : !block.tile<1x1xf32> -> tensor<4x1xf32>
func.func @row_sum_k(%x: tensor<4x8192xf32>) -> tensor<4x1xf32>
    attributes {mirage.equivalent_to = @row_sum} {
  %y = kernel.reduce sum %x, dim = 1 : tensor<4x8192xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// Max over dim 0, f16: blocks of 32 contiguous columns; the for-loop walks
// the rows in chunks of 128 and a max accumulator combines them. The field
// test knows the pieces' maxima make up the column's (docs/Verification.md,
// "Max").
// EQUIV: remark: @col_max_k is equivalent to @col_max: finite-field test: 3 tests over {{.*}} 3 exp/uninterpreted/max sites)
func.func @col_max(%x: tensor<512x128xf16>) -> tensor<1x128xf16> {
  %y = graph.reduce_max %x, dim = 0 : tensor<512x128xf16> -> tensor<1x128xf16>
  return %y : tensor<1x128xf16>
}
// CHECK-LABEL: func.func @col_max_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [4] forloop = 4
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 1> fmap = <i: 0> : tensor<512x128xf16> -> !block.tile<128x32xf16>
// CHECK-NEXT: block.reduce max %{{.*}}, dim = 0 : !block.tile<128x32xf16> -> !block.tile<1x32xf16>
// CHECK-NEXT: block.accum max %{{.*}} : !block.tile<1x32xf16> -> !block.tile<1x32xf16>
// CHECK-NEXT: block.output %{{.*}} omap = <x: 1> : !block.tile<1x32xf16> -> tensor<1x128xf16>
func.func @col_max_k(%x: tensor<512x128xf16>) -> tensor<1x128xf16>
    attributes {mirage.equivalent_to = @col_max} {
  %y = kernel.reduce max %x, dim = 0 : tensor<512x128xf16> -> tensor<1x128xf16>
  return %y : tensor<1x128xf16>
}

// RMSNorm, f16, rank 3: whole rows per block, one block.rms_norm (f32
// for f16 data: its kernel sums the squares in f32, scaled by a power of
// two at the row's largest magnitude, so that no square overflows or
// underflows; emulate-rms-norm-range.test).
// EQUIV: remark: @rms_norm_k is equivalent to @rms_norm: finite-field test:
func.func @rms_norm(%x: tensor<4x2x256xf16>) -> tensor<4x2x256xf16> {
  %y = graph.rms_norm %x : tensor<4x2x256xf16>
  return %y : tensor<4x2x256xf16>
}
// CHECK-LABEL: func.func @rms_norm_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [2] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[X:.*]] = block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<4x2x256xf16> -> !block.tile<2x2x256xf16>
// CHECK-NEXT: %[[Y:.*]] = block.rms_norm %[[X]], dim = 2 : !block.tile<2x2x256xf16> -> !block.tile<2x2x256xf32>
// CHECK-NEXT: %[[A:.*]] = block.accum sum %[[Y]]
// CHECK-NEXT: block.output %[[A]] omap = <x: 0> : !block.tile<2x2x256xf32> -> tensor<4x2x256xf16>
func.func @rms_norm_k(%x: tensor<4x2x256xf16>) -> tensor<4x2x256xf16>
    attributes {mirage.equivalent_to = @rms_norm} {
  %y = kernel.rms_norm %x : tensor<4x2x256xf16>
  return %y : tensor<4x2x256xf16>
}

// RMSNorm with eps, f32: the block.rms_norm carries it.
// EQUIV: remark: @rms_norm_eps_k is equivalent to @rms_norm_eps: finite-field test:
func.func @rms_norm_eps(%x: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %y = graph.rms_norm %x {eps = 1.0e-5 : f64} : tensor<8x256xf32>
  return %y : tensor<8x256xf32>
}
// CHECK-LABEL: func.func @rms_norm_eps_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [2] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[X:.*]] = block.input %{{.*}} -> !block.tile<4x256xf32>
// CHECK-NEXT: %[[Y:.*]] = block.rms_norm %[[X]], dim = 1 {eps = 1.000000e-05 : f64} : !block.tile<4x256xf32> -> !block.tile<4x256xf32>
// CHECK-NEXT: block.accum sum %[[Y]]
func.func @rms_norm_eps_k(%x: tensor<8x256xf32>) -> tensor<8x256xf32>
    attributes {mirage.equivalent_to = @rms_norm_eps} {
  %y = kernel.rms_norm %x {eps = 1.0e-5 : f64} : tensor<8x256xf32>
  return %y : tensor<8x256xf32>
}

// Softmax over the last dim, f16, rank 3: whole rows, exp(x - max) / sum.
// The maximum cancels: the field test applies with its full bound. The
// difference, exp, row sum and quotient are f32 tiles, rounded to f16 once
// by the saver, as the op's semantics round (f16 tiles rounded exp, then its
// sum, then the quotient).
// EQUIV: remark: @softmax_k is equivalent to @softmax: finite-field test: {{[0-9]+}} tests over
func.func @softmax(%x: tensor<4x8x128xf16>) -> tensor<4x8x128xf16> {
  %y = graph.softmax %x, dim = 2 : tensor<4x8x128xf16>
  return %y : tensor<4x8x128xf16>
}
// CHECK-LABEL: func.func @softmax_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [4] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[X:.*]] = block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<4x8x128xf16> -> !block.tile<1x8x128xf16>
// CHECK-NEXT: %[[M:.*]] = block.reduce max %[[X]], dim = 2 : !block.tile<1x8x128xf16> -> !block.tile<1x8x1xf16>
// CHECK-NEXT: %[[S:.*]] = block.binary sub %[[X]], %[[M]] : (!block.tile<1x8x128xf16>, !block.tile<1x8x1xf16>) -> !block.tile<1x8x128xf32>
// CHECK-NEXT: %[[E:.*]] = block.unary exp %[[S]] : !block.tile<1x8x128xf32>
// CHECK-NEXT: %[[Z:.*]] = block.reduce sum %[[E]], dim = 2 : !block.tile<1x8x128xf32> -> !block.tile<1x8x1xf32>
// CHECK-NEXT: %[[Y:.*]] = block.binary div %[[E]], %[[Z]] : (!block.tile<1x8x128xf32>, !block.tile<1x8x1xf32>) -> !block.tile<1x8x128xf32>
// CHECK-NEXT: %[[A:.*]] = block.accum sum %[[Y]] : !block.tile<1x8x128xf32> -> !block.tile<1x8x128xf32>
// CHECK-NEXT: block.output %[[A]] omap = <x: 0> : !block.tile<1x8x128xf32> -> tensor<4x8x128xf16>
func.func @softmax_k(%x: tensor<4x8x128xf16>) -> tensor<4x8x128xf16>
    attributes {mirage.equivalent_to = @softmax} {
  %y = kernel.softmax %x, dim = 2 : tensor<4x8x128xf16>
  return %y : tensor<4x8x128xf16>
}

// Softmax over dim 0, f32: dim 0 stays whole, the columns are split.
// EQUIV: remark: @softmax_cols_k is equivalent to @softmax_cols: finite-field test: {{[0-9]+}} tests over
func.func @softmax_cols(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %y = graph.softmax %x, dim = 0 : tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}
// CHECK-LABEL: func.func @softmax_cols_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [2] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 1> fmap = <i: replicate> : tensor<64x32xf32> -> !block.tile<64x16xf32>
// CHECK-NEXT: block.reduce max %{{.*}}, dim = 0 : !block.tile<64x16xf32> -> !block.tile<1x16xf32>
func.func @softmax_cols_k(%x: tensor<64x32xf32>) -> tensor<64x32xf32>
    attributes {mirage.equivalent_to = @softmax_cols} {
  %y = kernel.softmax %x, dim = 0 : tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// Broadcast from a lower rank, f32: a reshape (a view) adds the leading
// dim; its 8 blocks all read the same tile and write one copy each.
// EQUIV: remark: @broadcast_k is equivalent to @broadcast: finite-field test:
func.func @broadcast(%x: tensor<64xf32>) -> tensor<8x64xf32> {
  %y = graph.broadcast %x : tensor<64xf32> -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
// CHECK-LABEL: func.func @broadcast_k(
// CHECK-NEXT: %[[V:.*]] = kernel.reshape %arg0 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT: kernel.graph_def(%[[V]]) grid = [8] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: replicate> fmap = <i: replicate> : tensor<1x64xf32> -> !block.tile<1x64xf32>
// CHECK-NEXT: block.accum sum
// CHECK-NEXT: block.output %{{.*}} omap = <x: 0> : !block.tile<1x64xf32> -> tensor<8x64xf32>
func.func @broadcast_k(%x: tensor<64xf32>) -> tensor<8x64xf32>
    attributes {mirage.equivalent_to = @broadcast} {
  %y = kernel.broadcast %x : tensor<64xf32> -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// Repeat, f32: one grid dim per repeated dim, whose blocks read the whole
// input and write one copy each.
// EQUIV: remark: @repeat_k is equivalent to @repeat: finite-field test:
func.func @repeat(%x: tensor<4x32xf32>) -> tensor<8x96xf32> {
  %y = graph.repeat %x, repeats = [2, 3] : tensor<4x32xf32> -> tensor<8x96xf32>
  return %y : tensor<8x96xf32>
}
// CHECK-LABEL: func.func @repeat_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [3, 2] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: replicate, y: replicate> fmap = <i: replicate> : tensor<4x32xf32> -> !block.tile<4x32xf32>
// CHECK-NEXT: block.accum sum
// CHECK-NEXT: block.output %{{.*}} omap = <x: 1, y: 0> : !block.tile<4x32xf32> -> tensor<8x96xf32>
func.func @repeat_k(%x: tensor<4x32xf32>) -> tensor<8x96xf32>
    attributes {mirage.equivalent_to = @repeat} {
  %y = kernel.repeat %x, repeats = [2, 3] : tensor<4x32xf32> -> tensor<8x96xf32>
  return %y : tensor<8x96xf32>
}

// Concat, f16: block.concat of the inputs' row tiles.
// EQUIV: remark: @concat_k is equivalent to @concat: finite-field test:
func.func @concat(%a: tensor<32x64xf16>, %b: tensor<32x32xf16>) -> tensor<32x96xf16> {
  %y = graph.concat(%a, %b) dim = 1 : (tensor<32x64xf16>, tensor<32x32xf16>) -> tensor<32x96xf16>
  return %y : tensor<32x96xf16>
}
// CHECK-LABEL: func.func @concat_k(
// CHECK-NEXT: kernel.graph_def(%arg0, %arg1) grid = [4] forloop = 1
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[A:.*]] = block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<32x64xf16> -> !block.tile<8x64xf16>
// CHECK-NEXT: %[[B:.*]] = block.input %{{.*}} imap = <x: 0> fmap = <i: replicate> : tensor<32x32xf16> -> !block.tile<8x32xf16>
// CHECK-NEXT: block.concat(%[[A]], %[[B]]) dim = 1 : (!block.tile<8x64xf16>, !block.tile<8x32xf16>) -> !block.tile<8x96xf16>
// CHECK-NEXT: block.accum sum
// CHECK-NEXT: block.output %{{.*}} omap = <x: 0> : !block.tile<8x96xf16> -> tensor<32x96xf16>
func.func @concat_k(%a: tensor<32x64xf16>, %b: tensor<32x32xf16>) -> tensor<32x96xf16>
    attributes {mirage.equivalent_to = @concat} {
  %y = kernel.concat(%a, %b) dim = 1 : (tensor<32x64xf16>, tensor<32x32xf16>) -> tensor<32x96xf16>
  return %y : tensor<32x96xf16>
}

// Transpose of the last two dims, f32: the for-loop walks input dim 1 one
// element at a time and a concat accumulator stacks the elements along
// dim 2; the grid splits output dim 1 (input dim 2) into single elements.
// EQUIV: remark: @transpose_k is equivalent to @transpose: finite-field test:
func.func @transpose(%x: tensor<2x8x16xf32>) -> tensor<2x16x8xf32> {
  %y = graph.transpose %x, perm = [0, 2, 1] : tensor<2x8x16xf32> -> tensor<2x16x8xf32>
  return %y : tensor<2x16x8xf32>
}
// CHECK-LABEL: func.func @transpose_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [16] forloop = 8
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 2> fmap = <i: 1> : tensor<2x8x16xf32> -> !block.tile<2x1x1xf32>
// CHECK-NEXT: block.accum concat %{{.*}}, dim = 2 : !block.tile<2x1x1xf32> -> !block.tile<2x1x8xf32>
// CHECK-NEXT: block.output %{{.*}} omap = <x: 1> : !block.tile<2x1x8xf32> -> tensor<2x16x8xf32>
func.func @transpose_k(%x: tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
    attributes {mirage.equivalent_to = @transpose} {
  %y = kernel.transpose %x, perm = [0, 2, 1] : tensor<2x8x16xf32> -> tensor<2x16x8xf32>
  return %y : tensor<2x16x8xf32>
}

// A transpose that moves only a dim of size 1 is a view.
// EQUIV: remark: @transpose_view_k is equivalent to @transpose_view: finite-field test:
func.func @transpose_view(%x: tensor<1x64xf16>) -> tensor<64x1xf16> {
  %y = graph.transpose %x, perm = [1, 0] : tensor<1x64xf16> -> tensor<64x1xf16>
  return %y : tensor<64x1xf16>
}
// CHECK-LABEL: func.func @transpose_view_k(
// CHECK-NEXT: %[[V:.*]] = kernel.reshape %arg0 : tensor<1x64xf16> -> tensor<64x1xf16>
// CHECK-NEXT: return %[[V]]
func.func @transpose_view_k(%x: tensor<1x64xf16>) -> tensor<64x1xf16>
    attributes {mirage.equivalent_to = @transpose_view} {
  %y = kernel.transpose %x, perm = [1, 0] : tensor<1x64xf16> -> tensor<64x1xf16>
  return %y : tensor<64x1xf16>
}

// A three-dim rotation, f32: the loop accumulates the shortest moved dim
// (output dim 1, from input dim 0), two grid dims split the other two.
// EQUIV: remark: @rotate_k is equivalent to @rotate: finite-field test:
func.func @rotate(%x: tensor<4x6x8xf32>) -> tensor<8x4x6xf32> {
  %y = graph.transpose %x, perm = [2, 0, 1] : tensor<4x6x8xf32> -> tensor<8x4x6xf32>
  return %y : tensor<8x4x6xf32>
}
// CHECK-LABEL: func.func @rotate_k(
// CHECK-NEXT: kernel.graph_def(%arg0) grid = [6, 8] forloop = 4
// CHECK-NEXT: ^bb0
// CHECK-NEXT: block.input %{{.*}} imap = <x: 1, y: 2> fmap = <i: 0> : tensor<4x6x8xf32> -> !block.tile<1x1x1xf32>
// CHECK-NEXT: block.accum concat %{{.*}}, dim = 1 : !block.tile<1x1x1xf32> -> !block.tile<1x4x1xf32>
// CHECK-NEXT: block.output %{{.*}} omap = <x: 2, y: 0> : !block.tile<1x4x1xf32> -> tensor<8x4x6xf32>
func.func @rotate_k(%x: tensor<4x6x8xf32>) -> tensor<8x4x6xf32>
    attributes {mirage.equivalent_to = @rotate} {
  %y = kernel.transpose %x, perm = [2, 0, 1] : tensor<4x6x8xf32> -> tensor<8x4x6xf32>
  return %y : tensor<8x4x6xf32>
}

// A chain: each kernel's block graph reads the previous kernel's tensor;
// the reshape (a view) and the existing graph_def stay as they are.
// EQUIV: remark: @chain_k is equivalent to @chain: finite-field test:
func.func @chain(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<256xf16> {
  %n = graph.rms_norm %x : tensor<8x64xf16>
  %m = graph.matmul %n, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  %e = graph.silu %m : tensor<8x32xf16>
  %r = graph.reshape %e : tensor<8x32xf16> -> tensor<256xf16>
  return %r : tensor<256xf16>
}
// CHECK-LABEL: func.func @chain_k(
// CHECK-NEXT: %[[N:.*]] = kernel.graph_def(%arg0) grid = [1] forloop = 1
// CHECK: block.rms_norm
// CHECK: %[[M:.*]] = kernel.graph_def(%[[N]], %arg1) grid = [1] forloop = 1
// CHECK: block.matmul
// CHECK: %[[E:.*]] = kernel.graph_def(%[[M]]) grid = [2] forloop = 1
// CHECK-NEXT: ^bb0(%[[T:.*]]: tensor<8x32xf16>):
// CHECK-NEXT: block.input %[[T]] imap = <x: 0> fmap = <i: replicate> : tensor<8x32xf16> -> !block.tile<4x32xf16>
// CHECK: %[[R:.*]] = kernel.reshape %[[E]] : tensor<8x32xf16> -> tensor<256xf16>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: kernel.rms_norm
// CHECK-NOT: kernel.matmul
func.func @chain_k(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<256xf16>
    attributes {mirage.equivalent_to = @chain} {
  %n = kernel.rms_norm %x : tensor<8x64xf16>
  %m = kernel.matmul %n, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  %e = kernel.graph_def (%m) grid = [2] forloop = 1 : (tensor<8x32xf16>) -> tensor<8x32xf16> {
  ^bb0(%t: tensor<8x32xf16>):
    %a = block.input %t imap = <x: 0> fmap = <i: replicate> : tensor<8x32xf16> -> !block.tile<4x32xf16>
    %b = block.unary silu %a : !block.tile<4x32xf16>
    %c = block.accum sum %b : !block.tile<4x32xf16> -> !block.tile<4x32xf16>
    %o = block.output %c omap = <x: 0> : !block.tile<4x32xf16> -> tensor<8x32xf16>
    block.yield %o : tensor<8x32xf16>
  }
  %r = kernel.reshape %e : tensor<8x32xf16> -> tensor<256xf16>
  return %r : tensor<256xf16>
}

// Split, f16, along rows: one graph-defined kernel per piece; each reads row
// tiles holding the whole split dim and slices its piece out.
// EQUIV: remark: @split_k is equivalent to @split: finite-field test:
func.func @split(%x: tensor<8x64xf16>) -> (tensor<8x24xf16>, tensor<8x40xf16>) {
  %a:2 = graph.split %x, dim = 1, sizes = [24, 40] : tensor<8x64xf16> -> tensor<8x24xf16>, tensor<8x40xf16>
  return %a#0, %a#1 : tensor<8x24xf16>, tensor<8x40xf16>
}
// CHECK-LABEL: func.func @split_k(
// CHECK: block.slice %{{.*}}, offsets = [0, 0], sizes = [{{[0-9]+}}, 24] : !block.tile<{{[0-9]+}}x64xf16> -> !block.tile<{{[0-9]+}}x24xf16>
// CHECK: block.slice %{{.*}}, offsets = [0, 24], sizes = [{{[0-9]+}}, 40] : !block.tile<{{[0-9]+}}x64xf16> -> !block.tile<{{[0-9]+}}x40xf16>
// CHECK-NOT: kernel.split
func.func @split_k(%x: tensor<8x64xf16>) -> (tensor<8x24xf16>, tensor<8x40xf16>)
    attributes {mirage.equivalent_to = @split} {
  %a:2 = kernel.split %x, dim = 1, sizes = [24, 40] : tensor<8x64xf16> -> tensor<8x24xf16>, tensor<8x40xf16>
  return %a#0, %a#1 : tensor<8x24xf16>, tensor<8x40xf16>
}
