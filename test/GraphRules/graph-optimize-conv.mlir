// --graph-optimize merges two 3x3 convolutions that read the same input
// (an Inception branch pair) into one against the concatenated weights
// (rule r1942: conv(x, w1), conv(x, w2) = split(conv(x, concat(w1, w2)))).
// The weights are folded before the run, so their concat costs nothing.
// RUN: mirage-opt %s --graph-optimize="weights-from=1" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: graph-optimize @branches: 4 ops, 10.50 us -> 4 ops, 8.25 us on sm_90 (1.27x;
// REMARK-SAME: 2 rewrite(s): r1942, r0510 (reversed);
// REMARK-SAME: verified: finite-field test

// CHECK-LABEL: func.func @branches
// CHECK: graph.concat(%arg1, %arg2) dim = 0 : (tensor<64x32x3x3xf16>, tensor<96x32x3x3xf16>) -> tensor<160x32x3x3xf16>
// CHECK-COUNT-1: graph.conv2d
// CHECK-NOT: graph.conv2d
// CHECK: graph.split

func.func @branches(%x: tensor<1x32x35x35xf16>, %w1: tensor<64x32x3x3xf16>, %w2: tensor<96x32x3x3xf16>) -> (tensor<1x64x35x35xf16>, tensor<1x96x35x35xf16>) {
  %a = graph.conv2d %x, %w1 {padding = array<i64: 1, 1>} : (tensor<1x32x35x35xf16>, tensor<64x32x3x3xf16>) -> tensor<1x64x35x35xf16>
  %b = graph.conv2d %x, %w2 {padding = array<i64: 1, 1>} : (tensor<1x32x35x35xf16>, tensor<96x32x3x3xf16>) -> tensor<1x96x35x35xf16>
  %ra = graph.relu %a : tensor<1x64x35x35xf16>
  %rb = graph.relu %b : tensor<1x96x35x35xf16>
  return %ra, %rb : tensor<1x64x35x35xf16>, tensor<1x96x35x35xf16>
}
