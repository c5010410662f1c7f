// RUN: mirage-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// !block.tile
//===----------------------------------------------------------------------===//

// expected-error @+1 {{tile must have rank >= 1}}
func.func private @tile_rank0(!block.tile<f16>)

// -----

// expected-error @+1 {{tile dimensions must be >= 1, got 0}}
func.func private @tile_dim_zero(!block.tile<16x0xf16>)

// -----

// expected-error @+1 {{expected static shape}}
func.func private @tile_dim_dynamic(!block.tile<?x4xf16>)

// -----

// expected-error @+1 {{tile element type must be f16, bf16 or f32, got 'i32'}}
func.func private @tile_int(!block.tile<4xi32>)

// -----

// expected-error @+1 {{tile element type must be f16, bf16 or f32, got 'f64'}}
func.func private @tile_f64(!block.tile<4x4xf64>)

// -----

//===----------------------------------------------------------------------===//
// #block.grid_map and #block.loop_map
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected grid dimensions named x, y, z in order, got 'y'}}
func.func private @grid_map_starts_at_y() attributes {m = #block.grid_map<y: 0>}

// -----

// expected-error @+1 {{expected grid dimensions named x, y, z in order, got 'z'}}
func.func private @grid_map_skips_y() attributes {m = #block.grid_map<x: 0, z: 1>}

// -----

// expected-error @+1 {{expected grid dimensions named x, y, z in order, got 'x'}}
func.func private @grid_map_repeats_x() attributes {m = #block.grid_map<x: 0, x: 1>}

// -----

// expected-error @+1 {{expected grid dimensions named x, y, z in order, got 'w'}}
func.func private @grid_map_four_entries() attributes {m = #block.grid_map<x: 0, y: 1, z: 2, w: 3>}

// -----

// expected-error @+1 {{a grid map has one entry per grid dimension (1 to 3), got 0}}
func.func private @grid_map_empty() attributes {m = #block.grid_map<>}

// -----

// expected-error @+1 {{map entries are tensor dimensions or replicate, got -2}}
func.func private @grid_map_negative() attributes {m = #block.grid_map<x: 0, y: -2>}

// -----

// expected-error @+1 {{loop map entry must be a tensor dimension or replicate, got -5}}
func.func private @loop_map_negative() attributes {m = #block.loop_map<i: -5>}

// -----

// expected-error @+1 {{expected 'i'}}
func.func private @loop_map_name() attributes {m = #block.loop_map<j: 0>}

// -----

//===----------------------------------------------------------------------===//
// Block ops outside a block graph
//===----------------------------------------------------------------------===//

func.func @unary_in_func(%a: !block.tile<4x4xf16>) {
  // expected-error @+1 {{'block.unary' op must be directly inside a block graph (the body of a kernel.graph_def)}}
  %0 = block.unary exp %a : !block.tile<4x4xf16>
  return
}

// -----

func.func @input_in_func(%x: tensor<16x64xf16>) {
  // expected-error @+1 {{'block.input' op must be directly inside a block graph}}
  %0 = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
  return
}

// -----

func.func @accum_in_func(%a: !block.tile<4x4xf16>) {
  // expected-error @+1 {{'block.accum' op must be directly inside a block graph}}
  %0 = block.accum sum %a : !block.tile<4x4xf16> -> !block.tile<4x4xf16>
  return
}

// -----

func.func @output_in_func(%a: !block.tile<4x4xf16>) {
  // expected-error @+1 {{'block.output' op must be directly inside a block graph}}
  %0 = block.output %a omap = <x: 0> : !block.tile<4x4xf16> -> tensor<4x4xf16>
  return
}

// -----

func.func @matmul_in_func(%a: !block.tile<4x4xf16>) {
  // expected-error @+1 {{'block.matmul' op must be directly inside a block graph}}
  %0 = block.matmul %a, %a : (!block.tile<4x4xf16>, !block.tile<4x4xf16>) -> !block.tile<4x4xf16>
  return
}

// -----

func.func @yield_in_func() {
  // expected-error @+1 {{'block.yield' op must be directly inside a block graph}}
  block.yield
}

// -----

func.func @unary_in_nested_region(%a: !block.tile<4x4xf16>) {
  scf.execute_region {
    // expected-error @+1 {{'block.unary' op must be directly inside a block graph}}
    %0 = block.unary exp %a : !block.tile<4x4xf16>
    scf.yield
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// block.input
//===----------------------------------------------------------------------===//

func.func @input_not_an_argument(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    // expected-error @+1 {{which is not a device tensor taken by the kernel (an argument of the block graph)}}
    %t2 = block.input %o imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @input_non_float(%X: tensor<16x64xf16>, %I: tensor<16x64xi32>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'kernel.graph_def' op operand #1 must be variadic of statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<16x64xi32>'}}
  %Y = kernel.graph_def (%X, %I) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x64xi32>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %i: tensor<16x64xi32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @input_result_not_a_tile(%X: tensor<16x64xf16>) {
  kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<16x64xf16>) -> () {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op result #0 must be shared-memory tile, but got 'tensor<16x64xf16>'}}
    %t = "block.input"(%x) {imap = #block.grid_map<x: replicate>, fmap = #block.loop_map<i: replicate>} : (tensor<16x64xf16>) -> tensor<16x64xf16>
    block.yield
  }
  return
}

// -----

func.func @imap_too_long(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op imap has 2 entries for a 1-d grid}}
    %t = block.input %x imap = <x: 0, y: replicate> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @imap_too_short(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4, 1, 1] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op imap has 1 entries for a 3-d grid}}
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0, y: replicate, z: replicate> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @imap_dim_out_of_range(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op imap maps grid dimension x to dimension 2 of a rank-2 value}}
    %t = block.input %x imap = <x: 2> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @imap_same_dim_twice(%X: tensor<16x64xf16>) -> tensor<8x128xf16> {
  %Y = kernel.graph_def (%X) grid = [2, 2] forloop = 1
      : (tensor<16x64xf16>) -> tensor<8x128xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op imap maps grid dimensions x and y to the same dimension 0}}
    %t = block.input %x imap = <x: 0, y: 0> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<4x64xf16>
    %a = block.accum sum %t : !block.tile<4x64xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0, y: 1> : !block.tile<4x64xf16> -> tensor<8x128xf16>
    block.yield %o : tensor<8x128xf16>
  }
  return %Y : tensor<8x128xf16>
}

// -----

func.func @imap_same_dim_x_z(%X: tensor<16x64xf16>) -> tensor<32x32xf16> {
  %Y = kernel.graph_def (%X) grid = [2, 1, 2] forloop = 1
      : (tensor<16x64xf16>) -> tensor<32x32xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op imap maps grid dimensions x and z to the same dimension 1}}
    %t = block.input %x imap = <x: 1, y: replicate, z: 1> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x16xf16>
    %a = block.accum sum %t : !block.tile<16x16xf16> -> !block.tile<16x16xf16>
    %o = block.output %a omap = <x: 1, y: replicate, z: 0> : !block.tile<16x16xf16> -> tensor<32x32xf16>
    block.yield %o : tensor<32x32xf16>
  }
  return %Y : tensor<32x32xf16>
}

// -----

func.func @fmap_out_of_range(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op fmap maps the loop to dimension 2 of a rank-2 tensor}}
    %t = block.input %x imap = <x: 0> fmap = <i: 2> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @grid_does_not_divide(%X: tensor<16x64xf16>) -> tensor<15x64xf16> {
  %Y = kernel.graph_def (%X) grid = [3] forloop = 1
      : (tensor<16x64xf16>) -> tensor<15x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op tensor dimension 0 of size 16 is partitioned by grid dimension x (3 blocks) into 3 parts, which does not divide it}}
    %t = block.input %x imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<5x64xf16>
    %a = block.accum sum %t : !block.tile<5x64xf16> -> !block.tile<5x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<5x64xf16> -> tensor<15x64xf16>
    block.yield %o : tensor<15x64xf16>
  }
  return %Y : tensor<15x64xf16>
}

