//===- CudaKernelsTest.cpp - nvcc-compiled CUDA C++ kernels ---------------===//
//
// CUDA C++ kernels compiled by nvcc (CUDA 13.0, `nvcc -O3 --ptx
// -arch=sm_80`; the .cu and .ptx files are in Inputs/) run by launchKernel
// on pseudo-random inputs and compared with host references computed here
// in double, without the emulator's arithmetic helpers: a vector add, a
// shared-memory tiled matmul in f32 and with f16 inputs, mma.sync m16n8k16
// products in f16 and bf16, and half, bf16 and packed arithmetic, copysign
// and the integer bit instructions (half_bf16_int.cu, for sm_80 and
// sm_90). The first kernels each have a launch that breaks one of their
// assumptions, which a checker must report.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "EmulatorTestSupport.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

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
  // The unwritten tile elements enter the sums, which the kernel stores.
  EXPECT_NE(message.find("initcheck: the stored data uses bytes never "
                         "written: shared read of 4 bytes"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("by 'ld.shared.f32'"), std::string::npos) << message;
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

//===----------------------------------------------------------------------===//
// half_bf16_int.cu
//===----------------------------------------------------------------------===//

// The 16-bit formats, written here from their definitions: `fraction`
// stored significand bits, `minExponent` the exponent of the smallest
// normal binade, `infinity` the encoding of +inf.
struct Half16Format {
  int fraction, minExponent;
  uint16_t infinity;

  bool isNan(uint16_t bits) const { return (bits & 0x7fff) > infinity; }
  double value(uint16_t bits) const {
    int exponentField = (bits & 0x7fff) >> fraction;
    int significand = bits & ((1 << fraction) - 1);
    double magnitude =
        exponentField == 0
            ? std::ldexp(double(significand), minExponent - fraction)
            : std::ldexp(double(significand + (1 << fraction)),
                         exponentField - 1 + minExponent - fraction);
    return (bits & 0x8000) ? -magnitude : magnitude;
  }
  /// `exact` rounded once to the nearest value of the format, ties to the
  /// even significand, as the multiple of the spacing of its binade
  /// (2^(e - fraction) in [2^e, 2^(e+1)), the subnormal spacing below the
  /// normal range) nearest to it; infinity when that is 2^(emax + 1).
  uint16_t nearest(double exact) const {
    uint16_t sign = std::signbit(exact) ? 0x8000 : 0;
    double magnitude = std::fabs(exact);
    if (magnitude == 0)
      return sign;
    int exponent = std::max(std::ilogb(magnitude), minExponent);
    double spacing = std::ldexp(1.0, exponent - fraction);
    double units = magnitude / spacing; // exact: a power of two
    double below = std::floor(units), excess = units - below;
    if (excess > 0.5 || (excess == 0.5 && std::fmod(below, 2.0) == 1.0))
      below += 1;
    double rounded = below * spacing;
    int maxExponent = (infinity >> fraction) - 2 + minExponent;
    if (rounded >= std::ldexp(1.0, maxExponent + 1))
      return sign | infinity;
    if (rounded < std::ldexp(1.0, minExponent))
      return sign | uint16_t(below); // subnormal (or the smallest normal)
    int e = std::ilogb(rounded);
    double significand = rounded / std::ldexp(1.0, e - fraction);
    return sign | uint16_t((e - minExponent + 1) << fraction) |
           uint16_t(significand - (1 << fraction));
  }
};

constexpr Half16Format kF16{10, -14, 0x7c00};
constexpr Half16Format kBF16{7, -126, 0x7f80};

/// The ISA's min/max for one half (§9.7.4.7, §9.7.4.8): a NaN operand is
/// ignored unless `nanModifier`, -0 < +0. nullopt for a NaN result.
std::optional<uint16_t> minMaxRef(const Half16Format &format, uint16_t a,
                                  uint16_t b, bool isMax, bool nanModifier) {
  bool aNan = format.isNan(a), bNan = format.isNan(b);
  if ((aNan && bNan) || (nanModifier && (aNan || bNan)))
    return std::nullopt;
  if (aNan)
    return b;
  if (bNan)
    return a;
  double x = format.value(a), y = format.value(b);
  bool aLess = x < y || (x == 0 && y == 0 && (a & 0x8000) && !(b & 0x8000));
  return aLess != isMax ? a : b;
}

/// The expected result of one half: a bit pattern, or a NaN (`canonical`
/// where the ISA says the result is the canonical NaN, else any NaN).
struct HalfExpectation {
  std::optional<uint16_t> bits;
  bool canonical = false;
};

HalfExpectation exactly(uint16_t bits) { return {bits, false}; }
HalfExpectation anyNan() { return {std::nullopt, false}; }
HalfExpectation canonicalNan() { return {std::nullopt, true}; }

/// An arithmetic result rounded once; NaN if the exact result is.
HalfExpectation rounded(const Half16Format &format, double exact) {
  return std::isnan(exact) ? anyNan() : exactly(format.nearest(exact));
}

void expectHalf(const Half16Format &format, uint16_t got, HalfExpectation want,
                const std::string &where) {
  if (want.bits)
    EXPECT_EQ(got, *want.bits)
        << where << std::hex << ": got " << got << ", want " << *want.bits;
  else if (want.canonical)
    EXPECT_EQ(got, 0x7fff) << where << ": want the canonical NaN";
  else
    EXPECT_TRUE(format.isNan(got))
        << where << std::hex << ": got " << got << ", want a NaN";
}

/// .sat: clamped to [0, 1], NaN to +0 (the ISA, §9.7.4).
HalfExpectation saturated(const Half16Format &format, double exact) {
  if (std::isnan(exact))
    return exactly(0);
  uint16_t bits = format.nearest(exact);
  double value = format.value(bits);
  if (value <= 0) // -0 too
    return exactly(0);
  return exactly(value >= 1 ? format.nearest(1.0) : bits);
}

/// .relu: negative results clamp to +0, a NaN result is the canonical NaN.
HalfExpectation relu(const Half16Format &format, double exact) {
  if (std::isnan(exact))
    return canonicalNan();
  uint16_t bits = format.nearest(exact);
  return exactly(format.value(bits) < 0 ? 0 : bits);
}

/// Test data for one 16-bit format: values whose sums and products the
/// host computes exactly in double, so that rounding once here is the
/// correctly rounded result; ties to even come up often. f16 values are
/// multiples of 2^-10 in [-1, 1]; bf16 values are m * 2^e with |m| < 256
/// and e in [-10, 0].
std::vector<uint16_t> halfData(const Half16Format &format, Random &random,
                               size_t count) {
  std::vector<uint16_t> data;
  for (size_t i = 0; i < count; ++i) {
    double value = format.fraction == 10
                       ? double(random.halfGrid())
                       : std::ldexp(double(int(random.next() % 511) - 255),
                                    -int(random.next() % 11));
    uint16_t bits = format.nearest(value);
    EXPECT_EQ(format.value(bits), value); // exact
    data.push_back(bits);
  }
  return data;
}

/// Puts NaNs and signed zeros into the x (operand 0), y (1) or z (2) data
/// of the *_more kernels: both x and y are NaNs at every 13th element, one
/// of them at every 17th or 19th; x and y are zeros of opposite signs at
/// every 7th. z is never -0, so that no fma result is -0 (.relu's -0 is a
/// case the ISA's text leaves open).
void addSpecials(const Half16Format &format, std::vector<uint16_t> &data,
                 unsigned operand) {
  bool f16 = format.fraction == 10;
  const uint16_t nans[3] = {uint16_t(f16 ? 0x7e00 : 0x7fc0),
                            uint16_t(f16 ? 0xfe01 : 0xffc1),
                            uint16_t(f16 ? 0x7c01 : 0x7f81)};
  for (size_t i = 0; i < data.size(); ++i) {
    bool nan = operand == 0   ? i % 13 == 0 || i % 17 == 0
               : operand == 1 ? i % 13 == 0 || i % 19 == 0
                              : i % 23 == 0;
    if (nan)
      data[i] = nans[operand];
    else if (i % 7 == 0 && operand < 2)
      data[i] = ((i % 14 == 0) == (operand == 0)) ? 0x8000 : 0x0000;
  }
}

/// Packs element pairs of `low` and `high` into .f16x2/.bf16x2 words.
std::vector<uint32_t> packPairs(llvm::ArrayRef<uint16_t> low,
                                llvm::ArrayRef<uint16_t> high) {
  std::vector<uint32_t> words;
  for (size_t i = 0; i < low.size(); ++i)
    words.push_back(uint32_t(high[i]) << 16 | low[i]);
  return words;
}

constexpr const char *kHalfBf16IntPtx[] = {"half_bf16_int.sm_80.ptx",
                                           "half_bf16_int.sm_90.ptx"};

/// Launches `kernel` of `file` over n elements (CTAs of 128 threads, the
/// last one partly past n) on the given buffers and n.
void launchElementwise(llvm::StringRef file, llvm::StringRef kernel,
                       DeviceMemory &memory, std::vector<uint64_t> args,
                       unsigned n) {
  auto module = parsePtx(readInput(file));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  args.push_back(n);
  auto report =
      launchKernel(*module, kernel,
                   launch({(n + 127) / 128, 1, 1}, {128, 1, 1}), args, memory);
  ASSERT_TRUE(bool(report)) << file.str() << " " << kernel.str() << ": "
                            << llvm::toString(report.takeError());
}

template <typename T>
uint64_t upload(DeviceMemory &memory, const std::vector<T> &values) {
  uint64_t address = memory.allocate(values.size() * sizeof(T));
  expectSuccess(memory.writeArray<T>(address, values));
  return address;
}

TEST(CudaKernelsTest, Half2OpsMatchHostBitForBit) {
  // z = x + y; z = z * y; z = fma(x, y, z) per half, each rounded once.
  const unsigned n = 1000;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(21);
    auto x = halfData(kF16, random, 2 * n), y = halfData(kF16, random, 2 * n);
    DeviceMemory memory;
    uint64_t aAddr =
                 upload(memory, packPairs({x.data(), n}, {x.data() + n, n})),
             bAddr =
                 upload(memory, packPairs({y.data(), n}, {y.data() + n, n})),
             cAddr = memory.allocate(n * 4);
    launchElementwise(file, "half2_ops", memory, {aAddr, bAddr, cAddr}, n);
    auto c = readBack<uint32_t>(memory, cAddr, n);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned half = 0; half < 2; ++half) {
        double a = kF16.value(x[i + half * n]), b = kF16.value(y[i + half * n]);
        double z = kF16.value(kF16.nearest(a + b));
        z = kF16.value(kF16.nearest(z * b));
        expectHalf(kF16, uint16_t(c[i] >> (16 * half)),
                   rounded(kF16, a * b + z),
                   llvm::formatv("{0} element {1}.{2}", file, i, half));
      }
  }
}

