// Max in the finite-field test (docs/Verification.md, "Max"): an
// uninterpreted function of the multiset of values it ranges over, so a
// max split over a for-loop, halves or pooling windows verifies with the
// full bound, and so does every program whose output does not depend on
// the maximum it subtracts (softmax, online rescaling). Planted mistakes in
// such programs (a wrong rescale, a max over the wrong axis, a missing
// rescale of one partial) are rejected by the field test itself.
// RUN: not mirage-opt %s --split-input-file --verify-equivalence 2>&1 | FileCheck %s

// A row maximum taken by a for-loop: a block-level max per iteration, a
// max accumulator across the iterations.
// CHECK: remark: @row_max_looped is equivalent to @row_max: finite-field test: {{[0-9]+}} tests over {{.*}}; degree 1, 3 exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}
func.func @row_max(%x: tensor<8x64xf32>) -> tensor<8x1xf32> {
  %m = graph.reduce_max %x, dim = 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  return %m : tensor<8x1xf32>
}
func.func @row_max_looped(%x: tensor<8x64xf32>) -> tensor<8x1xf32>
    attributes {mirage.equivalent_to = @row_max} {
  %M = kernel.graph_def (%x) grid = [2] forloop = 4 : (tensor<8x64xf32>) -> tensor<8x1xf32> {
  ^bb0(%a: tensor<8x64xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<8x64xf32> -> !block.tile<4x16xf32>
    %r = block.reduce max %t, dim = 1 : !block.tile<4x16xf32> -> !block.tile<4x1xf32>
    %acc = block.accum max %r : !block.tile<4x1xf32> -> !block.tile<4x1xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<4x1xf32> -> tensor<8x1xf32>
    block.yield %o : tensor<8x1xf32>
  }
  return %M : tensor<8x1xf32>
}

// -----

// Max pooling with padding against maxima of windows taken by hand: the
// padding is left out of each window's multiset.
// CHECK: remark: @pool_by_hand is equivalent to @pool: finite-field test:
func.func @pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %y = graph.max_pool2d %x, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}
func.func @pool_by_hand(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    attributes {mirage.equivalent_to = @pool} {
  %r = graph.reshape %x : tensor<1x2x4x4xf32> -> tensor<2x2x2x2x2xf32>
  %c = graph.reduce_max %r, dim = 4 : tensor<2x2x2x2x2xf32> -> tensor<2x2x2x2x1xf32>
  %t = graph.transpose %c, perm = [0, 1, 3, 2, 4] : tensor<2x2x2x2x1xf32> -> tensor<2x2x2x2x1xf32>
  %m = graph.reduce_max %t, dim = 3 : tensor<2x2x2x2x1xf32> -> tensor<2x2x2x1x1xf32>
  %y = graph.reshape %m : tensor<2x2x2x1x1xf32> -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// Attention's softmax(S) V split in two halves of the keys, FlashDecoding
// style: each half keeps its own maximum m_j, sum l_j and weighted sum
// a_j; the halves are combined with the rescales exp(m_j - M), M the
// maximum of both. The output does not depend on which value max picks.
// CHECK: remark: @attention_split is equivalent to @attention: finite-field test: {{[0-9]+}} tests over {{.*}} exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}; floating point: 1 input set at input scales 1, 4, 16, 64 (f16 ladder)
// CHECK: error: @attention_one_partial_unscaled is not equivalent to @attention: output #0 differs at [0, 0] in the finite-field test 1 of
// CHECK: error: @attention_rescale_inverted is not equivalent to @attention: output #0 differs at [0, 0] in the finite-field test 1 of
// CHECK: error: @attention_max_wrong_axis is not equivalent to @attention: output #0 differs at [0, 0] in the finite-field test 1 of
func.func @attention(%s: tensor<4x64xf16>, %v: tensor<64x8xf16>) -> tensor<4x8xf16> {
  %p = graph.softmax %s, dim = 1 : tensor<4x64xf16>
  %o = graph.matmul %p, %v : (tensor<4x64xf16>, tensor<64x8xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}
func.func @attention_split(%s: tensor<4x64xf16>, %v: tensor<64x8xf16>) -> tensor<4x8xf16>
    attributes {mirage.equivalent_to = @attention} {
  %s1, %s2 = graph.split %s, dim = 1, sizes = [32, 32] : tensor<4x64xf16> -> tensor<4x32xf16>, tensor<4x32xf16>
  %v1, %v2 = graph.split %v, dim = 0, sizes = [32, 32] : tensor<64x8xf16> -> tensor<32x8xf16>, tensor<32x8xf16>
  %m1 = graph.reduce_max %s1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %m2 = graph.reduce_max %s2, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %d1 = graph.sub %s1, %m1 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %d2 = graph.sub %s2, %m2 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e1 = graph.exp %d1 : tensor<4x32xf16>
  %e2 = graph.exp %d2 : tensor<4x32xf16>
  %l1 = graph.reduce_sum %e1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %l2 = graph.reduce_sum %e2, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %a1 = graph.matmul %e1, %v1 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %a2 = graph.matmul %e2, %v2 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %mm = graph.concat(%m1, %m2) dim = 1 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x2xf16>
  %M = graph.reduce_max %mm, dim = 1 : tensor<4x2xf16> -> tensor<4x1xf16>
  %g1 = graph.sub %m1, %M : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %g2 = graph.sub %m2, %M : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %r1 = graph.exp %g1 : tensor<4x1xf16>
  %r2 = graph.exp %g2 : tensor<4x1xf16>
  %b1 = graph.mul %a1, %r1 : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  %b2 = graph.mul %a2, %r2 : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  %k1 = graph.mul %l1, %r1 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %k2 = graph.mul %l2, %r2 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %num = graph.add %b1, %b2 : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %den = graph.add %k1, %k2 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %o = graph.div %num, %den : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}
// Planted: the second partial is added without its rescale exp(m2 - M).
func.func @attention_one_partial_unscaled(%s: tensor<4x64xf16>, %v: tensor<64x8xf16>) -> tensor<4x8xf16>
    attributes {mirage.equivalent_to = @attention} {
  %s1, %s2 = graph.split %s, dim = 1, sizes = [32, 32] : tensor<4x64xf16> -> tensor<4x32xf16>, tensor<4x32xf16>
  %v1, %v2 = graph.split %v, dim = 0, sizes = [32, 32] : tensor<64x8xf16> -> tensor<32x8xf16>, tensor<32x8xf16>
  %m1 = graph.reduce_max %s1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %m2 = graph.reduce_max %s2, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %d1 = graph.sub %s1, %m1 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %d2 = graph.sub %s2, %m2 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e1 = graph.exp %d1 : tensor<4x32xf16>
  %e2 = graph.exp %d2 : tensor<4x32xf16>
  %l1 = graph.reduce_sum %e1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %l2 = graph.reduce_sum %e2, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %a1 = graph.matmul %e1, %v1 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %a2 = graph.matmul %e2, %v2 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %mm = graph.concat(%m1, %m2) dim = 1 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x2xf16>
  %M = graph.reduce_max %mm, dim = 1 : tensor<4x2xf16> -> tensor<4x1xf16>
  %g1 = graph.sub %m1, %M : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %r1 = graph.exp %g1 : tensor<4x1xf16>
  %b1 = graph.mul %a1, %r1 : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  %k1 = graph.mul %l1, %r1 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %num = graph.add %b1, %a2 : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %den = graph.add %k1, %l2 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %o = graph.div %num, %den : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}
// Planted, online order: the first half's running state is rescaled by
// exp(m_new - m_old) instead of exp(m_old - m_new).
func.func @attention_rescale_inverted(%s: tensor<4x64xf16>, %v: tensor<64x8xf16>) -> tensor<4x8xf16>
    attributes {mirage.equivalent_to = @attention} {
  %s1, %s2 = graph.split %s, dim = 1, sizes = [32, 32] : tensor<4x64xf16> -> tensor<4x32xf16>, tensor<4x32xf16>
  %v1, %v2 = graph.split %v, dim = 0, sizes = [32, 32] : tensor<64x8xf16> -> tensor<32x8xf16>, tensor<32x8xf16>
  %m1 = graph.reduce_max %s1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %d1 = graph.sub %s1, %m1 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e1 = graph.exp %d1 : tensor<4x32xf16>
  %l1 = graph.reduce_sum %e1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %a1 = graph.matmul %e1, %v1 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %c2 = graph.concat(%m1, %s2) dim = 1 : (tensor<4x1xf16>, tensor<4x32xf16>) -> tensor<4x33xf16>
  %m2 = graph.reduce_max %c2, dim = 1 : tensor<4x33xf16> -> tensor<4x1xf16>
  %g = graph.sub %m2, %m1 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %alpha = graph.exp %g : tensor<4x1xf16>
  %d2 = graph.sub %s2, %m2 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e2 = graph.exp %d2 : tensor<4x32xf16>
  %l2 = graph.reduce_sum %e2, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %a2 = graph.matmul %e2, %v2 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %b1 = graph.mul %a1, %alpha : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  %k1 = graph.mul %l1, %alpha : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %num = graph.add %b1, %a2 : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %den = graph.add %k1, %l2 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %o = graph.div %num, %den : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}
// Planted: the maximum is taken over the rows (dim 0) instead of along
// each row, so it changes along the softmax axis and does not cancel.
func.func @attention_max_wrong_axis(%s: tensor<4x64xf16>, %v: tensor<64x8xf16>) -> tensor<4x8xf16>
    attributes {mirage.equivalent_to = @attention} {
  %m = graph.reduce_max %s, dim = 0 : tensor<4x64xf16> -> tensor<1x64xf16>
  %d = graph.sub %s, %m : (tensor<4x64xf16>, tensor<1x64xf16>) -> tensor<4x64xf16>
  %e = graph.exp %d : tensor<4x64xf16>
  %l = graph.reduce_sum %e, dim = 1 : tensor<4x64xf16> -> tensor<4x1xf16>
  %a = graph.matmul %e, %v : (tensor<4x64xf16>, tensor<64x8xf16>) -> tensor<4x8xf16>
  %o = graph.div %a, %l : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}

// -----

// The same split in online order, as a for-loop runs it: the running
// maximum m2 = max(m1, row max of the second half), the state rescaled by
// exp(m1 - m2).
// CHECK: remark: @attention_online is equivalent to @attention: finite-field test: {{[0-9]+}} tests over {{.*}} exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}; floating point: 1 input set at input scales 1, 4, 16, 64 (f16 ladder)
func.func @attention(%s: tensor<4x64xf16>, %v: tensor<64x8xf16>) -> tensor<4x8xf16> {
  %p = graph.softmax %s, dim = 1 : tensor<4x64xf16>
  %o = graph.matmul %p, %v : (tensor<4x64xf16>, tensor<64x8xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}
func.func @attention_online(%s: tensor<4x64xf16>, %v: tensor<64x8xf16>) -> tensor<4x8xf16>
    attributes {mirage.equivalent_to = @attention} {
  %s1, %s2 = graph.split %s, dim = 1, sizes = [32, 32] : tensor<4x64xf16> -> tensor<4x32xf16>, tensor<4x32xf16>
  %v1, %v2 = graph.split %v, dim = 0, sizes = [32, 32] : tensor<64x8xf16> -> tensor<32x8xf16>, tensor<32x8xf16>
  %m1 = graph.reduce_max %s1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %d1 = graph.sub %s1, %m1 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e1 = graph.exp %d1 : tensor<4x32xf16>
  %l1 = graph.reduce_sum %e1, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %a1 = graph.matmul %e1, %v1 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %c2 = graph.concat(%m1, %s2) dim = 1 : (tensor<4x1xf16>, tensor<4x32xf16>) -> tensor<4x33xf16>
  %m2 = graph.reduce_max %c2, dim = 1 : tensor<4x33xf16> -> tensor<4x1xf16>
  %g = graph.sub %m1, %m2 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %alpha = graph.exp %g : tensor<4x1xf16>
  %d2 = graph.sub %s2, %m2 : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e2 = graph.exp %d2 : tensor<4x32xf16>
  %l2 = graph.reduce_sum %e2, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %a2 = graph.matmul %e2, %v2 : (tensor<4x32xf16>, tensor<32x8xf16>) -> tensor<4x8xf16>
  %b1 = graph.mul %a1, %alpha : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  %k1 = graph.mul %l1, %alpha : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %num = graph.add %b1, %a2 : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %den = graph.add %k1, %l2 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  %o = graph.div %num, %den : (tensor<4x8xf16>, tensor<4x1xf16>) -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}
