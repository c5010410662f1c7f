// --extern-dynamic-shared-memory makes the zero-sized shared globals that
// --convert-gpu-to-nvvm creates for gpu.dynamic_shared_memory external
// declarations (an `.extern .shared` array in PTX) and leaves every other
// global alone.
// RUN: mirage-opt %s --extern-dynamic-shared-memory | FileCheck %s
// From gpu.dynamic_shared_memory, through the conversion:
// RUN: mirage-opt %s --convert-gpu-to-nvvm --extern-dynamic-shared-memory | FileCheck %s --check-prefix=CONVERTED
// Running it twice changes nothing more.
// RUN: mirage-opt %s --extern-dynamic-shared-memory --extern-dynamic-shared-memory | FileCheck %s

module attributes {gpu.container_module} {
  // CHECK-LABEL: gpu.module @kernels
  gpu.module @kernels {
    // CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // CHECK: llvm.mlir.global external @private_f32() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<0 x f32>
    llvm.mlir.global private @private_f32() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<0 x f32>
    // Static shared memory: a sized array.
    // CHECK: llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
    llvm.mlir.global internal @static_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
    // Not shared: global (1) and generic (0) address spaces.
    // CHECK: llvm.mlir.global internal @device_empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
    llvm.mlir.global internal @device_empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
    // CHECK: llvm.mlir.global internal @generic_empty() {addr_space = 0 : i32} : !llvm.array<0 x i8>
    llvm.mlir.global internal @generic_empty() {addr_space = 0 : i32} : !llvm.array<0 x i8>
    // With a value: a definition.
    // CHECK: llvm.mlir.global internal @initialized() {addr_space = 3 : i32} : !llvm.array<0 x i8> {
    llvm.mlir.global internal @initialized() {addr_space = 3 : i32} : !llvm.array<0 x i8> {
      %0 = llvm.mlir.zero : !llvm.array<0 x i8>
      llvm.return %0 : !llvm.array<0 x i8>
    }
    // Already a declaration, and one with a weak linkage: left as they are.
    // CHECK: llvm.mlir.global external @declared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global external @declared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // CHECK: llvm.mlir.global weak @weak_empty() {addr_space = 3 : i32} : !llvm.array<0 x i8>
    llvm.mlir.global weak @weak_empty() {addr_space = 3 : i32} : !llvm.array<0 x i8>
  }

  // CONVERTED: gpu.module @convert
  // CONVERTED: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  // CONVERTED: llvm.func @k(
  // CONVERTED: llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>
  gpu.module @convert {
    gpu.func @k(%out: memref<4xf32>) kernel {
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %view = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
      %v = memref.load %view[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
