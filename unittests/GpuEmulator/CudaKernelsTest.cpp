//===- CudaKernelsTest.cpp - nvcc-compiled CUDA C++ kernels ---------------===//
//
// CUDA C++ kernels compiled by nvcc (CUDA 13.0, `nvcc -O3 --ptx
// -arch=sm_80`; the .cu and .ptx files are in Inputs/) run by launchKernel
// on pseudo-random inputs and compared with host references computed here
// in double, without the emulator's arithmetic helpers: a vector add. Each
// kernel also has a launch that breaks one of its assumptions, which a
// checker must report.
//
//===----------------------------------------------------------------------===//

#include "GpuEmulator/Emulator.h"
#include "GpuEmulator/PtxParser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>

using namespace mirage::emulator;

namespace {

std::string readInput(llvm::StringRef name) {
  auto buffer = llvm::MemoryBuffer::getFile(
      MIRAGE_SOURCE_DIR "/unittests/GpuEmulator/Inputs/" + name.str());
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << name.str();
    return "";
  }
  return (*buffer)->getBuffer().str();
}

void expectSuccess(llvm::Error err) {
  if (err)
    ADD_FAILURE() << llvm::toString(std::move(err));
}

/// The message of a failing launch, or "" when it succeeds.
std::string failure(llvm::Expected<KernelReport> report) {
  if (report)
    return "";
  return llvm::toString(report.takeError());
}

template <typename T>
std::vector<T> readBack(DeviceMemory &memory, uint64_t address, size_t count) {
  auto values = memory.readArray<T>(address, count);
  if (!values) {
    ADD_FAILURE() << llvm::toString(values.takeError());
    return std::vector<T>(count);
  }
  return *values;
}

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

/// A deterministic pseudo-random sequence (a 32-bit LCG, high bits used),
/// so that every run sees the same inputs.
class Random {
public:
  explicit Random(uint32_t seed) : state(seed) {}
  uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state;
  }
  /// Uniform in [-1, 1) with 24 significant bits: exact in f32.
  float unit() { return float(int32_t(next() >> 8) - (1 << 23)) * 0x1p-23f; }
  /// Uniform in [-1, 1] on the grid 2^-10: exact in f16 (11-bit
  /// significand, and 2^-10 is above f16's smallest normal 2^-14).
  float halfGrid() { return float(int(next() % 2049) - 1024) * 0x1p-10f; }

private:
  uint32_t state;
};

LaunchConfig launch(std::array<unsigned, 3> grid,
                    std::array<unsigned, 3> block) {
  LaunchConfig config;
  config.grid = grid;
  config.block = block;
  return config;
}

//===----------------------------------------------------------------------===//
// vector_add.cu
//===----------------------------------------------------------------------===//

TEST(CudaKernelsTest, VectorAddMatchesHostBitForBit) {
  auto module = parsePtx(readInput("vector_add.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  // 4 CTAs of 256 threads cover 1024 > n: the last 24 threads of the last
  // CTA fail the bounds check. The buffers hold exactly n floats, so a
  // thread past the check would be a memcheck error.
  const unsigned n = 1000, block = 256, ctas = (n + block - 1) / block;
  Random random(12);
  std::vector<float> a(n), b(n);
  for (unsigned i = 0; i < n; ++i) {
    // Magnitudes 2^-8 to 2^8 apart, so that most sums round.
    a[i] = std::ldexp(random.unit(), int(random.next() % 17) - 8);
    b[i] = std::ldexp(random.unit(), int(random.next() % 17) - 8);
  }
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(n * 4), bAddr = memory.allocate(n * 4),
           cAddr = memory.allocate(n * 4);
  expectSuccess(memory.writeArray<float>(aAddr, a));
  expectSuccess(memory.writeArray<float>(bAddr, b));
  auto report =
      launchKernel(*module, "vectorAdd", launch({ctas, 1, 1}, {block, 1, 1}),
                   {aAddr, bAddr, cAddr, n}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto c = readBack<float>(memory, cAddr, n);
  for (unsigned i = 0; i < n; ++i) {
    // add.f32 rounds the exact sum to nearest f32. The double sum rounded
    // to f32 is that same value: double's 53 bits are at least 2 * 24 + 2,
    // so rounding twice cannot differ from rounding once for a sum of two
    // f32 values. Hence bit-exact.
    float expected = float(double(a[i]) + double(b[i]));
    EXPECT_EQ(bitsOf(c[i]), bitsOf(expected))
        << "i = " << i << ": " << c[i] << " vs " << expected;
  }
}

TEST(CudaKernelsTest, VectorAddPastItsBuffersIsAMemcheckError) {
  // n larger than the buffers: thread 232 of CTA 3 (i = 1000) passes the
  // bounds check and reads b[1000], just past b's 4000 bytes, in the gap
  // that separates buffers. It loads b before a (see vector_add.ptx).
  auto module = parsePtx(readInput("vector_add.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned n = 1000;
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(n * 4), bAddr = memory.allocate(n * 4),
           cAddr = memory.allocate(n * 4);
  expectSuccess(memory.writeArray<float>(aAddr, std::vector<float>(n, 1.0f)));
  expectSuccess(memory.writeArray<float>(bAddr, std::vector<float>(n, 2.0f)));
  std::string message =
      failure(launchKernel(*module, "vectorAdd", launch({4, 1, 1}, {256, 1, 1}),
                           {aAddr, bAddr, cAddr, 1024}, memory));
  EXPECT_NE(message.find("kernel 'vectorAdd' CTA (3,0,0) thread (232,0,0) "
                         "PTX line "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(llvm::formatv("'ld.global.f32': memcheck: outside "
                                       "every device buffer: global read of "
                                       "4 bytes at {0:x}",
                                       bAddr + n * 4)
                             .str()),
            std::string::npos)
      << message;
}

} // namespace