TEST(CudaKernelsTest, BF16OpsMatchHostBitForBit) {
  const unsigned n = 1000;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(22);
    auto x = halfData(kBF16, random, n), y = halfData(kBF16, random, n);
    DeviceMemory memory;
    uint64_t aAddr = upload(memory, x), bAddr = upload(memory, y),
             cAddr = memory.allocate(n * 2);
    launchElementwise(file, "bf16_ops", memory, {aAddr, bAddr, cAddr}, n);
    auto c = readBack<uint16_t>(memory, cAddr, n);
    int ties = 0;
    for (unsigned i = 0; i < n; ++i) {
      double a = kBF16.value(x[i]), b = kBF16.value(y[i]);
      double sum = a + b, z = kBF16.value(kBF16.nearest(sum));
      // A tie: the values just below and just above it round apart.
      ties += kBF16.nearest(std::nextafter(sum, -INFINITY)) !=
              kBF16.nearest(std::nextafter(sum, INFINITY));
      z = kBF16.value(kBF16.nearest(z * b));
      expectHalf(kBF16, c[i], rounded(kBF16, a * b + z),
                 llvm::formatv("{0} element {1}", file, i));
    }
    EXPECT_GT(ties, 20) << "the data should exercise ties to even";
  }
}

TEST(CudaKernelsTest, BF162OpsMatchHostBitForBit) {
  // fma(x, y, x + y) per half.
  const unsigned n = 1000;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(23);
    auto x = halfData(kBF16, random, 2 * n), y = halfData(kBF16, random, 2 * n);
    DeviceMemory memory;
    uint64_t aAddr =
                 upload(memory, packPairs({x.data(), n}, {x.data() + n, n})),
             bAddr =
                 upload(memory, packPairs({y.data(), n}, {y.data() + n, n})),
             cAddr = memory.allocate(n * 4);
    launchElementwise(file, "bf162_ops", memory, {aAddr, bAddr, cAddr}, n);
    auto c = readBack<uint32_t>(memory, cAddr, n);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned half = 0; half < 2; ++half) {
        double a = kBF16.value(x[i + half * n]),
               b = kBF16.value(y[i + half * n]);
        double sum = kBF16.value(kBF16.nearest(a + b));
        expectHalf(kBF16, uint16_t(c[i] >> (16 * half)),
                   rounded(kBF16, a * b + sum),
                   llvm::formatv("{0} element {1}.{2}", file, i, half));
      }
  }
}

