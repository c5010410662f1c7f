//===- TritonKernelsTest.cpp - Triton's own PTX in the emulator -----------===//
//
// Kernels written in Triton and compiled by Triton 3.9 for sm_80 without a
// GPU (Inputs/triton_kernels.py): a row softmax (shuffles, ex2.approx,
// div.full), an RMSNorm with an f16 output, a LayerNorm, a tiled f16
// matmul whose tl.dot is ldmatrix and mma.sync, and a fused attention
// forward pass (online softmax, two tl.dot per key block). Each runs as
// Triton compiled it, with every checker on, against a host reference in
// double: within the error of the ISA's approximations and of the f16
// roundings the kernel makes, the matmul exactly (small integers, exact in
// f16 and f32). Triton adds two scratch pointers to
// every kernel's parameters; these kernels do not use them.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"
#include <cmath>
#include <cstring>

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

LaunchConfig launch(unsigned x, unsigned y, unsigned sharedBytes) {
  LaunchConfig config;
  config.grid = {x, y, 1};
  config.block = {128, 1, 1}; // num_warps = 4 (.reqntid 128)
  config.dynamicSharedBytes = sharedBytes;
  return config;
}

uint64_t bitsOfFloat(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

TEST(TritonKernelsTest, SoftmaxMatchesHost) {
  auto module = parsePtx(readInput("triton_softmax.sm_80.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned rows = 3, cols = 1000;
  std::vector<float> in(rows * cols);
  for (unsigned i = 0; i < in.size(); ++i)
    in[i] = float(int(i * 2654435761u % 2001) - 1000) / 97.0f;
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(in.size() * 4),
           out = memory.allocate(in.size() * 4);
  expectSuccess(memory.writeArray<float>(inAddr, in));
  auto report = launchKernel(*module, "softmax_kernel", launch(rows, 1, 16),
                             {out, inAddr, cols, cols, 0, 0}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<float> got = readBack<float>(memory, out, in.size());
  for (unsigned r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (unsigned c = 0; c < cols; ++c)
      max = std::max(max, double(in[r * cols + c]));
    for (unsigned c = 0; c < cols; ++c)
      sum += std::exp(double(in[r * cols + c]) - max);
    for (unsigned c = 0; c < cols; ++c) {
      double expected = std::exp(double(in[r * cols + c]) - max) / sum;
      // f32 rounding of x - max, ex2.approx (2 ulp), the sum and div.full
      // (2 ulp): a few ulp of f32, relative.
      EXPECT_NEAR(got[r * cols + c], expected, 1e-5 * expected + 1e-30)
          << r << " " << c;
    }
  }
}

TEST(TritonKernelsTest, RmsNormMatchesHost) {
  auto module = parsePtx(readInput("triton_rmsnorm.sm_80.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned rows = 4, cols = 768;
  std::vector<uint16_t> in(rows * cols);
  std::vector<float> w(cols);
  for (unsigned i = 0; i < in.size(); ++i)
    in[i] = hostHalfOf(float(int(i * 40503u % 257) - 128) / 16.0f);
  for (unsigned c = 0; c < cols; ++c)
    w[c] = 0.5f + float(c % 13) / 8.0f;
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(in.size() * 2),
           wAddr = memory.allocate(cols * 4),
           out = memory.allocate(in.size() * 2);
  expectSuccess(memory.writeArray<uint16_t>(inAddr, in));
  expectSuccess(memory.writeArray<float>(wAddr, w));
  const float eps = 1e-6f;
  auto report = launchKernel(*module, "rmsnorm_kernel", launch(rows, 1, 16),
                             {out, inAddr, wAddr, cols, bitsOfFloat(eps), 0,
                              0},
                             memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<uint16_t> got = readBack<uint16_t>(memory, out, in.size());
  for (unsigned r = 0; r < rows; ++r) {
    double squares = 0;
    for (unsigned c = 0; c < cols; ++c) {
      double x = hostFloatOfHalf(in[r * cols + c]);
      squares += x * x;
    }
    double scale = 1 / std::sqrt(squares / cols + eps);
    for (unsigned c = 0; c < cols; ++c) {
      double expected = hostFloatOfHalf(in[r * cols + c]) * scale * w[c];
      // The f16 rounding of the result (2^-11 relative) and rsqrt.approx.
      EXPECT_NEAR(hostFloatOfHalf(got[r * cols + c]), expected,
                  std::fabs(expected) * 0x1p-10 + 1e-7)
          << r << " " << c;
    }
  }
}

TEST(TritonKernelsTest, MatmulWithLdmatrixAndMmaIsExact) {
  auto module = parsePtx(readInput("triton_matmul.sm_80.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned M = 128, N = 128, K = 96;
  std::vector<uint16_t> a(M * K), b(K * N);
  std::vector<int> ai(M * K), bi(K * N);
  for (unsigned i = 0; i < M * K; ++i) {
    ai[i] = int(i * 2654435761u % 5) - 2;
    a[i] = hostHalfOf(float(ai[i]));
  }
  for (unsigned i = 0; i < K * N; ++i) {
    bi[i] = int(i * 40503u % 7) - 3;
    b[i] = hostHalfOf(float(bi[i]));
  }
  DeviceMemory memory;
  uint64_t aAddr = memory.allocate(a.size() * 2),
           bAddr = memory.allocate(b.size() * 2),
           cAddr = memory.allocate(M * N * 2);
  expectSuccess(memory.writeArray<uint16_t>(aAddr, a));
  expectSuccess(memory.writeArray<uint16_t>(bAddr, b));
  EmulatorOptions options;
  options.profile = true;
  auto report =
      launchKernel(*module, "matmul_kernel", launch(M / 64, N / 64, 8192),
                   {aAddr, bAddr, cAddr, M, N, K, 0, 0}, memory, options);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<uint16_t> c = readBack<uint16_t>(memory, cAddr, M * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int sum = 0;
      for (unsigned k = 0; k < K; ++k)
        sum += ai[i * K + k] * bi[k * N + j];
      ASSERT_EQ(hostFloatOfHalf(c[i * N + j]), float(sum)) << i << " " << j;
    }
  // Every multiply-add on the tensor cores; Triton's shared layouts are
  // swizzled, so its stores and ldmatrix reads take the fewest wavefronts
  // (no bank conflict at all).
  const ProfileCounters &p = report->profile;
  EXPECT_EQ(p.tensorCoreFlops, 2ull * M * N * K);
  EXPECT_EQ(p.instructions[unsigned(InstructionClass::TensorCore)],
            uint64_t(M / 16) * (N / 8) * (K / 16));
  EXPECT_EQ(p.sharedWavefronts, p.sharedIdealWavefronts);
  EXPECT_GT(p.sharedIdealWavefronts, 0u);
}

TEST(TritonKernelsTest, LayerNormMatchesHost) {
  auto module = parsePtx(readInput("triton_layernorm.sm_80.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned rows = 3, cols = 1000;
  std::vector<float> in(rows * cols), w(cols), b(cols);
  for (unsigned i = 0; i < in.size(); ++i)
    in[i] = 3.0f + float(int(i * 2654435761u % 1001) - 500) / 64.0f;
  for (unsigned c = 0; c < cols; ++c) {
    w[c] = 1.0f + float(c % 9) / 16.0f;
    b[c] = float(int(c % 5) - 2) / 4.0f;
  }
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(in.size() * 4),
           wAddr = memory.allocate(cols * 4), bAddr = memory.allocate(cols * 4),
           out = memory.allocate(in.size() * 4);
  expectSuccess(memory.writeArray<float>(inAddr, in));
  expectSuccess(memory.writeArray<float>(wAddr, w));
  expectSuccess(memory.writeArray<float>(bAddr, b));
  const float eps = 1e-5f;
  auto report = launchKernel(
      *module, "layernorm_kernel", launch(rows, 1, 16),
      {out, inAddr, wAddr, bAddr, cols, bitsOfFloat(eps), 0, 0}, memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<float> got = readBack<float>(memory, out, in.size());
  for (unsigned r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (unsigned c = 0; c < cols; ++c)
      mean += in[r * cols + c];
    mean /= cols;
    for (unsigned c = 0; c < cols; ++c)
      var += (in[r * cols + c] - mean) * (in[r * cols + c] - mean);
    var /= cols;
    for (unsigned c = 0; c < cols; ++c) {
      double expected =
          (in[r * cols + c] - mean) / std::sqrt(var + eps) * w[c] + b[c];
      // f32 sums over 1000 values and rsqrt.approx (2^-22.9 relative).
      EXPECT_NEAR(got[r * cols + c], expected, 1e-5 * (std::fabs(expected) + 1))
          << r << " " << c;
    }
  }
}

TEST(TritonKernelsTest, FusedAttentionMatchesHost) {
  auto module = parsePtx(readInput("triton_attention.sm_80.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  const unsigned seq = 192, D = 64;
  std::vector<uint16_t> q(seq * D), k(seq * D), v(seq * D);
  std::vector<float> qf(seq * D), kf(seq * D), vf(seq * D);
  auto fill = [](std::vector<uint16_t> &h, std::vector<float> &f,
                 uint32_t seed) {
    for (unsigned i = 0; i < h.size(); ++i) {
      h[i] = hostHalfOf(float(int((i * 2654435761u + seed) % 33) - 16) / 16.0f);
      f[i] = hostFloatOfHalf(h[i]);
    }
  };
  fill(q, qf, 1);
  fill(k, kf, 7);
  fill(v, vf, 13);
  DeviceMemory memory;
  uint64_t qAddr = memory.allocate(q.size() * 2),
           kAddr = memory.allocate(k.size() * 2),
           vAddr = memory.allocate(v.size() * 2),
           out = memory.allocate(seq * D * 2);
  expectSuccess(memory.writeArray<uint16_t>(qAddr, q));
  expectSuccess(memory.writeArray<uint16_t>(kAddr, k));
  expectSuccess(memory.writeArray<uint16_t>(vAddr, v));
  const float scale = 0.125f;
  EmulatorOptions options;
  options.profile = true;
  auto report = launchKernel(
      *module, "attention_kernel", launch(seq / 64, 1, 16384),
      {qAddr, kAddr, vAddr, out, seq, bitsOfFloat(scale), 0, 0}, memory,
      options);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<uint16_t> o = readBack<uint16_t>(memory, out, seq * D);
  for (unsigned i = 0; i < seq; ++i) {
    std::vector<double> s(seq);
    double max = -INFINITY, sum = 0;
    for (unsigned j = 0; j < seq; ++j) {
      double dot = 0;
      for (unsigned d = 0; d < D; ++d)
        dot += double(qf[i * D + d]) * kf[j * D + d];
      s[j] = dot * scale;
      max = std::max(max, s[j]);
    }
    for (unsigned j = 0; j < seq; ++j)
      sum += s[j] = std::exp(s[j] - max);
    for (unsigned d = 0; d < D; ++d) {
      double expected = 0;
      for (unsigned j = 0; j < seq; ++j)
        expected += s[j] / sum * vf[j * D + d];
      // P in f16 before the second dot (2^-11 relative per weight, on
      // values below 1) and the f16 output: 2^-10 of the largest |v|.
      EXPECT_NEAR(hostFloatOfHalf(o[i * D + d]), expected, 1.0 / 1024)
          << i << " " << d;
    }
  }
  EXPECT_EQ(report->profile.tensorCoreFlops, 2ull * 2 * seq * seq * D);
}

} // namespace
