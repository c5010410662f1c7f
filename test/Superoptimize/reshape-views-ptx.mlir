// REQUIRES: ptxas
// Size-1 reshapes inside searched kernels, lowered and run. @projection
// saves its [S, N] tile through a block.reshape to the [1, S, N] output;
// in @batch_norm the kernel reads a per-channel parameter as stored ([C]), reshapes its tile to
// [C, 1, 1] (block.reshape after the input iterator) and computes the
// batch norm's divisor sqrt(s^2 + eps) (squared so that the random inputs
// give a real root), the normalization and the relu; the PTX emulator
// (memcheck, initcheck and racecheck on) runs it against the fp64
// reference.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="target=sm_90 cache=false" -o %t/s.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t/s.mlir
// RUN: mirage-opt %t/s.mlir --mirage-to-ptx="target=sm_90 output=%t/s cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/s.json --function projection --emulate | FileCheck %s --check-prefix=EMU
// RUN: mirage-gpu-run %t/s.json --function batch_norm --emulate | FileCheck %s --check-prefix=EMU

// REMARK: remark: superoptimize @projection part 0: 4 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3
// REMARK-SAME: verified: on a reduced instance, {{[0-9]+}} of {{[0-9]+}} slices {{.*}}: finite-field test
// REMARK: remark: superoptimize @batch_norm part 0: 7 graph op(s) -> 1 kernel(s) (1 graph-defined), was 6
// REMARK-SAME: verified: on a reduced instance, {{[0-9]+}} of {{[0-9]+}} slices {{.*}}: finite-field test

// CHECK-LABEL: func.func @projection
// CHECK-COUNT-1: kernel.graph_def
// CHECK: block.reshape %{{.*}} : !block.tile<{{[0-9]+}}x{{[0-9]+}}xf32> -> !block.tile<1x{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK-NEXT: block.output
// CHECK-NOT: kernel.graph_def
// CHECK-LABEL: func.func @batch_norm
// CHECK-COUNT-1: kernel.graph_def
// CHECK: block.input %{{.*}} : tensor<8xf32> -> !block.tile<[[C:[0-9]+]]xf32>
// CHECK: block.reshape %{{.*}} : !block.tile<[[C]]xf32> -> !block.tile<[[C]]x1x1xf32>
// CHECK-NOT: kernel.graph_def

// EMU: PASS: against the fp64 reference
func.func @projection(%x: tensor<1x64x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<1x64x256xf32> {
  %v = graph.reshape %x : tensor<1x64x128xf32> -> tensor<64x128xf32>
  %m = graph.matmul %v, %w : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %r = graph.reshape %m : tensor<64x256xf32> -> tensor<1x64x256xf32>
  %a = graph.add %r, %b : (tensor<1x64x256xf32>, tensor<256xf32>) -> tensor<1x64x256xf32>
  %y = graph.relu %a : tensor<1x64x256xf32>
  return %y : tensor<1x64x256xf32>
}

func.func @batch_norm(%x: tensor<2x8x16x16xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>) -> tensor<2x8x16x16xf32> {
  %mr = graph.reshape %mean : tensor<8xf32> -> tensor<8x1x1xf32>
  %c = graph.sub %x, %mr : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %v = graph.square %var : tensor<8xf32>
  %e = graph.scalar_add %v, 1.0e-05 : tensor<8xf32>
  %s = graph.sqrt %e : tensor<8xf32>
  %sr = graph.reshape %s : tensor<8xf32> -> tensor<8x1x1xf32>
  %n = graph.div %c, %sr : (tensor<2x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<2x8x16x16xf32>
  %y = graph.relu %n : tensor<2x8x16x16xf32>
  return %y : tensor<2x8x16x16xf32>
}
