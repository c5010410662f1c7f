// RUN: mirage-opt %s --linalg-to-graph -split-input-file -verify-diagnostics
// RUN: not mirage-opt %s --linalg-to-graph -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATUS

// Each op without an exact graph form is reported at its location, with
// the op and the reason (for a structured op, what in its body or maps was
// not recognized), and the pass fails (non-zero exit status).
// STATUS: error: linalg.conv_2d_nchw_fchw: asymmetric padding [1, 2, 1, 1] has no graph.conv2d form

func.func @asymmetric_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x9x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x11x10xf32>
  %e = tensor.empty() : tensor<1x4x9x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x9x8xf32>) -> tensor<1x4x9x8xf32>
  // expected-error @+1 {{linalg.conv_2d_nchw_fchw: asymmetric padding [1, 2, 1, 1] has no graph.conv2d form}}
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x3x11x10xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<1x4x9x8xf32>) -> tensor<1x4x9x8xf32>
  return %c : tensor<1x4x9x8xf32>
}

// -----

func.func @reflect_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  // expected-error @+1 {{tensor.pad: graph has no pad op, and this one cannot fold into the padding of linalg.conv_2d_nchw_fchw: the padding value is 1, not 0}}
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}

// -----

func.func @pad_alone(%x: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  // expected-error @+1 {{tensor.pad: graph has no pad op; a pad converts only when the convolution or pooling op that takes it as its input folds it into its padding, and func.return does not}}
  %padded = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %padded : tensor<6x6xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @log(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body's math.log has no graph form}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = math.log %in : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @maximum(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body's arith.maximumf of two tensors has no graph form (only against a constant: relu or clamp)}}
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %1 = arith.maximumf %a, %b : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @reduce_into_empty(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{linalg.generic: accumulates into an uninitialized tensor.empty}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.addf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @product(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{linalg.generic: the body of a reduction must yield arith.addf or arith.maximumf of a value and the running value}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.mulf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @max_from_zero(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{linalg.generic: the init of a max reduction must be a fill of -inf (a max with another tensor has no graph form)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.maximumf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dynamic(%x: tensor<?x8xf32>, %w: tensor<8x4xf32>, %init: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{linalg.matmul: operand #0 has the dynamic shape tensor<?x8xf32>; graph tensors have static shapes}}
  %0 = linalg.matmul ins(%x, %w : tensor<?x8xf32>, tensor<8x4xf32>) outs(%init : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @int8(%x: tensor<2x8xi8>, %w: tensor<8x4xi8>) -> tensor<2x4xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x4xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x4xi32>) -> tensor<2x4xi32>
  // expected-error @+1 {{linalg.matmul: operand #0 has element type i8; graph tensors are f16, bf16 or f32}}
  %0 = linalg.matmul ins(%x, %w : tensor<2x8xi8>, tensor<8x4xi8>) outs(%z : tensor<2x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @matmul_into_empty(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  // expected-error @+1 {{linalg.matmul: accumulates into an uninitialized tensor.empty}}
  %0 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dilated_pool(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x3x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  // expected-error @+1 {{linalg.pooling_nchw_max: dilations [2, 2] have no graph pooling form}}
  %0 = linalg.pooling_nchw_max {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @max_pool_zero_init(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  // expected-error @+1 {{linalg.pooling_nchw_max: the init of a max pooling must be a fill of -inf (a max of the window and another tensor has no graph form)}}
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @index(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body reads loop indices (linalg.index), which no graph op does}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %1 = arith.addf %in, %f : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @captured(%x: tensor<4x8xf32>, %s: f32) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body uses a value defined outside it that is not a constant}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.mulf %in, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @unordered_comparison(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body's arith.cmpf ult has no graph comparison (graph compares as the ordered oeq, olt, ole, ogt, oge and the unordered une do)}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 1.000000e+00 : f32
    %p = arith.cmpf ult, %in, %c : f32
    %1 = arith.select %p, %in, %c : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @widen_to_f64(%x: tensor<4x8xf32>) -> tensor<4x8xf64> {
  %e = tensor.empty() : tensor<4x8xf64>
  // expected-error @+1 {{linalg.generic: the result has element type f64; graph tensors are f16, bf16 or f32}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf64>) {
  ^bb0(%in: f32, %out: f64):
    %1 = arith.extf %in : f32 to f64
    linalg.yield %1 : f64
  } -> tensor<4x8xf64>
  return %0 : tensor<4x8xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#diag = affine_map<(d0, d1) -> (d0, d0)>
func.func @diagonal(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  // expected-error @+1 {{linalg.generic: indexing map (d0, d1) -> (d0, d0) of operand #0 is not a projected permutation}}
  %0 = linalg.generic {indexing_maps = [#diag, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @slice(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{tensor.extract_slice: no graph op computes this (docs/Importers.md lists the ops that convert)}}
  %0 = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @tensor_arith(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{arith.addf: elementwise arithmetic on tensors outside a linalg op has no graph form}}
  %0 = arith.addf %x, %y : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @matvec(%a: tensor<4x8xf32>, %x: tensor<8xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{linalg.matvec: no graph op computes this named op (docs/Importers.md lists the linalg ops that convert)}}
  %0 = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Every op without a graph form is reported, not only the first.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @several(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body's arith.cmpf uge has no graph comparison}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 1.000000e+00 : f32
    %p = arith.cmpf uge, %in, %c : f32
    %1 = arith.select %p, %in, %c : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  // expected-error @+1 {{linalg.abs: the body's math.absf has no graph form}}
  %1 = linalg.abs ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @constant_body(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body yields a constant: a fill, not a graph op}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 2.000000e+00 : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @reads_empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: operand #1 is an uninitialized tensor.empty that the body reads}}
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %e : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %1 = arith.addf %in, %in2 : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @reads_empty_output(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{linalg.generic: the body reads the output, an uninitialized tensor.empty}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.addf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @two_results(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{linalg.generic: has 2 results; only single-result ops convert}}
  %0:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init, %init : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %a: f32, %b: f32):
    %1 = arith.addf %in, %a : f32
    %2 = arith.maximumf %in, %b : f32
    linalg.yield %1, %2 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @broadcast_batch_matmul(%a: tensor<8x16xf32>, %b: tensor<2x16x4xf32>, %c: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  // expected-error @+1 {{linalg.batch_matmul: indexing map (d0, d1, d2, d3) -> (d1, d3) of operand #0 is not a permutation of the default one (broadcast operands have no graph.matmul form)}}
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<8x16xf32>, tensor<2x16x4xf32>) outs(%c : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}
