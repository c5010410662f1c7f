// --block-to-gpu generates each kernel for the chip's instructions
// (docs/GpuLowering.md, "Chips"; block-to-gpu-smem.mlir: its shared memory).
//
// sm_80 and later: cp.async copies and one mma.sync m16n8k16 per 16-deep
// step. sm_75 (Turing) has neither: 16-byte vector loads and stores, and
// two mma.sync m16n8k8 per step, the first on columns 0-7 of the A
// fragment (its registers a0, a1) and rows 0-7 of B (b0), the second on the
// next eight (a2, a3; b1), accumulating into the first's result. Whole
// fragments come from shared memory with one ldmatrix each (x4 for A, x2
// transposed for B; Turing has ldmatrix).
// RUN: mirage-opt %s --block-to-gpu=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %s --block-to-gpu=target=sm_86 | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %s --block-to-gpu=target=sm_120 | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %s --block-to-gpu=target=sm_75 | FileCheck %s --check-prefix=SM75

// SM80-LABEL: gpu.func @mm_0
// SM80: nvgpu.device_async_copy %arg0
// SM80: nvvm.cp.async.commit.group
// SM80: nvvm.cp.async.wait.group 0
// SM80: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// SM80: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = true}
// SM80: nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// SM80-NOT: k = 8>

// SM75-LABEL: gpu.func @mm_0
// SM75-NOT: nvgpu.device_async_copy
// SM75-NOT: cp.async
// SM75: vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x64xf16>, vector<8xf16>
// SM75: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>, vector<8xf16>
// SM75: %[[LA:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<16x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// SM75: %[[LB:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {numTiles = 2 : i32, transpose = true} : memref<32x16xf16, strided<[24, 1]>, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// SM75: %[[A0:.*]] = vector.extract %[[LA]][0]
// SM75: %[[A1:.*]] = vector.extract %[[LA]][1]
// SM75: %[[A2:.*]] = vector.extract %[[LA]][2]
// SM75: %[[A3:.*]] = vector.extract %[[LA]][3]
// SM75: %[[B0:.*]] = vector.extract %[[LB]][0]
// SM75: %[[B1:.*]] = vector.extract %[[LB]][1]
// SM75: %[[HALF:.*]] = nvvm.mma.sync A[%[[A0]], %[[A1]]]  B[%[[B0]]]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>
// SM75: %[[E0:.*]] = llvm.extractvalue %[[HALF]][0]
// SM75-NEXT: %[[D0:.*]] = llvm.inline_asm has_side_effects "", "=f,0" %[[E0]]
// SM75: %[[E1:.*]] = llvm.extractvalue %[[HALF]][1]
// SM75-NEXT: %[[D1:.*]] = llvm.inline_asm has_side_effects "", "=f,0" %[[E1]]
// SM75: %[[E2:.*]] = llvm.extractvalue %[[HALF]][2]
// SM75-NEXT: %[[D2:.*]] = llvm.inline_asm has_side_effects "", "=f,0" %[[E2]]
// SM75: %[[E3:.*]] = llvm.extractvalue %[[HALF]][3]
// SM75-NEXT: %[[D3:.*]] = llvm.inline_asm has_side_effects "", "=f,0" %[[E3]]
// SM75: nvvm.mma.sync A[%[[A2]], %[[A3]]]  B[%[[B1]]]  C[%[[D0]], %[[D1]], %[[D2]], %[[D3]]]  {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>
// SM75-NOT: k = 16>
func.func @mm(%X: tensor<16x64xf16>, %W: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 2
      : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16> {
  ^bb0(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<16x32xf16>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf16> -> !block.tile<32x16xf16>
    %mm = block.matmul %xt, %wt : (!block.tile<16x32xf16>, !block.tile<32x16xf16>) -> !block.tile<16x16xf16>
    %acc = block.accum sum %mm : !block.tile<16x16xf16> -> !block.tile<16x16xf16>
    %out = block.output %acc omap = <x: 1> : !block.tile<16x16xf16> -> tensor<16x32xf16>
    block.yield %out : tensor<16x32xf16>
  }
  return %Y : tensor<16x32xf16>
}

