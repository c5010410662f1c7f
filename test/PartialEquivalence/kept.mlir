// Sites that are kept, each with the reason in a remark: two tiles (the
// correction costs more launches than the mutant saves), a dilated window
// whose tiles are too short for disjoint slices, a pointwise convolution
// (the mutant is exact: nothing for PET to correct), and concats that are
// not sites.
// RUN: mirage-opt %s --partial-equivalence-optimize -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: partial-equivalence-optimize @tiles2: 2 convolutions stitched along axis 2 (halo 1): regions: 18 box(es) (6 wrong); {{.*}}; wrong along the axis: [4, 6); correction: 5 op(s), slices from the concatenated tiles, 7 extra rows in the fused convolution, {{.*}}; 7.50 us -> 20.01 us on sm_90; analysis {{.*}} s; not cheaper: kept
// REMARK: remark: partial-equivalence-optimize @tiles2: 1 mutant(s) tried of 1 site(s), 0 rewritten; 7.50 us -> 7.50 us on sm_90
// CHECK-LABEL: func.func @tiles2
// CHECK-COUNT-2: graph.conv2d
// CHECK: graph.concat
func.func @tiles2(%x0: tensor<1x4x5x8xf32>, %x1: tensor<1x4x7x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x12x8xf32> {
  %c0 = graph.conv2d %x0, %w {padding = array<i64: 1, 1>} : (tensor<1x4x5x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x8xf32>
  %c1 = graph.conv2d %x1, %w {padding = array<i64: 1, 1>} : (tensor<1x4x7x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x7x8xf32>
  %y = graph.concat(%c0, %c1) dim = 2 : (tensor<1x4x5x8xf32>, tensor<1x4x7x8xf32>) -> tensor<1x4x12x8xf32>
  return %y : tensor<1x4x12x8xf32>
}

// -----

// REMARK: remark: partial-equivalence-optimize @cols8: 8 convolutions stitched along axis 3 (halo 2): regions: 72 box(es) (42 wrong); {{.*}}; no correction: from the concatenated tiles: the slices [6, 10) and [8, 12) overlap (a tile shorter than 4 x halo = 8 along the axis); per tile: the slices [6, 10) and [8, 12) overlap
// REMARK: remark: partial-equivalence-optimize @cols8: 1 mutant(s) tried of 1 site(s), 0 rewritten
// CHECK-LABEL: func.func @cols8
// CHECK-COUNT-8: graph.conv2d
func.func @cols8(%x0: tensor<1x4x5x6xf32>, %x1: tensor<1x4x5x6xf32>, %x2: tensor<1x4x5x6xf32>, %x3: tensor<1x4x5x6xf32>, %x4: tensor<1x4x5x6xf32>, %x5: tensor<1x4x5x6xf32>, %x6: tensor<1x4x5x6xf32>, %x7: tensor<1x4x5x6xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x5x48xf32> {
  %c0 = graph.conv2d %x0, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %c1 = graph.conv2d %x1, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %c2 = graph.conv2d %x2, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %c3 = graph.conv2d %x3, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %c4 = graph.conv2d %x4, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %c5 = graph.conv2d %x5, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %c6 = graph.conv2d %x6, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %c7 = graph.conv2d %x7, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x5x6xf32>
  %y = graph.concat(%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7) dim = 3 : (tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>) -> tensor<1x4x5x48xf32>
  return %y : tensor<1x4x5x48xf32>
}

// -----

// REMARK: remark: partial-equivalence-optimize @pointwise: 2 convolutions stitched along axis 2 (halo 0): regions: 2 box(es) (0 wrong); {{.*}}; the mutant is exact, nothing to correct
// CHECK-LABEL: func.func @pointwise
// CHECK-COUNT-2: graph.conv2d
func.func @pointwise(%a: tensor<1x4x3x5xf32>, %b: tensor<1x4x6x5xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<1x8x9x5xf32> {
  %0 = graph.conv2d %a, %w : (tensor<1x4x3x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x3x5xf32>
  %1 = graph.conv2d %b, %w : (tensor<1x4x6x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x5xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x8x3x5xf32>, tensor<1x8x6x5xf32>) -> tensor<1x8x9x5xf32>
  return %2 : tensor<1x8x9x5xf32>
}

// -----

// REMARK: remark: partial-equivalence-optimize @notsites: no stitched-convolution site (the convolutions differ in weight or attributes; concat along axis 1, not H or W)
// CHECK-LABEL: func.func @notsites
func.func @notsites(%a: tensor<1x2x5x6xf32>, %b: tensor<1x2x5x6xf32>, %w: tensor<3x2x3x3xf32>, %v: tensor<3x2x3x3xf32>) -> (tensor<1x3x10x6xf32>, tensor<1x6x5x6xf32>) {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %1 = graph.conv2d %b, %v {padding = array<i64: 1, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x3x5x6xf32>, tensor<1x3x5x6xf32>) -> tensor<1x3x10x6xf32>
  %3 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %4 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %5 = graph.concat(%3, %4) dim = 1 : (tensor<1x3x5x6xf32>, tensor<1x3x5x6xf32>) -> tensor<1x6x5x6xf32>
  return %2, %5 : tensor<1x3x10x6xf32>, tensor<1x6x5x6xf32>
}

// -----

// Too large for the interpreter: the region analysis says so before it
// allocates anything, and the site is kept.
// REMARK: remark: partial-equivalence-optimize @huge: 2 convolutions stitched along axis 2 (halo 1): region analysis not applicable: the site programs cannot be interpreted: {{.*}}2147483647
// CHECK-LABEL: func.func @huge
// CHECK-COUNT-2: graph.conv2d
func.func @huge(%a: tensor<1x1x40000x40000xf32>, %b: tensor<1x1x40000x40000xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x80000x40000xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x1x40000x40000xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x40000x40000xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x1x40000x40000xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x40000x40000xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x1x40000x40000xf32>, tensor<1x1x40000x40000xf32>) -> tensor<1x1x80000x40000xf32>
  return %2 : tensor<1x1x80000x40000xf32>
}
