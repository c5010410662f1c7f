// The search verifies on fewer slices of a dimension that is uniform in the
// subprogram and in its µGraph (docs/Verification.md, "Verification on
// fewer slices"): prefill attention in miniature, 8 heads, whose
// verification at full size needs more than a 16 MiB memory budget. With
// the reduction (the default) the fused kernel is verified on 2 of the 8
// heads, with the bound stated, and emitted; without it the verification
// is interrupted and the default schedule kept, as the full-size prefill
// was before.
//
// RUN: mirage-opt %s --superoptimize="target=sm_90 threads=1 cache=false memory-budget=16" 2>&1 | FileCheck %s
// RUN: mirage-opt %s --superoptimize="target=sm_90 threads=1 cache=false memory-budget=16 reduce-verification=false" 2>&1 | FileCheck %s --check-prefix=FULL

// CHECK: remark: superoptimize @prefill part 0: 3 graph op(s) -> 1 kernel(s) (1 graph-defined), was 3;
// CHECK-SAME: verified: on a reduced instance, 2 of 8 slices of result dimension 0; uniform in both programs (@prefill_part0_default: matmul batch dimensions, softmax over another dimension; @prefill_part0_default_searched: graph-defined kernels partition it by grid dimension x in tiles of 1, no for-loop walks it): finite-field test: {{[0-9]+}} tests {{.*}} false-positive bound 2^-{{[0-9.]+}}
// CHECK: kernel.graph_def
// CHECK: block.softmax_accum
// CHECK-NOT: graph.

// FULL: remark: superoptimize @prefill part 0: 3 graph op(s) -> 3 kernel(s) (0 graph-defined)
// FULL-SAME: a verification was interrupted (over the memory limit: the floating-point runs of 'prefill_part0_default' need about 22.0 MiB, more than the memory limit of 16.0 MiB)
// FULL-SAME: verified: default schedule kept
// FULL-NOT: reduced instance
// FULL-NOT: kernel.graph_def

func.func @prefill(%Q: tensor<8x256x64xf16>, %K: tensor<8x64x256xf16>, %V: tensor<8x256x64xf16>) -> tensor<8x256x64xf16> {
  %s = graph.matmul %Q, %K : (tensor<8x256x64xf16>, tensor<8x64x256xf16>) -> tensor<8x256x256xf16>
  %p = graph.softmax %s, dim = 2 : tensor<8x256x256xf16>
  %o = graph.matmul %p, %V : (tensor<8x256x256xf16>, tensor<8x256x64xf16>) -> tensor<8x256x64xf16>
  return %o : tensor<8x256x64xf16>
}
