// Found by the random differential tester (seed 2029, program 396, an f16
// attention motif): the µGraph --superoptimize finds for it, an online
// softmax over score tiles of one column (block.softmax_accum of a
// 2x3x1 score tile and a 2x1x16 value tile, 17 for-loop iterations), then
// erf after the loop.
//
// - Fixed: its kernel deadlocked on the emulator. LLVM sank the P V
//   mma.sync (LLVM's mma intrinsics are not convergent) into the branch of
//   the lane-dependent condition that guards its stores, so 12 lanes of
//   each warp waited at the mma while the rest reached the barrier. The
//   mma results now go through an empty side-effecting asm (BlockToGpu's
//   emitMmaLoop), which keeps the mma where the whole warp runs it.
// (emulate-softmax-accum-one-column.test; on the tester's own inputs the
// result is within the original program's own f16 error, its check.)
func.func @main(%arg0: tensor<2x96x16xf16>, %arg1: tensor<2x17x16xf16>, %arg2: tensor<2x17x64xf16>) -> tensor<2x2x96x64xf16> {
    %0 = kernel.transpose %arg1, perm = [0, 2, 1] : tensor<2x17x16xf16> -> tensor<2x16x17xf16>
    %1 = kernel.graph_def(%arg0, %arg2, %0) grid = [32, 4] forloop = 17 : (tensor<2x96x16xf16>, tensor<2x17x64xf16>, tensor<2x16x17xf16>) -> tensor<2x96x64xf16> {
    ^bb0(%arg3: tensor<2x96x16xf16>, %arg4: tensor<2x17x64xf16>, %arg5: tensor<2x16x17xf16>):
      %3 = block.input %arg3 imap = <x: 1, y: replicate> fmap = <i: replicate> : tensor<2x96x16xf16> -> !block.tile<2x3x16xf16>
      %4 = block.input %arg4 imap = <x: replicate, y: 2> fmap = <i: 1> : tensor<2x17x64xf16> -> !block.tile<2x1x16xf16>
      %5 = block.input %arg5 imap = <x: replicate, y: replicate> fmap = <i: 2> : tensor<2x16x17xf16> -> !block.tile<2x16x1xf16>
      %6 = block.matmul %3, %5 : (!block.tile<2x3x16xf16>, !block.tile<2x16x1xf16>) -> !block.tile<2x3x1xf16>
      %7 = block.unary scale %6 params = [2.500000e-01] : !block.tile<2x3x1xf16>
      %output, %stats = block.softmax_accum %7, %4 : (!block.tile<2x3x1xf16>, !block.tile<2x1x16xf16>) -> (!block.tile<2x3x16xf32>, !block.tile<2x3x2xf32>)
      %8 = block.unary erf %output : !block.tile<2x3x16xf32>
      %9 = block.output %8 omap = <x: 1, y: 2> : !block.tile<2x3x16xf32> -> tensor<2x96x64xf16>
      block.yield %9 : tensor<2x96x64xf16>
    }
    %2 = kernel.broadcast %1 : tensor<2x96x64xf16> -> tensor<2x2x96x64xf16>
    return %2 : tensor<2x2x96x64xf16>
  }
