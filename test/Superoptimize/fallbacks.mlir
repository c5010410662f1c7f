// What the search does instead of failing:
//  - an f16 program that overflows on the verifier's random inputs (exp of
//    16 x) is searched like any other, without an error (it used to stop
//    with "the default schedule failed verification ... this is a bug"):
//    where the original itself overflows, the verifier does not judge the
//    candidate, and the fused kernel overflows exactly where it does;
//  - a kernel whose fused thread chain would need more registers per thread
//    than the target has is left unfused (64x256 tiles of f16, 128 elements
//    per thread) instead of failing;
//  - a subprogram with an empty tensor is not searched.
//
// RUN: mirage-opt %s -split-input-file --superoptimize="cache=off grid-dims=1 grid-sizes=2" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir

// REMARK: remark: superoptimize @overflow part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2; {{.*}} verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test
// REMARK-NOT: error:
// REMARK: remark: superoptimize @registers part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2; {{.*}}; thread fusion left 1 kernel(s) unfused (over the target's registers per thread); verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test
// REMARK: remark: superoptimize @empty part 0: not searched: a tensor has no elements; default schedule kept

// CHECK-LABEL: func.func @overflow
// CHECK: kernel.graph_def
func.func @overflow(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %s = graph.scalar_mul %x, 16.0 : tensor<64x128xf16>
  %e = graph.exp %s : tensor<64x128xf16>
  return %e : tensor<64x128xf16>
}

// -----

// CHECK-LABEL: func.func @registers
// CHECK: kernel.graph_def
// CHECK-NOT: thread.fused
// CHECK: block.unary silu
// CHECK: block.binary mul
func.func @registers(%x: tensor<128x256xf16>) -> tensor<128x256xf16> {
  %s = graph.silu %x : tensor<128x256xf16>
  %y = graph.mul %s, %x : (tensor<128x256xf16>, tensor<128x256xf16>) -> tensor<128x256xf16>
  return %y : tensor<128x256xf16>
}

// -----

// CHECK-LABEL: func.func @empty
// CHECK: kernel.matmul
// CHECK: kernel.unary exp
func.func @empty(%x: tensor<16x0xf16>, %w: tensor<0x32xf16>) -> tensor<16x32xf16> {
  %y = graph.matmul %x, %w : (tensor<16x0xf16>, tensor<0x32xf16>) -> tensor<16x32xf16>
  %e = graph.exp %y : tensor<16x32xf16>
  return %e : tensor<16x32xf16>
}
