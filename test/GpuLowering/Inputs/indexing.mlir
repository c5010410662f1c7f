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

// A Mixtral-style router: softmax over 8 experts, the top 2 (topk), and
// the combine weights as one_hot(indices) times the gate values, summed.
func.func @router(%logits: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x2xi64>) {
  %p = graph.softmax %logits, dim = 1 : tensor<16x8xf32>
  %v, %i = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  %m = graph.one_hot %i : tensor<16x2xi64> -> tensor<16x2x8xf32>
  %w = graph.reshape %v : tensor<16x2xf32> -> tensor<16x2x1xf32>
  %s = graph.mul %m, %w : (tensor<16x2x8xf32>, tensor<16x2x1xf32>) -> tensor<16x2x8xf32>
  %r = graph.reduce_sum %s, dim = 1 : tensor<16x2x8xf32> -> tensor<16x1x8xf32>
  %c = graph.reshape %r : tensor<16x1x8xf32> -> tensor<16x8xf32>
  return %c, %i : tensor<16x8xf32>, tensor<16x2xi64>
}

// topk's order: NaN first (largest) or last (smallest), ties by position,
// -0 and +0 equal; bf16 values.
func.func @order(%x: tensor<2x6xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xi64>, tensor<2x3xbf16>, tensor<2x3xi64>) {
  %v, %i = graph.topk %x, k = 4, dim = 1 : tensor<2x6xbf16> -> (tensor<2x4xbf16>, tensor<2x4xi64>)
  %u, %j = graph.topk %x, k = 3, dim = 1 {largest = false} : tensor<2x6xbf16> -> (tensor<2x3xbf16>, tensor<2x3xi64>)
  return %v, %i, %u, %j : tensor<2x4xbf16>, tensor<2x4xi64>, tensor<2x3xbf16>, tensor<2x3xi64>
}
