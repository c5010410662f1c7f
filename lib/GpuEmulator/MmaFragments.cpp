//===- MmaFragments.cpp - mma.sync m16n8k16 fragment layouts --------------===//

#include "mirage/GpuEmulator/MmaFragments.h"
#include "mirage/GpuEmulator/PtxArithmetic.h"

#include <cassert>
#include <cmath>
#include <cstring>

namespace mirage::emulator {

// The ISA's formulas, with
//   groupID           = %laneid >> 2
//   threadID_in_group = %laneid % 4

MatrixCoord mmaM16N8K16ACoord(unsigned lane, unsigned element) {
  assert(lane < kWarpSize && element < kMmaAElements);
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  // row = groupID for ai where 0 <= i < 2 || 4 <= i < 6, groupID + 8
  // otherwise; col = threadID_in_group * 2 + (i & 1), + 8 for i >= 4.
  bool upperRows = (element >= 2 && element < 4) || element >= 6;
  return {groupId + (upperRows ? 8 : 0),
          threadInGroup * 2 + (element & 1) + (element >= 4 ? 8 : 0)};
}

MatrixCoord mmaM16N8K16BCoord(unsigned lane, unsigned element) {
  assert(lane < kWarpSize && element < kMmaBElements);
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  // row = threadID_in_group * 2 + (i & 1), + 8 for i >= 2; col = groupID.
  return {threadInGroup * 2 + (element & 1) + (element >= 2 ? 8 : 0), groupId};
}

MatrixCoord mmaM16N8K16CCoord(unsigned lane, unsigned element) {
  assert(lane < kWarpSize && element < kMmaCElements);
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  // row = groupID for ci where i < 2, groupID + 8 for i >= 2;
  // col = threadID_in_group * 2 + (i & 1).
  return {groupId + (element >= 2 ? 8 : 0), threadInGroup * 2 + (element & 1)};
}

MatrixCoord mmaM16N8K8ACoord(unsigned lane, unsigned element) {
  assert(lane < kWarpSize && element < kMmaK8AElements);
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  // row = groupID for a0 and a1, groupID + 8 for a2 and a3;
  // col = threadID_in_group * 2 + (i & 0x1).
  return {groupId + (element >= 2 ? 8 : 0), threadInGroup * 2 + (element & 1)};
}

MatrixCoord mmaM16N8K8BCoord(unsigned lane, unsigned element) {
  assert(lane < kWarpSize && element < kMmaK8BElements);
  unsigned groupId = lane >> 2, threadInGroup = lane % 4;
  // row = threadID_in_group * 2 + i for b0 and b1; col = groupID.
  return {threadInGroup * 2 + element, groupId};
}

uint16_t mmaFragmentHalf(uint32_t reg, unsigned element) {
  return static_cast<uint16_t>(reg >> (16 * (element & 1)));
}

namespace {
/// f16 to f32, exact for every finite and infinite value (a NaN stays a
/// NaN, which is all the mma below needs). Inline bit arithmetic: the
/// host's _Float16 conversion is a libgcc call without F16C.
float f16ToF32Exact(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  if (exponent == 0) // zero or subnormal: mantissa * 2^-24, exact in f32
    return f32FromBits(sign) + (sign ? -1.0f : 1.0f) * float(mantissa) *
                                   0x1p-24f;
  if (exponent == 0x1f)
    return f32FromBits(sign | 0x7f800000 | mantissa << 13);
  return f32FromBits(sign | (exponent + 112) << 23 | mantissa << 13);
}

/// The coordinate functions above as tables, built once: an mma runs for
/// every tensor-core instruction of every emulated warp.
struct FragmentTables {
  MatrixCoord a[kWarpSize][kMmaAElements];
  MatrixCoord b[kWarpSize][kMmaBElements];
  MatrixCoord c[kWarpSize][kMmaCElements];
  MatrixCoord a8[kWarpSize][kMmaK8AElements];
  MatrixCoord b8[kWarpSize][kMmaK8BElements];
  FragmentTables() {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      for (unsigned i = 0; i < kMmaAElements; ++i)
        a[lane][i] = mmaM16N8K16ACoord(lane, i);
      for (unsigned i = 0; i < kMmaBElements; ++i)
        b[lane][i] = mmaM16N8K16BCoord(lane, i);
      for (unsigned i = 0; i < kMmaCElements; ++i)
        c[lane][i] = mmaM16N8K16CCoord(lane, i);
      for (unsigned i = 0; i < kMmaK8AElements; ++i)
        a8[lane][i] = mmaM16N8K8ACoord(lane, i);
      for (unsigned i = 0; i < kMmaK8BElements; ++i)
        b8[lane][i] = mmaM16N8K8BCoord(lane, i);
    }
  }
};
const FragmentTables &fragmentTables() {
  static const FragmentTables tables;
  return tables;
}

// Input NaNs need no canonical form: a NaN result is made canonical below.
double halfToDouble(MmaInputType inputType, uint16_t half) {
  return inputType == MmaInputType::F16 ? f16ToF32Exact(half)
                                        : f32FromBits(uint32_t(half) << 16);
}

/// D = A B + C for A (16 x K, row-major) and B stored transposed (8 x K),
/// each element of D the sum of its K products added to C in k order.
template <unsigned K>
MmaCRegisters multiplyAccumulate(const double (&matrixA)[kMmaM][K],
                                 const double (&matrixBt)[kMmaN][K],
                                 const MmaCRegisters &c) {
  const FragmentTables &tables = fragmentTables();
  MmaCRegisters d;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < kMmaCElements; ++i) {
      MatrixCoord at = tables.c[lane][i];
      const double *row = matrixA[at.row], *col = matrixBt[at.col];
      double sum = c[lane][i];
      for (unsigned k = 0; k < K; ++k)
        sum += row[k] * col[k];
      float result = static_cast<float>(sum);
      d[lane][i] = std::isnan(result) ? f32FromBits(kCanonicalNanF32) : result;
    }
  }
  return d;
}
} // namespace

