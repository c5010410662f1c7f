//===- PtxArithmeticTest.cpp - numeric semantics of PTX instructions ------===//
//
// Expected values are literal bit patterns worked out by hand (and checked
// with Python's struct 'e' format for f16), never computed with the library.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/PtxArithmetic.h"
#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace mirage::emulator;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

uint32_t bits(float value) { return f32Bits(value); }

//===----------------------------------------------------------------------===//
// cvt
//===----------------------------------------------------------------------===//

TEST(PtxCvtTest, F32ToF16RoundsToNearestEven) {
  EXPECT_EQ(cvtF32ToF16(1.0f, Rounding::Rn), 0x3c00);
  EXPECT_EQ(cvtF32ToF16(-2.0f, Rounding::Rn), 0xc000);
  EXPECT_EQ(cvtF32ToF16(65504.0f, Rounding::Rn), 0x7bff);
  // 1 + 2^-11 is halfway between 0x3c00 and 0x3c01: even wins.
  EXPECT_EQ(cvtF32ToF16(1.0f + 0x1p-11f, Rounding::Rn), 0x3c00);
  EXPECT_EQ(cvtF32ToF16(1.0f + 3 * 0x1p-11f, Rounding::Rn), 0x3c02);
  // Smallest subnormal, and the ties around it.
  EXPECT_EQ(cvtF32ToF16(0x1p-24f, Rounding::Rn), 0x0001);
  EXPECT_EQ(cvtF32ToF16(0x1p-25f, Rounding::Rn), 0x0000);
  EXPECT_EQ(cvtF32ToF16(0x1.8p-24f, Rounding::Rn), 0x0002);
  EXPECT_EQ(cvtF32ToF16(-0.0f, Rounding::Rn), 0x8000);
}

TEST(PtxCvtTest, F32ToF16DirectedRounding) {
  EXPECT_EQ(cvtF32ToF16(1.0f + 0x1p-11f, Rounding::Rp), 0x3c01);
  EXPECT_EQ(cvtF32ToF16(1.0f + 0x1p-11f, Rounding::Rz), 0x3c00);
  EXPECT_EQ(cvtF32ToF16(-(1.0f + 0x1p-11f), Rounding::Rm), 0xbc01);
  EXPECT_EQ(cvtF32ToF16(-(1.0f + 0x1p-11f), Rounding::Rz), 0xbc00);
  EXPECT_EQ(cvtF32ToF16(0x1p-25f, Rounding::Rp), 0x0001);
  EXPECT_EQ(cvtF32ToF16(-0x1p-25f, Rounding::Rm), 0x8001);
}

TEST(PtxCvtTest, F32ToF16OverflowAndSatfinite) {
  // 65520 is halfway between 65504 (odd significand) and 2^16: infinity.
  EXPECT_EQ(cvtF32ToF16(65520.0f, Rounding::Rn), 0x7c00);
  EXPECT_EQ(cvtF32ToF16(65520.0f, Rounding::Rz), 0x7bff);
  EXPECT_EQ(cvtF32ToF16(1e6f, Rounding::Rm), 0x7bff);
  EXPECT_EQ(cvtF32ToF16(1e6f, Rounding::Rp), 0x7c00);
  EXPECT_EQ(cvtF32ToF16(-1e6f, Rounding::Rp), 0xfbff);
  EXPECT_EQ(cvtF32ToF16(65520.0f, Rounding::Rn, /*satfinite=*/true), 0x7bff);
  EXPECT_EQ(cvtF32ToF16(kInf, Rounding::Rn, true), 0x7bff);
  EXPECT_EQ(cvtF32ToF16(-kInf, Rounding::Rn, true), 0xfbff);
  EXPECT_EQ(cvtF32ToF16(kInf, Rounding::Rn), 0x7c00);
  EXPECT_EQ(cvtF32ToF16(kNan, Rounding::Rn), 0x7fff);
  EXPECT_EQ(cvtF32ToF16(kNan, Rounding::Rn, true), 0x7fff);
}

TEST(PtxCvtTest, F32ToF16FlushesSubnormalInputWithFtz) {
  float subnormal = f32FromBits(0x00000001);
  EXPECT_EQ(cvtF32ToF16(subnormal, Rounding::Rp), 0x0001);
  EXPECT_EQ(cvtF32ToF16(subnormal, Rounding::Rp, false, /*ftz=*/true), 0x0000);
  EXPECT_EQ(cvtF32ToF16(-subnormal, Rounding::Rm, false, true), 0x8000);
}

TEST(PtxCvtTest, F32ToBF16) {
  EXPECT_EQ(cvtF32ToBF16(1.0f, Rounding::Rn), 0x3f80);
  // 1 + 2^-8 is halfway between 0x3f80 and 0x3f81.
  EXPECT_EQ(cvtF32ToBF16(1.0f + 0x1p-8f, Rounding::Rn), 0x3f80);
  EXPECT_EQ(cvtF32ToBF16(1.0f + 3 * 0x1p-8f, Rounding::Rn), 0x3f82);
  EXPECT_EQ(cvtF32ToBF16(1.0f + 0x1p-8f, Rounding::Rp), 0x3f81);
  // The largest float rounds up to infinity, or saturates.
  float largest = f32FromBits(0x7f7fffff);
  EXPECT_EQ(cvtF32ToBF16(largest, Rounding::Rn), 0x7f80);
  EXPECT_EQ(cvtF32ToBF16(largest, Rounding::Rz), 0x7f7f);
  EXPECT_EQ(cvtF32ToBF16(largest, Rounding::Rn, /*satfinite=*/true), 0x7f7f);
  EXPECT_EQ(cvtF32ToBF16(kNan, Rounding::Rn), 0x7fff);
}

TEST(PtxCvtTest, PackedPairPutsFirstOperandInUpperHalf) {
  EXPECT_EQ(cvtF32PairToF16x2(1.0f, 2.0f, Rounding::Rn), 0x3c004000u);
  EXPECT_EQ(cvtF32PairToF16x2(-2.0f, 65520.0f, Rounding::Rn, true),
            0xc0007bffu);
  EXPECT_EQ(cvtF32PairToBF16x2(1.0f, -2.0f, Rounding::Rn), 0x3f80c000u);
}

TEST(PtxCvtTest, HalfToF32IsExact) {
  EXPECT_EQ(cvtF16ToF32(0x3c00), 1.0f);
  EXPECT_EQ(cvtF16ToF32(0x7bff), 65504.0f);
  EXPECT_EQ(cvtF16ToF32(0x0001), 0x1p-24f);
  EXPECT_EQ(cvtF16ToF32(0x03ff), 0x1.ff8p-15f);
  EXPECT_EQ(bits(cvtF16ToF32(0x8000)), 0x80000000u);
  EXPECT_EQ(cvtF16ToF32(0xfc00), -kInf);
  EXPECT_EQ(bits(cvtF16ToF32(0x7e01)), kCanonicalNanF32);
  EXPECT_EQ(cvtBF16ToF32(0x3f80), 1.0f);
  EXPECT_EQ(cvtBF16ToF32(0x0001), 0x1p-133f);
  EXPECT_EQ(cvtBF16ToF32(0xc2f7), -123.5f);
}

TEST(PtxCvtTest, SaturateClampsToUnitIntervalAndNanToPlusZero) {
  EXPECT_EQ(saturateF32(0.25f), 0.25f);
  EXPECT_EQ(saturateF32(1.5f), 1.0f);
  EXPECT_EQ(bits(saturateF32(-3.0f)), 0u);
  EXPECT_EQ(bits(saturateF32(-0.0f)), 0u);
  EXPECT_EQ(bits(saturateF32(kNan)), 0u);
  EXPECT_EQ(saturateF32(kInf), 1.0f);
}

TEST(PtxCvtTest, RoundToIntegral) {
  EXPECT_EQ(cvtF32RoundToIntegral(2.5f, IntRounding::Rni), 2.0f);
  EXPECT_EQ(cvtF32RoundToIntegral(3.5f, IntRounding::Rni), 4.0f);
  EXPECT_EQ(cvtF32RoundToIntegral(-2.5f, IntRounding::Rmi), -3.0f);
  EXPECT_EQ(cvtF32RoundToIntegral(2.1f, IntRounding::Rpi), 3.0f);
  EXPECT_EQ(bits(cvtF32RoundToIntegral(-0.5f, IntRounding::Rpi)), 0x80000000u);
}

TEST(PtxCvtTest, F32ToIntRoundsAndSaturates) {
  EXPECT_EQ(cvtF32ToS32(2.5f, IntRounding::Rni), 2);
  EXPECT_EQ(cvtF32ToS32(3.5f, IntRounding::Rni), 4);
  EXPECT_EQ(cvtF32ToS32(-2.5f, IntRounding::Rni), -2);
  EXPECT_EQ(cvtF32ToS32(-2.5f, IntRounding::Rmi), -3);
  EXPECT_EQ(cvtF32ToS32(2.1f, IntRounding::Rpi), 3);
  EXPECT_EQ(cvtF32ToS32(-2.9f, IntRounding::Rzi), -2);
  EXPECT_EQ(cvtF32ToS32(3e9f, IntRounding::Rzi), 2147483647);
  EXPECT_EQ(cvtF32ToS32(-3e9f, IntRounding::Rzi), -2147483647 - 1);
  EXPECT_EQ(cvtF32ToS32(kInf, IntRounding::Rzi), 2147483647);
  EXPECT_EQ(cvtF32ToS32(kNan, IntRounding::Rni), 0);
  EXPECT_EQ(cvtF32ToU32(-1.0f, IntRounding::Rzi), 0u);
  EXPECT_EQ(cvtF32ToU32(-0.4f, IntRounding::Rni), 0u);
  EXPECT_EQ(cvtF32ToU32(5e9f, IntRounding::Rzi), 0xffffffffu);
  EXPECT_EQ(cvtF32ToU32(kNan, IntRounding::Rzi), 0u);
  EXPECT_EQ(cvtF32ToS64(0x1p63f, IntRounding::Rzi), INT64_MAX);
  EXPECT_EQ(cvtF32ToS64(-0x1p63f, IntRounding::Rzi), INT64_MIN);
  EXPECT_EQ(cvtF32ToU64(0x1p63f, IntRounding::Rzi), 9223372036854775808u);
  EXPECT_EQ(cvtF32ToU64(0x1p64f, IntRounding::Rzi), UINT64_MAX);
  EXPECT_EQ(cvtF32ToU64(kNan, IntRounding::Rzi), 0u);
}

