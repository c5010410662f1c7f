// RUN: mirage-opt %s --emit-gpu-artifacts="output=%t" -split-input-file -verify-diagnostics
// RUN: not mirage-opt %s --emit-gpu-artifacts 2>&1 | FileCheck %s --check-prefix=NOOUT
// NOOUT: error: emit-gpu-artifacts needs output=<path prefix>

// expected-error @+1 {{the module has no gpu.module @mirage_kernels; run --block-to-gpu first}}
module {
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
