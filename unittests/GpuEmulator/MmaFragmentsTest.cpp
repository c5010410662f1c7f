//===- MmaFragmentsTest.cpp - mma.sync m16n8k16/k8 fragment layouts -------===//
//
// The expected layouts are the PTX ISA's, §9.7.15.5.8 "Matrix Fragments for
// mma.m16n8k16 with floating point type", written out here as tables, with
//   groupID           = %laneid >> 2
//   threadID_in_group = %laneid % 4
// A (.f16/.bf16, four .f16x2 registers, a0..a7 low to high):
//   row = groupID      for ai where 0 <= i < 2 || 4 <= i < 6
//         groupID + 8  otherwise
//   col = (threadID_in_group * 2) + (i & 0x1)      for ai where i < 4
//         (threadID_in_group * 2) + (i & 0x1) + 8  for ai where i >= 4
// B (two .f16x2 registers, b0..b3):
//   row = (threadID_in_group * 2) + (i & 0x1)      for bi where i < 2
//         (threadID_in_group * 2) + (i & 0x1) + 8  for bi where i >= 2
//   col = groupID
// C/D (four .f32 registers, c0..c3):
//   row = groupID      for ci where i < 2
//         groupID + 8  for ci where i >= 2
//   col = (threadID_in_group * 2) + (i & 0x1)
//
// and §9.7.15.5.7 "Matrix Fragments for mma.m16n8k8" (.f16/.bf16):
// A (two .f16x2 registers, a0..a3):
//   row = groupID      for a0 and a1
//         groupID + 8  for a2 and a3
//   col = threadID_in_group * 2 + (i & 0x1)
// B (one .f16x2 register, b0 and b1):
//   row = threadID_in_group * 2 + i
//   col = groupID
// C/D as for m16n8k16.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/MmaFragments.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace mirage::emulator;

namespace {

// Per element index: the row offset added to groupID and the column offset
// added to threadID_in_group * 2, read off the ISA's formulas above.
struct Offsets {
  unsigned row;
  unsigned col;
};
constexpr Offsets kAOffsets[8] = {{0, 0}, {0, 1}, {8, 0}, {8, 1},
                                  {0, 8}, {0, 9}, {8, 8}, {8, 9}};
// For B the roles swap: row offset added to threadID_in_group * 2, column is
// groupID.
constexpr unsigned kBRowOffsets[4] = {0, 1, 8, 9};
constexpr Offsets kCOffsets[4] = {{0, 0}, {0, 1}, {8, 0}, {8, 1}};

TEST(MmaFragmentsTest, ALayoutMatchesTheIsa) {
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 8; ++i) {
      MatrixCoord at = mmaM16N8K16ACoord(lane, i);
      EXPECT_EQ(at.row, lane / 4 + kAOffsets[i].row) << lane << " a" << i;
      EXPECT_EQ(at.col, lane % 4 * 2 + kAOffsets[i].col) << lane << " a" << i;
    }
  // Spot checks from the figure: lane 0 holds A[0][0..1], A[8][0..1],
  // A[0][8..9], A[8][8..9]; lane 31 holds row 7/15, columns 6-7/14-15.
  EXPECT_EQ(mmaM16N8K16ACoord(0, 6).row, 8u);
  EXPECT_EQ(mmaM16N8K16ACoord(0, 6).col, 8u);
  EXPECT_EQ(mmaM16N8K16ACoord(31, 7).row, 15u);
  EXPECT_EQ(mmaM16N8K16ACoord(31, 7).col, 15u);
}

TEST(MmaFragmentsTest, BLayoutMatchesTheIsa) {
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K16BCoord(lane, i);
      EXPECT_EQ(at.row, lane % 4 * 2 + kBRowOffsets[i]) << lane << " b" << i;
      EXPECT_EQ(at.col, lane / 4) << lane << " b" << i;
    }
}

TEST(MmaFragmentsTest, CLayoutMatchesTheIsa) {
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K16CCoord(lane, i);
      EXPECT_EQ(at.row, lane / 4 + kCOffsets[i].row) << lane << " c" << i;
      EXPECT_EQ(at.col, lane % 4 * 2 + kCOffsets[i].col) << lane << " c" << i;
    }
}

template <unsigned Rows, unsigned Cols, typename Coord>
void expectBijection(unsigned elements, Coord coord) {
  bool seen[Rows][Cols] = {};
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < elements; ++i) {
      MatrixCoord at = coord(lane, i);
      ASSERT_LT(at.row, Rows);
      ASSERT_LT(at.col, Cols);
      EXPECT_FALSE(seen[at.row][at.col]) << at.row << "," << at.col;
      seen[at.row][at.col] = true;
    }
}