/// The operations of half2_more, bf16_more and bf162_more, in their output
/// order.
enum class HalfOp {
  Sub,
  Min,
  Max,
  MinNan,
  MaxNan,
  Neg,
  Abs,
  AddSat,
  FmaRelu,
  FmaSat,
  Mul
};

HalfExpectation expectedHalfOp(const Half16Format &format, HalfOp op,
                               uint16_t a, uint16_t b, uint16_t c) {
  double x = format.value(a), y = format.value(b), z = format.value(c);
  bool nan = format.isNan(a) || format.isNan(b);
  auto fromMinMax = [&](bool isMax, bool nanModifier) {
    auto r = minMaxRef(format, a, b, isMax, nanModifier);
    return r ? exactly(*r) : nanModifier ? canonicalNan() : anyNan();
  };
  switch (op) {
  case HalfOp::Sub:
    return rounded(format, nan ? NAN : x - y);
  case HalfOp::Mul:
    return rounded(format, nan ? NAN : x * y);
  case HalfOp::Min:
    return fromMinMax(false, false);
  case HalfOp::Max:
    return fromMinMax(true, false);
  case HalfOp::MinNan:
    return fromMinMax(false, true);
  case HalfOp::MaxNan:
    return fromMinMax(true, true);
  // neg and abs of a NaN give an unspecified NaN; otherwise the sign bit.
  case HalfOp::Neg:
    return format.isNan(a) ? anyNan() : exactly(a ^ 0x8000);
  case HalfOp::Abs:
    return format.isNan(a) ? anyNan() : exactly(a & 0x7fff);
  case HalfOp::AddSat:
    return saturated(format, nan ? NAN : x + y);
  case HalfOp::FmaRelu:
    return relu(format, nan || format.isNan(c) ? NAN : x * y + z);
  case HalfOp::FmaSat:
    return saturated(format, nan || format.isNan(c) ? NAN : x * y + z);
  }
  return anyNan();
}

