// --graph-optimize on two SqueezeNet fire modules in a row (at small
// sizes): the expand convolutions' biases merge behind one concat (r0490
// reversed, then r1079), and the rewritten program is a valid, acyclic
// program (a rewrite that would redirect a value's uses into a node computed
// from one of them is refused; such a graph once crashed the writer).
// RUN: mirage-opt %s --graph-optimize="weights-from=1" 2>%t.err | mirage-opt | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// REMARK: remark: graph-optimize @fire2: 26 ops, 50.03 us -> 24 ops, 40.03 us on sm_90 (1.25x;
// REMARK-SAME: 4 rewrite(s): r0490 (reversed), r1079, r0490 (reversed), r1079;
// REMARK-SAME: verified: finite-field test

// CHECK-LABEL: func.func @fire2
// CHECK-COUNT-2: graph.concat({{.*}}) dim = 0 : (tensor<8x1x1xf32>, tensor<8x1x1xf32>) -> tensor<16x1x1xf32>
// CHECK: return

func.func @fire2(%x: tensor<1x8x8x8xf32>, %s1: tensor<4x8x1x1xf32>, %sb1: tensor<4xf32>, %e1: tensor<8x4x1x1xf32>, %eb1: tensor<8xf32>, %f1: tensor<8x4x3x3xf32>, %fb1: tensor<8xf32>, %s2: tensor<4x16x1x1xf32>, %sb2: tensor<4xf32>, %e2: tensor<8x4x1x1xf32>, %eb2: tensor<8xf32>, %f2: tensor<8x4x3x3xf32>, %fb2: tensor<8xf32>) -> tensor<1x16x8x8xf32> {
  %0 = graph.conv2d %x, %s1 : (tensor<1x8x8x8xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x8x8xf32>
  %1 = graph.reshape %sb1 : tensor<4xf32> -> tensor<4x1x1xf32>
  %2 = graph.add %0, %1 : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %3 = graph.relu %2 : tensor<1x4x8x8xf32>
  %4 = graph.conv2d %3, %e1 : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x8x8xf32>
  %5 = graph.reshape %eb1 : tensor<8xf32> -> tensor<8x1x1xf32>
  %6 = graph.add %4, %5 : (tensor<1x8x8x8xf32>, tensor<8x1x1xf32>) -> tensor<1x8x8x8xf32>
  %7 = graph.relu %6 : tensor<1x8x8x8xf32>
  %8 = graph.conv2d %3, %f1 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  %9 = graph.reshape %fb1 : tensor<8xf32> -> tensor<8x1x1xf32>
  %10 = graph.add %8, %9 : (tensor<1x8x8x8xf32>, tensor<8x1x1xf32>) -> tensor<1x8x8x8xf32>
  %11 = graph.relu %10 : tensor<1x8x8x8xf32>
  %12 = graph.concat(%7, %11) dim = 1 : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x16x8x8xf32>
  %13 = graph.conv2d %12, %s2 : (tensor<1x16x8x8xf32>, tensor<4x16x1x1xf32>) -> tensor<1x4x8x8xf32>
  %14 = graph.reshape %sb2 : tensor<4xf32> -> tensor<4x1x1xf32>
  %15 = graph.add %13, %14 : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %16 = graph.relu %15 : tensor<1x4x8x8xf32>
  %17 = graph.conv2d %16, %e2 : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x8x8xf32>
  %18 = graph.reshape %eb2 : tensor<8xf32> -> tensor<8x1x1xf32>
  %19 = graph.add %17, %18 : (tensor<1x8x8x8xf32>, tensor<8x1x1xf32>) -> tensor<1x8x8x8xf32>
  %20 = graph.relu %19 : tensor<1x8x8x8xf32>
  %21 = graph.conv2d %16, %f2 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  %22 = graph.reshape %fb2 : tensor<8xf32> -> tensor<8x1x1xf32>
  %23 = graph.add %21, %22 : (tensor<1x8x8x8xf32>, tensor<8x1x1xf32>) -> tensor<1x8x8x8xf32>
  %24 = graph.relu %23 : tensor<1x8x8x8xf32>
  %25 = graph.concat(%20, %24) dim = 1 : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %25 : tensor<1x16x8x8xf32>
}