TEST(MmaFragmentsTest, EveryElementHasExactlyOneOwner) {
  expectBijection<16, 16>(8, mmaM16N8K16ACoord);
  expectBijection<16, 8>(4, mmaM16N8K16BCoord);
  expectBijection<16, 8>(4, mmaM16N8K16CCoord);
  expectBijection<16, 8>(4, mmaM16N8K8ACoord);
  expectBijection<8, 8>(2, mmaM16N8K8BCoord);
}

// m16n8k8, read off its formulas above: A's row offset added to groupID
// and column offset added to threadID_in_group * 2; B's row offset added
// to threadID_in_group * 2.
constexpr Offsets kK8AOffsets[4] = {{0, 0}, {0, 1}, {8, 0}, {8, 1}};
constexpr unsigned kK8BRowOffsets[2] = {0, 1};

TEST(MmaFragmentsTest, K8LayoutsMatchTheIsa) {
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K8ACoord(lane, i);
      EXPECT_EQ(at.row, lane / 4 + kK8AOffsets[i].row) << lane << " a" << i;
      EXPECT_EQ(at.col, lane % 4 * 2 + kK8AOffsets[i].col) << lane << " a" << i;
    }
    for (unsigned i = 0; i < 2; ++i) {
      MatrixCoord at = mmaM16N8K8BCoord(lane, i);
      EXPECT_EQ(at.row, lane % 4 * 2 + kK8BRowOffsets[i]) << lane << " b" << i;
      EXPECT_EQ(at.col, lane / 4) << lane << " b" << i;
    }
  }
  // Lane 5 (groupID 1, threadID_in_group 1): A[1][2], A[1][3], A[9][2],
  // A[9][3]; B[2][1] and B[3][1].
  EXPECT_EQ(mmaM16N8K8ACoord(5, 3).row, 9u);
  EXPECT_EQ(mmaM16N8K8ACoord(5, 3).col, 3u);
  EXPECT_EQ(mmaM16N8K8BCoord(5, 1).row, 3u);
  EXPECT_EQ(mmaM16N8K8BCoord(5, 1).col, 1u);
}

TEST(MmaFragmentsTest, EvenElementsAreTheLowHalf) {
  EXPECT_EQ(mmaFragmentHalf(0xabcd1234u, 0), 0x1234);
  EXPECT_EQ(mmaFragmentHalf(0xabcd1234u, 1), 0xabcd);
  EXPECT_EQ(mmaFragmentHalf(0xabcd1234u, 6), 0x1234);
}

// Small integers in f16 (and bf16): value v in [-8, 8] as a bit pattern,
// built from the format's fields rather than with the library.
uint16_t smallIntF16(int v) {
  if (v == 0)
    return 0;
  unsigned magnitude = std::abs(v), exponent = 0;
  while ((magnitude >> (exponent + 1)) != 0)
    ++exponent;
  unsigned mantissa = (magnitude << (10 - exponent)) & 0x3ff;
  return (v < 0 ? 0x8000 : 0) | (exponent + 15) << 10 | mantissa;
}
uint16_t smallIntBF16(int v) {
  if (v == 0)
    return 0;
  unsigned magnitude = std::abs(v), exponent = 0;
  while ((magnitude >> (exponent + 1)) != 0)
    ++exponent;
  unsigned mantissa = (magnitude << (7 - exponent)) & 0x7f;
  return (v < 0 ? 0x8000 : 0) | (exponent + 127) << 7 | mantissa;
}

TEST(MmaFragmentsTest, SmallIntEncodings) {
  EXPECT_EQ(smallIntF16(1), 0x3c00);
  EXPECT_EQ(smallIntF16(-3), 0xc200);
  EXPECT_EQ(smallIntF16(8), 0x4800);
  EXPECT_EQ(smallIntBF16(1), 0x3f80);
  EXPECT_EQ(smallIntBF16(-3), 0xc040);
}

/// A full product through the fragment maps against a plain triple loop.
/// The entries are small integers, so every sum is exact and the reference
/// and the emulator must agree bit for bit whatever the order.
void checkFullProduct(MmaInputType type, uint16_t (*encode)(int)) {
  int matrixA[16][16], matrixB[16][8];
  float matrixC[16][8];
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 16; ++k)
      matrixA[r][k] = (r * 7 + k * 3) % 17 - 8;
  for (int k = 0; k < 16; ++k)
    for (int c = 0; c < 8; ++c)
      matrixB[k][c] = (k * 5 + c * 11) % 13 - 6;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 8; ++c)
      matrixC[r][c] = 0.5f * (r - c);

  MmaARegisters a{};
  MmaBRegisters b{};
  MmaCRegisters c{};
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (unsigned i = 0; i < 8; ++i) {
      MatrixCoord at = mmaM16N8K16ACoord(lane, i);
      a[lane][i / 2] |= uint32_t(encode(matrixA[at.row][at.col]))
                        << (16 * (i % 2));
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K16BCoord(lane, i);
      b[lane][i / 2] |= uint32_t(encode(matrixB[at.row][at.col]))
                        << (16 * (i % 2));
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K16CCoord(lane, i);
      c[lane][i] = matrixC[at.row][at.col];
    }
  }

  MmaCRegisters d = mmaM16N8K16(type, a, b, c);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K16CCoord(lane, i);
      float expected = matrixC[at.row][at.col];
      for (int k = 0; k < 16; ++k)
        expected += float(matrixA[at.row][k] * matrixB[k][at.col]);
      EXPECT_EQ(d[lane][i], expected) << "D[" << at.row << "][" << at.col
                                      << "] in lane " << lane << " d" << i;
    }
}

