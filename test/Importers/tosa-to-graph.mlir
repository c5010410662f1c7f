// RUN: mirage-opt %s --tosa-to-graph -split-input-file | FileCheck %s
// The same through upstream mlir-opt with the plugins.
// RUN: %upstream_mlir_opt --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so --load-pass-plugin=%mirage_libs/MiragePassPlugin.so --pass-pipeline='builtin.module(tosa-to-graph)' %s -split-input-file | FileCheck %s

// A two-layer MLP as torch-mlir writes nn.Linear in TOSA: the weights are
// tosa.const, transposed, reshaped to 3-d for tosa.matmul (zero points 0),
// the bias reshaped to [1, N] and added; ReLU is a clamp to [0, f32 max].
// The weights become trailing arguments holding their values.

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4xf32>,
// CHECK-SAME: %[[W1:[^:]*]]: tensor<3x4xf32> {mirage.lifted_constant = dense<{{\[\[}}5.000000e-01, -1.000000e+00, 2.500000e-01, 2.000000e+00], [1.000000e+00, 5.000000e-01, -5.000000e-01, 0.000000e+00], [-2.500000e-01, 7.500000e-01, 1.000000e+00, -1.500000e+00]]> : tensor<3x4xf32>},
// CHECK-SAME: %[[W2:[^:]*]]: tensor<2x3xf32> {mirage.lifted_constant = dense<{{\[\[}}1.000000e+00, -5.000000e-01, 2.500000e-01], [5.000000e-01, 1.500000e+00, -1.000000e+00]]> : tensor<2x3xf32>},
// CHECK-SAME: %[[B1:[^:]*]]: tensor<1x3xf32> {mirage.lifted_constant = dense<{{\[\[}}1.250000e-01, -2.500000e-01, 5.000000e-01]]> : tensor<1x3xf32>},
// CHECK-SAME: %[[B2:[^:]*]]: tensor<1x2xf32> {mirage.lifted_constant = dense<{{\[\[}}6.250000e-02, -1.250000e-01]]> : tensor<1x2xf32>}) -> tensor<2x2xf32>
// CHECK-NEXT: %[[W1T:.*]] = graph.transpose %[[W1]], perm = [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[X3:.*]] = graph.reshape %[[X]] : tensor<2x4xf32> -> tensor<1x2x4xf32>
// CHECK-NEXT: %[[W1R:.*]] = graph.reshape %[[W1T]] : tensor<4x3xf32> -> tensor<1x4x3xf32>
// CHECK-NEXT: %[[MM1:.*]] = graph.matmul %[[X3]], %[[W1R]] : (tensor<1x2x4xf32>, tensor<1x4x3xf32>) -> tensor<1x2x3xf32>
// CHECK-NEXT: %[[H1:.*]] = graph.reshape %[[MM1]] : tensor<1x2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[A1:.*]] = graph.add %[[H1]], %[[B1]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[R1:.*]] = graph.relu %[[A1]] : tensor<2x3xf32>
// CHECK-NEXT: %[[W2T:.*]] = graph.transpose %[[W2]], perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT: %[[R13:.*]] = graph.reshape %[[R1]] : tensor<2x3xf32> -> tensor<1x2x3xf32>
// CHECK-NEXT: %[[W2R:.*]] = graph.reshape %[[W2T]] : tensor<3x2xf32> -> tensor<1x3x2xf32>
// CHECK-NEXT: %[[MM2:.*]] = graph.matmul %[[R13]], %[[W2R]] : (tensor<1x2x3xf32>, tensor<1x3x2xf32>) -> tensor<1x2x2xf32>
// CHECK-NEXT: %[[H2:.*]] = graph.reshape %[[MM2]] : tensor<1x2x2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.add %[[H2]], %[[B2]] : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return %[[Y]] : tensor<2x2xf32>
func.func @mlp(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %w1 = "tosa.const"() <{values = dense<[[0.5, -1.0, 0.25, 2.0], [1.0, 0.5, -0.5, 0.0], [-0.25, 0.75, 1.0, -1.5]]> : tensor<3x4xf32>}> : () -> tensor<3x4xf32>
  %b1 = "tosa.const"() <{values = dense<[0.125, -0.25, 0.5]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %w2 = "tosa.const"() <{values = dense<[[1.0, -0.5, 0.25], [0.5, 1.5, -1.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %b2 = "tosa.const"() <{values = dense<[0.0625, -0.125]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w1t = tosa.transpose %w1 {perms = array<i32: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %s0 = tosa.const_shape {values = dense<[1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s0 : (tensor<2x4xf32>, !tosa.shape<3>) -> tensor<1x2x4xf32>
  %s1 = tosa.const_shape {values = dense<[1, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w1r = tosa.reshape %w1t, %s1 : (tensor<4x3xf32>, !tosa.shape<3>) -> tensor<1x4x3xf32>
  %mm1 = tosa.matmul %x3, %w1r, %zp, %zp : (tensor<1x2x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %s2 = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %h1 = tosa.reshape %mm1, %s2 : (tensor<1x2x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
  %s3 = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b1r = tosa.reshape %b1, %s3 : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
  %a1 = tosa.add %h1, %b1r : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %r1 = tosa.clamp %a1 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %w2t = tosa.transpose %w2 {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %s4 = tosa.const_shape {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r13 = tosa.reshape %r1, %s4 : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<1x2x3xf32>
  %s5 = tosa.const_shape {values = dense<[1, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w2r = tosa.reshape %w2t, %s5 : (tensor<3x2xf32>, !tosa.shape<3>) -> tensor<1x3x2xf32>
  %mm2 = tosa.matmul %r13, %w2r, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  %s6 = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %h2 = tosa.reshape %mm2, %s6 : (tensor<1x2x2xf32>, !tosa.shape<2>) -> tensor<2x2xf32>
  %s7 = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b2r = tosa.reshape %b2, %s7 : (tensor<2xf32>, !tosa.shape<2>) -> tensor<1x2xf32>
  %y = tosa.add %h2, %b2r : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// A convolution block in NHWC as torch-mlir writes Conv2d + ReLU +
// MaxPool2d for an NCHW module: transposes around TOSA's NHWC ops. The
// convolution's own transposes cancel against them (OHWI -> OIHW for the
// weight, the bias added on the NHWC result's channel dimension).

// CHECK-LABEL: func.func @conv_block(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x4x8x8xf32>, %[[W:[^:]*]]: tensor<6x3x3x4xf32>, %[[B:[^:]*]]: tensor<6xf32>)
// CHECK-NEXT: %[[WT:.*]] = graph.transpose %[[W]], perm = [0, 3, 1, 2] : tensor<6x3x3x4xf32> -> tensor<6x4x3x3xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[X]], %[[WT]] {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x8x8xf32>
// CHECK-NEXT: %[[CT:.*]] = graph.transpose %[[C]], perm = [0, 2, 3, 1] : tensor<1x6x8x8xf32> -> tensor<1x8x8x6xf32>
// CHECK-NEXT: %[[CB:.*]] = graph.add %[[CT]], %[[B]] : (tensor<1x8x8x6xf32>, tensor<6xf32>) -> tensor<1x8x8x6xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[CB]] : tensor<1x8x8x6xf32>
// CHECK-NEXT: %[[RT:.*]] = graph.transpose %[[R]], perm = [0, 3, 1, 2] : tensor<1x8x8x6xf32> -> tensor<1x6x8x8xf32>
// CHECK-NEXT: %[[P:.*]] = graph.max_pool2d %[[RT]], kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x6x8x8xf32> -> tensor<1x6x4x4xf32>
// CHECK-NEXT: return %[[P]] : tensor<1x6x4x4xf32>
func.func @conv_block(%x: tensor<1x4x8x8xf32>, %w: tensor<6x3x3x4xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %xt = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %c = tosa.conv2d %xt, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x6xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x6xf32>) -> tensor<1x4x4x6xf32>
  %y = tosa.transpose %p {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x6xf32>) -> tensor<1x6x4x4xf32>
  return %y : tensor<1x6x4x4xf32>
}

// -----

// Strides and dilations carry over; a splat bias becomes scalar_add.

// CHECK-LABEL: func.func @conv_strided(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x9x9x2xf16>, %[[W:[^:]*]]: tensor<3x3x3x2xf16>)
// CHECK-NEXT: %[[XT:.*]] = graph.transpose %[[X]], perm = [0, 3, 1, 2] : tensor<1x9x9x2xf16> -> tensor<1x2x9x9xf16>
// CHECK-NEXT: %[[WT:.*]] = graph.transpose %[[W]], perm = [0, 3, 1, 2] : tensor<3x3x3x2xf16> -> tensor<3x2x3x3xf16>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[XT]], %[[WT]] {dilations = array<i64: 2, 1>, padding = array<i64: 2, 0>, strides = array<i64: 2, 3>} : (tensor<1x2x9x9xf16>, tensor<3x2x3x3xf16>) -> tensor<1x3x5x3xf16>
// CHECK-NEXT: %[[CT:.*]] = graph.transpose %[[C]], perm = [0, 2, 3, 1] : tensor<1x3x5x3xf16> -> tensor<1x5x3x3xf16>
// CHECK-NEXT: %[[Y:.*]] = graph.scalar_add %[[CT]], 2.500000e-01 : tensor<1x5x3x3xf16>
// CHECK-NEXT: return %[[Y]]
func.func @conv_strided(%x: tensor<1x9x9x2xf16>, %w: tensor<3x3x3x2xf16>) -> tensor<1x5x3x3xf16> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %b = "tosa.const"() <{values = dense<2.500000e-01> : tensor<3xf16>}> : () -> tensor<3xf16>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 1>, pad = array<i64: 2, 2, 0, 0>, stride = array<i64: 2, 3>} : (tensor<1x9x9x2xf16>, tensor<3x3x3x2xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x5x3x3xf16>
  return %c : tensor<1x5x3x3xf16>
}

// -----

// Depthwise: the HWCM weight becomes [C*M, 1, KH, KW], groups = C; the
// zero bias (torch-mlir's for bias=False) disappears.

// CHECK-LABEL: func.func @depthwise(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x5x5x2xf32>, %[[W:[^:]*]]: tensor<3x3x2x3xf32>)
// CHECK-NEXT: %[[XT:.*]] = graph.transpose %[[X]], perm = [0, 3, 1, 2] : tensor<1x5x5x2xf32> -> tensor<1x2x5x5xf32>
// CHECK-NEXT: %[[WT:.*]] = graph.transpose %[[W]], perm = [2, 3, 0, 1] : tensor<3x3x2x3xf32> -> tensor<2x3x3x3xf32>
// CHECK-NEXT: %[[WR:.*]] = graph.reshape %[[WT]] : tensor<2x3x3x3xf32> -> tensor<6x1x3x3xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[XT]], %[[WR]] {groups = 2 : i64} : (tensor<1x2x5x5xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x3x3xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.transpose %[[C]], perm = [0, 2, 3, 1] : tensor<1x6x3x3xf32> -> tensor<1x3x3x6xf32>
// CHECK-NEXT: return %[[Y]]
func.func @depthwise(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x3x3x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b = "tosa.const"() <{values = dense<0.000000e+00> : tensor<6xf32>}> : () -> tensor<6xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x6xf32>
  return %c : tensor<1x3x3x6xf32>
}

// -----

// torch-mlir's avg_pool2d with count_include_pad: a tosa.pad of zeros on H
// and W, then an unpadded tosa.avg_pool2d. graph.avg_pool2d counts padded
// zeros, so the pad folds into its padding.

// CHECK-LABEL: func.func @avg_include_pad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x6x6x3xf32>)
// CHECK-NEXT: %[[XT:.*]] = graph.transpose %[[X]], perm = [0, 3, 1, 2] : tensor<1x6x6x3xf32> -> tensor<1x3x6x6xf32>
// CHECK-NEXT: %[[A:.*]] = graph.avg_pool2d %[[XT]], kernel = [3, 3] {padding = array<i64: 1, 1>} : tensor<1x3x6x6xf32> -> tensor<1x3x6x6xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.transpose %[[A]], perm = [0, 2, 3, 1] : tensor<1x3x6x6xf32> -> tensor<1x6x6x3xf32>
// CHECK-NEXT: return %[[Y]]
func.func @avg_include_pad(%x: tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32> {
  %shape = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %fill = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %padded = tosa.pad %x, %shape, %fill : (tensor<1x6x6x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x8x8x3xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.avg_pool2d %padded, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x3xf32>
  return %y : tensor<1x6x6x3xf32>
}

// -----

// A max pool pads with -inf in front, or with its own symmetric padding.

// CHECK-LABEL: func.func @max_pool_padded(
// CHECK: graph.max_pool2d %{{.*}}, kernel = [3, 3] {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : tensor<1x2x7x7xf32> -> tensor<1x2x4x4xf32>
// CHECK: graph.max_pool2d %{{.*}}, kernel = [3, 3] {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : tensor<1x2x7x7xf32> -> tensor<1x2x4x4xf32>
func.func @max_pool_padded(%x: tensor<1x7x7x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32>
  %shape = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1xf32>}> : () -> tensor<1xf32>
  %padded = tosa.pad %x, %shape, %fill : (tensor<1x7x7x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x9x9x2xf32>
  %1 = tosa.max_pool2d %padded {kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x9x9x2xf32>) -> tensor<1x4x4x2xf32>
  return %0, %1 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
}

// -----

// GELU as torch-mlir writes it (approximate="none"): rank-0 constants
// reshaped to [1, 1, 1], x - 0 scaled by 1/sqrt(2), erf, 1 + erf, times
// 0.5, times x. The whole pattern is graph.gelu.

// CHECK-LABEL: func.func @gelu(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x8x16xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[X]] : tensor<1x8x16xf32>
// CHECK-NEXT: return %[[G]]
func.func @gelu(%x: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %1 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %2 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
  %3 = "tosa.const"() <{values = dense<0.707106769> : tensor<f32>}> : () -> tensor<f32>
  %4 = tosa.const_shape {values = dense<1> : tensor<3xindex>} : () -> !tosa.shape<3>
  %5 = tosa.reshape %0, %4 : (tensor<f32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %6 = tosa.const_shape {values = dense<1> : tensor<3xindex>} : () -> !tosa.shape<3>
  %7 = tosa.reshape %1, %6 : (tensor<f32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %8 = tosa.const_shape {values = dense<1> : tensor<3xindex>} : () -> !tosa.shape<3>
  %9 = tosa.reshape %2, %8 : (tensor<f32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %10 = tosa.const_shape {values = dense<1> : tensor<3xindex>} : () -> !tosa.shape<3>
  %11 = tosa.reshape %3, %10 : (tensor<f32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %12 = tosa.sub %x, %5 : (tensor<1x8x16xf32>, tensor<1x1x1xf32>) -> tensor<1x8x16xf32>
  %13 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %14 = tosa.mul %12, %11, %13 : (tensor<1x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  %15 = tosa.erf %14 : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %16 = tosa.add %7, %15 : (tensor<1x1x1xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %17 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %18 = tosa.mul %9, %16, %17 : (tensor<1x1x1xf32>, tensor<1x8x16xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  %19 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %20 = tosa.mul %x, %18, %19 : (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  return %20 : tensor<1x8x16xf32>
}

// -----

// Elementwise ops: broadcasting binaries, splat constants as scalar forms
// on either side, maximum/minimum against a splat as relu and clamp,
// negate, reciprocal (pow -1), rsqrt (pow -0.5), pow with a splat
// exponent; identity and a same-type cast vanish.

// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[Y:[^:]*]]: tensor<1x8xf32>)
// CHECK-NEXT: %[[V0:.*]] = graph.add %[[X]], %[[Y]] : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V1:.*]] = graph.scalar_add %[[V0]], 2.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V2:.*]] = graph.scalar_add %[[V1]], -3.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[N3:.*]] = graph.scalar_mul %[[V2]], -1.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V3:.*]] = graph.scalar_add %[[N3]], 2.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V4:.*]] = graph.scalar_mul %[[V3]], 3.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V5:.*]] = graph.mul %[[V4]], %[[Y]] : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V6:.*]] = graph.sub %[[V5]], %[[Y]] : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[V7:.*]] = graph.relu %[[V6]] : tensor<4x8xf32>
// CHECK-NEXT: %[[V8:.*]] = graph.clamp %[[V7]], min = 0xFFF0000000000000, max = 3.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V9:.*]] = graph.clamp %[[V8]], min = 2.000000e+00, max = 0x7FF0000000000000 : tensor<4x8xf32>
// CHECK-NEXT: %[[V10:.*]] = graph.clamp %[[V9]], min = -1.000000e+00, max = 6.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V11:.*]] = graph.scalar_mul %[[V10]], -1.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V12:.*]] = graph.exp %[[V11]] : tensor<4x8xf32>
// CHECK-NEXT: %[[V13:.*]] = graph.pow %[[V12]], -1.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V14:.*]] = graph.pow %[[V13]], -5.000000e-01 : tensor<4x8xf32>
// CHECK-NEXT: %[[V15:.*]] = graph.pow %[[V14]], 3.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[V16:.*]] = graph.tanh %[[V15]] : tensor<4x8xf32>
// CHECK-NEXT: %[[V17:.*]] = graph.sigmoid %[[V16]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[V17]] : tensor<4x8xf32>
func.func @elementwise(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %two = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %three = "tosa.const"() <{values = dense<3.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.add %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.add %0, %two : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %2 = tosa.sub %1, %three : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %3 = tosa.sub %two, %2 : (tensor<1x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = tosa.mul %3, %three, %shift : (tensor<4x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %5 = tosa.mul %4, %y, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %6 = tosa.sub %5, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %7 = tosa.maximum %6, %zero : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %8 = tosa.minimum %7, %three : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %9 = tosa.maximum %two, %8 : (tensor<1x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %10 = tosa.clamp %9 {max_val = 6.000000e+00 : f32, min_val = -1.000000e+00 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %11 = tosa.negate %10, %zp, %zp : (tensor<4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  %12 = tosa.exp %11 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %13 = tosa.reciprocal %12 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %14 = tosa.rsqrt %13 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %15 = tosa.pow %14, %three : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %16 = tosa.tanh %15 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %17 = tosa.sigmoid %16 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %18 = tosa.identity %17 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %19 = tosa.cast %18 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %19 : tensor<4x8xf32>
}

// -----

// Reductions keep the reduced dimension, as graph's do; transpose, concat
// and tile (graph.repeat) in bf16.

// CHECK-LABEL: func.func @data_movement(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3x4xbf16>, %[[Y:[^:]*]]: tensor<2x3x4xbf16>)
// CHECK-NEXT: %[[S:.*]] = graph.reduce_sum %[[X]], dim = 1 : tensor<2x3x4xbf16> -> tensor<2x1x4xbf16>
// CHECK-NEXT: %[[M:.*]] = graph.reduce_max %[[Y]], dim = 0 : tensor<2x3x4xbf16> -> tensor<1x3x4xbf16>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[X]], perm = [2, 0, 1] : tensor<2x3x4xbf16> -> tensor<4x2x3xbf16>
// CHECK-NEXT: %[[C:.*]] = graph.concat(%[[X]], %[[Y]]) dim = 0 : (tensor<2x3x4xbf16>, tensor<2x3x4xbf16>) -> tensor<4x3x4xbf16>
// CHECK-NEXT: %[[R:.*]] = graph.repeat %[[X]], repeats = [3, 3, 1] : tensor<2x3x4xbf16> -> tensor<6x9x4xbf16>
// CHECK-NEXT: return %[[S]], %[[M]], %[[T]], %[[C]], %[[R]]
func.func @data_movement(%x: tensor<2x3x4xbf16>, %y: tensor<2x3x4xbf16>) -> (tensor<2x1x4xbf16>, tensor<1x3x4xbf16>, tensor<4x2x3xbf16>, tensor<4x3x4xbf16>, tensor<6x9x4xbf16>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3x4xbf16>) -> tensor<2x1x4xbf16>
  %1 = tosa.reduce_max %y {axis = 0 : i32} : (tensor<2x3x4xbf16>) -> tensor<1x3x4xbf16>
  %2 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
  %3 = tosa.concat %x, %y {axis = 0 : i32} : (tensor<2x3x4xbf16>, tensor<2x3x4xbf16>) -> tensor<4x3x4xbf16>
  %m = tosa.const_shape {values = dense<[3, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %4 = tosa.tile %x, %m : (tensor<2x3x4xbf16>, !tosa.shape<3>) -> tensor<6x9x4xbf16>
  return %0, %1, %2, %3, %4 : tensor<2x1x4xbf16>, tensor<1x3x4xbf16>, tensor<4x2x3xbf16>, tensor<4x3x4xbf16>, tensor<6x9x4xbf16>
}

// -----

// Slices that cut a dimension into pieces are one graph.split (torch.chunk
// and torch.split in TOSA); a repeated slice takes the same piece, and a
// slice of the whole tensor is the tensor.

// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x12xf32>)
// CHECK-NEXT: %[[S:.*]]:3 = graph.split %[[X]], dim = 1, sizes = [4, 6, 2] : tensor<2x12xf32> -> tensor<2x4xf32>, tensor<2x6xf32>, tensor<2x2xf32>
// CHECK-NEXT: return %[[S]]#0, %[[S]]#2, %[[S]]#1, %[[S]]#0, %[[X]]
func.func @split(%x: tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x6xf32>, tensor<2x4xf32>, tensor<2x12xf32>) {
  %s0 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z0 = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a = tosa.slice %x, %s0, %z0 : (tensor<2x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x4xf32>
  %s2 = tosa.const_shape {values = dense<[0, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z2 = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %c = tosa.slice %x, %s2, %z2 : (tensor<2x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
  %s1 = tosa.const_shape {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z1 = tosa.const_shape {values = dense<[2, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.slice %x, %s1, %z1 : (tensor<2x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x6xf32>
  %d = tosa.slice %x, %s0, %z0 : (tensor<2x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x4xf32>
  %zall = tosa.const_shape {values = dense<[2, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %e = tosa.slice %x, %s0, %zall : (tensor<2x12xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x12xf32>
  return %a, %c, %b, %d, %e : tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x6xf32>, tensor<2x4xf32>, tensor<2x12xf32>
}

// -----

// torch-mlir's f16 linear: tosa.matmul of f16 accumulates into f32, then
// reshapes and a cast back to f16. graph.matmul of f16 sums in f32 and
// rounds once, so the chain is retyped to f16 and the cast dropped.

// CHECK-LABEL: func.func @f16_linear(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4xf16>, %[[W:[^:]*]]: tensor<3x4xf16>)
// CHECK-NEXT: %[[WT:.*]] = graph.transpose %[[W]], perm = [1, 0] : tensor<3x4xf16> -> tensor<4x3xf16>
// CHECK-NEXT: %[[X3:.*]] = graph.reshape %[[X]] : tensor<2x4xf16> -> tensor<1x2x4xf16>
// CHECK-NEXT: %[[W3:.*]] = graph.reshape %[[WT]] : tensor<4x3xf16> -> tensor<1x4x3xf16>
// CHECK-NEXT: %[[MM:.*]] = graph.matmul %[[X3]], %[[W3]] : (tensor<1x2x4xf16>, tensor<1x4x3xf16>) -> tensor<1x2x3xf16>
// CHECK-NEXT: %[[Y:.*]] = graph.reshape %[[MM]] : tensor<1x2x3xf16> -> tensor<2x3xf16>
// CHECK-NEXT: return %[[Y]] : tensor<2x3xf16>
func.func @f16_linear(%x: tensor<2x4xf16>, %w: tensor<3x4xf16>) -> tensor<2x3xf16> {
  %wt = tosa.transpose %w {perms = array<i32: 1, 0>} : (tensor<3x4xf16>) -> tensor<4x3xf16>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %s0 = tosa.const_shape {values = dense<[1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s0 : (tensor<2x4xf16>, !tosa.shape<3>) -> tensor<1x2x4xf16>
  %s1 = tosa.const_shape {values = dense<[1, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w3 = tosa.reshape %wt, %s1 : (tensor<4x3xf16>, !tosa.shape<3>) -> tensor<1x4x3xf16>
  %mm = tosa.matmul %x3, %w3, %zp, %zp : (tensor<1x2x4xf16>, tensor<1x4x3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x3xf32>
  %s2 = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %mm, %s2 : (tensor<1x2x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
  %y = tosa.cast %r : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return %y : tensor<2x3xf16>
}

// -----

// Lifted constants travel along calls inside the module: a caller takes
// its callees' constants as arguments of its own and passes them on.

// CHECK-LABEL: func.func @callee(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x2xf32>, %[[W:[^:]*]]: tensor<2x2xf32> {mirage.lifted_constant = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>})
// CHECK-NEXT: graph.add %[[X]], %[[W]]
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x2xf32>, %[[W:[^:]*]]: tensor<2x2xf32> {mirage.lifted_constant = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>})
// CHECK-NEXT: %[[C0:.*]] = call @callee(%[[X]], %[[W]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: call @callee(%[[C0]], %[[W]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-LABEL: func.func @top(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x2xf32>, %[[B:[^:]*]]: tensor<2x2xf32> {mirage.lifted_constant = dense<{{\[\[}}5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00]]> : tensor<2x2xf32>}, %[[W:[^:]*]]: tensor<2x2xf32> {mirage.lifted_constant = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>})
// CHECK-NEXT: %[[S:.*]] = graph.sub %[[X]], %[[B]]
// CHECK-NEXT: call @caller(%[[S]], %[[W]]) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
func.func @callee(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = "tosa.const"() <{values = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  %0 = tosa.add %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

func.func @caller(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = call @callee(%x) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = call @callee(%0) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

func.func @top(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %b = "tosa.const"() <{values = dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  %0 = tosa.sub %x, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = call @caller(%0) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

// -----

// A product of a tensor with itself is graph.square (torch-mlir's x ** 2
// and x * x).

// CHECK-LABEL: func.func @square(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf16>)
// CHECK-NEXT: %[[S:.*]] = graph.square %[[X]] : tensor<4x8xf16>
// CHECK-NEXT: return %[[S]]
func.func @square(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %x, %x, %shift : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<1xi8>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// Ops of other dialects stay as they are.

// CHECK-LABEL: func.func @other_dialects(
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.softmax
// CHECK-NEXT: return
func.func @other_dialects(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.softmax %0, dim = 1 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Comparisons give i1 tensors, which graph has not: each becomes a 0/1 mask
// in its operands' type where every reader takes it as one. An attention
// mask filled with -inf (masked_fill), where(x >= y, x, y) written through
// a logical_not (the select's branches swap), and an equal cast to f32
// (the mask itself).

// CHECK-LABEL: func.func @masks(
// CHECK-SAME: %[[S:[^:]*]]: tensor<2x4xf32>, %[[M:[^:]*]]: tensor<2x4xf32>, %[[Y:[^:]*]]: tensor<2x4xf32>
// CHECK-SAME: %[[Z:[^:]*]]: tensor<1x1xf32> {mirage.lifted_constant = dense<0.000000e+00> : tensor<1x1xf32>}
// CHECK-SAME: %[[NINF:[^:]*]]: tensor<1x1xf32> {mirage.lifted_constant = dense<0xFF800000> : tensor<1x1xf32>})
// CHECK-NEXT: %[[P:.*]] = graph.gt %[[M]], %[[Z]] : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[A:.*]] = graph.select %[[P]], %[[S]], %[[NINF]] : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[Q:.*]] = graph.ge %[[S]], %[[Y]] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[B:.*]] = graph.select %[[Q]], %[[Y]], %[[S]] : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[E:.*]] = graph.eq %[[S]], %[[Y]] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[E]]
func.func @masks(%s: tensor<2x4xf32>, %m: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %zero = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %p = tosa.greater %m, %zero : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xi1>
  %a = tosa.select %p, %s, %ninf : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
  %q = tosa.greater_equal %s, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %nq = tosa.logical_not %q : (tensor<2x4xi1>) -> tensor<2x4xi1>
  %b = tosa.select %nq, %s, %y : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %e = tosa.equal %s, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %c = tosa.cast %e : (tensor<2x4xi1>) -> tensor<2x4xf32>
  return %a, %b, %c : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// A mask of f32 operands selecting between bf16 branches is cast to bf16.

// CHECK-LABEL: func.func @mask_of_another_type(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4xf32>, %[[Y:[^:]*]]: tensor<4xf32>, %[[A:[^:]*]]: tensor<4xbf16>, %[[B:[^:]*]]: tensor<4xbf16>)
// CHECK-NEXT: %[[P:.*]] = graph.gt %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[PB:.*]] = graph.cast %[[P]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT: %[[R:.*]] = graph.select %[[PB]], %[[A]], %[[B]] : (tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: return %[[R]]
func.func @mask_of_another_type(%x: tensor<4xf32>, %y: tensor<4xf32>, %a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  %p = tosa.greater %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %r = tosa.select %p, %a, %b : (tensor<4xi1>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}

// -----

// Casts among f32, f16 and bf16 in either direction are graph.cast (round
// to nearest even, as tosa.cast); a lone erf is graph.erf.

// CHECK-LABEL: func.func @casts_and_erf(
// CHECK-SAME: %[[X:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[H:.*]] = graph.cast %[[X]] : tensor<8xf32> -> tensor<8xf16>
// CHECK-NEXT: %[[B:.*]] = graph.cast %[[H]] : tensor<8xf16> -> tensor<8xbf16>
// CHECK-NEXT: %[[F:.*]] = graph.cast %[[B]] : tensor<8xbf16> -> tensor<8xf32>
// CHECK-NEXT: %[[E:.*]] = graph.erf %[[F]] : tensor<8xf32>
// CHECK-NEXT: return %[[H]], %[[E]]
func.func @casts_and_erf(%x: tensor<8xf32>) -> (tensor<8xf16>, tensor<8xf32>) {
  %h = tosa.cast %x : (tensor<8xf32>) -> tensor<8xf16>
  %b = tosa.cast %h : (tensor<8xf16>) -> tensor<8xbf16>
  %f = tosa.cast %b : (tensor<8xbf16>) -> tensor<8xf32>
  %e = tosa.erf %f : (tensor<8xf32>) -> tensor<8xf32>
  return %h, %e : tensor<8xf16>, tensor<8xf32>
}
