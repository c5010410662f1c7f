// Rotary embedding's rotate_half, as torch exports it: a split of the
// head dimension, a negation and a concat, then the cos/sin products.
func.func @rope(%x: tensor<2x16x64xf32>, %c: tensor<16x64xf32>, %s: tensor<16x64xf32>) -> tensor<2x16x64xf32> {
  %a:2 = graph.split %x, dim = 2, sizes = [32, 32] : tensor<2x16x64xf32> -> tensor<2x16x32xf32>, tensor<2x16x32xf32>
  %n = graph.scalar_mul %a#1, -1.0 : tensor<2x16x32xf32>
  %r = graph.concat (%n, %a#0) dim = 2 : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x64xf32>
  %xc = graph.mul %x, %c : (tensor<2x16x64xf32>, tensor<16x64xf32>) -> tensor<2x16x64xf32>
  %rs = graph.mul %r, %s : (tensor<2x16x64xf32>, tensor<16x64xf32>) -> tensor<2x16x64xf32>
  %y = graph.add %xc, %rs : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return %y : tensor<2x16x64xf32>
}
