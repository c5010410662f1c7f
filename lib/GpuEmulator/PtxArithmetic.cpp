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
//  - f16 add/sub/mul are exact in double before their one rounding, and
//    bf16 mul is; bf16 add/sub round to double harmlessly: see "Half
//    precision" and "bf16" below. f16 and bf16 fma round an exact double
//    sum, or use APFloat's fused operation when the sum is not exact: see
//    fused16. sqrt has no APFloat operation: see sqrtF32.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/PtxArithmetic.h"

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

uint16_t flushF16(uint16_t bits) { return flushF16Bits(bits); }

bool isNanBF16(uint16_t bits) {
  return (bits & 0x7f80) == 0x7f80 && (bits & 0x007f) != 0;
}

// bf16 is the upper half of an f32: widening is exact.
double bf16ToDouble(uint16_t bits) { return f32FromBits(uint32_t(bits) << 16); }

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

/// .relu: a negative result (-0 included) becomes +0. NaN results reach
/// here as the canonical NaN, which is positive and stays.
uint16_t relu16(uint16_t bits) { return (bits & 0x8000) ? 0x0000 : bits; }

uint16_t finishF16(uint16_t bits, F16Modifiers modifiers) {
  if (modifiers.ftz)
    bits = flushF16(bits);
  if (modifiers.relu)
    bits = relu16(bits);
  return modifiers.sat ? saturateF16(bits) : bits;
}

/// Rounds `value` to the nearest bf16, ties to even, in one step, overflow
/// to infinity and bf16's subnormals (multiples of 2^-133 below 2^-126)
/// included. NaN gives the canonical NaN.
uint16_t roundDoubleToBF16(double value) {
  if (std::isnan(value))
    return kCanonicalNanF16;
  uint64_t bits = llvm::bit_cast<uint64_t>(value);
  uint16_t sign = uint16_t(bits >> 48) & 0x8000;
  bits &= ~(uint64_t(1) << 63);
  if ((bits >> 52) >= 1023 - 126) {
    // |value| >= 2^-126, bf16's normal range: keep 7 of double's 52
    // fraction bits, rounding the 45 dropped ones to nearest even (add just
    // under half, plus the kept lowest bit). A carry runs into the exponent
    // as it should.
    uint64_t rounded =
        (bits + ((uint64_t(1) << 44) - 1) + ((bits >> 45) & 1)) >> 45;
    int64_t exponent = int64_t(rounded >> 7) - 1023 + 127; // bf16's bias
    if (exponent >= 0xff)
      return sign | 0x7f80; // past the largest finite value (or inf)
    return sign | uint16_t(exponent << 7) | uint16_t(rounded & 0x7f);
  }
  // Below 2^-126: a whole number of 2^-133 (exact scaling by a power of
  // two), rounded to nearest even in the host's default mode. 128 units is
  // 2^-126, whose encoding 0x0080 is that same number.
  double units = std::nearbyint(llvm::bit_cast<double>(bits) * 0x1p133);
  return sign | uint16_t(units);
}

/// a * b + c in f16 (BF16 false) or bf16, rounded once to nearest even; a
/// NaN result is the canonical NaN. The product is exact in double (at most
/// 22 significant bits, far inside double's range). When the sum is exact
/// in double too -- Knuth's TwoSum gives its rounding error exactly, and it
/// is 0 -- rounding that double is the single rounding: the common case,
/// where the addends' exponents are close. Otherwise the exact value needs
/// more than 53 bits, and rounding it to double first could turn it into a
/// tie it is not; then APFloat's fused operation rounds it in the format
/// itself. Infinite and NaN operands make the error NaN and take that path
/// as well.
template <bool BF16> uint16_t fused16(uint16_t a, uint16_t b, uint16_t c) {
  double x = BF16 ? bf16ToDouble(a) : f16ToDouble(a);
  double y = BF16 ? bf16ToDouble(b) : f16ToDouble(b);
  double z = BF16 ? bf16ToDouble(c) : f16ToDouble(c);
  double product = x * y, sum = product + z;
  double zPart = sum - product, productPart = sum - zPart;
  double error = (product - productPart) + (z - zPart);
  if (error == 0)
    return BF16 ? roundDoubleToBF16(sum) : hostRoundToF16(sum);
  const llvm::fltSemantics &semantics =
      BF16 ? APFloat::BFloat() : APFloat::IEEEhalf();
  APFloat fused(semantics, APInt(16, a));
  fused.fusedMultiplyAdd(APFloat(semantics, APInt(16, b)),
                         APFloat(semantics, APInt(16, c)),
                         APFloat::rmNearestTiesToEven);
  return fused.isNaN()
             ? kCanonicalNanF16
             : static_cast<uint16_t>(fused.bitcastToAPInt().getZExtValue());
}

