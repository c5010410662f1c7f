// The cost remarks go through MLIR's remark engine in category mirage-cost:
// one analysis record per kernel and one per function.
// RUN: mirage-opt %s --estimate-cost="target=sm_80" --remarks-filter=mirage-cost --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t.yaml
// RUN: mirage-opt %s --estimate-cost="target=sm_80" --remarks-filter=mirage-search --remark-format=yaml --remarks-output-file=%t.none.yaml -o /dev/null 2>/dev/null
// RUN: not grep -q Cost %t.none.yaml

// CHECK: --- !Analysis
// CHECK-NEXT: Pass: 'mirage-cost:kernel'
// CHECK-NEXT: Name: KernelCost
// CHECK-NEXT: DebugLoc: { File: '{{.*}}estimate-cost-remarks.mlir',
// CHECK: Function: graph
// CHECK-NEXT: Args:
// CHECK-NEXT: - Remark: 'graph.rms_norm: 3.15 us on sm_80, launch-bound'
// CHECK-NEXT: - Op: graph.rms_norm
// CHECK-NEXT: - Target: sm_80
// CHECK-NEXT: - TimeUs: '3.151'
// CHECK-NEXT: - Bound: launch
// CHECK-NEXT: - DeviceMemoryBytes: '262144'
// CHECK-NEXT: - L2Bytes: '0'
// CHECK-NEXT: - SharedMemoryBytes: '0'
// CHECK-NEXT: - Flops: '262144'
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: 'mirage-cost:kernel'
// CHECK: - Op: graph.matmul
// CHECK: - TimeUs: '32.230'
// CHECK-NEXT: - Bound: memory
// CHECK-NEXT: - DeviceMemoryBytes: '50659328'
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: 'mirage-cost:function'
// CHECK-NEXT: Name: FunctionCost
// CHECK: Function: graph
// CHECK: - Remark: '@graph: 35.38 us on sm_80 in 2 kernel(s)'
// CHECK-NEXT: - Target: sm_80
// CHECK-NEXT: - TimeUs: '35.381'
// CHECK-NEXT: - Kernels: '2'

func.func @graph(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %n = graph.rms_norm %X : tensor<16x4096xf16>
  %y = graph.matmul %n, %W : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16>
  return %y : tensor<16x6144xf16>
}
