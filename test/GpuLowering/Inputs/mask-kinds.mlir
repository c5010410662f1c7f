// Every comparison, select, and a masked softmax (the scores of masked
// keys replaced, then softmax), on f32 inputs the runner draws uniform in
// [-1, 1). The mask compares two inputs (random, so about half the keys
// of each query are masked, not a triangle); the fill is the score minus
// 10^4, whose exp underflows to 0 as exp(-inf) does, since the runner's
// inputs are finite.
func.func @mask_kinds(%a: tensor<32x64xf32>, %b: tensor<32x64xf32>, %c: tensor<1x64xf32>,
                      %s: tensor<64x64xf32>, %row: tensor<64x1xf32>, %col: tensor<1x64xf32>)
    -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>,
        tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x64xf32>) {
  %eq = graph.eq %a, %a : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %ne = graph.ne %a, %b : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %lt = graph.lt %a, %c : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
  %le = graph.le %a, %b : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %gt = graph.gt %a, %b : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %ge = graph.ge %b, %c : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
  %sel = graph.select %lt, %a, %b : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  // Causal: key j is masked for query i where col_j > row_i.
  %future = graph.gt %col, %row : (tensor<1x64xf32>, tensor<64x1xf32>) -> tensor<64x64xf32>
  %low = graph.scalar_add %s, -1.0e+04 : tensor<64x64xf32>
  %masked = graph.select %future, %low, %s : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = graph.softmax %masked, dim = 1 : tensor<64x64xf32>
  return %eq, %ne, %lt, %le, %gt, %ge, %sel, %p
      : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>,
        tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x64xf32>
}
