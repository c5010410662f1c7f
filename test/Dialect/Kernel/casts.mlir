// kernel.unary cast and erf (issue 24): the cast prints its result type
// after an arrow; only the cast kind converts.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: func @cast
func.func @cast(%a: tensor<16x64xf16>, %b: tensor<16x64xf32>) {
  // CHECK: kernel.unary cast %{{.*}} : tensor<16x64xf16> -> tensor<16x64xbf16>
  %0 = kernel.unary cast %a : tensor<16x64xf16> -> tensor<16x64xbf16>
  // CHECK: kernel.unary cast %{{.*}} : tensor<16x64xf32> -> tensor<16x64xf16>
  %1 = kernel.unary cast %b : tensor<16x64xf32> -> tensor<16x64xf16>
  // CHECK: kernel.unary erf %{{.*}} : tensor<16x64xf32>{{$}}
  %2 = kernel.unary erf %b : tensor<16x64xf32>
  return
}
