// RUN: mirage-opt %s --linalg-to-graph -split-input-file | FileCheck %s
// The same through upstream mlir-opt with the plugins.
// RUN: %upstream_mlir_opt --load-dialect-plugin=%mirage_libs/MirageDialectPlugin.so --load-pass-plugin=%mirage_libs/MiragePassPlugin.so --pass-pipeline='builtin.module(linalg-to-graph)' %s -split-input-file | FileCheck %s

// Linear + bias + ReLU as torch-mlir and IREE write it: a linalg.matmul
// into a fill of 0, the bias added by a linalg.generic with a broadcasting
// map, ReLU as select(x > 0, x, 0). The bias [N] broadcasts against [M, N]
// as it is.

// CHECK-LABEL: func.func @matmul_bias_relu(
// CHECK-SAME: %[[X:[^:]*]]: tensor<8x64xf32>, %[[W:[^:]*]]: tensor<64x32xf32>, %[[B:[^:]*]]: tensor<32xf32>)
// CHECK-NEXT: %[[MM:.*]] = graph.matmul %[[X]], %[[W]] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[A:.*]] = graph.add %[[MM]], %[[B]] : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[A]] : tensor<8x32xf32>
// CHECK-NEXT: return %[[R]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<8x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %3 = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %b : tensor<8x32xf32>, tensor<32xf32>) outs(%0 : tensor<8x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.addf %in, %in_0 : f32
    linalg.yield %5 : f32
  } -> tensor<8x32xf32>
  %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<8x32xf32>) outs(%0 : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.cmpf ugt, %in, %cst : f32
    %6 = arith.select %5, %in, %cst : f32
    linalg.yield %6 : f32
  } -> tensor<8x32xf32>
  return %4 : tensor<8x32xf32>
}

// -----

// torch-mlir's Conv2d(padding=1) + bias + ReLU + MaxPool2d in NCHW: a
// tensor.pad of zeros folds into graph.conv2d's padding; the conv
// accumulates into a linalg.broadcast of the bias, which is added; the max
// pool's init is a fill of -inf.

// CHECK-LABEL: func.func @conv_pad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x3x8x8xf32>, %[[W:[^:]*]]: tensor<4x3x3x3xf32>, %[[B:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT: %[[BR:.*]] = graph.reshape %[[B]] : tensor<4xf32> -> tensor<1x4x1x1xf32>
// CHECK-NEXT: %[[BB:.*]] = graph.broadcast %[[BR]] : tensor<1x4x1x1xf32> -> tensor<1x4x8x8xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[X]], %[[W]] {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: %[[CB:.*]] = graph.add %[[C]], %[[BB]] : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[CB]] : tensor<1x4x8x8xf32>
// CHECK-NEXT: %[[P:.*]] = graph.max_pool2d %[[R]], kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
// CHECK-NEXT: return %[[P]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x8x8xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%bb : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %cst : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x8x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %pe = tensor.empty() : tensor<1x4x4x4xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%r, %win : tensor<1x4x8x8xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}

// -----

// NHWC input and HWCF filter: transposes to NCHW and OIHW. A sum pooling
// is an average pooling times the window size.

// CHECK-LABEL: func.func @nhwc(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x8x8x3xf32>, %[[W:[^:]*]]: tensor<3x3x3x4xf32>)
// CHECK-NEXT: %[[XT:.*]] = graph.transpose %[[X]], perm = [0, 3, 1, 2] : tensor<1x8x8x3xf32> -> tensor<1x3x8x8xf32>
// CHECK-NEXT: %[[WT:.*]] = graph.transpose %[[W]], perm = [3, 2, 0, 1] : tensor<3x3x3x4xf32> -> tensor<4x3x3x3xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %[[XT]], %[[WT]] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT: %[[A:.*]] = graph.avg_pool2d %[[C]], kernel = [2, 2] {strides = array<i64: 2, 2>} : tensor<1x4x6x6xf32> -> tensor<1x4x3x3xf32>
// CHECK-NEXT: %[[S:.*]] = graph.scalar_mul %[[A]], 4.000000e+00 : tensor<1x4x3x3xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.transpose %[[S]], perm = [0, 2, 3, 1] : tensor<1x4x3x3xf32> -> tensor<1x3x3x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @nhwc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%z : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %pe = tensor.empty() : tensor<1x3x3x4xf32>
  %pz = linalg.fill ins(%cst : f32) outs(%pe : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%c, %win : tensor<1x6x6x4xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %s : tensor<1x3x3x4xf32>
}

// -----

// Softmax as torch-mlir decomposes it: a max reduction (init -inf, the
// reduced dimension dropped), x - max, exp, a sum reduction (init 0, the
// reduced dimension kept through a constant-0 map), the quotient. The
// reshapes between [2, 4, 1] and [2, 4] cancel.

