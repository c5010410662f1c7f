// REQUIRES: ptxas
// Planted lowering bugs: a tile or loop bound off by one in the PTX of the
// reduced RMSNorm (Inputs/reduced/rmsnorm.mlir of test/GpuLowering), each
// run with --emulate through a copy of the manifest that names the edited
// PTX (as in emulate-missing-barrier.mlir). The default schedule lowers it
// to two kernels with 128 threads: rmsnorm_0 normalizes the 2x256 X in one
// CTA; rmsnorm_1 multiplies it by W, a 2x32 slice of the result per CTA
// (grid 4), on tensor cores.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/rn cubin=false" -o /dev/null
//
// 1. The output saver of rmsnorm_1 (BlockToGpu's copyBox): its 2x32 f32
// tile goes out as 8 vectors of 8 halves, `for (u = tid; u < 8; u += 128)`,
// which LLVM emits as `setp.gt.u32 %p, %r, 7` (skip when tid > 7). With 8
// for 7, thread 8 stores the vector after the tile, row 2 of a 2-row
// result: 16 bytes past the end of the output buffer. memcheck (always on)
// fails the run, checkers off or on.
// RUN: test $(grep -c -E 'setp\.gt\.u32[[:space:]]+%%p[0-9]+, %%r[0-9]+, 7;' %t/rn.ptx) -eq 1
// RUN: sed -E 's/(setp\.gt\.u32[[:space:]]+%%p[0-9]+, %%r[0-9]+, )7;/\18;/' %t/rn.ptx > %t/saver.ptx
// RUN: test $(diff %t/rn.ptx %t/saver.ptx | grep -c '^>') -eq 1
// RUN: sed 's/"rn\.ptx"/"saver.ptx"/' %t/rn.json > %t/saver.json
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/saver.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAVER
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/saver.json --emulate --no-initcheck --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAVER
//
// 2. The k loop of rmsnorm_1's matmul (emitMmaLoop): LLVM unrolls it by
// two k16 steps and counts in bytes of A's row, 64 per iteration, up to
// `setp.ne.b64 %p, %rd, 512` (K = 256 halves). With 576 the loop runs one
// iteration, two k tiles, too many: B's rows 256 to 287 lie past the 256x32
// B tile, the last tile of the 17664-byte shared area, and memcheck fails
// the shared read.
// RUN: test $(grep -c -E 'setp\.ne\.b64[[:space:]]+%%p[0-9]+, %%rd[0-9]+, 512;' %t/rn.ptx) -eq 1
// RUN: sed -E 's/(setp\.ne\.b64[[:space:]]+%%p[0-9]+, %%rd[0-9]+, )512;/\1576;/' %t/rn.ptx > %t/kloop.ptx
// RUN: test $(diff %t/rn.ptx %t/kloop.ptx | grep -c '^>') -eq 1
// RUN: sed 's/"rn\.ptx"/"kloop.ptx"/' %t/rn.json > %t/kloop.json
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/kloop.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KLOOP
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/kloop.json --emulate --no-initcheck --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KLOOP
//
// 3. The division loop of rmsnorm_0 (emitRMSNorm: a warp per row, lane l
// writes elements l, l + 32, ... of its row): LLVM tests the current
// index, `setp.lt.u64 %p, %rd, 224`, before stepping on by 32. With
// setp.le, lane 0 also writes element 256 of its row, one past it: row 0's
// warp writes row 1's first element, which row 1's warp writes too with no
// barrier between, and racecheck fails the run; with racecheck off, row
// 1's warp writes past the end of the launch's dynamic shared memory and
// memcheck fails it (the dynamic area is an `.extern .shared` array sized
// by the launch, so no slack hides it). The edit is the first such compare
// after the kernel's div.rn.f32.
// RUN: awk '/div\.rn\.f32/ { d = 1 } d && /setp\.lt\.u64.*, 224;/ { sub(/setp\.lt\.u64/, "setp.le.u64"); d = 0 } { print }' %t/rn.ptx > %t/div.ptx
// RUN: test $(diff %t/rn.ptx %t/div.ptx | grep -c '^> .*setp\.le\.u64') -eq 1
// RUN: test $(diff %t/rn.ptx %t/div.ptx | grep -c '^>') -eq 1
// RUN: sed 's/"rn\.ptx"/"div.ptx"/' %t/rn.json > %t/div.json
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/div.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIV
// RUN: %python %S/Inputs/expect-exit.py 1 mirage-gpu-run %t/div.json --emulate --no-initcheck --no-racecheck 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIV-MEM
//
// The unedited program passes.
// RUN: mirage-gpu-run %t/rn.json --emulate | FileCheck %s --check-prefix=PASS

func.func @rmsnorm(%X: tensor<2x256xf16>, %W: tensor<256x128xf16>) -> tensor<2x128xf16> {
  %n = graph.rms_norm %X : tensor<2x256xf16>
  %y = graph.matmul %n, %W : (tensor<2x256xf16>, tensor<256x128xf16>) -> tensor<2x128xf16>
  return %y : tensor<2x128xf16>
}

// SAVER: mirage-gpu-run: error: launch 1: kernel 'rmsnorm_1' CTA ({{[0-9]+}},0,0) thread (8,0,0) PTX line {{[0-9]+}} 'st.global.v4.b32': memcheck: outside every device buffer: global write of 16 bytes
// SAVER-NOT: output 0
// KLOOP: mirage-gpu-run: error: launch 1: kernel 'rmsnorm_1' CTA ({{[0-9]+}},0,0) thread ({{[0-9]+}},0,0) PTX line {{[0-9]+}} 'ld.shared.b16': memcheck: outside the {{[0-9]+}} bytes of shared memory: shared read
// KLOOP-NOT: output 0
// DIV: mirage-gpu-run: error: launch 0: kernel 'rmsnorm_0' CTA (0,0,0) thread (32,0,0) PTX line {{[0-9]+}} 'st.shared.b32': racecheck: thread 0 wrote these bytes since the last barrier: shared write of 4 bytes
// DIV-NOT: output 0
// PASS: PASS: against the fp64 reference
// DIV-MEM: mirage-gpu-run: error: launch 0: kernel 'rmsnorm_0' CTA (0,0,0) thread (32,0,0) PTX line {{[0-9]+}} 'st.shared.b32': memcheck: outside the {{[0-9]+}} bytes of shared memory: shared write of 4 bytes
