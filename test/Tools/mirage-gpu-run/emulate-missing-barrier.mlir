// REQUIRES: ptxas
// A planted bug: the lowered matmul's PTX with a barrier deleted, run with
// --emulate through a copy of the manifest that names the edited PTX. Each
// of its two bar.syncs is needed: without either, racecheck reports the
// shared-memory read of another thread's write, and the run fails (status
// 1) before the comparison. With racecheck off, initcheck finds the use of
// what a read of shared memory nobody wrote yet returned; with both off the wrong values fail
// the comparison (status 3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/mm cubin=false" -o /dev/null
// RUN: test $(grep -c 'bar\.sync' %t/mm.ptx) -eq 2
// RUN: sed '0,/bar\.sync/{/bar\.sync/d}' %t/mm.ptx > %t/first.ptx
// RUN: sed 's/"mm\.ptx"/"first.ptx"/' %t/mm.json > %t/first.json
// RUN: tac %t/mm.ptx | sed '0,/bar\.sync/{/bar\.sync/d}' | tac > %t/second.ptx
// RUN: sed 's/"mm\.ptx"/"second.ptx"/' %t/mm.json > %t/second.json
// RUN: test $(grep -c 'bar\.sync' %t/first.ptx) -eq 1
// RUN: test $(grep -c 'bar\.sync' %t/second.ptx) -eq 1
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/first.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RACE
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/second.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RACE
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/second.json --emulate --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT
// RUN: %python %S/Inputs/expect-exit.py 3 mirage-gpu-run %t/second.json --emulate --no-racecheck --no-initcheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG
// The unedited program passes.
// RUN: mirage-gpu-run %t/mm.json --emulate | FileCheck %s --check-prefix=PASS

func.func @mm(%A: tensor<16x64xf16>, %B: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %c = graph.matmul %A, %B : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}

// RACE: mirage-gpu-run: error: launch 0: kernel 'mm_0' CTA (0,0,0) thread ({{[0-9]+}},0,0) PTX line {{[0-9]+}} '{{ld.shared|ldmatrix}}.{{.*}}': racecheck: thread {{[0-9]+}} wrote these bytes since the last barrier: shared read of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}}
// RACE-NOT: output 0
// INIT: mirage-gpu-run: error: launch 0: kernel 'mm_0' {{.*}} initcheck: {{.*}} uses bytes never written: shared read of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}} by '{{ld.shared|ldmatrix}}.{{.*}}' at PTX line {{[0-9]+}}
// WRONG: output 0 "result0" [16, 32] f16: {{.*}}: FAIL
// WRONG: FAIL: against the fp64 reference
// PASS: PASS: against the fp64 reference
