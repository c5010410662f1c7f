//===- ExecutorTest.cpp - running PTX kernels in the emulator -------------===//
//
// Small hand-written kernels and nvcc's warp_reduce.ptx, run by launchKernel;
// every expected value is computed here by plain host loops.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/MmaFragments.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "EmulatorTestSupport.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

/// The f16 encoding of a value that f16 represents exactly (a normal
/// number or zero), computed from its f32 encoding.
uint16_t halfOf(float value) {
  uint32_t bits = bitsOf(value);
  uint16_t sign = (bits >> 16) & 0x8000;
  if (value == 0)
    return sign;
  int exponent = int((bits >> 23) & 0xff) - 127 + 15;
  return sign | uint16_t(exponent << 10) | uint16_t((bits >> 13) & 0x3ff);
}

TEST(ExecutorTest, IntegerAndFloatOps) {
  const char *ptx = R"(
.visible .entry k(.param .u64 out, .param .u64 outf) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<6>;
  .reg .b16 %h<3>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [outf];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 32;
  add.s64 %rd4, %rd1, %rd3;
  mad.lo.s32 %r2, %r1, 7, -100;
  st.global.u32 [%rd4], %r2;
  shl.b32 %r3, %r1, 3;
  xor.b32 %r3, %r3, 0x55;
  st.global.u32 [%rd4+4], %r3;
  shr.s32 %r4, %r2, 2;
  st.global.u32 [%rd4+8], %r4;
  min.s32 %r5, %r2, 0;
  st.global.u32 [%rd4+12], %r5;
  setp.lt.u32 %p1, %r1, 10;
  selp.b32 %r6, 111, 222, %p1;
  st.global.u32 [%rd4+16], %r6;
  bfe.u32 %r7, %r3, 2, 4;
  st.global.u32 [%rd4+20], %r7;
  cvt.rn.f32.s32 %f1, %r2;
  mul.rn.f32 %f2, %f1, 0f3F000000;
  fma.rn.f32 %f3, %f2, %f2, 0f3F800000;
  cvt.rzi.s32.f32 %r8, %f3;
  st.global.u32 [%rd4+24], %r8;
  cvt.rn.f16.f32 %h1, %f2;
  cvt.rn.f16.f32 %h2, %f1;
  mov.b32 %r9, {%h1, %h2};
  st.global.u32 [%rd4+28], %r9;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd5, %rd2, %rd3;
  div.rn.f32 %f4, %f1, 0f40400000;
  neg.f32 %f4, %f4;
  st.global.v2.f32 [%rd5], {%f3, %f4};
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(32 * 32), outf = memory.allocate(32 * 8);
  ASSERT_EQ(failure(run(ptx, threads(32), {out, outf}, memory)), "");
  auto ints = readBack<int32_t>(memory, out, 32 * 8);
  auto floats = readBack<float>(memory, outf, 32 * 2);
  for (int t = 0; t < 32; ++t) {
    int32_t v = 7 * t - 100;
    uint32_t x = uint32_t(t << 3) ^ 0x55;
    float half = v * 0.5f, fused = std::fma(half, half, 1.0f);
    EXPECT_EQ(ints[8 * t + 0], v);
    EXPECT_EQ(uint32_t(ints[8 * t + 1]), x);
    EXPECT_EQ(ints[8 * t + 2], v >> 2);
    EXPECT_EQ(ints[8 * t + 3], std::min(v, 0));
    EXPECT_EQ(ints[8 * t + 4], t < 10 ? 111 : 222);
    EXPECT_EQ(uint32_t(ints[8 * t + 5]), (x >> 2) & 0xf);
    EXPECT_EQ(ints[8 * t + 6], int32_t(std::trunc(fused)));
    EXPECT_EQ(uint32_t(ints[8 * t + 7]),
              uint32_t(halfOf(half)) | uint32_t(halfOf(float(v))) << 16);
    EXPECT_EQ(floats[2 * t], fused);
    EXPECT_EQ(floats[2 * t + 1], -(float(v) / 3.0f));
  }
}

TEST(ExecutorTest, ReadOnlyLoadsAndCacheHints) {
  // nvcc emits ld.global.nc for const __restrict__ pointers and cache hints
  // on loads and stores; they read and write what plain ones do.
  const char *ptx = R"(
.visible .entry k(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<8>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  ld.global.nc.L1::no_allocate.f32 %f5, [%rd4+4];
  ld.global.cg.f32 %f6, [%rd4+8];
  mov.b32 %r2, %f2;
  lop3.b32 %r3, %r2, %r1, 255, 0x6A;
  mov.b32 %r4, %f4;
  xor.b32 %r5, %r4, %r3;
  add.rn.f32 %f1, %f1, %f5;
  add.rn.f32 %f3, %f3, %f6;
  st.global.cs.v4.f32 [%rd5], {%f1, %f2, %f3, %f4};
  st.global.b32 [%rd5+4], %r5;
  ret;
}
)";
  DeviceMemory memory;
  std::vector<float> in(4 * 32);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(i) * 0.5f - 7.0f;
  uint64_t inAddr = memory.allocate(in.size() * 4), out = memory.allocate(in.size() * 4);
  expectSuccess(memory.writeArray(inAddr, llvm::ArrayRef<float>(in)));
  ASSERT_EQ(failure(run(ptx, threads(32), {inAddr, out}, memory)), "");
  auto values = readBack<float>(memory, out, in.size());
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(values[4 * t + 0], in[4 * t] + in[4 * t + 1]);
    // lop3 0x6A = (a & b) ^ c: (bits(in[1]) & t) ^ 255, xor'ed with
    // bits(in[3]).
    uint32_t expected = ((bitsOf(in[4 * t + 1]) & uint32_t(t)) ^ 255u) ^
                        bitsOf(in[4 * t + 3]);
    EXPECT_EQ(bitsOf(values[4 * t + 1]), expected);
    EXPECT_EQ(values[4 * t + 2], in[4 * t + 2] + in[4 * t + 2]);
    EXPECT_EQ(values[4 * t + 3], in[4 * t + 3]);
  }
  // A read-only load of bytes the launch itself wrote is undefined on the
  // hardware: initcheck's record of the launch's writes reports it.
  const char *stale = R"(
.visible .entry k(.param .u64 buf) {
  .reg .f32 %f<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [buf];
  st.global.f32 [%rd1], 0f3F800000;
  ld.global.nc.f32 %f1, [%rd1];
  ret;
}
)";
  std::string message = failure(run(stale, threads(1), {out}, memory));
  EXPECT_NE(message.find("ld.global.nc reads bytes this launch wrote"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("PTX line 10 'ld.global.nc.f32'"), std::string::npos)
      << message;
}

