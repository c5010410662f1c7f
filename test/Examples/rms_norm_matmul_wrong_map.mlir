// The RMSNorm + MatMul µGraph of rms_norm_matmul.mlir, each time with one
// map wrong. The verifier must reject every variant.
// RUN: mirage-opt %s -split-input-file -verify-diagnostics

// W partitioned along its rows (K) instead of its columns: the 96 blocks
// cannot split 4096 rows evenly, and the tile would not line up with X anyway.
func.func @w_imap_on_rows(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [96] forloop = 16
      : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  ^bb0(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x4096xf16> -> !block.tile<16x256xf16>
    // expected-error @+1 {{tensor dimension 0 of size 4096 is partitioned by grid dimension x (96 blocks) and the for-loop (16 iterations) into 1536 parts, which does not divide it}}
    %wt = block.input %w imap = <x: 0> fmap = <i: 0> : tensor<4096x6144xf16> -> !block.tile<256x64xf16>
    %sq = block.unary square %xt : !block.tile<16x256xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<16x256xf16> -> !block.tile<16x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x256xf16>, !block.tile<256x64xf16>) -> !block.tile<16x64xf16>
    %acc_mm = block.accum sum %mm : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %acc_ss = block.accum sum %ss : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    %mean = block.unary scale %acc_ss params = [2.44140625E-4] : !block.tile<16x1xf16>
    %rms = block.unary sqrt %mean : !block.tile<16x1xf16>
    %y = block.binary div %acc_mm, %rms : (!block.tile<16x64xf16>, !block.tile<16x1xf16>) -> !block.tile<16x64xf16>
    %out = block.output %y omap = <x: 1> : !block.tile<16x64xf16> -> tensor<16x6144xf16>
    block.yield %out : tensor<16x6144xf16>
  }
  return %Y : tensor<16x6144xf16>
}

// -----

// X read whole every iteration (fmap replicate) while the tile type claims a
// 256-column slice.
func.func @x_fmap_replicate(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [96] forloop = 16
      : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  ^bb0(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>):
    // expected-error @+1 {{tile type '!block.tile<16x256xf16>' does not follow from the maps: expected '!block.tile<16x4096xf16>'}}
    %xt = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x4096xf16> -> !block.tile<16x256xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<4096x6144xf16> -> !block.tile<256x64xf16>
    %sq = block.unary square %xt : !block.tile<16x256xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<16x256xf16> -> !block.tile<16x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x256xf16>, !block.tile<256x64xf16>) -> !block.tile<16x64xf16>
    %acc_mm = block.accum sum %mm : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %acc_ss = block.accum sum %ss : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    %mean = block.unary scale %acc_ss params = [2.44140625E-4] : !block.tile<16x1xf16>
    %rms = block.unary sqrt %mean : !block.tile<16x1xf16>
    %y = block.binary div %acc_mm, %rms : (!block.tile<16x64xf16>, !block.tile<16x1xf16>) -> !block.tile<16x64xf16>
    %out = block.output %y omap = <x: 1> : !block.tile<16x64xf16> -> tensor<16x6144xf16>
    block.yield %out : tensor<16x6144xf16>
  }
  return %Y : tensor<16x6144xf16>
}

// -----

// The output saved onto the replica dimension: all 96 blocks would write the
// same 16 x 64 tile.
func.func @omap_replicate(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [96] forloop = 16
      : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  ^bb0(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x4096xf16> -> !block.tile<16x256xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<4096x6144xf16> -> !block.tile<256x64xf16>
    %sq = block.unary square %xt : !block.tile<16x256xf16>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<16x256xf16> -> !block.tile<16x1xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x256xf16>, !block.tile<256x64xf16>) -> !block.tile<16x64xf16>
    %acc_mm = block.accum sum %mm : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %acc_ss = block.accum sum %ss : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    %mean = block.unary scale %acc_ss params = [2.44140625E-4] : !block.tile<16x1xf16>
    %rms = block.unary sqrt %mean : !block.tile<16x1xf16>
    %y = block.binary div %acc_mm, %rms : (!block.tile<16x64xf16>, !block.tile<16x1xf16>) -> !block.tile<16x64xf16>
    // expected-error @+1 {{omap maps grid dimension x (96 blocks) to replicate: their tiles would overwrite each other}}
    %out = block.output %y omap = <x: replicate> : !block.tile<16x64xf16> -> tensor<16x6144xf16>
    block.yield %out : tensor<16x6144xf16>
  }
  return %Y : tensor<16x6144xf16>
}
