// REQUIRES: ptxas
// Planted lowering bugs: a cp.async.wait_group missing or misplaced. On
// chips with cp.async (sm_80 and later), BlockToGpu's copyBox moves a
// global tile to shared memory with cp.async when its rows are whole
// 16-byte vectors and the element type stays the same; the copies are
// committed as a group, and barrier() waits for them (wait_group 0) just
// before the next bar.sync. This 16x64 @ 64x32 f16 matmul copies A and B
// that way, then waits once, before its first barrier. Each edit is run
// with --emulate through a copy of the manifest that names the edited PTX.
// The emulator keeps copied data invisible until the copying thread's wait.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/mm cubin=false" -o /dev/null
// RUN: test $(grep -c 'cp\.async\.cg\.shared\.global' %t/mm.ptx) -eq 2
// RUN: test $(grep -c 'cp\.async\.commit_group' %t/mm.ptx) -eq 2
// RUN: test $(grep -c 'cp\.async\.wait_group' %t/mm.ptx) -eq 1
//
// 1. The wait deleted: after the barrier the mma loads read tiles that no
// copy has reached, and initcheck fails the run (status 1) where what they
// read is used. With initcheck
// and racecheck off, the run still fails: each thread exits with its
// copies never waited for.
// RUN: sed '/cp\.async\.wait_group/d' %t/mm.ptx > %t/nowait.ptx
// RUN: test $(grep -c 'cp\.async\.wait_group' %t/nowait.ptx) -eq 0
// RUN: test $(diff %t/mm.ptx %t/nowait.ptx | grep -c '^<') -eq 1
// RUN: sed 's/"mm\.ptx"/"nowait.ptx"/' %t/mm.json > %t/nowait.json
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/nowait.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/nowait.json --emulate --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/nowait.json --emulate --no-initcheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXIT
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/nowait.json --emulate --no-initcheck --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXIT
//
// 2. The wait after the barrier instead of before it (barrier() emitting
// its two ops in the wrong order): each thread's own copies land, but
// only after the barrier, so a thread can read another's part of a tile
// first. racecheck sees the copy's write and another thread's read between
// the same two barriers (with both checkers on, too: initcheck reports
// uses, not reads, and the race comes first); with racecheck off,
// initcheck sees the use of bytes not yet copied; with both off, the wrong
// values fail the comparison (status 3).
// RUN: sed -E '/cp\.async\.wait_group/{N;s/^(.*)\n(.*bar\.sync.*)$/\2\n\1/}' %t/mm.ptx > %t/late.ptx
// RUN: test $(diff %t/mm.ptx %t/late.ptx | grep -c '^[<>]') -eq 2
// RUN: grep -A1 'bar\.sync' %t/late.ptx | FileCheck %s --check-prefix=LATE
// RUN: sed 's/"mm\.ptx"/"late.ptx"/' %t/mm.json > %t/late.json
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/late.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RACE
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/late.json --emulate --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/late.json --emulate --no-initcheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RACE
// RUN: %python %S/Inputs/expect-exit.py 3 mirage-gpu-run %t/late.json --emulate --no-initcheck --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG
//
// The unedited program passes.
// RUN: mirage-gpu-run %t/mm.json --emulate | FileCheck %s --check-prefix=PASS

func.func @mm(%A: tensor<16x64xf16>, %B: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %c = graph.matmul %A, %B : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}

// INIT: mirage-gpu-run: error: launch 0: kernel 'mm_0' CTA (0,0,0) thread ({{[0-9]+}},0,0) PTX line {{[0-9]+}} '{{st|ld}}.{{.*}}': initcheck: {{.*}} uses bytes never written: shared read of {{[0-9]+}} bytes at 0x{{[0-9a-f]+}} by '{{ld.shared|ldmatrix}}.{{.*}}' at PTX line {{[0-9]+}}
// INIT-NOT: output 0
// EXIT: mirage-gpu-run: error: launch 0: kernel 'mm_0' CTA (0,0,0) thread ({{[0-9]+}},0,0) PTX line {{[0-9]+}} 'ret': thread exits with {{[1-9][0-9]*}} cp.async copies never waited for
// EXIT-NOT: output 0
// LATE: bar.sync
// LATE-NEXT: cp.async.wait_group 0
// RACE: mirage-gpu-run: error: launch 0: kernel 'mm_0' CTA (0,0,0) thread ({{[0-9]+}},0,0) PTX line {{[0-9]+}} '{{ld.shared|ldmatrix}}.{{.*}}': racecheck: thread {{[0-9]+}} wrote these bytes since the last barrier: shared read
// RACE-NOT: output 0
// WRONG: output 0 "result0" [16, 32] f16: {{.*}}: FAIL
// WRONG: FAIL: against the fp64 reference
// PASS: PASS: against the fp64 reference
