// REQUIRES: ptxas
// A superoptimized program on the emulator: rms_norm(X) W at a small size,
// searched for each chip, lowered to PTX (cubin=false; the toolkit's
// libdevice is still linked in) and run with --emulate against the fp64
// reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="target=sm_80 cache=off" -o %t/sm80.mlir
// RUN: mirage-opt %t/sm80.mlir --mirage-to-ptx="target=sm_80 output=%t/rn80 cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/rn80.json --emulate | FileCheck %s
// RUN: mirage-opt %s --superoptimize="target=sm_90 cache=off" -o %t/sm90.mlir
// RUN: mirage-opt %t/sm90.mlir --mirage-to-ptx="target=sm_90 output=%t/rn90 cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/rn90.json --emulate | FileCheck %s

func.func @rmsnorm(%X: tensor<8x256xf16>, %W: tensor<256x64xf16>) -> tensor<8x64xf16> {
  %n = graph.rms_norm %X : tensor<8x256xf16>
  %y = graph.matmul %n, %W : (tensor<8x256xf16>, tensor<256x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// CHECK: emulator: function "rmsnorm":
// CHECK: launch 0 "rmsnorm_{{[0-9]+}}" grid [{{.*}}]: {{[1-9][0-9]*}} thread-instructions, {{[1-9][0-9]*}} warp-instructions, {{[0-9]+}} barriers
// CHECK: output 0 "{{.*}}" [8, 64] f16: {{.*}}: pass
// CHECK-NEXT: PASS: against the fp64 reference
