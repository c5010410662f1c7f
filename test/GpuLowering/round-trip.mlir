// The output of every lowering stage parses back in mirage-opt: each stage
// below reads the text the one before printed (before, the nvgpu dialect
// that --block-to-gpu emits was not registered, so its output did not
// parse). The last stages are the upstream conversions of --mirage-to-ptx.
// REQUIRES: ptxas
// (the CUDA toolkit: the serializer links its libdevice)
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --graph-to-kernel --fuse-thread-chains \
// RUN:   | mirage-opt --kernel-to-block=target=sm_80 \
// RUN:   | mirage-opt --thread-to-arith \
// RUN:   | mirage-opt --block-to-gpu=target=sm_80 \
// RUN:   | mirage-opt --kernel-to-gpu \
// RUN:   | mirage-opt --pass-pipeline='builtin.module(gpu.module(canonicalize,cse,convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-nvgpu-to-nvvm,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},extern-dynamic-shared-memory),reconcile-unrealized-casts)' \
// RUN:   | mirage-opt --attach-gpu-target \
// RUN:   | mirage-opt --emit-gpu-artifacts='output=%t/stages cubin=false' \
// RUN:   | mirage-opt | FileCheck %s
// The same through the one flag, and sm_75's kernels (no nvgpu).
// RUN: mirage-opt %s --mirage-to-ptx='target=sm_80 output=%t/one cubin=false' | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --mirage-to-ptx='target=sm_75 output=%t/turing cubin=false' | mirage-opt | FileCheck %s
// Both ways give the same PTX.
// RUN: diff %t/stages.ptx %t/one.ptx

// CHECK: func.func @f(
// CHECK: gpu.launch_func @mirage_kernels::@f_0
// CHECK: gpu.module @mirage_kernels [#nvvm.target<
// CHECK: llvm.func @f_0(

func.func @f(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>, %v: tensor<16x32xf32>) -> (tensor<16x32xf16>, tensor<16x1xf32>) {
  %a = graph.matmul %x, %w : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %s = graph.relu %a : tensor<16x32xf16>
  %e = graph.mul %s, %a : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  %r = graph.reduce_sum %v, dim = 1 : tensor<16x32xf32> -> tensor<16x1xf32>
  return %e, %r : tensor<16x32xf16>, tensor<16x1xf32>
}
