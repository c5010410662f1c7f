// Indexing kernels on the GPU (emulate-indexing.test): a token and
// position embedding (gather of i64 ids, then add), a gather along a middle
// axis with i32 indices, torch.gather (gather_elements), and a one_hot
// combine (a Mixtral-style router's expert mask times the gate weights).
func.func @embedding(%wte: tensor<50x16xf32>, %wpe: tensor<7x16xf32>, %ids: tensor<2x7xi64>) -> tensor<2x7x16xf32> {
  %e = graph.gather %wte, %ids, axis = 0 : (tensor<50x16xf32>, tensor<2x7xi64>) -> tensor<2x7x16xf32>
  %y = graph.add %e, %wpe : (tensor<2x7x16xf32>, tensor<7x16xf32>) -> tensor<2x7x16xf32>
  return %y : tensor<2x7x16xf32>
}

func.func @middle_axis(%x: tensor<3x9x5xf16>, %i: tensor<4xi32>) -> tensor<3x4x5xf16> {
  %g = graph.gather %x, %i, axis = 1 : (tensor<3x9x5xf16>, tensor<4xi32>) -> tensor<3x4x5xf16>
  return %g : tensor<3x4x5xf16>
}

func.func @gather_elements(%x: tensor<6x33xbf16>, %i: tensor<6x3xi64>) -> tensor<6x3xbf16> {
  %g = graph.gather_elements %x, %i, axis = 1 : (tensor<6x33xbf16>, tensor<6x3xi64>) -> tensor<6x3xbf16>
  return %g : tensor<6x3xbf16>
}

func.func @expert_mask(%top: tensor<16x2xi64>, %w: tensor<16x2x1xf32>) -> tensor<16x8xf32> {
  %m = graph.one_hot %top : tensor<16x2xi64> -> tensor<16x2x8xf32>
  %s = graph.mul %m, %w : (tensor<16x2x8xf32>, tensor<16x2x1xf32>) -> tensor<16x2x8xf32>
  %r = graph.reduce_sum %s, dim = 1 : tensor<16x2x8xf32> -> tensor<16x1x8xf32>
  %o = graph.reshape %r : tensor<16x1x8xf32> -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