TEST(ExecutorTest, SixteenBitMultiplies) {
  // mul.lo/.hi/.wide and mad.lo on u16 and s16 (§9.7.1.3, §9.7.1.4), as
  // LLVM emits for the index arithmetic of some searched kernels: each
  // thread multiplies two values derived from its index, chosen so that
  // products overflow 16 bits and signs differ.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b16 %h<12>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mad.lo.s32 %r2, %r1, 2741, 40000;
  mad.lo.s32 %r3, %r1, -1013, 333;
  cvt.u16.u32 %h1, %r2;
  cvt.u16.u32 %h2, %r3;
  mul.lo.u16 %h3, %h1, %h2;
  mul.hi.u16 %h4, %h1, %h2;
  mul.hi.s16 %h5, %h1, %h2;
  mad.lo.s16 %h6, %h1, %h2, %h1;
  mul.wide.u16 %r4, %h1, %h2;
  mul.wide.s16 %r5, %h1, %h2;
  mad.hi.u16 %h7, %h1, %h2, %h2;
  mov.b32 %r6, {%h3, %h4};
  mov.b32 %r7, {%h5, %h6};
  cvt.u32.u16 %r8, %h7;
  mul.wide.u32 %rd2, %r1, 24;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.b32 [%rd3], {%r6, %r7};
  st.global.v2.b32 [%rd3+8], {%r4, %r5};
  st.global.b32 [%rd3+16], %r8;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(64 * 24);
  ASSERT_EQ(failure(run(ptx, threads(64), {out}, memory)), "");
  auto words = readBack<uint32_t>(memory, out, 64 * 6);
  for (int t = 0; t < 64; ++t) {
    uint16_t a = uint16_t(uint32_t(t * 2741 + 40000));
    uint16_t b = uint16_t(uint32_t(t * -1013 + 333));
    uint32_t productU = uint32_t(a) * uint32_t(b);
    int32_t productS = int32_t(int16_t(a)) * int32_t(int16_t(b));
    uint16_t lo = uint16_t(productU), hiU = uint16_t(productU >> 16);
    uint16_t hiS = uint16_t(uint32_t(productS) >> 16);
    uint16_t madLo = uint16_t(productU + a);
    uint16_t madHi = uint16_t(hiU + b);
    EXPECT_EQ(words[6 * t + 0], uint32_t(lo) | uint32_t(hiU) << 16) << t;
    EXPECT_EQ(words[6 * t + 1], uint32_t(hiS) | uint32_t(madLo) << 16) << t;
    EXPECT_EQ(words[6 * t + 2], productU) << t;
    EXPECT_EQ(int32_t(words[6 * t + 3]), productS) << t;
    EXPECT_EQ(words[6 * t + 4], uint32_t(madHi)) << t;
  }
}

TEST(ExecutorTest, OpcodesOfThePipelineAndMore) {
  // One thread; each result goes to its own slot of out32 or out64.
  const char *ptx = R"(
.visible .entry k(.param .u64 out32, .param .u64 out64) {
  .shared .align 4 .b8 sm[8];
  .reg .b16 %h<10>;
  .reg .b32 %r<30>;
  .reg .f32 %f<12>;
  .reg .b64 %rd<12>;
  .reg .pred %p<8>;
  ld.param.u64 %rd1, [out32];
  ld.param.u64 %rd2, [out64];
  mov.b16 %h1, 0x3E00;
  mov.b16 %h2, 0x4080;
  add.rn.f16 %h3, %h1, %h2;
  sub.rn.f16 %h4, %h1, %h2;
  mul.rn.f16 %h5, %h1, %h2;
  mov.b32 %r1, {%h3, %h4};
  st.global.b32 [%rd1], %r1;
  cvt.u32.u16 %r2, %h5;
  st.global.b32 [%rd1+4], %r2;
  mov.f32 %f1, 0f7FC00000;
  max.NaN.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd1+8], %f2;
  max.f32 %f3, %f1, 0f3F800000;
  st.global.f32 [%rd1+12], %f3;
  ex2.approx.ftz.f32 %f4, 0f40400000;
  st.global.f32 [%rd1+16], %f4;
  cvt.sat.f32.f32 %f5, 0f3FC00000;
  st.global.f32 [%rd1+20], %f5;
  fma.rm.f32 %f6, 0f3F800000, 0fBF800000, 0fB0800000;
  st.global.f32 [%rd1+24], %f6;
  neg.f32 %f7, 0f00000000;
  st.global.f32 [%rd1+28], %f7;
  sqrt.approx.f32 %f8, 0f40100000;
  st.global.f32 [%rd1+32], %f8;
  div.rn.f32 %f9, 0f3F800000, 0f40400000;
  st.global.f32 [%rd1+36], %f9;
  mov.u32 %r3, -7;
  div.s32 %r4, %r3, 2;
  st.global.b32 [%rd1+40], %r4;
  rem.s32 %r5, %r3, 2;
  st.global.b32 [%rd1+44], %r5;
  abs.s32 %r6, %r3;
  st.global.b32 [%rd1+48], %r6;
  min.u32 %r7, %r3, 5;
  st.global.b32 [%rd1+52], %r7;
  max.s32 %r8, %r3, -9;
  st.global.b32 [%rd1+56], %r8;
  setp.lt.u32 %p1, %r3, 1;
  setp.lt.s32 %p2, %r3, 1;
  selp.b32 %r9, 1, 0, %p1;
  selp.b32 %r10, 2, 0, %p2;
  or.b32 %r11, %r9, %r10;
  st.global.b32 [%rd1+60], %r11;
  mov.b32 %r12, 0xBBBBAAAA;
  mov.u32 %r13, sm;
  st.shared.b32 [%r13], %r12;
  ld.shared.v2.b16 {%h6, %h7}, [%r13];
  selp.b16 %h8, %h7, 0x0000, %p2;
  mov.b32 %r14, {%h6, %h8};
  st.global.b32 [%rd1+64], %r14;
  setp.eq.f32 %p3, %f1, %f1;
  setp.nan.f32 %p4, %f1, %f1;
  setp.neu.f32 %p5, %f1, 0f3F800000;
  selp.b32 %r15, 1, 0, %p3;
  selp.b32 %r16, 2, 0, %p4;
  selp.b32 %r17, 4, 0, %p5;
  or.b32 %r15, %r15, %r16;
  or.b32 %r15, %r15, %r17;
  st.global.b32 [%rd1+68], %r15;
  shl.b32 %r18, %r3, 40;
  st.global.b32 [%rd1+72], %r18;
  shr.s32 %r19, %r3, 40;
  st.global.b32 [%rd1+76], %r19;
  cvt.rzi.s32.f32 %r20, 0fC0700000;
  st.global.b32 [%rd1+80], %r20;
  cvt.rmi.s32.f32 %r21, 0fC0700000;
  st.global.b32 [%rd1+84], %r21;
  cvt.rn.bf16.f32 %h9, 0f3FC00000;
  cvt.u32.u16 %r22, %h9;
  st.global.b32 [%rd1+88], %r22;
  cvt.rn.f16x2.f32 %r23, 0f3F800000, 0f40000000;
  st.global.b32 [%rd1+92], %r23;
  mov.b64 %rd3, 0x123456789abcdef0;
  cvt.u32.u64 %r24, %rd3;
  st.global.b32 [%rd1+96], %r24;
  bfe.u64 %rd4, %rd3, 36, 8;
  st.global.b64 [%rd2], %rd4;
  mul.lo.s64 %rd5, %rd3, -3;
  st.global.b64 [%rd2+8], %rd5;
  shr.u64 %rd6, %rd3, 60;
  st.global.b64 [%rd2+16], %rd6;
  cvt.s64.s32 %rd7, %r3;
  st.global.b64 [%rd2+24], %rd7;
  cvt.u64.u32 %rd8, %r3;
  st.global.b64 [%rd2+32], %rd8;
  setp.lt.u64 %p6, %rd7, 1;
  selp.b64 %rd9, 10, 20, %p6;
  st.global.b64 [%rd2+40], %rd9;
  mul.wide.s32 %rd10, %r3, 3;
  st.global.b64 [%rd2+48], %rd10;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out32 = memory.allocate(25 * 4), out64 = memory.allocate(7 * 8);
  ASSERT_EQ(failure(run(ptx, threads(1), {out32, out64}, memory)), "");
  auto r = readBack<uint32_t>(memory, out32, 25);
  auto r64 = readBack<uint64_t>(memory, out64, 7);
  EXPECT_EQ(r[0], uint32_t(halfOf(3.75f)) | uint32_t(halfOf(-0.75f)) << 16);
  EXPECT_EQ(r[1], halfOf(3.375f));
  EXPECT_EQ(r[2], 0x7fffffffu);  // max.NaN: the canonical NaN
  EXPECT_EQ(r[3], bitsOf(1.0f)); // max ignores a NaN operand
  EXPECT_EQ(r[4], bitsOf(8.0f));
  EXPECT_EQ(r[5], bitsOf(1.0f));
  EXPECT_EQ(r[6], bitsOf(std::nextafter(-1.0f, -2.0f))); // -1 - 2^-30, .rm
  EXPECT_EQ(r[7], 0x80000000u);
  EXPECT_EQ(r[8], bitsOf(1.5f));
  EXPECT_EQ(r[9], bitsOf(1.0f / 3.0f));
  EXPECT_EQ(int32_t(r[10]), -3);
  EXPECT_EQ(int32_t(r[11]), -1);
  EXPECT_EQ(r[12], 7u);
  EXPECT_EQ(r[13], 5u);
  EXPECT_EQ(int32_t(r[14]), -7);
  EXPECT_EQ(r[15], 2u);
  EXPECT_EQ(r[16], 0xBBBBAAAAu);
  EXPECT_EQ(r[17], 6u);
  EXPECT_EQ(r[18], 0u);
  EXPECT_EQ(int32_t(r[19]), -1);
  EXPECT_EQ(int32_t(r[20]), -3);
  EXPECT_EQ(int32_t(r[21]), -4);
  EXPECT_EQ(r[22], 0x3FC0u);
  EXPECT_EQ(r[23], uint32_t(halfOf(1.0f)) << 16 | halfOf(2.0f));
  EXPECT_EQ(r[24], 0x9abcdef0u);
  const uint64_t v = 0x123456789abcdef0;
  EXPECT_EQ(r64[0], (v >> 36) & 0xff);
  EXPECT_EQ(r64[1], v * uint64_t(-3));
  EXPECT_EQ(r64[2], 1u);
  EXPECT_EQ(int64_t(r64[3]), -7);
  EXPECT_EQ(r64[4], 0xfffffff9u);
  EXPECT_EQ(r64[5], 20u);
  EXPECT_EQ(int64_t(r64[6]), -21);
}

