// An MLP in linalg on tensors as torch-mlir and IREE write it (linalg-e2e.test):
// weights as arith.constant, linalg.matmul into a fill of 0, the second
// layer as a matmul with a transposed B (IREE's matmul_transpose_b, as
// indexing maps), biases added by broadcasting linalg.generic ops, ReLU as
// select(x > 0, x, 0), GELU in torch-mlir's erf form.
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %w1 = arith.constant dense<[[0.0625, -0.6875, 0.0, 0.6875, -0.0625, 0.625], [-0.125, 0.5625, -0.1875, 0.5, -0.25, 0.4375], [-0.3125, 0.375, -0.375, 0.3125, -0.4375, 0.25], [-0.5, 0.1875, -0.5625, 0.125, -0.625, 0.0625], [-0.6875, 0.0, 0.6875, -0.0625, 0.625, -0.125], [0.5625, -0.1875, 0.5, -0.25, 0.4375, -0.3125], [0.375, -0.375, 0.3125, -0.4375, 0.25, -0.5], [0.1875, -0.5625, 0.125, -0.625, 0.0625, -0.6875]]> : tensor<8x6xf32>
  %b1 = arith.constant dense<[0.5, -0.25, 0.4375, -0.3125, 0.375, -0.375]> : tensor<6xf32>
  %w2 = arith.constant dense<[[-0.5, 0.1875, -0.5625, 0.125, -0.625, 0.0625], [-0.6875, 0.0, 0.6875, -0.0625, 0.625, -0.125], [0.5625, -0.1875, 0.5, -0.25, 0.4375, -0.3125], [0.375, -0.375, 0.3125, -0.4375, 0.25, -0.5]]> : tensor<4x6xf32>
  %b2 = arith.constant dense<[-0.0625, 0.625, -0.125, 0.5625]> : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x6xf32>
  %z1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %mm1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x6xf32>) outs(%z1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %h1 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]} ins(%mm1, %b1 : tensor<4x6xf32>, tensor<6xf32>) outs(%e1 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x6xf32>
  %r1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%h1 : tensor<4x6xf32>) outs(%e1 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %cst : f32
    %1 = arith.select %0, %in, %cst : f32
    linalg.yield %1 : f32
  } -> tensor<4x6xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%r1, %w2 : tensor<4x6xf32>, tensor<4x6xf32>) outs(%z2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]} ins(%mm2, %b2 : tensor<4x4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 2.000000e+00 : f32
    %cst_3 = arith.constant 5.000000e-01 : f32
    %a = arith.addf %in, %in_0 : f32
    %0 = arith.subf %a, %cst_0 : f32
    %1 = math.sqrt %cst_2 : f32
    %2 = arith.divf %0, %1 : f32
    %3 = math.erf %2 : f32
    %4 = arith.addf %cst_1, %3 : f32
    %5 = arith.mulf %cst_3, %4 : f32
    %6 = arith.mulf %a, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
