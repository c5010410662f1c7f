// exp((x - x) / (x - x)) is NaN everywhere. The finite-field test divides by
// zero on every input set it draws, so the µGraph search of this
// subprogram fails; the pass keeps it as written with a remark saying why,
// instead of failing (it used to stop with an error). Found by random
// testing.
//
// RUN: mirage-opt %s --superoptimize="target=sm_90 cache=off threads=1" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir

// REMARK-NOT: error
// REMARK: remark: superoptimize @nan part 0: not optimized: the µGraph search failed (finite-field test kept dividing by zero after 8 fresh input sets); the subprogram is kept as written
// REMARK-NOT: error

// CHECK-LABEL: func.func @nan
// CHECK-NEXT: kernel.binary sub
// CHECK-NEXT: kernel.binary div
// CHECK-NEXT: kernel.unary exp
// CHECK-NEXT: return
func.func @nan(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = graph.sub %x, %x : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = graph.div %0, %0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = graph.exp %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