/// Runs one of the *_more kernels on data with NaNs and signed zeros and
/// checks each of its ten results per element (per half when packed).
void checkHalfMore(const Half16Format &format, llvm::StringRef kernel,
                   bool packed, llvm::ArrayRef<HalfOp> ops, uint32_t seed) {
  const unsigned n = 600, lanes = packed ? 2 : 1;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(seed);
    auto x = halfData(format, random, lanes * n),
         y = halfData(format, random, lanes * n),
         z = halfData(format, random, lanes * n);
    addSpecials(format, x, 0);
    addSpecials(format, y, 1);
    addSpecials(format, z, 2);
    DeviceMemory memory;
    uint64_t aAddr, bAddr, cAddr;
    if (packed) {
      aAddr = upload(memory, packPairs({x.data(), n}, {x.data() + n, n}));
      bAddr = upload(memory, packPairs({y.data(), n}, {y.data() + n, n}));
      cAddr = upload(memory, packPairs({z.data(), n}, {z.data() + n, n}));
    } else {
      aAddr = upload(memory, x);
      bAddr = upload(memory, y);
      cAddr = upload(memory, z);
    }
    uint64_t outAddr = memory.allocate(ops.size() * n * 2 * lanes);
    launchElementwise(file, kernel, memory, {aAddr, bAddr, cAddr, outAddr}, n);
    auto out = readBack<uint16_t>(memory, outAddr, ops.size() * n * lanes);
    for (unsigned k = 0; k < ops.size(); ++k)
      for (unsigned i = 0; i < n; ++i)
        for (unsigned half = 0; half < lanes; ++half) {
          unsigned e = i + half * n;
          expectHalf(format, out[(k * n + i) * lanes + half],
                     expectedHalfOp(format, ops[k], x[e], y[e], z[e]),
                     llvm::formatv("{0} {1} op {2} element {3}.{4}", file,
                                   kernel, k, i, half));
        }
  }
}

