// The cost of the indexing kernels (issue 24): a gather reads the rows it
// takes and its indices, not the whole table (an embedding lookup of 8
// tokens from a 50257x768 f16 table moves 2 x 8 x 768 x 2 + 8 x 8 bytes);
// scatter, one_hot and topk read and write each operand and result once.
// RUN: mirage-opt %s --estimate-cost="target=sm_90" -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: graph.gather: {{.*}} device memory 24640 B
// CHECK: remark: graph.topk: {{.*}} device memory 896 B
// CHECK: remark: graph.scatter_elements: {{.*}} device memory 1408 B
// CHECK: remark: graph.one_hot: {{.*}} device memory 1280 B
func.func @lookup(%wte: tensor<50257x768xf16>, %ids: tensor<8xi64>, %p: tensor<16x8xf32>,
                  %z: tensor<16x8xf32>) -> (tensor<8x768xf16>, tensor<16x8xf32>, tensor<16x2x8xf32>) {
  %e = graph.gather %wte, %ids, axis = 0 : (tensor<50257x768xf16>, tensor<8xi64>) -> tensor<8x768xf16>
  %v, %i = graph.topk %p, k = 2, dim = 1 : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi64>)
  %s = graph.scatter_elements %z, %i, %v, axis = 1, reduction = add : (tensor<16x8xf32>, tensor<16x2xi64>, tensor<16x2xf32>) -> tensor<16x8xf32>
  %h = graph.one_hot %i : tensor<16x2xi64> -> tensor<16x2x8xf32>
  return %e, %s, %h : tensor<8x768xf16>, tensor<16x8xf32>, tensor<16x2x8xf32>
}