TEST(PtxCvtTest, F32ToIntFtzMakesNegativeSubnormalAZero) {
  float negativeSubnormal = f32FromBits(0x80000001);
  EXPECT_EQ(cvtF32ToS32(negativeSubnormal, IntRounding::Rmi), -1);
  EXPECT_EQ(cvtF32ToS32(negativeSubnormal, IntRounding::Rmi, /*ftz=*/true), 0);
}

TEST(PtxCvtTest, IntToF32Rounds) {
  EXPECT_EQ(cvtS32ToF32(16777217, Rounding::Rn), 16777216.0f);
  EXPECT_EQ(cvtS32ToF32(16777217, Rounding::Rp), 16777218.0f);
  EXPECT_EQ(cvtS32ToF32(16777219, Rounding::Rn), 16777220.0f);
  EXPECT_EQ(cvtS32ToF32(-16777217, Rounding::Rm), -16777218.0f);
  EXPECT_EQ(cvtU32ToF32(0xffffffffu, Rounding::Rn), 4294967296.0f);
  EXPECT_EQ(cvtU32ToF32(0xffffffffu, Rounding::Rz), 4294967040.0f);
  EXPECT_EQ(cvtS64ToF32(-16777217, Rounding::Rz), -16777216.0f);
  EXPECT_EQ(cvtU64ToF32(UINT64_MAX, Rounding::Rz), 0x1.fffffep63f);
  EXPECT_EQ(cvtU64ToF32(UINT64_MAX, Rounding::Rn), 0x1p64f);
}

//===----------------------------------------------------------------------===//
// f32 arithmetic
//===----------------------------------------------------------------------===//

F32Modifiers mods(Rounding rounding, bool ftz = false, bool sat = false) {
  return F32Modifiers{rounding, ftz, sat};
}

TEST(PtxF32Test, AddInEveryRoundingMode) {
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23.
  EXPECT_EQ(bits(addF32(1.0f, 0x1p-24f, mods(Rounding::Rn))), 0x3f800000u);
  EXPECT_EQ(bits(addF32(1.0f, 0x1p-24f, mods(Rounding::Rz))), 0x3f800000u);
  EXPECT_EQ(bits(addF32(1.0f, 0x1p-24f, mods(Rounding::Rm))), 0x3f800000u);
  EXPECT_EQ(bits(addF32(1.0f, 0x1p-24f, mods(Rounding::Rp))), 0x3f800001u);
  EXPECT_EQ(bits(addF32(-1.0f, -0x1p-24f, mods(Rounding::Rm))), 0xbf800001u);
  EXPECT_EQ(bits(addF32(-1.0f, -0x1p-24f, mods(Rounding::Rz))), 0xbf800000u);
  EXPECT_EQ(bits(subF32(1.0f, 0x1p-24f, mods(Rounding::Rm))), 0x3f7fffffu);
  EXPECT_EQ(bits(subF32(1.0f, 0x1p-25f, mods(Rounding::Rn))), 0x3f800000u);
  // x - x is +0 in every mode but .rm, where it is -0.
  EXPECT_EQ(bits(subF32(3.0f, 3.0f, mods(Rounding::Rz))), 0x00000000u);
  EXPECT_EQ(bits(subF32(3.0f, 3.0f, mods(Rounding::Rm))), 0x80000000u);
}

TEST(PtxF32Test, OverflowFollowsTheRoundingMode) {
  float largest = f32FromBits(0x7f7fffff);
  EXPECT_EQ(mulF32(largest, 2.0f, mods(Rounding::Rn)), kInf);
  EXPECT_EQ(bits(mulF32(largest, 2.0f, mods(Rounding::Rz))), 0x7f7fffffu);
  EXPECT_EQ(bits(mulF32(largest, -2.0f, mods(Rounding::Rp))), 0xff7fffffu);
  EXPECT_EQ(mulF32(largest, -2.0f, mods(Rounding::Rm)), -kInf);
}

TEST(PtxF32Test, SubnormalsAndFtz) {
  // 2^-150 is halfway between 0 and the smallest subnormal 2^-149.
  EXPECT_EQ(bits(mulF32(0x1p-75f, 0x1p-75f, mods(Rounding::Rn))), 0u);
  EXPECT_EQ(bits(mulF32(0x1p-75f, 0x1p-75f, mods(Rounding::Rp))), 1u);
  EXPECT_EQ(mulF32(0x1p-70f, 0x1p-70f, mods(Rounding::Rn)), 0x1p-140f);
  EXPECT_EQ(bits(mulF32(0x1p-70f, 0x1p-70f, mods(Rounding::Rn, true))), 0u);
  EXPECT_EQ(bits(mulF32(-0x1p-70f, 0x1p-70f, mods(Rounding::Rn, true))),
            0x80000000u);
  // A subnormal input is a zero under .ftz.
  float subnormal = f32FromBits(0x00400000);
  EXPECT_EQ(bits(addF32(subnormal, 0.0f, mods(Rounding::Rn))), 0x00400000u);
  EXPECT_EQ(bits(addF32(subnormal, 0.0f, mods(Rounding::Rn, true))), 0u);
  EXPECT_EQ(mulF32(subnormal, 0x1p126f, mods(Rounding::Rn)), 0.5f);
  EXPECT_EQ(mulF32(subnormal, 0x1p126f, mods(Rounding::Rn, true)), 0.0f);
}

TEST(PtxF32Test, Saturation) {
  EXPECT_EQ(addF32(0.75f, 0.5f, mods(Rounding::Rn, false, true)), 1.0f);
  EXPECT_EQ(bits(subF32(0.25f, 0.5f, mods(Rounding::Rn, false, true))), 0u);
  EXPECT_EQ(bits(mulF32(kInf, 0.0f, mods(Rounding::Rn, false, true))), 0u);
  EXPECT_EQ(mulF32(0.5f, 0.5f, mods(Rounding::Rz, false, true)), 0.25f);
}

TEST(PtxF32Test, NanResultsAreCanonical) {
  EXPECT_EQ(bits(addF32(kInf, -kInf)), kCanonicalNanF32);
  EXPECT_EQ(bits(mulF32(f32FromBits(0xffc00001), 1.0f, mods(Rounding::Rp))),
            kCanonicalNanF32);
}

TEST(PtxF32Test, FmaRoundsOnce) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; a separate multiply would
  // round the product to 1 + 2^-11 and give 2^-11.
  float a = 1.0f + 0x1p-12f;
  EXPECT_EQ(bits(fmaF32(a, a, -1.0f)), 0x3a000400u);
  EXPECT_EQ(bits(fmaF32(1.0f, 1.0f, 0x1p-24f, mods(Rounding::Rn))),
            0x3f800000u);
  EXPECT_EQ(bits(fmaF32(1.0f, 1.0f, 0x1p-24f, mods(Rounding::Rp))),
            0x3f800001u);
  EXPECT_EQ(bits(fmaF32(a, a, -1.0f, mods(Rounding::Rz, false, true))),
            0x3a000400u);
  EXPECT_EQ(fmaF32(2.0f, 2.0f, -1.0f, mods(Rounding::Rm, false, true)), 1.0f);
}

TEST(PtxF32Test, DivRcpSqrtAreCorrectlyRounded) {
  // 1/3 = 0x3eaaaaaa + 0.67 ulp.
  EXPECT_EQ(bits(divF32(1.0f, 3.0f, Rounding::Rn)), 0x3eaaaaabu);
  EXPECT_EQ(bits(divF32(1.0f, 3.0f, Rounding::Rz)), 0x3eaaaaaau);
  EXPECT_EQ(bits(divF32(1.0f, 3.0f, Rounding::Rm)), 0x3eaaaaaau);
  EXPECT_EQ(bits(divF32(1.0f, 3.0f, Rounding::Rp)), 0x3eaaaaabu);
  EXPECT_EQ(bits(divF32(-1.0f, 3.0f, Rounding::Rm)), 0xbeaaaaabu);
  EXPECT_EQ(bits(divF32(-1.0f, 3.0f, Rounding::Rz)), 0xbeaaaaaau);
  EXPECT_EQ(bits(rcpF32(3.0f, Rounding::Rn)), 0x3eaaaaabu);
  EXPECT_EQ(bits(rcpF32(-0.0f, Rounding::Rn)), 0xff800000u);
  EXPECT_EQ(bits(divF32(0.0f, 0.0f, Rounding::Rn)), kCanonicalNanF32);
  // sqrt(2) = 0x3fb504f3 + 0.2 ulp.
  EXPECT_EQ(bits(sqrtF32(2.0f, Rounding::Rn)), 0x3fb504f3u);
  EXPECT_EQ(bits(sqrtF32(2.0f, Rounding::Rz)), 0x3fb504f3u);
  EXPECT_EQ(bits(sqrtF32(2.0f, Rounding::Rm)), 0x3fb504f3u);
  EXPECT_EQ(bits(sqrtF32(2.0f, Rounding::Rp)), 0x3fb504f4u);
  // sqrt(3) = 0x3fddb3d7 + 0.26 ulp.
  EXPECT_EQ(bits(sqrtF32(3.0f, Rounding::Rn)), 0x3fddb3d7u);
  EXPECT_EQ(bits(sqrtF32(3.0f, Rounding::Rp)), 0x3fddb3d8u);
  EXPECT_EQ(sqrtF32(4.0f, Rounding::Rp), 2.0f);
  EXPECT_EQ(sqrtF32(4.0f, Rounding::Rm), 2.0f);
  EXPECT_EQ(sqrtF32(0x1p-148f, Rounding::Rn), 0x1p-74f);
  EXPECT_EQ(bits(sqrtF32(0x1p-148f, Rounding::Rn, /*ftz=*/true)), 0u);
  EXPECT_EQ(bits(sqrtF32(-0.0f, Rounding::Rn)), 0x80000000u);
  EXPECT_EQ(bits(sqrtF32(-1.0f, Rounding::Rn)), kCanonicalNanF32);
  EXPECT_EQ(sqrtF32(kInf, Rounding::Rz), kInf);
}

