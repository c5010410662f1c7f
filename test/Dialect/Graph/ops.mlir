// Every graph op prints, parses and prints again identically, in the custom
// and in the generic form.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<16x4096xf16>, %b: tensor<4096x6144xf16>,
                  %q: tensor<2x256x64xbf16>, %k: tensor<2x64x4096xbf16>) {
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16>
  %0 = graph.matmul %a, %b : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x256x64xbf16>, tensor<2x64x4096xbf16>) -> tensor<2x256x4096xbf16>
  %1 = graph.matmul %q, %k : (tensor<2x256x64xbf16>, tensor<2x64x4096xbf16>) -> tensor<2x256x4096xbf16>
  return
}

// CHECK-LABEL: func @elementwise
func.func @elementwise(%x: tensor<8x64xf32>, %r: tensor<8x1xf32>, %v: tensor<64xf32>) {
  // CHECK: graph.exp %{{.*}} : tensor<8x64xf32>
  %0 = graph.exp %x : tensor<8x64xf32>
  // CHECK: graph.sqrt
  %1 = graph.sqrt %x : tensor<8x64xf32>
  // CHECK: graph.square
  %2 = graph.square %x : tensor<8x64xf32>
  // CHECK: graph.silu
  %3 = graph.silu %x : tensor<8x64xf32>
  // CHECK: graph.gelu
  %4 = graph.gelu %x : tensor<8x64xf32>
  // CHECK: graph.relu
  %5 = graph.relu %x : tensor<8x64xf32>
  // CHECK: graph.clamp %{{.*}}, min = -1.000000e+00, max = 6.000000e+00 : tensor<8x64xf32>
  %6 = graph.clamp %x, min = -1.0, max = 6.0 : tensor<8x64xf32>
  // CHECK: graph.scalar_mul %{{.*}}, 2.44140625E-4 : tensor<8x64xf32>
  %7 = graph.scalar_mul %x, 2.44140625E-4 : tensor<8x64xf32>
  // CHECK: graph.pow %{{.*}}, 3.000000e+00 : tensor<8x64xf32>
  %8 = graph.pow %x, 3.0 : tensor<8x64xf32>
  // CHECK: graph.scalar_add %{{.*}}, 9.9999999999999995E-7 : tensor<8x64xf32>
  %s1 = graph.scalar_add %x, 1.0e-6 : tensor<8x64xf32>
  // CHECK: graph.tanh %{{.*}} : tensor<8x64xf32>
  %s2 = graph.tanh %x : tensor<8x64xf32>
  // CHECK: graph.sigmoid %{{.*}} : tensor<8x64xf32>
  %s3 = graph.sigmoid %x : tensor<8x64xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  %9 = graph.add %x, %r : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  // CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %10 = graph.sub %v, %x : (tensor<64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.mul
  %11 = graph.mul %x, %x : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  // CHECK: graph.div
  %12 = graph.div %x, %r : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<8x4096xf16>) {
  // CHECK: graph.reduce_sum %{{.*}}, dim = 1 : tensor<8x4096xf16> -> tensor<8x1xf16>
  %0 = graph.reduce_sum %x, dim = 1 : tensor<8x4096xf16> -> tensor<8x1xf16>
  // CHECK: graph.reduce_max %{{.*}}, dim = 0 : tensor<8x4096xf16> -> tensor<1x4096xf16>
  %1 = graph.reduce_max %x, dim = 0 : tensor<8x4096xf16> -> tensor<1x4096xf16>
  // CHECK: graph.rms_norm %{{.*}} : tensor<8x4096xf16>
  %2 = graph.rms_norm %x : tensor<8x4096xf16>
  // CHECK: graph.rms_norm %{{.*}} {eps = 9.9999999999999995E-7 : f64} : tensor<8x4096xf16>
  %3 = graph.rms_norm %x {eps = 1.0e-6 : f64} : tensor<8x4096xf16>
  // CHECK: graph.softmax %{{.*}}, dim = 1 : tensor<8x4096xf16>
  %4 = graph.softmax %x, dim = 1 : tensor<8x4096xf16>
  return
}

// CHECK-LABEL: func @data_movement
func.func @data_movement(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>, %b: tensor<1x4xf32>) {
  // CHECK: graph.transpose %{{.*}}, perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %0 = graph.transpose %x, perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  // CHECK: graph.reshape %{{.*}} : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = graph.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  // CHECK: graph.broadcast %{{.*}} : tensor<1x4xf32> -> tensor<2x3x4xf32>
  %2 = graph.broadcast %b : tensor<1x4xf32> -> tensor<2x3x4xf32>
  // CHECK: graph.repeat %{{.*}}, repeats = [1, 2, 3] : tensor<2x3x4xf32> -> tensor<2x6x12xf32>
  %3 = graph.repeat %x, repeats = [1, 2, 3] : tensor<2x3x4xf32> -> tensor<2x6x12xf32>
  // CHECK: graph.concat(%{{.*}}, %{{.*}}) dim = 1 : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %4 = graph.concat(%x, %y) dim = 1 : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  // CHECK: graph.split %{{.*}}, dim = 1, sizes = [1, 2] : tensor<2x3x4xf32> -> tensor<2x1x4xf32>, tensor<2x2x4xf32>
  %5:2 = graph.split %x, dim = 1, sizes = [1, 2] : tensor<2x3x4xf32> -> tensor<2x1x4xf32>, tensor<2x2x4xf32>
  return
}

// CHECK-LABEL: func @conv_pool
func.func @conv_pool(%x: tensor<1x3x224x224xf16>, %w: tensor<64x3x7x7xf16>,
                     %dw: tensor<64x1x3x3xf16>, %f: tensor<1x64x112x112xf16>) {
  // CHECK: graph.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x112x112xf16>
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 3, 3>} : (tensor<1x3x224x224xf16>, tensor<64x3x7x7xf16>) -> tensor<1x64x112x112xf16>
  // CHECK: graph.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, groups = 64 : i64, padding = array<i64: 2, 2>} : (tensor<1x64x112x112xf16>, tensor<64x1x3x3xf16>) -> tensor<1x64x112x112xf16>
  %1 = graph.conv2d %f, %dw {groups = 64 : i64, padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x64x112x112xf16>, tensor<64x1x3x3xf16>) -> tensor<1x64x112x112xf16>
  // CHECK: graph.max_pool2d %{{.*}}, kernel = [3, 3] {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : tensor<1x64x112x112xf16> -> tensor<1x64x56x56xf16>
  %2 = graph.max_pool2d %f, kernel = [3, 3] {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x64x112x112xf16> -> tensor<1x64x56x56xf16>
  // CHECK: graph.avg_pool2d %{{.*}}, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x64x112x112xf16> -> tensor<1x64x56x56xf16>
  %3 = graph.avg_pool2d %f, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x64x112x112xf16> -> tensor<1x64x56x56xf16>
  return
}
