// REQUIRES: ptxas
// --mirage-to-ptx from the graph level to PTX, cubin and the manifest, for
// both chips; the manifest is validated against its reference function by
// mirage-gpu-run (which needs no GPU for that).
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/mlp80" -o %t/lowered80.mlir
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_90 output=%t/mlp90" -o %t/lowered90.mlir
// RUN: FileCheck %s --check-prefix=PTX80 < %t/mlp80.ptx
// RUN: FileCheck %s --check-prefix=PTX90 < %t/mlp90.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/mlp90.json
// RUN: FileCheck %s --check-prefix=HOST < %t/lowered90.mlir
// RUN: test -s %t/mlp80.cubin && test -s %t/mlp90.cubin
// RUN: mirage-gpu-run %t/mlp90.json --check-only
// Without cubin=true only the PTX is written.
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_90 output=%t/ptxonly cubin=false" -o /dev/null
// RUN: test -s %t/ptxonly.ptx && not test -e %t/ptxonly.cubin

// silu(X W1) * (X W2) at a small size: two matmul kernels on tensor cores
// and one elementwise kernel after the default schedule.
func.func @mlp(%X: tensor<16x64xf16>, %W1: tensor<64x32xf16>, %W2: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %a = graph.matmul %X, %W1 : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %b = graph.matmul %X, %W2 : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %s = graph.silu %a : tensor<16x32xf16>
  %y = graph.mul %s, %b : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// PTX80: .target sm_80
// PTX80: .visible .entry mlp_0(
// PTX80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX80: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// PTX80: cp.async.wait_group 0;
// PTX80-NEXT: bar.sync
// PTX90: .target sm_90
// PTX90: .entry mlp_3(

// MANIFEST: "chip": "sm_90",
// MANIFEST: "cubin": "mlp90.cubin",
// MANIFEST: "format": "mirage-gpu-manifest",
// MANIFEST: "functions": [
// MANIFEST: "buffers": [
// MANIFEST: "name": "arg0",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "result0",
// MANIFEST-NEXT: "role": "output",
// MANIFEST: "name": "tmp0",
// MANIFEST-NEXT: "role": "temp",
// MANIFEST: "launches": [
// MANIFEST: "kernel": "mlp_0"
// MANIFEST: "kernel": "mlp_3"
// MANIFEST: "name": "mlp",
// MANIFEST: "reference": "module {\nfunc.func @mlp(
// MANIFEST: "ptx": "mlp90.ptx",
// MANIFEST: "version": 1

// The lowered module: host code on buffers, kernels in NVVM with the target.
// HOST: func.func @mlp(%{{.*}}: memref<16x64xf16>, %{{.*}}: memref<64x32xf16>, %{{.*}}: memref<64x32xf16>, %{{.*}}: memref<16x32xf16> {mirage.output = 0 : i64})
// HOST-COUNT-4: gpu.launch_func
// HOST: gpu.module @mirage_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">]
// HOST: llvm.func @mlp_0(
// HOST-SAME: nvvm.kernel