TEST(ExecutorTest, DivergentBranchesReconverge) {
  // The shfl.sync with a full membermask needs all 32 lanes at once: it
  // only succeeds if the two paths met again at JOIN.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  mul.lo.s32 %r3, %r1, 3;
  bra.uni JOIN;
EVEN:
  add.s32 %r3, %r1, 1000;
JOIN:
  shfl.sync.bfly.b32 %r4, %r3, 1, 31, -1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(64 * 4);
  auto report = run(ptx, threads(64), {out}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto values = readBack<uint32_t>(memory, out, 64);
  for (unsigned t = 0; t < 64; ++t) {
    unsigned source = t ^ 1;
    EXPECT_EQ(values[t], source % 2 ? 3 * source : source + 1000);
  }
  // Per warp: 5 issues before the paths, 2 on the odd path, 1 on the even
  // one, 5 after JOIN. Each thread executes 11 of them: the guarded bra
  // counts only for the even lanes, whose guard holds.
  EXPECT_EQ(report->warpInstructions, 2u * 13);
  EXPECT_EQ(report->threadInstructions, 64u * 11);
}

TEST(ExecutorTest, RegistersOfNestedBlocks) {
  // LLVM's NVPTX backend takes the high half of a b32 in a block with a
  // register named without '%'; a second block's tmp (another type) and
  // an outer %tmp must stay apart from it.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b16 %rs<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .b32 %tmp;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0x12345678;
  mov.u32 %tmp, 7;
  { .reg .b16 tmp; mov.b32 {tmp, %rs1}, %r1; }
  { .reg .b32 tmp; .reg .b32 %tmp; mov.u32 tmp, 0xabcd0000; mov.u32 %tmp, 1; shr.u32 %r2, tmp, 16; }
  cvt.u32.u16 %r3, %rs1;
  st.global.u32 [%rd1], %r3;
  st.global.u32 [%rd1+4], %r2;
  st.global.u32 [%rd1+8], %tmp;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(3 * 4);
  auto report = run(ptx, threads(1), {out}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto values = readBack<uint32_t>(memory, out, 3);
  EXPECT_EQ(values[0], 0x12345678u >> 16);
  EXPECT_EQ(values[1], 0xabcd0000u >> 16);
  EXPECT_EQ(values[2], 7u);
}

TEST(ExecutorTest, LoopOverMultipleCtas) {
  // out[i] = sum_{j < i} j for the global thread index i.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
LOOP:
  setp.ge.u32 %p1, %r6, %r4;
  @%p1 bra DONE;
  add.s32 %r5, %r5, %r6;
  add.s32 %r6, %r6, 1;
  bra.uni LOOP;
DONE:
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(96 * 4);
  ASSERT_EQ(failure(run(ptx, threads(48, 2), {out}, memory)), "");
  auto values = readBack<uint32_t>(memory, out, 96);
  for (unsigned i = 0; i < 96; ++i)
    EXPECT_EQ(values[i], i * (i - 1) / 2);
}

const char *kReverse = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b32 buf[128];
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r2, %r1, %r1;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r1, 2;
  add.s32 %r5, %r3, %r4;
  st.shared.u32 [%r5], %r2;
  BARRIER
  sub.s32 %r6, 127, %r1;
  shl.b32 %r7, %r6, 2;
  add.s32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)";

std::string reverseKernel(llvm::StringRef barrier) {
  std::string text = kReverse;
  text.replace(text.find("BARRIER"), 7, barrier.str());
  return text;
}

TEST(ExecutorTest, SharedMemoryAndBarrier) {
  for (const char *barrier : {"bar.sync 0;", "barrier.sync.aligned 0;"}) {
    SCOPED_TRACE(barrier);
    DeviceMemory memory;
    uint64_t out = memory.allocate(128 * 4);
    auto report = run(reverseKernel(barrier), threads(128), {out}, memory);
    ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
    EXPECT_EQ(report->barriers, 1u);
    auto values = readBack<uint32_t>(memory, out, 128);
    for (unsigned t = 0; t < 128; ++t)
      EXPECT_EQ(values[t], (127 - t) * (127 - t));
  }
}

TEST(ExecutorTest, RacecheckFindsAMissingBarrier) {
  DeviceMemory memory;
  uint64_t out = memory.allocate(128 * 4);
  std::string message =
      failure(run(reverseKernel(""), threads(128), {out}, memory));
  // Warp 0 runs first and reads bytes warp 3 has not written yet.
  EXPECT_NE(message.find("initcheck"), std::string::npos) << message;
  EXPECT_NE(message.find("PTX line 20"), std::string::npos) << message;

  // Without initcheck, the reversed read after all writes is a race: thread
  // 0 reads what thread 127 wrote with no barrier between.
  EmulatorOptions options;
  options.initcheck = false;
  message =
      failure(run(reverseKernel(""), threads(128), {out}, memory, options));
  EXPECT_NE(message.find("racecheck"), std::string::npos) << message;
}

TEST(ExecutorTest, RacecheckSameWarp) {
  // All 32 lanes write sm[t], then read sm[(t + 1) % 32] without a barrier.
  const char *ptx = R"(
.visible .entry k() {
  .shared .align 4 .b32 sm[32];
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  st.shared.u32 [%r4], %r1;
  add.s32 %r5, %r1, 1;
  and.b32 %r5, %r5, 31;
  shl.b32 %r6, %r5, 2;
  add.s32 %r7, %r2, %r6;
  ld.shared.u32 %r7, [%r7];
  ret;
}
)";
  DeviceMemory memory;
  std::string message = failure(run(ptx, threads(32), {}, memory));
  EXPECT_NE(message.find("racecheck: thread 1 wrote"), std::string::npos)
      << message;
  EXPECT_NE(message.find("kernel 'k' CTA (0,0,0) thread (0,0,0) PTX line 17"),
            std::string::npos)
      << message;
}