TEST(CudaKernelsTest, Half2MoreMatchesHost) {
  using O = HalfOp;
  checkHalfMore(kF16, "half2_more", true,
                {O::Sub, O::Min, O::Max, O::MinNan, O::MaxNan, O::Neg, O::Abs,
                 O::AddSat, O::FmaRelu, O::FmaSat},
                31);
}

TEST(CudaKernelsTest, BF16MoreMatchesHost) {
  using O = HalfOp;
  checkHalfMore(kBF16, "bf16_more", false,
                {O::Sub, O::Min, O::Max, O::MinNan, O::MaxNan, O::Neg, O::Abs,
                 O::AddSat, O::FmaRelu, O::FmaSat},
                32);
}

TEST(CudaKernelsTest, BF162MoreMatchesHost) {
  using O = HalfOp;
  checkHalfMore(kBF16, "bf162_more", true,
                {O::Sub, O::Min, O::Max, O::MinNan, O::MaxNan, O::Neg, O::Abs,
                 O::Mul, O::FmaRelu, O::AddSat},
                33);
}

TEST(CudaKernelsTest, GeluTanhMatchesHost) {
  // tanhf becomes ex2.approx.ftz, rcp.approx.ftz and copysign.f32 for
  // |u| >= 0.6 and an odd polynomial below: approximate, so compared with
  // the double result within a bound. The tanh is within a few f32 ulps of
  // 1 (2^-24 each), and the f32 roundings of the argument and of the
  // products add a few 2^-24 relative: far inside 1e-6 * (1 + |v|). A
  // wrong sign from copysign would be off by about |v|.
  const unsigned n = 1000;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(24);
    std::vector<float> x(n);
    for (float &v : x)
      v = 5 * random.unit();
    DeviceMemory memory;
    uint64_t xAddr = upload(memory, x), yAddr = memory.allocate(n * 4);
    launchElementwise(file, "gelu_tanh", memory, {xAddr, yAddr}, n);
    auto y = readBack<float>(memory, yAddr, n);
    for (unsigned i = 0; i < n; ++i) {
      double v = x[i];
      double u = double(0.79788456f) * (v + double(0.044715f) * v * v * v);
      double expected = 0.5 * v * (1 + std::tanh(u));
      EXPECT_NEAR(y[i], expected, 1e-6 * (1 + std::fabs(v)))
          << file << " element " << i << ": v = " << v;
    }
  }
}

