// REQUIRES: ptxas
// Kernels with two outputs (two-outputs.mlir), lowered and run: the PTX
// emulator (memcheck, initcheck and racecheck on) runs each against the
// fp64 reference and checks both results. @residual_norm saves its sum
// through a one-iteration accumulator, @projection_relu its matmul's
// accumulator after the for-loop, @side two independent values of one
// sum side by side.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="target=sm_90 cache=false" -o %t/s.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: mirage-opt %t/s.mlir --mirage-to-ptx="target=sm_90 output=%t/s cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/s.json --function residual_norm --emulate | FileCheck %s --check-prefix=EMU
// RUN: mirage-gpu-run %t/s.json --function projection_relu --emulate | FileCheck %s --check-prefix=EMU
// RUN: mirage-gpu-run %t/s.json --function side --emulate | FileCheck %s --check-prefix=EMU

// REMARK: remark: superoptimize @residual_norm part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined)
// REMARK: remark: superoptimize @projection_relu part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined)
// REMARK: remark: superoptimize @side part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined)

// EMU: 1 launch
// EMU: output 0 {{.*}}: pass
// EMU: output 1 {{.*}}: pass
// EMU: PASS: against the fp64 reference

func.func @residual_norm(%X: tensor<16x4096xf16>, %R: tensor<16x4096xf16>, %W: tensor<4096xf16>) -> (tensor<16x4096xf16>, tensor<16x4096xf16>) {
  %h = graph.add %X, %R : (tensor<16x4096xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %n = graph.rms_norm %h : tensor<16x4096xf16>
  %y = graph.mul %n, %W : (tensor<16x4096xf16>, tensor<4096xf16>) -> tensor<16x4096xf16>
  return %h, %y : tensor<16x4096xf16>, tensor<16x4096xf16>
}

func.func @projection_relu(%X: tensor<256x2048xf16>, %W: tensor<2048x256xf16>) -> (tensor<256x256xf16>, tensor<256x256xf16>) {
  %p = graph.matmul %X, %W : (tensor<256x2048xf16>, tensor<2048x256xf16>) -> tensor<256x256xf16>
  %y = graph.relu %p : tensor<256x256xf16>
  return %p, %y : tensor<256x256xf16>, tensor<256x256xf16>
}

func.func @side(%X: tensor<64x4096xf32>, %R: tensor<64x4096xf32>) -> (tensor<64x4096xf32>, tensor<64x4096xf32>) {
  %h = graph.add %X, %R : (tensor<64x4096xf32>, tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %a = graph.relu %h : tensor<64x4096xf32>
  %b = graph.exp %h : tensor<64x4096xf32>
  return %a, %b : tensor<64x4096xf32>, tensor<64x4096xf32>
}
