// Graph-defined kernels with two outputs (docs/Search.md, "Two outputs"):
// a kernel that computes a value on its way to its goal may save it too,
// standing for that value's own kernel. A pre-norm transformer's residual
// sum h = x + r is read again later (the next residual), so it is an output
// of the subprogram; with one output per kernel, h costs a kernel of its own
// (or the norm's kernel reads it back), with two the norm's kernel saves it.
// Each µGraph is verified against the program before it is emitted, and
// again here against the default schedule.
//
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=off" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: mirage-opt %t.mlir --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=off kernel-outputs=1" -o - 2>&1 | FileCheck %s --check-prefix=ONE
// A state budget that binds: the goals every kernel choice needs are
// searched first with the whole budget, the goals only kernels with two
// outputs need get what is left, so the result is the one-output one.
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=off state-budget=200" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIGHT

// REMARK: remark: superoptimize @residual_norm part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3; estimated {{[0-9.]+}} us -> {{[0-9.]+}} us
// REMARK-SAME: verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test: {{[0-9]+}} tests
// REMARK-SAME: false-positive bound 2^-{{[0-9.]+}}
// REMARK: remark: superoptimize @projection_relu part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2
// REMARK-SAME: verified:
// REMARK: remark: superoptimize @row_scale part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3
// REMARK-SAME: verified:
// REMARK: remark: superoptimize @chain part 0: 3 graph op(s) -> 2 kernel(s) (1 graph-defined), was 3
// REMARK-SAME: verified:
// REMARK: remark: superoptimize @side part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3
// REMARK-SAME: verified:

// The norm's kernel saves the sum it normalizes: two savers, one kernel.
// CHECK-LABEL: func.func @residual_norm
// CHECK: %[[K:.*]]:2 = kernel.graph_def
// CHECK: %[[H:.*]] = block.binary add
// CHECK: block.rms_norm %[[H]], dim = 1
// CHECK: %[[Y:.*]] = block.accum sum
// CHECK: %[[HS:.*]] = block.accum sum %[[H]]
// CHECK: %[[YO:.*]] = block.output %[[Y]]
// CHECK: %[[HO:.*]] = block.output %[[HS]]
// CHECK: block.yield %[[YO]], %[[HO]]
// CHECK-NOT: kernel.
// CHECK: return %[[K]]#1, %[[K]]#0

// With a for-loop (K = 2048 is walked in steps): the accumulated products
// are the matmul's value, saved after the loop beside the relu of them.
// CHECK-LABEL: func.func @projection_relu
// CHECK: %[[K:.*]]:2 = kernel.graph_def{{.*}} forloop = {{[2-9]|[1-9][0-9]+}} :
// CHECK: %[[P:.*]] = block.accum sum
// CHECK: %[[Y:.*]] = block.unary relu %[[P]]
// CHECK: %[[YO:.*]] = block.output %[[Y]]
// CHECK: %[[PO:.*]] = block.output %[[P]]
// CHECK: block.yield %[[YO]], %[[PO]]
// CHECK-NOT: kernel.
// CHECK: return %[[K]]#1, %[[K]]#0

// A second output without one of the goal's variables (a row sum): the
// grid partitions only the variables both outputs have, here the rows, so
// no two blocks save the same tile of it.
// CHECK-LABEL: func.func @row_scale
// CHECK: kernel.graph_def{{.*}} grid = [{{[0-9]+}}] forloop = 1
// CHECK-COUNT-2: block.output %{{.*}} omap = <x: 0>
// CHECK-NOT: kernel.
// CHECK: return

// Three returned values in a chain, h -> a = rms_norm(h) -> y = a * h:
// a kernel writes at most two, and y's kernel may not save h while it
// reads a, which depends on h (that kernel would wait for its own output).
// The sum keeps its kernel; the norm's kernel saves a beside y.
// CHECK-LABEL: func.func @chain
// CHECK: %[[H:.*]] = kernel.binary add
// CHECK: %[[K:.*]]:2 = kernel.graph_def(%[[H]])
// CHECK-COUNT-2: block.output
// CHECK-NOT: kernel.
// CHECK: return %[[H]], %[[K]]#1, %[[K]]#0

