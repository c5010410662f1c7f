//===- AtomicsTest.cpp - atom and red against the PTX ISA -----------------===//
//
// atom and red on global and shared memory: nvcc's atomics
// (Inputs/atomics.cu: a shared histogram, a float sum across CTAs,
// tickets, CAS claims, max, min, exch, inc, dec, and, or, xor) against host
// results, red written by hand, and the checks: an atomic on bytes never
// written, a misaligned one, the forms the ISA lacks. Kernels with global
// atomics run their CTAs in grid order, so results that depend on the
// order (tickets, the CAS winners) are what one order gives.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"
#include <algorithm>
#include <numeric>

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

LaunchConfig grid(unsigned ctas, unsigned threadsPerCta) {
  LaunchConfig config;
  config.grid = {ctas, 1, 1};
  config.block = {threadsPerCta, 1, 1};
  return config;
}

TEST(AtomicsTest, NvccHistogramSumAndTickets) {
  auto module = parsePtx(readInput("atomics.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned ctas = 6, block = 128, n = ctas * block;
  std::vector<uint32_t> in(n);
  for (unsigned i = 0; i < n; ++i)
    in[i] = (i * 2654435761u) >> 7;
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(n * 4), bins = memory.allocate(64),
           sum = memory.allocate(4), tickets = memory.allocate(n * 4),
           counter = memory.allocate(4);
  expectSuccess(memory.writeArray<uint32_t>(inAddr, in));
  expectSuccess(memory.writeArray<uint32_t>(bins, std::vector<uint32_t>(16)));
  expectSuccess(memory.writeArray<float>(sum, {0.0f}));
  expectSuccess(memory.writeArray<uint32_t>(counter, {0u}));
  EmulatorOptions options;
  options.threads = 4; // ignored: global atomics run CTAs in grid order
  auto report = launchKernel(*module, "histogram", grid(ctas, block),
                             {inAddr, bins, sum, tickets, counter}, memory,
                             options);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<uint32_t> expected(16);
  double total = 0;
  for (uint32_t v : in) {
    ++expected[v % 16];
    total += v % 7;
  }
  EXPECT_EQ(readBack<uint32_t>(memory, bins, 16), expected);
  // Small integers: every order of the adds gives the exact sum.
  EXPECT_EQ(readBack<float>(memory, sum, 1)[0], float(total));
  EXPECT_EQ(readBack<uint32_t>(memory, counter, 1)[0], n);
  // The old values handed out are the tickets 0 .. n-1, each once; CTAs in
  // grid order take them in order.
  std::vector<uint32_t> got = readBack<uint32_t>(memory, tickets, n);
  for (unsigned c = 0; c < ctas; ++c)
    for (unsigned i = 0; i < block; ++i) {
      EXPECT_GE(got[c * block + i], c * block);
      EXPECT_LT(got[c * block + i], (c + 1) * block);
    }
  std::sort(got.begin(), got.end());
  std::vector<uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(got, all);
}

TEST(AtomicsTest, NvccClaimsAndTheOtherOperations) {
  auto module = parsePtx(readInput("atomics.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned ctas = 3, block = 64, n = ctas * block;
  DeviceMemory memory;
  uint64_t slots = memory.allocate(32), won = memory.allocate(n * 4),
           mx = memory.allocate(4), mn = memory.allocate(4),
           last = memory.allocate(4), wrap = memory.allocate(8),
           bits = memory.allocate(12);
  expectSuccess(memory.writeArray<uint32_t>(slots, std::vector<uint32_t>(8)));
  expectSuccess(memory.writeArray<int32_t>(mx, {INT32_MIN}));
  expectSuccess(memory.writeArray<int32_t>(mn, {INT32_MAX}));
  expectSuccess(memory.writeArray<uint32_t>(last, {0u}));
  expectSuccess(memory.writeArray<uint32_t>(wrap, {5u, 3u}));
  expectSuccess(memory.writeArray<uint32_t>(bits, {~0u, 0u, 0u}));
  auto report =
      launchKernel(*module, "claims", grid(ctas, block),
                   {slots, won, mx, mn, last, wrap, bits}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  // One winner per slot: the first thread of each residue mod 8 in the
  // order the lanes ran, CTA 0's lanes 0-7.
  std::vector<uint32_t> w = readBack<uint32_t>(memory, won, n);
  EXPECT_EQ(std::count(w.begin(), w.end(), 1u), 8);
  for (unsigned t = 0; t < 8; ++t)
    EXPECT_EQ(w[t], 1u) << t;
  std::vector<uint32_t> s = readBack<uint32_t>(memory, slots, 8);
  for (unsigned i = 0; i < 8; ++i)
    EXPECT_EQ(s[i], i + 1);
  int hi = INT32_MIN, lo = INT32_MAX;
  uint32_t inc = 5, dec = 3, x = 0, o = 0, a = ~0u;
  for (unsigned t = 0; t < n; ++t) {
    int v = int(t * 37 % 101) - 50;
    hi = std::max(hi, v);
    lo = std::min(lo, v);
    inc = inc >= 9 ? 0 : inc + 1;
    dec = dec == 0 || dec > 9 ? 9 : dec - 1;
    a &= ~(1u << (t % 32)) | 0x80000000u;
    o |= 1u << (t % 29);
    x ^= t;
  }
  EXPECT_EQ(readBack<int32_t>(memory, mx, 1)[0], hi);
  EXPECT_EQ(readBack<int32_t>(memory, mn, 1)[0], lo);
  EXPECT_EQ(readBack<uint32_t>(memory, last, 1)[0], 7u);
  EXPECT_EQ(readBack<uint32_t>(memory, wrap, 2),
            (std::vector<uint32_t>{inc, dec}));
  EXPECT_EQ(readBack<uint32_t>(memory, bits, 3),
            (std::vector<uint32_t>{a, o, x}));
}

TEST(AtomicsTest, RedAndSharedAtomicsDoNotRaceWithEachOther) {
  // Every thread adds to one shared word with red and to another with
  // atom (returning the old values, 0..31 in lane order), then after a
  // barrier thread 0 writes both out; a 64-bit red.add on global too.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 8 .b32 sm[2];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra WAIT;
  mov.u32 %r2, 0;
  st.shared.v2.u32 [sm], {%r2, %r2};
WAIT:
  bar.sync 0;
  red.shared.add.u32 [sm], %r1;
  atom.relaxed.cta.shared::cta.add.u32 %r3, [sm+4], 1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3+16], %r3;
  cvt.u64.u32 %rd4, %r1;
  red.global.gpu.add.u64 [%rd1+8], %rd4;
  bar.sync 0;
  @%p1 bra DONE;
  ld.shared.v2.u32 {%r4, %r5}, [sm];
  st.global.v2.u32 [%rd1], {%r4, %r5};
DONE:
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(16 + 32 * 4);
  expectSuccess(memory.writeArray<uint64_t>(out, {0, 0}));
  ASSERT_EQ(failure(run(ptx, threads(32), {out}, memory)), "");
  std::vector<uint32_t> got = readBack<uint32_t>(memory, out, 4 + 32);
  EXPECT_EQ(got[0], 31u * 32 / 2);
  EXPECT_EQ(got[1], 32u);
  EXPECT_EQ(readBack<uint64_t>(memory, out + 8, 1)[0], 31u * 32 / 2);
  for (unsigned t = 0; t < 32; ++t)
    EXPECT_EQ(got[4 + t], t) << t;
}

TEST(AtomicsTest, TheChecksStillHold) {
  DeviceMemory memory;
  uint64_t fresh = memory.allocate(8);
  const char *unwritten = R"(
.visible .entry k(.param .u64 p) {
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  atom.global.add.u32 %r1, [%rd1], 1;
  ret;
}
)";
  std::string error = failure(run(unwritten, threads(1), {fresh}, memory));
  EXPECT_NE(error.find("initcheck: reads bytes never written"),
            std::string::npos)
      << error;
  const char *misaligned = R"(
.visible .entry k() {
  .shared .align 4 .b32 sm[4];
  .reg .b32 %r<2>;
  mov.u32 %r1, 0;
  st.shared.v4.u32 [sm], {%r1, %r1, %r1, %r1};
  red.shared.add.u32 [sm+2], 1;
  ret;
}
)";
  error = failure(run(misaligned, threads(1), {}, memory));
  EXPECT_NE(error.find("memcheck: misaligned: shared atomic of 4 bytes at 0x2"),
            std::string::npos)
      << error;
  // A plain store racing with another thread's atomic is still a race.
  const char *racing = R"(
.visible .entry k() {
  .shared .align 4 .b32 sm[1];
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [sm], 0;
  bar.sync 0;
  @%p1 red.shared.add.u32 [sm], 1;
  @!%p1 st.shared.u32 [sm], 5;
  ret;
}
)";
  error = failure(run(racing, threads(64), {}, memory));
  EXPECT_NE(error.find("racecheck"), std::string::npos) << error;
  for (const char *bad :
       {"atom.global.add.b32 %r1, [%rd1], 1;", "red.global.cas.b32 [%rd1], 1, 2;",
        "atom.global.inc.s32 %r1, [%rd1], 1;", "atom.global.gl.add.u32 %r1, [%rd1], 1;",
        "atom.add.u32 %r1, [%rd1], 1;", "atom.global.sc.add.u32 %r1, [%rd1], 1;",
        "atom.global.add.f64 %rd1, [%rd1], %rd1;"}) {
    std::string kernel = std::string(".visible .entry k() { .reg .b32 %r<2>; "
                                     ".reg .b64 %rd<2>; ") +
                         bad + " ret; }";
    error = failure(run(kernel, threads(1), {}, memory));
    EXPECT_NE(error.find("unsupported instruction"), std::string::npos)
        << bad << ": " << error;
  }
}

} // namespace
