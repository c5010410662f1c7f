//===- PtxArithmetic.h - numeric semantics of PTX instructions --*- C++ -*-===//
//
// The values PTX instructions compute, on host integers and bit patterns, for
// the GPU emulator: conversions (cvt), f32, f16 and bf16 arithmetic (scalar
// and packed .f16x2/.bf16x2) with their rounding, flush-to-zero, saturation
// and relu modifiers, min/max, copysign, the .approx functions and the
// integer bit instructions. Section numbers are those of
// the current online "Parallel Thread Execution ISA" (8.8 and later); earlier
// editions number the shift, prmt and cvt sections one lower (9.7.7.x,
// 9.7.8.x).
//
// Everything the ISA defines exactly is computed bit-exactly. The .approx
// functions are computed (nearly) correctly rounded instead of with the
// hardware's unpublished algorithm; approxErrorBound() gives the error the ISA
// allows the hardware, for a comparison against a real GPU.
//
// Floating-point values travel as bit patterns: f16 and bf16 as uint16_t,
// packed pairs as uint32_t. A NaN result is the canonical NaN (0x7fffffff for
// f32, 0x7fff for f16 and bf16): the ISA specifies it for min/max .NaN and
// leaves the payload of other NaN results unspecified.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_PTXARITHMETIC_H
#define MIRAGE_GPUEMULATOR_PTXARITHMETIC_H

#include <cstdint>
#include <cstring>