// Two independent values of one input side by side: relu(x + r) and
// exp(x + r), both returned. One kernel computes the sum once and saves
// both (with one output per kernel: the sum's kernel and one reading it).
// CHECK-LABEL: func.func @side
// CHECK: %[[K:.*]]:2 = kernel.graph_def(%arg0, %arg1)
// CHECK-COUNT-1: {{block|thread}}.binary add
// CHECK-DAG: {{block|thread}}.unary relu
// CHECK-DAG: {{block|thread}}.unary exp
// CHECK: block.yield
// CHECK-NOT: kernel.
// CHECK: return %[[K]]#0, %[[K]]#1

// VERIFY: remark: @residual_norm is equivalent to @residual_norm_reference: finite-field test
// VERIFY: remark: @projection_relu is equivalent to @projection_relu_reference: finite-field test
// VERIFY: remark: @row_scale is equivalent to @row_scale_reference: finite-field test
// VERIFY: remark: @chain is equivalent to @chain_reference: finite-field test
// VERIFY: remark: @side is equivalent to @side_reference: finite-field test

// TIGHT: remark: superoptimize @residual_norm part 0: 3 graph op(s) -> 2 kernel(s) (1 graph-defined), was 3; estimated 7.83 us -> 5.78 us
// TIGHT-SAME: state budget reached: 2 of 2 tasks for kernels with two outputs cut at {{[0-9]+}} states each

// ONE: remark: superoptimize @residual_norm part 0: 3 graph op(s) -> 2 kernel(s)
// ONE: remark: superoptimize @projection_relu part 0: 2 graph op(s) -> 2 kernel(s) (0 graph-defined)
// ONE: remark: superoptimize @side part 0: 3 graph op(s) -> 2 kernel(s)

