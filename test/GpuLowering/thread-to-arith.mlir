// --thread-to-arith gives each thread op its scalar f32 code inside the
// fused op: arguments widened once, results narrowed at the yield.
// RUN: mirage-opt %s --thread-to-arith | FileCheck %s

// CHECK-LABEL: func.func @silu_mul
// CHECK: thread.fused
// CHECK-NEXT: ^bb0(%[[P:.*]]: f16, %[[Q:.*]]: f16):
// CHECK-NEXT: %[[PW:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK-NEXT: %[[QW:.*]] = arith.extf %[[Q]] : f16 to f32
// silu is x * sigmoid(x), the sigmoid from t = exp(-|x|) in (0, 1]:
// 1 / (1 + t) for x >= 0, t / (1 + t) for x < 0, so nothing overflows.
// CHECK-NEXT: %[[A:.*]] = math.absf %[[PW]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[A]] : f32
// CHECK-NEXT: %[[T:.*]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpf olt, %[[PW]], %[[ZERO]] : f32
// CHECK-NEXT: %[[NUM:.*]] = arith.select %[[NEG]], %[[T]], %[[ONE]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[ONE]], %[[T]] : f32
// CHECK-NEXT: %[[SIG:.*]] = arith.divf %[[NUM]], %[[D]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[PW]], %[[SIG]] : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[S]], %[[QW]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK-NEXT: thread.yield %[[R]] : f16
// CHECK-NOT: thread.unary
// CHECK-NOT: thread.binary
func.func @silu_mul(%A: tensor<16x64xf16>, %B: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %aa = block.accum sum %at : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %ba = block.accum sum %bt : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %f = thread.fused (%aa, %ba) : (!block.tile<16x64xf16>, !block.tile<16x64xf16>) -> !block.tile<16x64xf16> {
    ^bb0(%p: f16, %q: f16):
      %s = thread.unary silu %p : f16
      %m = thread.binary mul %s, %q : f16
      thread.yield %m : f16
    }
    %o = block.output %f omap = <x: replicate> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// f32 chains need no conversions; pow with an integer exponent stays exact
// for negative bases (math.fpowi), gelu is the exact form as
// 0.5 x erfc(-x / sqrt 2), which does not cancel for negative x as
// 1 + erf(x / sqrt 2) does.
// CHECK-LABEL: func.func @f32_chain
// CHECK: ^bb0(%[[X:.*]]: f32):
// CHECK-NOT: arith.extf
// CHECK: %[[C:.*]] = math.fpowi %[[X]], %{{.*}} : f32, i32
// CHECK-NEXT: %[[K:.*]] = arith.constant -0.707106769 : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[C]], %[[K]] : f32
// CHECK-NEXT: %[[E:.*]] = math.erfc %[[S]] : f32
// CHECK-NEXT: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[HX:.*]] = arith.mulf %[[C]], %[[H]] : f32
// CHECK-NEXT: arith.mulf %[[HX]], %[[E]] : f32
// CHECK-NOT: math.erf
// CHECK-NOT: arith.truncf
// CHECK: thread.yield
func.func @f32_chain(%A: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<8x8xf32>) -> tensor<8x8xf32> {
  ^bb0(%a: tensor<8x8xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<8x8xf32> -> !block.tile<8x8xf32>
    %aa = block.accum sum %at : !block.tile<8x8xf32> -> !block.tile<8x8xf32>
    %f = thread.fused (%aa) : (!block.tile<8x8xf32>) -> !block.tile<8x8xf32> {
    ^bb0(%p: f32):
      %c = thread.unary pow %p params = [3.0] : f32
      %g = thread.unary gelu %c : f32
      thread.yield %g : f32
    }
    %o = block.output %f omap = <x: replicate> : !block.tile<8x8xf32> -> tensor<8x8xf32>
    block.yield %o : tensor<8x8xf32>
  }
  return %Y : tensor<8x8xf32>
}
