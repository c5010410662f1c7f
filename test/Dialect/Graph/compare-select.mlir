// Comparisons (a 0/1 mask in the operands' dtype) and select print, parse
// and print again identically, in the custom and the generic form; their
// result types follow NumPy broadcasting, as the other binary ops'.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: func @comparisons
func.func @comparisons(%a: tensor<8x64xf32>, %b: tensor<1x64xf32>, %s: tensor<f32>,
                       %h: tensor<4x1xf16>, %k: tensor<1x4xf16>) {
  // CHECK: graph.eq %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
  %0 = graph.eq %a, %b : (tensor<8x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.ne %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<f32>) -> tensor<8x64xf32>
  %1 = graph.ne %a, %s : (tensor<8x64xf32>, tensor<f32>) -> tensor<8x64xf32>
  // CHECK: graph.lt
  %2 = graph.lt %a, %b : (tensor<8x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.le
  %3 = graph.le %a, %b : (tensor<8x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.gt
  %4 = graph.gt %a, %b : (tensor<8x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.ge %{{.*}}, %{{.*}} : (tensor<4x1xf16>, tensor<1x4xf16>) -> tensor<4x4xf16>
  %5 = graph.ge %h, %k : (tensor<4x1xf16>, tensor<1x4xf16>) -> tensor<4x4xf16>
  return
}

// CHECK-LABEL: func @select
func.func @select(%m: tensor<1x1x8x8xf32>, %x: tensor<2x4x8x8xf32>, %ninf: tensor<f32>,
                  %c: tensor<8x1xbf16>, %y: tensor<1x16xbf16>) {
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x1x8x8xf32>, tensor<f32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %0 = graph.select %m, %ninf, %x : (tensor<1x1x8x8xf32>, tensor<f32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  // The condition alone may give the result its shape.
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x1xbf16>, tensor<1x16xbf16>, tensor<1x16xbf16>) -> tensor<8x16xbf16>
  %1 = graph.select %c, %y, %y : (tensor<8x1xbf16>, tensor<1x16xbf16>, tensor<1x16xbf16>) -> tensor<8x16xbf16>
  return
}
