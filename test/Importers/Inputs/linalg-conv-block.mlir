// A convolution block in linalg on tensors as torch-mlir writes it for an
// NCHW module (linalg-e2e.test): Conv2d(3, 4, 3, padding=1) with its bias
// (the filter as arith.constant) through a tensor.pad of zeros and a
// linalg.broadcast of the bias as the init, ReLU (arith.maximumf),
// MaxPool2d(3, stride=2, padding=1) through a tensor.pad of -inf, a 2x2 sum
// pooling in NHWC, and a softmax over the channels as two reductions.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#red = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @conv_block(%x: tensor<1x3x8x8xf32>, %b: tensor<4xf32>) -> tensor<1x2x2x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %w = arith.constant dense<[[[[0.375, -0.375, 0.3125], [-0.4375, 0.25, -0.5], [0.1875, -0.5625, 0.125]], [[-0.625, 0.0625, -0.6875], [0.0, 0.6875, -0.0625], [0.625, -0.125, 0.5625]], [[-0.1875, 0.5, -0.25], [0.4375, -0.3125, 0.375], [-0.375, 0.3125, -0.4375]]], [[[0.25, -0.5, 0.1875], [-0.5625, 0.125, -0.625], [0.0625, -0.6875, 0.0]], [[0.6875, -0.0625, 0.625], [-0.125, 0.5625, -0.1875], [0.5, -0.25, 0.4375]], [[-0.3125, 0.375, -0.375], [0.3125, -0.4375, 0.25], [-0.5, 0.1875, -0.5625]]], [[[0.125, -0.625, 0.0625], [-0.6875, 0.0, 0.6875], [-0.0625, 0.625, -0.125]], [[0.5625, -0.1875, 0.5], [-0.25, 0.4375, -0.3125], [0.375, -0.375, 0.3125]], [[-0.4375, 0.25, -0.5], [0.1875, -0.5625, 0.125], [-0.625, 0.0625, -0.6875]]], [[[0.0, 0.6875, -0.0625], [0.625, -0.125, 0.5625], [-0.1875, 0.5, -0.25]], [[0.4375, -0.3125, 0.375], [-0.375, 0.3125, -0.4375], [0.25, -0.5, 0.1875]], [[-0.5625, 0.125, -0.625], [0.0625, -0.6875, 0.0], [0.6875, -0.0625, 0.625]]]]> : tensor<4x3x3x3xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x8x8xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%bb : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %cst : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x8x8xf32>
  %rp = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %pe = tensor.empty() : tensor<1x4x4x4xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %win3 = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%rp, %win3 : tensor<1x4x10x10xf32>, tensor<3x3xf32>) outs(%pf : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %te = tensor.empty() : tensor<1x4x4x4xf32>
  %t = linalg.transpose ins(%p : tensor<1x4x4x4xf32>) outs(%te : tensor<1x4x4x4xf32>) permutation = [0, 2, 3, 1]
  %se = tensor.empty() : tensor<1x2x2x4xf32>
  %sz = linalg.fill ins(%cst : f32) outs(%se : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %win2 = tensor.empty() : tensor<2x2xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%t, %win2 : tensor<1x4x4x4xf32>, tensor<2x2xf32>) outs(%sz : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  %me = tensor.empty() : tensor<1x2x2xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%me : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %max = linalg.generic {indexing_maps = [#id4, #red], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<1x2x2x4xf32>) outs(%mi : tensor<1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2xf32>
  %ex = linalg.generic {indexing_maps = [#id4, #red, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %max : tensor<1x2x2x4xf32>, tensor<1x2x2xf32>) outs(%se : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x2x4xf32>
  %sumi = linalg.fill ins(%cst : f32) outs(%me : tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %sum = linalg.generic {indexing_maps = [#id4, #red], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x2x4xf32>) outs(%sumi : tensor<1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2xf32>
  %y = linalg.generic {indexing_maps = [#id4, #red, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x2x2x4xf32>, tensor<1x2x2xf32>) outs(%se : tensor<1x2x2x4xf32>) {
  ^bb0(%in: f32, %d: f32, %out: f32):
    %0 = arith.divf %in, %d : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x4xf32>
  return %y : tensor<1x2x2x4xf32>
}
