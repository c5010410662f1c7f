// Every kernel op prints, parses and prints again identically, in the custom
// and in the generic form.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: func @predefined
func.func @predefined(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>, %r: tensor<16x1xf16>) {
  // CHECK: kernel.matmul %{{.*}}, %{{.*}} : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %0 = kernel.matmul %a, %b : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  // CHECK: kernel.unary exp %{{.*}} : tensor<16x64xf16>
  %1 = kernel.unary exp %a : tensor<16x64xf16>
  // CHECK: kernel.unary clamp %{{.*}} params = [0.000000e+00, 6.000000e+00] : tensor<16x64xf16>
  %2 = kernel.unary clamp %a params = [0.0, 6.0] : tensor<16x64xf16>
  // CHECK: kernel.unary scale %{{.*}} params = [2.44140625E-4] : tensor<16x64xf16>
  %3 = kernel.unary scale %a params = [2.44140625E-4] : tensor<16x64xf16>
  // CHECK: kernel.unary pow %{{.*}} params = [2.000000e+00] : tensor<16x64xf16>
  %4 = kernel.unary pow %a params = [2.0] : tensor<16x64xf16>
  // CHECK: kernel.binary div %{{.*}}, %{{.*}} : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  %5 = kernel.binary div %a, %r : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  // CHECK: kernel.reduce max %{{.*}}, dim = 1 : tensor<16x64xf16> -> tensor<16x1xf16>
  %6 = kernel.reduce max %a, dim = 1 : tensor<16x64xf16> -> tensor<16x1xf16>
  // CHECK: kernel.rms_norm %{{.*}} : tensor<16x64xf16>
  %7 = kernel.rms_norm %a : tensor<16x64xf16>
  // CHECK: kernel.softmax %{{.*}}, dim = 1 : tensor<16x64xf16>
  %8 = kernel.softmax %a, dim = 1 : tensor<16x64xf16>
  // CHECK: kernel.transpose %{{.*}}, perm = [1, 0] : tensor<16x64xf16> -> tensor<64x16xf16>
  %9 = kernel.transpose %a, perm = [1, 0] : tensor<16x64xf16> -> tensor<64x16xf16>
  // CHECK: kernel.reshape %{{.*}} : tensor<16x64xf16> -> tensor<1024xf16>
  %10 = kernel.reshape %a : tensor<16x64xf16> -> tensor<1024xf16>
  // CHECK: kernel.broadcast %{{.*}} : tensor<16x1xf16> -> tensor<16x64xf16>
  %11 = kernel.broadcast %r : tensor<16x1xf16> -> tensor<16x64xf16>
  // CHECK: kernel.repeat %{{.*}}, repeats = [2, 1] : tensor<16x64xf16> -> tensor<32x64xf16>
  %12 = kernel.repeat %a, repeats = [2, 1] : tensor<16x64xf16> -> tensor<32x64xf16>
  // CHECK: kernel.concat(%{{.*}}, %{{.*}}) dim = 1 : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x65xf16>
  %13 = kernel.concat(%a, %r) dim = 1 : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x65xf16>
  // CHECK: kernel.split %{{.*}}, dim = 1, sizes = [32, 32] : tensor<16x64xf16> -> tensor<16x32xf16>, tensor<16x32xf16>
  %14:2 = kernel.split %a, dim = 1, sizes = [32, 32] : tensor<16x64xf16> -> tensor<16x32xf16>, tensor<16x32xf16>
  return
}

// CHECK-LABEL: func @conv_pool
func.func @conv_pool(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // CHECK: kernel.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  %0 = kernel.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  // CHECK: kernel.pool2d avg %{{.*}}, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x8x32x32xf32> -> tensor<1x8x16x16xf32>
  %1 = kernel.pool2d avg %0, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x8x32x32xf32> -> tensor<1x8x16x16xf32>
  // CHECK: kernel.pool2d max
  %2 = kernel.pool2d max %0, kernel = [3, 3] : tensor<1x8x32x32xf32> -> tensor<1x8x30x30xf32>
  return
}

// A graph-defined kernel with a 3-d grid and two outputs.
// CHECK-LABEL: func @graph_def
func.func @graph_def(%x: tensor<4x64x128xf32>) -> (tensor<4x64x128xf32>, tensor<4x64x2xf32>) {
  // CHECK: kernel.graph_def(%{{.*}}) grid = [4, 2, 2] forloop = 4 : (tensor<4x64x128xf32>) -> (tensor<4x64x128xf32>, tensor<4x64x2xf32>) {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<4x64x128xf32>):
  %y:2 = kernel.graph_def (%x) grid = [4, 2, 2] forloop = 4
      : (tensor<4x64x128xf32>) -> (tensor<4x64x128xf32>, tensor<4x64x2xf32>) {
  ^bb0(%t: tensor<4x64x128xf32>):
    %i = block.input %t imap = <x: 0, y: 1, z: 2> fmap = <i: 2> : tensor<4x64x128xf32> -> !block.tile<1x32x16xf32>
    %m = block.reduce max %i, dim = 2 : !block.tile<1x32x16xf32> -> !block.tile<1x32x1xf32>
    %c = block.accum concat %i, dim = 2 : !block.tile<1x32x16xf32> -> !block.tile<1x32x64xf32>
    %a = block.accum max %m : !block.tile<1x32x1xf32> -> !block.tile<1x32x1xf32>
    %o0 = block.output %c omap = <x: 0, y: 1, z: 2> : !block.tile<1x32x64xf32> -> tensor<4x64x128xf32>
    %o1 = block.output %a omap = <x: 0, y: 1, z: 2> : !block.tile<1x32x1xf32> -> tensor<4x64x2xf32>
    // CHECK: block.yield %{{.*}}, %{{.*}} : tensor<4x64x128xf32>, tensor<4x64x2xf32>
    block.yield %o0, %o1 : tensor<4x64x128xf32>, tensor<4x64x2xf32>
  }
  return %y#0, %y#1 : tensor<4x64x128xf32>, tensor<4x64x2xf32>
}
