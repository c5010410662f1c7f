// Malformed rule files: each is a located error and a failure, not a crash.
// RUN: mirage-opt %s -split-input-file --check-substitutions -verify-diagnostics -o /dev/null

// expected-error @below {{'mirage.rule' needs a name and the rhs function}}
func.func @r_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<2x3xf32> attributes {mirage.rule = {family = "relu"}} {
  return %arg0 : tensor<2x3xf32>
}

// -----

// expected-error @below {{rule r: its rhs @missing is not in the file}}
func.func @r_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<2x3xf32> attributes {mirage.rule = {name = "r", rhs = @missing}} {
  return %arg0 : tensor<2x3xf32>
}

// -----

// A rule whose two sides differ in types.
// expected-error @below {{the two sides of rule r differ in types: (tensor<2x3xf32>) -> tensor<2x3xf32> and (tensor<2x3xf32>) -> tensor<3x2xf32>}}
func.func @r_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<2x3xf32> attributes {mirage.rule = {name = "r", rhs = @r_rhs}} {
  return %arg0 : tensor<2x3xf32>
}
func.func @r_rhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<3x2xf32> {
  %0 = graph.transpose %arg0, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// expected-error @below {{rule r: argument 0 needs a ranked tensor type and 'mirage.shape'}}
func.func @r_lhs(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {mirage.rule = {name = "r", rhs = @r_rhs}} {
  return %arg0 : tensor<2x3xf32>
}
func.func @r_rhs(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %arg0 : tensor<2x3xf32>
}

// -----

// expected-error @below {{rule r: argument 0: bad shape entry}}
func.func @r_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b+"]}) -> tensor<2x3xf32> attributes {mirage.rule = {name = "r", rhs = @r_rhs}} {
  return %arg0 : tensor<2x3xf32>
}
func.func @r_rhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b+"]}) -> tensor<2x3xf32> {
  return %arg0 : tensor<2x3xf32>
}

// -----

func.func @r_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<2x3xf32> attributes {mirage.rule = {name = "r", rhs = @r_rhs}} {
  return %arg0 : tensor<2x3xf32>
}
func.func @r_rhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]}) -> tensor<2x3xf32> {
  // expected-error @below {{not a rule op}}
  %0 = graph.softmax %arg0, dim = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A module without rules.
// expected-error @below {{check-substitutions: the module has no rule (functions with 'mirage.rule')}}
module {
  func.func @f(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %arg0 : tensor<2x3xf32>
  }
}
