// A bf16 sigmoid and silu for sm_90 (from the random differential tester,
// test/Random): their select between exp(-|x|) branches is compared in
// bf16, and on sm_90 LLVM emits `setp.lt.bf16` for it, which the emulator
// did not decode ("unsupported instruction"). Both run and match the fp64
// reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_90 output=%t/s cubin=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/s.ptx
// RUN: mirage-gpu-run %t/s.json --function sigmoid --emulate | FileCheck %s
// RUN: mirage-gpu-run %t/s.json --function silu --emulate | FileCheck %s

// PTX: setp.{{[a-z]+}}.bf16
// CHECK: PASS: against the fp64 reference
func.func @sigmoid(%x: tensor<7x7xbf16>) -> tensor<7x7xbf16> {
  %y = graph.sigmoid %x : tensor<7x7xbf16>
  return %y : tensor<7x7xbf16>
}
func.func @silu(%x: tensor<3x17xbf16>) -> tensor<3x17xbf16> {
  %y = graph.silu %x : tensor<3x17xbf16>
  return %y : tensor<3x17xbf16>
}
