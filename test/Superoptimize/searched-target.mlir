// REQUIRES: ptxas
// A program remembers the target it was searched for (`mirage.target` on
// the function), and the passes after the search use it: the cost report,
// kernel-to-block, block-to-gpu and the #nvvm.target of --mirage-to-ptx.
// Naming another target warns; the code is then for the named one.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="target=sm_80 cache=false" -o %t/s.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t/s.mlir
// RUN: mirage-opt %t/s.mlir --estimate-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: mirage-opt %t/s.mlir --mirage-to-ptx="output=%t/a cubin=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=PTX80 < %t/a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST80 < %t/a.json
// RUN: mirage-opt %t/s.mlir --mirage-to-ptx="target=sm_90 output=%t/b cubin=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PTX90 < %t/b.ptx
// A product of the same chip does not warn: the H100's arch is sm_90.
// RUN: mirage-opt %t/s.mlir --superoptimize="target=sm_90 cache=false" -o %t/s90.mlir 2>/dev/null
// RUN: mirage-opt %t/s90.mlir --mirage-to-ptx="target=H100-SXM5-80GB output=%t/c cubin=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=PTX90 < %t/c.ptx

// IR: func.func @f({{.*}} attributes {mirage.target = "sm_80"}
// COST: remark: @f: {{.*}} us on sm_80 in 1 kernel(s)
// QUIET-NOT: warning
// PTX80: .target sm_80
// MANIFEST80: "chip": "sm_80"
// WARN: warning: block-to-gpu: lowering for target 'sm_90', but the function was searched for 'sm_80' (its µGraphs were ranked by that chip's cost model); leave `target` unset to lower for the searched target
// WARN-NOT: warning
// PTX90: .target sm_90

func.func @f(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %e = graph.exp %x : tensor<16x64xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<16x64xf16> -> tensor<16x1xf16>
  %y = graph.div %e, %s : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x64xf16>
  return %y : tensor<16x64xf16>
}
