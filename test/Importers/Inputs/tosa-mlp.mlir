// A torch-mlir-style two-layer MLP: Linear(8, 6), ReLU, Linear(6, 4), tanh,
// the weights as tosa.const (tosa-e2e.test).
func.func @mlp(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %w1 = "tosa.const"() <{values = dense<[[0.0625, -0.6875, 0.0, 0.6875, -0.0625, 0.625, -0.125, 0.5625], [-0.1875, 0.5, -0.25, 0.4375, -0.3125, 0.375, -0.375, 0.3125], [-0.4375, 0.25, -0.5, 0.1875, -0.5625, 0.125, -0.625, 0.0625], [-0.6875, 0.0, 0.6875, -0.0625, 0.625, -0.125, 0.5625, -0.1875], [0.5, -0.25, 0.4375, -0.3125, 0.375, -0.375, 0.3125, -0.4375], [0.25, -0.5, 0.1875, -0.5625, 0.125, -0.625, 0.0625, -0.6875]]> : tensor<6x8xf32>}> : () -> tensor<6x8xf32>
  %b1 = "tosa.const"() <{values = dense<[0.5, -0.25, 0.4375, -0.3125, 0.375, -0.375]> : tensor<6xf32>}> : () -> tensor<6xf32>
  %w2 = "tosa.const"() <{values = dense<[[-0.5, 0.1875, -0.5625, 0.125, -0.625, 0.0625], [-0.6875, 0.0, 0.6875, -0.0625, 0.625, -0.125], [0.5625, -0.1875, 0.5, -0.25, 0.4375, -0.3125], [0.375, -0.375, 0.3125, -0.4375, 0.25, -0.5]]> : tensor<4x6xf32>}> : () -> tensor<4x6xf32>
  %b2 = "tosa.const"() <{values = dense<[-0.0625, 0.625, -0.125, 0.5625]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w1t = tosa.transpose %w1 {perms = array<i32: 1, 0>} : (tensor<6x8xf32>) -> tensor<8x6xf32>
  %s0 = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s0 : (tensor<4x8xf32>, !tosa.shape<3>) -> tensor<1x4x8xf32>
  %s1 = tosa.const_shape {values = dense<[1, 8, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w1r = tosa.reshape %w1t, %s1 : (tensor<8x6xf32>, !tosa.shape<3>) -> tensor<1x8x6xf32>
  %mm1 = tosa.matmul %x3, %w1r, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  %s2 = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %h1 = tosa.reshape %mm1, %s2 : (tensor<1x4x6xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  %s3 = tosa.const_shape {values = dense<[1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b1r = tosa.reshape %b1, %s3 : (tensor<6xf32>, !tosa.shape<2>) -> tensor<1x6xf32>
  %a1 = tosa.add %h1, %b1r : (tensor<4x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
  %r1 = tosa.clamp %a1 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %w2t = tosa.transpose %w2 {perms = array<i32: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %s4 = tosa.const_shape {values = dense<[1, 4, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r13 = tosa.reshape %r1, %s4 : (tensor<4x6xf32>, !tosa.shape<3>) -> tensor<1x4x6xf32>
  %s5 = tosa.const_shape {values = dense<[1, 6, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w2r = tosa.reshape %w2t, %s5 : (tensor<6x4xf32>, !tosa.shape<3>) -> tensor<1x6x4xf32>
  %mm2 = tosa.matmul %r13, %w2r, %zp, %zp : (tensor<1x4x6xf32>, tensor<1x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %s6 = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %h2 = tosa.reshape %mm2, %s6 : (tensor<1x4x4xf32>, !tosa.shape<2>) -> tensor<4x4xf32>
  %s7 = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b2r = tosa.reshape %b2, %s7 : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
  %y = tosa.add %h2, %b2r : (tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
  %t = tosa.tanh %y : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