/// Applies `op` to each 16-bit half of the packed operands (element 0 in
/// bits 15:0).
template <typename Op>
uint32_t perHalf(uint32_t a, uint32_t b, uint32_t c, Op op) {
  uint16_t low = op(uint16_t(a), uint16_t(b), uint16_t(c));
  uint16_t high = op(uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16));
  return uint32_t(high) << 16 | low;
}

/// -0 < +0, as the ISA's min/max state.
bool orderedLess(double x, double y) {
  if (x == 0 && y == 0)
    return std::signbit(x) && !std::signbit(y);
  return x < y;
}

/// `op` of a and b in `rounding`: the host's IEEE operation for .rn,
/// APFloat's in the directed modes (f32 and f64 alike).
template <typename T>
T roundedBinary(T a, T b, Rounding rounding,
                APFloat::opStatus (APFloat::*op)(const APFloat &,
                                                 APFloat::roundingMode),
                T (*hostRn)(T, T)) {
  if (rounding == Rounding::Rn)
    return hostRn(a, b);
  APFloat x(a);
  (x.*op)(APFloat(b), toApMode(rounding));
  if constexpr (std::is_same_v<T, float>)
    return x.convertToFloat();
  else
    return x.convertToDouble();
}

float binaryF32(float a, float b, F32Modifiers modifiers,
                APFloat::opStatus (APFloat::*op)(const APFloat &,
                                                 APFloat::roundingMode),
                float (*hostRn)(float, float)) {
  a = flushIf(modifiers.ftz, a);
  b = flushIf(modifiers.ftz, b);
  return finishF32(roundedBinary(a, b, modifiers.rounding, op, hostRn),
                   modifiers.ftz, modifiers.sat);
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

/// min/max on f16 (BF16 false) or bf16 bit patterns.
template <bool BF16>
uint16_t minMax16(uint16_t a, uint16_t b, bool propagateNan, bool ftz,
                  bool isMax) {
  if (ftz) {
    a = flushF16(a);
    b = flushF16(b);
  }
  bool aNan = BF16 ? isNanBF16(a) : isNanF16(a);
  bool bNan = BF16 ? isNanBF16(b) : isNanF16(b);
  if ((aNan && bNan) || (propagateNan && (aNan || bNan)))
    return kCanonicalNanF16;
  if (aNan)
    return b;
  if (bNan)
    return a;
  double x = BF16 ? bf16ToDouble(a) : f16ToDouble(a);
  double y = BF16 ? bf16ToDouble(b) : f16ToDouble(b);
  return orderedLess(x, y) != isMax ? a : b;
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
// f64
//===----------------------------------------------------------------------===//

double f64FromBits(uint64_t bits) {
  return llvm::bit_cast<double>(bits);
}
uint64_t f64Bits(double value) {
  return llvm::bit_cast<uint64_t>(value);
}

namespace {
double canonicalF64(double result) {
  return std::isnan(result) ? f64FromBits(kCanonicalNanF64) : result;
}

double binaryF64(double a, double b, Rounding rounding,
                 APFloat::opStatus (APFloat::*op)(const APFloat &,
                                                  APFloat::roundingMode),
                 double (*hostRn)(double, double)) {
  return canonicalF64(roundedBinary(a, b, rounding, op, hostRn));
}
} // namespace

double addF64(double a, double b, Rounding rounding) {
  return binaryF64(a, b, rounding, &APFloat::add,
                   [](double x, double y) { return x + y; });
}
double subF64(double a, double b, Rounding rounding) {
  return binaryF64(a, b, rounding, &APFloat::subtract,
                   [](double x, double y) { return x - y; });
}
double mulF64(double a, double b, Rounding rounding) {
  return binaryF64(a, b, rounding, &APFloat::multiply,
                   [](double x, double y) { return x * y; });
}
double divF64(double a, double b, Rounding rounding) {
  return binaryF64(a, b, rounding, &APFloat::divide,
                   [](double x, double y) { return x / y; });
}
double rcpF64(double a, Rounding rounding) {
  return divF64(1.0, a, rounding);
}
double fmaF64(double a, double b, double c,
                                Rounding rounding) {
  if (rounding == Rounding::Rn)
    return canonicalF64(std::fma(a, b, c));
  APFloat x(a);
  x.fusedMultiplyAdd(APFloat(b), APFloat(c), toApMode(rounding));
  return canonicalF64(x.convertToDouble());
}
double sqrtF64(double a, Rounding rounding) {
  if (std::isnan(a) || a < 0)
    return f64FromBits(kCanonicalNanF64);
  double nearest = std::sqrt(a); // correctly rounded (IEEE 754)
  if (rounding == Rounding::Rn || a == 0 || std::isinf(a))
    return nearest;
  // The exact root is above `nearest` when nearest^2 < a: the sign of the
  // exactly computed residual a - nearest^2 (one fma) tells. The root is
  // positive, so .rz is .rm.
  double residual = std::fma(-nearest, nearest, a);
  if (rounding == Rounding::Rp)
    return residual > 0 ? std::nextafter(nearest, INFINITY) : nearest;
  return residual < 0 ? std::nextafter(nearest, 0.0) : nearest;
}
double minF64(double a, double b) {
  if (std::isnan(a) && std::isnan(b))
    return f64FromBits(kCanonicalNanF64);
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return orderedLess(a, b) ? a : b;
}
double maxF64(double a, double b) {
  if (std::isnan(a) && std::isnan(b))
    return f64FromBits(kCanonicalNanF64);
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return orderedLess(a, b) ? b : a;
}

float cvtF64ToF32(double value, Rounding rounding, bool ftz,
                                    bool sat) {
  float result;
  if (std::isnan(value)) {
    result = canonicalNanF32();
  } else {
    APFloat x(value);
    bool lost;
    x.convert(APFloat::IEEEsingle(), toApMode(rounding), &lost);
    result = x.convertToFloat();
  }
  return finishF32(result, ftz, sat);
}
double cvtF32ToF64(float value, bool ftz) {
  value = flushIf(ftz, value);
  return std::isnan(value) ? f64FromBits(kCanonicalNanF64) : double(value);
}
int64_t cvtF64ToInt(double value, IntRounding rounding,
                                      unsigned bits, bool isSigned) {
  if (std::isnan(value))
    return 0;
  APFloat integral(value);
  integral.roundToIntegral(toApMode(rounding));
  double rounded = integral.convertToDouble();
  // The bounds are powers of two, exact in double; saturate to them.
  double lowest = isSigned ? -std::ldexp(1.0, bits - 1) : 0.0;
  double pastMax = std::ldexp(1.0, isSigned ? bits - 1 : bits);
  if (rounded < lowest)
    return isSigned ? int64_t(-(uint64_t(1) << (bits - 1))) : 0;
  if (rounded >= pastMax)
    return isSigned ? int64_t((uint64_t(1) << (bits - 1)) - 1)
                    : int64_t(bits == 64 ? ~uint64_t(0)
                                         : (uint64_t(1) << bits) - 1);
  return isSigned ? int64_t(rounded) : int64_t(uint64_t(rounded));
}
double cvtIntToF64(uint64_t value, unsigned bits,
                                     bool isSigned, Rounding rounding) {
  APFloat result(APFloat::IEEEdouble());
  result.convertFromAPInt(APInt(bits, value, isSigned), isSigned,
                          toApMode(rounding));
  return result.convertToDouble();
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
// 2^-24): see fused16.

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
  return finishF16(fused16<false>(a, b, c), modifiers);
}

uint16_t minF16(uint16_t a, uint16_t b, bool propagateNan, bool ftz) {
  return minMax16<false>(a, b, propagateNan, ftz, /*isMax=*/false);
}

uint16_t maxF16(uint16_t a, uint16_t b, bool propagateNan, bool ftz) {
  return minMax16<false>(a, b, propagateNan, ftz, /*isMax=*/true);
}

//===----------------------------------------------------------------------===//
// bf16
//===----------------------------------------------------------------------===//

// mul computes in double and rounds once: a product of two 8-bit
// significands has at most 16 bits, and its magnitude (2^-266 to 2^256) is
// inside double's normal range, so it is exact in double.
//
// add and sub compute in double too, but the exact sum s = a + b need not
// be a double (2^127 + 2^-133 needs 261 bits). Rounding it to double first
// still gives the correctly rounded bf16 result:
//  - Let |a| >= |b|, with ulps 2^ea >= 2^eb (bf16 values are multiples of
//    their ulp, 2^-133 at the least, with significands below 2^8). If
//    ea - eb <= 44, s is a multiple of 2^eb below 2^(eb + 53): a double,
//    and the final rounding is the only one.
//  - Otherwise |b| < 2^(eb + 8) <= 2^(ea - 37). Rounding to double can
//    only change the bf16 result if it moves s onto or across a midpoint m
//    between two neighbouring bf16 values (or the overflow threshold
//    2^128 - 2^119, which acts as one); midpoints are doubles, and
//    rounding to nearest is monotonic, so it must land exactly on m, which
//    needs |s - m| <= half a double ulp of m <= 2^(ea - 45). But a is
//    a bf16 value and m is not, and the midpoints next to a lie 2^(ea-1)
//    away from it (2^(ea-2) below a power of two), so
//    |s - m| >= 2^(ea-2) - |b| > 2^(ea-3): far more.
// Sums that land below 2^-126 are exact (multiples of 2^-133 below 2^-126
// are bf16 subnormals), and overflow is decided on the same rounded value.

uint16_t addBF16(uint16_t a, uint16_t b) {
  return roundDoubleToBF16(bf16ToDouble(a) + bf16ToDouble(b));
}

uint16_t subBF16(uint16_t a, uint16_t b) { return addBF16(a, b ^ 0x8000); }

uint16_t mulBF16(uint16_t a, uint16_t b) {
  return roundDoubleToBF16(bf16ToDouble(a) * bf16ToDouble(b));
}

// fma cannot take the double route alone: a * b has 16 bits, so a * b + c
// can be a 16-bit midpoint between two bf16 values plus a c far below its
// last bit, which rounding to double would drop, leaving a tie. fused16
// detects the inexact sum.
uint16_t fmaBF16(uint16_t a, uint16_t b, uint16_t c, bool relu) {
  uint16_t bits = fused16<true>(a, b, c);
  return relu ? relu16(bits) : bits;
}

uint16_t minBF16(uint16_t a, uint16_t b, bool propagateNan) {
  return minMax16<true>(a, b, propagateNan, /*ftz=*/false, /*isMax=*/false);
}

uint16_t maxBF16(uint16_t a, uint16_t b, bool propagateNan) {
  return minMax16<true>(a, b, propagateNan, /*ftz=*/false, /*isMax=*/true);
}

//===----------------------------------------------------------------------===//
// Packed .f16x2 and .bf16x2
//===----------------------------------------------------------------------===//

uint32_t addF16x2(uint32_t a, uint32_t b, F16Modifiers modifiers) {
  return perHalf(a, b, 0, [&](uint16_t x, uint16_t y, uint16_t) {
    return addF16(x, y, modifiers);
  });
}
uint32_t subF16x2(uint32_t a, uint32_t b, F16Modifiers modifiers) {
  return perHalf(a, b, 0, [&](uint16_t x, uint16_t y, uint16_t) {
    return subF16(x, y, modifiers);
  });
}
uint32_t mulF16x2(uint32_t a, uint32_t b, F16Modifiers modifiers) {
  return perHalf(a, b, 0, [&](uint16_t x, uint16_t y, uint16_t) {
    return mulF16(x, y, modifiers);
  });
}
uint32_t fmaF16x2(uint32_t a, uint32_t b, uint32_t c, F16Modifiers modifiers) {
  return perHalf(a, b, c, [&](uint16_t x, uint16_t y, uint16_t z) {
    return fmaF16(x, y, z, modifiers);
  });
}
uint32_t minF16x2(uint32_t a, uint32_t b, bool propagateNan, bool ftz) {
  return perHalf(a, b, 0, [&](uint16_t x, uint16_t y, uint16_t) {
    return minF16(x, y, propagateNan, ftz);
  });
}
uint32_t maxF16x2(uint32_t a, uint32_t b, bool propagateNan, bool ftz) {
  return perHalf(a, b, 0, [&](uint16_t x, uint16_t y, uint16_t) {
    return maxF16(x, y, propagateNan, ftz);
  });
}
uint32_t negF16x2(uint32_t a, bool ftz) {
  return perHalf(
      a, 0, 0, [&](uint16_t x, uint16_t, uint16_t) { return negF16(x, ftz); });
}
uint32_t absF16x2(uint32_t a, bool ftz) {
  return perHalf(
      a, 0, 0, [&](uint16_t x, uint16_t, uint16_t) { return absF16(x, ftz); });
}

uint32_t addBF16x2(uint32_t a, uint32_t b) {
  return perHalf(
      a, b, 0, [](uint16_t x, uint16_t y, uint16_t) { return addBF16(x, y); });
}
uint32_t subBF16x2(uint32_t a, uint32_t b) {
  return perHalf(
      a, b, 0, [](uint16_t x, uint16_t y, uint16_t) { return subBF16(x, y); });
}
uint32_t mulBF16x2(uint32_t a, uint32_t b) {
  return perHalf(
      a, b, 0, [](uint16_t x, uint16_t y, uint16_t) { return mulBF16(x, y); });
}
uint32_t fmaBF16x2(uint32_t a, uint32_t b, uint32_t c, bool relu) {
  return perHalf(a, b, c, [&](uint16_t x, uint16_t y, uint16_t z) {
    return fmaBF16(x, y, z, relu);
  });
}
uint32_t minBF16x2(uint32_t a, uint32_t b, bool propagateNan) {
  return perHalf(a, b, 0, [&](uint16_t x, uint16_t y, uint16_t) {
    return minBF16(x, y, propagateNan);
  });
}
uint32_t maxBF16x2(uint32_t a, uint32_t b, bool propagateNan) {
  return perHalf(a, b, 0, [&](uint16_t x, uint16_t y, uint16_t) {
    return maxBF16(x, y, propagateNan);
  });
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

uint32_t lop3B32(uint32_t a, uint32_t b, uint32_t c, uint8_t immLut) {
  // The sum of the minterms the table selects: minterm k has a's bit
  // (k >> 2) & 1, b's (k >> 1) & 1 and c's k & 1.
  uint32_t r = 0;
  for (unsigned k = 0; k < 8; ++k)
    if (immLut >> k & 1)
      r |= (k & 4 ? a : ~a) & (k & 2 ? b : ~b) & (k & 1 ? c : ~c);
  return r;
}

uint32_t bfiB32(uint32_t a, uint32_t b, uint32_t pos, uint32_t len) {
  return bfiBits<uint32_t>(a, b, pos, len);
}
uint64_t bfiB64(uint64_t a, uint64_t b, uint32_t pos, uint32_t len) {
  return bfiBits<uint64_t>(a, b, pos, len);
}

uint32_t prmtB32(uint32_t a, uint32_t b, uint32_t c, PrmtMode mode) {
  uint64_t source = uint64_t(b) << 32 | a;
  auto byteAt = [&](unsigned index) {
    return uint32_t(source >> (8 * index)) & 0xff;
  };
  uint32_t d = 0;
  if (mode == PrmtMode::Default) {
    for (unsigned i = 0; i < 4; ++i) {
      unsigned selector = (c >> (4 * i)) & 0xf;
      uint32_t byte = byteAt(selector & 7);
      if (selector & 8)
        byte = (byte & 0x80) ? 0xff : 0x00;
      d |= byte << (8 * i);
    }
    return d;
  }
  // The ISA's table, row by row as printed: for each selector c[1:0], the
  // source bytes of d.b3, d.b2, d.b1, d.b0.
  static constexpr uint8_t table[6][4][4] = {
      {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}}, // f4e
      {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}}, // ecr
      {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}}, // rc16
  };
  const uint8_t *row = table[unsigned(mode) - 1][c & 3];
  for (unsigned i = 0; i < 4; ++i)
    d |= byteAt(row[3 - i]) << (8 * i);
  return d;
}