// -----

func.func @forloop_does_not_divide(%X: tensor<16x64xf16>) -> tensor<16x63xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 3
      : (tensor<16x64xf16>) -> tensor<16x63xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op tensor dimension 1 of size 64 is partitioned by the for-loop (3 iterations) into 3 parts, which does not divide it}}
    %t = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<16x21xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<16x21xf16> -> !block.tile<16x63xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x63xf16> -> tensor<16x63xf16>
    block.yield %o : tensor<16x63xf16>
  }
  return %Y : tensor<16x63xf16>
}

// -----

func.func @grid_and_forloop_do_not_divide(%X: tensor<16x64xf16>) -> tensor<16x4xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 32
      : (tensor<16x64xf16>) -> tensor<16x4xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op tensor dimension 1 of size 64 is partitioned by grid dimension x (4 blocks) and the for-loop (32 iterations) into 128 parts, which does not divide it}}
    %t = block.input %x imap = <x: 1> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<16x1xf16>
    %a = block.accum sum %t : !block.tile<16x1xf16> -> !block.tile<16x1xf16>
    %o = block.output %a omap = <x: 1> : !block.tile<16x1xf16> -> tensor<16x4xf16>
    block.yield %o : tensor<16x4xf16>
  }
  return %Y : tensor<16x4xf16>
}

// -----

func.func @tile_shape_wrong(%X: tensor<16x64xf16>) -> tensor<64x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<64x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op tile type '!block.tile<16x16xf16>' does not follow from the maps: expected '!block.tile<4x16xf16>'}}
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<16x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<16x16xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<64x64xf16>
    block.yield %o : tensor<64x64xf16>
  }
  return %Y : tensor<64x64xf16>
}

// -----

func.func @tile_rank_wrong(%X: tensor<16x64xf16>) -> tensor<1024xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<1024xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op tile type '!block.tile<1024xf16>' does not follow from the maps: expected '!block.tile<16x64xf16>'}}
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<1024xf16>
    %a = block.accum sum %t : !block.tile<1024xf16> -> !block.tile<1024xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<1024xf16> -> tensor<1024xf16>
    block.yield %o : tensor<1024xf16>
  }
  return %Y : tensor<1024xf16>
}

// -----

