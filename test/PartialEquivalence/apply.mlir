// Eight tiles of a 3x3 convolution stitched along H: the mutant (one
// convolution of the concatenated tiles) is wrong at the 7 seams, rows
// 6k - 1 and 6k; the correction recomputes them in the same convolution
// launch from slices of the tiles framed by zero rows, and the program is
// verified before it is emitted. Each zero row is gt(x, x) of the tile row
// on the other side of the edge it borders (0 for every input, inf and NaN
// included): one comparison of the stitched tiles, split into the bands.
// RUN: mirage-opt %s --partial-equivalence-optimize 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: partial-equivalence-optimize @tiles8: 8 convolutions stitched along axis 2 (halo 1): regions: 72 box(es) (42 wrong); 144 of 1536 positions tested in each of 3 test(s) over Z_p, p = {{[0-9]+}} (degree 2); P(a wrong box passed) <= 2^-86.2; wrong along the axis: [5, 7) [11, 13) [17, 19) [23, 25) [29, 31) [35, 37) [41, 43); correction: 5 op(s), slices from the concatenated tiles, 43 extra rows in the fused convolution, 15.04 us (mutant 5.01 us); 22.51 us -> 20.05 us on sm_90; analysis {{[0-9.]+}} s; verified: finite-field test: 3 tests
// REMARK-SAME: floating point
// REMARK: remark: partial-equivalence-optimize @tiles8: 1 mutant(s) tried of 1 site(s), 1 rewritten; 22.51 us -> 20.05 us on sm_90

// CHECK-LABEL: func.func @tiles8
// CHECK-NEXT: %[[X:.*]] = graph.concat(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7) dim = 2 : {{.*}} -> tensor<1x4x48x8xf32>
// CHECK-NEXT: %[[S:.*]]:22 = graph.split %[[X]], dim = 2, sizes = [4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4]
// CHECK-NEXT: %[[Z:.*]] = graph.gt %[[X]], %[[X]] : (tensor<1x4x48x8xf32>, tensor<1x4x48x8xf32>) -> tensor<1x4x48x8xf32>
// CHECK-NEXT: %[[B:.*]]:23 = graph.split %[[Z]], dim = 2, sizes = [5, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1]
// The tiles; zeros from row 47 after them; then per seam: the earlier tile's
// slice (rows 4, 5), zeros from rows 5 and 6, the later tile's slice (rows 6, 7).
// CHECK-NEXT: %[[F:.*]] = graph.concat(%[[X]], %[[B]]#22, %[[S]]#1, %[[B]]#1, %[[B]]#2, %[[S]]#2, %[[S]]#4, %[[B]]#4, %[[B]]#5, %[[S]]#5, {{.*}}, %[[S]]#19, %[[B]]#19, %[[B]]#20, %[[S]]#20) dim = 2 : {{.*}} -> tensor<1x4x91x8xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[F]], %arg8 {padding = array<i64: 1, 1>} : (tensor<1x4x91x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x91x8xf32>
// CHECK-NEXT: %[[P:.*]]:44 = graph.split %[[C]], dim = 2
// CHECK-NEXT: %[[Y:.*]] = graph.concat(%[[P]]#0, %[[P]]#16, %[[P]]#18, %[[P]]#2, {{.*}}, %[[P]]#14) dim = 2 : {{.*}} -> tensor<1x4x48x8xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK-NOT: graph.conv2d

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