uint32_t popcB32(uint32_t a) { return llvm::popcount(a); }
uint32_t popcB64(uint64_t a) { return llvm::popcount(a); }
uint32_t clzB32(uint32_t a) { return llvm::countl_zero(a); }
uint32_t clzB64(uint64_t a) { return llvm::countl_zero(a); }
uint32_t brevB32(uint32_t a) { return llvm::reverseBits(a); }
uint64_t brevB64(uint64_t a) { return llvm::reverseBits(a); }

namespace {
template <typename UInt>
uint32_t bfindBits(UInt a, bool isSigned, bool shiftAmount) {
  constexpr unsigned msb = sizeof(UInt) * 8 - 1;
  if (isSigned && ((a >> msb) & 1))
    a = ~a; // a negative value's highest 0 is the highest 1 of ~a
  if (a == 0)
    return 0xffffffffu;
  uint32_t position = msb - llvm::countl_zero(a);
  return shiftAmount ? msb - position : position;
}
} // namespace

uint32_t bfindU32(uint32_t a, bool shiftAmount) {
  return bfindBits<uint32_t>(a, false, shiftAmount);
}
uint32_t bfindS32(int32_t a, bool shiftAmount) {
  return bfindBits<uint32_t>(uint32_t(a), true, shiftAmount);
}
uint32_t bfindU64(uint64_t a, bool shiftAmount) {
  return bfindBits<uint64_t>(a, false, shiftAmount);
}
uint32_t bfindS64(int64_t a, bool shiftAmount) {
  return bfindBits<uint64_t>(uint64_t(a), true, shiftAmount);
}

// n is at most 32, so shifting the 64-bit {b, a} is defined.
uint32_t shfLB32(uint32_t a, uint32_t b, uint32_t c, bool clamp) {
  uint32_t n = clamp ? std::min(c, 32u) : c & 31;
  return uint32_t(((uint64_t(b) << 32 | a) << n) >> 32);
}
uint32_t shfRB32(uint32_t a, uint32_t b, uint32_t c, bool clamp) {
  uint32_t n = clamp ? std::min(c, 32u) : c & 31;
  return uint32_t((uint64_t(b) << 32 | a) >> n);
}

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
