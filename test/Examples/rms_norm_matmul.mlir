// The best known µGraph for RMSNorm + MatMul (Mirage, OSDI'25): rms_norm(X) W
// in one kernel. Since rms_norm scales each row of X by 1/rms(row), it commutes
// with the matmul: the block graph accumulates X W and mean(X^2) over the
// for-loop (K = 4096 in 16 steps of 256) and divides once, after the loop.
// 11 block ops; each of the 96 blocks owns 64 output columns. The squares
// are scaled by 1/4096 before they are summed: a tile of 256 raw squares
// overflows f16 once a row's RMS exceeds 16, where rms_norm itself is
// fine, and the verifier rejects that (at input scale 64).
//
// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// The README's verification example, at full size:
// RUN: mirage-opt %s --verify-equivalence="original=rms_norm_matmul_graph candidate=rms_norm_matmul_fused" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: remark: @rms_norm_matmul_fused is equivalent to @rms_norm_matmul_graph: finite-field test: 3 tests over p = {{[0-9]+}}, q = {{[0-9]+}} (random primes, {{.*}}; degree 3, 2 exp/uninterpreted/max sites), false-positive bound 2^-{{[0-9.]+}}; floating point: 1 input set at input scales 1, 4, 16, 64 (f16 ladder)

// The program as users write it (b = 8: X is 16 x 4096).
// CHECK-LABEL: func @rms_norm_matmul_graph
func.func @rms_norm_matmul_graph(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  // CHECK: graph.rms_norm
  // CHECK: graph.matmul
  %n = graph.rms_norm %X : tensor<16x4096xf16>
  %y = graph.matmul %n, %W : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16>
  return %y : tensor<16x6144xf16>
}

// CHECK-LABEL: func @rms_norm_matmul_fused
// CHECK: kernel.graph_def(%{{.*}}, %{{.*}}) grid = [96] forloop = 16
// CHECK: block.input %{{.*}} imap = <x: replicate> fmap = <i: 1> : tensor<16x4096xf16> -> !block.tile<16x256xf16>
// CHECK: block.input %{{.*}} imap = <x: 1> fmap = <i: 0> : tensor<4096x6144xf16> -> !block.tile<256x64xf16>
// CHECK: block.unary square
// CHECK: block.unary scale %{{.*}} params = [2.44140625E-4]
// CHECK: block.reduce sum
// CHECK: block.matmul
// CHECK: block.accum sum
// CHECK: block.accum sum
// CHECK: block.unary sqrt
// CHECK: block.binary div
// CHECK: block.output %{{.*}} omap = <x: 1> : !block.tile<16x64xf16> -> tensor<16x6144xf16>
func.func @rms_norm_matmul_fused(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [96] forloop = 16
      : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  ^bb0(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>):
    // Loop body: iteration i reads columns [256i, 256i+256) of X and the
    // matching rows of this block's 64 columns of W.
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x4096xf16> -> !block.tile<16x256xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<4096x6144xf16> -> !block.tile<256x64xf16>
    %sq = block.unary square %xt : !block.tile<16x256xf16>
    %sc = block.unary scale %sq params = [2.44140625E-4] : !block.tile<16x256xf16>
    %ss = block.reduce sum %sc, dim = 1 : !block.tile<16x256xf16> -> !block.tile<16x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x256xf16>, !block.tile<256x64xf16>) -> !block.tile<16x64xf16>
    // Accumulators: X W and mean(X^2) over all of K.
    %acc_mm = block.accum sum %mm : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %mean = block.accum sum %ss : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    // After the loop: rms = sqrt(mean); Y = (X W) / rms.
    %rms = block.unary sqrt %mean : !block.tile<16x1xf16>
    %y = block.binary div %acc_mm, %rms : (!block.tile<16x64xf16>, !block.tile<16x1xf16>) -> !block.tile<16x64xf16>
    %out = block.output %y omap = <x: 1> : !block.tile<16x64xf16> -> tensor<16x6144xf16>
    block.yield %out : tensor<16x6144xf16>
  }
  return %Y : tensor<16x6144xf16>
}
