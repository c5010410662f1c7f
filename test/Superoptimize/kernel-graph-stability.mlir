// A formulation of the kernel-level enumeration (docs/Search.md,
// "Kernel-level enumeration") that is exact in the reals and cheaper by the
// cost model, but overflows f16 where the program as written does not: the
// native-dtype check, run against the program as written, rejects it, and
// what is emitted is stable.
//
// The program is a linear bottleneck in f16, 4096 tokens x 16 features
// widened to 1024 hidden units and projected back, with the hidden
// activations scaled by 1/1024 before the projection:
//   y = ((X W1) * 2^-10) W2.
// Its largest intermediate is X W1, a sum of 16 products. Merging the two
// weights first, X ((W1 W2) * 2^-10), is cheaper (the 16 x 16 merged weight
// replaces the 4096 x 1024 hidden tensor), but W1 W2 is a sum of 1024
// products of two weights: at input scale 64, the top of the f16 ladder
// (docs/Verification.md, "Input scales": every product of two inputs is
// still finite there, so the overflow is the formulation's own), it exceeds
// 65504 while every value of the program stays below about 30,000. The
// formulation rounds W1 W2 to f16 (a tensor of its own), so its block-level
// search may keep that product in an f16 tile, which its cheapest µGraphs
// do. X (W1 W2) * 2^-10, the same merge with the scale last, already
// overflows at input scale 16 (X (W1 W2) before its scale).
//
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 progress=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=SEARCH
// RUN: FileCheck %s < %t.mlir
// RUN: mirage-opt %t.mlir --verify-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// Found: both merges (%arg0 is X, %arg1 W1, %arg2 W2), with the scale
// last and on the merged weight.
// SEARCH: [superoptimize] formulation @[[SCALED_LAST:bottleneck_part0_default_formulation[0-9]+]]: %t3 = matmul(%arg1,%arg2), %t4 = matmul(%arg0,%t3), %t5 = scale(%t4); estimated
// SEARCH: [superoptimize] formulation @[[MERGED:bottleneck_part0_default_formulation[0-9]+]]: %t3 = matmul(%arg1,%arg2), %t4 = scale(%t3), %t5 = matmul(%arg0,%t4); estimated {{[0-9.]+}} us (the program as written: {{[0-9.]+}} us, verified)

// Cheaper: a formulation's µGraphs are verified only when its estimate
// beats the best verified result so far, so each rejection below is of a
// formulation the cost model ranks cheaper than anything from the program
// as written. Rejected by the f16 check (the native-dtype one: the fp64
// check would be "fp64 check at"), the program as written finite where
// the merge is not:
// SEARCH: [superoptimize] the composed µGraph of @[[MERGED]] was REJECTED ({{.*}}differs: output #0 at [{{[0-9, ]+}}] in the f16 check at input scale 64 (inputs in [-64, 64)): {{[-0-9.e+]+}} (fp64; {{[-0-9.e+]+}} in its own f16) vs {{(-?inf|nan)}} in f16
// SEARCH: [superoptimize] formulation @[[MERGED]] (estimated [[EST:[0-9.]+]] us, best so far [[PROG:[0-9.]+]] us): verified at {{[0-9.]+}} us, not cheaper than the best so far
// SEARCH: [superoptimize] the composed µGraph of @[[SCALED_LAST]] was REJECTED ({{.*}}differs: output #0 at [{{[0-9, ]+}}] in the f16 check at input scale 16 (inputs in [-16, 16)): {{[-0-9.e+]+}} (fp64; {{[-0-9.e+]+}} in its own f16) vs {{(-?inf|nan)}} in f16
// SEARCH: [superoptimize] formulation @[[SCALED_LAST]] (estimated {{[0-9.]+}} us, best so far [[PROG]] us): verified at {{[0-9.]+}} us, not cheaper than the best so far

// Emitted: the program as written's own fused kernel, verified in f16 up
// to input scale 64.
// SEARCH: remark: superoptimize @bottleneck part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3; estimated {{[0-9.]+}} us -> [[PROG]] us
// SEARCH-SAME: kernel level: {{[0-9]+}} states, {{[0-9]+}} pruned, 8 other formulation(s) searched
// SEARCH-SAME: chosen: the program as written
// SEARCH-SAME: floating point: 1 input set at input scales 1, 4, 16, 64 (f16 ladder)
// SEARCH-SAME: native dtypes: max error

// It forms W1 W2 too, per block, but in an f32 tile.
// CHECK-LABEL: func.func @bottleneck
// CHECK: kernel.graph_def
// CHECK: block.matmul %{{.*}}, %{{.*}} : (!block.tile<16x1024xf16>, !block.tile<1024x{{[0-9]+}}xf16>) -> !block.tile<16x{{[0-9]+}}xf32>
// CHECK-NOT: kernel.matmul
// CHECK: return

// And it verifies, on its own, against the program as written.
// VERIFY: remark: @bottleneck is equivalent to @reference
// VERIFY-SAME: input scales 1, 4, 16, 64 (f16 ladder)

func.func @reference(%X: tensor<4096x16xf16>, %W1: tensor<16x1024xf16>, %W2: tensor<1024x16xf16>) -> tensor<4096x16xf16> {
  %h = kernel.matmul %X, %W1 : (tensor<4096x16xf16>, tensor<16x1024xf16>) -> tensor<4096x1024xf16>
  %s = kernel.unary scale %h params = [0.0009765625] : tensor<4096x1024xf16>
  %y = kernel.matmul %s, %W2 : (tensor<4096x1024xf16>, tensor<1024x16xf16>) -> tensor<4096x16xf16>
  return %y : tensor<4096x16xf16>
}

func.func @bottleneck(%X: tensor<4096x16xf16>, %W1: tensor<16x1024xf16>, %W2: tensor<1024x16xf16>) -> tensor<4096x16xf16>
    attributes {mirage.equivalent_to = @reference} {
  %h = graph.matmul %X, %W1 : (tensor<4096x16xf16>, tensor<16x1024xf16>) -> tensor<4096x1024xf16>
  %s = graph.scalar_mul %h, 0.0009765625 : tensor<4096x1024xf16>
  %y = graph.matmul %s, %W2 : (tensor<4096x1024xf16>, tensor<1024x16xf16>) -> tensor<4096x16xf16>
  return %y : tensor<4096x16xf16>
}
