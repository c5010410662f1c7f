// Index tensors in verification (issue 24; docs/Verification.md,
// "Index tensors"). Index inputs are drawn as valid positions (in
// [0, extent) of what they index); the finite-field test reads them as
// concrete integers, so gathers and scatters at those positions are
// exact data movement there. topk orders its input: the field has no
// order, so floating point decides, and the verifier says so.
// RUN: mirage-opt %s --split-input-file --verify-equivalence -verify-diagnostics -o /dev/null

// An embedding lookup scaled after the gather equals the lookup of the
// scaled table (gather moves data linearly).
func.func @embed_scaled(%wte: tensor<100x32xf32>, %ids: tensor<2x5xi64>) -> tensor<2x5x32xf32> {
  %e = graph.gather %wte, %ids, axis = 0 : (tensor<100x32xf32>, tensor<2x5xi64>) -> tensor<2x5x32xf32>
  %s = graph.scalar_mul %e, 2.0 : tensor<2x5x32xf32>
  return %s : tensor<2x5x32xf32>
}
// expected-remark @+1 {{@embed_scaled_table is equivalent to @embed_scaled}}
func.func @embed_scaled_table(%wte: tensor<100x32xf32>, %ids: tensor<2x5xi64>) -> tensor<2x5x32xf32>
    attributes {mirage.equivalent_to = @embed_scaled} {
  %t = kernel.unary scale %wte params = [2.0] : tensor<100x32xf32>
  %e = kernel.gather %t, %ids, axis = 0 : (tensor<100x32xf32>, tensor<2x5xi64>) -> tensor<2x5x32xf32>
  return %e : tensor<2x5x32xf32>
}

// -----

// Gathering along the wrong axis is caught.
func.func @rows(%t: tensor<16x16xf32>, %ids: tensor<4xi64>) -> tensor<4x16xf32> {
  %e = graph.gather %t, %ids, axis = 0 : (tensor<16x16xf32>, tensor<4xi64>) -> tensor<4x16xf32>
  return %e : tensor<4x16xf32>
}
// expected-error @+1 {{@columns is not equivalent to @rows}}
func.func @columns(%t: tensor<16x16xf32>, %ids: tensor<4xi64>) -> tensor<4x16xf32>
    attributes {mirage.equivalent_to = @rows} {
  %e = graph.gather %t, %ids, axis = 1 : (tensor<16x16xf32>, tensor<4xi64>) -> tensor<16x4xf32>
  %r = graph.transpose %e, perm = [1, 0] : tensor<16x4xf32> -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A top-2 router's combine weights: scatter-add of the gates equals the
// sum of one-hot rows weighted by the gates (the two formulations of
// Mixtral-style routing). topk puts it outside the field test.
func.func @combine_scatter(%p: tensor<16x8xf32>, %zeros: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-warning @+1 {{topk orders its input}}
  %w, %e = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  %c = graph.scatter_elements %zeros, %e, %w, axis = 1, reduction = add : (tensor<16x8xf32>, tensor<16x2xi64>, tensor<16x2xf32>) -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}
// expected-remark @+1 {{@combine_one_hot is equivalent to @combine_scatter}}
func.func @combine_one_hot(%p: tensor<16x8xf32>, %zeros: tensor<16x8xf32>) -> tensor<16x8xf32>
    attributes {mirage.equivalent_to = @combine_scatter} {
  %w, %e = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  %h = graph.one_hot %e : tensor<16x2xi64> -> tensor<16x2x8xf32>
  %w3 = graph.reshape %w : tensor<16x2xf32> -> tensor<16x2x1xf32>
  %m = graph.mul %h, %w3 : (tensor<16x2x8xf32>, tensor<16x2x1xf32>) -> tensor<16x2x8xf32>
  %s = graph.reduce_sum %m, dim = 1 : tensor<16x2x8xf32> -> tensor<16x1x8xf32>
  %r = graph.reshape %s : tensor<16x1x8xf32> -> tensor<16x8xf32>
  %c = graph.add %zeros, %r : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}

// -----

// The gates of the wrong experts (the smallest two) are caught.
func.func @top2(%p: tensor<16x8xf32>) -> tensor<16x2xf32> {
  // expected-warning @+1 {{topk orders its input}}
  %w, %e = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  return %w : tensor<16x2xf32>
}
// expected-error @+1 {{@bottom2 is not equivalent to @top2}}
func.func @bottom2(%p: tensor<16x8xf32>) -> tensor<16x2xf32>
    attributes {mirage.equivalent_to = @top2} {
  %w, %e = graph.topk %p, k = 2, dim = 1 {largest = false} : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  return %w : tensor<16x2xf32>
}

// -----

// gather_elements (torch.gather) of the top-2 positions gives topk's own
// values.
func.func @topk_values(%p: tensor<16x8xf32>) -> tensor<16x2xf32> {
  // expected-warning @+1 {{topk orders its input}}
  %w, %e = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  return %w : tensor<16x2xf32>
}
// expected-remark @+1 {{@regathered is equivalent to @topk_values}}
func.func @regathered(%p: tensor<16x8xf32>) -> tensor<16x2xf32>
    attributes {mirage.equivalent_to = @topk_values} {
  %w, %e = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  %g = graph.gather_elements %p, %e, axis = 1 : (tensor<16x8xf32>, tensor<16x2xi64>) -> tensor<16x2xf32>
  return %g : tensor<16x2xf32>
}
