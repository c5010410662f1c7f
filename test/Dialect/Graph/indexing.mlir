// The indexing ops (issue 24) print, parse and print again identically, in
// the custom and the generic form, and graph-to-kernel maps each onto the
// predefined kernel of the same name.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --graph-to-kernel | FileCheck %s --check-prefix=KERNEL

// CHECK-LABEL: func @indexing
// KERNEL-LABEL: func @indexing
func.func @indexing(%wte: tensor<100x32xf32>, %ids: tensor<2x5xi64>, %pos: tensor<7xi32>,
                    %p: tensor<16x8xbf16>, %z: tensor<16x8xbf16>)
    -> (tensor<2x5x32xf32>, tensor<100x7xf32>, tensor<16x2xbf16>, tensor<16x8xbf16>,
        tensor<16x2x8xf16>, tensor<16x2xi64>) {
  // CHECK: graph.gather %{{.*}}, %{{.*}}, axis = 0 : (tensor<100x32xf32>, tensor<2x5xi64>) -> tensor<2x5x32xf32>
  // KERNEL: kernel.gather %{{.*}}, %{{.*}}, axis = 0 : (tensor<100x32xf32>, tensor<2x5xi64>) -> tensor<2x5x32xf32>
  %e = graph.gather %wte, %ids, axis = 0 : (tensor<100x32xf32>, tensor<2x5xi64>) -> tensor<2x5x32xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}}, axis = 1 : (tensor<100x32xf32>, tensor<7xi32>) -> tensor<100x7xf32>
  %c = graph.gather %wte, %pos, axis = 1 : (tensor<100x32xf32>, tensor<7xi32>) -> tensor<100x7xf32>
  // CHECK: %[[V:.*]], %[[I:.*]] = graph.topk %{{.*}}, k = 2, dim = 1 {largest = false} : tensor<16x8xbf16> -> (tensor<16x2xbf16>, tensor<16x2xi64>)
  // KERNEL: kernel.topk %{{.*}}, k = 2, dim = 1 {largest = false} : tensor<16x8xbf16> -> (tensor<16x2xbf16>, tensor<16x2xi64>)
  %v, %i = graph.topk %p, k = 2, dim = 1 {largest = false} : tensor<16x8xbf16> -> (tensor<16x2xbf16>, tensor<16x2xi64>)
  // CHECK: graph.gather_elements %{{.*}}, %[[I]], axis = 1 : (tensor<16x8xbf16>, tensor<16x2xi64>) -> tensor<16x2xbf16>
  // KERNEL: kernel.gather_elements
  %g = graph.gather_elements %p, %i, axis = 1 : (tensor<16x8xbf16>, tensor<16x2xi64>) -> tensor<16x2xbf16>
  // CHECK: graph.scatter_elements %{{.*}}, %[[I]], %[[V]], axis = 1, reduction = add : (tensor<16x8xbf16>, tensor<16x2xi64>, tensor<16x2xbf16>) -> tensor<16x8xbf16>
  // KERNEL: kernel.scatter_elements %{{.*}}, %{{.*}}, %{{.*}}, axis = 1, reduction = add
  %s = graph.scatter_elements %z, %i, %v, axis = 1, reduction = add : (tensor<16x8xbf16>, tensor<16x2xi64>, tensor<16x2xbf16>) -> tensor<16x8xbf16>
  // CHECK: graph.one_hot %[[I]] : tensor<16x2xi64> -> tensor<16x2x8xf16>
  // KERNEL: kernel.one_hot %{{.*}} : tensor<16x2xi64> -> tensor<16x2x8xf16>
  %h = graph.one_hot %i : tensor<16x2xi64> -> tensor<16x2x8xf16>
  return %e, %c, %g, %s, %h, %i : tensor<2x5x32xf32>, tensor<100x7xf32>, tensor<16x2xbf16>, tensor<16x8xbf16>, tensor<16x2x8xf16>, tensor<16x2xi64>
}