TEST(PtxF32Test, MinMaxNanAndSignedZero) {
  EXPECT_EQ(bits(maxF32(-0.0f, 0.0f)), 0x00000000u);
  EXPECT_EQ(bits(maxF32(0.0f, -0.0f)), 0x00000000u);
  EXPECT_EQ(bits(minF32(0.0f, -0.0f)), 0x80000000u);
  EXPECT_EQ(bits(minF32(-0.0f, 0.0f)), 0x80000000u);
  EXPECT_EQ(maxF32(kNan, 1.0f), 1.0f);
  EXPECT_EQ(minF32(1.0f, kNan), 1.0f);
  EXPECT_EQ(bits(minF32(kNan, kNan)), kCanonicalNanF32);
  EXPECT_EQ(bits(maxF32(kNan, 1.0f, /*propagateNan=*/true)), kCanonicalNanF32);
  EXPECT_EQ(bits(minF32(1.0f, kNan, true)), kCanonicalNanF32);
  EXPECT_EQ(minF32(-2.0f, 1.0f, true), -2.0f);
  // .ftz: the negative subnormal is -0, below +0.
  float negativeSubnormal = f32FromBits(0x80000001);
  EXPECT_EQ(bits(minF32(negativeSubnormal, 0.0f, false, true)), 0x80000000u);
  EXPECT_EQ(bits(minF32(negativeSubnormal, 0.0f)), 0x80000001u);
}

//===----------------------------------------------------------------------===//
// f16 arithmetic
//===----------------------------------------------------------------------===//

TEST(PtxF16Test, AddSubRoundToNearestEven) {
  EXPECT_EQ(addF16(0x3c00, 0x3c00), 0x4000);
  EXPECT_EQ(addF16(0x3c00, 0x1400), 0x3c01); // 1 + 2^-10
  EXPECT_EQ(addF16(0x3c00, 0x1000), 0x3c00); // 1 + 2^-11: tie to even
  EXPECT_EQ(addF16(0x3c01, 0x1000), 0x3c02); // tie to even, upwards
  EXPECT_EQ(addF16(0x7bff, 0x4c00), 0x7c00); // 65504 + 16: tie, to inf
  EXPECT_EQ(addF16(0x7bff, 0x4800), 0x7bff); // 65504 + 8
  EXPECT_EQ(addF16(0x0001, 0x0001), 0x0002);
  EXPECT_EQ(subF16(0x3c00, 0x3c00), 0x0000);
  EXPECT_EQ(subF16(0x3c00, 0x4000), 0xbc00);
  EXPECT_EQ(addF16(0x7e00, 0x3c00), 0x7fff);
  EXPECT_EQ(addF16(0x7c00, 0xfc00), 0x7fff);
}

TEST(PtxF16Test, MulAndSubnormals) {
  EXPECT_EQ(mulF16(0x4000, 0x4200), 0x4600); // 2 * 3 = 6
  EXPECT_EQ(mulF16(0x0200, 0x3800), 0x0100); // 2^-15 * 0.5
  EXPECT_EQ(mulF16(0x0001, 0x3800), 0x0000); // 2^-25: tie to even 0
  EXPECT_EQ(mulF16(0x0003, 0x3800), 0x0002); // 1.5 * 2^-24: tie to even
  EXPECT_EQ(mulF16(0x8001, 0x3c00), 0x8001);
  EXPECT_EQ(mulF16(0x5c00, 0x5c00), 0x7c00); // 256^2 overflows
}

TEST(PtxF16Test, FtzAndSat) {
  F16Modifiers ftz{/*ftz=*/true, /*sat=*/false};
  F16Modifiers sat{/*ftz=*/false, /*sat=*/true};
  EXPECT_EQ(addF16(0x0001, 0x0001, ftz), 0x0000);
  EXPECT_EQ(mulF16(0x0400, 0x3800, ftz), 0x0000); // 2^-15 result flushed
  EXPECT_EQ(mulF16(0x8400, 0x3800, ftz), 0x8000);
  EXPECT_EQ(mulF16(0xc000, 0x3c00, sat), 0x0000);
  EXPECT_EQ(addF16(0x3c00, 0x3800, sat), 0x3c00);
  EXPECT_EQ(addF16(0x3400, 0x3400, sat), 0x3800);
  EXPECT_EQ(addF16(0x7c00, 0xfc00, sat), 0x0000);
}

TEST(PtxF16Test, FmaRoundsOnce) {
  // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly; a separate multiply would
  // round the product to 1 + 2^-9 and give 0.
  EXPECT_EQ(fmaF16(0x3c01, 0x3c01, 0xbc02), 0x0010);
  EXPECT_EQ(fmaF16(0x4000, 0x4200, 0x3c00), 0x4700); // 2 * 3 + 1 = 7
  EXPECT_EQ(fmaF16(0x7bff, 0x4000, 0xfbff), 0x7bff); // no overflow inside
  EXPECT_EQ(fmaF16(0x7c00, 0x0000, 0x3c00), 0x7fff);
}

TEST(PtxF16Test, MinMax) {
  EXPECT_EQ(maxF16(0x8000, 0x0000), 0x0000);
  EXPECT_EQ(minF16(0x0000, 0x8000), 0x8000);
  EXPECT_EQ(minF16(0xc000, 0x3c00), 0xc000);
  EXPECT_EQ(maxF16(0x7e00, 0x3c00), 0x3c00);
  EXPECT_EQ(maxF16(0x7e00, 0x3c00, /*propagateNan=*/true), 0x7fff);
  EXPECT_EQ(minF16(0x7e00, 0xfe00), 0x7fff);
  EXPECT_EQ(minF16(0x8001, 0x0000, false, /*ftz=*/true), 0x8000);
}

TEST(PtxF16Test, FmaRelu) {
  F16Modifiers relu{/*ftz=*/false, /*sat=*/false, /*relu=*/true};
  F16Modifiers ftzRelu{/*ftz=*/true, /*sat=*/false, /*relu=*/true};
  EXPECT_EQ(fmaF16(0xbc00, 0x3c00, 0x0000, relu), 0x0000); // -1 clamps
  EXPECT_EQ(fmaF16(0x3c00, 0x3c00, 0x3c00, relu), 0x4000); // 2 passes
  EXPECT_EQ(fmaF16(0x7c00, 0x0000, 0x0000, relu), 0x7fff); // NaN stays
  EXPECT_EQ(fmaF16(0x8000, 0x3c00, 0x8000, relu), 0x0000); // -0 clamps
  EXPECT_EQ(fmaF16(0x8001, 0x3c00, 0x0000, relu), 0x0000);
  // .ftz flushes the subnormal result 2^-24 first; relu keeps the +0.
  EXPECT_EQ(fmaF16(0x0001, 0x3c00, 0x0000, ftzRelu), 0x0000);
  EXPECT_EQ(fmaF16(0x0001, 0x3c00, 0x0000, relu), 0x0001);
}

TEST(PtxF16Test, NegAbsChangeTheSignBitOnly) {
  EXPECT_EQ(negF16(0x3c00), 0xbc00);
  EXPECT_EQ(negF16(0x8000), 0x0000);
  EXPECT_EQ(negF16(0x0001), 0x8001);
  EXPECT_EQ(absF16(0xbc00), 0x3c00);
  EXPECT_EQ(absF16(0xfe01), 0x7e01); // the NaN's payload stays
  // .ftz: a subnormal input is a zero of its sign first.
  EXPECT_EQ(negF16(0x0001, /*ftz=*/true), 0x8000);
  EXPECT_EQ(negF16(0x83ff, /*ftz=*/true), 0x0000);
  EXPECT_EQ(absF16(0x8001, /*ftz=*/true), 0x0000);
  EXPECT_EQ(negF16(0x0400, /*ftz=*/true), 0x8400); // smallest normal stays
  EXPECT_EQ(bits(negF32(f32FromBits(0x00000001))), 0x80000001u);
  EXPECT_EQ(bits(negF32(f32FromBits(0x00000001), /*ftz=*/true)), 0x80000000u);
  EXPECT_EQ(bits(absF32(f32FromBits(0x807fffff), /*ftz=*/true)), 0u);
  EXPECT_EQ(bits(absF32(f32FromBits(0xffc00001))), 0x7fc00001u);
  EXPECT_EQ(bits(negF32(f32FromBits(0x00800000), /*ftz=*/true)), 0x80800000u);
}

TEST(PtxF32Test, CopysignTakesTheSignOfTheFirstOperand) {
  EXPECT_EQ(bits(copysignF32(-1.0f, 2.0f)), 0xc0000000u);
  EXPECT_EQ(bits(copysignF32(1.0f, -2.0f)), 0x40000000u);
  EXPECT_EQ(bits(copysignF32(-0.0f, 0.0f)), 0x80000000u);
  EXPECT_EQ(bits(copysignF32(0.0f, -kInf)), 0x7f800000u);
  // A NaN's sign counts; a NaN value keeps its payload.
  EXPECT_EQ(bits(copysignF32(f32FromBits(0xffc00000), 3.0f)), 0xc0400000u);
  EXPECT_EQ(bits(copysignF32(-1.0f, f32FromBits(0x7fc00001))), 0xffc00001u);
  EXPECT_EQ(bits(copysignF32(-1.0f, f32FromBits(0x00000001))), 0x80000001u);
}

//===----------------------------------------------------------------------===//
// bf16 arithmetic
//===----------------------------------------------------------------------===//

// bf16: sign, 8 exponent bits (bias 127), 7 fraction bits. 1.0 = 0x3f80,
// its ulp 2^-7 = 0x3c00, half of that 2^-8 = 0x3b80; 1.5 = 0x3fc0; the
// largest finite value 255 * 2^120 = 0x7f7f; subnormals m * 2^-133.

