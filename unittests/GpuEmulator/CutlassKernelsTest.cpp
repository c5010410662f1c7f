//===- CutlassKernelsTest.cpp - a CUTLASS GEMM's PTX in the emulator ------===//
//
// A CUTLASS 2.x tensor-core GEMM for sm_80, the kind cuBLAS runs
// (Inputs/cutlass_gemm.cu, compiled by nvcc with PyPI's nvidia-cutlass 4.2
// headers: cp.async with L2 prefetch hints, 3 stages, swizzled shared
// tiles, ldmatrix and mma.sync m16n8k16), runs as compiled, every checker
// on, and gives the exact product of small integers; its shared memory
// has no bank conflict.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"
#include <cstring>

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

TEST(CutlassKernelsTest, TensorCoreGemmIsExact) {
  auto module = parsePtx(readInput("cutlass_gemm.sm_80.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  // The dynamic shared memory the kernel needs: sizeof(SharedStorage).
  DeviceMemory memory;
  uint64_t sizeAddr = memory.allocate(4);
  auto sized = launchKernel(*module, "shared_bytes", threads(1), {sizeAddr},
                            memory);
  ASSERT_TRUE(bool(sized)) << llvm::toString(sized.takeError());
  uint32_t sharedBytes = readBack<uint32_t>(memory, sizeAddr, 1)[0];
  ASSERT_GT(sharedBytes, 0u);

  // Two 128 x 128 output tiles, K over three pipeline stages and more.
  const unsigned M = 256, N = 128, K = 160;
  std::vector<int> ai(M * K), bi(K * N);
  std::vector<uint16_t> a(M * K), bColumns(N * K);
  for (unsigned i = 0; i < M * K; ++i) {
    ai[i] = int(i * 2654435761u % 5) - 2;
    a[i] = hostHalfOf(float(ai[i]));
  }
  for (unsigned kk = 0; kk < K; ++kk)
    for (unsigned j = 0; j < N; ++j) {
      bi[kk * N + j] = int((kk * N + j) * 40503u % 7) - 3;
      bColumns[j * K + kk] = hostHalfOf(float(bi[kk * N + j])); // column-major B
    }
  uint64_t aAddr = memory.allocate(a.size() * 2),
           bAddr = memory.allocate(bColumns.size() * 2),
           cAddr = memory.allocate(M * N * 4);
  expectSuccess(memory.writeArray<uint16_t>(aAddr, a));
  expectSuccess(memory.writeArray<uint16_t>(bAddr, bColumns));
  LaunchConfig config;
  config.grid = {M / 128, N / 128, 1};
  config.block = {128, 1, 1}; // four warps of 64 x 64
  config.dynamicSharedBytes = sharedBytes;
  EmulatorOptions options;
  options.profile = true;
  auto report = launchKernel(*module, "cutlass_gemm", config,
                             {aAddr, bAddr, cAddr, M, N, K}, memory, options);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<float> c = readBack<float>(memory, cAddr, M * N);
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      int sum = 0;
      for (unsigned kk = 0; kk < K; ++kk)
        sum += ai[i * K + kk] * bi[kk * N + j];
      ASSERT_EQ(c[i * N + j], float(sum)) << i << " " << j;
    }
  const ProfileCounters &p = report->profile;
  EXPECT_EQ(p.tensorCoreFlops, 2ull * M * N * K);
  EXPECT_EQ(p.sharedWavefronts, p.sharedIdealWavefronts);
  EXPECT_GT(p.instructions[unsigned(InstructionClass::AsyncCopy)], 0u);
}

} // namespace
