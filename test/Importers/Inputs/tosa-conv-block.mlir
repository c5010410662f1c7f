// A torch-mlir-style convolution block on an NCHW input: Conv2d(3, 4, 3,
// padding=1) with bias, ReLU, MaxPool2d(2), AvgPool2d(3, stride=1,
// padding=1) (count_include_pad, so a tosa.pad of zeros in front), GELU.
func.func @conv_block(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %w = "tosa.const"() <{values = dense<[[[[0.375, -0.375, 0.3125], [-0.4375, 0.25, -0.5], [0.1875, -0.5625, 0.125]], [[-0.625, 0.0625, -0.6875], [0.0, 0.6875, -0.0625], [0.625, -0.125, 0.5625]], [[-0.1875, 0.5, -0.25], [0.4375, -0.3125, 0.375], [-0.375, 0.3125, -0.4375]]], [[[0.25, -0.5, 0.1875], [-0.5625, 0.125, -0.625], [0.0625, -0.6875, 0.0]], [[0.6875, -0.0625, 0.625], [-0.125, 0.5625, -0.1875], [0.5, -0.25, 0.4375]], [[-0.3125, 0.375, -0.375], [0.3125, -0.4375, 0.25], [-0.5, 0.1875, -0.5625]]], [[[0.125, -0.625, 0.0625], [-0.6875, 0.0, 0.6875], [-0.0625, 0.625, -0.125]], [[0.5625, -0.1875, 0.5], [-0.25, 0.4375, -0.3125], [0.375, -0.375, 0.3125]], [[-0.4375, 0.25, -0.5], [0.1875, -0.5625, 0.125], [-0.625, 0.0625, -0.6875]]], [[[0.0, 0.6875, -0.0625], [0.625, -0.125, 0.5625], [-0.1875, 0.5, -0.25]], [[0.4375, -0.3125, 0.375], [-0.375, 0.3125, -0.4375], [0.25, -0.5, 0.1875]], [[-0.5625, 0.125, -0.625], [0.0625, -0.6875, 0.0], [0.6875, -0.0625, 0.625]]]]> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<[-0.625, 0.0625, -0.6875, 0.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %xt = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
  %c = tosa.conv2d %xt, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %m = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  %ps = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pf = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %m, %ps, %pf : (tensor<1x4x4x4xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  %a = tosa.avg_pool2d %p, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
  %half = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %one = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %k = "tosa.const"() <{values = dense<0.707106769> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %g0 = tosa.mul %a, %k, %shift : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %g1 = tosa.erf %g0 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %g2 = tosa.add %g1, %one : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x4xf32>
  %g3 = tosa.mul %a, %half, %shift : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %g4 = tosa.mul %g3, %g2, %shift : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  %y = tosa.transpose %g4 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}