TEST(PtxBF16Test, AddSubRoundToNearestEven) {
  EXPECT_EQ(addBF16(0x3f80, 0x3f80), 0x4000);
  EXPECT_EQ(addBF16(0x3f80, 0x3c00), 0x3f81); // 1 + 2^-7
  EXPECT_EQ(addBF16(0x3f80, 0x3b80), 0x3f80); // 1 + 2^-8: tie to even
  EXPECT_EQ(addBF16(0x3f81, 0x3b80), 0x3f82); // tie to even, upwards
  EXPECT_EQ(addBF16(0x3f80, 0x3b81), 0x3f81); // 1 + 2^-8 + 2^-15: above
  EXPECT_EQ(addBF16(0x3f80, 0xbb81), 0x3f7f); // 1 - 2^-8 - 2^-15
  // 255 * 2^120 + 2^119 is the tie with 2^128: infinity; 2^118 is not.
  EXPECT_EQ(addBF16(0x7f7f, 0x7b00), 0x7f80);
  EXPECT_EQ(addBF16(0x7f7f, 0x7a80), 0x7f7f);
  EXPECT_EQ(addBF16(0xff7f, 0xfb00), 0xff80);
  // Exponents 260 apart: the sum rounds back to the larger operand.
  EXPECT_EQ(addBF16(0x7f00, 0x0001), 0x7f00);
  EXPECT_EQ(addBF16(0x3f81, 0x8001), 0x3f81);
  // Subnormals add exactly, up into the normal range.
  EXPECT_EQ(addBF16(0x0001, 0x0001), 0x0002);
  EXPECT_EQ(addBF16(0x007f, 0x0001), 0x0080);
  EXPECT_EQ(addBF16(0x0080, 0x8001), 0x007f);
  // Signed zeros: x + (-x) = +0, -0 + -0 = -0.
  EXPECT_EQ(addBF16(0x3f80, 0xbf80), 0x0000);
  EXPECT_EQ(addBF16(0x8000, 0x8000), 0x8000);
  EXPECT_EQ(addBF16(0x8000, 0x0000), 0x0000);
  EXPECT_EQ(subBF16(0x3f80, 0x3f80), 0x0000);
  EXPECT_EQ(subBF16(0x3f80, 0x4000), 0xbf80);
  EXPECT_EQ(subBF16(0x8000, 0x0000), 0x8000);
  // NaN and infinity.
  EXPECT_EQ(addBF16(0x7fc0, 0x3f80), 0x7fff);
  EXPECT_EQ(addBF16(0xffc1, 0x3f80), 0x7fff);
  EXPECT_EQ(addBF16(0x7f80, 0xff80), 0x7fff);
  EXPECT_EQ(addBF16(0x7f80, 0x3f80), 0x7f80);
  EXPECT_EQ(subBF16(0xff80, 0x7f80), 0xff80);
}

TEST(PtxBF16Test, MulRoundsOnceAndUnderflowsToSubnormals) {
  EXPECT_EQ(mulBF16(0x4000, 0x4040), 0x40c0); // 2 * 3 = 6
  EXPECT_EQ(mulBF16(0x3f81, 0x3f81), 0x3f82); // 1 + 2^-6 + 2^-14
  // (1 + 2^-7) * 1.5 = 1.5 + 3 * 2^-8, halfway between 0x3fc1 and 0x3fc2.
  EXPECT_EQ(mulBF16(0x3f81, 0x3fc0), 0x3fc2);
  EXPECT_EQ(mulBF16(0xbf81, 0x3fc0), 0xbfc2);
  EXPECT_EQ(mulBF16(0x0080, 0x3f00), 0x0040); // 2^-126 / 2 = 2^-127
  EXPECT_EQ(mulBF16(0x0001, 0x3f00), 0x0000); // 2^-134: tie to even 0
  EXPECT_EQ(mulBF16(0x0003, 0x3f00), 0x0002); // 1.5 * 2^-133: tie to 2
  EXPECT_EQ(mulBF16(0x0003, 0x3f40), 0x0002); // 2.25 * 2^-133
  EXPECT_EQ(mulBF16(0x8001, 0x3e80), 0x8000); // -2^-135 rounds to -0
  EXPECT_EQ(mulBF16(0x0080, 0x0080), 0x0000); // 2^-252
  EXPECT_EQ(mulBF16(0x5f80, 0x5f80), 0x7f80); // 2^64 squared overflows
  EXPECT_EQ(mulBF16(0xdf80, 0x5f80), 0xff80);
  EXPECT_EQ(mulBF16(0x5f80, 0x5f7f), 0x7f7f); // 2^64 * 255 * 2^56
  EXPECT_EQ(mulBF16(0x8000, 0x3f80), 0x8000);
  EXPECT_EQ(mulBF16(0x7f80, 0x0000), 0x7fff);
  EXPECT_EQ(mulBF16(0x7f80, 0xbf80), 0xff80);
}

TEST(PtxBF16Test, FmaRoundsOnce) {
  // (1 + 2^-7)^2 - (1 + 2^-6) = 2^-14 exactly; a separate multiply would
  // round the product to 1 + 2^-6 and give 0.
  EXPECT_EQ(fmaBF16(0x3f81, 0x3f81, 0xbf82), 0x3880);
  // (1 + 2^-7) * 1.5 is a tie between 0x3fc1 and 0x3fc2. Adding -2^-133
  // puts the exact result just below it, +2^-133 just above: a sum rounded
  // to double first (53 bits) would lose the 2^-133 and round the tie to
  // even, 0x3fc2, both times.
  EXPECT_EQ(fmaBF16(0x3f81, 0x3fc0, 0x8001), 0x3fc1);
  EXPECT_EQ(fmaBF16(0x3f81, 0x3fc0, 0x0001), 0x3fc2);
  EXPECT_EQ(fmaBF16(0x3f81, 0x3fc0, 0x0000), 0x3fc2);
  EXPECT_EQ(fmaBF16(0xbf81, 0x3fc0, 0x0001), 0xbfc1);
  // No overflow inside: 2 * max - max = max.
  EXPECT_EQ(fmaBF16(0x7f7f, 0x4000, 0xff7f), 0x7f7f);
  EXPECT_EQ(fmaBF16(0x7f7f, 0x3f80, 0x7b00), 0x7f80); // tie, to inf
  // nvcc's sm_80 add (a * 1 + b) and mul (a * b + -0) idioms.
  EXPECT_EQ(fmaBF16(0x3f80, 0x3f80, 0x3b80), 0x3f80);
  EXPECT_EQ(fmaBF16(0x3f81, 0x3f80, 0x3b80), 0x3f82);
  EXPECT_EQ(fmaBF16(0x8000, 0x3f80, 0x8000), 0x8000);
  EXPECT_EQ(fmaBF16(0x0000, 0xbf80, 0x8000), 0x8000);
  EXPECT_EQ(fmaBF16(0x0000, 0x3f80, 0x8000), 0x0000);
  EXPECT_EQ(fmaBF16(0x3f81, 0x3fc0, 0x8000), 0x3fc2);
  EXPECT_EQ(fmaBF16(0x7f80, 0x0000, 0x3f80), 0x7fff);
  EXPECT_EQ(fmaBF16(0x3f80, 0x3f80, 0x7fc0), 0x7fff);
}

TEST(PtxBF16Test, FmaRelu) {
  EXPECT_EQ(fmaBF16(0xbf80, 0x3f80, 0x0000, /*relu=*/true), 0x0000);
  EXPECT_EQ(fmaBF16(0x3f80, 0x3f80, 0x0000, true), 0x3f80);
  EXPECT_EQ(fmaBF16(0x7f80, 0x0000, 0x0000, true), 0x7fff);
  EXPECT_EQ(fmaBF16(0x8000, 0x3f80, 0x8000, true), 0x0000);
  EXPECT_EQ(fmaBF16(0x8001, 0x3f80, 0x0000, true), 0x0000);
  EXPECT_EQ(fmaBF16(0x0001, 0x3f80, 0x0000, true), 0x0001); // no ftz
}

TEST(PtxBF16Test, MinMax) {
  EXPECT_EQ(maxBF16(0x8000, 0x0000), 0x0000);
  EXPECT_EQ(maxBF16(0x0000, 0x8000), 0x0000);
  EXPECT_EQ(minBF16(0x0000, 0x8000), 0x8000);
  EXPECT_EQ(minBF16(0xc000, 0x3f80), 0xc000);
  EXPECT_EQ(minBF16(0xbf80, 0xc000), 0xc000); // -2 < -1
  EXPECT_EQ(maxBF16(0x0001, 0x0000), 0x0001); // subnormals kept
  EXPECT_EQ(maxBF16(0x7fc0, 0x3f80), 0x3f80);
  EXPECT_EQ(minBF16(0x3f80, 0xff81), 0x3f80);
  EXPECT_EQ(maxBF16(0x7fc0, 0x3f80, /*propagateNan=*/true), 0x7fff);
  EXPECT_EQ(minBF16(0x3f80, 0xff81, true), 0x7fff);
  EXPECT_EQ(minBF16(0x7fc0, 0xffc0), 0x7fff);
  // 0x7c01 is an f16 NaN but a finite bf16 (about 2^121).
  EXPECT_EQ(maxBF16(0x7c01, 0x3f80), 0x7c01);
  EXPECT_EQ(minBF16(0x7c01, 0x3f80, true), 0x3f80);
  EXPECT_EQ(maxBF16(0x7f80, 0x7f7f), 0x7f80);
}

//===----------------------------------------------------------------------===//
// Packed .f16x2 and .bf16x2
//===----------------------------------------------------------------------===//

