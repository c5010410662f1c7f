// REQUIRES: ptxas
// Planted lowering bugs: misplaced mma.sync fragments. An f16 matmul runs
// on tensor cores wherever the chip has an mma.sync (sm_75: m16n8k8; sm_80
// and later: m16n8k16, which the emulator runs); this 16x64 @ 64x32 one is
// one CTA of 4 warps, each owning a 16x8 fragment of the result and making
// four m16n8k16 steps over K. Each edit swaps two registers in the operand
// lists of the mma.sync instructions of the PTX, run with --emulate through
// a copy of the manifest that names the edited PTX. No checker can see this
// (every access is in bounds and ordered): the wrong values fail the
// comparison with the fp64 reference, status 3.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mirage-opt %s --mirage-to-ptx="target=sm_80 output=%t/mm cubin=false" -o /dev/null
// RUN: test $(grep -c 'mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32' %t/mm.ptx) -eq 4
//
// 1. A transposed A fragment, in all four steps. LLVM prints an mma.sync
// over four lines, D, A, B, C; A is {a0, a1, a2, a3}, the halves of rows
// g, g + 8, g, g + 8 at columns 2t, 2t, 2t + 8, 2t + 8 (g = lane / 4,
// t = lane % 4). Swapping a1 and a2 is what emitMmaLoop would emit with
// its loads in row-major order, (g, 2t), (g, 2t + 8), (g + 8, 2t), ...:
// the two off-diagonal 8x8 blocks of each 16x16 tile of A trade places.
// RUN: sed -E '/mma\.sync/{n;n;s/^([[:space:]]*\{%%r[0-9]+, )(%%r[0-9]+), (%%r[0-9]+)(, %%r[0-9]+\},)$/\1\3, \2\4/}' %t/mm.ptx > %t/a.ptx
// RUN: test $(diff %t/mm.ptx %t/a.ptx | grep -c '^>') -eq 4
// RUN: sed 's/"mm\.ptx"/"a.ptx"/' %t/mm.json > %t/a.json
// RUN: %python %S/Inputs/expect-exit.py 3 mirage-gpu-run %t/a.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG
//
// 2. A misplaced B fragment, in the first step only: B is {b0, b1}, rows
// 2t, 2t + 1 and 2t + 8, 2t + 9 of the 16x8 tile at column g; swapping
// them trades the tile's two halves along K.
// RUN: sed -E '0,/mma\.sync/{/mma\.sync/{n;n;n;s/^([[:space:]]*\{)(%%r[0-9]+), (%%r[0-9]+)(\},)$/\1\3, \2\4/}}' %t/mm.ptx > %t/b.ptx
// RUN: test $(diff %t/mm.ptx %t/b.ptx | grep -c '^>') -eq 1
// RUN: sed 's/"mm\.ptx"/"b.ptx"/' %t/mm.json > %t/b.json
// RUN: %python %S/Inputs/expect-exit.py 3 mirage-gpu-run %t/b.json --emulate 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG
//
// The unedited program passes.
// RUN: mirage-gpu-run %t/mm.json --emulate | FileCheck %s --check-prefix=PASS

func.func @mm(%A: tensor<16x64xf16>, %B: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %c = graph.matmul %A, %B : (tensor<16x64xf16>, tensor<64x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}

// WRONG-NOT: error
// WRONG: launch 0 "mm_0"
// WRONG: output 0 "result0" [16, 32] f16: {{.*}}relative error {{.*}}: FAIL
// WRONG: FAIL: against the fp64 reference
// PASS: PASS: against the fp64 reference
