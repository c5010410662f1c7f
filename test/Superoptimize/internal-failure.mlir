// An internal failure while searching one subprogram keeps that subprogram
// as written (its default kernels) with a remark naming the failure; the
// pass does not fail and the other subprograms are still searched. Here the
// failure is planted with the testing-only option test-fail-part (attention
// scores as IREE writes them: Q K^T with biases, scale, the row maximum
// subtracted); internal-failure-nan.mlir has a real input that reaches it.
//
// RUN: mirage-opt %s --superoptimize="cache=off test-fail-part=0" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// And without the planted failure the same program is optimized and verified.
// RUN: mirage-opt %s --superoptimize="cache=off" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEARCHED

// REMARK-NOT: error
// REMARK: remark: superoptimize @attn part 0: not optimized: the µGraph search failed (planted failure (test-fail-part=0)); the subprogram is kept as written
// REMARK: remark: superoptimize @attn part 1: 1 graph op(s) -> 1 kernel(s)
// REMARK-NOT: error

// SEARCHED: remark: superoptimize @attn part 0: 4 graph op(s) -> 1 kernel(s) (1 graph-defined), was 4; {{.*}} verified: {{.*}}finite-field test

// CHECK-LABEL: func.func @attn
// CHECK-NEXT: kernel.matmul
// CHECK-NEXT: kernel.binary add
// CHECK-NEXT: kernel.binary add
// CHECK-NEXT: kernel.unary scale
// CHECK-NEXT: kernel.reduce max
// CHECK-NEXT: kernel.binary sub
// CHECK-NOT: graph.
func.func @attn(%q: tensor<16x64xf32>, %kt: tensor<64x16xf32>, %b1: tensor<16x16xf32>, %b2: tensor<1x16xf32>) -> tensor<16x16xf32> {
  %s = graph.matmul %q, %kt : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
  %a = graph.add %s, %b1 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = graph.add %a, %b2 : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
  %t = graph.scalar_mul %c, 0.125 : tensor<16x16xf32>
  %m = graph.reduce_max %t, dim = 1 : tensor<16x16xf32> -> tensor<16x1xf32>
  %d = graph.sub %t, %m : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}
