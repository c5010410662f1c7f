// Ops the search does not handle (rms_norm with eps) split the function:
// they keep their predefined kernel and the ops on either side are searched
// on their own. A transpose joins the subprogram that produces its operand
// (data movement, followed through the index variables); here no block
// graph writes the transposed layout, so its predefined kernel stays. A
// second run is served from the cache and gives the same output.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache-dir=%t/cache" -o %t/first.mlir 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache-dir=%t/cache" -o %t/second.mlir 2>&1 | FileCheck %s --check-prefix=CACHED
// RUN: diff %t/first.mlir %t/second.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/first.mlir

// CHECK: remark: superoptimize @f part 0: 3 graph op(s) -> 2 kernel(s) (1 graph-defined), was 3
// CHECK: remark: superoptimize @f part 1: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2
// CACHED: remark: superoptimize @f part 0: {{.*}}[from the cache in
// CACHED: remark: superoptimize @f part 1: {{.*}}[from the cache in

// IR-LABEL: func.func @f
// IR: kernel.graph_def
// IR: kernel.transpose
// IR: kernel.rms_norm
// IR-SAME: eps
// IR: kernel.graph_def
// IR-NOT: graph.
// IR: return

func.func @f(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<128x64xf32> {
  %a = graph.mul %x, %y : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %b = graph.exp %a : tensor<64x128xf32>
  %t = graph.transpose %b, perm = [1, 0] : tensor<64x128xf32> -> tensor<128x64xf32>
  %n = graph.rms_norm %t {eps = 1.0e-6 : f64} : tensor<128x64xf32>
  %c = graph.square %n : tensor<128x64xf32>
  %d = graph.add %c, %n : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
  return %d : tensor<128x64xf32>
}
