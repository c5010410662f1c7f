// A rule file whose one rule has sides of different types
// (graph-optimize-errors.mlir, apply-substitutions-errors.mlir).
func.func @r_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<2x3xf32> attributes {mirage.rule = {name = "r", rhs = @r_rhs, proof = "proved", check = "finite-field", tests = 3 : i64}} {
  return %arg0 : tensor<2x3xf32>
}
func.func @r_rhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<3x2xf32> {
  %0 = graph.transpose %arg0, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
