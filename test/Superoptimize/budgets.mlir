// Budgets that bind are reported. The memory budget bounds each task's own
// data (abstract expressions, block graphs: 1 MiB here; the gate and the
// second residual make the space large enough for it to bind now that
// rms_norm is one composite op) and the search keeps
// what it found; it bounds the verification too, and a candidate whose
// verification it interrupts (its fp64 runs need about 4 MiB at full size;
// reduce-verification=false keeps it there, where the budget binds) is not
// used: the default schedule is kept and the remark says why. The time budget is
// a safety limit whose cut depends on the machine, so its result is
// reported as such and never cached. Either way the µGraph emitted is
// verified.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="cache=off threads=1 memory-budget=1 reduce-verification=false" -o %t/memory.mlir 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c threads=1 time-budget=0.000001" -o %t/time.mlir 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: not ls %t/c/*.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/memory.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/time.mlir

// MEMORY: remark: superoptimize @residual_rms_norm_silu part 0: 5 graph op(s) -> {{[0-9]}} kernel(s)
// MEMORY-SAME: memory budget reached: {{[0-9]+}} task(s) cut (largest task {{[0-9]+}} MiB); a verification was interrupted (over the memory limit: {{.*}} more than the memory limit of 1.0 MiB): its candidate was not used, best so far kept
// MEMORY-SAME: verified: default schedule kept (a candidate's verification was interrupted, over the memory limit
// TIME: remark: superoptimize @residual_rms_norm_silu part 0:
// TIME-SAME: time limit reached {{in the enumeration|before verification}} after {{[0-9.]+}} s: where it cut depends on the machine, the result may differ between runs and is not cached, best so far kept
// TIME-SAME: verified:
// TIME-SAME: [not cached: cut by the time limit]
// IR: func.func @residual_rms_norm_silu
// IR-NOT: graph.
// IR: return

func.func @residual_rms_norm_silu(%x: tensor<64x1024xf16>, %r: tensor<64x1024xf16>) -> tensor<64x1024xf16> {
  %h = graph.add %x, %r : (tensor<64x1024xf16>, tensor<64x1024xf16>) -> tensor<64x1024xf16>
  %n = graph.rms_norm %h : tensor<64x1024xf16>
  %s = graph.silu %n : tensor<64x1024xf16>
  %g = graph.mul %s, %x : (tensor<64x1024xf16>, tensor<64x1024xf16>) -> tensor<64x1024xf16>
  %o = graph.sub %g, %r : (tensor<64x1024xf16>, tensor<64x1024xf16>) -> tensor<64x1024xf16>
  return %o : tensor<64x1024xf16>
}