func.func @residual_norm_reference(%X: tensor<16x4096xf16>, %R: tensor<16x4096xf16>, %W: tensor<4096xf16>) -> (tensor<16x4096xf16>, tensor<16x4096xf16>) {
  %h = kernel.binary add %X, %R : (tensor<16x4096xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %n = kernel.rms_norm %h : tensor<16x4096xf16>
  %y = kernel.binary mul %n, %W : (tensor<16x4096xf16>, tensor<4096xf16>) -> tensor<16x4096xf16>
  return %h, %y : tensor<16x4096xf16>, tensor<16x4096xf16>
}

func.func @residual_norm(%X: tensor<16x4096xf16>, %R: tensor<16x4096xf16>, %W: tensor<4096xf16>) -> (tensor<16x4096xf16>, tensor<16x4096xf16>)
    attributes {mirage.equivalent_to = @residual_norm_reference} {
  %h = graph.add %X, %R : (tensor<16x4096xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %n = graph.rms_norm %h : tensor<16x4096xf16>
  %y = graph.mul %n, %W : (tensor<16x4096xf16>, tensor<4096xf16>) -> tensor<16x4096xf16>
  return %h, %y : tensor<16x4096xf16>, tensor<16x4096xf16>
}

func.func @projection_relu_reference(%X: tensor<256x2048xf16>, %W: tensor<2048x256xf16>) -> (tensor<256x256xf16>, tensor<256x256xf16>) {
  %p = kernel.matmul %X, %W : (tensor<256x2048xf16>, tensor<2048x256xf16>) -> tensor<256x256xf16>
  %y = kernel.unary relu %p : tensor<256x256xf16>
  return %p, %y : tensor<256x256xf16>, tensor<256x256xf16>
}

func.func @projection_relu(%X: tensor<256x2048xf16>, %W: tensor<2048x256xf16>) -> (tensor<256x256xf16>, tensor<256x256xf16>)
    attributes {mirage.equivalent_to = @projection_relu_reference} {
  %p = graph.matmul %X, %W : (tensor<256x2048xf16>, tensor<2048x256xf16>) -> tensor<256x256xf16>
  %y = graph.relu %p : tensor<256x256xf16>
  return %p, %y : tensor<256x256xf16>, tensor<256x256xf16>
}

func.func @row_scale_reference(%X: tensor<64x4096xf32>, %R: tensor<64x4096xf32>) -> (tensor<64x1xf32>, tensor<64x4096xf32>) {
  %h = kernel.binary mul %X, %R : (tensor<64x4096xf32>, tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %s = kernel.reduce sum %h, dim = 1 : tensor<64x4096xf32> -> tensor<64x1xf32>
  %y = kernel.binary div %X, %s : (tensor<64x4096xf32>, tensor<64x1xf32>) -> tensor<64x4096xf32>
  return %s, %y : tensor<64x1xf32>, tensor<64x4096xf32>
}

func.func @row_scale(%X: tensor<64x4096xf32>, %R: tensor<64x4096xf32>) -> (tensor<64x1xf32>, tensor<64x4096xf32>)
    attributes {mirage.equivalent_to = @row_scale_reference} {
  %h = graph.mul %X, %R : (tensor<64x4096xf32>, tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %s = graph.reduce_sum %h, dim = 1 : tensor<64x4096xf32> -> tensor<64x1xf32>
  %y = graph.div %X, %s : (tensor<64x4096xf32>, tensor<64x1xf32>) -> tensor<64x4096xf32>
  return %s, %y : tensor<64x1xf32>, tensor<64x4096xf32>
}

func.func @chain_reference(%X: tensor<16x4096xf32>, %R: tensor<16x4096xf32>) -> (tensor<16x4096xf32>, tensor<16x4096xf32>, tensor<16x4096xf32>) {
  %h = kernel.binary add %X, %R : (tensor<16x4096xf32>, tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %a = kernel.rms_norm %h : tensor<16x4096xf32>
  %y = kernel.binary mul %a, %h : (tensor<16x4096xf32>, tensor<16x4096xf32>) -> tensor<16x4096xf32>
  return %h, %a, %y : tensor<16x4096xf32>, tensor<16x4096xf32>, tensor<16x4096xf32>
}

func.func @chain(%X: tensor<16x4096xf32>, %R: tensor<16x4096xf32>) -> (tensor<16x4096xf32>, tensor<16x4096xf32>, tensor<16x4096xf32>)
    attributes {mirage.equivalent_to = @chain_reference} {
  %h = graph.add %X, %R : (tensor<16x4096xf32>, tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %a = graph.rms_norm %h : tensor<16x4096xf32>
  %y = graph.mul %a, %h : (tensor<16x4096xf32>, tensor<16x4096xf32>) -> tensor<16x4096xf32>
  return %h, %a, %y : tensor<16x4096xf32>, tensor<16x4096xf32>, tensor<16x4096xf32>
}

func.func @side_reference(%X: tensor<64x4096xf32>, %R: tensor<64x4096xf32>) -> (tensor<64x4096xf32>, tensor<64x4096xf32>) {
  %h = kernel.binary add %X, %R : (tensor<64x4096xf32>, tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %a = kernel.unary relu %h : tensor<64x4096xf32>
  %b = kernel.unary exp %h : tensor<64x4096xf32>
  return %a, %b : tensor<64x4096xf32>, tensor<64x4096xf32>
}

func.func @side(%X: tensor<64x4096xf32>, %R: tensor<64x4096xf32>) -> (tensor<64x4096xf32>, tensor<64x4096xf32>)
    attributes {mirage.equivalent_to = @side_reference} {
  %h = graph.add %X, %R : (tensor<64x4096xf32>, tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %a = graph.relu %h : tensor<64x4096xf32>
  %b = graph.exp %h : tensor<64x4096xf32>
  return %a, %b : tensor<64x4096xf32>, tensor<64x4096xf32>
}
