// The kernel-level enumeration over subprograms with a softmax and a
// transpose (docs/Search.md, "Kernel-level enumeration"): softmax joins the
// op menu along the dimensions the program's softmaxes use, as the opaque
// sexp(x) / sum(sexp(x)) of the target analysis, and transposes with the
// program's permutations and their inverses, as data movement. Each other
// formulation is searched like the program and its µGraph verified against
// the program as written (native dtype included).
//
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 kernel-graph-ops=5" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --superoptimize="cache=off threads=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT

// Attention with a scale, softmax(s (Q K)) V: s (Q K) = (s Q) K in the
// abstract expressions (a scalar pulls out of a sum), so the enumeration
// finds softmax((s Q) K) V and softmax(Q (s K)) V. Scaling the [64, 32] Q
// tile instead of the [64, 512] scores is cheaper in the cost model; the
// program's own search keeps s Q in f32 (the program never rounds it),
// the formulation's in f16 as its scale kernel does, and the native-dtype
// check against the program accepts it (a scale by 2^-3). The subprogram's
// inputs are numbered in order of use: %arg0 Q, %arg1 K, %arg2 V.
// CHECK: remark: superoptimize @sattn part 0: 4 graph op(s) -> 1 kernel(s) (1 graph-defined), was 4;
// CHECK-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 2 other formulation(s) searched
// CHECK-SAME: 1 verified as cheaper; chosen: %t3 = scale(%arg0), %t4 = matmul(%t3,%arg1), %t5 = softmax[2](%t4), %t6 = matmul(%t5,%arg2);
// CHECK-SAME: native dtypes: max error

// The same with K given as [S, d] and transposed: the menu has the
// transpose [0, 2, 1] (its own inverse). %arg0 is K here (first used by the
// transpose), %arg1 Q, %arg2 V. Scaling K before or after its transpose and
// scaling Q are three formulations; scaling Q is chosen.
// CHECK: remark: superoptimize @sattn_t part 0: 5 graph op(s) -> 2 kernel(s) (1 graph-defined), was 5;
// CHECK-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 3 other formulation(s) searched
// CHECK-SAME: 1 verified as cheaper; chosen: %t3 = transpose[0,2,1](%arg0), %t4 = scale(%arg1), %t5 = matmul(%t4,%t3), %t6 = softmax[2](%t5), %t7 = matmul(%t6,%arg2);
// CHECK-SAME: native dtypes: max error

// x + transpose(x) of a square x: the target analysis makes that transpose
// an atom of its own (its dimensions share one index variable), which the
// enumeration's data-movement transpose never makes: not enumerated.
// CHECK: remark: superoptimize @sym part 0:
// CHECK-SAME: kernel level: not enumerated, it has a kernel.transpose whose result has two dimensions on one index variable

// The IR follows the remarks: the Q tile is scaled, then multiplied.
// CHECK-LABEL: func.func @sattn(
// CHECK: block.unary scale %{{.*}} : !block.tile<1x2x32xf16>
// CHECK-NEXT: block.matmul
// CHECK: block.softmax_accum
// CHECK-LABEL: func.func @sattn_t(
// CHECK: kernel.transpose
// CHECK: block.unary scale %{{.*}} : !block.tile<1x2x32xf16>
// CHECK-NEXT: block.matmul

// With the default kernel-graph-ops (3) the softmax subprograms are
// enumerated too, but none of their other formulations fits in 3 ops.
// DEFAULT: remark: superoptimize @sattn part 0:
// DEFAULT-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 0 other formulation(s) searched
// DEFAULT-SAME: chosen: the program as written
// DEFAULT: remark: superoptimize @sattn_t part 0:
// DEFAULT-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 0 other formulation(s) searched

func.func @sattn(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x512xf16>, %V: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
  %s = graph.matmul %Q, %K : (tensor<2x64x32xf16>, tensor<2x32x512xf16>) -> tensor<2x64x512xf16>
  %t = graph.scalar_mul %s, 0.125 : tensor<2x64x512xf16>
  %p = graph.softmax %t, dim = 2 : tensor<2x64x512xf16>
  %o = graph.matmul %p, %V : (tensor<2x64x512xf16>, tensor<2x512x32xf16>) -> tensor<2x64x32xf16>
  return %o : tensor<2x64x32xf16>
}

func.func @sattn_t(%Q: tensor<2x64x32xf16>, %K: tensor<2x512x32xf16>, %V: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
  %kt = graph.transpose %K, perm = [0, 2, 1] : tensor<2x512x32xf16> -> tensor<2x32x512xf16>
  %s = graph.matmul %Q, %kt : (tensor<2x64x32xf16>, tensor<2x32x512xf16>) -> tensor<2x64x512xf16>
  %t = graph.scalar_mul %s, 0.125 : tensor<2x64x512xf16>
  %p = graph.softmax %t, dim = 2 : tensor<2x64x512xf16>
  %o = graph.matmul %p, %V : (tensor<2x64x512xf16>, tensor<2x512x32xf16>) -> tensor<2x64x32xf16>
  return %o : tensor<2x64x32xf16>
}

func.func @sym(%X: tensor<2x64x64xf16>) -> tensor<2x64x64xf16> {
  %xt = graph.transpose %X, perm = [0, 2, 1] : tensor<2x64x64xf16> -> tensor<2x64x64xf16>
  %s = graph.add %X, %xt : (tensor<2x64x64xf16>, tensor<2x64x64xf16>) -> tensor<2x64x64xf16>
  %p = graph.softmax %s, dim = 2 : tensor<2x64x64xf16>
  return %p : tensor<2x64x64xf16>
}
