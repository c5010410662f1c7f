// The indexing kernels that kernel-to-block leaves become kernels that
// kernel-to-gpu writes itself, launched where the op stood: one thread per
// output element in a grid-stride loop, the index checked unsigned against
// the extent it indexes (a negative one is huge) and trap outside it.
// RUN: mirage-opt %s --kernel-to-gpu | FileCheck %s

// CHECK-LABEL: func.func @embedding(
// CHECK-SAME: %[[W:.*]]: memref<50x16xf32>, %[[I:.*]]: memref<2x7xi64>, %[[T:.*]]: memref<7x16xf32>, %[[O:.*]]: memref<2x7x16xf32> {mirage.output = 0 : i64})
// CHECK: %[[E:.*]] = memref.alloc() : memref<2x7x16xf32>
// CHECK: gpu.launch_func @mirage_kernels::@gather blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) {{.*}} args(%[[W]] : memref<50x16xf32>, %[[I]] : memref<2x7xi64>, %[[E]] : memref<2x7x16xf32>)
// CHECK: gpu.launch_func @mirage_kernels::@k_0 {{.*}} args(%[[E]] : memref<2x7x16xf32>, %[[T]] : memref<7x16xf32>, %[[O]] : memref<2x7x16xf32>)
// CHECK: memref.dealloc %[[E]]

// CHECK-LABEL: gpu.func @gather(
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %c224 step
// CHECK: %[[X:.*]] = memref.load %arg1[%{{.*}}, %{{.*}}] : memref<2x7xi64>
// CHECK: %[[P:.*]] = arith.index_cast %[[X]] : i64 to index
// CHECK: %[[OUT:.*]] = arith.cmpi uge, %[[P]], %c50 : index
// CHECK: scf.if %[[OUT]] {
// CHECK-NEXT: llvm.intr.trap
// CHECK: memref.load %arg0[%[[P]], %{{.*}}] : memref<50x16xf32>
// CHECK: memref.store

// CHECK-LABEL: gpu.func @one_hot(
// CHECK: memref.load %arg0[%{{.*}}] : memref<5xi32>
// CHECK: arith.cmpi uge, %{{.*}}, %c4{{.*}} : index
// CHECK: llvm.intr.trap
// CHECK: %[[HIT:.*]] = arith.cmpi eq
// CHECK: arith.select %[[HIT]], %{{.*}}, %{{.*}} : f16

// CHECK-LABEL: gpu.func @gather_elements(

func.func @embedding(%wte: tensor<50x16xf32>, %ids: tensor<2x7xi64>, %wpe: tensor<7x16xf32>) -> tensor<2x7x16xf32> {
  %e = kernel.gather %wte, %ids, axis = 0 : (tensor<50x16xf32>, tensor<2x7xi64>) -> tensor<2x7x16xf32>
  %y = kernel.launch @mirage_kernels::@k_0(%e, %wpe) grid = [1, 1, 1] block = [128, 1, 1] dynamic_shared_memory = 0 : (tensor<2x7x16xf32>, tensor<7x16xf32>) -> tensor<2x7x16xf32>
  return %y : tensor<2x7x16xf32>
}

func.func @mask(%i: tensor<5xi32>) -> tensor<5x4xf16> {
  %m = kernel.one_hot %i : tensor<5xi32> -> tensor<5x4xf16>
  return %m : tensor<5x4xf16>
}

func.func @take(%x: tensor<3x8xbf16>, %i: tensor<3x2xi64>) -> tensor<3x2xbf16> {
  %g = kernel.gather_elements %x, %i, axis = 1 : (tensor<3x8xbf16>, tensor<3x2xi64>) -> tensor<3x2xbf16>
  return %g : tensor<3x2xbf16>
}

gpu.module @mirage_kernels {
  gpu.func @k_0(%a: memref<2x7x16xf32>, %b: memref<7x16xf32>, %c: memref<2x7x16xf32>) kernel {
    gpu.return
  }
}
