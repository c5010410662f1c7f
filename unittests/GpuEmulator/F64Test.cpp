//===- F64Test.cpp - double precision against the PTX ISA -----------------===//
//
// f64 arithmetic (§9.7.3) as IEEE 754 binary64: nvcc's double code
// (Inputs/doubles.cu, -fmad=false so that the host repeats every rounding)
// bit for bit against the host, the directed rounding modes against their
// definition, and the forms the ISA lacks for f64 rejected.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"
#include <cmath>
#include <cstring>

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

uint64_t bitsOf(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}

TEST(F64Test, NvccDoublesMatchTheHostBitForBit) {
  auto module = parsePtx(readInput("doubles.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const int n = 200;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i - 100) * 0.37f + (i % 7 == 0 ? 1e-3f : 0.0f);
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(n * 4), out = memory.allocate(n * 4),
           dout = memory.allocate(n * 8);
  expectSuccess(memory.writeArray<float>(inAddr, in));
  LaunchConfig config;
  config.grid = {2, 1, 1};
  config.block = {128, 1, 1};
  auto report = launchKernel(*module, "doubles", config,
                             {inAddr, out, dout, uint64_t(n)}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<float> got = readBack<float>(memory, out, n);
  std::vector<double> gotD = readBack<double>(memory, dout, n);
  for (int i = 0; i < n; ++i) {
    double x = in[i];
    volatile double square = x * x; // no contraction on the host either
    double y = 1.0 / (square + 0.5) + std::sqrt(std::fabs(x)) -
               std::fma(x, 3.0, -1.25);
    y = std::fmin(std::fmax(y, -2.0), 1e6);
    long long q = (long long)(y * 1000.0);
    volatile double scaled = (double)q * 1e-9;
    double z = y + scaled;
    if (z < 0.25)
      z = -z;
    EXPECT_EQ(bitsOf(gotD[i]), bitsOf(z)) << i;
    EXPECT_EQ(got[i], (float)y) << i;
  }
}

/// out[0..] = op(a, b) in .rn, .rz, .rm, .rp for op = div, then sqrt(a)
/// in the four modes, then add(a, b) in the four modes.
const char *kModes = R"(
.visible .entry k(.param .u64 out, .param .f64 a, .param .f64 b) {
  .reg .f64 %fd<16>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.f64 %fd1, [a];
  ld.param.f64 %fd2, [b];
  div.rn.f64 %fd3, %fd1, %fd2;
  div.rz.f64 %fd4, %fd1, %fd2;
  div.rm.f64 %fd5, %fd1, %fd2;
  div.rp.f64 %fd6, %fd1, %fd2;
  sqrt.rn.f64 %fd7, %fd1;
  sqrt.rz.f64 %fd8, %fd1;
  sqrt.rm.f64 %fd9, %fd1;
  sqrt.rp.f64 %fd10, %fd1;
  add.rn.f64 %fd11, %fd1, %fd2;
  add.rz.f64 %fd12, %fd1, %fd2;
  add.rm.f64 %fd13, %fd1, %fd2;
  add.rp.f64 %fd14, %fd1, %fd2;
  st.global.v2.f64 [%rd1], {%fd3, %fd4};
  st.global.v2.f64 [%rd1+16], {%fd5, %fd6};
  st.global.v2.f64 [%rd1+32], {%fd7, %fd8};
  st.global.v2.f64 [%rd1+48], {%fd9, %fd10};
  st.global.v2.f64 [%rd1+64], {%fd11, %fd12};
  st.global.v2.f64 [%rd1+80], {%fd13, %fd14};
  ret;
}
)";

/// The four modes of one inexact positive result: rz = rm, rp the next
/// double up, rn one of the two (the host's for that operation).
void expectModes(const double *r, double hostNearest) {
  EXPECT_EQ(bitsOf(r[0]), bitsOf(hostNearest));
  EXPECT_EQ(bitsOf(r[1]), bitsOf(r[2]));
  EXPECT_EQ(r[3], std::nextafter(r[2], INFINITY));
  EXPECT_TRUE(r[0] == r[2] || r[0] == r[3]);
}

TEST(F64Test, DirectedRoundingModes) {
  DeviceMemory memory;
  uint64_t out = memory.allocate(12 * 8);
  const double a = 2.0, b = 3.0; // 2/3, sqrt 2 and 2 + 3 (exact)
  ASSERT_EQ(failure(run(kModes, threads(1), {out, bitsOf(a), bitsOf(b)},
                        memory)),
            "");
  std::vector<double> r = readBack<double>(memory, out, 12);
  expectModes(&r[0], a / b);
  expectModes(&r[4], std::sqrt(a));
  for (int i = 8; i < 12; ++i)
    EXPECT_EQ(r[i], 5.0); // exact: every mode agrees
  // A negative quotient: rz rounds toward zero, which is up.
  ASSERT_EQ(failure(run(kModes, threads(1), {out, bitsOf(-2.0), bitsOf(b)},
                        memory)),
            "");
  r = readBack<double>(memory, out, 12);
  EXPECT_EQ(r[1], r[3]); // rz = rp below zero
  EXPECT_EQ(r[2], std::nextafter(r[3], -INFINITY));
  // sqrt of a negative number is the canonical NaN.
  EXPECT_EQ(bitsOf(r[4]), 0x7fffffffffffffffull);
}

TEST(F64Test, FormsTheIsaLacksAreRejected) {
  DeviceMemory memory;
  for (const char *bad :
       {"add.ftz.f64 %fd1, %fd2, %fd3;", "div.f64 %fd1, %fd2, %fd3;",
        "div.approx.f64 %fd1, %fd2, %fd3;", "fma.f64 %fd1, %fd2, %fd3, %fd1;",
        "min.NaN.f64 %fd1, %fd2, %fd3;", "sqrt.approx.f64 %fd1, %fd2;",
        "add.f32 %f1, %f2, 0d3FF0000000000000;", "cvt.f64.f64 %fd1, %fd2;",
        "ex2.approx.f64 %fd1, %fd2;"}) {
    std::string kernel =
        std::string(".visible .entry k() { .reg .f64 %fd<4>; .reg .f32 "
                    "%f<4>; ") +
        bad + " ret; }";
    std::string error = failure(run(kernel, threads(1), {}, memory));
    EXPECT_NE(error.find("unsupported instruction"), std::string::npos)
        << bad << ": " << error;
  }
}

} // namespace