func.func @tile_element_type_wrong(%X: tensor<16x64xf16>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf32> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.input' op tile type '!block.tile<16x64xf32>' does not follow from the maps: expected '!block.tile<16x64xf16>'}}
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf32>
    %a = block.accum sum %t : !block.tile<16x64xf32> -> !block.tile<16x64xf32>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// block.accum
//===----------------------------------------------------------------------===//

func.func @accum_sum_with_dim(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op only concat accumulators take a dimension}}
    %a = block.accum sum %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @accum_max_with_dim(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op only concat accumulators take a dimension}}
    %a = block.accum max %t, dim = 0 : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @accum_sum_result_type(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op result type '!block.tile<4x64xf16>' must equal the accumulated tile type '!block.tile<4x16xf16>' (or have f32 elements for f16 or bf16 ones)}}
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @accum_max_element_type(%X: tensor<16x64xf32>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf32>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf32>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf32> -> !block.tile<4x16xf32>
    // An accumulator may widen f16 to f32, never narrow.
    // expected-error @+1 {{'block.accum' op result type '!block.tile<4x16xf16>' must equal the accumulated tile type '!block.tile<4x16xf32>' (or have f32 elements for f16 or bf16 ones)}}
    %a = block.accum max %t : !block.tile<4x16xf32> -> !block.tile<4x16xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @accum_concat_without_dim(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op concat accumulator needs `dim`}}
    %a = block.accum concat %t : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @accum_concat_dim_out_of_range(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{dimension 2 is out of range for rank 2}}
    %a = block.accum concat %t, dim = 2 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @accum_concat_dim_negative(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{dimension -1 is out of range for rank 2}}
    %a = block.accum concat %t, dim = -1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @accum_concat_wrong_shape(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op result type '!block.tile<16x16xf16>' does not concatenate 4 iterations along dimension 1: expected '!block.tile<4x64xf16>'}}
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<16x16xf16>
    %o = block.output %a omap = <x: 1> : !block.tile<16x16xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @accum_concat_element_type(%X: tensor<16x64xf16>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf32> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op result type '!block.tile<4x64xf32>' does not concatenate 4 iterations along dimension 1: expected '!block.tile<4x64xf16>'}}
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf32>
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @accum_post_loop_value(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op accumulates a tile that is not computed in the for-loop body}}
    %b = block.accum max %a : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %o = block.output %b omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @accum_post_loop_op_result(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %e = block.unary exp %a : !block.tile<4x16xf16>
    // expected-error @+1 {{'block.accum' op accumulates a tile that is not computed in the for-loop body}}
    %b = block.accum sum %e : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %o = block.output %b omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

//===----------------------------------------------------------------------===//
// block.output
//===----------------------------------------------------------------------===//

func.func @omap_replicate_with_blocks(%X: tensor<16x64xf16>) -> tensor<4x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<4x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op omap maps grid dimension x (4 blocks) to replicate: their tiles would overwrite each other; map it to an output dimension}}
    %o = block.output %a omap = <x: replicate> : !block.tile<4x64xf16> -> tensor<4x64xf16>
    block.yield %o : tensor<4x64xf16>
  }
  return %Y : tensor<4x64xf16>
}

// -----

func.func @omap_replicate_on_y(%X: tensor<16x64xf16>) -> tensor<16x32xf16> {
  %Y = kernel.graph_def (%X) grid = [1, 2] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x32xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate, y: 1> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x32xf16>
    %a = block.accum sum %t : !block.tile<16x32xf16> -> !block.tile<16x32xf16>
    // expected-error @+1 {{'block.output' op omap maps grid dimension y (2 blocks) to replicate}}
    %o = block.output %a omap = <x: replicate, y: replicate> : !block.tile<16x32xf16> -> tensor<16x32xf16>
    block.yield %o : tensor<16x32xf16>
  }
  return %Y : tensor<16x32xf16>
}

// -----

func.func @omap_too_long(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op omap has 2 entries for a 1-d grid}}
    %o = block.output %a omap = <x: 0, y: replicate> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @omap_dim_out_of_range(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op omap maps grid dimension x to dimension 2 of a rank-2 value}}
    %o = block.output %a omap = <x: 2> : !block.tile<4x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @omap_same_dim_twice(%X: tensor<16x64xf16>) -> tensor<8x128xf16> {
  %Y = kernel.graph_def (%X) grid = [2, 2] forloop = 1
      : (tensor<16x64xf16>) -> tensor<8x128xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<8x32xf16>
    %a = block.accum sum %t : !block.tile<8x32xf16> -> !block.tile<8x32xf16>
    // expected-error @+1 {{'block.output' op omap maps grid dimensions x and y to the same dimension 1}}
    %o = block.output %a omap = <x: 1, y: 1> : !block.tile<8x32xf16> -> tensor<8x128xf16>
    block.yield %o : tensor<8x128xf16>
  }
  return %Y : tensor<8x128xf16>
}

// -----

func.func @output_shape_wrong(%X: tensor<16x64xf16>) -> tensor<4x256xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<4x256xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op output type 'tensor<4x256xf16>' does not follow from the omap: expected 'tensor<16x64xf16>'}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<4x256xf16>
    block.yield %o : tensor<4x256xf16>
  }
  return %Y : tensor<4x256xf16>
}

// -----

func.func @output_rank_wrong(%X: tensor<16x64xf16>) -> tensor<1024xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<1024xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op output type 'tensor<1024xf16>' does not follow from the omap: expected 'tensor<16x64xf16>'}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<1024xf16>
    block.yield %o : tensor<1024xf16>
  }
  return %Y : tensor<1024xf16>
}

// -----

func.func @output_element_type_wrong(%X: tensor<16x64xf16>) -> tensor<16x64xbf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xbf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op output type 'tensor<16x64xbf16>' does not follow from the omap: expected 'tensor<16x64xf16>'}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xbf16>
    block.yield %o : tensor<16x64xbf16>
  }
  return %Y : tensor<16x64xbf16>
}

// -----

