//===- CudaKernelsTest.cpp - nvcc-compiled CUDA C++ kernels ---------------===//
//
// CUDA C++ kernels compiled by nvcc (CUDA 13.0, `nvcc -O3 --ptx
// -arch=sm_80`; the .cu and .ptx files are in Inputs/) run by launchKernel
// on pseudo-random inputs and compared with host references computed here
// in double, without the emulator's arithmetic helpers: a vector add, a
// shared-memory tiled matmul in f32 and with f16 inputs, and mma.sync
// m16n8k16 products in f16 and bf16. Each kernel also has a launch that
// breaks one of its assumptions, which a checker must report.
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

//===----------------------------------------------------------------------===//
// mma_m16n8k16.cu
//===----------------------------------------------------------------------===//

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// `value` rounded to bf16, to nearest with ties to even (cvt.rn.bf16.f32):
/// the upper 16 bits of the f32 encoding, plus one when the lower 16 are
/// above half, or exactly half with the upper bits odd. For finite values;
/// a carry into the exponent rounds up to the next binade (or infinity) as
/// it should.
uint16_t bf16Of(float value) {
  uint32_t bits = bitsOf(value);
  uint32_t lower = bits & 0xffff, upper = bits >> 16;
  if (lower > 0x8000 || (lower == 0x8000 && (upper & 1)))
    ++upper;
  return uint16_t(upper);
}

float floatOfBf16(uint16_t bf16) { return floatOf(uint32_t(bf16) << 16); }

/// Inputs and outputs of one mmaF16 or mmaBF16 launch; A is m x k
/// row-major, B k x n column-major, C and D m x n row-major.
struct MmaProblem {
  unsigned m, n, k;
  std::vector<float> a, b, c;
};

MmaProblem makeMmaProblem(unsigned m, unsigned n, unsigned k, bool bf16,
                          uint32_t seed) {
  Random random(seed);
  MmaProblem p{m, n, k, {}, {}, {}};
  // f16 inputs on a grid exact in f16; bf16 inputs with full f32
  // significands, which the kernel rounds to bf16.
  for (unsigned i = 0; i < m * k; ++i)
    p.a.push_back(bf16 ? random.unit() : random.halfGrid());
  for (unsigned i = 0; i < k * n; ++i)
    p.b.push_back(bf16 ? random.unit() : random.halfGrid());
  for (unsigned i = 0; i < m * n; ++i)
    p.c.push_back(random.unit());
  return p;
}

/// Compares D with A B + C in double. `rounded` maps an input as the
/// kernel sees it in the product (identity for f16, bf16 rounding).
void expectMmaResult(const MmaProblem &p, llvm::ArrayRef<float> d,
                     float (*rounded)(float)) {
  for (unsigned i = 0; i < p.m; ++i)
    for (unsigned j = 0; j < p.n; ++j) {
      double exact = p.c[i * p.n + j], magnitude = std::fabs(exact);
      for (unsigned l = 0; l < p.k; ++l) {
        double product =
            double(rounded(p.a[i * p.k + l])) * rounded(p.b[j * p.k + l]);
        exact += product;
        magnitude += std::fabs(product);
      }
      // Products of f16 or bf16 values are exact in f32 (22 and 16
      // significant bits). The ISA leaves the accumulation's order and
      // internal precision to the implementation, but each mma.sync
      // rounds its D to f32, and the kernel chains k / 16 of them. Allowing
      // one f32 ulp (2^-23 relative, which covers truncation as well as
      // rounding to nearest) of the running magnitude per mma bounds the
      // error of any such accumulation.
      double tolerance = (p.k / 16) * 0x1p-23 * magnitude;
      EXPECT_NEAR(d[i * p.n + j], exact, tolerance) << i << "," << j;
    }
}

float identity(float x) { return x; }
float roundToBf16(float x) { return floatOfBf16(bf16Of(x)); }

