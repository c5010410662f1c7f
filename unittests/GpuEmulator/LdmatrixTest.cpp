//===- LdmatrixTest.cpp - ldmatrix against the PTX ISA's layout -----------===//
//
// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16, as the ISA's
// "warp-level matrix load" defines it (and stmatrix, its inverse): lane 8m + r gives the address of row
// r of matrix m; lane 4r + w receives word w of row r of each matrix (with
// .trans, elements r of rows 2w and 2w + 1). The rows are 32 rows of 16
// bytes in shared memory, each lane naming one through a table the host
// fills (a permutation, so that no row is where a straight layout would put
// it); every expected word is computed here from that table.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

/// Copies `in` (32 rows of 8 halves) to shared memory, then each lane
/// loads with `ldmatrix` from the shared offset addrs[lane] and stores the
/// registers it got to out[lane * 4 ...]. `guard` may predicate the
/// ldmatrix on %p1 (lanes below 16).
std::string kernel(llvm::StringRef modifiers, unsigned count,
                   llvm::StringRef guard = "") {
  std::string regs = count == 1   ? "{%r10}"
                     : count == 2 ? "{%r10, %r11}"
                                  : "{%r10, %r11, %r12, %r13}";
  std::string store = count == 1   ? "st.global.b32 [%rd8], %r10"
                      : count == 2 ? "st.global.v2.b32 [%rd8], {%r10, %r11}"
                                   : "st.global.v4.b32 [%rd8], {%r10, %r11, "
                                     "%r12, %r13}";
  return llvm::formatv(R"(
.visible .entry k(.param .u64 in, .param .u64 addrs, .param .u64 out) {{
  .shared .align 16 .b8 sm[1024];
  .reg .pred %p<2>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [addrs];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.v4.b32 {{%r2, %r3, %r4, %r5}, [%rd5];
  mov.u32 %r6, sm;
  mul.lo.u32 %r7, %r1, 16;
  add.u32 %r8, %r6, %r7;
  st.shared.v4.b32 [%r8], {{%r2, %r3, %r4, %r5};
  bar.sync 0;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.u32 %r9, [%rd7];
  add.u32 %r9, %r6, %r9;
  {0}ldmatrix.sync.aligned.m8n8.{1}.b16 {2}, [%r9];
  add.s64 %rd8, %rd3, %rd4;
  {3};
  ret;
}
)",
                       guard, modifiers, regs, store)
      .str();
}

/// The stored row lane `lane` names.
unsigned permuted(unsigned lane) { return (5 * lane + 3) % 32; }

struct Outcome {
  std::string error;
  std::vector<uint32_t> words; // out, 4 per lane
  KernelReport report;
};

/// Runs `ptx` with element (row, col) = row << 8 | col and the lanes'
/// shared offsets `addrs`.
Outcome launch(const std::string &ptx, const std::vector<uint32_t> &addrs,
           EmulatorOptions options = {}) {
  std::vector<uint16_t> in(32 * 8);
  for (unsigned row = 0; row < 32; ++row)
    for (unsigned col = 0; col < 8; ++col)
      in[row * 8 + col] = uint16_t(row << 8 | col);
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(32 * 16), addrsAddr = memory.allocate(128),
           outAddr = memory.allocate(32 * 16);
  expectSuccess(memory.writeArray<uint16_t>(inAddr, in));
  expectSuccess(memory.writeArray<uint32_t>(addrsAddr, addrs));
  expectSuccess(memory.writeArray<uint32_t>(outAddr,
                                            std::vector<uint32_t>(128, 0)));
  Outcome result;
  auto report =
      run(ptx, threads(32), {inAddr, addrsAddr, outAddr}, memory, options);
  if (!report) {
    result.error = llvm::toString(report.takeError());
    return result;
  }
  result.report = *report;
  result.words = readBack<uint32_t>(memory, outAddr, 128);
  return result;
}

/// Row addresses for `count` matrices through `permuted`; the other lanes
/// give a misaligned offset, which would fault if it were read.
std::vector<uint32_t> rowAddresses(unsigned count) {
  std::vector<uint32_t> addrs(32, 3);
  for (unsigned lane = 0; lane < 8 * count; ++lane)
    addrs[lane] = permuted(lane) * 16;
  return addrs;
}

uint32_t element(unsigned row, unsigned col) { return row << 8 | col; }

void expectLayout(unsigned count, bool transpose) {
  SCOPED_TRACE(llvm::formatv("x{0}{1}", count, transpose ? ".trans" : "").str());
  std::string mods = llvm::formatv("x{0}{1}.shared", count,
                                   transpose ? ".trans" : "");
  Outcome r = launch(kernel(mods, count), rowAddresses(count));
  ASSERT_EQ(r.error, "");
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned row = lane / 4, w = lane % 4;
    for (unsigned m = 0; m < count; ++m) {
      // The stored rows matrix m's rows come from.
      auto stored = [&](unsigned r) { return permuted(8 * m + r); };
      uint32_t lo = transpose ? element(stored(2 * w), row)
                              : element(stored(row), 2 * w);
      uint32_t hi = transpose ? element(stored(2 * w + 1), row)
                              : element(stored(row), 2 * w + 1);
      EXPECT_EQ(r.words[lane * 4 + m], lo | hi << 16)
          << "lane " << lane << " matrix " << m;
    }
    for (unsigned m = count; m < 4; ++m)
      EXPECT_EQ(r.words[lane * 4 + m], 0u) << "lane " << lane;
  }
}

TEST(LdmatrixTest, FragmentsFollowTheIsaLayout) {
  for (bool transpose : {false, true})
    for (unsigned count : {1u, 2u, 4u})
      expectLayout(count, transpose);
}

TEST(LdmatrixTest, SpellingsOfTheSharedWindowAndOfOneRegister) {
  // shared::cta is the same window; .x1 may name its register alone; the
  // ISA lets .x1 and .m8n8 come in either order (CUTLASS writes .x1 first).
  Outcome a = launch(kernel("x4.shared::cta", 4), rowAddresses(4));
  Outcome b = launch(kernel("x4.shared", 4), rowAddresses(4));
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.words, b.words);
  std::string alone = kernel("x1.shared", 1);
  alone.replace(alone.find("{%r10}, [%r9]"), 6, "%r10");
  Outcome c = launch(alone, rowAddresses(1));
  ASSERT_EQ(c.error, "");
  std::string swapped = kernel("x1.shared", 1);
  swapped.replace(swapped.find("m8n8.x1"), 7, "x1.m8n8");
  Outcome d = launch(swapped, rowAddresses(1));
  ASSERT_EQ(d.error, "");
  EXPECT_EQ(c.words, d.words);
  EXPECT_EQ(c.words[0], element(permuted(0), 0) | element(permuted(0), 1) << 16);
}

