// Random inputs are a function of the seed alone: two runs with one seed
// write identical files, another seed changes them, and the saved inputs are
// exactly those of the documented generator (re-implemented in npy.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-run %s --seed=7 --output-dir=%t/a --save-inputs
// RUN: mirage-run %s --seed=7 --output-dir=%t/b
// RUN: cmp %t/a/out0.npy %t/b/out0.npy
// RUN: cmp %t/a/out1.npy %t/b/out1.npy
// RUN: cmp %t/a/out2.npy %t/b/out2.npy
// RUN: mirage-run %s --seed=8 --output-dir=%t/c
// RUN: not cmp -s %t/a/out0.npy %t/c/out0.npy

// The inputs lie on the grid of the argument's dtype: 2^-11 for f16, 2^-8
// for bf16, 2^-24 for f32.
// RUN: mkdir -p %t/expected
// RUN: %python %S/Inputs/npy.py random %t/expected 7 4,8:11 3:8 2,2:24
// RUN: cmp %t/a/in0.npy %t/expected/in0.npy
// RUN: cmp %t/a/in1.npy %t/expected/in1.npy
// RUN: cmp %t/a/in2.npy %t/expected/in2.npy

// The saved inputs, fed back, give the same outputs.
// RUN: mirage-run %s --input=%t/a/in0.npy,%t/a/in1.npy,%t/a/in2.npy --output-dir=%t/d
// RUN: cmp %t/a/out0.npy %t/d/out0.npy
// RUN: cmp %t/a/out2.npy %t/d/out2.npy

// --scale=S multiplies the same draws by S, a power of two (the verifier's
// input scales, to reproduce what it reports).
// RUN: mirage-run %s --seed=7 --scale=16 --output-dir=%t/s --save-inputs
// RUN: mkdir -p %t/expected16
// RUN: %python %S/Inputs/npy.py random %t/expected16 7 4,8:11 3:8 2,2:24 --scale 16
// RUN: cmp %t/s/in0.npy %t/expected16/in0.npy
// RUN: cmp %t/s/in2.npy %t/expected16/in2.npy
// RUN: not cmp -s %t/s/in0.npy %t/a/in0.npy

// The default seed is 0.
// RUN: mirage-run %s --output-dir=%t/e
// RUN: mirage-run %s --seed=0 --output-dir=%t/f
// RUN: cmp %t/e/out0.npy %t/f/out0.npy

// No file is left for an input unless --save-inputs asks for it.
// RUN: not ls %t/b/in0.npy

func.func @f(%x: tensor<4x8xf16>, %y: tensor<3xbf16>, %z: tensor<2x2xf32>)
    -> (tensor<4x8xf16>, tensor<3xbf16>, tensor<2x2xf32>) {
  %0 = graph.exp %x : tensor<4x8xf16>
  %1 = graph.scalar_mul %y, 5.000000e-01 : tensor<3xbf16>
  %2 = graph.matmul %z, %z : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<4x8xf16>, tensor<3xbf16>, tensor<2x2xf32>
}
