// Known equal pairs pass both methods, at every input scale; the remark
// states the method, the number of tests, the primes, the scales and the
// bound reached.
// RUN: mirage-opt %s --split-input-file --verify-equivalence 2>&1 | FileCheck %s

// Distributivity: A (B + C) = A B + A C. The primes are drawn at random
// for each verification (seeded, so the same run gives the same ones) and
// reported with the seed of their draw; f32 climbs six input scales.
// CHECK: remark: @distributed is equivalent to @factored: finite-field test: 3 tests over p = [[P:[0-9]+]], q = [[Q:[0-9]+]] (random primes, q drawn with seed 0x{{[0-9a-f]+}} from about 2^21.5 31-bit choices; 0 constants, none vanishing or colliding; degree 2, 0 exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}; floating point: 1 input set at input scales 1, 4, 16, 64, 256, 1024 (f32 ladder); fp64: max relative error {{.*}}; native dtypes: max error {{.*}} of allowance
func.func @factored(%A: tensor<8x16xf32>, %B: tensor<16x8xf32>, %C: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %s = graph.add %B, %C : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = graph.matmul %A, %s : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
func.func @distributed(%A: tensor<8x16xf32>, %B: tensor<16x8xf32>, %C: tensor<16x8xf32>) -> tensor<8x8xf32>
    attributes {mirage.equivalent_to = @factored} {
  %ab = graph.matmul %A, %B : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %ac = graph.matmul %A, %C : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %y = graph.add %ab, %ac : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// Softmax written two ways: the op and its stable decomposition, which
// subtracts the row maximum before the exp. Max is an uninterpreted
// function of the row's multiset in the field test, and the decomposition
// does not depend on its value: the full bound. Without the max
// subtraction it is rejected (unstable-numerics.mlir).
// CHECK: remark: @softmax_decomposed is equivalent to @softmax_op: finite-field test: {{[0-9]+}} tests over p = {{.*}} exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}; floating point: 1 input set at input scales 1, 4, 16, 64 (f16 ladder)
func.func @softmax_op(%x: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %y = graph.softmax %x, dim = 1 : tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}
func.func @softmax_decomposed(%x: tensor<4x32xf16>) -> tensor<4x32xf16>
    attributes {mirage.equivalent_to = @softmax_op} {
  %m = graph.reduce_max %x, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %d = graph.sub %x, %m : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e = graph.exp %d : tensor<4x32xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %y = graph.div %e, %s : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}

// -----

// A program that loses precision in its own dtype verifies against an
// identical copy of itself: (x + 1000) - 1000 in f16 keeps only x's bits
// above 2^-1, and its copy does the same. The original's own f16 error is
// the copy's allowance (compared with fp64 alone, it failed).
// CHECK: remark: @shifted_copy is equivalent to @shifted: finite-field test: {{.*}}; floating point: 1 input set at input scales 1, 4, 16, 64 (f16 ladder)
func.func @shifted(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %k = graph.scalar_mul %x, 1.0 : tensor<4x8xf16>
  %a = graph.clamp %k, min = 1000.0, max = 1000.0 : tensor<4x8xf16>
  %s = graph.add %k, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %y = graph.sub %s, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
func.func @shifted_copy(%x: tensor<4x8xf16>) -> tensor<4x8xf16>
    attributes {mirage.equivalent_to = @shifted} {
  %k = graph.scalar_mul %x, 1.0 : tensor<4x8xf16>
  %a = graph.clamp %k, min = 1000.0, max = 1000.0 : tensor<4x8xf16>
  %s = graph.add %k, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %y = graph.sub %s, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

// A stable log-sum-exp-like reduction written two ways (the dialects have
// no log: the eighth root stands in for it, sum(exp(x))^(1/8)): exp(m/8)
// times the root of sum(exp(x - m)), with the row maximum m hoisted out
// before or after the root. Both stay finite in f16 until m/8 overflows.
// CHECK: remark: @lse_hoisted is equivalent to @lse_stable: finite-field test: {{[0-9]+}} tests over {{.*}} exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}
func.func @lse_stable(%x: tensor<4x32xf16>) -> tensor<4x1xf16> {
  %m = graph.reduce_max %x, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %d = graph.sub %x, %m : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e = graph.exp %d : tensor<4x32xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %r = graph.pow %s, 0.125 : tensor<4x1xf16>
  %m8 = graph.scalar_mul %m, 0.125 : tensor<4x1xf16>
  %em = graph.exp %m8 : tensor<4x1xf16>
  %y = graph.mul %r, %em : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  return %y : tensor<4x1xf16>
}
func.func @lse_hoisted(%x: tensor<4x32xf16>) -> tensor<4x1xf16>
    attributes {mirage.equivalent_to = @lse_stable} {
  %m = graph.reduce_max %x, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %m8 = graph.scalar_mul %m, 0.125 : tensor<4x1xf16>
  %em = graph.exp %m8 : tensor<4x1xf16>
  %d = graph.sub %x, %m : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  %e = graph.exp %d : tensor<4x32xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %r = graph.pow %s, 0.125 : tensor<4x1xf16>
  %y = graph.mul %em, %r : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
  return %y : tensor<4x1xf16>
}

// -----

// The RMSNorm + MatMul µGraph of test/Examples, at a small size and in f32:
// the block graph accumulates X W and sum(X^2) over the for-loop and
// divides after it. (In f16 the sum of squares overflows its tile at large
// inputs, where the rms_norm op does not: unstable-numerics.mlir.)
// CHECK: remark: @rms_norm_matmul_fused is equivalent to @rms_norm_matmul: finite-field test
// CHECK-SAME: native dtypes: max error
func.func @rms_norm_matmul(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %n = graph.rms_norm %X : tensor<4x64xf32>
  %y = graph.matmul %n, %W : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func @rms_norm_matmul_fused(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32>
    attributes {mirage.equivalent_to = @rms_norm_matmul} {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 4
      : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x64xf32> -> !block.tile<4x16xf32>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf32> -> !block.tile<16x16xf32>
    %sq = block.unary square %xt : !block.tile<4x16xf32>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<4x16xf32> -> !block.tile<4x1xf32>
    %mm = block.matmul %xt, %wt : (!block.tile<4x16xf32>, !block.tile<16x16xf32>) -> !block.tile<4x16xf32>
    %acc_mm = block.accum sum %mm : !block.tile<4x16xf32> -> !block.tile<4x16xf32>
    %acc_ss = block.accum sum %ss : !block.tile<4x1xf32> -> !block.tile<4x1xf32>
    %mean = block.unary scale %acc_ss params = [0.015625] : !block.tile<4x1xf32>
    %rms = block.unary sqrt %mean : !block.tile<4x1xf32>
    %y = block.binary div %acc_mm, %rms : (!block.tile<4x16xf32>, !block.tile<4x1xf32>) -> !block.tile<4x16xf32>
    %out = block.output %y omap = <x: 1> : !block.tile<4x16xf32> -> tensor<4x32xf32>
    block.yield %out : tensor<4x32xf32>
  }
  return %Y : tensor<4x32xf32>
}

// -----

// GatedMLP with its elementwise tail in a thread.fused chain, and a concat
// accumulator: every level of the interpreter in one program.
// CHECK: remark: @gated_mlp_fused is equivalent to @gated_mlp: finite-field test
func.func @gated_mlp(%X: tensor<4x32xbf16>, %W1: tensor<32x16xbf16>, %W2: tensor<32x16xbf16>) -> tensor<4x16xbf16> {
  %a = graph.matmul %X, %W1 : (tensor<4x32xbf16>, tensor<32x16xbf16>) -> tensor<4x16xbf16>
  %b = graph.matmul %X, %W2 : (tensor<4x32xbf16>, tensor<32x16xbf16>) -> tensor<4x16xbf16>
  %s = graph.silu %a : tensor<4x16xbf16>
  %y = graph.mul %s, %b : (tensor<4x16xbf16>, tensor<4x16xbf16>) -> tensor<4x16xbf16>
  return %y : tensor<4x16xbf16>
}
func.func @gated_mlp_fused(%X: tensor<4x32xbf16>, %W1: tensor<32x16xbf16>, %W2: tensor<32x16xbf16>) -> tensor<4x16xbf16>
    attributes {mirage.equivalent_to = @gated_mlp} {
  %Y = kernel.graph_def (%X, %W1, %W2) grid = [2] forloop = 2
      : (tensor<4x32xbf16>, tensor<32x16xbf16>, tensor<32x16xbf16>) -> tensor<4x16xbf16> {
  ^bb0(%x: tensor<4x32xbf16>, %w1: tensor<32x16xbf16>, %w2: tensor<32x16xbf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x32xbf16> -> !block.tile<4x16xbf16>
    %at = block.input %w1 imap = <x: 1> fmap = <i: 0> : tensor<32x16xbf16> -> !block.tile<16x8xbf16>
    %bt = block.input %w2 imap = <x: 1> fmap = <i: 0> : tensor<32x16xbf16> -> !block.tile<16x8xbf16>
    %m1 = block.matmul %xt, %at : (!block.tile<4x16xbf16>, !block.tile<16x8xbf16>) -> !block.tile<4x8xbf16>
    %m2 = block.matmul %xt, %bt : (!block.tile<4x16xbf16>, !block.tile<16x8xbf16>) -> !block.tile<4x8xbf16>
    %a1 = block.accum sum %m1 : !block.tile<4x8xbf16> -> !block.tile<4x8xbf16>
    %a2 = block.accum sum %m2 : !block.tile<4x8xbf16> -> !block.tile<4x8xbf16>
    %g = thread.fused (%a1, %a2) : (!block.tile<4x8xbf16>, !block.tile<4x8xbf16>) -> !block.tile<4x8xbf16> {
    ^bb0(%p: bf16, %q: bf16):
      %s = thread.unary silu %p : bf16
      %m = thread.binary mul %s, %q : bf16
      thread.yield %m : bf16
    }
    %o = block.output %g omap = <x: 1> : !block.tile<4x8xbf16> -> tensor<4x16xbf16>
    block.yield %o : tensor<4x16xbf16>
  }
  return %Y : tensor<4x16xbf16>
}

// -----

// An elementwise µGraph whose for-loop walks columns and concatenates the
// tiles back: a concat accumulator.
// CHECK: remark: @scaled_tiles is equivalent to @scaled
func.func @scaled(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = graph.scalar_mul %x, 2.0 : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
func.func @scaled_tiles(%x: tensor<8x8xf32>) -> tensor<8x8xf32>
    attributes {mirage.equivalent_to = @scaled} {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 2
      : (tensor<8x8xf32>) -> tensor<8x8xf32> {
  ^bb0(%a: tensor<8x8xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<8x8xf32> -> !block.tile<4x4xf32>
    %s = block.unary scale %t params = [2.0] : !block.tile<4x4xf32>
    %c = block.accum concat %s, dim = 1 : !block.tile<4x4xf32> -> !block.tile<4x8xf32>
    %o = block.output %c omap = <x: 0> : !block.tile<4x8xf32> -> tensor<8x8xf32>
    block.yield %o : tensor<8x8xf32>
  }
  return %Y : tensor<8x8xf32>
}

// -----

// A constant offset is affine in the field: (x + 1) 2 = 2 x + 2 passes the
// finite-field test with its bound (two distinct constants, 1 and 2).
// CHECK: remark: @offset_distributed is equivalent to @offset_factored: finite-field test: 3 tests over {{.*}}; 2 constants, none vanishing or colliding; degree 1, 0 exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}
func.func @offset_factored(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %a = graph.scalar_add %x, 1.0 : tensor<4x32xf32>
  %y = graph.scalar_mul %a, 2.0 : tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func @offset_distributed(%x: tensor<4x32xf32>) -> tensor<4x32xf32>
    attributes {mirage.equivalent_to = @offset_factored} {
  %a = graph.scalar_mul %x, 2.0 : tensor<4x32xf32>
  %y = graph.scalar_add %a, 2.0 : tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
