// Byte and FLOP counts of tensors whose sizes do not fit 64 bits: the cost
// model counts in floating point, so a 2^32 x 2^32 f16 tensor is 2^65 bytes,
// not the "0 B" and negative FLOP count of a wrapped 64-bit product.
// RUN: mirage-opt %s --estimate-cost="target=sm_80" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// 2 * 2^64 elements * 2 bytes (read and written) = 2^66 B; 2^64 exp at 4 FLOP.
// CHECK: remark: graph.exp: {{[0-9.]+}} us on sm_80, memory-bound; device memory 73786976294838206464 B, L2 0 B, shared memory 0 B, 73786976294838206464 FLOP
// 2 * 2^32 * 8 * 2^32 = 2^68 FLOP; 2^65 + 2^36 + 2^36 B.
// CHECK: remark: graph.matmul: {{[0-9.]+}} us on sm_80, memory-bound; device memory 36893488284858056704 B, L2 0 B, shared memory 0 B, 295147905179352825856 FLOP
// CHECK: remark: @huge: {{[0-9.]+}} us on sm_80 in 2 kernel(s)
func.func @huge(%x: tensor<4294967296x4294967296xf16>, %w: tensor<4294967296x8xf16>) -> tensor<4294967296x8xf16> {
  %y = graph.exp %x : tensor<4294967296x4294967296xf16>
  %z = graph.matmul %y, %w : (tensor<4294967296x4294967296xf16>, tensor<4294967296x8xf16>) -> tensor<4294967296x8xf16>
  return %z : tensor<4294967296x8xf16>
}
