// Functions the verifier cannot run or pair get located errors.
// RUN: mirage-opt %s --split-input-file --verify-equivalence -verify-diagnostics -o /dev/null

func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mirage.equivalent_to = @a} {
  // expected-error @+1 {{'math.exp' op is not a graph or kernel op; the interpreter runs µGraph functions}}
  %y = math.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'mirage.equivalent_to' must name a function, like @original}}
func.func @c(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mirage.equivalent_to = 3} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{no function named @missing to verify}}
func.func @d(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mirage.equivalent_to = @missing} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{cannot interpret 'external': it has no body}}
func.func private @external(%x: tensor<4xf32>) -> tensor<4xf32>
func.func @e(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mirage.equivalent_to = @external} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #1 of 'f' is not a statically shaped tensor}}
func.func @f(%x: tensor<4xf32>, %n: i32) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>, %n: i32) -> tensor<4xf32> attributes {mirage.equivalent_to = @f} {
  return %x : tensor<4xf32>
}