/// Runs mmaF16 on a grid of (n / 8) x (m / 16) single-warp CTAs.
void checkMmaF16(unsigned m, unsigned n, unsigned k) {
  auto module = parsePtx(readInput("mma_m16n8k16.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  MmaProblem p = makeMmaProblem(m, n, k, /*bf16=*/false, m * n + k);
  std::vector<uint16_t> aHalves, bHalves;
  for (float x : p.a)
    aHalves.push_back(halfOf(x));
  for (float x : p.b)
    bHalves.push_back(halfOf(x));
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(m * k * 2),
           bAddr = memory.allocate(k * n * 2),
           cAddr = memory.allocate(m * n * 4),
           dAddr = memory.allocate(m * n * 4);
  expectSuccess(memory.writeArray<uint16_t>(aAddr, aHalves));
  expectSuccess(memory.writeArray<uint16_t>(bAddr, bHalves));
  expectSuccess(memory.writeArray<float>(cAddr, p.c));
  auto report =
      launchKernel(*module, "mmaF16", launch({n / 8, m / 16, 1}, {32, 1, 1}),
                   {aAddr, bAddr, cAddr, dAddr, k}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  expectMmaResult(p, readBack<float>(memory, dAddr, m * n), identity);
}

TEST(CudaKernelsTest, MmaF16OneTileMatchesHost) { checkMmaF16(16, 8, 16); }

TEST(CudaKernelsTest, MmaF16TilesAndKLoopMatchHost) {
  // K = 80: nvcc's loop unrolled by four, then one more step.
  checkMmaF16(48, 16, 80);
}

void checkMmaBF16(unsigned m, unsigned n, unsigned k) {
  auto module = parsePtx(readInput("mma_m16n8k16.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  MmaProblem p = makeMmaProblem(m, n, k, /*bf16=*/true, m * n + k);
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(m * k * 4),
           bAddr = memory.allocate(k * n * 4),
           cAddr = memory.allocate(m * n * 4),
           dAddr = memory.allocate(m * n * 4),
           dBf16Addr = memory.allocate(m * n * 2);
  expectSuccess(memory.writeArray<float>(aAddr, p.a));
  expectSuccess(memory.writeArray<float>(bAddr, p.b));
  expectSuccess(memory.writeArray<float>(cAddr, p.c));
  auto report =
      launchKernel(*module, "mmaBF16", launch({n / 8, m / 16, 1}, {32, 1, 1}),
                   {aAddr, bAddr, cAddr, dAddr, dBf16Addr, k}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto d = readBack<float>(memory, dAddr, m * n);
  expectMmaResult(p, d, roundToBf16);
  // The bf16 copy of D is D rounded to nearest even (cvt.rn.bf16.f32): bit
  // for bit the host's rounding of the kernel's own f32 result.
  auto dBf16 = readBack<uint16_t>(memory, dBf16Addr, m * n);
  for (unsigned i = 0; i < m * n; ++i)
    EXPECT_EQ(dBf16[i], bf16Of(d[i])) << "element " << i << ": " << d[i];
}

TEST(CudaKernelsTest, MmaBF16OneTileMatchesHost) { checkMmaBF16(16, 8, 16); }

TEST(CudaKernelsTest, MmaBF16TilesAndKLoopMatchHost) {
  checkMmaBF16(32, 24, 80);
}

TEST(CudaKernelsTest, MmaWithHalfAWarpIsAnError) {
  // mma.sync.aligned needs all 32 lanes of the warp; a CTA of 16 threads
  // has only half of them.
  auto module = parsePtx(readInput("mma_m16n8k16.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned m = 16, n = 8, k = 16;
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(m * k * 2),
           bAddr = memory.allocate(k * n * 2),
           cAddr = memory.allocate(m * n * 4),
           dAddr = memory.allocate(m * n * 4);
  expectSuccess(
      memory.writeArray<uint16_t>(aAddr, std::vector<uint16_t>(m * k, 0)));
  expectSuccess(
      memory.writeArray<uint16_t>(bAddr, std::vector<uint16_t>(k * n, 0)));
  expectSuccess(memory.writeArray<float>(cAddr, std::vector<float>(m * n, 0)));
  std::string message =
      failure(launchKernel(*module, "mmaF16", launch({1, 1, 1}, {16, 1, 1}),
                           {aAddr, bAddr, cAddr, dAddr, k}, memory));
  EXPECT_NE(message.find("mma.sync.aligned needs all 32 lanes but lanes "
                         "0x0000ffff execute together"),
            std::string::npos)
      << message;
}

} // namespace
