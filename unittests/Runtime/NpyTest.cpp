//===- NpyTest.cpp - mirage-run's .npy reader and writer ------------------===//

#include "mirage/Runtime/Runtime.h" // the entry header compiles on its own
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/bit.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

using namespace mirage;

namespace {

/// Bitwise equality, so that -0 and NaN payloads count.
void expectSameBits(const npy::Array &a, const npy::Array &b) {
  ASSERT_EQ(llvm::ArrayRef<int64_t>(a.shape), llvm::ArrayRef<int64_t>(b.shape));
  ASSERT_EQ(a.data.size(), b.data.size());
  for (size_t i = 0; i < a.data.size(); ++i)
    EXPECT_EQ(llvm::bit_cast<uint64_t>(a.data[i]),
              llvm::bit_cast<uint64_t>(b.data[i]))
        << "element " << i;
}

TEST(NpyTest, HalfDecodingMatchesAPFloatForEveryPattern) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
    double expected = half.convertToDouble();
    double actual = npy::halfToDouble(bits);
    if (std::isnan(expected))
      EXPECT_TRUE(std::isnan(actual)) << bits;
    else
      EXPECT_EQ(llvm::bit_cast<uint64_t>(expected),
                llvm::bit_cast<uint64_t>(actual))
          << bits;
  }
}

TEST(NpyTest, RoundTripKeepsShapeAndBits) {
  double inf = std::numeric_limits<double>::infinity();
  double nan = std::numeric_limits<double>::quiet_NaN();
  npy::Array arrays[] = {
      npy::Array({}, {3.5}),
      npy::Array({5}, {-0.0, inf, -inf, nan, 4.9406564584124654e-324}),
      npy::Array({2, 3, 1}, {1, 2, 3, 4, 5, 0.1}),
      npy::Array({2, 0, 3}, std::vector<double>{}),
  };
  for (const npy::Array &array : arrays) {
    std::string bytes = npy::serialize(array);
    llvm::Expected<npy::Array> back = npy::parse(bytes, "round-trip");
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    expectSameBits(array, *back);
  }
}

TEST(NpyTest, WritesVersion1WithAlignedHeader) {
  std::string bytes = npy::serialize(npy::Array({2, 3}, 0.0));
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t headerEnd = 10 + (static_cast<uint8_t>(bytes[8]) |
                           static_cast<uint8_t>(bytes[9]) << 8);
  EXPECT_EQ(headerEnd % 64, 0u);
  EXPECT_EQ(bytes[headerEnd - 1], '\n');
  EXPECT_EQ(bytes.substr(10, 59),
            "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }");
  EXPECT_EQ(bytes.size(), headerEnd + 6 * 8);
}

TEST(NpyTest, LongHeadersSwitchToVersion2) {
  // 30000 dimensions of size 1 take about 90000 header characters, more
  // than version 1.0's 16-bit header length holds.
  npy::Array array(npy::Array(std::vector<int64_t>(30000, 1), {7.0}));
  std::string bytes = npy::serialize(array);
  EXPECT_EQ(bytes[6], 2);
  llvm::Expected<npy::Array> back = npy::parse(bytes, "v2");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  expectSameBits(array, *back);
}

TEST(NpyTest, EveryTruncationIsAnErrorNotACrash) {
  std::string bytes = npy::serialize(npy::Array({3}, {1.0, 2.0, 3.0}));
  for (size_t n = 0; n < bytes.size(); ++n) {
    llvm::Expected<npy::Array> parsed =
        npy::parse(llvm::StringRef(bytes).take_front(n), "cut");
    EXPECT_FALSE(bool(parsed)) << "prefix of " << n << " bytes";
    if (!parsed) {
      EXPECT_TRUE(llvm::StringRef(llvm::toString(parsed.takeError()))
                      .starts_with("cut: "));
    }
  }
}

TEST(NpyTest, ReadsSinglePrecision) {
  // A '<f4' file as NumPy writes it, with the elements 1.5 and -0.1f.
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  header.append(128 - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size());
  bytes += '\0';
  bytes += header;
  for (float f : {1.5f, -0.1f})
    for (int i = 0; i < 4; ++i)
      bytes += static_cast<char>(llvm::bit_cast<uint32_t>(f) >> (8 * i));
  llvm::Expected<npy::Array> parsed = npy::parse(bytes, "f4");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  expectSameBits(*parsed, npy::Array({2}, {1.5, double(-0.1f)}));
}

} // namespace
