// The options of --graph-saturate's scheduler and extraction, stated in its
// remark per function: the e-node limit (node-factor times the input's
// e-nodes, at least 2000), Tensat's limit on rules with two outputs
// (multi-iter-limit) and the sharing extraction's evaluation budget
// (extract-eval-limit; a budget of 1 leaves greedy's pick, and says so).
// RUN: mirage-opt %s -split-input-file -verify-diagnostics --graph-saturate="iter-limit=2 multi-iter-limit=1 extract-eval-limit=1" -o /dev/null
// RUN: mirage-opt %s -split-input-file --graph-saturate="iter-limit=1 node-factor=1000 extraction=greedy" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FACTOR

// FACTOR: limits: 7000 e-nodes, 1 iterations;
// FACTOR: limits: 2000 e-nodes, 1 iterations;

// expected-remark@+1 {{limits: 2000 e-nodes, 2 iterations, rules with two outputs in the first 1 iteration(s) only;}}
func.func @two_matmuls(%x: tensor<64x1024xf16>, %w1: tensor<1024x1024xf16> {mirage.weight}, %w2: tensor<1024x1024xf16> {mirage.weight}) -> (tensor<64x1024xf16>, tensor<64x1024xf16>) {
  %a = graph.matmul %x, %w1 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %b = graph.matmul %x, %w2 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %ra = graph.relu %a : tensor<64x1024xf16>
  %rb = graph.relu %b : tensor<64x1024xf16>
  return %ra, %rb : tensor<64x1024xf16>, tensor<64x1024xf16>
}

// -----

// expected-remark@+1 {{extraction: sharing (11.84 us greedy -> 11.84 us by 0 switch(es), 0 bundle(s) of them, 1 evaluations, stopped by extract-eval-limit)}}
func.func @budget(%x: tensor<64x1024xf16>, %w1: tensor<1024x1024xf16> {mirage.weight}, %w2: tensor<1024x1024xf16> {mirage.weight}) -> (tensor<64x1024xf16>, tensor<64x1024xf16>) {
  %a = graph.matmul %x, %w1 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %b = graph.matmul %x, %w2 : (tensor<64x1024xf16>, tensor<1024x1024xf16>) -> tensor<64x1024xf16>
  %ra = graph.relu %a : tensor<64x1024xf16>
  %rb = graph.relu %b : tensor<64x1024xf16>
  return %ra, %rb : tensor<64x1024xf16>, tensor<64x1024xf16>
}

// -----

// expected-remark@+1 {{no cheaper graph extracted}}
func.func @relu(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.relu %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