TEST(PtxPackedTest, F16x2WorksOnEachHalf) {
  // Low halves 2 + 1, high halves 1 + 1.
  EXPECT_EQ(addF16x2(0x3c004000u, 0x3c003c00u), 0x40004200u);
  // An overflow in the low half does not reach the high one.
  EXPECT_EQ(addF16x2(0x3c007bffu, 0x00004c00u), 0x3c007c00u);
  EXPECT_EQ(subF16x2(0x3c004000u, 0x40003c00u), 0xbc003c00u);
  EXPECT_EQ(mulF16x2(0x40005c00u, 0x42005c00u), 0x46007c00u);
  // fma: high 2 * 3 + 1 = 7; low the single-rounding case 2^-20.
  EXPECT_EQ(fmaF16x2(0x40003c01u, 0x42003c01u, 0x3c00bc02u), 0x47000010u);
  F16Modifiers sat{/*ftz=*/false, /*sat=*/true};
  EXPECT_EQ(addF16x2(0x3c00c000u, 0x3c003c00u, sat), 0x3c000000u);
  F16Modifiers ftz{/*ftz=*/true, /*sat=*/false};
  EXPECT_EQ(addF16x2(0x00013c00u, 0x00013c00u, ftz), 0x00004000u);
  F16Modifiers relu{false, false, /*relu=*/true};
  EXPECT_EQ(fmaF16x2(0xbc003c00u, 0x3c003c00u, 0x00000000u, relu), 0x00003c00u);
  EXPECT_EQ(minF16x2(0x7e003c00u, 0x3c004000u), 0x3c003c00u);
  EXPECT_EQ(minF16x2(0x7e003c00u, 0x3c004000u, /*propagateNan=*/true),
            0x7fff3c00u);
  EXPECT_EQ(maxF16x2(0x80000000u, 0x00008000u), 0x00000000u);
  EXPECT_EQ(maxF16x2(0x80010001u, 0x00008000u, false, /*ftz=*/true),
            0x00000000u);
  EXPECT_EQ(negF16x2(0x3c008001u), 0xbc000001u);
  EXPECT_EQ(negF16x2(0x3c008001u, /*ftz=*/true), 0xbc000000u);
  EXPECT_EQ(absF16x2(0xbc00fe01u), 0x3c007e01u);
  EXPECT_EQ(absF16x2(0x80013c00u, /*ftz=*/true), 0x00003c00u);
}

TEST(PtxPackedTest, BF16x2WorksOnEachHalf) {
  // Low 1 + 2^-7, high the tie 1 + 2^-8.
  EXPECT_EQ(addBF16x2(0x3f803f80u, 0x3b803c00u), 0x3f803f81u);
  EXPECT_EQ(subBF16x2(0x3f803f80u, 0x3f804000u), 0x0000bf80u);
  EXPECT_EQ(mulBF16x2(0x5f803f81u, 0x5f803fc0u), 0x7f803fc2u);
  // The fma tie of FmaRoundsOnce, broken downwards (low) and upwards.
  EXPECT_EQ(fmaBF16x2(0x3f813f81u, 0x3fc03fc0u, 0x00018001u), 0x3fc23fc1u);
  EXPECT_EQ(fmaBF16x2(0xbf803f80u, 0x3f803f80u, 0u, /*relu=*/true),
            0x00003f80u);
  EXPECT_EQ(maxBF16x2(0x7c010001u, 0x3f800000u), 0x7c010001u);
  EXPECT_EQ(minBF16x2(0x7fc0c000u, 0x3f803f80u), 0x3f80c000u);
  EXPECT_EQ(minBF16x2(0x7fc0c000u, 0x3f803f80u, true), 0x7fffc000u);
  EXPECT_EQ(negBF16x2(0x3f808001u), 0xbf800001u);
  EXPECT_EQ(absBF16x2(0xbf80ffc1u), 0x3f807fc1u);
}

//===----------------------------------------------------------------------===//
// .approx
//===----------------------------------------------------------------------===//

TEST(PtxApproxTest, SpecialValuesFromTheIsaTables) {
  EXPECT_EQ(ex2ApproxF32(3.0f), 8.0f);
  EXPECT_EQ(bits(ex2ApproxF32(-kInf)), 0u);
  EXPECT_EQ(ex2ApproxF32(-0.0f), 1.0f);
  EXPECT_EQ(ex2ApproxF32(kInf), kInf);
  EXPECT_EQ(bits(ex2ApproxF32(kNan)), kCanonicalNanF32);
  EXPECT_EQ(lg2ApproxF32(8.0f), 3.0f);
  EXPECT_EQ(lg2ApproxF32(-0.0f), -kInf);
  EXPECT_TRUE(std::isnan(lg2ApproxF32(-1.0f)));
  EXPECT_EQ(rsqrtApproxF32(4.0f), 0.5f);
  EXPECT_EQ(rsqrtApproxF32(-0.0f), -kInf);
  EXPECT_EQ(bits(rsqrtApproxF32(kInf)), 0u);
  EXPECT_TRUE(std::isnan(rsqrtApproxF32(-1.0f)));
  EXPECT_EQ(bits(sqrtApproxF32(-0.0f)), 0x80000000u);
  EXPECT_EQ(bits(rcpApproxF32(-kInf)), 0x80000000u);
  EXPECT_EQ(rcpApproxF32(-0.0f), -kInf);
  EXPECT_EQ(bits(sinApproxF32(-0.0f)), 0x80000000u);
  EXPECT_EQ(cosApproxF32(-0.0f), 1.0f);
  EXPECT_TRUE(std::isnan(sinApproxF32(kInf)));
  EXPECT_EQ(tanhApproxF32(-kInf), -1.0f);
  EXPECT_EQ(bits(tanhApproxF32(-0.0f)), 0x80000000u);
}

TEST(PtxApproxTest, ComputedValuesAreCorrectlyRounded) {
  EXPECT_EQ(bits(ex2ApproxF32(0.5f)), 0x3fb504f3u); // sqrt(2)
  EXPECT_EQ(bits(sqrtApproxF32(2.0f)), 0x3fb504f3u);
  EXPECT_EQ(bits(rcpApproxF32(3.0f)), 0x3eaaaaabu);
  EXPECT_EQ(bits(rsqrtApproxF32(2.0f)), 0x3f3504f3u); // 0.70710677
  EXPECT_EQ(bits(divApproxF32(1.0f, 3.0f)), 0x3eaaaaabu);
  // sin(1) = 0.8414709848..., log2(3) = 1.5849625007...
  EXPECT_EQ(bits(sinApproxF32(1.0f)), 0x3f576aa4u);
  EXPECT_EQ(bits(lg2ApproxF32(3.0f)), 0x3fcae00du);
}

TEST(PtxApproxTest, FtzAndSubnormals) {
  // 2^-127 is subnormal in f32.
  EXPECT_EQ(ex2ApproxF32(-127.0f), 0x1p-127f);
  EXPECT_EQ(bits(ex2ApproxF32(-127.0f, /*ftz=*/true)), 0u);
  EXPECT_EQ(rcpApproxF32(f32FromBits(0x00000001), true), kInf);
  // tanh passes subnormals through.
  float subnormal = f32FromBits(0x00000010);
  EXPECT_EQ(bits(tanhApproxF32(subnormal)), 0x00000010u);
}

TEST(PtxApproxTest, DivApproxFollowsTheIsaForHugeDivisors) {
  EXPECT_EQ(bits(divApproxF32(1.0f, 0x1.8p126f)), 0u);
  EXPECT_EQ(bits(divApproxF32(-1.0f, 0x1p127f)), 0x80000000u);
  EXPECT_EQ(bits(divApproxF32(kInf, 0x1p127f)), kCanonicalNanF32);
  // At 2^126 the ordinary quotient: 2^-126, the smallest normal.
  EXPECT_EQ(divApproxF32(1.0f, 0x1p126f), 0x1p-126f);
}

TEST(PtxApproxTest, ErrorBoundsQuoteTheIsa) {
  ErrorBound ex2 = approxErrorBound(ApproxFunction::Ex2, 100.0f);
  EXPECT_EQ(ex2.kind, ErrorKind::Ulp);
  EXPECT_EQ(ex2.bound, 2.0);
  ErrorBound lg2Near1 = approxErrorBound(ApproxFunction::Lg2, 1.5f);
  EXPECT_EQ(lg2Near1.kind, ErrorKind::Absolute);
  EXPECT_EQ(lg2Near1.bound, 0x1p-22);
  ErrorBound lg2Far = approxErrorBound(ApproxFunction::Lg2, 2.0f);
  EXPECT_EQ(lg2Far.kind, ErrorKind::Relative);
  EXPECT_EQ(lg2Far.bound, 0x1p-22);
  ErrorBound rsqrt = approxErrorBound(ApproxFunction::Rsqrt, 3.0f);
  EXPECT_EQ(rsqrt.kind, ErrorKind::Relative);
  EXPECT_DOUBLE_EQ(rsqrt.bound, std::pow(2.0, -22.9));
  EXPECT_EQ(approxErrorBound(ApproxFunction::Sqrt, 3.0f).bound, 0x1p-23);
  EXPECT_EQ(approxErrorBound(ApproxFunction::Rcp, 3.0f).kind, ErrorKind::Ulp);
  EXPECT_EQ(approxErrorBound(ApproxFunction::Rcp, 3.0f).bound, 1.0);
  EXPECT_EQ(approxErrorBound(ApproxFunction::Div, 1.0f).bound, 2.0);
  EXPECT_EQ(approxErrorBound(ApproxFunction::Div, 0x1p127f).bound, 0.0);
  EXPECT_EQ(approxErrorBound(ApproxFunction::Div, 0x1p-127f).kind,
            ErrorKind::Unbounded);
  EXPECT_DOUBLE_EQ(approxErrorBound(ApproxFunction::Sin, 6.0f).bound,
                   std::pow(2.0, -20.5));
  EXPECT_DOUBLE_EQ(approxErrorBound(ApproxFunction::Cos, -7.0f).bound,
                   std::pow(2.0, -14.7));
  EXPECT_EQ(approxErrorBound(ApproxFunction::Sin, 315.0f).kind,
            ErrorKind::Unbounded);
  EXPECT_EQ(approxErrorBound(ApproxFunction::Tanh, 0.5f).bound, 0x1p-11);
}

//===----------------------------------------------------------------------===//
// Randomized checks against a rounding oracle written here
//===----------------------------------------------------------------------===//

