// REQUIRES: ptxas
// A matmul of 8 rows (a batch of 8 tokens) loads its A fragments with
// ldmatrix over clamped rows and zeroes rows 8-15 (block-to-gpu-ldmatrix.mlir);
// on the emulator, with every checker on, it matches the fp64 reference on
// sm_75 (m16n8k8), sm_80 and sm_90.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_75 output=%t/mm75 cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/mm75.json --emulate | FileCheck %s
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/mm80 cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/mm80.json --emulate | FileCheck %s
// RUN: grep -c ldmatrix %t/mm80.ptx | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_90 output=%t/mm90 cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/mm90.json --emulate | FileCheck %s

func.func @mm(%A: tensor<8x256xf16>, %B: tensor<256x64xf16>) -> tensor<8x64xf16> {
  %c = graph.matmul %A, %B : (tensor<8x256xf16>, tensor<256x64xf16>) -> tensor<8x64xf16>
  return %c : tensor<8x64xf16>
}

// CHECK: output 0 "{{.*}}" [8, 64] f16: max abs error {{.*}}: pass
// CHECK-NEXT: PASS: against the fp64 reference
// PTX: {{[1-9][0-9]*}}
