//===- CudaKernelsTest.cpp - nvcc-compiled CUDA C++ kernels ---------------===//
//
// CUDA C++ kernels compiled by nvcc (CUDA 13.0, `nvcc -O3 --ptx
// -arch=sm_80`; the .cu and .ptx files are in Inputs/) run by launchKernel
// on pseudo-random inputs and compared with host references computed here
// in double, without the emulator's arithmetic helpers: a vector add and a
// shared-memory tiled matmul in f32 and with f16 inputs. Each kernel also
// has a launch that breaks one of its assumptions, which a checker must
// report.
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

//===----------------------------------------------------------------------===//
// tiled_matmul.cu
//===----------------------------------------------------------------------===//

/// The f16 encoding of a value of Random::halfGrid (zero or a normal f16
/// number), built from its f32 encoding: the exponent rebiased, the
/// significand's low 13 bits dropped (they are zero).
uint16_t halfOf(float value) {
  uint32_t bits = bitsOf(value);
  uint16_t sign = (bits >> 16) & 0x8000;
  if (value == 0)
    return sign;
  int exponent = int((bits >> 23) & 0xff) - 127 + 15;
  EXPECT_TRUE(exponent > 0 && exponent < 31 && (bits & 0x1fff) == 0) << value;
  return sign | uint16_t(exponent << 10) | uint16_t((bits >> 13) & 0x3ff);
}

/// Runs matmulF32 or matmulF16 (`halfInputs`) on M x K and K x N inputs
/// with dimensions that are not multiples of the 16 x 16 tile, and compares
/// with the product in double.
void checkTiledMatmul(bool halfInputs) {
  auto module = parsePtx(readInput("tiled_matmul.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned m = 37, n = 29, k = 45, tile = 16;
  Random random(halfInputs ? 7 : 5);
  std::vector<float> a(m * k), b(k * n);
  for (float &x : a)
    x = halfInputs ? random.halfGrid() : random.unit();
  for (float &x : b)
    x = halfInputs ? random.halfGrid() : random.unit();
  DeviceMemory memory;
  unsigned elementBytes = halfInputs ? 2 : 4;
  uint64_t aAddr = memory.allocate(m * k * elementBytes),
           bAddr = memory.allocate(k * n * elementBytes),
           cAddr = memory.allocate(m * n * 4);
  if (halfInputs) {
    std::vector<uint16_t> aHalves, bHalves;
    for (float x : a)
      aHalves.push_back(halfOf(x));
    for (float x : b)
      bHalves.push_back(halfOf(x));
    expectSuccess(memory.writeArray<uint16_t>(aAddr, aHalves));
    expectSuccess(memory.writeArray<uint16_t>(bAddr, bHalves));
  } else {
    expectSuccess(memory.writeArray<float>(aAddr, a));
    expectSuccess(memory.writeArray<float>(bAddr, b));
  }
  LaunchConfig config = launch(
      {(n + tile - 1) / tile, (m + tile - 1) / tile, 1}, {tile, tile, 1});
  auto report = launchKernel(*module, halfInputs ? "matmulF16" : "matmulF32",
                             config, {aAddr, bAddr, cAddr, m, n, k}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  // Two barriers per tile of K per CTA.
  EXPECT_EQ(report->barriers, uint64_t(config.grid[0] * config.grid[1] * 2 *
                                       ((k + tile - 1) / tile)));
  auto c = readBack<float>(memory, cAddr, m * n);
  for (unsigned i = 0; i < m; ++i)
    for (unsigned j = 0; j < n; ++j) {
      double exact = 0, magnitude = 0;
      for (unsigned l = 0; l < k; ++l) {
        exact += double(a[i * k + l]) * b[l * n + j];
        magnitude += std::fabs(double(a[i * k + l]) * b[l * n + j]);
      }
      // The kernel accumulates in f32, one rounding per step (nvcc
      // contracts the multiply-add into fma.rn.f32): for a sum of k
      // products the error is at most gamma_k = k u / (1 - k u) times the
      // sum of their magnitudes, u = 2^-24 (Higham, "Accuracy and
      // Stability of Numerical Algorithms", 3.1). The f16 inputs convert
      // to f32 exactly. The double reference is exact to 2^-53 relative.
      double u = 0x1p-24, gamma = k * u / (1 - k * u);
      EXPECT_NEAR(c[i * n + j], exact, gamma * magnitude + 1e-30)
          << i << "," << j;
      // Stronger: the emulator performs fma.rn.f32 as IEEE fused
      // multiply-adds, so the kernel's order (the zero padding of the last
      // tile adds +0) replayed with the host's fmaf agrees bit for bit.
      float replay = 0;
      for (unsigned l = 0; l < k; ++l)
        replay = std::fmaf(a[i * k + l], b[l * n + j], replay);
      EXPECT_EQ(bitsOf(c[i * n + j]), bitsOf(replay)) << i << "," << j;
    }
}

TEST(CudaKernelsTest, TiledMatmulF32MatchesHost) { checkTiledMatmul(false); }

TEST(CudaKernelsTest, TiledMatmulF16InputsMatchHost) { checkTiledMatmul(true); }

TEST(CudaKernelsTest, TiledMatmulWithTooFewThreadsIsAnInitcheckError) {
  // The kernel assumes blocks of 16 x 16 threads, one per tile element.
  // With 16 x 8, rows 8 to 15 of the shared tiles are never written, and
  // the inner product's first read of Bs[8][tx] is reported.
  auto module = parsePtx(readInput("tiled_matmul.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned m = 16, n = 16, k = 16;
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(m * k * 4),
           bAddr = memory.allocate(k * n * 4),
           cAddr = memory.allocate(m * n * 4);
  expectSuccess(
      memory.writeArray<float>(aAddr, std::vector<float>(m * k, 1.0f)));
  expectSuccess(
      memory.writeArray<float>(bAddr, std::vector<float>(k * n, 1.0f)));
  std::string message =
      failure(launchKernel(*module, "matmulF32", launch({1, 1, 1}, {16, 8, 1}),
                           {aAddr, bAddr, cAddr, m, n, k}, memory));
  EXPECT_NE(message.find("'ld.shared.f32': initcheck: reads bytes never "
                         "written: shared read of 4 bytes"),
            std::string::npos)
      << message;
}

} // namespace