namespace mirage::emulator {

inline constexpr uint32_t kCanonicalNanF32 = 0x7fffffff;
/// Also bf16's: both formats put the sign in bit 15.
inline constexpr uint16_t kCanonicalNanF16 = 0x7fff;

/// The floating-point rounding modifiers .rn (nearest, ties to even), .rz,
/// .rm (towards -inf), .rp (towards +inf).
enum class Rounding { Rn, Rz, Rm, Rp };

/// The integer rounding modifiers of cvt: .rni, .rzi, .rmi, .rpi.
enum class IntRounding { Rni, Rzi, Rmi, Rpi };

/// The modifiers of the f32 arithmetic instructions add/sub/mul/fma
/// (§9.7.3.3-9.7.3.6): rounding, .ftz (subnormal inputs and results become
/// sign-preserving zeros) and .sat (result clamped to [0, 1], NaN to +0).
struct F32Modifiers {
  Rounding rounding = Rounding::Rn;
  bool ftz = false;
  bool sat = false;
};

/// The modifiers of the f16 instructions (§9.7.4): always .rn. .relu
/// (fma only, exclusive with .sat, §9.7.4.4) "clamps the result to 0 if
/// negative" and makes a NaN result the canonical NaN; -0 counts as
/// negative here (the result is max(x, +0) with the ISA's +0 > -0), a case
/// the ISA's text leaves open.
struct F16Modifiers {
  bool ftz = false;
  bool sat = false;
  bool relu = false;
};

//===----------------------------------------------------------------------===//
// Bit patterns
//===----------------------------------------------------------------------===//

// Inline: every emulated float instruction goes through them.
inline uint32_t f32Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
inline float f32FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

//===----------------------------------------------------------------------===//
// cvt (§9.7.9.21)
//===----------------------------------------------------------------------===//

/// cvt{.rnd}{.ftz}{.satfinite}.f16.f32. .satfinite turns a result of
/// infinite magnitude into the largest finite value of its sign (65504) and
/// keeps NaN a NaN. .ftz flushes a subnormal f32 input to zero (f16
/// subnormal results are kept).
uint16_t cvtF32ToF16(float value, Rounding rounding, bool satfinite = false,
                     bool ftz = false);
/// cvt{.rnd}{.ftz}{.satfinite}.bf16.f32, likewise (largest finite bf16:
/// 0x7f7f).
uint16_t cvtF32ToBF16(float value, Rounding rounding, bool satfinite = false,
                      bool ftz = false);
/// cvt.f32.f16 and cvt.f32.bf16: exact.
float cvtF16ToF32(uint16_t half);
float cvtBF16ToF32(uint16_t bhalf);
/// cvt.rnd{.satfinite}.f16x2.f32 d, a, b: a goes to d[31:16], b to d[15:0]
/// (the ISA's semantics: "d[31:16] = convert(a); d[15:0] = convert(b)").
uint32_t cvtF32PairToF16x2(float a, float b, Rounding rounding,
                           bool satfinite = false);
uint32_t cvtF32PairToBF16x2(float a, float b, Rounding rounding,
                            bool satfinite = false);

/// cvt{.ftz}.sat.f32.f32: clamps to [0, 1]; NaN becomes +0.
float saturateF32(float value);
/// cvt.irnd{.ftz}.f32.f32: rounds to an integral value in f32.
float cvtF32RoundToIntegral(float value, IntRounding rounding,
                            bool ftz = false);

/// cvt.irnd{.ftz}.{s32,u32,s64,u64}.f32. The ISA: float-to-integer
/// conversions clamp to the destination's range by default (.sat is
/// redundant), and "In float-to-integer conversion, NaN inputs are converted
/// to 0". With .ftz a subnormal input counts as a zero of its sign (so
/// .rmi of a negative subnormal gives 0, not -1).
int32_t cvtF32ToS32(float value, IntRounding rounding, bool ftz = false);
uint32_t cvtF32ToU32(float value, IntRounding rounding, bool ftz = false);
int64_t cvtF32ToS64(float value, IntRounding rounding, bool ftz = false);
uint64_t cvtF32ToU64(float value, IntRounding rounding, bool ftz = false);

/// cvt.rnd.f32.{s32,u32,s64,u64}: rounded when the integer needs more than
/// 24 significant bits.
float cvtS32ToF32(int32_t value, Rounding rounding);
float cvtU32ToF32(uint32_t value, Rounding rounding);
float cvtS64ToF32(int64_t value, Rounding rounding);
float cvtU64ToF32(uint64_t value, Rounding rounding);

//===----------------------------------------------------------------------===//
// f32 arithmetic (§9.7.3)
//===----------------------------------------------------------------------===//

float addF32(float a, float b, F32Modifiers modifiers = {});
float subF32(float a, float b, F32Modifiers modifiers = {});
float mulF32(float a, float b, F32Modifiers modifiers = {});
/// fma.rnd: a * b + c with a single rounding.
float fmaF32(float a, float b, float c, F32Modifiers modifiers = {});
/// div.rnd{.ftz}.f32, IEEE 754 compliant (§9.7.3.8).
float divF32(float a, float b, Rounding rounding, bool ftz = false);
/// rcp.rnd{.ftz}.f32, IEEE 754 compliant (§9.7.3.13).
float rcpF32(float a, Rounding rounding, bool ftz = false);
/// sqrt.rnd{.ftz}.f32, IEEE 754 compliant (§9.7.3.15).
float sqrtF32(float a, Rounding rounding, bool ftz = false);

/// min/max{.ftz}{.NaN}.f32 (§9.7.3.11, §9.7.3.12). Without .NaN a NaN
/// operand is ignored (NaN only if both are); with .NaN any NaN operand
/// gives the canonical NaN. -0 < +0 in both.
float minF32(float a, float b, bool propagateNan = false, bool ftz = false);
float maxF32(float a, float b, bool propagateNan = false, bool ftz = false);

//===----------------------------------------------------------------------===//
// f64 arithmetic (§9.7.3): IEEE 754 binary64 in the four rounding modes, no
// .ftz or .sat (the ISA has none for f64); NaN results are the canonical
// NaN 0x7fffffffffffffff, as the f32 ones are 0x7fffffff.
//===----------------------------------------------------------------------===//

inline constexpr uint64_t kCanonicalNanF64 = 0x7fffffffffffffffull;
double f64FromBits(uint64_t bits);
uint64_t f64Bits(double value);

double addF64(double a, double b, Rounding rounding = Rounding::Rn);
double subF64(double a, double b, Rounding rounding = Rounding::Rn);
double mulF64(double a, double b, Rounding rounding = Rounding::Rn);
double fmaF64(double a, double b, double c, Rounding rounding = Rounding::Rn);
double divF64(double a, double b, Rounding rounding = Rounding::Rn);
double rcpF64(double a, Rounding rounding = Rounding::Rn);
double sqrtF64(double a, Rounding rounding = Rounding::Rn);
/// min/max.f64: a NaN operand is ignored (NaN only if both are); -0 < +0.
double minF64(double a, double b);
double maxF64(double a, double b);

/// cvt.rnd{.ftz}{.sat}.f32.f64 and cvt{.ftz}.f64.f32 (exact).
float cvtF64ToF32(double value, Rounding rounding, bool ftz = false,
                  bool sat = false);
double cvtF32ToF64(float value, bool ftz = false);
/// cvt.irnd.{s32,u32,s64,u64}.f64 (saturating, NaN to 0) and
/// cvt.rnd.f64.{s32,u32,s64,u64}.
int64_t cvtF64ToInt(double value, IntRounding rounding, unsigned bits,
                    bool isSigned);
double cvtIntToF64(uint64_t value, unsigned bits, bool isSigned,
                   Rounding rounding);

//===----------------------------------------------------------------------===//
// Half-precision arithmetic on f16 bit patterns (§9.7.4), .rn only
//===----------------------------------------------------------------------===//

uint16_t addF16(uint16_t a, uint16_t b, F16Modifiers modifiers = {});
uint16_t subF16(uint16_t a, uint16_t b, F16Modifiers modifiers = {});
uint16_t mulF16(uint16_t a, uint16_t b, F16Modifiers modifiers = {});
uint16_t fmaF16(uint16_t a, uint16_t b, uint16_t c,
                F16Modifiers modifiers = {});
/// min/max{.ftz}{.NaN}.f16 (§9.7.4.7, §9.7.4.8), as minF32/maxF32.
uint16_t minF16(uint16_t a, uint16_t b, bool propagateNan = false,
                bool ftz = false);
uint16_t maxF16(uint16_t a, uint16_t b, bool propagateNan = false,
                bool ftz = false);

//===----------------------------------------------------------------------===//
// bf16 arithmetic on bit patterns (§9.7.4), .rn only
//===----------------------------------------------------------------------===//

// add, sub, mul (sm_90) and fma (sm_80; the ISA gives bf16 no .ftz or .sat;
// nvcc writes bf16 add and mul for sm_80 as fma with 1.0 and -0.0).
uint16_t addBF16(uint16_t a, uint16_t b);
uint16_t subBF16(uint16_t a, uint16_t b);
uint16_t mulBF16(uint16_t a, uint16_t b);
/// fma.rn{.relu}.bf16: a * b + c with a single rounding; .relu as in
/// F16Modifiers.
uint16_t fmaBF16(uint16_t a, uint16_t b, uint16_t c, bool relu = false);
/// min/max{.NaN}.bf16 (§9.7.4.7, §9.7.4.8), as minF16/maxF16.
uint16_t minBF16(uint16_t a, uint16_t b, bool propagateNan = false);
uint16_t maxBF16(uint16_t a, uint16_t b, bool propagateNan = false);

//===----------------------------------------------------------------------===//
// neg, abs (§9.7.3.9, §9.7.3.10, §9.7.4.5, §9.7.4.6) and copysign (§9.7.3.2)
//===----------------------------------------------------------------------===//

// Sign-bit operations: the ISA says "NaN inputs yield an unspecified NaN"
// for neg and abs; these keep the payload and change only the sign, as IEEE
// 754 does. .ftz first flushes a subnormal input to a zero of its sign.
// Inline: the executor runs them per lane.
inline uint32_t flushF32Bits(uint32_t bits) {
  return (bits & 0x7f800000u) == 0 ? bits & 0x80000000u : bits;
}
inline uint16_t flushF16Bits(uint16_t bits) {
  return (bits & 0x7c00) == 0 ? bits & 0x8000 : bits;
}
inline float negF32(float a, bool ftz = false) {
  uint32_t bits = f32Bits(a);
  return f32FromBits((ftz ? flushF32Bits(bits) : bits) ^ 0x80000000u);
}
inline float absF32(float a, bool ftz = false) {
  uint32_t bits = f32Bits(a);
  return f32FromBits((ftz ? flushF32Bits(bits) : bits) & 0x7fffffffu);
}
inline uint16_t negF16(uint16_t a, bool ftz = false) {
  return (ftz ? flushF16Bits(a) : a) ^ 0x8000;
}
inline uint16_t absF16(uint16_t a, bool ftz = false) {
  return (ftz ? flushF16Bits(a) : a) & 0x7fff;
}
inline uint16_t negBF16(uint16_t a) { return a ^ 0x8000; }
inline uint16_t absBF16(uint16_t a) { return a & 0x7fff; }

/// copysign.f32 d, a, b: "Copy sign bit of a into value of b" (the first
/// operand gives the sign). A NaN b keeps its payload.
inline float copysignF32(float a, float b) {
  return f32FromBits((f32Bits(a) & 0x80000000u) | (f32Bits(b) & 0x7fffffffu));
}

//===----------------------------------------------------------------------===//
// Packed .f16x2 and .bf16x2 (§9.7.4)
//===----------------------------------------------------------------------===//

// Each half separately, as the scalar operation: element 0 is bits 15:0
// and element 1 bits 31:16 (the ISA: "fA[0] = a[0:15]; fA[1] = a[16:31]").
uint32_t addF16x2(uint32_t a, uint32_t b, F16Modifiers modifiers = {});
uint32_t subF16x2(uint32_t a, uint32_t b, F16Modifiers modifiers = {});
uint32_t mulF16x2(uint32_t a, uint32_t b, F16Modifiers modifiers = {});
uint32_t fmaF16x2(uint32_t a, uint32_t b, uint32_t c,
                  F16Modifiers modifiers = {});
uint32_t minF16x2(uint32_t a, uint32_t b, bool propagateNan = false,
                  bool ftz = false);
uint32_t maxF16x2(uint32_t a, uint32_t b, bool propagateNan = false,
                  bool ftz = false);
uint32_t negF16x2(uint32_t a, bool ftz = false);
uint32_t absF16x2(uint32_t a, bool ftz = false);

uint32_t addBF16x2(uint32_t a, uint32_t b);
uint32_t subBF16x2(uint32_t a, uint32_t b);
uint32_t mulBF16x2(uint32_t a, uint32_t b);
uint32_t fmaBF16x2(uint32_t a, uint32_t b, uint32_t c, bool relu = false);
uint32_t minBF16x2(uint32_t a, uint32_t b, bool propagateNan = false);
uint32_t maxBF16x2(uint32_t a, uint32_t b, bool propagateNan = false);
inline uint32_t negBF16x2(uint32_t a) { return a ^ 0x80008000u; }
inline uint32_t absBF16x2(uint32_t a) { return a & 0x7fff7fffu; }

//===----------------------------------------------------------------------===//
// .approx functions (§9.7.3.8 div, §9.7.3.13-§9.7.3.22)
//===----------------------------------------------------------------------===//

/// The emulator computes each in double and rounds once to f32 (with .ftz,
/// subnormal inputs and results flushed). sqrt, rcp and div are then
/// correctly rounded (53 >= 2 * 24 + 2 bits). The others depend on glibc's
/// double functions, which err by a few double ulps at most (glibc's
/// published table), so the f32 result is the correctly rounded one unless
/// the exact value lies within a few 2^-53 (relative) of a midpoint between
/// two floats: within 0.5 ulp plus that, far inside the hardware's bounds.
float ex2ApproxF32(float a, bool ftz = false);
float lg2ApproxF32(float a, bool ftz = false);
float rsqrtApproxF32(float a, bool ftz = false);
float sqrtApproxF32(float a, bool ftz = false);
float rcpApproxF32(float a, bool ftz = false);
/// div.approx{.ftz}.f32 is a * (1/b); the ISA defines its result for
/// 2^126 < |b| < 2^128: NaN if a is infinite, else a sign-preserving zero.
float divApproxF32(float a, float b, bool ftz = false);
float sinApproxF32(float a, bool ftz = false);
float cosApproxF32(float a, bool ftz = false);
/// tanh.approx.f32 has no .ftz: subnormal inputs pass through.
float tanhApproxF32(float a);

enum class ApproxFunction { Ex2, Lg2, Rsqrt, Sqrt, Rcp, Div, Sin, Cos, Tanh };

/// The unit of an error bound: ulps of the correctly rounded f32 result, or
/// a relative or absolute error of the result; Unbounded where the ISA
/// guarantees nothing (sin/cos outside [-100pi, 100pi]).
enum class ErrorKind { Ulp, Relative, Absolute, Unbounded };

struct ErrorBound {
  ErrorKind kind;
  double bound;
};

/// The hardware's maximum error for `function` at input `a` (for Div: at
/// divisor `a`), as the ISA states it:
///   ex2    2 ulp from the correctly rounded result, full range (§9.7.3.21)
///   lg2    absolute 2^-22 for a in (0.5, 2), else relative 2^-22 (§9.7.3.20)
///   rsqrt  relative 2^-22.9 over the positive finite range (§9.7.3.16)
///   sqrt   relative 2^-23 over the positive finite range (§9.7.3.15)
///   rcp    1 ulp, full range (§9.7.3.13)
///   div    2 ulp for |b| in [2^-126, 2^126] (§9.7.3.8); exact beyond
///   sin    absolute 2^-20.5 in [-2pi, 2pi], 2^-14.7 in [-100pi, 100pi],
///   cos    none outside (§9.7.3.18, §9.7.3.19)
///   tanh   relative 2^-11 over the whole range (§9.7.3.22)
ErrorBound approxErrorBound(ApproxFunction function, float a);

//===----------------------------------------------------------------------===//
// Integer and bit instructions (§9.7.1, §9.7.8 shifts, §9.7.9.7 prmt)
//===----------------------------------------------------------------------===//

/// bfe.{u32,s32,u64,s64} d, a, pos, len (§9.7.1.19): pos and len are
/// taken modulo 256; bits past the msb of a read as the sign bit of the
/// field (a's msb for signed types when the field extends past it, 0 for
/// unsigned); len == 0 gives 0.
uint32_t bfeU32(uint32_t a, uint32_t pos, uint32_t len);
int32_t bfeS32(int32_t a, uint32_t pos, uint32_t len);
uint64_t bfeU64(uint64_t a, uint32_t pos, uint32_t len);
int64_t bfeS64(int64_t a, uint32_t pos, uint32_t len);
/// bfi.{b32,b64} f, a, b, pos, len (§9.7.1.20): inserts the low len
/// bits of a into b at pos; bits past the msb are dropped; pos and len are
/// taken modulo 256.
/// lop3.b32 d, a, b, c, immLut (§9.7.8.6): each result bit is the bit of
/// `immLut` that the three operands' bits index, a in the high position
/// (immLut = F(0xF0, 0xCC, 0xAA) for the function F it encodes).
uint32_t lop3B32(uint32_t a, uint32_t b, uint32_t c, uint8_t immLut);
uint32_t bfiB32(uint32_t a, uint32_t b, uint32_t pos, uint32_t len);
uint64_t bfiB64(uint64_t a, uint64_t b, uint32_t pos, uint32_t len);

/// The modes of prmt: the default (generic) form and .f4e, .b4e, .rc8,
/// .ecl, .ecr, .rc16.
enum class PrmtMode { Default, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };

/// prmt.b32{.mode} d, a, b, c (§9.7.9.7). The source bytes are {b, a}
/// (a is bytes 0-3). Default mode: byte i of d is byte (c >> 4i) & 7, or,
/// if bit 3 of that selector is set, the selected byte's sign replicated
/// over 8 bits. The other modes pick by c & 3 from the ISA's table.
uint32_t prmtB32(uint32_t a, uint32_t b, uint32_t c,
                 PrmtMode mode = PrmtMode::Default);

/// popc, clz, brev (§9.7.1.14, §9.7.1.15, §9.7.1.18).
uint32_t popcB32(uint32_t a);
uint32_t popcB64(uint64_t a);
uint32_t clzB32(uint32_t a);
uint32_t clzB64(uint64_t a);
uint32_t brevB32(uint32_t a);
uint64_t brevB64(uint64_t a);

/// bfind{.shiftamt}.{u32,s32,u64,s64} (§9.7.1.16): the position of the most
/// significant non-sign bit (the highest 1, or for a negative signed value
/// the highest 0), 0xffffffff if there is none; with .shiftamt, the left
/// shift that moves it to the msb (msb - position), still 0xffffffff if
/// there is none.
uint32_t bfindU32(uint32_t a, bool shiftAmount = false);
uint32_t bfindS32(int32_t a, bool shiftAmount = false);
uint32_t bfindU64(uint64_t a, bool shiftAmount = false);
uint32_t bfindS64(int64_t a, bool shiftAmount = false);

/// shf.{l,r}.{clamp,wrap}.b32 d, a, b, c (§9.7.8.7): the 64-bit value
/// {b, a} (b the upper word) shifted by n = min(c, 32) (.clamp) or c & 31
/// (.wrap); shf.l returns the upper 32 bits of the left shift, shf.r the
/// lower 32 bits of the right shift.
uint32_t shfLB32(uint32_t a, uint32_t b, uint32_t c, bool clamp);
uint32_t shfRB32(uint32_t a, uint32_t b, uint32_t c, bool clamp);

/// mul.hi, mul.wide and mad.lo/mad.hi (§9.7.1.3, §9.7.1.4): the high half
/// of the double-width product; the full product; the low or high half of
/// the product plus c, wrapping.
uint16_t mulHiU16(uint16_t a, uint16_t b);
int16_t mulHiS16(int16_t a, int16_t b);
uint32_t mulWideU16(uint16_t a, uint16_t b);
int32_t mulWideS16(int16_t a, int16_t b);
uint32_t mulHiU32(uint32_t a, uint32_t b);
int32_t mulHiS32(int32_t a, int32_t b);
uint64_t mulHiU64(uint64_t a, uint64_t b);
int64_t mulHiS64(int64_t a, int64_t b);
uint64_t mulWideU32(uint32_t a, uint32_t b);
int64_t mulWideS32(int32_t a, int32_t b);
uint32_t madLoU32(uint32_t a, uint32_t b, uint32_t c);
int32_t madLoS32(int32_t a, int32_t b, int32_t c);
uint64_t madLoU64(uint64_t a, uint64_t b, uint64_t c);
int64_t madLoS64(int64_t a, int64_t b, int64_t c);
uint32_t madHiU32(uint32_t a, uint32_t b, uint32_t c);
int32_t madHiS32(int32_t a, int32_t b, int32_t c);
uint64_t madHiU64(uint64_t a, uint64_t b, uint64_t c);
int64_t madHiS64(int64_t a, int64_t b, int64_t c);

/// shl.{b32,b64}, shr.{u,s}{32,64} (§9.7.8.8, §9.7.8.9): "Shift amounts
/// greater than the register width N are clamped to N", so a shift by N or
/// more gives 0, or the sign bit replicated for shr.s.
uint32_t shlB32(uint32_t a, uint32_t amount);
uint64_t shlB64(uint64_t a, uint32_t amount);
uint32_t shrU32(uint32_t a, uint32_t amount);
int32_t shrS32(int32_t a, uint32_t amount);
uint64_t shrU64(uint64_t a, uint32_t amount);
int64_t shrS64(int64_t a, uint32_t amount);

} // namespace mirage::emulator

#endif // MIRAGE_GPUEMULATOR_PTXARITHMETIC_H
