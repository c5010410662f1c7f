// The search is deterministic: its budgets count states, so the same input
// and options give the same µGraph whatever the thread count and the load,
// and a larger budget that does not bind changes nothing. A state budget
// that binds is reported in the remark (and the cut is the same on every
// run too). The time budget is only a safety limit and is not in the cache
// key, so it changes nothing here.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="cache=off threads=1" -o %t/t1.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: mirage-opt %s --superoptimize="cache=off threads=2" -o %t/t2.mlir 2>/dev/null
// RUN: mirage-opt %s --superoptimize="cache=off threads=4 state-budget=100000000 time-budget=1000" -o %t/t4.mlir 2>/dev/null
// RUN: mirage-opt %s --mlir-disable-threading --superoptimize="cache=off" -o %t/t0.mlir 2>/dev/null
// RUN: diff %t/t1.mlir %t/t2.mlir
// RUN: diff %t/t1.mlir %t/t4.mlir
// RUN: diff %t/t1.mlir %t/t0.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/t1.mlir
//
// A budget of 60 states binds (the whole search takes 115): the remark
// says which tasks it cut, and the cut result is the same with 1 and 2 threads.
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 state-budget=60" -o %t/c1.mlir 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: mirage-opt %s --superoptimize="cache=off threads=2 state-budget=60" -o %t/c2.mlir 2>/dev/null
// RUN: diff %t/c1.mlir %t/c2.mlir

// The residual add, then RMSNorm + MatMul fused in one kernel (reading the
// sum the first kernel wrote).
// REMARK: remark: superoptimize @residual_rms_norm_matmul part 0: 3 graph op(s) -> 2 kernel(s) (1 graph-defined), was 3
// REMARK-NOT: budget reached
// REMARK-SAME: verified:
// IR: kernel.binary add
// IR: kernel.graph_def
// IR: block.matmul
// IR: block.accum red_rms
// IR-NOT: kernel.rms_norm

// CUT: remark: superoptimize @residual_rms_norm_matmul part 0:
// CUT-SAME: state budget reached: {{[0-9]+}} of {{[0-9]+}} tasks cut at {{[0-9]+}} states each (budget 60, {{[0-9]+}} round(s)){{(; [0-9]+ tasks for kernels with two outputs not run \(the state budget was spent\))?}}, best so far kept

func.func @residual_rms_norm_matmul(%x: tensor<16x1024xf16>, %r: tensor<16x1024xf16>, %W: tensor<1024x512xf16>) -> (tensor<16x1024xf16>, tensor<16x512xf16>) {
  %h = graph.add %x, %r : (tensor<16x1024xf16>, tensor<16x1024xf16>) -> tensor<16x1024xf16>
  %n = graph.rms_norm %h : tensor<16x1024xf16>
  %y = graph.matmul %n, %W : (tensor<16x1024xf16>, tensor<1024x512xf16>) -> tensor<16x512xf16>
  return %h, %y : tensor<16x1024xf16>, tensor<16x512xf16>
}
