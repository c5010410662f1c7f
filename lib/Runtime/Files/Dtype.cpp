//===- Dtype.cpp - the element types of GPU buffers -----------------------===//

#include "mirage/Runtime/Dtype.h"
#include "mirage/Runtime/Npy.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace llvm;
using namespace mirage;
using namespace mirage::gpurun;

StringRef gpurun::dtypeName(Dtype dtype) {
  switch (dtype) {
  case Dtype::F16:
    return "f16";
  case Dtype::BF16:
    return "bf16";
  case Dtype::F32:
    return "f32";
  case Dtype::I32:
    return "i32";
  case Dtype::I64:
    return "i64";
  }
  llvm_unreachable("unknown dtype");
}

bool gpurun::isIndexDtype(Dtype dtype) {
  return dtype == Dtype::I32 || dtype == Dtype::I64;
}

std::optional<Dtype> gpurun::parseDtype(StringRef name) {
  return StringSwitch<std::optional<Dtype>>(name)
      .Case("f16", Dtype::F16)
      .Case("bf16", Dtype::BF16)
      .Case("f32", Dtype::F32)
      .Case("i32", Dtype::I32)
      .Case("i64", Dtype::I64)
      .Default(std::nullopt);
}

unsigned gpurun::dtypeSize(Dtype dtype) {
  switch (dtype) {
  case Dtype::F16:
  case Dtype::BF16:
    return 2;
  case Dtype::F32:
  case Dtype::I32:
    return 4;
  case Dtype::I64:
    return 8;
  }
  llvm_unreachable("unknown dtype");
}

int gpurun::dtypePrecision(Dtype dtype) {
  switch (dtype) {
  case Dtype::F16:
    return 11;
  case Dtype::BF16:
    return 8;
  case Dtype::F32:
    return 24;
  case Dtype::I32:
  case Dtype::I64:
    return 53;
  }
  llvm_unreachable("unknown dtype");
}

/// The exponents of the smallest and largest normal numbers.
static std::pair<int, int> exponentRange(Dtype dtype) {
  return dtype == Dtype::F16 ? std::pair(-14, 15) : std::pair(-126, 127);
}

double gpurun::dtypeLargest(Dtype dtype) {
  if (dtype == Dtype::I32)
    return 2147483647.0;
  if (dtype == Dtype::I64)
    return std::ldexp(1.0, 63);
  int p = dtypePrecision(dtype);
  return std::ldexp(2.0 - std::ldexp(1.0, 1 - p), exponentRange(dtype).second);
}

double gpurun::dtypeUlp(Dtype dtype, double x) {
  if (isIndexDtype(dtype))
    return 1;
  auto [minExponent, maxExponent] = exponentRange(dtype);
  int e = x == 0 ? minExponent : std::ilogb(x);
  e = std::clamp(e, minExponent, maxExponent);
  return std::ldexp(1.0, e - dtypePrecision(dtype) + 1);
}

std::optional<Dtype> gpurun::dtypeOf(mlir::Type type) {
  for (Dtype dtype : {Dtype::F16, Dtype::BF16, Dtype::F32, Dtype::I32,
                      Dtype::I64})
    if (isDtype(type, dtype))
      return dtype;
  return std::nullopt;
}

bool gpurun::isDtype(mlir::Type type, Dtype dtype) {
  switch (dtype) {
  case Dtype::F16:
    return type.isF16();
  case Dtype::BF16:
    return type.isBF16();
  case Dtype::F32:
    return type.isF32();
  case Dtype::I32:
    return type.isInteger(32);
  case Dtype::I64:
    return type.isInteger(64);
  }
  llvm_unreachable("unknown dtype");
}