TEST(ExecutorTest, InitcheckFindsUnwrittenSharedAndGlobal) {
  // A value read from bytes never written is reported where it is used
  // (here stored), naming the load and the bytes.
  const char *sharedPtx = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b32 sm[4];
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.shared.u32 %r1, [sm+4];
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(4);
  std::string message = failure(run(sharedPtx, threads(1), {out}, memory));
  EXPECT_NE(message.find("PTX line 11 'st.global.u32': initcheck: the stored "
                         "data uses bytes never written: shared read of 4 "
                         "bytes at 0x4 by 'ld.shared.u32' at PTX line 9"),
            std::string::npos)
      << message;

  const char *globalPtx = R"(
.visible .entry k(.param .u64 in) {
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [in];
  ld.global.u32 %r1, [%rd1+8];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  uint64_t in = memory.allocate(16);
  expectSuccess(memory.writeArray<uint32_t>(in, {1, 2}));
  message = failure(run(globalPtx, threads(1), {in}, memory));
  EXPECT_NE(message.find("initcheck: the stored data uses bytes never "
                         "written: global read of 4 bytes at"),
            std::string::npos)
      << message;
  memory.markInitialized(in);
  EXPECT_EQ(failure(run(globalPtx, threads(1), {in}, memory)), "");
}

TEST(ExecutorTest, MemcheckFindsOutOfBoundsStore) {
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(7 * 4);
  std::string message = failure(run(ptx, threads(8), {out}, memory));
  std::string expected =
      llvm::formatv("kernel 'k' CTA (0,0,0) thread (7,0,0) PTX line 12 "
                    "'st.global.u32': memcheck: outside every device buffer: "
                    "global write of 4 bytes at {0:x}",
                    out + 28)
          .str();
  EXPECT_EQ(message, expected);
}

const char *kDynamicShared = R"(
.shared .align 4 .b32 s[3];
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out, .param .u32 offset) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [offset];
  mov.u32 %r2, dyn;
  st.global.u32 [%rd1], %r2;
  add.s32 %r3, %r2, %r1;
  st.shared.u32 [%r3], %r1;
  ret;
}
)";

TEST(ExecutorTest, DynamicSharedFollowsStaticShared) {
  // s takes bytes 0-11; dyn starts at the next 16-byte boundary and holds
  // the launch's 32 dynamic bytes: offsets 0-28 of dyn are in bounds.
  DeviceMemory memory;
  uint64_t out = memory.allocate(4);
  LaunchConfig config = threads(1);
  config.dynamicSharedBytes = 32;
  ASSERT_EQ(failure(run(kDynamicShared, config, {out, 28}, memory)), "");
  EXPECT_EQ(readBack<uint32_t>(memory, out, 1)[0], 16u);
  std::string message = failure(run(kDynamicShared, config, {out, 32}, memory));
  EXPECT_NE(message.find("PTX line 15 'st.shared.u32': memcheck: outside the "
                         "48 bytes of shared memory: shared write of 4 bytes "
                         "at 0x30"),
            std::string::npos)
      << message;
  message = failure(run(kDynamicShared, config, {out, 6}, memory));
  EXPECT_NE(message.find("memcheck: misaligned: shared write of 4 bytes at "
                         "0x16"),
            std::string::npos)
      << message;
}

TEST(ExecutorTest, MemcheckFindsMisalignedVectorLoad) {
  // A .v4.b32 access must be 16-byte aligned (§6.4.2 "Vectors" alignment).
  const char *ptx = R"(
.visible .entry k(.param .u64 in) {
  .reg .b32 %r<5>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [in];
  ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1+8];
  ret;
}
)";
  DeviceMemory memory;
  uint64_t in = memory.allocate(32);
  memory.markInitialized(in);
  std::string message = failure(run(ptx, threads(1), {in}, memory));
  std::string expected =
      llvm::formatv("PTX line 9 'ld.global.v4.b32': memcheck: misaligned: "
                    "global read of 16 bytes at {0:x}",
                    in + 8)
          .str();
  EXPECT_NE(message.find(expected), std::string::npos) << message;
}

TEST(ExecutorTest, UnsupportedInstructionsAreNamed) {
  DeviceMemory memory;
  std::string message = failure(run(R"(
.visible .entry k() {
  .reg .b32 %r<3>;
  fns.b32 %r1, %r2, %r2, %r2;
  ret;
}
)",
                                    threads(1), {}, memory));
  EXPECT_EQ(message, "PTX line 7: unsupported instruction 'fns.b32'");
  message = failure(run(R"(
.visible .entry k() {
  .reg .b32 %r<3>;
  add.sat.s32 %r1, %r2, %r2;
  ret;
}
)",
                        threads(1), {}, memory));
  EXPECT_EQ(message, "PTX line 7: unsupported instruction 'add.sat.s32'");
}

TEST(ExecutorTest, ModifiersTheIsaOrTheEmulatorLacksAreRejected) {
  // Each is either not in the ISA (bf16 has no .ftz or .sat, .relu is for
  // fma on half types without .sat, f32 has none) or not implemented
  // (.xorsign.abs, .oob, fns, f64, 16-bit bit instructions).
  const char *instructions[] = {
      "add.sat.bf16 %h1, %h2, %h3",
      "add.ftz.bf16x2 %r1, %r2, %r3",
      "mul.rz.f16x2 %r1, %r2, %r3",
      "fma.rn.sat.relu.f16 %h1, %h2, %h3, %h1",
      "fma.rn.relu.f32 %f1, %f2, %f3, %f1",
      "add.relu.f16 %h1, %h2, %h3",
      "fma.rn.oob.bf16 %h1, %h2, %h3, %h1",
      "fma.rz.bf16 %h1, %h2, %h3, %h1",
      "mad.rn.f16x2 %r1, %r2, %r3, %r1",
      "div.rn.bf16 %h1, %h2, %h3",
      "min.xorsign.abs.f16 %h1, %h2, %h3",
      "min.ftz.bf16 %h1, %h2, %h3",
      "neg.ftz.bf16x2 %r1, %r2",
      "abs.ftz.bf16 %h1, %h2",
      "popc.b16 %h1, %h2",
      "bfind.u16 %h1, %h2",
      "bfi.b16 %h1, %h2, %h3, 1, 2",
      "shf.l.b32 %r1, %r2, %r3, 4",
      "shf.wrap.b32 %r1, %r2, %r3, 4",
      "shf.l.wrap.b64 %rd1, %rd2, %rd3, 4",
      "prmt.b32.f4x %r1, %r2, %r3, 4",
      "copysign.f64 %rd1, %rd2, %rd3",
      "add.relu.s32 %r1, %r2, %r3",
      "setp.lt.ftz.bf16 %p1, %h1, %h2",
      "setp.lo.bf16 %p1, %h1, %h2",
      // Two state spaces: st.param is not implemented, whatever follows.
      "st.param.global.u32 [%rd1], %r1",
      "st.global.param.u32 [%rd1], %r1",
  };
  for (const char *instruction : instructions) {
    DeviceMemory memory;
    std::string ptx = std::string(R"(
.visible .entry k() {
  .reg .b32 %r<4>;
  .reg .b16 %h<4>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<4>;
  .reg .pred %p<2>;
  )") + instruction + ";\n  ret;\n}\n";
    std::string opcode = llvm::StringRef(instruction).split(' ').first.str();
    EXPECT_EQ(failure(run(ptx, threads(1), {}, memory)),
              "PTX line 11: unsupported instruction '" + opcode + "'");
  }
}

TEST(ExecutorTest, SetpOnBf16) {
  // setp.bf16 (sm_90), as LLVM emits it for the select of a bf16 sigmoid:
  // each comparison's predicate sets one bit of the result. 0x3F80 is 1.0,
  // 0xBF80 -1.0, 0x7FC0 a NaN, 0x0001 the smallest subnormal (no .ftz:
  // it compares above zero).
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b16 %h<6>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<2>;
  .reg .pred %p<7>;
  ld.param.u64 %rd1, [out];
  mov.b16 %h1, 0x3F80;
  mov.b16 %h2, 0xBF80;
  mov.b16 %h3, 0x7FC0;
  mov.b16 %h4, 0x0001;
  mov.b16 %h5, 0x0000;
  setp.lt.bf16 %p1, %h2, %h1;
  setp.gt.bf16 %p2, %h2, %h1;
  setp.lt.bf16 %p3, %h3, %h1;
  setp.ltu.bf16 %p4, %h3, %h1;
  setp.gt.bf16 %p5, %h4, %h5;
  setp.nan.bf16 %p6, %h1, %h3;
  selp.b32 %r1, 1, 0, %p1;
  selp.b32 %r2, 2, 0, %p2;
  selp.b32 %r3, 4, 0, %p3;
  selp.b32 %r4, 8, 0, %p4;
  selp.b32 %r5, 16, 0, %p5;
  selp.b32 %r6, 32, 0, %p6;
  or.b32 %r7, %r1, %r2;
  or.b32 %r7, %r7, %r3;
  or.b32 %r7, %r7, %r4;
  or.b32 %r7, %r7, %r5;
  or.b32 %r7, %r7, %r6;
  st.global.b32 [%rd1], %r7;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(4);
  ASSERT_EQ(failure(run(ptx, threads(1), {out}, memory)), "");
  EXPECT_EQ(readBack<uint32_t>(memory, out, 1)[0], 1u | 8u | 16u | 32u);
}

