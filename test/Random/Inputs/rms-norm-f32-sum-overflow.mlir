// Found by the random differential tester (test/Random/run_random.py):
// an f32 rms_norm whose row holds values above sqrt(FLT_MAX) ~ 1.8e19
// (here: inputs in [-1, 1) times 4e19; in the random program, exp of a
// matmul at input scale 100). The default kernel sums the squares in f32,
// which overflows to inf, and writes x / sqrt(inf) = 0 for the whole row;
// the fp64 and the native interpreter (which keeps rms_norm's inner steps
// wider and rounds once) give the right values, of magnitude up to 4.
// bf16 has the same range and the same f32 sum. Not a lit test (Inputs/):
//
//   mirage-opt rms-norm-f32-sum-overflow.mlir \
//     --mirage-to-ptx="chip=sm_80 output=/tmp/rms cubin=false" -o /dev/null
//   mirage-gpu-run /tmp/rms.json --emulate
//
// FAIL: max abs error 1.74 (at [1, 9]: gpu 0, reference -1.74), relative
// error 1 (the rows whose squares overflow are all zeros).
func.func @main(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %big = graph.scalar_mul %x, 4.0e+19 : tensor<4x16xf32>
  %y = graph.rms_norm %big : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