TEST(LdmatrixTest, TheWholeWarpMustTakePart) {
  Outcome r = launch(kernel("x4.shared", 4, "@%p1 "), rowAddresses(4));
  EXPECT_NE(r.error.find("ldmatrix.sync.aligned needs all 32 lanes but "
                         "lanes 0x0000ffff execute together"),
            std::string::npos)
      << r.error;
}

TEST(LdmatrixTest, RowsMustBeSixteenByteAlignedAndInside) {
  std::vector<uint32_t> addrs = rowAddresses(4);
  addrs[9] = 8;
  Outcome r = launch(kernel("x4.shared", 4), addrs);
  EXPECT_NE(r.error.find("memcheck: misaligned"), std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("thread (9,0,0)"), std::string::npos) << r.error;
  addrs = rowAddresses(2);
  addrs[3] = 1024;
  r = launch(kernel("x2.shared", 2), addrs);
  EXPECT_NE(r.error.find("memcheck: outside the 1024 bytes of shared memory"),
            std::string::npos)
      << r.error;
}

TEST(LdmatrixTest, UnwrittenRowsTaintOnlyTheWordsTheyFeed) {
  // Rows 32..39 of the 1 KiB were never written: the matrix that reads one
  // of them taints the words it feeds, and storing those is initcheck's
  // error; a matrix of written rows is clean.
  std::vector<uint32_t> addrs = rowAddresses(2);
  addrs[8 + 5] = 37 * 16; // matrix 1, row 5
  Outcome r = launch(kernel("x2.shared", 2), addrs);
  EXPECT_NE(r.error.find("initcheck"), std::string::npos) << r.error;
  // Only the second register is tainted: storing the first alone is fine.
  std::string first = kernel("x2.shared", 2);
  llvm::StringRef pair = "st.global.v2.b32 [%rd8], {%r10, %r11}";
  first.replace(first.find(pair.str()), pair.size(),
                "st.global.b32 [%rd8], %r10");
  r = launch(first, addrs);
  EXPECT_EQ(r.error, "");
}