// The oracle rounds an exact value, given as a double, to a sorted list of
// the format's non-negative finite values (the largest is `largest`): find
// the neighbours below and above, then pick by the mode's rule. It shares
// nothing with the library's rounding (APFloat, host arithmetic).
struct RoundingOracle {
  std::vector<double> values; // non-negative finite, ascending; index = bits
  double overflowThreshold;   // values at or past it round to inf under .rn

  /// The bit pattern of the rounding of `exact` (finite, any sign).
  uint32_t round(double exact, Rounding rounding, uint32_t signBit,
                 uint32_t infBits) const {
    bool negative = exact < 0 || (exact == 0 && std::signbit(exact));
    double magnitude = std::fabs(exact);
    // Rounding a negative value down is rounding its magnitude up.
    bool up = rounding == Rounding::Rp, down = rounding == Rounding::Rm;
    if (negative)
      std::swap(up, down);
    size_t last = values.size() - 1;
    if (magnitude > values[last]) {
      bool toInf =
          rounding == Rounding::Rn ? magnitude >= overflowThreshold : up;
      return (negative ? signBit : 0) | (toInf ? infBits : uint32_t(last));
    }
    size_t above = std::lower_bound(values.begin(), values.end(), magnitude) -
                   values.begin();
    size_t pick = above;
    if (values[above] != magnitude) {
      size_t below = above - 1;
      double distBelow = magnitude - values[below];
      double distAbove = values[above] - magnitude;
      if (rounding == Rounding::Rn)
        pick = distBelow < distAbove   ? below
               : distAbove < distBelow ? above
               : (below % 2 == 0)      ? below
                                       : above;
      else
        pick = up ? above : below;
    }
    return (negative ? signBit : 0) | uint32_t(pick);
  }
};

/// f16's non-negative finite values from the format's fields: subnormals
/// m * 2^-24, normals (1024 + m) * 2^(e - 25).
RoundingOracle f16Oracle() {
  RoundingOracle oracle;
  for (uint32_t bitsValue = 0; bitsValue < 0x7c00; ++bitsValue) {
    uint32_t exponent = bitsValue >> 10, mantissa = bitsValue & 0x3ff;
    oracle.values.push_back(exponent == 0 ? std::ldexp(double(mantissa), -24)
                                          : std::ldexp(double(1024 + mantissa),
                                                       int(exponent) - 25));
  }
  oracle.overflowThreshold = 65520.0;
  return oracle;
}

/// f32's values are too many to list: round with the host's conversion
/// for the neighbours, then decide by the mode's rule as above.
uint32_t roundToF32(double exact, Rounding rounding) {
  float nearest = static_cast<float>(exact);
  float below = nearest <= exact ? nearest : std::nextafter(nearest, -kInf);
  float above = below == exact ? below : std::nextafter(below, kInf);
  float pick = nearest;
  switch (rounding) {
  case Rounding::Rn:
    break;
  case Rounding::Rz:
    pick = exact >= 0 ? below : above;
    break;
  case Rounding::Rm:
    pick = below;
    break;
  case Rounding::Rp:
    pick = above;
    break;
  }
  // A negative value rounded to zero is -0.
  return pick == 0 && exact < 0 ? 0x80000000u : bits(pick);
}

/// A float with a random significand and an exponent in [minExp, maxExp].
float randomF32(std::mt19937 &rng, int minExp, int maxExp) {
  std::uniform_int_distribution<uint32_t> mantissa(0, (1u << 23) - 1);
  std::uniform_int_distribution<int> exponent(minExp, maxExp);
  std::bernoulli_distribution negative(0.5);
  float magnitude =
      std::ldexp(1.0f + std::ldexp(float(mantissa(rng)), -23), exponent(rng));
  return negative(rng) ? -magnitude : magnitude;
}

constexpr Rounding kAllRoundings[] = {Rounding::Rn, Rounding::Rz, Rounding::Rm,
                                      Rounding::Rp};

TEST(PtxRandomizedTest, F32ToF16MatchesOracle) {
  RoundingOracle oracle = f16Oracle();
  std::mt19937 rng(1);
  for (int n = 0; n < 20000; ++n) {
    // From below f16's subnormals to past its overflow.
    float value = randomF32(rng, -27, 17);
    for (Rounding rounding : kAllRoundings)
      ASSERT_EQ(cvtF32ToF16(value, rounding),
                oracle.round(value, rounding, 0x8000, 0x7c00))
          << value << " mode " << int(rounding);
  }
}

/// bf16's non-negative finite values: subnormals m * 2^-133, normals
/// (128 + m) * 2^(e - 134).
RoundingOracle bf16Oracle() {
  RoundingOracle oracle;
  for (uint32_t bitsValue = 0; bitsValue < 0x7f80; ++bitsValue) {
    uint32_t exponent = bitsValue >> 7, mantissa = bitsValue & 0x7f;
    oracle.values.push_back(exponent == 0 ? std::ldexp(double(mantissa), -133)
                                          : std::ldexp(double(128 + mantissa),
                                                       int(exponent) - 134));
  }
  // Half an ulp past the largest finite value, 255 * 2^120.
  oracle.overflowThreshold = std::ldexp(255.5, 120);
  return oracle;
}

TEST(PtxRandomizedTest, F32ToBF16MatchesOracle) {
  RoundingOracle oracle = bf16Oracle();
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> anyBits;
  for (int n = 0; n < 20000; ++n) {
    // Random finite floats over the whole range, and the exact midpoints
    // between two bf16 values (ties go to the even one).
    float value = f32FromBits(anyBits(rng));
    if (!std::isfinite(value))
      continue;
    float tie = f32FromBits((f32Bits(value) & 0xffff0000u) | 0x8000u);
    for (float v : {value, tie})
      for (Rounding rounding : kAllRoundings)
        ASSERT_EQ(cvtF32ToBF16(v, rounding),
                  oracle.round(v, rounding, 0x8000, 0x7f80))
            << v << " mode " << int(rounding);
  }
}

TEST(PtxRandomizedTest, F16AddMulMatchOracle) {
  RoundingOracle oracle = f16Oracle();
  std::mt19937 rng(2);
  std::uniform_int_distribution<uint32_t> finite(0, 0x7bff);
  std::bernoulli_distribution negative(0.5);
  auto draw = [&] {
    uint32_t magnitude = finite(rng);
    return uint16_t((negative(rng) ? 0x8000 : 0) | magnitude);
  };
  auto value = [&](uint16_t h) {
    double magnitude = oracle.values[h & 0x7fff];
    return (h & 0x8000) ? -magnitude : magnitude;
  };
  for (int n = 0; n < 20000; ++n) {
    uint16_t a = draw(), b = draw();
    // Both are exact in double (see PtxArithmetic.cpp), so the oracle sees
    // the exact value.
    double sum = value(a) + value(b), product = value(a) * value(b);
    uint32_t expectedSum = oracle.round(sum, Rounding::Rn, 0x8000, 0x7c00);
    uint32_t expectedProduct =
        oracle.round(product, Rounding::Rn, 0x8000, 0x7c00);
    // x + (-x) is +0 under .rn.
    if (sum == 0)
      expectedSum = (a & b & 0x8000);
    ASSERT_EQ(addF16(a, b), expectedSum) << std::hex << a << " " << b;
    ASSERT_EQ(mulF16(a, b), expectedProduct) << std::hex << a << " " << b;
  }
}

/// A bf16 bit pattern with a random sign and a finite magnitude: any
/// exponent field, subnormals included.
uint16_t randomFiniteBF16(std::mt19937 &rng) {
  std::uniform_int_distribution<uint32_t> magnitude(0, 0x7f7f);
  std::bernoulli_distribution negative(0.5);
  return uint16_t((negative(rng) ? 0x8000 : 0) | magnitude(rng));
}

TEST(PtxRandomizedTest, BF16AddSubMulMatchApFloat) {
  // APFloat's BFloat operations round the exact result once: a reference
  // that shares nothing with the library's route through double.
  using llvm::APFloat;
  auto reference = [](uint16_t a, uint16_t b, char op) {
    APFloat x(APFloat::BFloat(), llvm::APInt(16, a));
    APFloat y(APFloat::BFloat(), llvm::APInt(16, b));
    auto mode = APFloat::rmNearestTiesToEven;
    if (op == '+')
      x.add(y, mode);
    else if (op == '-')
      x.subtract(y, mode);
    else
      x.multiply(y, mode);
    return x.isNaN() ? uint16_t(0x7fff)
                     : uint16_t(x.bitcastToAPInt().getZExtValue());
  };
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> near(-12, 12);
  for (int n = 0; n < 50000; ++n) {
    uint16_t a = randomFiniteBF16(rng), b = randomFiniteBF16(rng);
    // Half of the pairs with nearby exponents: cancellations and ties.
    if (n % 2) {
      int exponent = int((a >> 7) & 0xff) + near(rng);
      exponent = std::max(0, std::min(exponent, 0xfe));
      b = uint16_t((b & 0x807f) | (exponent << 7));
    }
    ASSERT_EQ(addBF16(a, b), reference(a, b, '+')) << std::hex << a << " " << b;
    ASSERT_EQ(subBF16(a, b), reference(a, b, '-')) << std::hex << a << " " << b;
    ASSERT_EQ(mulBF16(a, b), reference(a, b, '*')) << std::hex << a << " " << b;
  }
}