// CHECK-LABEL: func.func @softmax_decomposed(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf32>)
// CHECK-NEXT: %[[M:.*]] = graph.reduce_max %[[X]], dim = 2 : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[D:.*]] = graph.sub %[[X]], %[[M]] : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[D]] : tensor<2x4x8xf32>
// CHECK-NEXT: %[[S:.*]] = graph.reduce_sum %[[E]], dim = 2 : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.div %[[E]], %[[S]] : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[Y]]
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#r3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#k3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @softmax_decomposed(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %e2 = tensor.empty() : tensor<2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.generic {indexing_maps = [#m3, #r3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x4x8xf32>) outs(%mi : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x4x8xf32>
  %ex = linalg.generic {indexing_maps = [#m3, #r3, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %max : tensor<2x4x8xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x8xf32>
  %e1 = tensor.empty() : tensor<2x4x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %sum = linalg.generic {indexing_maps = [#m3, #k3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x8xf32>) outs(%si : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x1xf32>
  %y = linalg.generic {indexing_maps = [#m3, #k3, #m3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x8xf32>, tensor<2x4x1xf32>) outs(%e3 : tensor<2x4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// GELU (torch-mlir's erf form, with sqrt(2) computed in the body), sigmoid
// (1 / (exp(-x) + 1)) and SiLU (x times that) are recognized whole.

// CHECK-LABEL: func.func @gelu_sigmoid_silu(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = graph.sigmoid %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: %[[U:.*]] = graph.silu %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[G]], %[[S]], %[[U]]
#m2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu_sigmoid_silu(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %cst = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 2.000000e+00 : f32
    %cst_3 = arith.constant 5.000000e-01 : f32
    %0 = arith.subf %in, %cst : f32
    %1 = math.sqrt %cst_2 : f32
    %2 = arith.divf %0, %1 : f32
    %3 = math.erf %2 : f32
    %4 = arith.addf %cst_1, %3 : f32
    %5 = arith.mulf %cst_3, %4 : f32
    %6 = arith.mulf %in, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %cst = arith.constant 1.000000e+00 : f32
    %0 = arith.negf %in : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %cst : f32
    %3 = arith.divf %cst, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  %u = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %cst = arith.constant 1.000000e+00 : f32
    %0 = arith.negf %in : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %cst : f32
    %3 = arith.divf %cst, %2 : f32
    %4 = arith.mulf %in, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<4x8xf32>
  return %g, %s, %u : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Matmuls with transposing indexing maps (IREE's matmul_transpose_b, a
// transposed A) get graph.transpose first; an init that is a splat
// constant is a scalar_add. linalg.transpose and linalg.broadcast.

// CHECK-LABEL: func.func @named(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x8x16xf32>, %[[B:[^:]*]]: tensor<2x32x16xf32>, %[[C:[^:]*]]: tensor<16x8xf32>, %[[D:[^:]*]]: tensor<32x16xf32>)
// CHECK-NEXT: %[[BT:.*]] = graph.transpose %[[B]], perm = [0, 2, 1] : tensor<2x32x16xf32> -> tensor<2x16x32xf32>
// CHECK-NEXT: %[[BMM:.*]] = graph.matmul %[[A]], %[[BT]] : (tensor<2x8x16xf32>, tensor<2x16x32xf32>) -> tensor<2x8x32xf32>
// CHECK-NEXT: %[[CT:.*]] = graph.transpose %[[C]], perm = [1, 0] : tensor<16x8xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[DT:.*]] = graph.transpose %[[D]], perm = [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
// CHECK-NEXT: %[[MM:.*]] = graph.matmul %[[CT]], %[[DT]] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[MMB:.*]] = graph.scalar_add %[[MM]], 1.500000e+00 : tensor<8x32xf32>
// CHECK-NEXT: %[[CTT:.*]] = graph.transpose %[[C]], perm = [1, 0] : tensor<16x8xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[BC:.*]] = graph.broadcast %[[C]] : tensor<16x8xf32> -> tensor<4x16x8xf32>
// CHECK-NEXT: return %[[BMM]], %[[MMB]], %[[CTT]], %[[BC]]
func.func @named(%a: tensor<2x8x16xf32>, %b: tensor<2x32x16xf32>, %c: tensor<16x8xf32>, %d: tensor<32x16xf32>) -> (tensor<2x8x32xf32>, tensor<8x32xf32>, tensor<8x16xf32>, tensor<4x16x8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2x8x32xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x8x16xf32>, tensor<2x32x16xf32>) outs(%z : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %bias = arith.constant dense<1.5> : tensor<8x32xf32>
  %1 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%c, %d : tensor<16x8xf32>, tensor<32x16xf32>) outs(%bias : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e3 = tensor.empty() : tensor<8x16xf32>
  %2 = linalg.transpose ins(%c : tensor<16x8xf32>) outs(%e3 : tensor<8x16xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<4x16x8xf32>
  %3 = linalg.broadcast ins(%c : tensor<16x8xf32>) outs(%e4 : tensor<4x16x8xf32>) dimensions = [0]
  return %0, %1, %2, %3 : tensor<2x8x32xf32>, tensor<8x32xf32>, tensor<8x16xf32>, tensor<4x16x8xf32>
}

// -----

// tensor.collapse_shape and expand_shape are reshapes; tensor.concat; a
// generic that only yields its input through a permuted map is a
// transpose.

// CHECK-LABEL: func.func @shapes(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3x4xf32>, %[[Y:[^:]*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[C:.*]] = graph.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
// CHECK-NEXT: %[[E:.*]] = graph.reshape %[[Y]] : tensor<2x3x4xf32> -> tensor<2x3x2x2xf32>
// CHECK-NEXT: %[[K:.*]] = graph.concat(%[[X]], %[[Y]]) dim = 1 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[X]], perm = [2, 1, 0] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[C]], %[[E]], %[[K]], %[[T]]
func.func @shapes(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<2x6x4xf32>, tensor<4x3x2xf32>) {
  %0 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %1 = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
  %2 = tensor.concat dim(1) %x, %y : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %e = tensor.empty() : tensor<4x3x2xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<4x3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x3x2xf32>
  return %0, %1, %2, %3 : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<2x6x4xf32>, tensor<4x3x2xf32>
}

// -----

// A sum of squares (one body: mulf, then addf into the running value) over
// a dropped dimension, divided by a captured constant (x / c is
// x * (1 / c)); a weight as arith.constant broadcast through a
// constant-0 map is lifted; min(max(x, 1), 6) is one clamp; rsqrt is
// pow -0.5; 1 - x.

// CHECK-LABEL: func.func @mean_and_weights(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[W:[^:]*]]: tensor<1x8xf32> {mirage.lifted_constant = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]]> : tensor<1x8xf32>})
// CHECK-NEXT: %[[SQ:.*]] = graph.square %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = graph.reduce_sum %[[SQ]], dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[SR:.*]] = graph.reshape %[[S]] : tensor<4x1xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[MEAN:.*]] = graph.scalar_mul %[[SR]], 1.250000e-01 : tensor<4xf32>
// CHECK-NEXT: %[[WR:.*]] = graph.reshape %[[W]] : tensor<1x8xf32> -> tensor<8xf32>
// CHECK-NEXT: %[[P:.*]] = graph.mul %[[X]], %[[WR]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[CL:.*]] = graph.clamp %[[P]], min = 1.000000e+00, max = 6.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[RS:.*]] = graph.pow %[[CL]], -5.000000e-01 : tensor<4x8xf32>
// CHECK-NEXT: %[[N:.*]] = graph.scalar_mul %[[RS]], -1.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.scalar_add %[[N]], 1.000000e+00 : tensor<4x8xf32>
// CHECK-NEXT: return %[[MEAN]], %[[Y]]
func.func @mean_and_weights(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %n = arith.constant 8.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %n : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %w : tensor<4x8xf32>, tensor<1x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %c1 = arith.constant 1.000000e+00 : f32
    %c6 = arith.constant 6.000000e+00 : f32
    %0 = arith.mulf %in, %in1 : f32
    %1 = arith.maximumf %0, %c1 : f32
    %2 = arith.minimumf %1, %c6 : f32
    %3 = math.rsqrt %2 : f32
    %4 = arith.subf %c1, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<4x8xf32>
  return %m, %y : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// Named elementwise ops, linalg.elementwise, linalg.map, linalg.reduce
// (into a constant of zeros) and linalg.softmax.

// CHECK-LABEL: func.func @named_elementwise(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[Y:[^:]*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[A:.*]] = graph.add %[[X]], %[[Y]]
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[A]]
// CHECK-NEXT: %[[M:.*]] = graph.mul %[[E]], %[[Y]]
// CHECK-NEXT: %[[SQ:.*]] = graph.square %[[M]]
// CHECK-NEXT: %[[R:.*]] = graph.pow %[[SQ]], -1.000000e+00
// CHECK-NEXT: %[[T:.*]] = graph.tanh %[[R]]
// CHECK-NEXT: %[[RS:.*]] = graph.reduce_sum %[[T]], dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[RR:.*]] = graph.reshape %[[RS]] : tensor<4x1xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = graph.softmax %[[T]], dim = 1 : tensor<4x8xf32>
// CHECK-NEXT: return %[[S]], %[[RR]]
func.func @named_elementwise(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.add ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.exp ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%1, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.square ins(%2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.reciprocal ins(%3 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = linalg.map { math.tanh } ins(%4 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
  %init = arith.constant dense<0.0> : tensor<4xf32>
  %6 = linalg.reduce { arith.addf } ins(%5 : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
  %7 = linalg.softmax dimension(1) ins(%5 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %7, %6 : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// An elementwise body may read its output when the init holds data (here
// a bias broadcast into it): the init is one more input.

// CHECK-LABEL: func.func @reads_init(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[B:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[BB:.*]] = graph.broadcast %[[B]] : tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.add %[[X]], %[[BB]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[Y]]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @reads_init(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %bb = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%bb : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.addf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Two reduction loops reduce one after the other; a bf16 sum into a
// non-zero init adds the init.

// CHECK-LABEL: func.func @two_reductions(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3x4xbf16>, %[[I:[^:]*]]: tensor<3xbf16>)
// CHECK-NEXT: %[[S0:.*]] = graph.reduce_sum %[[X]], dim = 0 : tensor<2x3x4xbf16> -> tensor<1x3x4xbf16>
// CHECK-NEXT: %[[S2:.*]] = graph.reduce_sum %[[S0]], dim = 2 : tensor<1x3x4xbf16> -> tensor<1x3x1xbf16>
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[S2]] : tensor<1x3x1xbf16> -> tensor<3xbf16>
// CHECK-NEXT: %[[Y:.*]] = graph.add %[[R]], %[[I]] : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @two_reductions(%x: tensor<2x3x4xbf16>, %init: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<2x3x4xbf16>) outs(%init : tensor<3xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %1 = arith.addf %out, %in : bf16
    linalg.yield %1 : bf16
  } -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// -----

// A select of an ordered comparison is graph.select of the comparison's
// 0/1 mask, constants as [1] tensors: an attention mask filled with -inf
// (masked_fill) and where(x < y, x, y). A lone math.erf is graph.erf;
// arith.truncf and arith.extf are graph.cast.

// CHECK-LABEL: func.func @select_erf_casts(
// CHECK-SAME: %[[S:[^:]*]]: tensor<2x4xf32>, %[[M:[^:]*]]: tensor<2x4xf32>, %[[Y:[^:]*]]: tensor<2x4xf32>
// CHECK-SAME: %[[Z:[^:]*]]: tensor<1xf32> {mirage.lifted_constant = dense<0.000000e+00> : tensor<1xf32>}
// CHECK-SAME: %[[NINF:[^:]*]]: tensor<1xf32> {mirage.lifted_constant = dense<0xFF800000> : tensor<1xf32>})
// CHECK-NEXT: %[[P:.*]] = graph.gt %[[M]], %[[Z]] : (tensor<2x4xf32>, tensor<1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[A:.*]] = graph.select %[[P]], %[[S]], %[[NINF]] : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[Q:.*]] = graph.lt %[[S]], %[[Y]] : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[B:.*]] = graph.select %[[Q]], %[[S]], %[[Y]] : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[E:.*]] = graph.erf %[[S]] : tensor<2x4xf32>
// CHECK-NEXT: %[[H:.*]] = graph.cast %[[S]] : tensor<2x4xf32> -> tensor<2x4xbf16>
// CHECK-NEXT: %[[F:.*]] = graph.cast %[[H]] : tensor<2x4xbf16> -> tensor<2x4xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[E]], %[[H]], %[[F]]
#ms = affine_map<(d0, d1) -> (d0, d1)>
func.func @select_erf_casts(%s: tensor<2x4xf32>, %m: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xbf16>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %eb = tensor.empty() : tensor<2x4xbf16>
  %a = linalg.generic {indexing_maps = [#ms, #ms, #ms], iterator_types = ["parallel", "parallel"]} ins(%s, %m : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%in: f32, %mk: f32, %out: f32):
    %z = arith.constant 0.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %p = arith.cmpf ogt, %mk, %z : f32
    %r = arith.select %p, %in, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %b = linalg.generic {indexing_maps = [#ms, #ms, #ms], iterator_types = ["parallel", "parallel"]} ins(%s, %y : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %p = arith.cmpf olt, %in, %in2 : f32
    %r = arith.select %p, %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %c = linalg.generic {indexing_maps = [#ms, #ms], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.erf %in : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %h = linalg.generic {indexing_maps = [#ms, #ms], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x4xf32>) outs(%eb : tensor<2x4xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<2x4xbf16>
  %f = linalg.generic {indexing_maps = [#ms, #ms], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<2x4xbf16>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %r = arith.extf %in : bf16 to f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %a, %b, %c, %h, %f : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xbf16>, tensor<2x4xf32>
}
