// Found by the random differential tester (test/Random/run_random.py):
// an f32 rms_norm whose row's sum of squares leaves the f32 range. The
// default kernel sums the squares in f32 (and bf16 has f32's range and the
// same f32 sum), while the fp64 and the native interpreter keep rms_norm's
// inner steps wider and round once, so the verifier never sees it:
//
// - @overflow: values above sqrt(FLT_MAX) ~ 1.8e19 (here inputs in
//   [-1, 1) times 4e19; in program 27 of seed 24, exp of a
//   matmul at input scale 100): the sum is inf, and the kernel writes
//   x / sqrt(inf) = 0 for the whole row, where the reference has values of
//   magnitude up to 1.74;
// - @underflow: a row whose squares are all below the smallest subnormal
//   (here x times 1e-25; in program 318 of seed 2026, the gelu of values
//   below -10 normalized over a dimension of size 1) with eps = 0: the sum
//   is 0 and the kernel writes x / 0 = -inf, +inf or NaN, where the
//   reference has x / rms(x), values of magnitude up to 1.74.
//
// Fixed: the default block graph is now one block.rms_norm, whose kernel
// sums the squares of the row scaled by a power of two at its largest
// magnitude; test/GpuLowering/emulate-rms-norm-range.test runs both
// functions on the emulator against the fp64 reference.
func.func @overflow(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %big = graph.scalar_mul %x, 4.0e+19 : tensor<4x16xf32>
  %y = graph.rms_norm %big : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func @underflow(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %tiny = graph.scalar_mul %x, 1.0e-25 : tensor<4x16xf32>
  %y = graph.rms_norm %tiny : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