TEST(LdmatrixTest, WavefrontsCountBankConflictsPerMatrix) {
  EmulatorOptions options;
  options.profile = true;
  // The permuted rows fall in distinct bank quads: one wavefront a matrix.
  Outcome r = launch(kernel("x4.shared", 4), rowAddresses(4), options);
  ASSERT_EQ(r.error, "");
  const ProfileCounters &p = r.report.profile;
  // The copies' st.shared.v4 (4 wavefronts) and the ldmatrix (4).
  EXPECT_EQ(p.sharedIdealWavefronts, 8u);
  EXPECT_EQ(p.sharedWavefronts, 8u);
  EXPECT_EQ(p.instructions[unsigned(InstructionClass::SharedMemory)], 2u);
  // Rows 128 bytes apart share their banks: 8 wavefronts a matrix.
  std::vector<uint32_t> strided(32);
  for (unsigned lane = 0; lane < 32; ++lane)
    strided[lane] = (lane % 8) * 128;
  // Rows past the 512 bytes written are stored back: no initcheck here.
  options.initcheck = false;
  r = launch(kernel("x4.shared", 4), strided, options);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.report.profile.sharedIdealWavefronts, 8u);
  EXPECT_EQ(r.report.profile.sharedWavefronts, 4u + 4 * 8);
}

/// Each lane puts (m << 24 | lane << 16 | m << 8 | lane) in its register
/// of matrix m and stores them with `stmatrix`, row r of matrix m at the
/// shared offset addrs[8m + r]; thread 0 then copies the 512 bytes out.
std::string storeKernel(llvm::StringRef modifiers) {
  return llvm::formatv(R"(
.visible .entry k(.param .u64 addrs, .param .u64 out) {{
  .shared .align 16 .b8 sm[512];
  .reg .pred %p<2>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [addrs];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  mov.u32 %r3, sm;
  add.u32 %r2, %r3, %r2;
  shl.b32 %r4, %r1, 16;
  or.b32 %r4, %r4, %r1;
  or.b32 %r10, %r4, 0;
  or.b32 %r11, %r4, 0x01000100;
  or.b32 %r12, %r4, 0x02000200;
  or.b32 %r13, %r4, 0x03000300;
  stmatrix.sync.aligned.m8n8.{0}.b16 [%r2], {{%r10, %r11, %r12, %r13};
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r5, 0;
LOOP:
  add.u32 %r6, %r3, %r5;
  ld.shared.v4.b32 {{%r7, %r8, %r9, %r14}, [%r6];
  cvt.u64.u32 %rd5, %r5;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.b32 [%rd6], {{%r7, %r8, %r9, %r14};
  add.u32 %r5, %r5, 16;
  setp.lt.u32 %p1, %r5, 512;
  @%p1 bra LOOP;
DONE:
  ret;
}
)",
                       modifiers)
      .str();
}

TEST(LdmatrixTest, StmatrixIsItsInverse) {
  for (bool transpose : {false, true}) {
    SCOPED_TRACE(transpose ? "trans" : "plain");
    std::vector<uint32_t> addrs(32);
    for (unsigned lane = 0; lane < 32; ++lane)
      addrs[lane] = permuted(lane) * 16;
    DeviceMemory memory;
    uint64_t addrsAddr = memory.allocate(128), out = memory.allocate(512);
    expectSuccess(memory.writeArray<uint32_t>(addrsAddr, addrs));
    std::string ptx =
        storeKernel(transpose ? "x4.trans.shared" : "x4.shared::cta");
    ASSERT_EQ(failure(run(ptx, threads(32), {addrsAddr, out}, memory)), "");
    std::vector<uint16_t> got = readBack<uint16_t>(memory, out, 256);
    auto value = [](unsigned lane, unsigned m) {
      return m << 24 | lane << 16 | m << 8 | lane;
    };
    for (unsigned m = 0; m < 4; ++m)
      for (unsigned r = 0; r < 8; ++r)
        for (unsigned c = 0; c < 8; ++c) {
          // Element c of row r of matrix m, where addrs put that row.
          uint16_t stored = got[permuted(8 * m + r) * 8 + c];
          uint32_t word = transpose ? value(4 * c + r / 2, m)
                                    : value(4 * r + c / 2, m);
          unsigned half = transpose ? r % 2 : c % 2;
          EXPECT_EQ(stored, uint16_t(word >> (16 * half)))
              << m << " " << r << " " << c;
        }
  }
}

} // namespace
