//===- PtxArithmetic.cpp - numeric semantics of PTX instructions ----------===//
//
// How exactness is obtained:
//  - Round-to-nearest f32 add/sub/mul/div and fma use the host's binary32
//    operations and fmaf: IEEE 754 correctly rounded (no excess precision,
//    checked below). This assumes the host's default floating-point
//    environment, which the library never changes: round to nearest even,
//    subnormals kept (no FTZ/DAZ, as -ffast-math's startup code would set).
//  - The directed modes (.rz/.rm/.rp) and the conversions use llvm::APFloat,
//    a software IEEE 754 implementation that rounds exactly in all four
//    modes. It needs no change of the host's rounding mode, which
//    fesetround would make global to the thread and which compilers may
//    ignore (no FENV_ACCESS).
//  - f16 add/sub/mul are exact in double before their one rounding: see
//    "Half precision" below. sqrt has no APFloat operation: see sqrtF32.
//
//===----------------------------------------------------------------------===//

#include "GpuEmulator/PtxArithmetic.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

using llvm::APFloat;
using llvm::APInt;

namespace mirage::emulator {

static_assert(FLT_EVAL_METHOD == 0,
              "f32 arithmetic must round to binary32, not to a wider format");
static_assert(std::numeric_limits<float>::is_iec559 &&
                  std::numeric_limits<double>::is_iec559,
              "the host's float and double must be IEEE 754 binary32/64");

namespace {

APFloat::roundingMode toApMode(Rounding rounding) {
  switch (rounding) {
  case Rounding::Rn:
    return APFloat::rmNearestTiesToEven;
  case Rounding::Rz:
    return APFloat::rmTowardZero;
  case Rounding::Rm:
    return APFloat::rmTowardNegative;
  case Rounding::Rp:
    return APFloat::rmTowardPositive;
  }
  llvm_unreachable("unknown rounding");
}

APFloat::roundingMode toApMode(IntRounding rounding) {
  switch (rounding) {
  case IntRounding::Rni:
    return APFloat::rmNearestTiesToEven;
  case IntRounding::Rzi:
    return APFloat::rmTowardZero;
  case IntRounding::Rmi:
    return APFloat::rmTowardNegative;
  case IntRounding::Rpi:
    return APFloat::rmTowardPositive;
  }
  llvm_unreachable("unknown rounding");
}

float canonicalNanF32() { return f32FromBits(kCanonicalNanF32); }

float flushF32(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value)
                                                : value;
}

float flushIf(bool ftz, float value) { return ftz ? flushF32(value) : value; }

/// The result modifiers shared by the f32 instructions, in the order the
/// hardware applies them: NaN canonical, then .ftz, then .sat.
float finishF32(float result, bool ftz, bool sat) {
  if (std::isnan(result))
    result = canonicalNanF32();
  result = flushIf(ftz, result);
  return sat ? saturateF32(result) : result;
}

// f16 and bf16 bit patterns.

bool isNanF16(uint16_t bits) {
  return (bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0;
}

uint16_t flushF16(uint16_t bits) {
  return (bits & 0x7c00) == 0 ? (bits & 0x8000) : bits;
}

// Every f16 value is exactly an f32, so one table of the 2^16 conversions,
// made once by APFloat, serves every widening; kernels widen f16 operands
// at every mma and elementwise step.
const float *f16Table() {
  static const std::vector<float> table = [] {
    std::vector<float> values(1 << 16);
    for (unsigned bits = 0; bits < values.size(); ++bits)
      values[bits] =
          APFloat(APFloat::IEEEhalf(), APInt(16, bits)).convertToFloat();
    return values;
  }();
  return table.data();
}

double f16ToDouble(uint16_t bits) { return f16Table()[bits]; }

/// Rounds `value` into the 16-bit format `semantics` with `rounding`.
uint16_t roundTo16(const llvm::fltSemantics &semantics, APFloat value,
                   Rounding rounding, bool satfinite) {
  if (value.isNaN())
    return kCanonicalNanF16;
  bool losesInfo = false;
  value.convert(semantics, toApMode(rounding), &losesInfo);
  if (satfinite && value.isInfinity())
    value = APFloat::getLargest(semantics, value.isNegative());
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

// The host's _Float16 conversions round to nearest even (IEEE 754's
// default, which this code never changes), in one step from double or
// float, overflow and subnormals included: the same result as roundTo16 at
// .rn, and the common case of every f16 kernel.
uint16_t hostRoundToF16(double value) {
  if (std::isnan(value))
    return kCanonicalNanF16;
  return llvm::bit_cast<uint16_t>(static_cast<_Float16>(value));
}
uint16_t hostRoundToF16(float value) {
  if (std::isnan(value))
    return kCanonicalNanF16;
  return llvm::bit_cast<uint16_t>(static_cast<_Float16>(value));
}

uint16_t roundDoubleToF16(double value) { return hostRoundToF16(value); }

uint16_t saturateF16(uint16_t bits) {
  if (isNanF16(bits) || (bits & 0x8000))
    return 0x0000;
  return bits > 0x3c00 ? 0x3c00 : bits; // positive halves order as integers
}

uint16_t finishF16(uint16_t bits, F16Modifiers modifiers) {
  if (modifiers.ftz)
    bits = flushF16(bits);
  return modifiers.sat ? saturateF16(bits) : bits;
}

/// -0 < +0, as the ISA's min/max state.
bool orderedLess(double x, double y) {
  if (x == 0 && y == 0)
    return std::signbit(x) && !std::signbit(y);
  return x < y;
}

float binaryF32(float a, float b, F32Modifiers modifiers,
                APFloat::opStatus (APFloat::*op)(const APFloat &,
                                                 APFloat::roundingMode),
                float (*hostRn)(float, float)) {
  a = flushIf(modifiers.ftz, a);
  b = flushIf(modifiers.ftz, b);
  float result;
  if (modifiers.rounding == Rounding::Rn) {
    result = hostRn(a, b);
  } else {
    APFloat x(a);
    (x.*op)(APFloat(b), toApMode(modifiers.rounding));
    result = x.convertToFloat();
  }
  return finishF32(result, modifiers.ftz, modifiers.sat);
}

template <typename Int>
Int floatToInt(float value, IntRounding rounding, bool ftz) {
  value = flushIf(ftz, value);
  if (std::isnan(value))
    return 0;
  APFloat integral(value);
  integral.roundToIntegral(toApMode(rounding));
  // Every bound is a power of two (or zero), exact in double.
  double rounded = integral.convertToDouble();
  double lowest = static_cast<double>(std::numeric_limits<Int>::min());
  double pastMax = std::ldexp(1.0, std::numeric_limits<Int>::digits);
  if (rounded < lowest)
    return std::numeric_limits<Int>::min();
  if (rounded >= pastMax)
    return std::numeric_limits<Int>::max();
  return static_cast<Int>(rounded);
}

template <typename Int> float intToFloat(Int value, Rounding rounding) {
  constexpr bool isSigned = std::is_signed_v<Int>;
  APFloat result(APFloat::IEEEsingle());
  result.convertFromAPInt(
      APInt(sizeof(Int) * 8, static_cast<uint64_t>(value), isSigned), isSigned,
      toApMode(rounding));
  return result.convertToFloat();
}

float minMaxF32(float a, float b, bool propagateNan, bool ftz, bool isMax) {
  a = flushIf(ftz, a);
  b = flushIf(ftz, b);
  bool aNan = std::isnan(a), bNan = std::isnan(b);
  if ((aNan && bNan) || (propagateNan && (aNan || bNan)))
    return canonicalNanF32();
  if (aNan)
    return b;
  if (bNan)
    return a;
  return orderedLess(a, b) != isMax ? a : b;
}

uint16_t minMaxF16(uint16_t a, uint16_t b, bool propagateNan, bool ftz,
                   bool isMax) {
  if (ftz) {
    a = flushF16(a);
    b = flushF16(b);
  }
  bool aNan = isNanF16(a), bNan = isNanF16(b);
  if ((aNan && bNan) || (propagateNan && (aNan || bNan)))
    return kCanonicalNanF16;
  if (aNan)
    return b;
  if (bNan)
    return a;
  return orderedLess(f16ToDouble(a), f16ToDouble(b)) != isMax ? a : b;
}

/// The .approx functions: exact in double, one rounding to f32.
float approxF32(float a, bool ftz, double (*exact)(double)) {
  a = flushIf(ftz, a);
  return finishF32(static_cast<float>(exact(a)), ftz, /*sat=*/false);
}

template <typename UInt>
UInt bfeBits(UInt a, uint32_t b, uint32_t c, bool isSigned) {
  // The ISA's semantics, bit by bit.
  constexpr unsigned msb = sizeof(UInt) * 8 - 1;
  unsigned pos = b & 0xff, len = c & 0xff;
  UInt sbit = 0;
  if (isSigned && len != 0)
    sbit = (a >> std::min(pos + len - 1, msb)) & 1;
  UInt d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    UInt bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

template <typename UInt> UInt bfiBits(UInt a, UInt b, uint32_t c, uint32_t d) {
  constexpr unsigned msb = sizeof(UInt) * 8 - 1;
  unsigned pos = c & 0xff, len = d & 0xff;
  UInt f = b;
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    UInt one = 1;
    f = (f & ~(one << (pos + i))) | (((a >> i) & 1) << (pos + i));
  }
  return f;
}

} // namespace


//===----------------------------------------------------------------------===//
// cvt
//===----------------------------------------------------------------------===//

uint16_t cvtF32ToF16(float value, Rounding rounding, bool satfinite, bool ftz) {
  if (rounding == Rounding::Rn && !satfinite)
    return hostRoundToF16(flushIf(ftz, value));
  return roundTo16(APFloat::IEEEhalf(), APFloat(flushIf(ftz, value)), rounding,
                   satfinite);
}

uint16_t cvtF32ToBF16(float value, Rounding rounding, bool satfinite,
                      bool ftz) {
  value = flushIf(ftz, value);
  if (rounding == Rounding::Rn && !satfinite && !std::isnan(value)) {
    // bf16 keeps f32's exponent, so rounding to nearest even is adding just
    // under half of the dropped 16 bits, plus the kept lowest bit for ties;
    // a carry into the exponent is the correct round-up (to inf at the top).
    uint32_t bits = f32Bits(value);
    return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
  }
  return roundTo16(APFloat::BFloat(), APFloat(flushIf(ftz, value)), rounding,
                   satfinite);
}

float cvtF16ToF32(uint16_t half) {
  if (isNanF16(half))
    return canonicalNanF32();
  return f16Table()[half];
}

float cvtBF16ToF32(uint16_t bhalf) {
  // bf16 is the upper half of an f32.
  return finishF32(f32FromBits(uint32_t(bhalf) << 16), false, false);
}

uint32_t cvtF32PairToF16x2(float a, float b, Rounding rounding,
                           bool satfinite) {
  return uint32_t(cvtF32ToF16(a, rounding, satfinite)) << 16 |
         cvtF32ToF16(b, rounding, satfinite);
}

uint32_t cvtF32PairToBF16x2(float a, float b, Rounding rounding,
                            bool satfinite) {
  return uint32_t(cvtF32ToBF16(a, rounding, satfinite)) << 16 |
         cvtF32ToBF16(b, rounding, satfinite);
}

float saturateF32(float value) {
  // NaN and every value <= 0, -0 included, give +0.
  if (!(value > 0.0f))
    return 0.0f;
  return value > 1.0f ? 1.0f : value;
}

float cvtF32RoundToIntegral(float value, IntRounding rounding, bool ftz) {
  APFloat integral(flushIf(ftz, value));
  integral.roundToIntegral(toApMode(rounding));
  return finishF32(integral.convertToFloat(), ftz, false);
}

int32_t cvtF32ToS32(float value, IntRounding rounding, bool ftz) {
  return floatToInt<int32_t>(value, rounding, ftz);
}
uint32_t cvtF32ToU32(float value, IntRounding rounding, bool ftz) {
  return floatToInt<uint32_t>(value, rounding, ftz);
}
int64_t cvtF32ToS64(float value, IntRounding rounding, bool ftz) {
  return floatToInt<int64_t>(value, rounding, ftz);
}
uint64_t cvtF32ToU64(float value, IntRounding rounding, bool ftz) {
  return floatToInt<uint64_t>(value, rounding, ftz);
}

float cvtS32ToF32(int32_t value, Rounding rounding) {
  return intToFloat(value, rounding);
}
float cvtU32ToF32(uint32_t value, Rounding rounding) {
  return intToFloat(value, rounding);
}
float cvtS64ToF32(int64_t value, Rounding rounding) {
  return intToFloat(value, rounding);
}
float cvtU64ToF32(uint64_t value, Rounding rounding) {
  return intToFloat(value, rounding);
}

//===----------------------------------------------------------------------===//
// f32 arithmetic
//===----------------------------------------------------------------------===//

float addF32(float a, float b, F32Modifiers modifiers) {
  return binaryF32(a, b, modifiers, &APFloat::add,
                   [](float x, float y) { return x + y; });
}

float subF32(float a, float b, F32Modifiers modifiers) {
  return binaryF32(a, b, modifiers, &APFloat::subtract,
                   [](float x, float y) { return x - y; });
}

float mulF32(float a, float b, F32Modifiers modifiers) {
  return binaryF32(a, b, modifiers, &APFloat::multiply,
                   [](float x, float y) { return x * y; });
}

float fmaF32(float a, float b, float c, F32Modifiers modifiers) {
  a = flushIf(modifiers.ftz, a);
  b = flushIf(modifiers.ftz, b);
  c = flushIf(modifiers.ftz, c);
  float result;
  if (modifiers.rounding == Rounding::Rn) {
    result = std::fma(a, b, c);
  } else {
    APFloat x(a);
    x.fusedMultiplyAdd(APFloat(b), APFloat(c), toApMode(modifiers.rounding));
    result = x.convertToFloat();
  }
  return finishF32(result, modifiers.ftz, modifiers.sat);
}

float divF32(float a, float b, Rounding rounding, bool ftz) {
  return binaryF32(a, b, F32Modifiers{rounding, ftz, false}, &APFloat::divide,
                   [](float x, float y) { return x / y; });
}

float rcpF32(float a, Rounding rounding, bool ftz) {
  return divF32(1.0f, a, rounding, ftz);
}

float sqrtF32(float a, Rounding rounding, bool ftz) {
  a = flushIf(ftz, a);
  if (std::isnan(a) || a < 0.0f)
    return canonicalNanF32();
  if (a == 0.0f || std::isinf(a))
    return a; // sqrt(-0) = -0
  // Round to nearest: double's 53 bits are at least 2 * 24 + 2, so rounding
  // the exact root first to double and then to float gives the correctly
  // rounded float (Figueroa, "When is double rounding innocuous?", 1995).
  float nearest = static_cast<float>(std::sqrt(static_cast<double>(a)));
  if (rounding == Rounding::Rn)
    return flushIf(ftz, nearest);
  // Directed modes: the exact root lies within half an ulp of `nearest`,
  // on the side the exact sign of nearest^2 - a tells (nearest^2 has 48
  // significant bits, exact in double). The root is positive, so .rz is .rm.
  double square = static_cast<double>(nearest) * nearest;
  double exact = a;
  float result = nearest;
  if (rounding == Rounding::Rp) {
    if (square < exact)
      result = std::nextafter(nearest, std::numeric_limits<float>::infinity());
  } else if (square > exact) {
    result = std::nextafter(nearest, 0.0f);
  }
  return flushIf(ftz, result);
}

float minF32(float a, float b, bool propagateNan, bool ftz) {
  return minMaxF32(a, b, propagateNan, ftz, /*isMax=*/false);
}

float maxF32(float a, float b, bool propagateNan, bool ftz) {
  return minMaxF32(a, b, propagateNan, ftz, /*isMax=*/true);
}

//===----------------------------------------------------------------------===//
// Half precision
//===----------------------------------------------------------------------===//

// add, sub and mul compute in double and round once to f16. They are
// exact in double, so that one rounding is the only one and the result is
// correctly rounded (a stronger fact than double's 53 >= 2 * 11 + 2 bits,
// which already makes double rounding innocuous):
//  - every f16 value is an integer multiple of 2^-24 of magnitude below
//    2^16, so a sum or difference is a multiple of 2^-24 below 2^17: an
//    integer below 2^41 times 2^-24, exact in 53 bits;
//  - a product of two 11-bit significands has at most 22 bits, and its
//    exponent (2^-48 to 2^32) is far inside double's range.
// fma's exact value can span more than 53 bits (a*b near 2^32 plus c near
// 2^-24), so it uses APFloat's fused operation in f16 itself.

uint16_t addF16(uint16_t a, uint16_t b, F16Modifiers modifiers) {
  if (modifiers.ftz) {
    a = flushF16(a);
    b = flushF16(b);
  }
  return finishF16(roundDoubleToF16(f16ToDouble(a) + f16ToDouble(b)),
                   modifiers);
}

uint16_t subF16(uint16_t a, uint16_t b, F16Modifiers modifiers) {
  return addF16(a, b ^ 0x8000, modifiers);
}

uint16_t mulF16(uint16_t a, uint16_t b, F16Modifiers modifiers) {
  if (modifiers.ftz) {
    a = flushF16(a);
    b = flushF16(b);
  }
  return finishF16(roundDoubleToF16(f16ToDouble(a) * f16ToDouble(b)),
                   modifiers);
}

uint16_t fmaF16(uint16_t a, uint16_t b, uint16_t c, F16Modifiers modifiers) {
  if (modifiers.ftz) {
    a = flushF16(a);
    b = flushF16(b);
    c = flushF16(c);
  }
  APFloat x(APFloat::IEEEhalf(), APInt(16, a));
  x.fusedMultiplyAdd(APFloat(APFloat::IEEEhalf(), APInt(16, b)),
                     APFloat(APFloat::IEEEhalf(), APInt(16, c)),
                     APFloat::rmNearestTiesToEven);
  uint16_t bits =
      x.isNaN() ? kCanonicalNanF16
                : static_cast<uint16_t>(x.bitcastToAPInt().getZExtValue());
  return finishF16(bits, modifiers);
}

uint16_t minF16(uint16_t a, uint16_t b, bool propagateNan, bool ftz) {
  return minMaxF16(a, b, propagateNan, ftz, /*isMax=*/false);
}

uint16_t maxF16(uint16_t a, uint16_t b, bool propagateNan, bool ftz) {
  return minMaxF16(a, b, propagateNan, ftz, /*isMax=*/true);
}

//===----------------------------------------------------------------------===//
// .approx
//===----------------------------------------------------------------------===//

float ex2ApproxF32(float a, bool ftz) {
  return approxF32(a, ftz, [](double x) { return std::exp2(x); });
}

float lg2ApproxF32(float a, bool ftz) {
  return approxF32(a, ftz, [](double x) { return std::log2(x); });
}

float rsqrtApproxF32(float a, bool ftz) {
  // Two double roundings: about one double ulp in all.
  return approxF32(a, ftz, [](double x) { return 1.0 / std::sqrt(x); });
}

float sqrtApproxF32(float a, bool ftz) {
  // Correctly rounded, as sqrtF32's .rn.
  return approxF32(a, ftz, [](double x) { return std::sqrt(x); });
}

float rcpApproxF32(float a, bool ftz) {
  // Correctly rounded: 53 >= 2 * 24 + 2 holds for division too.
  return approxF32(a, ftz, [](double x) { return 1.0 / x; });
}

float divApproxF32(float a, float b, bool ftz) {
  a = flushIf(ftz, a);
  b = flushIf(ftz, b);
  if (!std::isnan(a) && std::isfinite(b) && std::fabs(b) > 0x1p126f) {
    // The ISA defines this range, where 1/b is below the normal range.
    if (std::isinf(a))
      return canonicalNanF32();
    return std::signbit(a) != std::signbit(b) ? -0.0f : 0.0f;
  }
  double quotient = static_cast<double>(a) / static_cast<double>(b);
  return finishF32(static_cast<float>(quotient), ftz, false);
}

float sinApproxF32(float a, bool ftz) {
  return approxF32(a, ftz, [](double x) { return std::sin(x); });
}

float cosApproxF32(float a, bool ftz) {
  return approxF32(a, ftz, [](double x) { return std::cos(x); });
}

float tanhApproxF32(float a) {
  return approxF32(a, /*ftz=*/false, [](double x) { return std::tanh(x); });
}

ErrorBound approxErrorBound(ApproxFunction function, float a) {
  constexpr double twoPi = 2 * llvm::numbers::pi;
  switch (function) {
  case ApproxFunction::Ex2:
    return {ErrorKind::Ulp, 2};
  case ApproxFunction::Lg2:
    if (a > 0.5f && a < 2.0f)
      return {ErrorKind::Absolute, std::exp2(-22.0)};
    return {ErrorKind::Relative, std::exp2(-22.0)};
  case ApproxFunction::Rsqrt:
    return {ErrorKind::Relative, std::exp2(-22.9)};
  case ApproxFunction::Sqrt:
    return {ErrorKind::Relative, std::exp2(-23.0)};
  case ApproxFunction::Rcp:
    return {ErrorKind::Ulp, 1};
  case ApproxFunction::Div: {
    float magnitude = std::fabs(a);
    if (magnitude >= 0x1p-126f && magnitude <= 0x1p126f)
      return {ErrorKind::Ulp, 2};
    if (std::isfinite(magnitude) && magnitude > 0x1p126f)
      return {ErrorKind::Ulp, 0}; // the ISA defines the result exactly
    return {ErrorKind::Unbounded, 0};
  }
  case ApproxFunction::Sin:
  case ApproxFunction::Cos: {
    double magnitude = std::fabs(static_cast<double>(a));
    if (magnitude <= twoPi)
      return {ErrorKind::Absolute, std::exp2(-20.5)};
    if (magnitude <= 50 * twoPi)
      return {ErrorKind::Absolute, std::exp2(-14.7)};
    return {ErrorKind::Unbounded, 0};
  }
  case ApproxFunction::Tanh:
    return {ErrorKind::Relative, std::exp2(-11.0)};
  }
  llvm_unreachable("unknown approx function");
}

//===----------------------------------------------------------------------===//
// Integer and bit instructions
//===----------------------------------------------------------------------===//

uint32_t bfeU32(uint32_t a, uint32_t pos, uint32_t len) {
  return bfeBits<uint32_t>(a, pos, len, false);
}
int32_t bfeS32(int32_t a, uint32_t pos, uint32_t len) {
  return static_cast<int32_t>(
      bfeBits<uint32_t>(static_cast<uint32_t>(a), pos, len, true));
}
uint64_t bfeU64(uint64_t a, uint32_t pos, uint32_t len) {
  return bfeBits<uint64_t>(a, pos, len, false);
}
int64_t bfeS64(int64_t a, uint32_t pos, uint32_t len) {
  return static_cast<int64_t>(
      bfeBits<uint64_t>(static_cast<uint64_t>(a), pos, len, true));
}

uint32_t bfiB32(uint32_t a, uint32_t b, uint32_t pos, uint32_t len) {
  return bfiBits<uint32_t>(a, b, pos, len);
}
uint64_t bfiB64(uint64_t a, uint64_t b, uint32_t pos, uint32_t len) {
  return bfiBits<uint64_t>(a, b, pos, len);
}

uint32_t prmtB32(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t source = uint64_t(b) << 32 | a;
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned selector = (c >> (4 * i)) & 0xf;
    uint32_t byte = (source >> (8 * (selector & 7))) & 0xff;
    if (selector & 8)
      byte = (byte & 0x80) ? 0xff : 0x00;
    d |= byte << (8 * i);
  }
  return d;
}

uint32_t popcB32(uint32_t a) { return llvm::popcount(a); }
uint32_t popcB64(uint64_t a) { return llvm::popcount(a); }
uint32_t clzB32(uint32_t a) { return llvm::countl_zero(a); }
uint32_t clzB64(uint64_t a) { return llvm::countl_zero(a); }
uint32_t brevB32(uint32_t a) { return llvm::reverseBits(a); }
uint64_t brevB64(uint64_t a) { return llvm::reverseBits(a); }

// The products are formed in twice the width (APInt for 64 bits); sums wrap
// modulo 2^width, computed unsigned to stay defined.
uint16_t mulHiU16(uint16_t a, uint16_t b) {
  return static_cast<uint16_t>((uint32_t(a) * b) >> 16);
}
int16_t mulHiS16(int16_t a, int16_t b) {
  return static_cast<int16_t>((int32_t(a) * b) >> 16);
}
uint32_t mulWideU16(uint16_t a, uint16_t b) { return uint32_t(a) * b; }
int32_t mulWideS16(int16_t a, int16_t b) { return int32_t(a) * b; }
uint32_t mulHiU32(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>((uint64_t(a) * b) >> 32);
}
int32_t mulHiS32(int32_t a, int32_t b) {
  return static_cast<int32_t>((int64_t(a) * b) >> 32);
}
uint64_t mulHiU64(uint64_t a, uint64_t b) {
  return llvm::APIntOps::mulhu(APInt(64, a), APInt(64, b)).getZExtValue();
}
int64_t mulHiS64(int64_t a, int64_t b) {
  return llvm::APIntOps::mulhs(APInt(64, a, /*isSigned=*/true),
                               APInt(64, b, /*isSigned=*/true))
      .getSExtValue();
}
uint64_t mulWideU32(uint32_t a, uint32_t b) { return uint64_t(a) * b; }
int64_t mulWideS32(int32_t a, int32_t b) { return int64_t(a) * b; }

uint32_t madLoU32(uint32_t a, uint32_t b, uint32_t c) { return a * b + c; }
int32_t madLoS32(int32_t a, int32_t b, int32_t c) {
  return static_cast<int32_t>(madLoU32(a, b, c));
}
uint64_t madLoU64(uint64_t a, uint64_t b, uint64_t c) { return a * b + c; }
int64_t madLoS64(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(madLoU64(a, b, c));
}
uint32_t madHiU32(uint32_t a, uint32_t b, uint32_t c) {
  return mulHiU32(a, b) + c;
}
int32_t madHiS32(int32_t a, int32_t b, int32_t c) {
  return static_cast<int32_t>(static_cast<uint32_t>(mulHiS32(a, b)) +
                              static_cast<uint32_t>(c));
}
uint64_t madHiU64(uint64_t a, uint64_t b, uint64_t c) {
  return mulHiU64(a, b) + c;
}
int64_t madHiS64(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(static_cast<uint64_t>(mulHiS64(a, b)) +
                              static_cast<uint64_t>(c));
}

uint32_t shlB32(uint32_t a, uint32_t amount) {
  return amount >= 32 ? 0 : a << amount;
}
uint64_t shlB64(uint64_t a, uint32_t amount) {
  return amount >= 64 ? 0 : a << amount;
}
uint32_t shrU32(uint32_t a, uint32_t amount) {
  return amount >= 32 ? 0 : a >> amount;
}
int32_t shrS32(int32_t a, uint32_t amount) {
  return a >> (amount >= 32 ? 31 : amount);
}
uint64_t shrU64(uint64_t a, uint32_t amount) {
  return amount >= 64 ? 0 : a >> amount;
}
int64_t shrS64(int64_t a, uint32_t amount) {
  return a >> (amount >= 64 ? 63 : amount);
}

} // namespace mirage::emulator
