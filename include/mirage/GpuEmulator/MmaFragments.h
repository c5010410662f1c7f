//===- MmaFragments.h - mma.sync m16n8k16 fragment layouts ------*- C++ -*-===//
//
// Which matrix element each lane's registers hold in
//   mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 d, a, b, c
//   mma.sync.aligned.m16n8k8.row.col.f32.{f16,bf16}.{f16,bf16}.f32 d, a, b, c
// and a reference evaluation of those instructions over the 32 lanes'
// registers, for the GPU emulator. The layouts are those of the PTX ISA,
// §9.7.15.5.8 "Matrix Fragments for mma.m16n8k16 with floating point type"
// (Figures 79, 81 and 83) and §9.7.15.5.7 "Matrix Fragments for
// mma.m16n8k8" (Figures 71, 74 and 76 for .f16/.bf16 with .f32
// accumulators); editions before 8.8 number the sections 9.7.14.5.x.
// Our pipeline emits m16n8k16 for sm_80 and later, m16n8k8 for sm_75.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_MMAFRAGMENTS_H
#define MIRAGE_GPUEMULATOR_MMAFRAGMENTS_H

#include <array>
#include <cstdint>

namespace mirage::emulator {

inline constexpr unsigned kWarpSize = 32;

/// The shape: A is 16x16 (row-major), B is 16x8 (column-major), C and D are
/// 16x8.
inline constexpr unsigned kMmaM = 16, kMmaN = 8, kMmaK = 16;
/// Elements per lane: A in four .b32 registers of two halves, B in two, C and
/// D in four .f32 registers.
inline constexpr unsigned kMmaAElements = 8, kMmaBElements = 4,
                          kMmaCElements = 4;

/// m16n8k8: A is 16x8 in two .b32 registers, B 8x8 in one; C and D as for
/// m16n8k16.
inline constexpr unsigned kMmaK8 = 8;
inline constexpr unsigned kMmaK8AElements = 4, kMmaK8BElements = 2;

struct MatrixCoord {
  unsigned row;
  unsigned col;
};

/// The element a<element> of lane `lane`. Element i lives in register i / 2,
/// in its low half for even i ("Elements (low to high)": a0, a1, ...).
MatrixCoord mmaM16N8K16ACoord(unsigned lane, unsigned element);
/// The element b<element> of lane `lane`, in register element / 2.
MatrixCoord mmaM16N8K16BCoord(unsigned lane, unsigned element);
/// The element c<element> (and d<element>) of lane `lane`.
MatrixCoord mmaM16N8K16CCoord(unsigned lane, unsigned element);

/// The elements of m16n8k8 (C and D are those of m16n8k16).
MatrixCoord mmaM16N8K8ACoord(unsigned lane, unsigned element);
MatrixCoord mmaM16N8K8BCoord(unsigned lane, unsigned element);

/// The 16-bit half of a packed register holding element `element`.
uint16_t mmaFragmentHalf(uint32_t reg, unsigned element);

enum class MmaInputType { F16, BF16 };

using MmaARegisters = std::array<std::array<uint32_t, 4>, kWarpSize>;
using MmaBRegisters = std::array<std::array<uint32_t, 2>, kWarpSize>;
using MmaCRegisters = std::array<std::array<float, 4>, kWarpSize>;
using MmaK8ARegisters = std::array<std::array<uint32_t, 2>, kWarpSize>;
using MmaK8BRegisters = std::array<std::array<uint32_t, 1>, kWarpSize>;

/// D = A * B + C over the warp's registers, A and B of type `inputType`.
///
/// The hardware's accumulation order and intermediate rounding are
/// unspecified by the ISA (and in practice not IEEE round-to-nearest). The
/// emulator forms every product exactly in double (11- or 8-bit
/// significands: at most 22 bits), adds the 16 products to C[i][j] in k
/// order in double, and rounds once to f32 (round to nearest even). The
/// double sum can itself round when the terms' exponents span more than 53
/// bits, so the result is the exact value to within 16 double roundings; a
/// comparison against a real GPU needs a tolerance for the hardware's own
/// accumulation error. A NaN result is the canonical NaN 0x7fffffff.
MmaCRegisters mmaM16N8K16(MmaInputType inputType, const MmaARegisters &a,
                          const MmaBRegisters &b, const MmaCRegisters &c);
/// The same for m16n8k8: 8 products per element, in k order.
MmaCRegisters mmaM16N8K8(MmaInputType inputType, const MmaK8ARegisters &a,
                         const MmaK8BRegisters &b, const MmaCRegisters &c);

} // namespace mirage::emulator

#endif // MIRAGE_GPUEMULATOR_MMAFRAGMENTS_H
