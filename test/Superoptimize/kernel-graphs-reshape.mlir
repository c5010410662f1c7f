// The kernel-level enumeration over a subprogram with a reshape that only
// inserts or drops size-1 dimensions (docs/Search.md, "Kernel-level
// enumeration"): the program's size-1 reshapes join the op menu as free
// views (their input's abstract expression, not counted against
// kernel-graph-ops), so a projection y = x W^T whose result the program
// views as [1, S, N] is enumerated like one without the view.
//
// RUN: mirage-opt %s --superoptimize="cache=off threads=1" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 kernel-graph-ops=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPS4

// x [1, 16, 512] viewed as [16, 512] (a reshape of an argument: a free
// view outside the subprogram, which reads it as %arg0), W [4096, 512]
// with many more rows than x. The program transposes the 8 MB weight;
// the formulation (W x^T)^T transposes the [16, 512] activations and the
// [4096, 16] product instead, then views the result as [1, 16, 4096] with
// the program's reshape. Its µGraph is verified against the program as
// written and chosen.
// CHECK: remark: superoptimize @proj part 0: 3 graph op(s) -> 3 kernel(s) (0 graph-defined), was 2; estimated 13.94 us -> 10.76 us
// CHECK-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 1 other formulation(s) searched
// CHECK-SAME: 1 verified as cheaper; chosen: %t2 = transpose[1,0](%arg1), %t3 = matmul(%arg0,%t2), %t4 = transpose[1,0](%t3), %t5 = reshape[1x16x4096](%t4);
// CHECK-SAME: verified: {{.*}}finite-field test
// CHECK-SAME: native dtypes: max error

// The view of x inside the subprogram: x is scaled first, so its reshape
// joins the subprogram of the scale, and the formulations reshape %arg0
// (x) themselves. Within 3 ops the scale moves after the product (onto
// the [16, 4096] result: one kernel fewer with the matmul), verified.
// CHECK: remark: superoptimize @sproj part 0: 4 graph op(s) -> 2 kernel(s) (1 graph-defined), was 3; estimated 16.46 us -> 14.00 us
// CHECK-SAME: chosen: %t2 = reshape[16x512](%arg0), %t3 = transpose[1,0](%arg1), %t4 = matmul(%t2,%t3), %t5 = scale(%t4);
// CHECK-SAME: native dtypes: max error

// The emitted kernels: the weight is read as it is, never transposed.
// CHECK-LABEL: func.func @proj(
// CHECK-NEXT: %[[R:.*]] = kernel.reshape %arg0 : tensor<1x16x512xf32> -> tensor<16x512xf32>
// CHECK-NEXT: %[[XT:.*]] = kernel.transpose %[[R]], perm = [1, 0] : tensor<16x512xf32> -> tensor<512x16xf32>
// CHECK-NEXT: %[[P:.*]] = kernel.matmul %arg1, %[[XT]] : (tensor<4096x512xf32>, tensor<512x16xf32>) -> tensor<4096x16xf32>
// CHECK-NEXT: %[[Y:.*]] = kernel.transpose %[[P]], perm = [1, 0] : tensor<4096x16xf32> -> tensor<16x4096xf32>
// CHECK-NEXT: %[[O:.*]] = kernel.reshape %[[Y]] : tensor<16x4096xf32> -> tensor<1x16x4096xf32>
// CHECK-NEXT: return %[[O]]

// With 4 ops (the reshape not counted) the transposed product fits too
// and is cheaper; the scale is applied to the W tile inside the kernel.
// OPS4: remark: superoptimize @sproj part 0: 4 graph op(s) -> 3 kernel(s) (1 graph-defined), was 3; estimated 16.46 us -> 10.82 us
// OPS4-SAME: chosen: %t2 = reshape[16x512](%arg0), %t3 = scale(%arg1), %t4 = transpose[1,0](%t2), %t5 = matmul(%t3,%t4), %t6 = transpose[1,0](%t5);
// OPS4-SAME: native dtypes: max error

func.func @proj(%x: tensor<1x16x512xf32>, %w: tensor<4096x512xf32>) -> tensor<1x16x4096xf32> {
  %r = graph.reshape %x : tensor<1x16x512xf32> -> tensor<16x512xf32>
  %t = graph.transpose %w, perm = [1, 0] : tensor<4096x512xf32> -> tensor<512x4096xf32>
  %y = graph.matmul %r, %t : (tensor<16x512xf32>, tensor<512x4096xf32>) -> tensor<16x4096xf32>
  %o = graph.reshape %y : tensor<16x4096xf32> -> tensor<1x16x4096xf32>
  return %o : tensor<1x16x4096xf32>
}

func.func @sproj(%x: tensor<1x16x512xf32>, %w: tensor<4096x512xf32>) -> tensor<16x4096xf32> {
  %h = graph.scalar_mul %x, 0.5 : tensor<1x16x512xf32>
  %r = graph.reshape %h : tensor<1x16x512xf32> -> tensor<16x512xf32>
  %t = graph.transpose %w, perm = [1, 0] : tensor<4096x512xf32> -> tensor<512x4096xf32>
  %y = graph.matmul %r, %t : (tensor<16x512xf32>, tensor<512x4096xf32>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}
