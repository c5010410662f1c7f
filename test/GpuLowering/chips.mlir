// REQUIRES: ptxas
// Every chip of the table (docs/GpuLowering.md, "Chips") through the whole
// pipeline and ptxas: the PTX is in the chip's PTX ISA version, uses
// cp.async and mma.sync m16n8k16 from sm_80 on, and on sm_75 vector copies
// and mma.sync m16n8k8; ptxas assembles every kernel; every manifest
// checks against its PTX. chips-invalid.mlir has the rejected chips.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_75 output=%t/sm_75" -o /dev/null
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/sm_80" -o /dev/null
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_86 output=%t/sm_86" -o /dev/null
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_87 output=%t/sm_87" -o /dev/null
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_89 output=%t/sm_89" -o /dev/null
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_90 output=%t/sm_90" -o /dev/null
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_100 output=%t/sm_100" -o /dev/null
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_120 output=%t/sm_120" -o /dev/null
// RUN: FileCheck %s --check-prefix=SM75 < %t/sm_75.ptx
// RUN: FileCheck %s --check-prefixes=AMPERE,SM80 < %t/sm_80.ptx
// RUN: FileCheck %s --check-prefixes=AMPERE,SM86 < %t/sm_86.ptx
// RUN: FileCheck %s --check-prefixes=AMPERE,SM87 < %t/sm_87.ptx
// RUN: FileCheck %s --check-prefixes=AMPERE,SM89 < %t/sm_89.ptx
// RUN: FileCheck %s --check-prefixes=AMPERE,SM90 < %t/sm_90.ptx
// RUN: FileCheck %s --check-prefixes=AMPERE,SM100 < %t/sm_100.ptx
// RUN: FileCheck %s --check-prefixes=AMPERE,SM120 < %t/sm_120.ptx
// RUN: for c in sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_100 sm_120; do test -s %t/$c.cubin && mirage-gpu-run %t/$c.json --check-only || exit 1; done | FileCheck %s --check-prefix=VALID

// SM75: .version 6.5
// SM75-NEXT: .target sm_75
// SM75-NOT: cp.async
// SM75: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
// SM75-NOT: m16n8k16
// SM75-NOT: cp.async
// SM80: .version 7.0
// SM80-NEXT: .target sm_80
// SM86: .version 7.1
// SM86-NEXT: .target sm_86
// SM87: .version 7.4
// SM87-NEXT: .target sm_87
// SM89: .version 7.8
// SM89-NEXT: .target sm_89
// SM90: .version 7.8
// SM90-NEXT: .target sm_90
// SM100: .version 8.6
// SM100-NEXT: .target sm_100
// SM120: .version 8.7
// SM120-NEXT: .target sm_120
// AMPERE: cp.async.cg.shared.global
// AMPERE: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// AMPERE-NOT: m16n8k8
// VALID-COUNT-8: valid: function "mix", 4 inputs, 4 outputs

// Tensor-core and CUDA-core matmuls, reductions, normalizations and
// elementwise kernels in the three dtypes.
func.func @mix(%x: tensor<32x256xf16>, %w: tensor<256x64xf16>, %y: tensor<16x128xf32>, %z: tensor<8x512xbf16>)
    -> (tensor<32x64xf16>, tensor<16x128xf32>, tensor<8x1xbf16>, tensor<16x16xf32>) {
  %mm = graph.matmul %x, %w : (tensor<32x256xf16>, tensor<256x64xf16>) -> tensor<32x64xf16>
  %sm = graph.softmax %mm, dim = 1 : tensor<32x64xf16>
  %rn = graph.rms_norm %y : tensor<16x128xf32>
  %g = graph.gelu %rn : tensor<16x128xf32>
  %m = graph.reduce_max %z, dim = 1 : tensor<8x512xbf16> -> tensor<8x1xbf16>
  %yt = graph.transpose %y, perm = [1, 0] : tensor<16x128xf32> -> tensor<128x16xf32>
  %f = graph.matmul %y, %yt : (tensor<16x128xf32>, tensor<128x16xf32>) -> tensor<16x16xf32>
  return %sm, %g, %m, %f : tensor<32x64xf16>, tensor<16x128xf32>, tensor<8x1xbf16>, tensor<16x16xf32>
}
