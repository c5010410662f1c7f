// REQUIRES: ptxas
// --emulate runs a lowered program's launches on the PTX emulator and checks
// the outputs against the fp64 reference, with no GPU. Lowering with
// cubin=false skips ptxas, but the NVVM serializer still links the CUDA
// toolkit's libdevice, hence the toolkit requirement.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/mm80 cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/mm80.json --emulate | FileCheck %s
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_90 output=%t/mm90 cubin=false" -o /dev/null
// RUN: mirage-gpu-run %t/mm90.json --emulate | FileCheck %s
// The JSON report names the emulator and carries its counters.
// RUN: mirage-gpu-run %t/mm80.json --emulate --json 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=JSON

// A 16x64 @ 64x32 f16 matmul under the default schedule.
func.func @mm(%A: tensor<16x64xf16>, %B: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %c = graph.matmul %A, %B : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}

// CHECK: emulator: function "mm": 1 launch, PTX '{{.*}}.ptx' (sm_{{[89]}}0)
// CHECK-NEXT: launch 0 "mm_0" grid [{{.*}}] block [{{.*}}]: {{[1-9][0-9]*}} thread-instructions, {{[1-9][0-9]*}} warp-instructions, {{[0-9]+}} barriers
// CHECK-NEXT: emulated {{[1-9][0-9]*}} thread-instructions in {{.*}} s
// CHECK-NEXT: output 0 "{{.*}}" [16, 32] f16: max abs error {{.*}}: pass
// CHECK-NEXT: PASS: against the fp64 reference

// JSON: "device": "emulator",
// JSON: "emulator": [
// JSON: "barriers":
// JSON: "kernel": "mm_0",
// JSON: "thread_instructions":
// JSON: "pass": true
