// The cost model's view of the online softmax (docs/CostModel.md): one
// fused kernel (block.softmax_accum) against the three default kernels, and
// the FlashDecoding split's two launches (the second one merging the
// partial results, block.softmax_merge). At this small size every kernel
// is launch-bound, so fusing wins by launches.
// RUN: mirage-opt %S/../GpuLowering/Inputs/online-softmax.mlir --estimate-cost="target=sm_90" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: @attention: 7.62 us on sm_90 in 3 kernel(s)
// CHECK: remark: kernel.graph_def: 3.99 us on sm_90, launch-bound; device memory 90112 B, L2 65536 B, shared memory 1016832 B, 4476928 FLOP; 4 blocks in 1 wave(s), 28032 B shared memory per block
// CHECK: remark: @fused: 3.99 us on sm_90 in 1 kernel(s)
// CHECK: remark: kernel.graph_def: 3.37 us on sm_90, launch-bound; {{.*}} 8 blocks in 1 wave(s)
// CHECK: remark: kernel.graph_def: 2.86 us on sm_90, launch-bound; {{.*}} 4 blocks in 1 wave(s)
// CHECK: remark: @split: 6.23 us on sm_90 in 2 kernel(s)
// CHECK: remark: @fused_f32: 5.49 us on sm_90 in 1 kernel(s)
