// Comparisons and select in the verifier: uninterpreted functions of their
// operands in the finite-field test (docs/Verification.md, "Comparisons
// and select"), so equal programs keep the full bound and a wrong mask, a
// swapped select or another relation fails the first field test; a -inf
// fill constant has no field image, and floating point decides alone.
// RUN: mirage-opt %s --split-input-file --verify-equivalence -verify-diagnostics -o /dev/null

// A masked softmax as the predefined kernels compute it against the graph
// program: the same comparison and select sites, the full bound. The fill
// value is an input, as the importers bind it.
func.func @masked_softmax(%s: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<1x16xf32>,
                          %fill: tensor<f32>) -> tensor<4x16xf32> {
  %m = graph.lt %a, %b : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
  %f = graph.select %m, %fill, %s : (tensor<4x16xf32>, tensor<f32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = graph.softmax %f, dim = 1 : tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}
// expected-remark @+1 {{@masked_softmax_kernels is equivalent to @masked_softmax: finite-field test: 4 tests}}
func.func @masked_softmax_kernels(%s: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<1x16xf32>,
                                  %fill: tensor<f32>) -> tensor<4x16xf32>
    attributes {mirage.equivalent_to = @masked_softmax} {
  %m = kernel.binary lt %a, %b : (tensor<4x16xf32>, tensor<1x16xf32>) -> tensor<4x16xf32>
  %f = kernel.select %m, %fill, %s : (tensor<4x16xf32>, tensor<f32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = kernel.softmax %f, dim = 1 : tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}

// -----

func.func @pick(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = graph.lt %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = graph.select %m, %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
// The branches swapped: max for min.
// expected-error @+1 {{@pick_swapped is not equivalent to @pick: output #0 differs at [0, 0] in the finite-field test 1 of}}
func.func @pick_swapped(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32>
    attributes {mirage.equivalent_to = @pick} {
  %m = graph.lt %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = graph.select %m, %b, %a : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

func.func @less(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = graph.lt %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
// le for lt: equal almost everywhere on random inputs, a different function.
// expected-error @+1 {{@less_or_equal is not equivalent to @less: output #0 differs at [0, 0] in the finite-field test 1 of}}
func.func @less_or_equal(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32>
    attributes {mirage.equivalent_to = @less} {
  %m = graph.le %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// A -inf fill constant (s + -inf): no field image, so floating point
// decides; the masked entries are exactly 0 after the softmax in both.
func.func @inf_fill(%s: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = graph.lt %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %ninf = graph.scalar_add %s, 0xFFF0000000000000 : tensor<4x16xf32>
  %f = graph.select %m, %ninf, %s : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = graph.softmax %f, dim = 1 : tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}
// expected-warning @+2 {{given up: the constant -inf of both programs has no finite-field image}}
// expected-remark @+1 {{@inf_fill_kernels is equivalent to @inf_fill: finite-field test given up}}
func.func @inf_fill_kernels(%s: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32>
    attributes {mirage.equivalent_to = @inf_fill} {
  %m = kernel.binary lt %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %ninf = kernel.unary offset %s params = [0xFFF0000000000000] : tensor<4x16xf32>
  %f = kernel.select %m, %ninf, %s : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = kernel.softmax %f, dim = 1 : tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}

// -----

// The mask applied to the wrong operand: with -inf fills floating point
// alone must find it.
func.func @inf_fill_a(%s: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = graph.lt %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %ninf = graph.scalar_add %s, 0xFFF0000000000000 : tensor<4x16xf32>
  %f = graph.select %m, %ninf, %s : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = graph.softmax %f, dim = 1 : tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}
// expected-warning @+2 {{given up: the constant -inf of both programs has no finite-field image}}
// expected-error @+1 {{@inf_fill_gt is not equivalent to @inf_fill_a: output #0 differs}}
func.func @inf_fill_gt(%s: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32>
    attributes {mirage.equivalent_to = @inf_fill_a} {
  %m = graph.gt %a, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %ninf = graph.scalar_add %s, 0xFFF0000000000000 : tensor<4x16xf32>
  %f = graph.select %m, %ninf, %s : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = graph.softmax %f, dim = 1 : tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}
