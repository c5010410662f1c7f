// Planted wrong µGraphs are caught: the error names the first differing
// output, a position where it differs (in a floating-point check, the one
// where the original's value is largest), both values and, for a
// floating-point check, the input scale.
// RUN: mirage-opt %s --split-input-file --verify-equivalence -verify-diagnostics -o /dev/null

// Wrong omap: the blocks of a 2 x 2 grid write their tiles to transposed
// places.
func.func @scaled(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = graph.scalar_mul %x, 2.0 : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
// expected-error @+1 {{@scaled_wrong_omap is not equivalent to @scaled: output #0 differs at [0, 4] in the finite-field test 1 of 3: @scaled gives}}
func.func @scaled_wrong_omap(%x: tensor<8x8xf32>) -> tensor<8x8xf32>
    attributes {mirage.equivalent_to = @scaled} {
  %Y = kernel.graph_def (%x) grid = [2, 2] forloop = 1
      : (tensor<8x8xf32>) -> tensor<8x8xf32> {
  ^bb0(%a: tensor<8x8xf32>):
    %t = block.input %a imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x8xf32> -> !block.tile<4x4xf32>
    %s = block.unary scale %t params = [2.0] : !block.tile<4x4xf32>
    %c = block.accum sum %s : !block.tile<4x4xf32> -> !block.tile<4x4xf32>
    %o = block.output %c omap = <x: 1, y: 0> : !block.tile<4x4xf32> -> tensor<8x8xf32>
    block.yield %o : tensor<8x8xf32>
  }
  return %Y : tensor<8x8xf32>
}

// -----

// Wrong fmap: the sum of squares reads the whole row every iteration
// (fmap replicate instead of the loop dimension), so it is 4x too large.
func.func @rms_norm_matmul(%X: tensor<4x64xf16>, %W: tensor<64x32xf16>) -> tensor<4x32xf16> {
  %n = graph.rms_norm %X : tensor<4x64xf16>
  %y = graph.matmul %n, %W : (tensor<4x64xf16>, tensor<64x32xf16>) -> tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}
// expected-error @+1 {{@wrong_fmap is not equivalent to @rms_norm_matmul: output #0 differs at [0, 0] in the finite-field test 1 of 3}}
func.func @wrong_fmap(%X: tensor<4x64xf16>, %W: tensor<64x32xf16>) -> tensor<4x32xf16>
    attributes {mirage.equivalent_to = @rms_norm_matmul} {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 4
      : (tensor<4x64xf16>, tensor<64x32xf16>) -> tensor<4x32xf16> {
  ^bb0(%x: tensor<4x64xf16>, %w: tensor<64x32xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x64xf16> -> !block.tile<4x16xf16>
    %xs = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<4x64xf16> -> !block.tile<4x64xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf16> -> !block.tile<16x16xf16>
    %sq = block.unary square %xs : !block.tile<4x64xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<4x64xf16> -> !block.tile<4x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<4x16xf16>, !block.tile<16x16xf16>) -> !block.tile<4x16xf16>
    %acc_mm = block.accum sum %mm : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %acc_ss = block.accum sum %ss : !block.tile<4x1xf16> -> !block.tile<4x1xf16>
    %mean = block.unary scale %acc_ss params = [0.015625] : !block.tile<4x1xf16>
    %rms = block.unary sqrt %mean : !block.tile<4x1xf16>
    %y = block.binary div %acc_mm, %rms : (!block.tile<4x16xf16>, !block.tile<4x1xf16>) -> !block.tile<4x16xf16>
    %out = block.output %y omap = <x: 1> : !block.tile<4x16xf16> -> tensor<4x32xf16>
    block.yield %out : tensor<4x32xf16>
  }
  return %Y : tensor<4x32xf16>
}

// -----

// Off-by-one reduction: the sum misses the last element of each row.
func.func @row_sum(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  %s = graph.reduce_sum %x, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// expected-error @+1 {{@row_sum_off_by_one is not equivalent to @row_sum: output #0 differs at [0, 0] in the finite-field test 1 of 3}}
func.func @row_sum_off_by_one(%x: tensor<4x64xf32>) -> tensor<4x1xf32>
    attributes {mirage.equivalent_to = @row_sum} {
  %a, %b = graph.split %x, dim = 1, sizes = [63, 1] : tensor<4x64xf32> -> tensor<4x63xf32>, tensor<4x1xf32>
  %s = graph.reduce_sum %a, dim = 1 : tensor<4x63xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// -----

// Max is in the field fragment (an uninterpreted function of the multiset
// it ranges over): the max of half of each row is another multiset.
func.func @row_max(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  %s = graph.reduce_max %x, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// expected-error @+1 {{@row_max_of_half is not equivalent to @row_max: output #0 differs at [0, 0] in the finite-field test 1 of}}
func.func @row_max_of_half(%x: tensor<4x64xf32>) -> tensor<4x1xf32>
    attributes {mirage.equivalent_to = @row_max} {
  %a, %b = graph.split %x, dim = 1, sizes = [32, 32] : tensor<4x64xf32> -> tensor<4x32xf32>, tensor<4x32xf32>
  %s = graph.reduce_max %a, dim = 1 : tensor<4x32xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// -----

// Outside the LAX fragment (two exps on one path), the floating-point check
// still catches a wrong program, and the user is told the guarantee is
// weaker.
func.func @exp_exp(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  // expected-warning @+1 {{'graph.exp' is outside the LAX fragment of the finite-field verifier (graph.exp: two exps on one input-to-output path); equivalence is checked by floating point only, a weaker guarantee}}
  %e = graph.exp %x : tensor<4x64xf32>
  %h = graph.scalar_mul %e, 0.25 : tensor<4x64xf32>
  %ee = graph.exp %h : tensor<4x64xf32>
  %s = graph.reduce_sum %ee, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// expected-error @+1 {{@exp_exp_of_half is not equivalent to @exp_exp: output #0 differs at}}
func.func @exp_exp_of_half(%x: tensor<4x64xf32>) -> tensor<4x1xf32>
    attributes {mirage.equivalent_to = @exp_exp} {
  %a, %b = graph.split %x, dim = 1, sizes = [32, 32] : tensor<4x64xf32> -> tensor<4x32xf32>, tensor<4x32xf32>
  %e = graph.exp %a : tensor<4x32xf32>
  %h = graph.scalar_mul %e, 0.25 : tensor<4x32xf32>
  %ee = graph.exp %h : tensor<4x32xf32>
  %s = graph.reduce_sum %ee, dim = 1 : tensor<4x32xf32> -> tensor<4x1xf32>
  %t = graph.scalar_mul %s, 2.0 : tensor<4x1xf32>
  return %t : tensor<4x1xf32>
}

// -----

// A numerically unstable rewrite: equal in real arithmetic (the field test
// and fp64 agree), but in f16 (x + 1000) - 1000 loses x's low bits.
func.func @identity(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = graph.scalar_mul %x, 1.0 : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
// expected-error @+1 {{@shifted is not equivalent to @identity: output #0 differs at [1, 1] in the f16 check at input scale 1 (inputs in [-1, 1)): @identity gives 0.9814453125 (fp64; 0.9814453125 in its own f16), @shifted gives 1 in f16}}
func.func @shifted(%x: tensor<4x8xf16>) -> tensor<4x8xf16>
    attributes {mirage.equivalent_to = @identity} {
  %k = graph.scalar_mul %x, 1.0 : tensor<4x8xf16>
  %a = graph.clamp %k, min = 1000.0, max = 1000.0 : tensor<4x8xf16>
  %s = graph.add %k, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %y = graph.sub %s, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}

// -----

// Outside the fragment the floating-point checks decide alone, at several
// input scales with three input sets each: at [-1, 1) clamping to [-1, 1]
// changes nothing, at [-4, 4) it does.
func.func @exp_exp(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  // expected-warning @+1 {{'graph.exp' is outside the LAX fragment}}
  %e = graph.exp %x : tensor<4x64xf32>
  %h = graph.scalar_mul %e, 0.25 : tensor<4x64xf32>
  %ee = graph.exp %h : tensor<4x64xf32>
  %s = graph.reduce_sum %ee, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// expected-error @+1 {{@exp_exp_clamped is not equivalent to @exp_exp: output #0 differs at}}
func.func @exp_exp_clamped(%x: tensor<4x64xf32>) -> tensor<4x1xf32>
    attributes {mirage.equivalent_to = @exp_exp} {
  %c = graph.clamp %x, min = -1.0, max = 1.0 : tensor<4x64xf32>
  %e = graph.exp %c : tensor<4x64xf32>
  %h = graph.scalar_mul %e, 0.25 : tensor<4x64xf32>
  %ee = graph.exp %h : tensor<4x64xf32>
  %s = graph.reduce_sum %ee, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// -----

// A wrong offset: (x + 1) 2 is not 2 x + 1.
func.func @offset_then_scale(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %a = graph.scalar_add %x, 1.0 : tensor<4x32xf32>
  %y = graph.scalar_mul %a, 2.0 : tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
// expected-error @+1 {{@offset_wrong is not equivalent to @offset_then_scale: output #0 differs at [0, 0] in the finite-field test 1 of 3}}
func.func @offset_wrong(%x: tensor<4x32xf32>) -> tensor<4x32xf32>
    attributes {mirage.equivalent_to = @offset_then_scale} {
  %a = graph.scalar_mul %x, 2.0 : tensor<4x32xf32>
  %y = graph.scalar_add %a, 1.0 : tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// A kernel with two outputs (docs/Search.md, "Two outputs") whose second
// saver writes the normalized tile where the residual sum belongs: the
// first output is right, the second is caught.
func.func @residual_norm(%X: tensor<4x64xf32>, %R: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  %h = graph.add %X, %R : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %y = graph.rms_norm %h : tensor<4x64xf32>
  return %h, %y : tensor<4x64xf32>, tensor<4x64xf32>
}
// expected-error @+1 {{@residual_norm_wrong_second is not equivalent to @residual_norm: output #0 differs}}
func.func @residual_norm_wrong_second(%X: tensor<4x64xf32>, %R: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>)
    attributes {mirage.equivalent_to = @residual_norm} {
  %K:2 = kernel.graph_def (%X, %R) grid = [4] forloop = 1
      : (tensor<4x64xf32>, tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  ^bb0(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>):
    %x = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<1x64xf32>
    %r = block.input %b imap = <x: 0> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<1x64xf32>
    %h = block.binary add %x, %r : (!block.tile<1x64xf32>, !block.tile<1x64xf32>) -> !block.tile<1x64xf32>
    %n = block.rms_norm %h, dim = 1 : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %yc = block.accum sum %n : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %hc = block.accum sum %n : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %yo = block.output %yc omap = <x: 0> : !block.tile<1x64xf32> -> tensor<4x64xf32>
    %ho = block.output %hc omap = <x: 0> : !block.tile<1x64xf32> -> tensor<4x64xf32>
    block.yield %yo, %ho : tensor<4x64xf32>, tensor<4x64xf32>
  }
  return %K#1, %K#0 : tensor<4x64xf32>, tensor<4x64xf32>
}

// -----

// The same kernel, right, with its results returned in the wrong order.
func.func @residual_norm(%X: tensor<4x64xf32>, %R: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  %h = graph.add %X, %R : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %y = graph.rms_norm %h : tensor<4x64xf32>
  return %h, %y : tensor<4x64xf32>, tensor<4x64xf32>
}
// expected-error @+1 {{@residual_norm_swapped is not equivalent to @residual_norm: output #0 differs}}
func.func @residual_norm_swapped(%X: tensor<4x64xf32>, %R: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>)
    attributes {mirage.equivalent_to = @residual_norm} {
  %K:2 = kernel.graph_def (%X, %R) grid = [4] forloop = 1
      : (tensor<4x64xf32>, tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  ^bb0(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>):
    %x = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<1x64xf32>
    %r = block.input %b imap = <x: 0> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<1x64xf32>
    %h = block.binary add %x, %r : (!block.tile<1x64xf32>, !block.tile<1x64xf32>) -> !block.tile<1x64xf32>
    %n = block.rms_norm %h, dim = 1 : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %yc = block.accum sum %n : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %hc = block.accum sum %h : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %yo = block.output %yc omap = <x: 0> : !block.tile<1x64xf32> -> tensor<4x64xf32>
    %ho = block.output %hc omap = <x: 0> : !block.tile<1x64xf32> -> tensor<4x64xf32>
    block.yield %yo, %ho : tensor<4x64xf32>, tensor<4x64xf32>
  }
  return %K#0, %K#1 : tensor<4x64xf32>, tensor<4x64xf32>
}

// -----

// And right: the kernel --superoptimize emits for this program.
func.func @residual_norm(%X: tensor<4x64xf32>, %R: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  %h = graph.add %X, %R : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %y = graph.rms_norm %h : tensor<4x64xf32>
  return %h, %y : tensor<4x64xf32>, tensor<4x64xf32>
}
// expected-remark @+1 {{@residual_norm_two_outputs is equivalent to @residual_norm}}
func.func @residual_norm_two_outputs(%X: tensor<4x64xf32>, %R: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>)
    attributes {mirage.equivalent_to = @residual_norm} {
  %K:2 = kernel.graph_def (%X, %R) grid = [4] forloop = 1
      : (tensor<4x64xf32>, tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  ^bb0(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>):
    %x = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<1x64xf32>
    %r = block.input %b imap = <x: 0> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<1x64xf32>
    %h = block.binary add %x, %r : (!block.tile<1x64xf32>, !block.tile<1x64xf32>) -> !block.tile<1x64xf32>
    %n = block.rms_norm %h, dim = 1 : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %yc = block.accum sum %n : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %hc = block.accum sum %h : !block.tile<1x64xf32> -> !block.tile<1x64xf32>
    %yo = block.output %yc omap = <x: 0> : !block.tile<1x64xf32> -> tensor<4x64xf32>
    %ho = block.output %hc omap = <x: 0> : !block.tile<1x64xf32> -> tensor<4x64xf32>
    block.yield %yo, %ho : tensor<4x64xf32>, tensor<4x64xf32>
  }
  return %K#1, %K#0 : tensor<4x64xf32>, tensor<4x64xf32>
}
