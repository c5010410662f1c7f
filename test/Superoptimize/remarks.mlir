// The search's remark goes through MLIR's remark engine in category
// mirage-search (besides the text remark): one YAML record per subprogram,
// with kernels and costs before and after, states, budgets, cache outcome
// and verification. A cache hit is reported as such, with its
// re-verification.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" --remarks-filter=mirage-search --remark-format=yaml --remarks-output-file=%t/miss.yaml -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s --check-prefix=MISS < %t/miss.yaml
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" --remarks-filter=mirage-search --remark-format=yaml --remarks-output-file=%t/hit.yaml -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=HIT < %t/hit.yaml
// A filter for another concern selects none of them.
// RUN: mirage-opt %s --superoptimize="cache=off" --remarks-filter=mirage-cost --remark-format=yaml --remarks-output-file=%t/none.yaml -o /dev/null 2>/dev/null
// RUN: not grep -q Superoptimize %t/none.yaml
// A budget that binds says so.
// RUN: mirage-opt %s --superoptimize="cache=off state-budget=50" --remarks-filter=mirage-search --remark-format=yaml --remarks-output-file=%t/cut.yaml -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=CUT < %t/cut.yaml

// TEXT: remark: superoptimize @gated part 0: 4 graph op(s) -> 1 kernel(s) (1 graph-defined), was 4

// MISS: --- !Passed
// MISS-NEXT: Pass: 'mirage-search:search'
// MISS-NEXT: Name: Superoptimize
// MISS-NEXT: DebugLoc: { File: '{{.*}}remarks.mlir',
// MISS: Function: gated
// MISS-NEXT: Args:
// MISS-NEXT: - Remark: 'superoptimize @gated part 0'
// MISS-NEXT: - Part: '0'
// MISS-NEXT: - GraphOps: '4'
// MISS-NEXT: - Target: sm_90
// MISS-NEXT: - Cache: miss
// MISS-NEXT: - CacheReverified: 'false'
// MISS-NEXT: - KernelsBefore: '4'
// MISS-NEXT: - KernelsAfter: '1'
// MISS-NEXT: - GraphDefinedKernels: '1'
// MISS-NEXT: - CostBeforeUs: '{{[0-9.]+}}'
// MISS-NEXT: - CostAfterUs: '{{[0-9.]+}}'
// MISS-NEXT: - StatesExplored: '{{[0-9]+}}'
// MISS: - StateBudgetReached: 'false'
// MISS-NEXT: - MemoryBudgetReached: 'false'
// MISS-NEXT: - PeakTaskBytes: '{{[0-9]+}}'
// MISS-NEXT: - TimeLimitReached: 'false'
// MISS-NEXT: - VerificationCut: 'false'
// MISS: - Verification: 'on a reduced instance, 4 of 8 slices of result dimension 0; {{.*}}: finite-field test: {{.*}}'

// HIT: --- !Passed
// HIT-NEXT: Pass: 'mirage-search:cache-hit'
// HIT: - Cache: hit
// HIT-NEXT: - CacheReverified: 'true'
// HIT-NEXT: - KernelsBefore: '4'
// HIT-NEXT: - KernelsAfter: '1'
// HIT: - Verification: 'on a reduced instance, 4 of 8 slices of result dimension 0; {{.*}}: finite-field test: {{.*}}'

// CUT: - StateBudgetReached: 'true'

func.func @gated(%X: tensor<8x512xf16>, %W1: tensor<512x512xf16>, %W2: tensor<512x512xf16>) -> tensor<8x512xf16> {
  %a = graph.matmul %X, %W1 : (tensor<8x512xf16>, tensor<512x512xf16>) -> tensor<8x512xf16>
  %b = graph.matmul %X, %W2 : (tensor<8x512xf16>, tensor<512x512xf16>) -> tensor<8x512xf16>
  %s = graph.silu %a : tensor<8x512xf16>
  %y = graph.mul %s, %b : (tensor<8x512xf16>, tensor<8x512xf16>) -> tensor<8x512xf16>
  return %y : tensor<8x512xf16>
}
