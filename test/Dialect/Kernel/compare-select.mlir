// Comparisons are kernel.binary kinds; kernel.select is the predefined
// select kernel. Both print, parse and print again identically.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s


// CHECK-LABEL: func @kernels
func.func @kernels(%a: tensor<16x64xf16>, %r: tensor<16x1xf16>, %z: tensor<f16>) {
  // CHECK: kernel.binary eq %{{.*}}, %{{.*}} : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  %0 = kernel.binary eq %a, %r : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  // CHECK: kernel.binary ne
  %1 = kernel.binary ne %a, %r : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  // CHECK: kernel.binary lt
  %2 = kernel.binary lt %a, %r : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  // CHECK: kernel.binary le
  %3 = kernel.binary le %a, %r : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  // CHECK: kernel.binary gt
  %4 = kernel.binary gt %a, %z : (tensor<16x64xf16>, tensor<f16>) -> tensor<16x64xf16>
  // CHECK: kernel.binary ge
  %5 = kernel.binary ge %a, %z : (tensor<16x64xf16>, tensor<f16>) -> tensor<16x64xf16>
  // CHECK: kernel.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<16x64xf16>, tensor<f16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  %6 = kernel.select %5, %z, %r : (tensor<16x64xf16>, tensor<f16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  return
}
