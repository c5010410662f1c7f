// A planted wrong correction (the first wrong interval, rows 5 and 6, left
// as the mutant computed it) must be rejected by the verifier: the input
// is kept and a warning says why.
// RUN: mirage-opt %s --partial-equivalence-optimize="plant-wrong-correction=true" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.err

// WARN: warning: partial-equivalence-optimize @tiles8: {{.*}}; kept the input: the corrected program failed verification: differs: output #0 at [{{[0-9]+}}, {{[0-9]+}}, {{5|6}}, {{[0-9]+}}] in the finite-field test 1 of 3
// WARN: remark: partial-equivalence-optimize @tiles8: 1 mutant(s) tried of 1 site(s), 0 rewritten; 22.51 us -> 22.51 us on sm_90
// CHECK-LABEL: func.func @tiles8
// CHECK-COUNT-8: graph.conv2d
// CHECK: graph.concat
// CHECK-NEXT: return

func.func @tiles8(%x0: tensor<1x4x6x8xf32>, %x1: tensor<1x4x6x8xf32>, %x2: tensor<1x4x6x8xf32>, %x3: tensor<1x4x6x8xf32>, %x4: tensor<1x4x6x8xf32>, %x5: tensor<1x4x6x8xf32>, %x6: tensor<1x4x6x8xf32>, %x7: tensor<1x4x6x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x48x8xf32> {
  %c0 = graph.conv2d %x0, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c1 = graph.conv2d %x1, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c2 = graph.conv2d %x2, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c3 = graph.conv2d %x3, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c4 = graph.conv2d %x4, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c5 = graph.conv2d %x5, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c6 = graph.conv2d %x6, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %c7 = graph.conv2d %x7, %w {padding = array<i64: 1, 1>} : (tensor<1x4x6x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x8xf32>
  %y = graph.concat(%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7) dim = 2 : (tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6x8xf32>) -> tensor<1x4x48x8xf32>
  return %y : tensor<1x4x48x8xf32>
}