/// Checks `fma` (f16 or bf16: `infBits` +inf, `fraction` stored significand
/// bits) against `oracle` fed the exact a * b + c as an unevaluated sum
/// hi + lo of two doubles: the product of two 16-bit values is exact in
/// double, and Knuth's TwoSum gives the rounding error of the sum exactly.
/// The rounding is that of hi, unless hi is itself a tie (a midpoint, or
/// the overflow threshold), which a nonzero lo breaks: the one case a plain
/// double sum gets wrong. Half of the c's lie far below the product, a
/// quarter of the b's are +-1.5 * 2^k, so that a * b is often a midpoint.
/// With `bigProducts` (f16, whose whole range spans fewer bits than a
/// double), a and b are at least 2^11 when c is small, so that the exact
/// sum can need more than 53 bits. In f16 that happens only when the result
/// overflows or c dwarfs the product, never next to a tie, so only bf16
/// reaches the tie case.
void checkFmaAgainstOracle(const RoundingOracle &oracle, uint16_t infBits,
                           int fraction, bool bigProducts,
                           uint16_t (*fma)(uint16_t, uint16_t, uint16_t),
                           uint32_t seed) {
  auto value = [&](uint16_t h) {
    double magnitude = oracle.values[h & 0x7fff];
    return (h & 0x8000) ? -magnitude : magnitude;
  };
  auto expected = [&](double hi, double lo) {
    uint32_t rounded = oracle.round(hi, Rounding::Rn, 0x8000, infBits);
    if (lo == 0)
      return rounded;
    double magnitude = std::fabs(hi);
    bool away = (lo > 0) == (hi > 0); // lo pushes |hi| up
    uint32_t sign = hi < 0 ? 0x8000 : 0;
    const std::vector<double> &values = oracle.values;
    if (magnitude > values.back())
      return magnitude == oracle.overflowThreshold
                 ? sign | (away ? infBits : uint32_t(values.size() - 1))
                 : rounded;
    size_t above = std::lower_bound(values.begin(), values.end(), magnitude) -
                   values.begin();
    if (values[above] == magnitude)
      return rounded;
    size_t below = above - 1;
    if (magnitude - values[below] != values[above] - magnitude)
      return rounded;
    return sign | uint32_t(away ? above : below);
  };
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> finite(0, infBits - 1);
  std::uniform_int_distribution<uint32_t> significand(0, (1u << fraction) - 1);
  std::uniform_int_distribution<int> gap(fraction + 2, 140);
  std::bernoulli_distribution negative(0.5);
  auto draw = [&] {
    return uint16_t((negative(rng) ? 0x8000 : 0) | finite(rng));
  };
  int minExponent = fraction == 10 ? -14 : -126;
  int ties = 0, inexact = 0;
  std::uniform_int_distribution<uint32_t> bigField(26, 30);
  for (int n = 0; n < 50000; ++n) {
    uint16_t a = draw(), b = draw(), c = draw();
    if (bigProducts && n % 2) {
      uint16_t mask = uint16_t(0x8000 | ((1u << fraction) - 1));
      a = uint16_t((a & mask) | (bigField(rng) << fraction));
      b = uint16_t((b & mask) | (bigField(rng) << fraction));
    }
    if (n % 4 == 1) // significand 1.5
      b = uint16_t((b & ~((1u << fraction) - 1)) | (1u << (fraction - 1)));
    double product = value(a) * value(b);
    if (n % 2 && product != 0) {
      int exponent = std::ilogb(product) - gap(rng);
      uint16_t sign = negative(rng) ? 0x8000 : 0;
      int field = exponent - minExponent + 1;
      if (field >= 1 && field < int(infBits >> fraction))
        c = uint16_t(sign | (field << fraction) | significand(rng));
      else if (field < 1)
        c = uint16_t(sign | significand(rng) | 1); // subnormal
    }
    double addend = value(c);
    double hi = product + addend;
    double virtualAddend = hi - product;
    double lo = (product - (hi - virtualAddend)) + (addend - virtualAddend);
    uint32_t want = expected(hi, lo);
    inexact += lo != 0;
    if (lo != 0 && want != oracle.round(hi, Rounding::Rn, 0x8000, infBits))
      ++ties;
    ASSERT_EQ(fma(a, b, c), want) << std::hex << a << " " << b << " " << c;
  }
  // The test must reach both routes of the library, and for bf16 the tie
  // case.
  EXPECT_GT(inexact, 2000);
  EXPECT_LT(inexact, 45000);
  if (!bigProducts) {
    EXPECT_GT(ties, 100);
  }
}

TEST(PtxRandomizedTest, BF16FmaMatchesOracle) {
  checkFmaAgainstOracle(
      bf16Oracle(), 0x7f80, 7, /*bigProducts=*/false,
      [](uint16_t a, uint16_t b, uint16_t c) { return fmaBF16(a, b, c); }, 5);
}

TEST(PtxRandomizedTest, F16FmaMatchesOracle) {
  checkFmaAgainstOracle(
      f16Oracle(), 0x7c00, 10, /*bigProducts=*/true,
      [](uint16_t a, uint16_t b, uint16_t c) { return fmaF16(a, b, c); }, 6);
}

TEST(PtxRandomizedTest, F32DirectedRoundingMatchesOracle) {
  std::mt19937 rng(3);
  for (int n = 0; n < 20000; ++n) {
    // Exponents within 20 of each other: the exact sum and product fit in
    // a double.
    float a = randomF32(rng, -10, 10), b = randomF32(rng, -10, 10);
    double sum = double(a) + double(b), product = double(a) * double(b);
    for (Rounding rounding : kAllRoundings) {
      if (sum != 0) {
        ASSERT_EQ(bits(addF32(a, b, mods(rounding))), roundToF32(sum, rounding))
            << a << " + " << b << " mode " << int(rounding);
      }
      ASSERT_EQ(bits(mulF32(a, b, mods(rounding))),
                roundToF32(product, rounding))
          << a << " * " << b << " mode " << int(rounding);
    }
  }
}

TEST(PtxRandomizedTest, F32DivAndSqrtBracketTheExactValue) {
  // q rounds a / b down iff q * b <= a < next(q) * b (b > 0): products of
  // two floats are exact in double. Likewise r^2 against a for sqrt.
  std::mt19937 rng(4);
  for (int n = 0; n < 20000; ++n) {
    float a = std::fabs(randomF32(rng, -20, 20));
    float b = std::fabs(randomF32(rng, -20, 20));
    float down = divF32(a, b, Rounding::Rm);
    float up = divF32(a, b, Rounding::Rp);
    ASSERT_LE(double(down) * b, double(a));
    ASSERT_GT(double(std::nextafter(down, kInf)) * b, double(a));
    ASSERT_EQ(bits(divF32(a, b, Rounding::Rz)), bits(down));
    ASSERT_TRUE(up == down ? double(up) * b == double(a)
                           : up == std::nextafter(down, kInf));
    float rootDown = sqrtF32(a, Rounding::Rm);
    float rootUp = sqrtF32(a, Rounding::Rp);
    ASSERT_LE(double(rootDown) * rootDown, double(a));
    double next = std::nextafter(rootDown, kInf);
    ASSERT_GT(next * next, double(a));
    ASSERT_TRUE(rootUp == rootDown ? double(rootUp) * rootUp == double(a)
                                   : rootUp == std::nextafter(rootDown, kInf));
  }
}

//===----------------------------------------------------------------------===//
// Integer and bit instructions
//===----------------------------------------------------------------------===//

TEST(PtxBitsTest, Bfe) {
  EXPECT_EQ(bfeU32(0x12345678u, 4, 8), 0x67u);
  EXPECT_EQ(bfeU32(0x12345678u, 256 + 4, 8), 0x67u);   // pos modulo 256
  EXPECT_EQ(bfeU32(0x12345678u, 0, 300), 0x12345678u); // len 44
  EXPECT_EQ(bfeU32(0x12345678u, 4, 0), 0u);
  EXPECT_EQ(bfeU32(0x80000000u, 28, 8), 0x8u);
  EXPECT_EQ(bfeU32(0x80000000u, 40, 8), 0u);
  EXPECT_EQ(bfeS32(0x000000f0, 4, 4), -1);
  EXPECT_EQ(bfeS32(0x00000070, 4, 4), 7);
  // The field runs past bit 31: the sign is a's msb.
  EXPECT_EQ(bfeS32(static_cast<int32_t>(0x80000000u), 28, 8), -8);
  EXPECT_EQ(bfeS32(static_cast<int32_t>(0x80000000u), 40, 8), -1);
  EXPECT_EQ(bfeS32(static_cast<int32_t>(0x80000000u), 4, 0), 0);
  EXPECT_EQ(bfeU64(0xf000000000000000u, 60, 4), 0xfu);
  EXPECT_EQ(bfeS64(static_cast<int64_t>(0xf000000000000000u), 60, 4), -1);
  EXPECT_EQ(bfeS64(0x0000000380000000, 31, 4), 7);
}

TEST(PtxBitsTest, Bfi) {
  EXPECT_EQ(bfiB32(0xff, 0x12345678u, 8, 8), 0x1234ff78u);
  EXPECT_EQ(bfiB32(0xff, 0x12345678u, 28, 8), 0xf2345678u);
  EXPECT_EQ(bfiB32(0xff, 0x12345678u, 8, 0), 0x12345678u);
  EXPECT_EQ(bfiB32(0xff, 0x12345678u, 32, 8), 0x12345678u);
  EXPECT_EQ(bfiB32(0x0, 0xffffffffu, 256 + 4, 4), 0xffffff0fu);
  EXPECT_EQ(bfiB64(0x1, 0x0, 63, 1), 0x8000000000000000u);
}

TEST(PtxBitsTest, PrmtDefaultMode) {
  uint32_t a = 0x11227f80u, b = 0xaabbccddu;
  EXPECT_EQ(prmtB32(a, b, 0x3210), a);
  EXPECT_EQ(prmtB32(a, b, 0x7654), b);
  EXPECT_EQ(prmtB32(a, b, 0x0123), 0x807f2211u);
  // Selectors 8, 9, c replicate the sign of bytes 0, 1, 4.
  EXPECT_EQ(prmtB32(a, b, 0x4c98), 0xddff00ffu);
  // Only the low 16 bits of c count in the default mode.
  EXPECT_EQ(prmtB32(a, b, 0xffff3210u), a);
}

