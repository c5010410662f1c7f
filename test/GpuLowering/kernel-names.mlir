// Function names that are no PTX identifiers: the kernels get the name's
// letters, digits and underscores (others become '_'; a 'k' goes in front
// unless it starts with a letter, so that no kernel clashes with the
// toolchain's names, like the __dynamic_shmem__0 global of
// convert-gpu-to-nvvm), numbered on until unique. The manifest names
// the same kernels. Before, @"weird name" aborted in LLVM's NVPTX printer.
// REQUIRES: ptxas
// (the CUDA toolkit: the serializer links its libdevice)
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --graph-to-kernel --kernel-to-block --thread-to-arith --block-to-gpu | FileCheck %s --check-prefix=KERNELS
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/names cubin=false" -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t/names.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/names.json
// RUN: mirage-gpu-run %t/names.json --check-only | FileCheck %s --check-prefix=VALID
// The lowered module parses back.
// RUN: mirage-opt %t/lowered.mlir -o /dev/null

// KERNELS: kernel.launch @mirage_kernels::@weird_name_0(
// KERNELS: kernel.launch @mirage_kernels::@weird_name_1(
// KERNELS: kernel.launch @mirage_kernels::@k9lives____0(
// KERNELS: kernel.launch @mirage_kernels::@k__dynamic_shmem__0(
// KERNELS: gpu.func @weird_name_0(
// KERNELS: gpu.func @weird_name_1(
// KERNELS: gpu.func @k9lives____0(
// KERNELS: gpu.func @k__dynamic_shmem__0(

// PTX-DAG: .visible .entry weird_name_0(
// PTX-DAG: .visible .entry weird_name_1(
// PTX-DAG: .visible .entry k9lives____0(
// PTX-DAG: .visible .entry k__dynamic_shmem__0(

// MANIFEST: "kernel": "weird_name_0"
// MANIFEST: "name": "weird name"
// MANIFEST: "kernel": "weird_name_1"
// MANIFEST: "name": "weird_name"
// MANIFEST: "kernel": "k9lives____0"
// MANIFEST: "name": "9lives.é"
// MANIFEST: "kernel": "k__dynamic_shmem__0"
// MANIFEST: "name": "__dynamic_shmem_"

// VALID: valid: function "weird name"
// VALID: valid: function "weird_name"
// VALID: valid: function "9lives.é"
// VALID: valid: function "__dynamic_shmem_"

func.func @"weird name"(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = graph.relu %x : tensor<16x64xf16>
  return %0 : tensor<16x64xf16>
}
func.func @weird_name(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = graph.relu %x : tensor<16x64xf16>
  return %0 : tensor<16x64xf16>
}
func.func @"9lives.é"(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = graph.relu %x : tensor<16x64xf16>
  return %0 : tensor<16x64xf16>
}
func.func @__dynamic_shmem_(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = graph.relu %x : tensor<16x64xf16>
  return %0 : tensor<16x64xf16>
}