// The integer references, from the ISA's and CUDA's definitions, bit by
// bit.
uint32_t popcount64(uint64_t a) {
  uint32_t count = 0;
  for (; a; a >>= 1)
    count += a & 1;
  return count;
}
uint32_t leadingZeros(uint64_t a, unsigned width) {
  uint32_t count = 0;
  while (count < width && !((a >> (width - 1 - count)) & 1))
    ++count;
  return count;
}
uint64_t reversed(uint64_t a, unsigned width) {
  uint64_t d = 0;
  for (unsigned i = 0; i < width; ++i)
    d |= ((a >> (width - 1 - i)) & 1) << i;
  return d;
}
uint32_t bfindRef(uint64_t a, unsigned width, bool isSigned, bool shiftAmount) {
  unsigned msb = width - 1;
  if (isSigned && ((a >> msb) & 1))
    a = ~a;
  for (int i = int(msb); i >= 0; --i)
    if ((a >> i) & 1)
      return shiftAmount ? msb - i : uint32_t(i);
  return 0xffffffffu;
}
uint64_t bfiRef(uint64_t a, uint64_t b, uint32_t c, uint32_t d,
                unsigned width) {
  unsigned pos = c & 0xff, len = d & 0xff;
  uint64_t f = b;
  for (unsigned i = 0; i < len && pos + i <= width - 1; ++i)
    f = (f & ~(uint64_t(1) << (pos + i))) | (((a >> i) & 1) << (pos + i));
  return f;
}
uint32_t byteOf(uint32_t a, uint32_t b, unsigned index) {
  return index < 4 ? (a >> (8 * index)) & 0xff
                   : (b >> (8 * (index - 4))) & 0xff;
}
/// prmt's modes by the pattern of the ISA's table: for selector s = c & 3,
/// byte i of d is source byte s + i (f4e), s - i mod 8 (b4e), s (rc8),
/// max(i, s) (ecl), min(i, s) (ecr), or (i & 1) + 2 (s & 1) (rc16).
uint32_t prmtModeRef(uint32_t a, uint32_t b, uint32_t c, llvm::StringRef mode) {
  unsigned s = c & 3;
  uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned index = mode == "f4e"   ? s + i
                     : mode == "b4e" ? (s - i) & 7
                     : mode == "rc8" ? s
                     : mode == "ecl" ? std::max(i, s)
                     : mode == "ecr" ? std::min(i, s)
                                     : (i & 1) + 2 * (s & 1);
    d |= byteOf(a, b, index) << (8 * i);
  }
  return d;
}

TEST(CudaKernelsTest, IntOpsMatchHost) {
  const unsigned n = 1000;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(25);
    std::vector<int32_t> a(n);
    for (int32_t &v : a)
      v = int32_t(random.next());
    a[0] = 0;
    a[1] = -1;
    a[2] = INT32_MIN;
    DeviceMemory memory;
    uint64_t aAddr = upload(memory, a), outAddr = memory.allocate(n * 4);
    launchElementwise(file, "int_ops", memory, {aAddr, outAddr}, n);
    auto out = readBack<uint32_t>(memory, outAddr, n);
    for (unsigned i = 0; i < n; ++i) {
      int32_t v = a[i];
      uint32_t u = uint32_t(v);
      // __byte_perm(v, i, 0x3210) is v; __funnelshift_l(v, i, 3) the upper
      // word of {i, v} << 3; abs and the sum wrap.
      uint32_t expected =
          popcount64(u) + leadingZeros(u, 32) + uint32_t(reversed(u, 32)) +
          uint32_t(v / 7) + uint32_t(v % 5) + u + ((i << 3) | (u >> 29)) +
          (v < 0 ? 0u - u : u) + uint32_t(std::min(v, int32_t(i)));
      EXPECT_EQ(out[i], expected) << file << " element " << i << ": " << v;
    }
  }
}

TEST(CudaKernelsTest, IntMoreMatchesHost) {
  const unsigned n = 1000, ops = 10;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(26);
    std::vector<uint32_t> a(n), b(n);
    for (unsigned i = 0; i < n; ++i) {
      a[i] = random.next();
      b[i] = random.next();
    }
    a[0] = 0;          // __ffs(0) = 0
    a[2] = 0x7fc00001; // copysign keeps a NaN's payload
    DeviceMemory memory;
    uint64_t aAddr = upload(memory, a), bAddr = upload(memory, b),
             outAddr = memory.allocate(ops * n * 4);
    launchElementwise(file, "int_more", memory, {aAddr, bAddr, outAddr}, n);
    auto out = readBack<uint32_t>(memory, outAddr, ops * n);
    for (unsigned i = 0; i < n; ++i) {
      uint32_t x = a[i], y = b[i];
      uint64_t w = uint64_t(x) << 32 | y, pair = uint64_t(y) << 32 | x;
      unsigned clamped = std::min(y >> 26, 32u);
      uint32_t lowest = 0;
      while (x && !((x >> lowest) & 1))
        ++lowest;
      uint32_t expected[ops] = {
          // __byte_perm uses three bits per selector (CUDA's definition).
          byteOf(x, y, y & 7) | byteOf(x, y, (y >> 4) & 7) << 8 |
              byteOf(x, y, (y >> 8) & 7) << 16 |
              byteOf(x, y, (y >> 12) & 7) << 24,
          byteOf(x, y, 0) | byteOf(x, y, 4) << 8 | byteOf(x, y, 1) << 16 |
              byteOf(x, y, 5) << 24,
          uint32_t(pair >> (y & 31)),
          uint32_t((pair << clamped) >> 32),
          uint32_t(pair >> clamped),
          x ? lowest + 1 : 0,
          popcount64(w),
          leadingZeros(w >> (y & 63), 64),
          uint32_t(reversed(w, 64) >> 7),
          (x & 0x7fffffffu) | (y & 0x80000000u),
      };
      for (unsigned k = 0; k < ops; ++k)
        EXPECT_EQ(out[k * n + i], expected[k])
            << file << " op " << k << " element " << i << std::hex << ": x "
            << x << " y " << y;
    }
  }
}

