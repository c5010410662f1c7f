// RUN: mirage-opt %s --graph-to-kernel | FileCheck %s
// It also runs nested on functions.
// RUN: mirage-opt %s --pass-pipeline='builtin.module(func.func(graph-to-kernel))' | FileCheck %s
// The default schedule changes the level only: converting twice is a no-op.
// RUN: mirage-opt %s --graph-to-kernel --graph-to-kernel | FileCheck %s

// CHECK-LABEL: func @every_op
// CHECK-NOT: graph.
func.func @every_op(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>, %r: tensor<8x1xf16>,
                    %img: tensor<1x3x16x16xf16>, %k: tensor<4x3x3x3xf16>) {
  // CHECK: kernel.matmul %{{.*}}, %{{.*}} : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  %0 = graph.matmul %x, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  // CHECK: kernel.unary exp %{{.*}} : tensor<8x64xf16>
  %1 = graph.exp %x : tensor<8x64xf16>
  // CHECK: kernel.unary sqrt
  %2 = graph.sqrt %x : tensor<8x64xf16>
  // CHECK: kernel.unary square
  %3 = graph.square %x : tensor<8x64xf16>
  // CHECK: kernel.unary silu
  %4 = graph.silu %x : tensor<8x64xf16>
  // CHECK: kernel.unary gelu
  %5 = graph.gelu %x : tensor<8x64xf16>
  // CHECK: kernel.unary relu
  %6 = graph.relu %x : tensor<8x64xf16>
  // CHECK: kernel.unary clamp %{{.*}} params = [0.000000e+00, 6.000000e+00]
  %7 = graph.clamp %x, min = 0.0, max = 6.0 : tensor<8x64xf16>
  // CHECK: kernel.unary scale %{{.*}} params = [1.250000e-01]
  %8 = graph.scalar_mul %x, 0.125 : tensor<8x64xf16>
  // CHECK: kernel.unary pow %{{.*}} params = [3.000000e+00]
  %9 = graph.pow %x, 3.0 : tensor<8x64xf16>
  // CHECK: kernel.unary offset %{{.*}} params = [-2.500000e-01]
  %o1 = graph.scalar_add %x, -0.25 : tensor<8x64xf16>
  // CHECK: kernel.unary tanh
  %o2 = graph.tanh %x : tensor<8x64xf16>
  // CHECK: kernel.unary sigmoid
  %o3 = graph.sigmoid %x : tensor<8x64xf16>
  // CHECK: kernel.binary add %{{.*}}, %{{.*}} : (tensor<8x64xf16>, tensor<8x1xf16>) -> tensor<8x64xf16>
  %10 = graph.add %x, %r : (tensor<8x64xf16>, tensor<8x1xf16>) -> tensor<8x64xf16>
  // CHECK: kernel.binary sub
  %11 = graph.sub %x, %r : (tensor<8x64xf16>, tensor<8x1xf16>) -> tensor<8x64xf16>
  // CHECK: kernel.binary mul
  %12 = graph.mul %x, %x : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  // CHECK: kernel.binary div
  %13 = graph.div %x, %r : (tensor<8x64xf16>, tensor<8x1xf16>) -> tensor<8x64xf16>
  // CHECK: kernel.reduce sum %{{.*}}, dim = 1 : tensor<8x64xf16> -> tensor<8x1xf16>
  %14 = graph.reduce_sum %x, dim = 1 : tensor<8x64xf16> -> tensor<8x1xf16>
  // CHECK: kernel.reduce max %{{.*}}, dim = 0 : tensor<8x64xf16> -> tensor<1x64xf16>
  %15 = graph.reduce_max %x, dim = 0 : tensor<8x64xf16> -> tensor<1x64xf16>
  // CHECK: kernel.rms_norm %{{.*}} {eps = 9.9999999999999995E-7 : f64} : tensor<8x64xf16>
  %16 = graph.rms_norm %x {eps = 1.0e-6 : f64} : tensor<8x64xf16>
  // CHECK: kernel.softmax %{{.*}}, dim = 1 : tensor<8x64xf16>
  %17 = graph.softmax %x, dim = 1 : tensor<8x64xf16>
  // CHECK: kernel.transpose %{{.*}}, perm = [1, 0] : tensor<8x64xf16> -> tensor<64x8xf16>
  %18 = graph.transpose %x, perm = [1, 0] : tensor<8x64xf16> -> tensor<64x8xf16>
  // CHECK: kernel.reshape %{{.*}} : tensor<8x64xf16> -> tensor<512xf16>
  %19 = graph.reshape %x : tensor<8x64xf16> -> tensor<512xf16>
  // CHECK: kernel.broadcast %{{.*}} : tensor<8x1xf16> -> tensor<8x64xf16>
  %20 = graph.broadcast %r : tensor<8x1xf16> -> tensor<8x64xf16>
  // CHECK: kernel.repeat %{{.*}}, repeats = [1, 2] : tensor<8x64xf16> -> tensor<8x128xf16>
  %21 = graph.repeat %x, repeats = [1, 2] : tensor<8x64xf16> -> tensor<8x128xf16>
  // CHECK: kernel.concat(%{{.*}}, %{{.*}}) dim = 1 : (tensor<8x64xf16>, tensor<8x1xf16>) -> tensor<8x65xf16>
  %22 = graph.concat(%x, %r) dim = 1 : (tensor<8x64xf16>, tensor<8x1xf16>) -> tensor<8x65xf16>
  // CHECK: kernel.split %{{.*}}, dim = 0, sizes = [3, 5] : tensor<8x64xf16> -> tensor<3x64xf16>, tensor<5x64xf16>
  %23:2 = graph.split %x, dim = 0, sizes = [3, 5] : tensor<8x64xf16> -> tensor<3x64xf16>, tensor<5x64xf16>
  // CHECK: kernel.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : (tensor<1x3x16x16xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x16x16xf16>
  %24 = graph.conv2d %img, %k {padding = array<i64: 1, 1>} : (tensor<1x3x16x16xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x16x16xf16>
  // CHECK: kernel.pool2d max %{{.*}}, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x4x16x16xf16> -> tensor<1x4x8x8xf16>
  %25 = graph.max_pool2d %24, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x4x16x16xf16> -> tensor<1x4x8x8xf16>
  // CHECK: kernel.pool2d avg %{{.*}}, kernel = [2, 2] : tensor<1x4x16x16xf16> -> tensor<1x4x15x15xf16>
  %26 = graph.avg_pool2d %24, kernel = [2, 2] : tensor<1x4x16x16xf16> -> tensor<1x4x15x15xf16>
  return
}

// Values keep flowing between the new kernels.
// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf16>, %[[W:.*]]: tensor<64x32xf16>)
// CHECK: %[[N:.*]] = kernel.rms_norm %[[X]]
// CHECK: %[[M:.*]] = kernel.matmul %[[N]], %[[W]]
// CHECK: %[[S:.*]] = kernel.unary silu %[[M]]
// CHECK: return %[[S]]
func.func @chain(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %0 = graph.rms_norm %x : tensor<8x64xf16>
  %1 = graph.matmul %0, %w : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
  %2 = graph.silu %1 : tensor<8x32xf16>
  return %2 : tensor<8x32xf16>
}
