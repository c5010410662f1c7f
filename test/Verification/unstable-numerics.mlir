// Rewrites that are exact in the reals but overflow their dtype where the
// original does not are rejected: the floating-point checks run at input
// scales 1, 4, 16, ... (inputs uniform in [-s, s)), and the error names the
// scale, the output, the position and both values. These are the
// formulations a search emitted before issue 11, planted here as
// hand-written pairs. equal-pairs.mlir has their stable counterparts.
// The floating-point checks run first (float-first, as in the search): the
// log-sum-exp pair below differs in the field test too (it knows no
// identity of the eighth root), but its point is the overflow.
// RUN: mirage-opt %s --split-input-file --verify-equivalence=float-first=true -verify-diagnostics -o /dev/null

// matmul + add + softmax in f16, the softmax turned into exp / sum / div
// without subtracting the row maximum: at input scale 4 the logits reach
// a few tens, exp overflows f16 (above 11.1) and inf / inf gives NaN.
func.func @mm_softmax(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>, %b: tensor<1x32xf16>) -> tensor<8x32xf16> {
  %m = graph.matmul %x, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  %a = graph.add %m, %b : (tensor<8x32xf16>, tensor<1x32xf16>) -> tensor<8x32xf16>
  %s = graph.softmax %a, dim = 1 : tensor<8x32xf16>
  return %s : tensor<8x32xf16>
}
// expected-error @+1 {{@mm_softmax_no_max is not equivalent to @mm_softmax: output #0 differs at [3, 27] in the f16 check at input scale 4 (inputs in [-4, 4)): @mm_softmax gives 0.9999999999987672 (fp64; 1 in its own f16), @mm_softmax_no_max gives nan in f16 (allowed error 0.0284 = 0.01 relative + 0.01 of the typical magnitude}}
func.func @mm_softmax_no_max(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>, %b: tensor<1x32xf16>) -> tensor<8x32xf16>
    attributes {mirage.equivalent_to = @mm_softmax} {
  %m = graph.matmul %x, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  %a = graph.add %m, %b : (tensor<8x32xf16>, tensor<1x32xf16>) -> tensor<8x32xf16>
  %e = graph.exp %a : tensor<8x32xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<8x32xf16> -> tensor<8x1xf16>
  %y = graph.div %e, %s : (tensor<8x32xf16>, tensor<8x1xf16>) -> tensor<8x32xf16>
  return %y : tensor<8x32xf16>
}

// -----