MmaCRegisters mmaM16N8K16(MmaInputType inputType, const MmaARegisters &a,
                          const MmaBRegisters &b, const MmaCRegisters &c) {
  const FragmentTables &tables = fragmentTables();
  // B is stored transposed so that the k loop reads both operands
  // contiguously.
  double matrixA[kMmaM][kMmaK], matrixBt[kMmaN][kMmaK];
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < kMmaAElements; ++i) {
      MatrixCoord at = tables.a[lane][i];
      matrixA[at.row][at.col] =
          halfToDouble(inputType, mmaFragmentHalf(a[lane][i / 2], i));
    }
    for (unsigned i = 0; i < kMmaBElements; ++i) {
      MatrixCoord at = tables.b[lane][i];
      matrixBt[at.col][at.row] =
          halfToDouble(inputType, mmaFragmentHalf(b[lane][i / 2], i));
    }
  }
  return multiplyAccumulate<kMmaK>(matrixA, matrixBt, c);
}

MmaCRegisters mmaM16N8K8(MmaInputType inputType, const MmaK8ARegisters &a,
                         const MmaK8BRegisters &b, const MmaCRegisters &c) {
  const FragmentTables &tables = fragmentTables();
  double matrixA[kMmaM][kMmaK8], matrixBt[kMmaN][kMmaK8];
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < kMmaK8AElements; ++i) {
      MatrixCoord at = tables.a8[lane][i];
      matrixA[at.row][at.col] =
          halfToDouble(inputType, mmaFragmentHalf(a[lane][i / 2], i));
    }
    for (unsigned i = 0; i < kMmaK8BElements; ++i) {
      MatrixCoord at = tables.b8[lane][i];
      matrixBt[at.col][at.row] =
          halfToDouble(inputType, mmaFragmentHalf(b[lane][0], i));
    }
  }
  return multiplyAccumulate<kMmaK8>(matrixA, matrixBt, c);
}

} // namespace mirage::emulator