TEST(ExecutorTest, BitInstructions) {
  // Expected values worked out by hand from the ISA's pseudo-code (see
  // PtxArithmeticTest), on register and immediate operands.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.b32 %r1, 0x12345678;
  mov.b64 %rd2, 0xf0f0f0f0f0f0f0f0;
  popc.b32 %r2, %r1;
  st.global.u32 [%rd1], %r2;
  popc.b64 %r3, %rd2;
  st.global.u32 [%rd1+4], %r3;
  clz.b32 %r4, 1;
  st.global.u32 [%rd1+8], %r4;
  mov.b64 %rd3, 0x100000000;
  clz.b64 %r5, %rd3;
  st.global.u32 [%rd1+12], %r5;
  brev.b32 %r6, %r1;
  st.global.u32 [%rd1+16], %r6;
  bfind.u32 %r7, 0xf0;
  st.global.u32 [%rd1+20], %r7;
  bfind.shiftamt.u32 %r8, 0xf0;
  st.global.u32 [%rd1+24], %r8;
  bfind.s32 %r9, -2;
  st.global.u32 [%rd1+28], %r9;
  bfind.u32 %r10, 0;
  st.global.u32 [%rd1+32], %r10;
  bfind.s64 %r11, %rd3;
  st.global.u32 [%rd1+36], %r11;
  bfi.b32 %r12, 0xff, %r1, 8, 8;
  st.global.u32 [%rd1+40], %r12;
  mov.b32 %r13, 0x33221100;
  mov.b32 %r14, 0x77665544;
  prmt.b32 %r15, %r13, %r14, 0x0123;
  st.global.u32 [%rd1+44], %r15;
  prmt.b32.f4e %r16, %r13, %r14, 1;
  st.global.u32 [%rd1+48], %r16;
  mov.b32 %r17, 3;
  prmt.b32.rc16 %r18, %r13, %r14, %r17;
  st.global.u32 [%rd1+52], %r18;
  mov.b32 %r19, 0x89abcdef;
  mov.b32 %r20, 0x01234567;
  shf.l.wrap.b32 %r21, %r19, %r20, 40;
  st.global.u32 [%rd1+56], %r21;
  shf.r.wrap.b32 %r22, %r19, %r20, 8;
  st.global.u32 [%rd1+60], %r22;
  shf.r.clamp.b32 %r23, %r19, %r20, 40;
  st.global.u32 [%rd1+64], %r23;
  shf.l.clamp.b32 %r24, %r19, %r20, 40;
  st.global.u32 [%rd1+68], %r24;
  brev.b64 %rd4, 1;
  st.global.u64 [%rd1+72], %rd4;
  bfi.b64 %rd5, 1, 0, 63, 1;
  st.global.u64 [%rd1+80], %rd5;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(88);
  auto report = run(ptx, threads(1), {out}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto words = readBack<uint32_t>(memory, out, 18);
  const uint32_t expected[] = {
      13,          32,          31,          31,          0x1e6a2c48u,
      7,           24,          0,           0xffffffffu, 32,
      0x1234ff78u, 0x00112233u, 0x44332211u, 0x33223322u, 0x23456789u,
      0x6789abcdu, 0x01234567u, 0x89abcdefu};
  for (unsigned i = 0; i < 18; ++i)
    EXPECT_EQ(words[i], expected[i]) << "word " << i;
  auto doubles = readBack<uint64_t>(memory, out + 72, 2);
  EXPECT_EQ(doubles[0], 0x8000000000000000u);
  EXPECT_EQ(doubles[1], 0x8000000000000000u);
}

TEST(ExecutorTest, HalfPrecisionScalarAndPackedOps) {
  // Bit patterns as in PtxArithmeticTest: f16 1.0 = 0x3c00, bf16 1.0 =
  // 0x3f80, 1.5 = 0x3fc0, 2^-8 = 0x3b80; packed pairs put element 0 in the
  // low half.
  const char *kernel = R"(
.visible .entry k(.param .u64 out, .param .u64 out16) {
  .reg .b32 %r<24>;
  .reg .b16 %h<24>;
  .reg .f32 %f<6>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [out16];
  mov.b32 %r1, 0x3c004000;
  add.f16x2 %r2, %r1, 0x3c003c00;
  st.global.u32 [%rd1], %r2;
  add.sat.f16x2 %r3, 0x3c00c000, 0x3c003c00;
  st.global.u32 [%rd1+4], %r3;
  mul.rn.f16x2 %r4, 0x40005c00, 0x42005c00;
  st.global.u32 [%rd1+8], %r4;
  fma.rn.f16x2 %r5, 0x40003c01, 0x42003c01, 0x3c00bc02;
  st.global.u32 [%rd1+12], %r5;
  fma.rn.relu.f16x2 %r6, 0xbc003c00, 0x3c003c00, 0;
  st.global.u32 [%rd1+16], %r6;
  min.NaN.f16x2 %r7, 0x7e003c00, 0x3c004000;
  st.global.u32 [%rd1+20], %r7;
  sub.ftz.f16x2 %r8, 0x00013c00, 0x80013c00;
  st.global.u32 [%rd1+24], %r8;
  abs.ftz.f16x2 %r9, 0x80013c00;
  st.global.u32 [%rd1+28], %r9;
  neg.f16x2 %r10, 0x3c008001;
  st.global.u32 [%rd1+32], %r10;
  add.bf16x2 %r11, 0x3f803f80, 0x3b803c00;
  st.global.u32 [%rd1+36], %r11;
  fma.rn.bf16x2 %r12, 0x3f813f81, 0x3fc03fc0, 0x00018001;
  st.global.u32 [%rd1+40], %r12;
  max.bf16x2 %r13, 0x7c010001, 0x3f800000;
  st.global.u32 [%rd1+44], %r13;
  neg.bf16x2 %r14, 0x3f808001;
  st.global.u32 [%rd1+48], %r14;
  neg.ftz.f32 %f1, 0f00000001;
  mov.b32 %r15, %f1;
  st.global.u32 [%rd1+52], %r15;
  abs.ftz.f32 %f2, 0f807FFFFF;
  mov.b32 %r16, %f2;
  st.global.u32 [%rd1+56], %r16;
  copysign.f32 %f3, 0fBF800000, 0f40000000;
  mov.b32 %r17, %f3;
  st.global.u32 [%rd1+60], %r17;
  mov.b16 %h1, 0x3f81;
  mov.b16 %h2, 0x3fc0;
  add.bf16 %h3, 0x3f80, 0x3b81;
  st.global.u16 [%rd2], %h3;
  sub.rn.bf16 %h4, 0x3f80, 0x4000;
  st.global.u16 [%rd2+2], %h4;
  mul.bf16 %h5, %h1, %h2;
  st.global.u16 [%rd2+4], %h5;
  fma.rn.bf16 %h6, %h1, %h2, 0x8001;
  st.global.u16 [%rd2+6], %h6;
  fma.rn.relu.bf16 %h7, 0xbf80, 0x3f80, 0;
  st.global.u16 [%rd2+8], %h7;
  min.bf16 %h8, 0xbf80, 0xc000;
  st.global.u16 [%rd2+10], %h8;
  max.NaN.bf16 %h9, 0x7fc0, 0x3f80;
  st.global.u16 [%rd2+12], %h9;
  abs.bf16 %h10, 0xbf80;
  st.global.u16 [%rd2+14], %h10;
  fma.rn.relu.f16 %h11, 0xbc00, 0x3c00, 0;
  st.global.u16 [%rd2+16], %h11;
  neg.ftz.f16 %h12, 0x0001;
  st.global.u16 [%rd2+18], %h12;
  {.reg .b16 c;
  mov.b16 c, 0x3f80U;
  fma.rn.bf16 %h13, %h1, c, 0x3b80;}
  st.global.u16 [%rd2+20], %h13;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(64), out16 = memory.allocate(22);
  auto report = run(kernel, threads(1), {out, out16}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto words = readBack<uint32_t>(memory, out, 16);
  const uint32_t expected[] = {
      0x40004200u, // 2 + 1 and 1 + 1
      0x3c000000u, // -2 + 1 saturates to 0, 1 + 1 to 1
      0x46007c00u, // 256 * 256 overflows, 2 * 3
      0x47000010u, // the f16 single-rounding case, 2 * 3 + 1
      0x00003c00u, // relu: 1 stays, -1 clamps
      0x7fff3c00u, // .NaN in the high half
      0x00000000u, // flushed 2^-24 - -2^-24 and 1 - 1
      0x00003c00u, // |flushed -2^-24|, |1|
      0xbc000001u,
      0x3f803f81u, // the bf16 tie 1 + 2^-8, and 1 + 2^-7
      0x3fc23fc1u, // the bf16 fma tie broken down (low) and up (high)
      0x7c010001u, // 0x7c01 is a finite bf16
      0xbf800001u,
      0x80000000u, // neg.ftz of a subnormal: -0
      0x00000000u,
      0xc0000000u, // copysign: -2
  };
  for (unsigned i = 0; i < 16; ++i)
    EXPECT_EQ(words[i], expected[i]) << "word " << i;
  auto halves = readBack<uint16_t>(memory, out16, 11);
  const uint16_t expected16[] = {0x3f81, 0xbf80, 0x3fc2, 0x3fc1, 0x0000, 0xc000,
                                 0x7fff, 0x3f80, 0x0000, 0x8000, 0x3f82};
  for (unsigned i = 0; i < 11; ++i)
    EXPECT_EQ(halves[i], expected16[i]) << "half " << i;
}

TEST(ExecutorTest, BarrierAfterAnExitIsADeadlock) {
  const char *ptx = R"(
.visible .entry k() {
  .reg .b32 %r<2>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 ret;
  bar.sync 0;
  ret;
}
)";
  DeviceMemory memory;
  std::string message = failure(run(ptx, threads(64), {}, memory));
  EXPECT_NE(message.find("PTX line 11"), std::string::npos) << message;
  EXPECT_NE(message.find("deadlock: 63 of 64 threads wait at barrier 0; 1 "
                         "threads exited"),
            std::string::npos)
      << message;
}

const char *kNamedBarriers = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b32 buf[128];
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r2, %r1, 3;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r1, 2;
  add.s32 %r5, %r3, %r4;
  st.shared.u32 [%r5], %r2;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bar.sync 1, LOW;
  @!%p1 barrier.sync.aligned 2, 64;
  xor.b32 %r6, %r1, 63;
  shl.b32 %r7, %r6, 2;
  add.s32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)";

std::string namedBarriers(llvm::StringRef lowCount) {
  std::string text = kNamedBarriers;
  text.replace(text.find("LOW"), 3, lowCount.str());
  return text;
}

TEST(ExecutorTest, BarriersWithThreadCounts) {
  // Each half of the CTA exchanges data within itself through its own
  // barrier of 64 threads.
  DeviceMemory memory;
  uint64_t out = memory.allocate(128 * 4);
  auto report = run(namedBarriers("64"), threads(128), {out}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  EXPECT_EQ(report->barriers, 2u);
  auto values = readBack<uint32_t>(memory, out, 128);
  for (unsigned t = 0; t < 128; ++t)
    EXPECT_EQ(values[t], 3 * (t ^ 63));

  // Barrier 1 waiting for 96 threads never completes.
  std::string message =
      failure(run(namedBarriers("96"), threads(128), {out}, memory));
  EXPECT_NE(message.find("PTX line 18 'bar.sync': deadlock: 64 of 96 threads "
                         "wait at barrier 1; 64 threads exited"),
            std::string::npos)
      << message;
}

TEST(ExecutorTest, ShflNeedsItsWholeMembermask) {
  const char *ptx = R"(
.visible .entry k() {
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
  ret;
}
)";
  DeviceMemory memory;
  std::string message = failure(run(ptx, threads(32), {}, memory));
  EXPECT_NE(message.find("membermask 0xffffffff but lanes 0x0000ffff"),
            std::string::npos)
      << message;
}

TEST(ExecutorTest, ShflWaitsForItsMembermask) {
  // LLVM lays a loop latch out before its header, as in our rms_norm
  // kernels: after the shfl, lanes 1-31 branch back to LATCH (a smaller
  // PC) while lane 0 still has work, so the minimum-PC rule runs them to
  // the next iteration's shfl first. They must wait there for lane 0.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
  setp.ne.u32 %p1, %r1, 0;
  bra.uni HEAD;
LATCH:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 3;
  @%p2 bra HEAD;
  bra.uni DONE;
HEAD:
  add.u32 %r4, %r1, %r2;
  shfl.sync.bfly.b32 %r5, %r4, 1, 31, -1;
  @%p1 bra LATCH;
  add.u32 %r3, %r3, %r5;
  bra.uni LATCH;
DONE:
  add.u32 %r6, %r5, %r3;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(64 * 4);
  auto report = run(ptx, threads(64), {out}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto values = readBack<uint32_t>(memory, out, 64);
  for (unsigned t = 0; t < 64; ++t) {
    // The last shfl gives (t ^ 1) + 2; thread 0 also summed 1 + i for
    // i = 0, 1, 2.
    unsigned expected = (t ^ 1) + 2 + (t == 0 ? 1 + 2 + 3 : 0);
    EXPECT_EQ(values[t], expected) << "thread " << t;
  }
}

TEST(ExecutorTest, ShflAtTwoPlacesIsAnError) {
  // Half the warp waits at one shfl.sync, half at another: neither can
  // complete, which is reported rather than hanging.
  const char *ptx = R"(
.visible .entry k() {
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra LOW;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
  ret;
LOW:
  shfl.sync.bfly.b32 %r2, %r1, 2, 31, -1;
  ret;
}
)";
  DeviceMemory memory;
  std::string message = failure(run(ptx, threads(32), {}, memory));
  EXPECT_NE(message.find("membermask 0xffffffff but lanes"),
            std::string::npos)
      << message;
}

TEST(ExecutorTest, ShflModesAndClamps) {
  // Per lane: down 1 (clamp 31), up 1 (clamp 0), idx 5, and idx within
  // segments of 8 lanes (c = 0x1807: segmask 0x18, clamp 7), with the
  // in-range predicates of down and up.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r2, %r1, 10;
  shfl.sync.down.b32 %r3|%p1, %r2, 1, 31, -1;
  shfl.sync.up.b32 %r4|%p2, %r2, 1, 0, -1;
  shfl.sync.idx.b32 %r5, %r2, 5, 31, -1;
  shfl.sync.idx.b32 %r6, %r2, 2, 0x1807, -1;
  selp.u32 %r7, 1, 0, %p1;
  selp.u32 %r8, 1, 0, %p2;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
  st.global.v2.u32 [%rd3+16], {%r7, %r8};
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(32 * 32);
  ASSERT_EQ(failure(run(ptx, threads(32), {out}, memory)), "");
  auto values = readBack<uint32_t>(memory, out, 32 * 8);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const uint32_t *v = &values[8 * lane];
    EXPECT_EQ(v[0], 10 * (lane < 31 ? lane + 1 : lane));
    EXPECT_EQ(v[1], 10 * (lane > 0 ? lane - 1 : lane));
    EXPECT_EQ(v[2], 50u);
    EXPECT_EQ(v[3], 10 * ((lane & ~7u) | 2));
    EXPECT_EQ(v[4], lane < 31 ? 1u : 0u);
    EXPECT_EQ(v[5], lane > 0 ? 1u : 0u);
  }
}