TEST(MmaFragmentsTest, FullF16ProductMatchesTripleLoop) {
  checkFullProduct(MmaInputType::F16, smallIntF16);
}

TEST(MmaFragmentsTest, FullBF16ProductMatchesTripleLoop) {
  checkFullProduct(MmaInputType::BF16, smallIntBF16);
}

/// m16n8k8 through its own fragment maps against a triple loop; the
/// entries are small integers, so the sums are exact.
void checkFullK8Product(MmaInputType type, uint16_t (*encode)(int)) {
  int matrixA[16][8], matrixB[8][8];
  float matrixC[16][8];
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 8; ++k)
      matrixA[r][k] = (r * 5 + k * 7) % 15 - 7;
  for (int k = 0; k < 8; ++k)
    for (int c = 0; c < 8; ++c)
      matrixB[k][c] = (k * 3 + c * 13) % 11 - 5;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 8; ++c)
      matrixC[r][c] = 0.25f * (2 * r - 3 * c);
  MmaK8ARegisters a{};
  MmaK8BRegisters b{};
  MmaCRegisters c{};
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K8ACoord(lane, i);
      a[lane][i / 2] |= uint32_t(encode(matrixA[at.row][at.col]))
                        << (16 * (i % 2));
    }
    for (unsigned i = 0; i < 2; ++i) {
      MatrixCoord at = mmaM16N8K8BCoord(lane, i);
      b[lane][0] |= uint32_t(encode(matrixB[at.row][at.col])) << (16 * i);
    }
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K16CCoord(lane, i);
      c[lane][i] = matrixC[at.row][at.col];
    }
  }
  MmaCRegisters d = mmaM16N8K8(type, a, b, c);
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      MatrixCoord at = mmaM16N8K16CCoord(lane, i);
      float expected = matrixC[at.row][at.col];
      for (int k = 0; k < 8; ++k)
        expected += float(matrixA[at.row][k] * matrixB[k][at.col]);
      EXPECT_EQ(d[lane][i], expected) << "D[" << at.row << "][" << at.col
                                      << "] in lane " << lane << " d" << i;
    }
}

TEST(MmaFragmentsTest, FullK8ProductsMatchTripleLoop) {
  checkFullK8Product(MmaInputType::F16, smallIntF16);
  checkFullK8Product(MmaInputType::BF16, smallIntBF16);
}

TEST(MmaFragmentsTest, SumIsRoundedOnceToF32) {
  // Row 0 of A is [1, 2^-24 (f16 subnormal 0x0001), 0...], column 0 of B is
  // [1, 1, 0...], C = 2^24: the exact sum 2^24 + 1 + 2^-24 rounds once to
  // 2^24 + 2 (above the tie at 2^24 + 1); summing in f32 in k order would
  // give 2^24.
  MmaARegisters a{};
  MmaBRegisters b{};
  MmaCRegisters c{};
  // Lane 0 holds A[0][0] (a0, low half of reg 0) and A[0][1] (a1, high
  // half), B[0][0] (b0) and B[1][0] (b1), and C[0][0] (c0).
  a[0][0] = 0x0001u << 16 | 0x3c00u;
  b[0][0] = 0x3c00u << 16 | 0x3c00u;
  c[0][0] = 16777216.0f;
  MmaCRegisters d = mmaM16N8K16(MmaInputType::F16, a, b, c);
  EXPECT_EQ(d[0][0], 16777218.0f);
  EXPECT_EQ(d[0][1], 0.0f);
}

TEST(MmaFragmentsTest, NanResultIsCanonical) {
  MmaARegisters a{};
  MmaBRegisters b{};
  MmaCRegisters c{};
  a[0][0] = 0x7c00u; // A[0][0] = +inf, times B[0][0] = 0
  MmaCRegisters d = mmaM16N8K16(MmaInputType::F16, a, b, c);
  uint32_t bitsOut;
  std::memcpy(&bitsOut, &d[0][0], sizeof(bitsOut));
  EXPECT_EQ(bitsOut, 0x7fffffffu);
}

} // namespace
