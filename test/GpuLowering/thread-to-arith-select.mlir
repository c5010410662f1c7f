// --thread-to-arith: a comparison is arith.cmpf (ordered, but une for ne:
// NaN is unequal to everything) selecting 1.0 or 0.0; thread.select tests
// cond != 0 unordered (a NaN condition takes on_true), in f32 registers.
// RUN: mirage-opt %s --thread-to-arith | FileCheck %s

// CHECK-LABEL: func.func @mask_chain
// CHECK: ^bb0(%[[P:.*]]: f16, %[[Q:.*]]: f16):
// CHECK-NEXT: %[[PW:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK-NEXT: %[[QW:.*]] = arith.extf %[[Q]] : f16 to f32
// CHECK-NEXT: %[[LT:.*]] = arith.cmpf olt, %[[PW]], %[[QW]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[M:.*]] = arith.select %[[LT]], %[[ONE]], %[[ZERO]] : f32
// CHECK-NEXT: %[[NE:.*]] = arith.cmpf une, %[[PW]], %[[QW]] : f32
// CHECK:      %[[N:.*]] = arith.select %[[NE]], %{{.*}}, %{{.*}} : f32
// CHECK:      arith.cmpf oeq
// CHECK:      arith.cmpf ole
// CHECK:      arith.cmpf ogt
// CHECK:      arith.cmpf oge
// CHECK:      arith.addf
// CHECK:      arith.addf
// CHECK:      arith.addf
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[TAKE:.*]] = arith.cmpf une, %[[M]], %[[Z]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.select %[[TAKE]], %[[PW]], %[[N]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK:      thread.yield %[[R]], %{{.*}} : f16, f16
// CHECK-NOT: thread.select
// CHECK-NOT: thread.binary
func.func @mask_chain(%A: tensor<16x64xf16>, %B: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  %Y:2 = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %f:2 = thread.fused (%at, %bt) : (!block.tile<16x64xf16>, !block.tile<16x64xf16>) -> (!block.tile<16x64xf16>, !block.tile<16x64xf16>) {
    ^bb0(%p: f16, %q: f16):
      %lt = thread.binary lt %p, %q : f16
      %ne = thread.binary ne %p, %q : f16
      %eq = thread.binary eq %p, %q : f16
      %le = thread.binary le %p, %q : f16
      %gt = thread.binary gt %p, %q : f16
      %ge = thread.binary ge %p, %q : f16
      %s1 = thread.binary add %eq, %le : f16
      %s2 = thread.binary add %gt, %ge : f16
      %s3 = thread.binary add %s1, %s2 : f16
      %s = thread.select %lt, %p, %ne : f16
      thread.yield %s, %s3 : f16, f16
    }
    %c = block.accum sum %f#0 : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %d = block.accum sum %f#1 : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %c omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    %o2 = block.output %d omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o, %o2 : tensor<16x64xf16>, tensor<16x64xf16>
  }
  return %Y#0, %Y#1 : tensor<16x64xf16>, tensor<16x64xf16>
}
