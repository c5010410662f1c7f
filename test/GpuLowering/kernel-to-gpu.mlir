// --kernel-to-gpu turns a function of kernel.launch and kernel.reshape into
// host code on buffers: results become output arguments written in place,
// intermediates memref.alloc/dealloc, reshapes views, launches
// gpu.launch_func.
// RUN: mirage-opt %s --kernel-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @two_kernels(
  // CHECK-SAME: %[[X:.*]]: memref<16x64xf16>, %[[W:.*]]: memref<64x32xf16>, %[[OUT:.*]]: memref<16x32xf16> {mirage.output = 0 : i64})
  // CHECK-NOT: ->
  // CHECK: %[[T:.*]] = memref.alloc() : memref<16x64xf16>
  // CHECK: gpu.launch_func  @mirage_kernels::@two_kernels_0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  dynamic_shared_memory_size %{{.*}} args(%[[X]] : memref<16x64xf16>, %[[T]] : memref<16x64xf16>)
  // CHECK: %[[V:.*]] = memref.reinterpret_cast %[[T]] to offset: [0], sizes: [16, 2, 32], strides: [64, 32, 1] : memref<16x64xf16> to memref<16x2x32xf16>
  // CHECK: gpu.launch_func  @mirage_kernels::@two_kernels_1 {{.*}} args(%[[V]] : memref<16x2x32xf16>, %[[W]] : memref<64x32xf16>, %[[OUT]] : memref<16x32xf16>)
  // CHECK: memref.dealloc %[[T]] : memref<16x64xf16>
  // CHECK-NEXT: return
  func.func @two_kernels(%X: tensor<16x64xf16>, %W: tensor<64x32xf16>) -> tensor<16x32xf16> {
    %t = kernel.launch @mirage_kernels::@two_kernels_0(%X) grid = [16, 1, 1] block = [128, 1, 1] dynamic_shared_memory = 2048 : (tensor<16x64xf16>) -> tensor<16x64xf16>
    %v = kernel.reshape %t : tensor<16x64xf16> -> tensor<16x2x32xf16>
    %y = kernel.launch @mirage_kernels::@two_kernels_1(%v, %W) grid = [2, 1, 1] block = [128, 1, 1] dynamic_shared_memory = 4192 : (tensor<16x2x32xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
    return %y : tensor<16x32xf16>
  }
  gpu.module @mirage_kernels {
    gpu.func @two_kernels_0(%a: memref<16x64xf16>, %b: memref<16x64xf16>) kernel {
      gpu.return
    }
    gpu.func @two_kernels_1(%a: memref<16x2x32xf16>, %b: memref<64x32xf16>, %c: memref<16x32xf16>) kernel {
      gpu.return
    }
  }
}

// -----

// A returned argument, a tensor returned twice and a returned view are
// copied into their output buffers by copy kernels launched last, one per
// buffer type, added to @mirage_kernels.
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @returns_input(
  // CHECK-SAME: %[[X:[^:]*]]: memref<16x64xf16>, %[[O0:[^:]*]]: memref<16x64xf16> {mirage.output = 0 : i64}, %[[O1:[^:]*]]: memref<16x64xf16> {mirage.output = 1 : i64}, %[[O2:[^:]*]]: memref<16x64xf16> {mirage.output = 2 : i64}, %[[O3:[^:]*]]: memref<1024xf16> {mirage.output = 3 : i64})
  // CHECK: gpu.launch_func  @mirage_kernels::@k {{.*}} args(%[[X]] : memref<16x64xf16>, %[[O0]] : memref<16x64xf16>)
  // CHECK: %[[V:.*]] = memref.reinterpret_cast %[[O0]] to offset: [0], sizes: [1024], strides: [1]
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : index
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: gpu.launch_func  @mirage_kernels::@copy_f16_16_64 blocks in (%[[C8]], %[[C1]], %[[C1]]) threads in (%[[C128]], %[[C1]], %[[C1]]) dynamic_shared_memory_size %[[C0]] args(%[[X]] : memref<16x64xf16>, %[[O1]] : memref<16x64xf16>)
  // CHECK: gpu.launch_func  @mirage_kernels::@copy_f16_16_64 {{.*}} args(%[[O0]] : memref<16x64xf16>, %[[O2]] : memref<16x64xf16>)
  // CHECK: gpu.launch_func  @mirage_kernels::@copy_f16_1024 {{.*}} args(%[[V]] : memref<1024xf16>, %[[O3]] : memref<1024xf16>)
  // CHECK-NEXT: return
  // CHECK: gpu.func @copy_f16_16_64(%[[S:[^:]*]]: memref<16x64xf16>, %[[D:[^:]*]]: memref<16x64xf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
  // CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK: %[[COL:.*]] = arith.remui %[[I]], %{{.*}} : index
  // CHECK: %[[ROW:.*]] = arith.divui %[[I]], %{{.*}} : index
  // CHECK: %[[E:.*]] = memref.load %[[S]][%[[ROW]], %[[COL]]] : memref<16x64xf16>
  // CHECK: memref.store %[[E]], %[[D]][%[[ROW]], %[[COL]]] : memref<16x64xf16>
  // CHECK: gpu.func @copy_f16_1024(
  func.func @returns_input(%X: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>, tensor<1024xf16>) {
    %t = kernel.launch @mirage_kernels::@k(%X) grid = [1, 1, 1] block = [32, 1, 1] dynamic_shared_memory = 0 : (tensor<16x64xf16>) -> tensor<16x64xf16>
    %v = kernel.reshape %t : tensor<16x64xf16> -> tensor<1024xf16>
    return %t, %X, %t, %v : tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>, tensor<1024xf16>
  }
  gpu.module @mirage_kernels {
    gpu.func @k(%a: memref<16x64xf16>, %b: memref<16x64xf16>) kernel {
      gpu.return
    }
  }
}

