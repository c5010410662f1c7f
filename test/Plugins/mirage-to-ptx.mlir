// The mirage-to-ptx pipeline runs in upstream mlir-opt through the pass
// plugin, and writes the same PTX and manifest as mirage-opt.
// REQUIRES: ptxas
// (the CUDA toolkit: the serializer links its libdevice)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %upstream_mlir_opt %s --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so --load-pass-plugin=%mirage_libs/MiragePassPlugin.so --pass-pipeline='builtin.module(mirage-to-ptx{target=sm_80 output=%t/plugin cubin=false})' | FileCheck %s --check-prefix=HOST
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/tool cubin=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/plugin.ptx
// RUN: diff %t/plugin.ptx %t/tool.ptx
// RUN: sed 's/plugin.ptx/tool.ptx/' %t/plugin.json | diff - %t/tool.json
// RUN: mirage-gpu-run %t/plugin.json --check-only | FileCheck %s --check-prefix=VALID
// Its option errors read the same.
// RUN: not %upstream_mlir_opt %s --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so --load-pass-plugin=%mirage_libs/MiragePassPlugin.so --pass-pipeline='builtin.module(mirage-to-ptx{target=sm_70 output=%t/bad})' 2>&1 | FileCheck %s --check-prefix=CHIP

// HOST: func.func @mlp(
// HOST: gpu.launch_func @mirage_kernels::@mlp_0
// HOST: gpu.module @mirage_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">]
// PTX: .version 7.0
// PTX: .target sm_80
// PTX: .visible .entry mlp_0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// VALID: plugin.json: valid: function "mlp", 2 inputs, 1 output
// CHIP: mirage-to-ptx: chip 'sm_70' is not supported

func.func @mlp(%X: tensor<16x64xf16>, %W: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %a = graph.matmul %X, %W : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  %r = graph.relu %a : tensor<16x32xf16>
  return %r : tensor<16x32xf16>
}