TEST(CudaKernelsTest, AsmBitsMatchHost) {
  const unsigned n = 500, ops = 11;
  for (const char *file : kHalfBf16IntPtx) {
    Random random(27);
    std::vector<uint32_t> a(n), b(n);
    for (unsigned i = 0; i < n; ++i) {
      a[i] = random.next();
      b[i] = random.next();
    }
    a[0] = 0xffffffffu; // bfind.s32 of -1: no non-sign bit
    a[1] = 0;
    DeviceMemory memory;
    uint64_t aAddr = upload(memory, a), bAddr = upload(memory, b),
             outAddr = memory.allocate(ops * n * 4);
    launchElementwise(file, "asm_bits", memory, {aAddr, bAddr, outAddr}, n);
    auto out = readBack<uint32_t>(memory, outAddr, ops * n);
    for (unsigned i = 0; i < n; ++i) {
      uint32_t x = a[i], y = b[i];
      uint64_t bfi64 = bfiRef(uint64_t(y) << 32 | x, x, y >> 25, x & 0x7f, 64);
      uint32_t expected[ops] = {
          uint32_t(bfiRef(x, y, y & 0x3f, x >> 26, 32)),
          bfindRef(x, 32, true, false),
          bfindRef(x >> (y & 31), 32, false, true),
          prmtModeRef(x, y, i, "f4e"),
          prmtModeRef(x, y, i, "b4e"),
          prmtModeRef(x, y, i, "rc8"),
          prmtModeRef(x, y, i, "ecl"),
          prmtModeRef(x, y, i, "ecr"),
          prmtModeRef(x, y, i, "rc16"),
          bfindRef(uint64_t(x) << 32 | y, 64, true, false),
          uint32_t(bfi64 >> 32) ^ uint32_t(bfi64),
      };
      for (unsigned k = 0; k < ops; ++k)
        EXPECT_EQ(out[k * n + i], expected[k])
            << file << " op " << k << " element " << i << std::hex << ": x "
            << x << " y " << y;
    }
  }
}

TEST(CudaKernelsTest, IntOpsPastTheirBuffersIsAMemcheckError) {
  // n larger than the buffers: thread 1000 passes the bounds check and
  // reads a[1000], just past a's 4000 bytes.
  auto module = parsePtx(readInput("half_bf16_int.sm_80.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned n = 1000;
  DeviceMemory memory;
  uint64_t aAddr = upload(memory, std::vector<int32_t>(n, 5)),
           outAddr = memory.allocate(n * 4);
  std::string message =
      failure(launchKernel(*module, "int_ops", launch({8, 1, 1}, {128, 1, 1}),
                           {aAddr, outAddr, 1024}, memory));
  EXPECT_NE(message.find("kernel 'int_ops' CTA (7,0,0) thread (104,0,0)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(llvm::formatv("'ld.global.u32': memcheck: outside "
                                       "every device buffer: global read of "
                                       "4 bytes at {0:x}",
                                       aAddr + n * 4)
                             .str()),
            std::string::npos)
      << message;
}

} // namespace
