//===- WarpCollectivesTest.cpp - vote, activemask, lanemasks, warp barrier ===//
//
// vote.sync (ballot, all, any, uni), activemask, the %lanemask_* special
// registers and bar.warp.sync, as the PTX ISA defines them and as nvcc
// writes __ballot_sync, __all_sync, __any_sync, __uni_sync, __activemask,
// __lanemask_lt and __syncwarp; every expected value is computed here.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

/// Each of 64 threads (two warps) stores, at out[8 t ...]: the ballot of
/// (in[t] odd), all/any/uni of it as 0/1, the activemask, and its
/// %lanemask_eq, _lt and _ge.
const char *kVotes = R"(
.visible .entry k(.param .u64 in, .param .u64 out) {
  .reg .pred %p<6>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  and.b32 %r3, %r2, 1;
  setp.ne.u32 %p1, %r3, 0;
  vote.sync.ballot.b32 %r4, %p1, -1;
  vote.sync.all.pred %p2, %p1, -1;
  vote.sync.any.pred %p3, %p1, 0xffffffff;
  vote.sync.uni.pred %p4, !%p1, -1;
  selp.u32 %r5, 1, 0, %p2;
  selp.u32 %r6, 1, 0, %p3;
  selp.u32 %r7, 1, 0, %p4;
  activemask.b32 %r8;
  mov.u32 %r9, %lanemask_eq;
  mov.u32 %r10, %lanemask_lt;
  mov.u32 %r11, %lanemask_ge;
  mul.wide.u32 %rd5, %r1, 32;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};
  st.global.v4.u32 [%rd6+16], {%r8, %r9, %r10, %r11};
  ret;
}
)";

std::vector<uint32_t> votes(const std::vector<uint32_t> &in) {
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(64 * 4), out = memory.allocate(64 * 32);
  expectSuccess(memory.writeArray<uint32_t>(inAddr, in));
  std::string error = failure(run(kVotes, threads(64), {inAddr, out}, memory));
  EXPECT_EQ(error, "");
  return readBack<uint32_t>(memory, out, 64 * 8);
}

TEST(WarpCollectivesTest, VotesAndLanemasks) {
  // Warp 0: odd at lanes 3, 7, 30; warp 1: all odd.
  std::vector<uint32_t> in(64, 2);
  in[3] = in[7] = in[30] = 5;
  for (unsigned t = 32; t < 64; ++t)
    in[t] = 2 * t + 1;
  std::vector<uint32_t> out = votes(in);
  for (unsigned t = 0; t < 64; ++t) {
    SCOPED_TRACE(t);
    unsigned lane = t % 32;
    uint32_t ballot = t < 32 ? (1u << 3 | 1u << 7 | 1u << 30) : ~0u;
    const uint32_t *o = &out[8 * t];
    EXPECT_EQ(o[0], ballot);
    EXPECT_EQ(o[1], ballot == ~0u ? 1u : 0u);            // all
    EXPECT_EQ(o[2], ballot != 0 ? 1u : 0u);              // any
    EXPECT_EQ(o[3], ballot == ~0u || ballot == 0 ? 1u : 0u); // uni of !p
    EXPECT_EQ(o[4], ~0u);                                 // activemask
    EXPECT_EQ(o[5], 1u << lane);
    EXPECT_EQ(o[6], (1u << lane) - 1);
    EXPECT_EQ(o[7], ~((1u << lane) - 1));
  }
}

TEST(WarpCollectivesTest, AllLanesAgreeingIsUniform) {
  std::vector<uint32_t> out = votes(std::vector<uint32_t>(64, 4));
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], 0u);
  EXPECT_EQ(out[3], 1u);
}

/// Lanes below `split` take one branch, the others another; each side
/// stores its activemask and a ballot over its own lanes.
TEST(WarpCollectivesTest, DivergentLanesSeeTheirOwnActivemask) {
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  setp.lt.u32 %p1, %r1, 12;
  @%p1 bra LOW;
  activemask.b32 %r2;
  setp.ge.u32 %p2, %r1, 20;
  vote.sync.ballot.b32 %r3, %p2, 0xfffff000;
  bra DONE;
LOW:
  activemask.b32 %r2;
  vote.sync.ballot.b32 %r3, %p1, 0x00000fff;
DONE:
  st.global.v2.u32 [%rd3], {%r2, %r3};
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(32 * 8);
  ASSERT_EQ(failure(run(ptx, threads(32), {out}, memory)), "");
  std::vector<uint32_t> got = readBack<uint32_t>(memory, out, 64);
  for (unsigned t = 0; t < 32; ++t) {
    bool low = t < 12;
    EXPECT_EQ(got[2 * t], low ? 0x00000fffu : 0xfffff000u) << t;
    EXPECT_EQ(got[2 * t + 1], low ? 0x00000fffu : 0xfff00000u) << t;
  }
}

TEST(WarpCollectivesTest, AMembermaskOfLanesNotHereIsAnError) {
  const char *ptx = R"(
.visible .entry k() {
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 vote.sync.ballot.b32 %r2, %p1, -1;
  ret;
}
)";
  DeviceMemory memory;
  std::string error = failure(run(ptx, threads(32), {}, memory));
  EXPECT_NE(error.find("membermask 0xffffffff but lanes 0x0000ffff execute "
                       "together"),
            std::string::npos)
      << error;
}

