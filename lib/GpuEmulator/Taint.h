//===- Taint.h - initcheck's byte masks of unwritten values -----*- C++ -*-===//
//
// initcheck follows a value read from memory nothing wrote through the
// registers, a bit per register byte, and reports only where such a value
// is used: stored, taken as an address, or deciding a branch or guard.
// NVPTX vectorizes the load of a small tile past its last element (a 7x1
// f32 operand read as two v4 loads) and never uses the padding it reads;
// reporting the read itself would call such kernels wrong. These are the
// mask computations of the instructions that move bytes around without
// mixing them (moves, packs, integer conversions, shifts by constants,
// masks, prmt): everything else taints its whole result when any source
// byte is tainted.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_GPUEMULATOR_TAINT_H
#define MIRAGE_LIB_GPUEMULATOR_TAINT_H

#include <cstdint>

namespace mirage::emulator::detail {

/// The byte mask of a register of `bits` bits (a .pred is one byte).
inline uint8_t taintWidth(unsigned bits) {
  unsigned bytes = (bits + 7) / 8;
  return bytes >= 8 ? 0xff : uint8_t((1u << bytes) - 1);
}

/// A byte mask as a bit mask: every bit of a tainted byte set.
inline uint64_t taintBits(uint8_t mask) {
  uint64_t bits = 0;
  for (unsigned i = 0; i < 8; ++i)
    if (mask >> i & 1)
      bits |= uint64_t(0xff) << (8 * i);
  return bits;
}

/// The bytes that hold any set bit of `bits`.
inline uint8_t taintBytes(uint64_t bits) {
  uint8_t mask = 0;
  for (unsigned i = 0; i < 8; ++i)
    if (bits >> (8 * i) & 0xff)
      mask |= uint8_t(1u << i);
  return mask;
}

/// shl or shr of a `bits`-bit value with byte taint `mask` by a constant
/// `amount`: a result bit comes from the source bit `amount` away, or is
/// the shifted-in zero (or, for an arithmetic right shift, the sign bit).
inline uint8_t taintShift(uint8_t mask, unsigned bits, uint64_t amount,
                          bool left, bool arithmetic) {
  uint64_t width = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  uint64_t source = taintBits(mask) & width;
  if (amount >= bits)
    amount = bits;
  uint64_t result;
  if (left)
    result = amount >= 64 ? 0 : source << amount;
  else
    result = amount >= 64 ? 0 : source >> amount;
  bool signTainted = source >> (bits - 1) & 1;
  if (!left && arithmetic && signTainted && amount)
    result |= width & ~(amount >= 64 ? 0 : width >> amount);
  return taintBytes(result & width);
}

/// and with the constant `imm`: only the bytes the constant keeps.
inline uint8_t taintAndConstant(uint8_t mask, uint64_t imm) {
  return mask & taintBytes(imm);
}

/// prmt.b32 in its default mode with the constant selector `selector`
/// (§9.7.9.7): result byte i is byte (selector >> 4i) & 7 of {b, a}, or
/// that byte's sign bit replicated when bit 3 of the nibble is set;
/// either way it depends on that one source byte.
inline uint8_t taintPrmt(uint8_t a, uint8_t b, uint64_t selector) {
  uint8_t both = uint8_t((a & 0xf) | (b & 0xf) << 4);
  uint8_t result = 0;
  for (unsigned i = 0; i < 4; ++i)
    if (both >> (selector >> (4 * i) & 7) & 1)
      result |= uint8_t(1u << i);
  return result;
}

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_TAINT_H
