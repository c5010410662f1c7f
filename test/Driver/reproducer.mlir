// mirage-opt replays its own crash reproducers. A reproducer states the
// pipeline pass by pass, the upstream passes inside --mirage-to-ptx
// included; before, mirage-opt did not register those (convert-scf-to-cf,
// convert-nvgpu-to-nvvm, ...), so --run-reproducer could not parse the
// pipeline it had written.
// RUN: rm -rf %t && mkdir -p %t
//
// The whole pipeline, replayed from its input (kernel-to-block fails: a
// pooling window has no block-graph form).
// RUN: not mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/out cubin=false" --mlir-pass-pipeline-crash-reproducer=%t/repro.mlir 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: FileCheck %s --check-prefix=REPRO < %t/repro.mlir
// RUN: not mirage-opt %t/repro.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=REPLAY
//
// The failing pass alone, on the IR it saw (a local reproducer), here the
// last one: emit-gpu-artifacts without a toolkit to link libdevice from.
// RUN: not mirage-opt %S/../GpuLowering/mirage-to-ptx.mlir --mirage-to-ptx="target=sm_80 output=%t/out toolkit=%t/no-toolkit cubin=false" --mlir-disable-threading --mlir-pass-pipeline-crash-reproducer=%t/local.mlir --mlir-pass-pipeline-local-reproducer 2>&1 | FileCheck %s --check-prefix=FAIL-LOCAL
// RUN: FileCheck %s --check-prefix=LOCAL < %t/local.mlir
// RUN: not mirage-opt %t/local.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=REPLAY-LOCAL

// FAIL: error: 'kernel.pool2d' op has no block-graph form
// FAIL: reproducer generated at `{{.*}}repro.mlir`
// REPRO: func.func @f(
// REPRO: graph.max_pool2d
// REPRO: pipeline: "builtin.module(graph-to-kernel, kernel-to-block{target=sm_80}, thread-to-arith, block-to-gpu{target=sm_80 threads=128}, kernel-to-gpu, gpu.module(canonicalize{{.*}},cse,convert-scf-to-cf{{.*}},expand-strided-metadata,lower-affine,convert-nvgpu-to-nvvm,convert-gpu-to-nvvm{{.*}},extern-dynamic-shared-memory), reconcile-unrealized-casts, attach-gpu-target{target=sm_80}, emit-gpu-artifacts{{.*}})"
// REPLAY: repro.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'kernel.pool2d' op has no block-graph form

// FAIL-LOCAL: error: emit-gpu-artifacts: the CUDA toolkit '{{.*}}no-toolkit' has no
// LOCAL: gpu.module @mirage_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">]
// LOCAL: pipeline: "builtin.module(emit-gpu-artifacts{cubin=false output={{.*}}out toolkit={{.*}}no-toolkit})"
// REPLAY-LOCAL: local.mlir:{{[0-9]+}}:{{[0-9]+}}: error: emit-gpu-artifacts: the CUDA toolkit '{{.*}}no-toolkit' has no

func.func @f(%x: tensor<1x4x8x8xf16>) -> tensor<1x4x4x4xf16> {
  %p = graph.max_pool2d %x, kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x4x8x8xf16> -> tensor<1x4x4x4xf16>
  return %p : tensor<1x4x4x4xf16>
}