TEST(PtxBitsTest, PrmtModes) {
  // Source bytes 0-7 hold 0x00, 0x11, ..., 0x77.
  uint32_t a = 0x33221100u, b = 0x77665544u;
  EXPECT_EQ(prmtB32(a, b, 1, PrmtMode::F4e), 0x44332211u);
  EXPECT_EQ(prmtB32(a, b, 3, PrmtMode::F4e), 0x66554433u);
  EXPECT_EQ(prmtB32(a, b, 0, PrmtMode::B4e), 0x55667700u);
  EXPECT_EQ(prmtB32(a, b, 2, PrmtMode::B4e), 0x77001122u);
  EXPECT_EQ(prmtB32(a, b, 3, PrmtMode::B4e), 0x00112233u);
  EXPECT_EQ(prmtB32(a, b, 2, PrmtMode::Rc8), 0x22222222u);
  EXPECT_EQ(prmtB32(a, b, 1, PrmtMode::Ecl), 0x33221111u);
  EXPECT_EQ(prmtB32(a, b, 2, PrmtMode::Ecl), 0x33222222u);
  EXPECT_EQ(prmtB32(a, b, 1, PrmtMode::Ecr), 0x11111100u);
  EXPECT_EQ(prmtB32(a, b, 2, PrmtMode::Ecr), 0x22221100u);
  EXPECT_EQ(prmtB32(a, b, 1, PrmtMode::Rc16), 0x33223322u);
  EXPECT_EQ(prmtB32(a, b, 2, PrmtMode::Rc16), 0x11001100u);
  // Only c[1:0] counts, and there is no sign replication.
  EXPECT_EQ(prmtB32(a, b, 0xfffffff9u, PrmtMode::F4e), 0x44332211u);
  EXPECT_EQ(prmtB32(0x808080f0u, b, 8, PrmtMode::Rc8), 0xf0f0f0f0u);
}

TEST(PtxBitsTest, Bfind) {
  EXPECT_EQ(bfindU32(0), 0xffffffffu);
  EXPECT_EQ(bfindU32(0, /*shiftAmount=*/true), 0xffffffffu);
  EXPECT_EQ(bfindU32(1), 0u);
  EXPECT_EQ(bfindU32(0x80000000u), 31u);
  EXPECT_EQ(bfindU32(0x000000f0u), 7u);
  EXPECT_EQ(bfindU32(0x000000f0u, true), 24u);
  EXPECT_EQ(bfindU32(0x80000000u, true), 0u);
  // Signed: the highest bit that differs from the sign.
  EXPECT_EQ(bfindS32(-1), 0xffffffffu);
  EXPECT_EQ(bfindS32(0), 0xffffffffu);
  EXPECT_EQ(bfindS32(-2), 0u);
  EXPECT_EQ(bfindS32(-2, true), 31u);
  EXPECT_EQ(bfindS32(INT32_MIN), 30u);
  EXPECT_EQ(bfindS32(INT32_MAX), 30u);
  EXPECT_EQ(bfindS32(0x00010000), 16u);
  EXPECT_EQ(bfindS32(int32_t(0xffff0000u)), 15u);
  EXPECT_EQ(bfindU64(uint64_t(1) << 40), 40u);
  EXPECT_EQ(bfindU64(UINT64_MAX), 63u);
  EXPECT_EQ(bfindU64(1, true), 63u);
  EXPECT_EQ(bfindS64(-1), 0xffffffffu);
  EXPECT_EQ(bfindS64(INT64_MIN), 62u);
  EXPECT_EQ(bfindS64(int64_t(1) << 40, true), 23u);
}

TEST(PtxBitsTest, FunnelShift) {
  // {b, a} = 0x01234567_89abcdef.
  uint32_t a = 0x89abcdefu, b = 0x01234567u;
  EXPECT_EQ(shfLB32(a, b, 8, /*clamp=*/false), 0x23456789u);
  EXPECT_EQ(shfRB32(a, b, 8, false), 0x6789abcdu);
  EXPECT_EQ(shfLB32(a, b, 0, false), b);
  EXPECT_EQ(shfRB32(a, b, 0, false), a);
  // .wrap takes c modulo 32, .clamp at most 32.
  EXPECT_EQ(shfLB32(a, b, 40, false), 0x23456789u);
  EXPECT_EQ(shfRB32(a, b, 40, false), 0x6789abcdu);
  EXPECT_EQ(shfLB32(a, b, 32, false), b);
  EXPECT_EQ(shfLB32(a, b, 40, /*clamp=*/true), a);
  EXPECT_EQ(shfRB32(a, b, 40, true), b);
  EXPECT_EQ(shfLB32(a, b, 32, true), a);
  EXPECT_EQ(shfRB32(a, b, 0xffffffffu, true), b);
  EXPECT_EQ(shfLB32(a, b, 31, true), 0x80000000u | (a >> 1));
  // A rotate: the same word twice.
  EXPECT_EQ(shfLB32(0x80000001u, 0x80000001u, 1, false), 0x00000003u);
  EXPECT_EQ(shfRB32(0x80000001u, 0x80000001u, 1, false), 0xc0000000u);
}

TEST(PtxBitsTest, PopcClzBrev) {
  EXPECT_EQ(popcB32(0xffffffffu), 32u);
  EXPECT_EQ(popcB32(0x12345678u), 13u);
  EXPECT_EQ(popcB64(0), 0u);
  EXPECT_EQ(popcB64(0xf0f0f0f0f0f0f0f0u), 32u);
  EXPECT_EQ(clzB32(0), 32u);
  EXPECT_EQ(clzB32(1), 31u);
  EXPECT_EQ(clzB32(0x80000000u), 0u);
  EXPECT_EQ(clzB64(0), 64u);
  EXPECT_EQ(clzB64(0x0000000100000000u), 31u);
  EXPECT_EQ(brevB32(1), 0x80000000u);
  EXPECT_EQ(brevB32(0x12345678u), 0x1e6a2c48u);
  EXPECT_EQ(brevB64(1), 0x8000000000000000u);
}

TEST(PtxBitsTest, Lop3) {
  // The tables of the ISA's examples: F(0xF0, 0xCC, 0xAA) for F = a, b, c,
  // a & b & c, a | b | c, a ^ b ^ c, and (a & b) | c.
  uint32_t a = 0x12345678u, b = 0x0f0f00ffu, c = 0xdeadbeefu;
  EXPECT_EQ(lop3B32(a, b, c, 0xF0), a);
  EXPECT_EQ(lop3B32(a, b, c, 0xCC), b);
  EXPECT_EQ(lop3B32(a, b, c, 0xAA), c);
  EXPECT_EQ(lop3B32(a, b, c, 0x80), a & b & c);
  EXPECT_EQ(lop3B32(a, b, c, 0xFE), a | b | c);
  EXPECT_EQ(lop3B32(a, b, c, 0x96), a ^ b ^ c);
  EXPECT_EQ(lop3B32(a, b, c, 0xEA), (a & b) | c);
  EXPECT_EQ(lop3B32(a, b, c, 0x00), 0u);
  EXPECT_EQ(lop3B32(a, b, c, 0xFF), 0xffffffffu);
}

TEST(PtxBitsTest, MulHiWideMad) {
  EXPECT_EQ(mulHiU16(0xffff, 0xffff), 0xfffe);
  EXPECT_EQ(mulHiS16(-1, -1), 0);
  EXPECT_EQ(mulHiS16(INT16_MIN, INT16_MIN), 0x4000);
  EXPECT_EQ(mulHiS16(-2, 0x4000), -1);
  EXPECT_EQ(mulWideU16(0xffff, 0xffff), 0xfffe0001u);
  EXPECT_EQ(mulWideS16(INT16_MIN, INT16_MIN), 0x40000000);
  EXPECT_EQ(mulWideS16(-3, 5), -15);
  EXPECT_EQ(mulHiU32(0xffffffffu, 0xffffffffu), 0xfffffffeu);
  EXPECT_EQ(mulHiS32(-1, -1), 0);
  EXPECT_EQ(mulHiS32(-2, 0x40000000), -1);
  EXPECT_EQ(mulHiU64(UINT64_MAX, UINT64_MAX), 0xfffffffffffffffeu);
  EXPECT_EQ(mulHiS64(INT64_MIN, INT64_MIN), 0x4000000000000000);
  EXPECT_EQ(mulHiS64(-1, 5), -1);
  EXPECT_EQ(mulWideU32(0xffffffffu, 0xffffffffu), 0xfffffffe00000001u);
  EXPECT_EQ(mulWideS32(INT32_MIN, INT32_MIN), 0x4000000000000000);
  EXPECT_EQ(mulWideS32(-3, 5), -15);
  EXPECT_EQ(madLoU32(0x10000, 0x10000, 5), 5u);
  EXPECT_EQ(madLoS32(INT32_MAX, 2, 2), 0);
  EXPECT_EQ(madLoU64(0x100000000u, 0x100000000u, 7), 7u);
  EXPECT_EQ(madLoS64(INT64_MAX, 2, 3), 1);
  EXPECT_EQ(madHiU32(0xffffffffu, 0xffffffffu, 2), 0u);
  EXPECT_EQ(madHiS32(-1, 1, 1), 0);
  EXPECT_EQ(madHiU64(UINT64_MAX, UINT64_MAX, 2), 0u);
  EXPECT_EQ(madHiS64(INT64_MIN, 2, 5), 4);
}

TEST(PtxBitsTest, ShiftAmountsClampToTheWidth) {
  EXPECT_EQ(shlB32(1, 31), 0x80000000u);
  EXPECT_EQ(shlB32(1, 32), 0u);
  EXPECT_EQ(shlB32(1, 1000), 0u);
  EXPECT_EQ(shlB64(1, 63), 0x8000000000000000u);
  EXPECT_EQ(shlB64(1, 64), 0u);
  EXPECT_EQ(shrU32(0x80000000u, 31), 1u);
  EXPECT_EQ(shrU32(0x80000000u, 32), 0u);
  EXPECT_EQ(shrS32(INT32_MIN, 40), -1);
  EXPECT_EQ(shrS32(0x40000000, 40), 0);
  EXPECT_EQ(shrS32(-8, 1), -4);
  EXPECT_EQ(shrU64(UINT64_MAX, 63), 1u);
  EXPECT_EQ(shrU64(UINT64_MAX, 64), 0u);
  EXPECT_EQ(shrS64(-1, 64), -1);
  EXPECT_EQ(shrS64(INT64_MAX, 0xffffffffu), 0);
}

} // namespace
