// Casts in verification (issue 24; docs/Verification.md, "Casts"). The
// finite-field test sees a cast as the identity (the real-number algebra);
// the floating-point checks run each program in its own dtypes, so the
// rounding a cast does, or the range a widening cast buys, is judged
// there: a rewrite that drops a widening cast and computes in f16 what
// the original computes in f32 is rejected where f16 overflows.
// RUN: mirage-opt %s --split-input-file --verify-equivalence -verify-diagnostics -o /dev/null

// T5's layer norm as HF writes it: the variance in f32, the result back
// in f16; and the same program in kernels (the default schedule's form).
func.func @t5_norm(%x: tensor<4x1024xf16>, %w: tensor<1024xf16>) -> tensor<4x1024xf16> {
  %x32 = graph.cast %x : tensor<4x1024xf16> -> tensor<4x1024xf32>
  %sq = graph.square %x32 : tensor<4x1024xf32>
  %s = graph.reduce_sum %sq, dim = 1 : tensor<4x1024xf32> -> tensor<4x1xf32>
  %m = graph.scalar_mul %s, 9.765625E-4 : tensor<4x1xf32>
  %v = graph.scalar_add %m, 1.0e-06 : tensor<4x1xf32>
  %r = graph.pow %v, -5.000000e-01 : tensor<4x1xf32>
  %n = graph.mul %x32, %r : (tensor<4x1024xf32>, tensor<4x1xf32>) -> tensor<4x1024xf32>
  %h = graph.cast %n : tensor<4x1024xf32> -> tensor<4x1024xf16>
  %y = graph.mul %w, %h : (tensor<1024xf16>, tensor<4x1024xf16>) -> tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}
// expected-remark @+1 {{@t5_norm_kernels is equivalent to @t5_norm}}
func.func @t5_norm_kernels(%x: tensor<4x1024xf16>, %w: tensor<1024xf16>) -> tensor<4x1024xf16>
    attributes {mirage.equivalent_to = @t5_norm} {
  %x32 = kernel.unary cast %x : tensor<4x1024xf16> -> tensor<4x1024xf32>
  %sq = kernel.unary square %x32 : tensor<4x1024xf32>
  %s = kernel.reduce sum %sq, dim = 1 : tensor<4x1024xf32> -> tensor<4x1xf32>
  %m = kernel.unary scale %s params = [9.765625E-4] : tensor<4x1xf32>
  %v = kernel.unary offset %m params = [1.0e-06] : tensor<4x1xf32>
  %r = kernel.unary pow %v params = [-5.000000e-01] : tensor<4x1xf32>
  %n = kernel.binary mul %x32, %r : (tensor<4x1024xf32>, tensor<4x1xf32>) -> tensor<4x1024xf32>
  %h = kernel.unary cast %n : tensor<4x1024xf32> -> tensor<4x1024xf16>
  %y = kernel.binary mul %w, %h : (tensor<1024xf16>, tensor<4x1024xf16>) -> tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}

// -----

// The same norm with the widening cast dropped: equal in the reals (the
// field test passes), but the sum of squares overflows f16 (65504) once
// the inputs reach about 8, where the original's f32 sum does not.
func.func @t5_norm(%x: tensor<4x1024xf16>, %w: tensor<1024xf16>) -> tensor<4x1024xf16> {
  %x32 = graph.cast %x : tensor<4x1024xf16> -> tensor<4x1024xf32>
  %sq = graph.square %x32 : tensor<4x1024xf32>
  %s = graph.reduce_sum %sq, dim = 1 : tensor<4x1024xf32> -> tensor<4x1xf32>
  %m = graph.scalar_mul %s, 9.765625E-4 : tensor<4x1xf32>
  %v = graph.scalar_add %m, 1.0e-06 : tensor<4x1xf32>
  %r = graph.pow %v, -5.000000e-01 : tensor<4x1xf32>
  %n = graph.mul %x32, %r : (tensor<4x1024xf32>, tensor<4x1xf32>) -> tensor<4x1024xf32>
  %h = graph.cast %n : tensor<4x1024xf32> -> tensor<4x1024xf16>
  %y = graph.mul %w, %h : (tensor<1024xf16>, tensor<4x1024xf16>) -> tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}
// expected-error @+1 {{@t5_norm_in_f16 is not equivalent to @t5_norm: output #0 differs at [0, 325] in the f16 check at input scale 16 (inputs in [-16, 16)): @t5_norm gives -26.843188855623467 (fp64; -26.84375 in its own f16), @t5_norm_in_f16 gives -0 in f16}}
func.func @t5_norm_in_f16(%x: tensor<4x1024xf16>, %w: tensor<1024xf16>) -> tensor<4x1024xf16>
    attributes {mirage.equivalent_to = @t5_norm} {
  %sq = graph.square %x : tensor<4x1024xf16>
  %s = graph.reduce_sum %sq, dim = 1 : tensor<4x1024xf16> -> tensor<4x1xf16>
  %m = graph.scalar_mul %s, 9.765625E-4 : tensor<4x1xf16>
  %v = graph.scalar_add %m, 1.0e-06 : tensor<4x1xf16>
  %r = graph.pow %v, -5.000000e-01 : tensor<4x1xf16>
  %n = graph.mul %x, %r : (tensor<4x1024xf16>, tensor<4x1xf16>) -> tensor<4x1024xf16>
  %y = graph.mul %w, %n : (tensor<1024xf16>, tensor<4x1024xf16>) -> tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}

