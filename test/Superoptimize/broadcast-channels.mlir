// REQUIRES: ptxas
// Per-channel operands of lower rank, as imported CNNs have them (PyTorch's
// bias and batch-norm parameters reshaped to [C, 1, 1] against an
// [N, C, H, W] activation): the search fuses them with their elementwise
// neighbours (block.binary broadcasts tiles at the trailing end), and the
// fused kernel computes the program on the PTX emulator (memcheck,
// initcheck and racecheck on) against the fp64 reference.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="target=sm_90 cache=false" -o %t/s.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t/s.mlir
// RUN: mirage-opt %t/s.mlir --mirage-to-ptx="target=sm_90 output=%t/s cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/s.json --emulate | FileCheck %s --check-prefix=EMU

// REMARK: remark: superoptimize @batch_norm_relu part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3
// REMARK-SAME: verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test

// CHECK-LABEL: func.func @batch_norm_relu
// CHECK-COUNT-1: kernel.graph_def
// CHECK-NOT: kernel.binary
// CHECK-NOT: kernel.unary
// CHECK: block.input %{{.*}} imap = <x: 0{{.*}}> fmap = <i: replicate> : tensor<8x1x1xf32> -> !block.tile<{{[0-9]+}}x1x1xf32>
// CHECK: thread.binary mul
// CHECK: thread.binary add
// CHECK: thread.unary relu

// EMU: PASS: against the fp64 reference
func.func @batch_norm_relu(%x: tensor<2x8x16x16xf32>, %scale: tensor<8x1x1xf32>, %shift: tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32> {
  %0 = graph.mul %x, %scale : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %1 = graph.add %0, %shift : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %2 = graph.relu %1 : tensor<2x8x16x16xf32>
  return %2 : tensor<2x8x16x16xf32>
}
