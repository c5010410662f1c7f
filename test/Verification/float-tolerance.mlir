// The floating-point comparison's tolerance, with the floating-point checks
// first (as the search runs them), so that the pairs below are judged by
// them although the finite-field test would reject them too.
// RUN: mirage-opt %s --split-input-file --verify-equivalence=float-first=true -verify-diagnostics -o /dev/null

// A max over half of each row, beside a large element in the same output:
// the absolute part of the tolerance is in units of the output's median
// magnitude, so one large element does not hide the small ones' errors (in
// units of the largest magnitude, 1e-9 x 1e12 hid them).
func.func @row_max_beside_large(%x: tensor<4x64xf32>, %y: tensor<4x64xf32>) -> tensor<5x1xf32> {
  %m = graph.reduce_max %x, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %r = graph.reduce_sum %y, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %t = graph.reduce_sum %r, dim = 0 : tensor<4x1xf32> -> tensor<1x1xf32>
  %b = graph.scalar_mul %t, 1.0e12 : tensor<1x1xf32>
  %o = graph.concat(%m, %b) dim = 0 : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<5x1xf32>
  return %o : tensor<5x1xf32>
}
// expected-error @+1 {{@half_row_max_beside_large is not equivalent to @row_max_beside_large: output #0 differs at [2, 0] in the fp64 check at input scale 1 (inputs in [-1, 1)): @row_max_beside_large gives 0.9879134297370911, @half_row_max_beside_large gives 0.9634160399436951 (allowed error 1.98e-09 = 1e-09 relative + 1e-09 of the typical magnitude 0.988)}}
func.func @half_row_max_beside_large(%x: tensor<4x64xf32>, %y: tensor<4x64xf32>) -> tensor<5x1xf32>
    attributes {mirage.equivalent_to = @row_max_beside_large} {
  %h:2 = graph.split %x, dim = 1, sizes = [32, 32] : tensor<4x64xf32> -> tensor<4x32xf32>, tensor<4x32xf32>
  %m = graph.reduce_max %h#0, dim = 1 : tensor<4x32xf32> -> tensor<4x1xf32>
  %r = graph.reduce_sum %y, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %t = graph.reduce_sum %r, dim = 0 : tensor<4x1xf32> -> tensor<1x1xf32>
  %b = graph.scalar_mul %t, 1.0e12 : tensor<1x1xf32>
  %o = graph.concat(%m, %b) dim = 0 : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<5x1xf32>
  return %o : tensor<5x1xf32>
}