/// Lane t writes sm[t], then (after `sync`) reads sm[t ^ 1]: __syncwarp
/// orders the two, without it racecheck reports the read.
std::string exchange(llvm::StringRef sync) {
  return llvm::formatv(R"(
.visible .entry k(.param .u64 out) {{
  .shared .align 4 .b32 sm[32];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  mul.lo.u32 %r5, %r1, 10;
  st.shared.u32 [%r4], %r5;
  {0}
  xor.b32 %r6, %r1, 1;
  shl.b32 %r6, %r6, 2;
  add.s32 %r6, %r2, %r6;
  ld.shared.u32 %r7, [%r6];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)",
                       sync)
      .str();
}

TEST(WarpCollectivesTest, SyncwarpOrdersSharedAccessesForRacecheck) {
  DeviceMemory memory;
  uint64_t out = memory.allocate(32 * 4);
  ASSERT_EQ(failure(run(exchange("bar.warp.sync -1;"), threads(32), {out},
                        memory)),
            "");
  std::vector<uint32_t> got = readBack<uint32_t>(memory, out, 32);
  for (unsigned t = 0; t < 32; ++t)
    EXPECT_EQ(got[t], (t ^ 1) * 10) << t;
  std::string error = failure(run(exchange(""), threads(32), {out}, memory));
  EXPECT_NE(error.find("racecheck"), std::string::npos) << error;
}

} // namespace

//===----------------------------------------------------------------------===//
// Inputs/warp_collectives.cu, as nvcc -O3 --ptx -arch=sm_80 writes it
//===----------------------------------------------------------------------===//

namespace {

TEST(WarpCollectivesTest, NvccVotesMatchHost) {
  auto module = parsePtx(readInput("warp_collectives.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned n = 256;
  std::vector<int32_t> in(n);
  for (unsigned t = 0; t < n; ++t)
    in[t] = int32_t((t * 2654435761u) % 2001) - (t < 128 ? 0 : 1000) +
            (t >= 64 && t < 96 ? 5000 : 0);
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(n * 4), out = memory.allocate(n * 16);
  expectSuccess(memory.writeArray<int32_t>(inAddr, in));
  LaunchConfig config;
  config.grid = {2, 1, 1};
  config.block = {128, 1, 1};
  auto report =
      launchKernel(*module, "warp_vote", config, {inAddr, out}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<uint32_t> got = readBack<uint32_t>(memory, out, n * 4);
  for (unsigned warp = 0; warp < n / 32; ++warp) {
    uint32_t ballot = 0, threes = 0;
    bool all = true, any = false;
    for (unsigned lane = 0; lane < 32; ++lane) {
      int32_t v = in[warp * 32 + lane];
      ballot |= uint32_t(v & 1) << lane;
      threes |= uint32_t(v % 3 == 0) << lane;
      all &= v > 0;
      any |= v > 1000;
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned t = warp * 32 + lane;
      SCOPED_TRACE(t);
      EXPECT_EQ(got[4 * t], ballot);
      EXPECT_EQ(got[4 * t + 1],
                unsigned(__builtin_popcount(ballot & ((1u << lane) - 1))));
      EXPECT_EQ(got[4 * t + 2], uint32_t(all) | uint32_t(any) << 1);
      // The lanes taking the branch run it together: the mask of them.
      EXPECT_EQ(got[4 * t + 3], in[t] % 3 == 0 ? threes : 0u);
    }
  }
}

TEST(WarpCollectivesTest, NvccLdmatrixMatchesTheIsaLayout) {
  auto module = parsePtx(readInput("warp_collectives.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  std::vector<uint16_t> rows(32 * 8);
  for (unsigned r = 0; r < 32; ++r)
    for (unsigned c = 0; c < 8; ++c)
      rows[r * 8 + c] = uint16_t(r << 8 | c);
  DeviceMemory memory;
  uint64_t in = memory.allocate(512), out = memory.allocate(32 * 32);
  expectSuccess(memory.writeArray<uint16_t>(in, rows));
  auto report =
      launchKernel(*module, "ldmatrix_rows", threads(32), {in, out}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<uint32_t> got = readBack<uint32_t>(memory, out, 32 * 8);
  auto stored = [](unsigned lane) { return (5 * lane + 3) % 32; };
  auto element = [&](unsigned row, unsigned col) {
    return uint32_t(rows[row * 8 + col]);
  };
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned m = 0; m < 4; ++m) {
      unsigned r = lane / 4, w = lane % 4;
      uint32_t plain = element(stored(8 * m + r), 2 * w) |
                       element(stored(8 * m + r), 2 * w + 1) << 16;
      uint32_t trans = element(stored(8 * m + 2 * w), r) |
                       element(stored(8 * m + 2 * w + 1), r) << 16;
      EXPECT_EQ(got[8 * lane + m], plain) << lane << " " << m;
      EXPECT_EQ(got[8 * lane + 4 + m], trans) << lane << " " << m;
    }
}

} // namespace
