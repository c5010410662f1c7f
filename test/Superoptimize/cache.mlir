// The search cache cannot lie (docs/Search.md, "Cache"): a hit is
// re-verified before it is emitted; a truncated or modified entry fails its
// checksum and is reported, discarded and recomputed; an entry edited and
// resealed with a valid checksum fails re-verification; cache=only never
// searches (a miss or a bad entry is an error); cache=clear empties the
// directory of entries (and only of entries); cache=refresh recomputes.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" -o %t/first.mlir 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: %python %S/Inputs/cache_entry.py count %t/c | FileCheck %s --check-prefix=ONE
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" -o %t/hit.mlir 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: diff %t/first.mlir %t/hit.mlir
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c cache=only" -o %t/only.mlir 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: diff %t/first.mlir %t/only.mlir
//
// A re-verification that the time limit interrupts is no verdict: the entry
// is not used this time but stays (the search runs, is cut, keeps the
// default schedule and stores nothing).
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c time-budget=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HIT-CUT
// RUN: %python %S/Inputs/cache_entry.py count %t/c | FileCheck %s --check-prefix=ONE
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c cache=only" -o %t/only.mlir 2>&1 | FileCheck %s --check-prefix=HIT
//
// A modified byte: the checksum fails; the search runs again and stores a
// good entry.
// RUN: %python %S/Inputs/cache_entry.py edit %t/c "thread.unary exp" "thread.unary sqrt"
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" -o %t/tampered.mlir 2>&1 | FileCheck %s --check-prefix=TAMPERED
// RUN: diff %t/first.mlir %t/tampered.mlir
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c cache=only" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HIT
//
// A truncated entry: the same, and with cache=only an error.
// RUN: %python %S/Inputs/cache_entry.py truncate %t/c 700
// RUN: not mirage-opt %s --superoptimize="cache-dir=%t/c cache=only" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLY-BAD
// RUN: %python %S/Inputs/cache_entry.py count %t/c | FileCheck %s --check-prefix=ONE
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" -o %t/truncated.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: diff %t/first.mlir %t/truncated.mlir
//
// An edited µGraph with a valid checksum: re-verification rejects it.
// RUN: %python %S/Inputs/cache_entry.py edit %t/c "thread.unary exp" "thread.unary sqrt"
// RUN: %python %S/Inputs/cache_entry.py reseal %t/c
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" -o %t/resealed.mlir 2>&1 | FileCheck %s --check-prefix=RESEALED
// RUN: diff %t/first.mlir %t/resealed.mlir
//
// An entry of another version (resealed, so only the version differs).
// RUN: %python %S/Inputs/cache_entry.py edit %t/c "search v" "search v0"
// RUN: %python %S/Inputs/cache_entry.py reseal %t/c
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERSION
//
// cache=only with no entry fails; cache=clear removes entries, not other
// files; cache=refresh searches again although an entry exists.
// RUN: not mirage-opt %s --superoptimize="cache-dir=%t/empty cache=only" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLY-MISS
// RUN: echo keep > %t/c/notes.txt
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c cache=clear" -o %t/cleared.mlir 2>&1 | FileCheck %s --check-prefix=CLEAR
// RUN: test -f %t/c/notes.txt
// RUN: diff %t/first.mlir %t/cleared.mlir
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c cache=clear" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAR
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/c cache=refresh" -o %t/refreshed.mlir 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: diff %t/first.mlir %t/refreshed.mlir
// RUN: %python %S/Inputs/cache_entry.py count %t/c | FileCheck %s --check-prefix=ONE
// cache=false is cache=off: nothing is written.
// RUN: mirage-opt %s --superoptimize="cache-dir=%t/off cache=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: not ls %t/off

// MISS: remark: superoptimize @f part 0: 2 graph op(s) -> 1 kernel(s) (1 graph-defined), was 2; {{.*}}; verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test
// MISS-NOT: from the cache
// ONE: 1
// HIT: remark: superoptimize @f part 0: 2 graph op(s) -> 1 kernel(s) {{.*}} [from the cache in {{.*}}; re-verified: {{(on a reduced instance, [0-9]+ of [0-9]+ slices .*: )?}}finite-field test: {{[0-9]+}} tests {{.*}}; floating point: {{.*}}]
// HIT-CUT: warning: superoptimize: cache entry {{.*}}.mlir for @f part 0 is unusable: its re-verification was interrupted (stopped by the caller's request); not used, searching again
// HIT-CUT: remark: superoptimize @f part 0: {{.*}}time limit reached
// TAMPERED: warning: superoptimize: cache entry {{.*}}.mlir for @f part 0 is unusable: checksum mismatch: the entry was truncated or modified; discarded, searching again
// TAMPERED-NEXT: %a = graph.mul
// TAMPERED: remark: superoptimize @f part 0: 2 graph op(s) -> 1 kernel(s)
// TAMPERED-NOT: from the cache
// ONLY-BAD: error: superoptimize: cache entry {{.*}} for @f part 0 is unusable: checksum mismatch: the entry was truncated or modified (cache=only)
// TRUNCATED: warning: superoptimize: cache entry {{.*}} is unusable: checksum mismatch
// TRUNCATED: remark: superoptimize @f part 0: 2 graph op(s) -> 1 kernel(s)
// RESEALED: warning: superoptimize: cache entry {{.*}} for @f part 0 is unusable: its µGraph failed re-verification (output #0 differs at [{{[0-9, ]+}}] in the {{.*}} check: the subprogram gives {{.*}}, the entry {{.*}}); discarded, searching again
// RESEALED: remark: superoptimize @f part 0: 2 graph op(s) -> 1 kernel(s)
// RESEALED-NOT: from the cache
// VERSION: warning: superoptimize: cache entry {{.*}} is unusable: written by another version (mirage-opt {{.*}}, search v0{{[0-9]+}}, {{.*}}); discarded, searching again
// ONLY-MISS: error: superoptimize: no cache entry for @f part 0 in {{.*}}empty (cache=only)
// CLEAR: remark: superoptimize: removed {{[01]}} cache entr{{y|ies}} from {{.*}}
// CLEAR: remark: superoptimize @f part 0: 2 graph op(s) -> 1 kernel(s)
// CLEAR-NOT: from the cache

func.func @f(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %a = graph.mul %x, %y : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %b = graph.exp %a : tensor<64x128xf32>
  return %b : tensor<64x128xf32>
}