TEST(ExecutorTest, MmaMatchesHostProduct) {
  // The kernel loads each lane's fragments from buffers laid out per lane,
  // runs one mma.sync and stores each lane's D fragment; the host places
  // matrix elements into and out of fragments with MmaFragments.h and
  // checks D against a triple loop. Small integers keep every sum exact.
  const char *ptx = R"(
.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 d) {
  .reg .b32 %r<16>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [d];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd4, %r1, 16;
  mul.wide.u32 %rd5, %r1, 8;
  add.s64 %rd6, %rd1, %rd4;
  add.s64 %rd7, %rd2, %rd5;
  add.s64 %rd8, %rd3, %rd4;
  ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd6];
  ld.global.v2.b32 {%r6, %r7}, [%rd7];
  mov.f32 %f1, 0f3F800000;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
    {%f4, %f5, %f6, %f7}, {%r2, %r3, %r4, %r5}, {%r6, %r7},
    {%f1, %f1, %f1, %f1};
  st.global.v4.f32 [%rd8], {%f4, %f5, %f6, %f7};
  ret;
}
)";
  float a[16][16], b[16][8];
  for (unsigned i = 0; i < 16; ++i)
    for (unsigned k = 0; k < 16; ++k)
      a[i][k] = float(int((i * 3 + k * 5) % 7) - 3);
  for (unsigned k = 0; k < 16; ++k)
    for (unsigned j = 0; j < 8; ++j)
      b[k][j] = float(int((k * 2 + j * 3) % 5) - 2) * 0.5f;
  std::vector<uint16_t> aFrag(32 * 8), bFrag(32 * 4);
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (unsigned e = 0; e < 8; ++e) {
      MatrixCoord c = mmaM16N8K16ACoord(lane, e);
      aFrag[lane * 8 + e] = halfOf(a[c.row][c.col]);
    }
    for (unsigned e = 0; e < 4; ++e) {
      MatrixCoord c = mmaM16N8K16BCoord(lane, e);
      bFrag[lane * 4 + e] = halfOf(b[c.row][c.col]);
    }
  }
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(32 * 16), bAddr = memory.allocate(32 * 8),
           dAddr = memory.allocate(32 * 16);
  expectSuccess(memory.writeArray<uint16_t>(aAddr, aFrag));
  expectSuccess(memory.writeArray<uint16_t>(bAddr, bFrag));
  ASSERT_EQ(failure(run(ptx, threads(32), {aAddr, bAddr, dAddr}, memory)), "");
  auto d = readBack<float>(memory, dAddr, 32 * 4);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned e = 0; e < 4; ++e) {
      MatrixCoord c = mmaM16N8K16CCoord(lane, e);
      float expected = 1.0f;
      for (unsigned k = 0; k < 16; ++k)
        expected += a[c.row][k] * b[k][c.col];
      EXPECT_EQ(d[lane * 4 + e], expected) << "lane " << lane << " e " << e;
    }
}