// -----

// A function of views alone gets a kernel module of its own, with the
// container attribute, and records its reference for the runners.
// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @view_only(
// CHECK-SAME: %[[X:.*]]: memref<4x1xf32>, %[[O:.*]]: memref<4xf32> {mirage.output = 0 : i64})
// CHECK-SAME: mirage.reference
// CHECK: %[[V:.*]] = memref.reinterpret_cast %[[X]]
// CHECK: gpu.launch_func  @mirage_kernels::@copy_f32_4 {{.*}} args(%[[V]] : memref<4xf32>, %[[O]] : memref<4xf32>)
// A function that is not at the kernel level is left alone.
// CHECK: func.func @graph_level(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK: gpu.module @mirage_kernels
// CHECK: gpu.func @copy_f32_4(
func.func @view_only(%x: tensor<4x1xf32>) -> tensor<4xf32> {
  %v = kernel.reshape %x : tensor<4x1xf32> -> tensor<4xf32>
  return %v : tensor<4xf32>
}
func.func @graph_level(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @unknown_kernel(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.launch' op launches @mirage_kernels::@missing, which the module does not define}}
  %t = kernel.launch @mirage_kernels::@missing(%X) grid = [1, 1, 1] block = [32, 1, 1] dynamic_shared_memory = 0 : (tensor<16x64xf16>) -> tensor<16x64xf16>
  return %t : tensor<16x64xf16>
}

// -----

func.func @predefined(%X: tensor<16x64xf16>, %W: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %t = kernel.launch @mirage_kernels::@k(%X) grid = [1, 1, 1] block = [32, 1, 1] dynamic_shared_memory = 0 : (tensor<16x64xf16>) -> tensor<16x64xf16>
  // expected-error @+1 {{'kernel.binary' op cannot be launched from the host: run --kernel-to-block and --block-to-gpu first}}
  %y = kernel.binary add %t, %W : (tensor<16x64xf16>, tensor<16x64xf16>) -> tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}
gpu.module @mirage_kernels {
  gpu.func @k(%a: memref<16x64xf16>, %b: memref<16x64xf16>) kernel {
    gpu.return
  }
}

// -----

// A launch with a malformed block is rejected by kernel.launch's verifier.
func.func @bad_block(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.launch' op block has more than 1024 threads}}
  %t = kernel.launch @mirage_kernels::@k(%X) grid = [1, 1, 1] block = [1024, 2, 1] dynamic_shared_memory = 0 : (tensor<16x64xf16>) -> tensor<16x64xf16>
  return %t : tensor<16x64xf16>
}

// -----

// Buffer sizes and view strides are products of the shapes: a tensor no GPU
// memory holds is an error before any of them is formed.
module attributes {gpu.container_module} {
  // expected-error @+1 {{device tensor [1099511627776] has 1099511627776 elements, more than the limit of 274877906944 (2^38), more than any GPU's memory holds}}
  func.func @huge(%x: tensor<1099511627776xf32>) -> tensor<1048576x1048576xf32> {
    %v = kernel.reshape %x : tensor<1099511627776xf32> -> tensor<1048576x1048576xf32>
    %y = kernel.launch @mirage_kernels::@k(%v) grid = [1, 1, 1] block = [32, 1, 1] dynamic_shared_memory = 0 : (tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32>
    return %y : tensor<1048576x1048576xf32>
  }
  gpu.module @mirage_kernels {
    gpu.func @k(%a: memref<1048576x1048576xf32>, %b: memref<1048576x1048576xf32>) kernel {
      gpu.return
    }
  }
}