// Attention, softmax(Q K^T / 8) V in f16, with the softmax without its max
// subtraction (as kernels: the form the search emits).
func.func @attention(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %kt = kernel.transpose %k, perm = [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
  %s = kernel.matmul %q, %kt : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %t = kernel.unary scale %s params = [0.125] : tensor<64x64xf16>
  %p = kernel.softmax %t, dim = 1 : tensor<64x64xf16>
  %o = kernel.matmul %p, %v : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  return %o : tensor<64x64xf16>
}
// expected-error @+1 {{@attention_no_max is not equivalent to @attention: output #0 differs at [43, 43] in the f16 check at input scale 4 (inputs in [-4, 4)): @attention gives -3.9668531220388883 (fp64; -3.966796875 in its own f16), @attention_no_max gives nan in f16}}
func.func @attention_no_max(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>) -> tensor<64x64xf16>
    attributes {mirage.equivalent_to = @attention} {
  %kt = kernel.transpose %k, perm = [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
  %s = kernel.matmul %q, %kt : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %t = kernel.unary scale %s params = [0.125] : tensor<64x64xf16>
  %e = kernel.unary exp %t : tensor<64x64xf16>
  %z = kernel.reduce sum %e, dim = 1 : tensor<64x64xf16> -> tensor<64x1xf16>
  %p = kernel.binary div %e, %z : (tensor<64x64xf16>, tensor<64x1xf16>) -> tensor<64x64xf16>
  %o = kernel.matmul %p, %v : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  return %o : tensor<64x64xf16>
}

// -----

// RMSNorm + MatMul in f16 (8 x 4096 times 4096 x 64), fused, with the sum
// of squares of each whole row in an f16 tile. It overflows once a row's
// RMS exceeds sqrt(65504 / 4096) = 4 (inputs in [-16, 16) have RMS 9.2),
// and every output becomes 0; rms_norm itself stays accurate.
func.func @rms_norm_matmul(%X: tensor<8x4096xf16>, %W: tensor<4096x64xf16>) -> tensor<8x64xf16> {
  %n = kernel.rms_norm %X : tensor<8x4096xf16>
  %y = kernel.matmul %n, %W : (tensor<8x4096xf16>, tensor<4096x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
// expected-error @+1 {{@rms_norm_matmul_f16_squares is not equivalent to @rms_norm_matmul: output #0 differs at [3, 39] in the f16 check at input scale 16 (inputs in [-16, 16)): @rms_norm_matmul gives 1846.4490716112473 (fp64; 1846 in its own f16), @rms_norm_matmul_f16_squares gives 0 in f16}}
func.func @rms_norm_matmul_f16_squares(%X: tensor<8x4096xf16>, %W: tensor<4096x64xf16>) -> tensor<8x64xf16>
    attributes {mirage.equivalent_to = @rms_norm_matmul} {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 1
      : (tensor<8x4096xf16>, tensor<4096x64xf16>) -> tensor<8x64xf16> {
  ^bb0(%x: tensor<8x4096xf16>, %w: tensor<4096x64xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<8x4096xf16> -> !block.tile<8x4096xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: replicate> : tensor<4096x64xf16> -> !block.tile<4096x32xf16>
    %sq = block.unary square %xt : !block.tile<8x4096xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<8x4096xf16> -> !block.tile<8x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<8x4096xf16>, !block.tile<4096x32xf16>) -> !block.tile<8x32xf16>
    %acc_mm = block.accum sum %mm : !block.tile<8x32xf16> -> !block.tile<8x32xf16>
    %acc_ss = block.accum sum %ss : !block.tile<8x1xf16> -> !block.tile<8x1xf16>
    %y = thread.fused (%acc_mm, %acc_ss) : (!block.tile<8x32xf16>, !block.tile<8x1xf16>) -> !block.tile<8x32xf16> {
    ^bb0(%m: f16, %s: f16):
      %mean = thread.unary scale %s params = [2.44140625E-4] : f16
      %rms = thread.unary sqrt %mean : f16
      %q = thread.binary div %m, %rms : f16
      thread.yield %q : f16
    }
    %out = block.output %y omap = <x: 1> : !block.tile<8x32xf16> -> tensor<8x64xf16>
    block.yield %out : tensor<8x64xf16>
  }
  return %Y : tensor<8x64xf16>
}

// -----

// The same over a for-loop of 16 steps, as the search emits it: each step's
// sum of 256 squares is an f16 tile (the accumulator is f32, as on the
// GPU), which overflows once a row's RMS exceeds 16: at input scale 64.
func.func @rms_norm_matmul(%X: tensor<8x4096xf16>, %W: tensor<4096x64xf16>) -> tensor<8x64xf16> {
  %n = kernel.rms_norm %X : tensor<8x4096xf16>
  %y = kernel.matmul %n, %W : (tensor<8x4096xf16>, tensor<4096x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
// expected-error @+1 {{@rms_norm_matmul_looped is not equivalent to @rms_norm_matmul: output #0 differs at [5, 38] in the f16 check at input scale 64 (inputs in [-64, 64)): @rms_norm_matmul gives -6599.938817748336 (fp64; -6600 in its own f16), @rms_norm_matmul_looped gives -0 in f16}}
func.func @rms_norm_matmul_looped(%X: tensor<8x4096xf16>, %W: tensor<4096x64xf16>) -> tensor<8x64xf16>
    attributes {mirage.equivalent_to = @rms_norm_matmul} {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 16
      : (tensor<8x4096xf16>, tensor<4096x64xf16>) -> tensor<8x64xf16> {
  ^bb0(%x: tensor<8x4096xf16>, %w: tensor<4096x64xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<8x4096xf16> -> !block.tile<8x256xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<4096x64xf16> -> !block.tile<256x32xf16>
    %sq = block.unary square %xt : !block.tile<8x256xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<8x256xf16> -> !block.tile<8x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<8x256xf16>, !block.tile<256x32xf16>) -> !block.tile<8x32xf16>
    %acc_mm = block.accum sum %mm : !block.tile<8x32xf16> -> !block.tile<8x32xf16>
    %acc_ss = block.accum sum %ss : !block.tile<8x1xf16> -> !block.tile<8x1xf16>
    %y = thread.fused (%acc_mm, %acc_ss) : (!block.tile<8x32xf16>, !block.tile<8x1xf16>) -> !block.tile<8x32xf16> {
    ^bb0(%m: f16, %s: f16):
      %mean = thread.unary scale %s params = [2.44140625E-4] : f16
      %rms = thread.unary sqrt %mean : f16
      %q = thread.binary div %m, %rms : f16
      thread.yield %q : f16
    }
    %out = block.output %y omap = <x: 1> : !block.tile<8x32xf16> -> tensor<8x64xf16>
    block.yield %out : tensor<8x64xf16>
  }
  return %Y : tensor<8x64xf16>
}

// -----

// A log-sum-exp-like reduction (the dialects have no log: the eighth root
// stands in for it) computed without the max: sum(exp(x))^(1/8) overflows
// f16 once an input exceeds 11.1, while the stable form, exp(m/8) times
// the root of sum(exp(x - m)), stays finite until m/8 does.
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
// expected-error @+1 {{@lse_unstable is not equivalent to @lse_stable: output #0 differs at [3, 0] in the f16 check at input scale 16 (inputs in [-16, 16)): @lse_stable gives 7.845360066312095 (fp64; 7.84375 in its own f16), @lse_unstable gives inf in f16}}
func.func @lse_unstable(%x: tensor<4x32xf16>) -> tensor<4x1xf16>
    attributes {mirage.equivalent_to = @lse_stable} {
  %e = graph.exp %x : tensor<4x32xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %y = graph.pow %s, 0.125 : tensor<4x1xf16>
  return %y : tensor<4x1xf16>
}

// -----

// f32 overflows too: exp(x) without the max subtraction is inf in f32 above
// 88.7, which inputs at scale 256 reach.
func.func @softmax_f32(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = graph.softmax %x, dim = 1 : tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
// expected-error @+1 {{@softmax_f32_no_max is not equivalent to @softmax_f32: output #0 differs at [2, 26] in the f32 check at input scale 256 (inputs in [-256, 256)): @softmax_f32 gives 0.9985867373701451 (fp64; 0.9985867142677307 in its own f32), @softmax_f32_no_max gives nan in f32}}
func.func @softmax_f32_no_max(%x: tensor<4x32xf32>) -> tensor<4x32xf32>
    attributes {mirage.equivalent_to = @softmax_f32} {
  %e = graph.exp %x : tensor<4x32xf32>
  %s = graph.reduce_sum %e, dim = 1 : tensor<4x32xf32> -> tensor<4x1xf32>
  %y = graph.div %e, %s : (tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