TEST(ExecutorTest, CpAsyncIsVisibleOnlyAfterWait) {
  // Each thread copies 16 bytes (group 1) and 8 bytes of which 4 come from
  // global memory and 4 are zero-filled (group 2) over old shared data, and
  // records what it sees before any wait, after wait_group 1 (group 1
  // done) and after wait_all.
  const char *ptx = R"(
.visible .entry k(.param .u64 in, .param .u64 out) {
  .shared .align 16 .b8 sm[1024];
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 5;
  add.s32 %r4, %r2, %r3;
  st.shared.v4.u32 [%r4], {%r1, %r1, %r1, %r1};
  st.shared.v4.u32 [%r4+16], {%r1, %r1, %r1, %r1};
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  cp.async.cg.shared.global [%r4], [%rd4], 16;
  cp.async.commit_group;
  cp.async.ca.shared.global [%r4+16], [%rd4+8], 8, 4;
  cp.async.commit_group;
  ld.shared.u32 %r5, [%r4+12];
  cp.async.wait_group 1;
  ld.shared.u32 %r6, [%r4+12];
  ld.shared.u32 %r7, [%r4+20];
  cp.async.wait_all;
  ld.shared.v2.u32 {%r8, %r9}, [%r4+16];
  mul.wide.u32 %rd5, %r1, 32;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v2.u32 [%rd6], {%r5, %r6};
  st.global.v2.u32 [%rd6+8], {%r8, %r9};
  st.global.u32 [%rd6+16], %r7;
  ret;
}
)";
  std::vector<uint32_t> input(32 * 4);
  for (unsigned i = 0; i < input.size(); ++i)
    input[i] = 1000 + i;
  DeviceMemory memory;
  uint64_t in = memory.allocate(input.size() * 4),
           out = memory.allocate(32 * 32);
  expectSuccess(memory.writeArray<uint32_t>(in, input));
  ASSERT_EQ(failure(run(ptx, threads(32), {in, out}, memory)), "");
  auto values = readBack<uint32_t>(memory, out, 32 * 8);
  for (unsigned t = 0; t < 32; ++t) {
    const uint32_t *v = &values[8 * t];
    EXPECT_EQ(v[0], t);                // before any wait: old data
    EXPECT_EQ(v[1], input[4 * t + 3]); // group 1 landed
    EXPECT_EQ(v[2], input[4 * t + 2]); // 4 bytes copied by group 2
    EXPECT_EQ(v[3], 0u);               // 4 bytes zero-filled
    EXPECT_EQ(v[4], t);                // group 2 was still pending
  }
}

TEST(ExecutorTest, WarpsTakeTurns) {
  // Warp 0 spins until warp 1 sets a shared flag: it terminates only if
  // warp 0 yields. (A data race by the memory model, so racecheck is off.)
  const char *ptx = R"(
.visible .entry k() {
  .shared .align 4 .b32 flag;
  .reg .b32 %r<3>;
  .reg .pred %p<3>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [flag], 0;
  bar.sync 0;
  setp.eq.u32 %p2, %r1, 32;
  @%p2 st.shared.u32 [flag], 1;
SPIN:
  ld.shared.u32 %r2, [flag];
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra SPIN;
  ret;
}
)";
  DeviceMemory memory;
  EmulatorOptions options;
  options.racecheck = false;
  options.maxWarpInstructionsPerCta = 100000;
  EXPECT_EQ(failure(run(ptx, threads(64), {}, memory, options)), "");
}

