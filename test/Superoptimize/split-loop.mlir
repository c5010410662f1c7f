// Grids over reduced variables: with too little parallelism over the
// output, the search splits the loop's variable across one more grid
// dimension (docs/Search.md, "Split loops"). The partial kernel writes one
// device tensor per partial result, with a leading dimension for the part
// (an online softmax's output and its (maximum, sum) stats; a matmul's
// partial sums), and a second kernel combines them (block.softmax_merge,
// a sum) and runs what followed the loop. Both results are verified with
// the field test's full bound.
// RUN: mirage-opt %S/../GpuLowering/Inputs/split-loop.mlir --superoptimize="cache=off threads=1" 2>&1 -o %t.mlir | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir

// REMARK: remark: superoptimize @decode part 0: 3 graph op(s) -> 2 kernel(s) (2 graph-defined), was 3; {{.*}}; verified: finite-field test: {{[0-9]+}} tests over {{.*}} false-positive bound 2^-{{[0-9.]+}}; floating point:
// REMARK: remark: superoptimize @gated_long_k part 0: 4 graph op(s) -> 2 kernel(s) (2 graph-defined), was 4; {{.*}}; verified: finite-field test:

// CHECK-LABEL: func.func @decode
// CHECK: %[[P:.*]]:2 = kernel.graph_def({{.*}}) grid = [{{[0-9]+}}, {{[0-9]+}}, [[PARTS:[0-9]+]]] forloop = {{[0-9]+}} : ({{.*}}) -> (tensor<[[PARTS]]x2x16x64xf32>, tensor<[[PARTS]]x2x16x2xf32>)
// CHECK: block.softmax_accum
// CHECK: block.reshape
// CHECK: block.output %{{.*}} omap = <x: 1, y: 2, z: 0>
// CHECK: kernel.graph_def(%[[P]]#0, %[[P]]#1)
// CHECK: block.softmax_merge %{{.*}}, %{{.*}}, dim = 0
// CHECK: return

// CHECK-LABEL: func.func @gated_long_k
// CHECK: %[[G:.*]]:2 = kernel.graph_def({{.*}}) grid = [{{.*}}] forloop = {{[0-9]+}} : ({{.*}}) -> (tensor<[[N:[0-9]+]]x16x16xf32>, tensor<[[N]]x16x16xf32>)
// CHECK-COUNT-2: block.accum sum
// CHECK: kernel.graph_def(%[[G]]#0, %[[G]]#1)
// CHECK-COUNT-2: block.reduce sum %{{.*}}, dim = 0
// CHECK: silu
// CHECK: return
