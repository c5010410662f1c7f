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

module attributes {gpu.container_module} {
  func.func @returns_input(%X: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
    %t = kernel.launch @mirage_kernels::@k(%X) grid = [1, 1, 1] block = [32, 1, 1] dynamic_shared_memory = 0 : (tensor<16x64xf16>) -> tensor<16x64xf16>
    // expected-error @+1 {{'func.return' op returns operand #1, which no kernel.launch produces (an argument or a reshape view); the host code has no copy for it}}
    return %t, %X : tensor<16x64xf16>, tensor<16x64xf16>
  }
  gpu.module @mirage_kernels {
    gpu.func @k(%a: memref<16x64xf16>, %b: memref<16x64xf16>) kernel {
      gpu.return
    }
  }
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