TEST(ExecutorTest, CpAsyncFaultsNameTheCopy) {
  // The source was never written: initcheck fires when wait_group performs
  // the copy, and names the cp.async that issued it.
  const char *ptx = R"(
.visible .entry k(.param .u64 in) {
  .shared .align 16 .b8 sm[16];
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [in];
  cp.async.cg.shared.global [sm], [%rd1], 16;
  cp.async.commit_group;
  cp.async.wait_group 0;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t in = memory.allocate(16);
  std::string message = failure(run(ptx, threads(1), {in}, memory));
  EXPECT_NE(message.find("PTX line 11 'cp.async.wait_group': initcheck: "
                         "reads bytes never written: global read of 16 bytes"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("(the copy of the cp.async at PTX line 9)"),
            std::string::npos)
      << message;
}

TEST(ExecutorTest, NvccWarpReduce) {
  auto module = parsePtx(readInput("warp_reduce.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const int n = 200, block = 128, ctas = 2;
  std::vector<uint16_t> x(n);
  std::vector<float> xf(n);
  for (int i = 0; i < n; ++i) {
    xf[i] = float(i % 7 - 3) * 0.5f;
    x[i] = halfOf(xf[i]);
  }
  DeviceMemory memory;
  uint64_t xAddr = memory.allocate(n * 2), out = memory.allocate(ctas * 4);
  expectSuccess(memory.writeArray<uint16_t>(xAddr, x));
  LaunchConfig config = threads(block, ctas);
  config.dynamicSharedBytes = block / 32 * 4;
  auto report = launchKernel(*module, "warpReduce", config,
                             {xAddr, halfOf(2.0f), out, uint64_t(n)}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  EXPECT_EQ(report->barriers, uint64_t(ctas));
  auto sums = readBack<float>(memory, out, ctas);
  for (int c = 0; c < ctas; ++c) {
    float expected = 0;
    for (int i = c * block; i < std::min(n, (c + 1) * block); ++i)
      expected += xf[i] * 2.0f;
    EXPECT_EQ(sums[c], expected) << "CTA " << c;
  }
}

TEST(ExecutorTest, PipelineKernelsAreSupported) {
  for (const char *name :
       {"ptx_rmsnorm_b1.ptx", "ptx_gated_mlp.ptx", "ptx_lora.ptx",
        "ptx_gqa_b1.ptx", "ptx_matmul_small.ptx", "ptx_rms_norm_small.ptx",
        "ptx_silu_small.ptx", "warp_reduce.ptx"}) {
    auto module = parsePtx(readInput(name));
    ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
    ASSERT_FALSE(module->kernels.empty());
    for (const PtxKernel &kernel : module->kernels) {
      SCOPED_TRACE(std::string(name) + " " + kernel.name);
      expectSuccess(verifyKernel(*module, kernel.name));
    }
  }
}

TEST(ExecutorTest, PipelineMatmulMatchesHostProduct) {
  // Inputs/ptx_matmul_small.ptx is our pipeline's PTX for
  //   func.func @matmul_small(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>)
  //       -> tensor<16x32xf16> {
  //     %0 = graph.matmul %a, %b : (...) -> tensor<16x32xf16>
  //     return %0 : tensor<16x32xf16> }
  // from mirage-opt --mirage-to-ptx="chip=sm_80 output=... cubin=false";
  // its manifest launches matmul_small_0(arg0, arg1, result0) on grid
  // (1,1,1), block (128,1,1) with 8192 bytes of dynamic shared memory.
  // Halves and small integers keep every sum exact in f32 and in f16.
  auto module = parsePtx(readInput("ptx_matmul_small.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned m = 16, k = 64, n = 32;
  std::vector<float> a(m * k), b(k * n);
  std::vector<uint16_t> aHalves(m * k), bHalves(k * n);
  for (unsigned i = 0; i < m * k; ++i) {
    a[i] = float(int(i * 7 % 5) - 2);
    aHalves[i] = halfOf(a[i]);
  }
  for (unsigned i = 0; i < k * n; ++i) {
    b[i] = float(int(i * 3 % 5) - 2) * 0.5f;
    bHalves[i] = halfOf(b[i]);
  }
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(m * k * 2),
           bAddr = memory.allocate(k * n * 2),
           cAddr = memory.allocate(m * n * 2);
  expectSuccess(memory.writeArray<uint16_t>(aAddr, aHalves));
  expectSuccess(memory.writeArray<uint16_t>(bAddr, bHalves));
  LaunchConfig config = threads(128);
  config.dynamicSharedBytes = 8192;
  auto report = launchKernel(*module, "matmul_small_0", config,
                             {aAddr, bAddr, cAddr}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto c = readBack<uint16_t>(memory, cAddr, m * n);
  for (unsigned i = 0; i < m; ++i)
    for (unsigned j = 0; j < n; ++j) {
      float expected = 0;
      for (unsigned l = 0; l < k; ++l)
        expected += a[i * k + l] * b[l * n + j];
      EXPECT_EQ(c[i * n + j], halfOf(expected)) << i << "," << j;
    }
}

/// The value of an f16 encoding (normal numbers and zeros).
float floatOfHalf(uint16_t half) {
  float magnitude = (half & 0x7c00) == 0
                        ? 0.0f
                        : std::ldexp(1.0f + float(half & 0x3ff) / 1024.0f,
                                     int((half >> 10) & 0x1f) - 15);
  return half & 0x8000 ? -magnitude : magnitude;
}

TEST(ExecutorTest, PipelineRmsNormMatchesHost) {
  // Inputs/ptx_rms_norm_small.ptx is our pipeline's PTX for
  //   %0 = graph.rms_norm %x : tensor<4x128xf16>
  // (mirage-opt --mirage-to-ptx="chip=sm_80 ..."); its manifest launches
  // rms_small_0(arg0, result0) on grid (1,1,1), block (128,1,1) with 7216
  // bytes of dynamic shared memory. It computes x / sqrt(mean(x^2)) per
  // row with shfl.sync reductions, sqrt.approx and div.rn. The squares'
  // sums are exact; the host's sqrt and division are correctly rounded, as
  // the emulator's are, so the f16 results agree to rounding.
  auto module = parsePtx(readInput("ptx_rms_norm_small.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned rows = 4, cols = 128;
  std::vector<float> x(rows * cols);
  std::vector<uint16_t> xHalves(rows * cols);
  for (unsigned i = 0; i < rows * cols; ++i) {
    x[i] = float(int((i / cols * 31 + i % cols * 7) % 9) - 4) * 0.25f;
    xHalves[i] = halfOf(x[i]);
  }
  DeviceMemory memory;
  uint64_t xAddr = memory.allocate(rows * cols * 2),
           yAddr = memory.allocate(rows * cols * 2);
  expectSuccess(memory.writeArray<uint16_t>(xAddr, xHalves));
  LaunchConfig config = threads(128);
  config.dynamicSharedBytes = 7216;
  auto report =
      launchKernel(*module, "rms_small_0", config, {xAddr, yAddr}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto y = readBack<uint16_t>(memory, yAddr, rows * cols);
  for (unsigned r = 0; r < rows; ++r) {
    float sumSquares = 0;
    for (unsigned j = 0; j < cols; ++j)
      sumSquares += x[r * cols + j] * x[r * cols + j];
    float rms = std::sqrt(sumSquares / cols);
    for (unsigned j = 0; j < cols; ++j) {
      float expected = x[r * cols + j] / rms;
      // One f16 rounding: half an ulp, 2^-11 relative.
      EXPECT_NEAR(floatOfHalf(y[r * cols + j]), expected,
                  std::ldexp(std::fabs(expected), -11))
          << r << "," << j;
    }
  }
}

TEST(ExecutorTest, PipelineSiluMatchesHost) {
  // Inputs/ptx_silu_small.ptx is our pipeline's PTX for
  //   %0 = graph.silu %x : tensor<16x64xf16>
  // (mirage-opt --mirage-to-ptx="chip=sm_80 ..."); its manifest launches
  // silu_small_0(arg0, result0) on grid (1,1,1), block (128,1,1) with 8192
  // bytes of dynamic shared memory. It computes x / (1 + exp(-x)) with
  // libdevice's expf (fma.rm, cvt.sat, ex2.approx.ftz). expf errs by a few
  // f32 ulps, far below the f16 result's precision: the results agree with
  // the host's to one f16 ulp (2^-10 relative).
  auto module = parsePtx(readInput("ptx_silu_small.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned count = 16 * 64;
  std::vector<float> x(count);
  std::vector<uint16_t> xHalves(count);
  for (unsigned i = 0; i < count; ++i) {
    x[i] = float(int(i % 41) - 20) * 0.25f;
    xHalves[i] = halfOf(x[i]);
  }
  DeviceMemory memory;
  uint64_t xAddr = memory.allocate(count * 2),
           yAddr = memory.allocate(count * 2);
  expectSuccess(memory.writeArray<uint16_t>(xAddr, xHalves));
  LaunchConfig config = threads(128);
  config.dynamicSharedBytes = 8192;
  auto report =
      launchKernel(*module, "silu_small_0", config, {xAddr, yAddr}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto y = readBack<uint16_t>(memory, yAddr, count);
  for (unsigned i = 0; i < count; ++i) {
    float expected = x[i] / (1.0f + std::exp(-x[i]));
    EXPECT_NEAR(floatOfHalf(y[i]), expected,
                std::ldexp(std::fabs(expected), -10))
        << "x = " << x[i];
  }
}

} // namespace