func.func @output_non_float(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum concat %t, dim = 1 : !block.tile<4x16xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op result #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<16x64xi16>'}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xi16>
    block.yield %o : tensor<16x64xi16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @output_loop_body_tile(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.output' op saves a tile of the for-loop body; accumulate it with block.accum first}}
    %o = block.output %t omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @output_loop_body_op(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %e = block.unary exp %t : !block.tile<4x16xf16>
    %a = block.accum sum %e : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.output' op saves a tile of the for-loop body}}
    %o = block.output %e omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Order of the block graph's parts
//===----------------------------------------------------------------------===//

func.func @input_after_accum(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-note @+1 {{first accumulator here}}
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.input' op input iterator follows a for-loop accumulator: the loop body must end before the first accumulator}}
    %t2 = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %b = block.accum sum %t2 : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %s = block.binary add %a, %b : (!block.tile<4x16xf16>, !block.tile<4x16xf16>) -> !block.tile<4x16xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @loop_body_op_after_accum(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-note @+1 {{first accumulator here}}
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.unary' op belongs to the for-loop body but follows an accumulator: the loop body must end before the first accumulator}}
    %e = block.unary exp %t : !block.tile<4x16xf16>
    %b = block.accum max %e : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    %s = block.binary add %a, %b : (!block.tile<4x16xf16>, !block.tile<4x16xf16>) -> !block.tile<4x16xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @fused_loop_body_after_accum(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    // expected-note @+1 {{first accumulator here}}
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'thread.fused' op belongs to the for-loop body but follows an accumulator}}
    %e = thread.fused (%t) : (!block.tile<4x16xf16>) -> !block.tile<4x16xf16> {
    ^bb0(%p: f16):
      %q = thread.unary exp %p : f16
      thread.yield %q : f16
    }
    %o = block.output %a omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @op_after_saver(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-note @+1 {{first saver here}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    // expected-error @+1 {{'block.unary' op follows an output saver; the savers end the block graph}}
    %e = block.unary exp %a : !block.tile<4x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @accum_after_saver(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-note @+1 {{first saver here}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    // expected-error @+1 {{'block.accum' op follows an output saver; the savers end the block graph}}
    %b = block.accum max %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @input_after_saver(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-note @+1 {{first saver here}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    // expected-error @+1 {{'block.input' op follows an output saver; the savers end the block graph}}
    %t2 = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @mixes_loop_body_and_post_loop(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'block.binary' op mixes tiles of the for-loop body with tiles computed after the loop; pass the body tile through a block.accum first}}
    %s = block.binary add %a, %t : (!block.tile<4x16xf16>, !block.tile<4x16xf16>) -> !block.tile<4x16xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @fused_mixes_phases(%X: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 4
      : (tensor<16x64xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: 1> : tensor<16x64xf16> -> !block.tile<4x16xf16>
    %a = block.accum sum %t : !block.tile<4x16xf16> -> !block.tile<4x16xf16>
    // expected-error @+1 {{'thread.fused' op mixes tiles of the for-loop body with tiles computed after the loop}}
    %s = thread.fused (%a, %t) : (!block.tile<4x16xf16>, !block.tile<4x16xf16>) -> !block.tile<4x16xf16> {
    ^bb0(%p: f16, %q: f16):
      %r = thread.binary mul %p, %q : f16
      thread.yield %r : f16
    }
    %o = block.output %s omap = <x: 0> : !block.tile<4x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @reads_device_tensor(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.unary' op operand #0 must be shared-memory tile, but got 'tensor<16x64xf16>'}}
    %e = "block.unary"(%x) {kind = 0 : i32} : (tensor<16x64xf16>) -> tensor<16x64xf16>
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %t : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @reads_tile_defined_later(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    // expected-error @+1 {{'block.unary' op operand #0 is defined after its use: a block graph is acyclic and in dataflow order}}
    %e = block.unary exp %t : !block.tile<16x64xf16>
    // expected-note @+1 {{defined here}}
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %a = block.accum sum %e : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @cycle(%X: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'block.binary' op operand #1 is defined after its use}}
    %p = block.binary add %t, %q : (!block.tile<16x64xf16>, !block.tile<16x64xf16>) -> !block.tile<16x64xf16>
    // expected-note @+1 {{defined here}}
    %q = block.unary exp %p : !block.tile<16x64xf16>
    %a = block.accum sum %q : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %a omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// Shared-memory ops
//===----------------------------------------------------------------------===//

func.func @matmul_contraction(%A: tensor<16x64xf16>, %B: tensor<32x16xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<32x16xf16>) -> tensor<16x16xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<32x16xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<32x16xf16> -> !block.tile<32x16xf16>
    // expected-error @+2 {{matmul contraction sizes differ: lhs has 64 columns, rhs has 32 rows}}
    // expected-error @+1 {{'block.matmul' op failed to infer returned types}}
    %m = block.matmul %at, %bt : (!block.tile<16x64xf16>, !block.tile<32x16xf16>) -> !block.tile<16x16xf16>
    %s = block.accum sum %m : !block.tile<16x16xf16> -> !block.tile<16x16xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @matmul_wrong_result(%A: tensor<16x64xf16>, %B: tensor<64x16xf16>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<64x16xf16>) -> tensor<16x16xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<64x16xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<64x16xf16> -> !block.tile<64x16xf16>
    // expected-error @+2 {{'block.matmul' op inferred type(s) '!block.tile<16x16xf16>' are incompatible with return type(s) of operation '!block.tile<16x64xf16>'}}
    // expected-error @+1 {{'block.matmul' op failed to infer returned types}}
    %m = block.matmul %at, %bt : (!block.tile<16x64xf16>, !block.tile<64x16xf16>) -> !block.tile<16x64xf16>
    %s = block.accum sum %m : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @matmul_element_type(%A: tensor<16x64xf16>, %B: tensor<64x16xf32>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<64x16xf32>) -> tensor<16x16xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<64x16xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<64x16xf32> -> !block.tile<64x16xf32>
    // expected-error @+1 {{'block.matmul' op failed to verify that all of {lhs, rhs} have same element type}}
    %m = block.matmul %at, %bt : (!block.tile<16x64xf16>, !block.tile<64x16xf32>) -> !block.tile<16x16xf16>
    %s = block.accum sum %m : !block.tile<16x16xf16> -> !block.tile<16x16xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

func.func @binary_no_broadcast(%A: tensor<16x64xf16>, %B: tensor<16x2xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x2xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<16x2xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<16x2xf16> -> !block.tile<16x2xf16>
    // expected-error @+2 {{shapes [16, 64] and [16, 2] do not broadcast}}
    // expected-error @+1 {{'block.binary' op failed to infer returned types}}
    %m = block.binary add %at, %bt : (!block.tile<16x64xf16>, !block.tile<16x2xf16>) -> !block.tile<16x64xf16>
    %s = block.accum sum %m : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @reduce_dim(%A: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+2 {{dimension 2 is out of range for rank 2}}
    // expected-error @+1 {{'block.reduce' op failed to infer returned types}}
    %r = block.reduce max %at, dim = 2 : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.accum sum %r : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @reduce_wrong_result(%A: tensor<16x64xf16>) -> tensor<16xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+2 {{'block.reduce' op inferred type(s) '!block.tile<16x1xf16>' are incompatible with return type(s) of operation '!block.tile<16xf16>'}}
    // expected-error @+1 {{'block.reduce' op failed to infer returned types}}
    %r = block.reduce sum %at, dim = 1 : !block.tile<16x64xf16> -> !block.tile<16xf16>
    %s = block.accum sum %r : !block.tile<16xf16> -> !block.tile<16xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16xf16> -> tensor<16xf16>
    block.yield %o : tensor<16xf16>
  }
  return %Y : tensor<16xf16>
}

// -----

func.func @concat_mismatch(%A: tensor<16x64xf16>, %B: tensor<8x64xf16>) -> tensor<16x128xf16> {
  %Y = kernel.graph_def (%A, %B) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<8x64xf16>) -> tensor<16x128xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<8x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %bt = block.input %b imap = <x: replicate> fmap = <i: replicate> : tensor<8x64xf16> -> !block.tile<8x64xf16>
    // expected-error @+2 {{concat inputs [16, 64] and [8, 64] differ outside dimension 1}}
    // expected-error @+1 {{'block.concat' op failed to infer returned types}}
    %c = block.concat (%at, %bt) dim = 1 : (!block.tile<16x64xf16>, !block.tile<8x64xf16>) -> !block.tile<16x128xf16>
    %s = block.accum sum %c : !block.tile<16x128xf16> -> !block.tile<16x128xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x128xf16> -> tensor<16x128xf16>
    block.yield %o : tensor<16x128xf16>
  }
  return %Y : tensor<16x128xf16>
}

// -----

func.func @concat_no_inputs(%A: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    // expected-error @+1 {{'block.concat' op expected 1 or more operands, but found 0}}
    %c = block.concat () dim = 0 : () -> !block.tile<16x64xf16>
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %s = block.accum sum %at : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @unary_params(%A: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{unary kind 'clamp' takes 2 parameter(s), got 1}}
    %u = block.unary clamp %at params = [1.0] : !block.tile<16x64xf16>
    %s = block.accum sum %u : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @unary_params_scale(%A: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{unary kind 'scale' takes 1 parameter(s), got 0}}
    %u = block.unary scale %at : !block.tile<16x64xf16>
    %s = block.accum sum %u : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @unary_clamp_empty(%A: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{clamp bounds are empty: min 1.000000e+00 > max -1.000000e+00}}
    %u = block.unary clamp %at params = [1.0, -1.0] : !block.tile<16x64xf16>
    %s = block.accum sum %u : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

func.func @unary_type_mismatch(%A: tensor<16x64xf16>) -> tensor<16x32xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x32xf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+1 {{'block.unary' op requires the same shape for all operands and results}}
    %u = "block.unary"(%at) {kind = 0 : i32} : (!block.tile<16x64xf16>) -> !block.tile<16x32xf16>
    %s = block.accum sum %u : !block.tile<16x32xf16> -> !block.tile<16x32xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<16x32xf16> -> tensor<16x32xf16>
    block.yield %o : tensor<16x32xf16>
  }
  return %Y : tensor<16x32xf16>
}

// -----

// A product of f32 tiles cannot be rounded to f16 by the matmul itself.
func.func @matmul_narrowing(%X: tensor<16x64xf32>, %W: tensor<64x16xf32>) -> tensor<16x16xf16> {
  %Y = kernel.graph_def (%X, %W) grid = [1] forloop = 1
      : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x64xf32>, %w: tensor<64x16xf32>):
    %a = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    %b = block.input %w imap = <x: replicate> fmap = <i: replicate> : tensor<64x16xf32> -> !block.tile<64x16xf32>
    // expected-error @+2 {{'block.matmul' op inferred type(s) '!block.tile<16x16xf32>' are incompatible with return type(s) of operation '!block.tile<16x16xf16>'}}
    // expected-error @+1 {{'block.matmul' op failed to infer returned types}}
    %t = "block.matmul"(%a, %b) : (!block.tile<16x64xf32>, !block.tile<64x16xf32>) -> !block.tile<16x16xf16>
    %o = block.output %t omap = <x: replicate> : !block.tile<16x16xf16> -> tensor<16x16xf16>
    block.yield %o : tensor<16x16xf16>
  }
  return %Y : tensor<16x16xf16>
}

// -----

// An f16 tile is not widened on its way to an f32 tensor.
func.func @output_widening(%X: tensor<16x64xf16>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%X) grid = [4] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xf32> {
  ^bb0(%x: tensor<16x64xf16>):
    %t = block.input %x imap = <x: 0> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<4x64xf16>
    %a = block.accum sum %t : !block.tile<4x64xf16> -> !block.tile<4x64xf16>
    // expected-error @+1 {{'block.output' op output type 'tensor<16x64xf32>' does not follow from the omap: expected 'tensor<16x64xf16>'}}
    %o = block.output %a omap = <x: 0> : !block.tile<4x64xf16> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// f16 and bf16 do not combine; an f16 and an f32 tile give an f32 one.
func.func @binary_element_types(%X: tensor<16x64xf16>, %Y: tensor<16x64xbf16>) -> tensor<16x64xf16> {
  %Z = kernel.graph_def (%X, %Y) grid = [1] forloop = 1
      : (tensor<16x64xf16>, tensor<16x64xbf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %y: tensor<16x64xbf16>):
    %a = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %b = block.input %y imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xbf16> -> !block.tile<16x64xbf16>
    // expected-error @+2 {{operand element types 'f16' and 'bf16' do not combine (one type, or f16/bf16 with f32)}}
    // expected-error @+1 {{'block.binary' op failed to infer returned types}}
    %c = block.binary add %a, %b : (!block.tile<16x64xf16>, !block.tile<16x64xbf16>) -> !block.tile<16x64xf16>
    %s = block.accum sum %c : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: replicate> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Z : tensor<16x64xf16>
}

// -----

func.func @binary_widened_result(%X: tensor<16x64xf16>) -> tensor<16x1xf16> {
  %Z = kernel.graph_def (%X) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x1xf16> {
  ^bb0(%x: tensor<16x64xf16>):
    %a = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    %r = block.reduce sum %a, dim = 1 : !block.tile<16x64xf16> -> !block.tile<16x1xf32>
    // expected-error @+2 {{'block.binary' op inferred type(s) '!block.tile<16x64xf32>' are incompatible with return type(s) of operation '!block.tile<16x64xf16>'}}
    // expected-error @+1 {{'block.binary' op failed to infer returned types}}
    %c = "block.binary"(%a, %r) <{kind = 3 : i32}> : (!block.tile<16x64xf16>, !block.tile<16x1xf32>) -> !block.tile<16x64xf16>
    %s = block.accum sum %r : !block.tile<16x1xf32> -> !block.tile<16x1xf32>
    %o = block.output %s omap = <x: replicate> : !block.tile<16x1xf32> -> tensor<16x1xf16>
    block.yield %o : tensor<16x1xf16>
  }
  return %Z : tensor<16x1xf16>
}

// -----

// Only f16 and bf16 tiles widen, and only to f32.
func.func @unary_narrowing(%A: tensor<16x64xf32>) -> tensor<16x64xf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf16> {
  ^bb0(%a: tensor<16x64xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    // expected-error @+1 {{'block.unary' op result element type 'f16' must be the input's ('f32') or f32 for an f16 or bf16 input}}
    %u = block.unary exp %at : !block.tile<16x64xf32> -> !block.tile<16x64xf16>
    %s = block.accum sum %u : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %o = block.output %s omap = <x: replicate> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %Y : tensor<16x64xf16>
}

// -----

// Two f16 tiles combine into f16 or, widened, f32; never into bf16.
func.func @binary_bad_widening(%A: tensor<16x64xf16>) -> tensor<16x64xbf16> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf16>) -> tensor<16x64xbf16> {
  ^bb0(%a: tensor<16x64xf16>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf16> -> !block.tile<16x64xf16>
    // expected-error @+2 {{'block.binary' op inferred type(s) '!block.tile<16x64xf16>' are incompatible with return type(s) of operation '!block.tile<16x64xbf16>'}}
    // expected-error @+1 {{'block.binary' op failed to infer returned types}}
    %u = block.binary add %at, %at : (!block.tile<16x64xf16>, !block.tile<16x64xf16>) -> !block.tile<16x64xbf16>
    %s = block.accum sum %u : !block.tile<16x64xbf16> -> !block.tile<16x64xbf16>
    %o = block.output %s omap = <x: replicate> : !block.tile<16x64xbf16> -> tensor<16x64xbf16>
    block.yield %o : tensor<16x64xbf16>
  }
  return %Y : tensor<16x64xbf16>
}

// -----

func.func @softmax_accum_mismatch(%S: tensor<4x64xf32>, %V: tensor<32x8xf16>) -> tensor<4x8xf32> {
  %Y = kernel.graph_def (%S, %V) grid = [1] forloop = 1 : (tensor<4x64xf32>, tensor<32x8xf16>) -> tensor<4x8xf32> {
  ^bb0(%s: tensor<4x64xf32>, %v: tensor<32x8xf16>):
    %st = block.input %s imap = <x: replicate> fmap = <i: replicate> : tensor<4x64xf32> -> !block.tile<4x64xf32>
    %vt = block.input %v imap = <x: replicate> fmap = <i: replicate> : tensor<32x8xf16> -> !block.tile<32x8xf16>
    // expected-error @+1 {{'block.softmax_accum' op scores '!block.tile<4x64xf32>' and values '!block.tile<32x8xf16>' do not match: [..., r, c] and [..., c, d] with the same leading dimensions}}
    %o, %ml = block.softmax_accum %st, %vt : (!block.tile<4x64xf32>, !block.tile<32x8xf16>) -> (!block.tile<4x8xf32>, !block.tile<4x2xf32>)
    %out = block.output %o omap = <x: replicate> : !block.tile<4x8xf32> -> tensor<4x8xf32>
    block.yield %out : tensor<4x8xf32>
  }
  return %Y : tensor<4x8xf32>
}

// -----

func.func @softmax_accum_narrow_output(%S: tensor<4x32xf32>, %V: tensor<32x8xf16>) -> tensor<4x8xf16> {
  %Y = kernel.graph_def (%S, %V) grid = [1] forloop = 1 : (tensor<4x32xf32>, tensor<32x8xf16>) -> tensor<4x8xf16> {
  ^bb0(%s: tensor<4x32xf32>, %v: tensor<32x8xf16>):
    %st = block.input %s imap = <x: replicate> fmap = <i: replicate> : tensor<4x32xf32> -> !block.tile<4x32xf32>
    %vt = block.input %v imap = <x: replicate> fmap = <i: replicate> : tensor<32x8xf16> -> !block.tile<32x8xf16>
    // expected-error @+1 {{'block.softmax_accum' op output must be '!block.tile<4x8xf32>'}}
    %o, %ml = block.softmax_accum %st, %vt : (!block.tile<4x32xf32>, !block.tile<32x8xf16>) -> (!block.tile<4x8xf16>, !block.tile<4x2xf32>)
    %out = block.output %o omap = <x: replicate> : !block.tile<4x8xf16> -> tensor<4x8xf16>
    block.yield %out : tensor<4x8xf16>
  }
  return %Y : tensor<4x8xf16>
}

// -----

func.func @softmax_accum_stats(%S: tensor<4x32xf32>, %V: tensor<32x8xf16>) -> tensor<4x8xf32> {
  %Y = kernel.graph_def (%S, %V) grid = [1] forloop = 1 : (tensor<4x32xf32>, tensor<32x8xf16>) -> tensor<4x8xf32> {
  ^bb0(%s: tensor<4x32xf32>, %v: tensor<32x8xf16>):
    %st = block.input %s imap = <x: replicate> fmap = <i: replicate> : tensor<4x32xf32> -> !block.tile<4x32xf32>
    %vt = block.input %v imap = <x: replicate> fmap = <i: replicate> : tensor<32x8xf16> -> !block.tile<32x8xf16>
    // expected-error @+1 {{'block.softmax_accum' op stats must be '!block.tile<4x2xf32>' (the maximum and the sum per row)}}
    %o, %ml = block.softmax_accum %st, %vt : (!block.tile<4x32xf32>, !block.tile<32x8xf16>) -> (!block.tile<4x8xf32>, !block.tile<4x1xf32>)
    %out = block.output %o omap = <x: replicate> : !block.tile<4x8xf32> -> tensor<4x8xf32>
    block.yield %out : tensor<4x8xf32>
  }
  return %Y : tensor<4x8xf32>
}

// -----

func.func @softmax_accum_after_loop(%S: tensor<4x32xf32>, %V: tensor<32x8xf16>) -> tensor<4x8xf32> {
  %Y = kernel.graph_def (%S, %V) grid = [1] forloop = 1 : (tensor<4x32xf32>, tensor<32x8xf16>) -> tensor<4x8xf32> {
  ^bb0(%s: tensor<4x32xf32>, %v: tensor<32x8xf16>):
    %st = block.input %s imap = <x: replicate> fmap = <i: replicate> : tensor<4x32xf32> -> !block.tile<4x32xf32>
    %vt = block.input %v imap = <x: replicate> fmap = <i: replicate> : tensor<32x8xf16> -> !block.tile<32x8xf16>
    %sa = block.accum sum %st : !block.tile<4x32xf32> -> !block.tile<4x32xf32>
    // expected-error @+1 {{'block.softmax_accum' op accumulates a tile that is not computed in the for-loop body}}
    %o, %ml = block.softmax_accum %sa, %vt : (!block.tile<4x32xf32>, !block.tile<32x8xf16>) -> (!block.tile<4x8xf32>, !block.tile<4x2xf32>)
    %out = block.output %o omap = <x: replicate> : !block.tile<4x8xf32> -> tensor<4x8xf32>
    block.yield %out : tensor<4x8xf32>
  }
  return %Y : tensor<4x8xf32>
}

// -----

func.func @softmax_merge_bad_dim(%P: tensor<2x64x32xf32>, %S: tensor<2x64x2xf32>) -> tensor<1x64x32xf32> {
  %M = kernel.graph_def (%P, %S) grid = [1] forloop = 1 : (tensor<2x64x32xf32>, tensor<2x64x2xf32>) -> tensor<1x64x32xf32> {
  ^bb0(%p: tensor<2x64x32xf32>, %st: tensor<2x64x2xf32>):
    %pt = block.input %p imap = <x: replicate> fmap = <i: replicate> : tensor<2x64x32xf32> -> !block.tile<2x64x32xf32>
    %stt = block.input %st imap = <x: replicate> fmap = <i: replicate> : tensor<2x64x2xf32> -> !block.tile<2x64x2xf32>
    // expected-error @+1 {{'block.softmax_merge' op dim must be one of the leading dimensions [0, 1), got 1}}
    %m = block.softmax_merge %pt, %stt, dim = 1 : (!block.tile<2x64x32xf32>, !block.tile<2x64x2xf32>) -> !block.tile<2x1x32xf32>
    %a = block.accum sum %m : !block.tile<2x1x32xf32> -> !block.tile<2x1x32xf32>
    %out = block.output %a omap = <x: replicate> : !block.tile<2x1x32xf32> -> tensor<1x64x32xf32>
    block.yield %out : tensor<1x64x32xf32>
  }
  return %M : tensor<1x64x32xf32>
}

// -----

func.func @reshape_count(%X: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<4x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%x: tensor<4x32xf32>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<4x32xf32> -> !block.tile<4x32xf32>
    // expected-error @+1 {{'block.reshape' op reshapes '!block.tile<4x32xf32>' into '!block.tile<4x16xf32>', which has another number of elements}}
    %r = block.reshape %t : !block.tile<4x32xf32> -> !block.tile<4x16xf32>
    %a = block.accum sum %r : !block.tile<4x16xf32> -> !block.tile<4x16xf32>
    %out = block.output %a omap = <x: replicate> : !block.tile<4x16xf32> -> tensor<4x32xf32>
    block.yield %out : tensor<4x32xf32>
  }
  return %Y : tensor<4x32xf32>
}

// -----

func.func @red_rms_without_dim(%X: tensor<8x64xf16>) -> tensor<8x1xf32> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<8x64xf16>) -> tensor<8x1xf32> {
  ^bb0(%x: tensor<8x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<8x64xf16> -> !block.tile<8x64xf16>
    // expected-error @+1 {{'block.accum' op reducing accumulator needs `dim`}}
    %r = block.accum red_rms %t : !block.tile<8x64xf16> -> !block.tile<8x1xf32>
    %o = block.output %r omap = <x: replicate> : !block.tile<8x1xf32> -> tensor<8x1xf32>
    block.yield %o : tensor<8x1xf32>
  }
  return %Y : tensor<8x1xf32>
}

// -----

func.func @red_sum_shape(%X: tensor<8x64xf16>) -> tensor<8x64xf32> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<8x64xf16>) -> tensor<8x64xf32> {
  ^bb0(%x: tensor<8x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<8x64xf16> -> !block.tile<8x64xf16>
    // expected-error @+1 {{'block.accum' op result type '!block.tile<8x64xf32>' must be the tile type '!block.tile<8x64xf16>' with dimension 1 reduced to 1 (f32 elements for f16 or bf16 ones)}}
    %r = block.accum red_sum %t, dim = 1 : !block.tile<8x64xf16> -> !block.tile<8x64xf32>
    %o = block.output %r omap = <x: replicate> : !block.tile<8x64xf32> -> tensor<8x64xf32>
    block.yield %o : tensor<8x64xf32>
  }
  return %Y : tensor<8x64xf32>
}

// -----

func.func @red_rms_f16(%X: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<8x64xf16>) -> tensor<8x1xf16> {
  ^bb0(%x: tensor<8x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<8x64xf16> -> !block.tile<8x64xf16>
    // expected-error @+1 {{'block.accum' op red_rms accumulates in f32: result type '!block.tile<8x1xf16>' must have f32 elements}}
    %r = block.accum red_rms %t, dim = 1 : !block.tile<8x64xf16> -> !block.tile<8x1xf16>
    %o = block.output %r omap = <x: replicate> : !block.tile<8x1xf16> -> tensor<8x1xf16>
    block.yield %o : tensor<8x1xf16>
  }
  return %Y : tensor<8x1xf16>
}

// -----

func.func @rms_norm_dim(%X: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %Y = kernel.graph_def (%X) grid = [1] forloop = 1 : (tensor<8x64xf16>) -> tensor<8x64xf16> {
  ^bb0(%x: tensor<8x64xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<8x64xf16> -> !block.tile<8x64xf16>
    // expected-error @+1 {{dimension 2 is out of range for rank 2}}
    %n = block.rms_norm %t, dim = 2 : !block.tile<8x64xf16> -> !block.tile<8x64xf16>
    %a = block.accum sum %n : !block.tile<8x64xf16> -> !block.tile<8x64xf16>
    %o = block.output %a omap = <x: replicate> : !block.tile<8x64xf16> -> tensor<8x64xf16>
    block.yield %o : tensor<8x64xf16>
  }
  return %Y : tensor<8x64xf16>
}

// -----

func.func @slice_outside(%A: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%a: tensor<16x64xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    // expected-error @+1 {{'block.slice' op box [40, 40 + 32) of dimension 1 is not within the input's 64}}
    %p = block.slice %at, offsets = [0, 40], sizes = [16, 32] : !block.tile<16x64xf32> -> !block.tile<16x32xf32>
    %s = block.accum sum %at : !block.tile<16x64xf32> -> !block.tile<16x64xf32>
    %o = block.output %s omap = <x: replicate> : !block.tile<16x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @slice_rank(%A: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%a: tensor<16x64xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    // expected-error @+1 {{'block.slice' op needs one offset and one size per dimension of the 2-d input, got 1 offsets and 1 sizes}}
    %p = block.slice %at, offsets = [0], sizes = [16] : !block.tile<16x64xf32> -> !block.tile<16xf32>
    %s = block.accum sum %at : !block.tile<16x64xf32> -> !block.tile<16x64xf32>
    %o = block.output %s omap = <x: replicate> : !block.tile<16x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @slice_result(%A: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = kernel.graph_def (%A) grid = [1] forloop = 1
      : (tensor<16x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%a: tensor<16x64xf32>):
    %at = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<16x64xf32> -> !block.tile<16x64xf32>
    // expected-error @+1 {{'block.slice' op result type '!block.tile<16x16xf32>' must have the shape of the sizes}}
    %p = block.slice %at, offsets = [0, 0], sizes = [16, 32] : !block.tile<16x64xf32> -> !block.tile<16x16xf32>
    %s = block.accum sum %at : !block.tile<16x64xf32> -> !block.tile<16x64xf32>
    %o = block.output %s omap = <x: replicate> : !block.tile<16x64xf32> -> tensor<16x64xf32>
    block.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}