/// Rounds `x` to a binary format with `fractionBits` stored fraction bits
/// and `exponentBits` exponent bits (IEEE layout, with subnormals) and
/// returns the bit pattern. Directly from the double, as rounding through
/// float first could round twice; the scaling by powers of two is exact and
/// std::nearbyint rounds to nearest even in the default rounding mode.
static uint32_t encodeSmallFloat(double x, int fractionBits, int exponentBits) {
  const int bias = (1 << (exponentBits - 1)) - 1;
  const int minExponent = 1 - bias, maxExponent = bias;
  const uint32_t exponentMask = ((1u << exponentBits) - 1) << fractionBits;
  const uint32_t sign =
      std::signbit(x) ? 1u << (fractionBits + exponentBits) : 0;
  if (std::isnan(x))
    return sign | exponentMask | (1u << (fractionBits - 1));
  double magnitude = std::fabs(x);
  if (std::isinf(magnitude))
    return sign | exponentMask;
  if (magnitude < std::ldexp(1.0, minExponent)) {
    // Subnormal: a multiple of 2^(minExponent - fractionBits). Rounding up
    // to 2^fractionBits gives the bits of the smallest normal number.
    double units =
        std::nearbyint(std::ldexp(magnitude, fractionBits - minExponent));
    return sign | static_cast<uint32_t>(units);
  }
  int exponent = std::ilogb(magnitude);
  if (exponent > maxExponent)
    return sign | exponentMask;
  double significand =
      std::nearbyint(std::ldexp(magnitude, fractionBits - exponent));
  if (significand == std::ldexp(1.0, fractionBits + 1)) {
    significand /= 2;
    if (++exponent > maxExponent)
      return sign | exponentMask;
  }
  uint32_t fraction = static_cast<uint32_t>(significand) - (1u << fractionBits);
  return sign | (static_cast<uint32_t>(exponent + bias) << fractionBits) |
         fraction;
}

/// `x` as an integer of `bits` bits: nearest, saturated, NaN as 0.
static int64_t toInteger(double x, unsigned bits) {
  if (std::isnan(x))
    return 0;
  double top = std::ldexp(1.0, bits - 1);
  if (x >= top)
    return bits == 64 ? std::numeric_limits<int64_t>::max()
                      : (int64_t(1) << (bits - 1)) - 1;
  if (x <= -top)
    return bits == 64 ? std::numeric_limits<int64_t>::min()
                      : -(int64_t(1) << (bits - 1));
  return static_cast<int64_t>(std::nearbyint(x));
}

std::vector<char> gpurun::encode(Dtype dtype, ArrayRef<double> values) {
  std::vector<char> bytes(values.size() * dtypeSize(dtype));
  char *p = bytes.data();
  for (double x : values) {
    switch (dtype) {
    case Dtype::F16:
      support::endian::write16le(p, encodeSmallFloat(x, 10, 5));
      break;
    case Dtype::BF16:
      support::endian::write16le(p, encodeSmallFloat(x, 7, 8));
      break;
    case Dtype::F32:
      // The conversion rounds to nearest even.
      support::endian::write32le(p, bit_cast<uint32_t>(static_cast<float>(x)));
      break;
    case Dtype::I32:
      support::endian::write32le(p, static_cast<uint32_t>(toInteger(x, 32)));
      break;
    case Dtype::I64:
      support::endian::write64le(p, static_cast<uint64_t>(toInteger(x, 64)));
      break;
    }
    p += dtypeSize(dtype);
  }
  return bytes;
}

std::vector<double> gpurun::decode(Dtype dtype, ArrayRef<char> bytes) {
  unsigned size = dtypeSize(dtype);
  assert(bytes.size() % size == 0 && "not a whole number of elements");
  std::vector<double> values(bytes.size() / size);
  const char *p = bytes.data();
  for (double &x : values) {
    switch (dtype) {
    case Dtype::F16:
      x = npy::halfToDouble(support::endian::read16le(p));
      break;
    case Dtype::BF16:
      // A bfloat16 is the top half of a float.
      x = bit_cast<float>(uint32_t(support::endian::read16le(p)) << 16);
      break;
    case Dtype::F32:
      x = bit_cast<float>(support::endian::read32le(p));
      break;
    case Dtype::I32:
      x = static_cast<int32_t>(support::endian::read32le(p));
      break;
    case Dtype::I64:
      x = static_cast<double>(static_cast<int64_t>(support::endian::read64le(p)));
      break;
    }
    p += size;
  }
  return values;
}

double gpurun::roundTo(Dtype dtype, double x) {
  return decode(dtype, encode(dtype, {x})).front();
}
