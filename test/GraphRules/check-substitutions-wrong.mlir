// A rule file with a planted wrong rule: --check-substitutions does not
// trust the evidence the file claims ("proved", a passing check); it checks
// the rule numerically (the fingerprint check: the finite-field test) and
// proves it again from the axioms, and rejects it for both, at its function.
// The correct rule next to it holds.
// RUN: mirage-opt %s --check-substitutions -verify-diagnostics -o /dev/null

// x0 = x1 + (x0 - x1), with x1 a bias broadcast over the rows: holds.
// expected-remark @below {{rule good holds: proved from add_associative, add_commutative, add_of_negation, add_of_zero_scale, sub_as_add; finite-field check, 3 tests}}
func.func @good_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}, %arg1: tensor<3xf32> {mirage.shape = ["b"]}) -> tensor<2x3xf32> attributes {mirage.rule = {axioms = ["add_associative"], check = "finite-field", family = "elementwise", log2_bound = -8.140000e+01 : f64, name = "good", positive_scalars = false, proof = "proved", rhs = @good_rhs, tests = 3 : i64}} {
  return %arg0 : tensor<2x3xf32>
}
func.func @good_rhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}, %arg1: tensor<3xf32> {mirage.shape = ["b"]}) -> tensor<2x3xf32> attributes {mirage.equivalent_to = @good_lhs} {
  %0 = graph.sub %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %arg1, %0 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// The same with sub replaced by add: x0 = x1 + (x0 + x1) is wrong, though
// the file claims it was proved and checked.
// expected-error @below {{rule bad is rejected: x0 = (add x1 (add x0 x1)): its sides differ numerically at the sizes written}}
func.func @bad_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}, %arg1: tensor<3xf32> {mirage.shape = ["b"]}) -> tensor<2x3xf32> attributes {mirage.rule = {axioms = ["add_associative"], check = "finite-field", family = "elementwise", log2_bound = -8.140000e+01 : f64, name = "bad", positive_scalars = false, proof = "proved", rhs = @bad_rhs, tests = 3 : i64}} {
  return %arg0 : tensor<2x3xf32>
}
func.func @bad_rhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}, %arg1: tensor<3xf32> {mirage.shape = ["b"]}) -> tensor<2x3xf32> attributes {mirage.equivalent_to = @bad_lhs} {
  %0 = graph.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %arg1, %0 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
