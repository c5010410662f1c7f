// RUN: mirage-opt %s --emit-gpu-artifacts="output=%t" -split-input-file -verify-diagnostics
// RUN: not mirage-opt %s --emit-gpu-artifacts 2>&1 | FileCheck %s --check-prefix=NOOUT
// NOOUT: error: emit-gpu-artifacts: output must name a path prefix

// expected-error @+1 {{the module defines no function to lower; a manifest describes at least one}}
module {
}

// -----

// A function left unlowered is named.
module {
  // expected-error @+1 {{the module has no gpu.module @mirage_kernels; run --block-to-gpu first}}
  func.func @graph_level(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = graph.exp %x : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{needs exactly one #nvvm.target; run --nvvm-attach-target first}}
  gpu.module @mirage_kernels {
  }
}

// -----

// 200 KiB of dynamic shared memory fits an H100 block but not an A100 one;
// the manifest would describe a launch that cannot run.
module attributes {gpu.container_module} {
  func.func @f(%a: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 204800 : i32
    // expected-error @+1 {{'gpu.launch_func' op needs 204800 bytes of dynamic shared memory per block; sm_80 allows 166912}}
    gpu.launch_func @mirage_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %smem args(%a : memref<16xf16>)
    return
  }
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_80">] {
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// A launch whose argument is not a buffer the manifest can name.
module attributes {gpu.container_module} {
  func.func @g(%a: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %sub = memref.subview %a[0] [8] [1] : memref<16xf16> to memref<8xf16, strided<[1]>>
    %cast = memref.cast %sub : memref<8xf16, strided<[1]>> to memref<8xf16>
    // expected-error @+1 {{'gpu.launch_func' op takes an operand that is no argument, memref.alloc or reshape view}}
    gpu.launch_func @mirage_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%cast : memref<8xf16>)
    return
  }
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// The chip of the target must be one of the table's (docs/GpuLowering.md,
// "Chips"): LLVM would otherwise abort on what the chip lacks.
module attributes {gpu.container_module} {
  // expected-error @+1 {{emit-gpu-artifacts: the #nvvm.target's chip 'sm_70' is not supported (Volta has neither cp.async nor mma.sync m16n8k8/m16n8k16, and ptxas of CUDA 13 no longer targets it); supported chips: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120}}
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_70">] {
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// Kernels generated for sm_80 (cp.async) under an sm_75 target: before, LLVM
// aborted in instruction selection.
module attributes {gpu.container_module} {
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_75", features = "+ptx65">] {
    llvm.func @k(%dst: !llvm.ptr<3>, %src: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @+1 {{'nvvm.cp.async.shared.global' op uses cp.async, which sm_75 does not have (sm_80 and later); generate the kernels for sm_75 (block-to-gpu target=sm_75)}}
      nvvm.cp.async.shared.global %dst, %src, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_75", features = "+ptx65">] {
    llvm.func @k(%a: vector<2xf16>, %b: vector<2xf16>, %c: f32) attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @+1 {{'nvvm.mma.sync' op uses mma.sync m16n8k16, which sm_75 does not have (sm_80 and later)}}
      %d = nvvm.mma.sync A[%a, %a, %a, %a]  B[%b, %b]  C[%c, %c, %c, %c]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      llvm.return
    }
  }
}

// -----

// Without "+ptx65" LLVM emits PTX 6.3 for sm_75, which has no m16n8k8.
module attributes {gpu.container_module} {
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_75">] {
    llvm.func @k(%a: vector<2xf16>, %b: vector<2xf16>, %c: f32) attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @+1 {{'nvvm.mma.sync' op uses mma.sync m16n8k8, which needs PTX ISA 6.5; the #nvvm.target asks for 6.3 (give it features = "+ptx65" or later)}}
      %d = nvvm.mma.sync A[%a, %a]  B[%b]  C[%c, %c, %c, %c]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      llvm.return
    }
  }
}

// -----

// A symbol name that is no PTX identifier: LLVM's NVPTX printer aborted on
// it ("Symbol name with unsupported characters").
module attributes {gpu.container_module} {
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_80">] {
    // expected-error @+1 {{'llvm.func' op is named "weird name", which is no PTX identifier (letters, digits, '_' and '$'); LLVM's NVPTX backend cannot emit it}}
    llvm.func @"weird name"(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// Launches beyond the grid and block limits of every GPU.
module attributes {gpu.container_module} {
  func.func @grid(%a: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c70000 = arith.constant 70000 : index
    // expected-error @+1 {{'gpu.launch_func' op has a grid [1, 70000, 1] that no GPU launches: 1 to 2147483647 blocks along x, 1 to 65535 along y and z}}
    gpu.launch_func @mirage_kernels::@k blocks in (%c1, %c70000, %c1) threads in (%c128, %c1, %c1) args(%a : memref<16xf16>)
    return
  }
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @block(%a: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-error @+1 {{'gpu.launch_func' op has a block [64, 64, 1] that no GPU launches: 1 to 1024 threads}}
    gpu.launch_func @mirage_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c64, %c1) args(%a : memref<16xf16>)
    return
  }
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// A buffer no GPU memory holds: its byte count is not formed.
module attributes {gpu.container_module} {
  // expected-error @+1 {{buffer arg0 [1048576, 1048576] has 1099511627776 elements, more than the limit of 274877906944 (2^38), more than any GPU's memory holds}}
  func.func @huge(%a: memref<1048576x1048576xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @mirage_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1048576x1048576xf32>)
    return
  }
  gpu.module @mirage_kernels [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
