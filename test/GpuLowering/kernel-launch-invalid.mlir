// kernel.launch (what --block-to-gpu emits) rejects a launch no GPU can
// make: grid y and z are at most 65535 blocks, block z at most 64 threads.
// RUN: mirage-opt %s -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
  func.func @grid_z(%x: tensor<16xf32>) -> tensor<16xf32> {
    // expected-error @+1 {{'kernel.launch' op grid [1, 1, 65536] has more than 65535 blocks along y or z}}
    %y = kernel.launch @mirage_kernels::@k(%x) grid = [1, 1, 65536] block = [32, 1, 1] dynamic_shared_memory = 0 : (tensor<16xf32>) -> tensor<16xf32>
    return %y : tensor<16xf32>
  }
  gpu.module @mirage_kernels {
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @block_z(%x: tensor<16xf32>) -> tensor<16xf32> {
    // expected-error @+1 {{'kernel.launch' op block [1, 1, 128] has more than 64 threads along z}}
    %y = kernel.launch @mirage_kernels::@k(%x) grid = [1, 1, 1] block = [1, 1, 128] dynamic_shared_memory = 0 : (tensor<16xf32>) -> tensor<16xf32>
    return %y : tensor<16xf32>
  }
  gpu.module @mirage_kernels {
  }
}

// -----

// The largest launch every GPU makes is fine.
module attributes {gpu.container_module} {
  func.func @largest(%x: tensor<16xf32>) -> tensor<16xf32> {
    %y = kernel.launch @mirage_kernels::@k(%x) grid = [2147483647, 65535, 65535] block = [16, 1, 64] dynamic_shared_memory = 0 : (tensor<16xf32>) -> tensor<16xf32>
    return %y : tensor<16xf32>
  }
  gpu.module @mirage_kernels {
  }
}
