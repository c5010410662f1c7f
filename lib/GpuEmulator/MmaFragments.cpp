//===- MmaFragments.cpp - mma.sync m16n8k16 fragment layouts --------------===//

#include "GpuEmulator/MmaFragments.h"
#include "GpuEmulator/PtxArithmetic.h"

#include <cassert>
#include <cmath>

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

uint16_t mmaFragmentHalf(uint32_t reg, unsigned element) {
  return static_cast<uint16_t>(reg >> (16 * (element & 1)));
}

MmaCRegisters mmaM16N8K16(MmaInputType inputType, const MmaARegisters &a,
                          const MmaBRegisters &b, const MmaCRegisters &c) {
  auto toDouble = [inputType](uint16_t half) -> double {
    return inputType == MmaInputType::F16 ? cvtF16ToF32(half)
                                          : cvtBF16ToF32(half);
  };
  double matrixA[kMmaM][kMmaK], matrixB[kMmaK][kMmaN];
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < kMmaAElements; ++i) {
      MatrixCoord at = mmaM16N8K16ACoord(lane, i);
      matrixA[at.row][at.col] = toDouble(mmaFragmentHalf(a[lane][i / 2], i));
    }
    for (unsigned i = 0; i < kMmaBElements; ++i) {
      MatrixCoord at = mmaM16N8K16BCoord(lane, i);
      matrixB[at.row][at.col] = toDouble(mmaFragmentHalf(b[lane][i / 2], i));
    }
  }
  MmaCRegisters d;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    for (unsigned i = 0; i < kMmaCElements; ++i) {
      MatrixCoord at = mmaM16N8K16CCoord(lane, i);
      double sum = c[lane][i];
      for (unsigned k = 0; k < kMmaK; ++k)
        sum += matrixA[at.row][k] * matrixB[k][at.col];
      float result = static_cast<float>(sum);
      d[lane][i] = std::isnan(result) ? f32FromBits(kCanonicalNanF32) : result;
    }
  }
  return d;
}

} // namespace mirage::emulator
