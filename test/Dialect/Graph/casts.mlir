// graph.cast and graph.erf (issue 24) print, parse and print again
// identically, in the custom and in the generic form; canonicalization
// folds the casts that round nothing.
// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// CHECK-LABEL: func @casts
func.func @casts(%x: tensor<8x64xf16>, %w: tensor<64x32xbf16>, %f: tensor<8x64xf32>)
    -> (tensor<8x32xf32>, tensor<8x64xbf16>, tensor<8x64xf16>, tensor<8x64xf32>) {
  // CHECK: graph.cast %{{.*}} : tensor<8x64xf16> -> tensor<8x64xf32>
  %x32 = graph.cast %x : tensor<8x64xf16> -> tensor<8x64xf32>
  // CHECK: graph.cast %{{.*}} : tensor<64x32xbf16> -> tensor<64x32xf32>
  %w32 = graph.cast %w : tensor<64x32xbf16> -> tensor<64x32xf32>
  // Mixed dtypes meet in f32, each conversion stated.
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %y = graph.matmul %x32, %w32 : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  // CHECK: graph.cast %{{.*}} : tensor<8x64xf16> -> tensor<8x64xbf16>
  %b = graph.cast %x : tensor<8x64xf16> -> tensor<8x64xbf16>
  // CHECK: graph.cast %{{.*}} : tensor<8x64xf32> -> tensor<8x64xf16>
  %h = graph.cast %f : tensor<8x64xf32> -> tensor<8x64xf16>
  // CHECK: graph.erf %{{.*}} : tensor<8x64xf32>
  %e = graph.erf %f : tensor<8x64xf32>
  return %y, %b, %h, %e : tensor<8x32xf32>, tensor<8x64xbf16>, tensor<8x64xf16>, tensor<8x64xf32>
}

// A cast to its own type is its input; f16 -> f32 -> f16 returns x (the
// widening is exact); f16 -> f32 -> bf16 is one rounding of x to bf16.
// f32 -> f16 -> f32 rounds and stays.
// FOLD-LABEL: func @folds
// FOLD-SAME: (%[[X:[a-z0-9]+]]: tensor<4xf16>, %[[F:[a-z0-9]+]]: tensor<4xf32>)
// FOLD-NEXT: %[[B:.*]] = graph.cast %[[X]] : tensor<4xf16> -> tensor<4xbf16>
// FOLD-NEXT: %[[H:.*]] = graph.cast %[[F]] : tensor<4xf32> -> tensor<4xf16>
// FOLD-NEXT: %[[R:.*]] = graph.cast %[[H]] : tensor<4xf16> -> tensor<4xf32>
// FOLD-NEXT: return %[[X]], %[[X]], %[[B]], %[[R]]
func.func @folds(%x: tensor<4xf16>, %f: tensor<4xf32>)
    -> (tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>) {
  %same = graph.cast %x : tensor<4xf16> -> tensor<4xf16>
  %w = graph.cast %x : tensor<4xf16> -> tensor<4xf32>
  %back = graph.cast %w : tensor<4xf32> -> tensor<4xf16>
  %b = graph.cast %w : tensor<4xf32> -> tensor<4xbf16>
  %h = graph.cast %f : tensor<4xf32> -> tensor<4xf16>
  %r = graph.cast %h : tensor<4xf16> -> tensor<4xf32>
  return %same, %back, %b, %r : tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>
}
