//===- TimingModelTest.cpp - the timing model on kernels of known cost ----===//
//
// Each kernel's time follows from one parameter of the model, so each test
// pins one mechanism: dependent latency, issue throughput, bank conflicts,
// HBM bandwidth, the tensor pipe, occupancy, barriers and cp.async groups.
// Expected values are computed here from the target database's parameters,
// not copied from a run.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "mirage/GpuEmulator/Trace.h"
#include "mirage/GpuTiming/TimingModel.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

using namespace mirage;
using namespace mirage::emulator;
using namespace mirage::timing;

namespace {

const char *kHeader = ".version 7.0\n.target sm_80\n.address_size 64\n";

ChipModel chipOf(llvm::StringRef name) {
  auto info = target::lookupTarget(name);
  EXPECT_TRUE(bool(info));
  auto chip = ChipModel::get(*info);
  EXPECT_TRUE(bool(chip)) << llvm::toString(chip.takeError());
  return *chip;
}

struct Timed {
  KernelTiming timing;
  KernelReport report;
};

/// Runs kernel `k` of `ptx` under the timing model of `chip`.
Timed timeKernel(const ChipModel &chip, llvm::StringRef body,
               std::array<unsigned, 3> grid, std::array<unsigned, 3> block,
               llvm::ArrayRef<uint64_t> args, DeviceMemory &memory,
               unsigned emulatorThreads = 1, uint64_t dynamicShared = 0,
               unsigned registers = 0) {
  auto module = parsePtx(kHeader + body.str());
  EXPECT_TRUE(bool(module)) << llvm::toString(module.takeError());
  auto description = describeKernel(*module, "k");
  EXPECT_TRUE(bool(description)) << llvm::toString(description.takeError());
  TimingOptions options;
  options.registersPerThread = registers;
  KernelTimer timer(chip, std::move(*description),
                    LaunchShape{grid, block, dynamicShared}, options);
  EmulatorOptions emulatorOptions;
  emulatorOptions.tracer = &timer;
  emulatorOptions.threads = emulatorThreads;
  LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.dynamicSharedBytes = dynamicShared;
  auto report = launchKernel(*module, "k", config, args, memory,
                             emulatorOptions);
  EXPECT_TRUE(bool(report)) << llvm::toString(report.takeError());
  auto timing = timer.finish(double(report->profile.tensorCoreFlops));
  EXPECT_TRUE(bool(timing)) << llvm::toString(timing.takeError());
  return {*timing, *report};
}

/// A chain of `n` fma.rn.f32, each reading the previous result.
std::string fmaChain(unsigned n, unsigned chains) {
  std::string body = ".visible .entry k() {\n.reg .f32 %f<64>;\n";
  for (unsigned c = 0; c < chains; ++c)
    body += llvm::formatv("mov.f32 %f{0}, 0f3F800000;\n", c).str();
  for (unsigned i = 0; i < n; ++i)
    for (unsigned c = 0; c < chains; ++c)
      body += llvm::formatv("fma.rn.f32 %f{0}, %f{0}, %f{0}, %f{0};\n", c)
                  .str();
  return body + "ret;\n}\n";
}

TEST(TimingModel, DependentChainTakesTheLatency) {
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  Timed r = timeKernel(chip, fmaChain(400, 1), {1, 1, 1}, {32, 1, 1}, {}, memory);
  double expected = 400.0 * chip.sm().fp32Latency;
  EXPECT_NEAR(double(r.timing.cycles), expected, 0.05 * expected);
  EXPECT_EQ(r.timing.bound, Bound::Latency);
  EXPECT_GT(r.timing.stallShare[unsigned(Stall::Dependency)], 0.6);
}

TEST(TimingModel, IndependentWarpsFillThePipe) {
  // 32 warps of 4 independent chains: the FP32 pipes of the 4 schedulers
  // are the limit, 32 lanes / (fp32Lanes / 4) cycles per instruction.
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  Timed r = timeKernel(chip, fmaChain(100, 4), {1, 1, 1}, {1024, 1, 1}, {},
                     memory);
  double perInstruction = 32.0 / (chip.sm().fp32Lanes / 4.0);
  double expected = 32 * 400 * perInstruction / 4;
  EXPECT_NEAR(double(r.timing.cycles), expected, 0.1 * expected);
  EXPECT_EQ(r.timing.bound, Bound::Issue);
  // H100's FP32 pipes are twice as wide.
  Timed h = timeKernel(chipOf("sm_90"), fmaChain(100, 4), {1, 1, 1},
                     {1024, 1, 1}, {}, memory);
  EXPECT_NEAR(double(h.timing.cycles), expected / 2, 0.1 * expected / 2);
}

/// Each thread loads shared word tid * stride, 64 times.
std::string sharedLoads(unsigned stride) {
  std::string body = llvm::formatv(R"(
.visible .entry k() {{
  .shared .align 4 .b8 tile[131072];
  .reg .b32 %r<8>;
  .reg .f32 %f<70>;
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, {0};
  and.b32 %r2, %r2, 32767;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, tile;
  add.u32 %r5, %r4, %r3;
  st.shared.f32 [%r5], 0f00000000;
  bar.sync 0;
)",
                                   stride)
                         .str();
  for (unsigned i = 0; i < 64; ++i)
    body += llvm::formatv("ld.shared.f32 %f{0}, [%r5];\n", i).str();
  return body + "ret;\n}\n";
}

TEST(TimingModel, BankConflictsCostWavefronts) {
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  Timed plain = timeKernel(chip, sharedLoads(1), {1, 1, 1}, {1024, 1, 1}, {},
                         memory);
  Timed conflicted = timeKernel(chip, sharedLoads(32), {1, 1, 1},
                                {1024, 1, 1}, {}, memory);
  // Stride 1 word is conflict-free; stride 32 words puts all 32 lanes in
  // one bank: 32 wavefronts per load.
  EXPECT_EQ(plain.timing.bound, Bound::Shared);
  EXPECT_GT(double(conflicted.timing.cycles), 16.0 * plain.timing.cycles);
  EXPECT_EQ(conflicted.timing.bound, Bound::Shared);
  EXPECT_GT(conflicted.timing.sharedUtilization, 0.9);
}

const char *kCopy = R"(
.visible .entry k(.param .u64 src, .param .u64 dst) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.wide.s32 %rd3, %r4, 16;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  st.global.v4.f32 [%rd5], {%f1, %f2, %f3, %f4};
  ret;
}
)";

TEST(TimingModel, CopyIsBoundByHbm) {
  for (const char *name : {"sm_80", "sm_90"}) {
    ChipModel chip = chipOf(name);
    DeviceMemory memory;
    const uint64_t bytes = 32 << 20;
    uint64_t src = memory.allocate(bytes), dst = memory.allocate(bytes);
    memory.markInitialized(src);
    Timed r = timeKernel(chip, kCopy, {unsigned(bytes / 16 / 256), 1, 1},
                       {256, 1, 1}, {src, dst}, memory, 2, 0, 16);
    EXPECT_DOUBLE_EQ(r.timing.hbmBytes, 2.0 * bytes) << name;
    EXPECT_EQ(r.timing.bound, Bound::Hbm) << name;
    // Within the ramp and the last wave's tail of the bandwidth.
    EXPECT_GT(r.timing.hbmFraction, 0.8) << name;
    EXPECT_LE(r.timing.hbmFraction, 1.0) << name;
  }
}

TEST(TimingModel, DataEveryCtaReadsComesFromHbmOnce) {
  // Every CTA reads the same 4 KiB and writes its own 4 KiB: the L2 keeps
  // the shared input, so HBM sees it once (and each CTA's output once).
  const char *broadcast = R"(
.visible .entry k(.param .u64 src, .param .u64 dst) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r3, 16;
  mul.wide.s32 %rd6, %r4, 16;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd6;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  st.global.v4.f32 [%rd5], {%f1, %f2, %f3, %f4};
  ret;
}
)";
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  const unsigned ctas = 512;
  uint64_t src = memory.allocate(4096), dst = memory.allocate(4096 * ctas);
  memory.markInitialized(src);
  Timed r = timeKernel(chip, broadcast, {ctas, 1, 1}, {256, 1, 1}, {src, dst},
                       memory, 2);
  EXPECT_DOUBLE_EQ(r.timing.hbmBytes, 4096.0 + 4096.0 * ctas);
  // The L2 sees each CTA's 4 KiB written, and the shared 4 KiB only from
  // the first CTA on each SM: the SM's L1 keeps it for the next CTAs there.
  // Scaled from SM 0, which runs 5 of the 512 CTAs (0, 108, ..., 432).
  EXPECT_DOUBLE_EQ(r.timing.l2Bytes, (4096.0 * 5 + 4096.0) / 5 * ctas);
}

TEST(TimingModel, ResultDoesNotDependOnHostThreads) {
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  const uint64_t bytes = 4 << 20;
  uint64_t src = memory.allocate(bytes), dst = memory.allocate(bytes);
  memory.markInitialized(src);
  Timed one = timeKernel(chip, kCopy, {unsigned(bytes / 16 / 256), 1, 1},
                       {256, 1, 1}, {src, dst}, memory, 1);
  Timed two = timeKernel(chip, kCopy, {unsigned(bytes / 16 / 256), 1, 1},
                       {256, 1, 1}, {src, dst}, memory, 2);
  EXPECT_EQ(one.timing.cycles, two.timing.cycles);
  EXPECT_EQ(one.timing.hbmBytes, two.timing.hbmBytes);
}

TEST(TimingModel, OccupancyFromSharedMemoryAndRegisters) {
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  // 100 KiB of dynamic shared memory: one CTA per SM (164 KiB).
  std::string body = ".visible .entry k() {\nret;\n}\n";
  Timed r = timeKernel(chip, body, {216, 1, 1}, {128, 1, 1}, {}, memory, 1,
                     100 * 1024);
  EXPECT_EQ(r.timing.ctasPerSM, 1u);
  EXPECT_EQ(r.timing.occupancyLimit, "shared memory");
  EXPECT_EQ(r.timing.waves, 2u);
  // 255 registers x 256 threads: 65280 of 65536, one CTA.
  Timed regs = timeKernel(chip, body, {216, 1, 1}, {256, 1, 1}, {}, memory, 1,
                        0, 255);
  EXPECT_EQ(regs.timing.ctasPerSM, 1u);
  EXPECT_EQ(regs.timing.occupancyLimit, "registers");
  // Too much shared memory for any SM is an error, not a time.
  auto module = parsePtx(kHeader + body);
  ASSERT_TRUE(bool(module));
  KernelTimer timer(chip, *describeKernel(*module, "k"),
                    LaunchShape{{1, 1, 1}, {32, 1, 1}, 200 * 1024});
  auto timing = timer.finish(0);
  ASSERT_FALSE(bool(timing));
  EXPECT_NE(llvm::toString(timing.takeError()).find("does not fit"),
            std::string::npos);
}

TEST(TimingModel, MmaThroughputOnTheTensorPipe) {
  // 8 warps, each 64 independent mma.sync m16n8k16 (4 accumulators).
  std::string body = R"(
.visible .entry k() {
  .reg .b32 %r<8>;
  .reg .f32 %f<20>;
  mov.b32 %r1, 0;
  mov.b32 %r2, 0;
  mov.b32 %r3, 0;
  mov.b32 %r4, 0;
  mov.b32 %r5, 0;
  mov.b32 %r6, 0;
)";
  for (unsigned i = 0; i < 16; ++i)
    body += llvm::formatv("mov.f32 %f{0}, 0f00000000;\n", i).str();
  for (unsigned i = 0; i < 64; ++i) {
    unsigned a = (i % 4) * 4;
    body += llvm::formatv(
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{%f{0}, "
                "%f{1}, %f{2}, %f{3}}, {{%r1, %r2, %r3, %r4}, {{%r5, %r6}, "
                "{{%f{0}, %f{1}, %f{2}, %f{3}};\n",
                a, a + 1, a + 2, a + 3)
                .str();
  }
  body += "ret;\n}\n";
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  Timed r = timeKernel(chip, body, {1, 1, 1}, {256, 1, 1}, {}, memory);
  double perMma = 16.0 * 8 * 16 / chip.mmaMacsPerCyclePerScheduler();
  double expected = 2 * 64 * perMma; // 2 warps per scheduler
  EXPECT_NEAR(double(r.timing.cycles), expected, 0.15 * expected);
  EXPECT_EQ(r.timing.bound, Bound::Tensor);
  EXPECT_DOUBLE_EQ(r.timing.tensorFlops, 8.0 * 64 * 2 * 16 * 8 * 16);
}

TEST(TimingModel, AsyncCopiesOverlapWithWaitGroup) {
  // Each thread copies 16 bytes 8 times; with wait_group 0 after each copy
  // the latencies add, with all in flight before one wait they overlap.
  auto kernel = [](bool waitEach) {
    std::string body = R"(
.visible .entry k(.param .u64 src) {
  .shared .align 16 .b8 tile[8192];
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [src];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, tile;
  add.u32 %r4, %r3, %r2;
)";
    for (unsigned i = 0; i < 8; ++i) {
      body += llvm::formatv("cp.async.cg.shared.global [%r4+{0}], "
                            "[%rd3+{1}], 16;\n",
                            i * 1024, i * 1024)
                  .str();
      body += "cp.async.commit_group;\n";
      if (waitEach)
        body += "cp.async.wait_group 0;\n";
    }
    return body + "cp.async.wait_all;\nret;\n}\n";
  };
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  uint64_t src = memory.allocate(1 << 16);
  memory.markInitialized(src);
  Timed serial = timeKernel(chip, kernel(true), {1, 1, 1}, {64, 1, 1}, {src},
                          memory);
  Timed overlapped = timeKernel(chip, kernel(false), {1, 1, 1}, {64, 1, 1},
                              {src}, memory);
  double dram = chip.sm().dramLatency;
  EXPECT_GT(double(serial.timing.cycles), 7 * dram);
  EXPECT_LT(double(overlapped.timing.cycles), 2 * dram);
  EXPECT_GT(serial.timing.stallShare[unsigned(Stall::Memory)], 0.9);
}

TEST(TimingModel, BarrierWaitsForTheSlowestWarp) {
  // Warp 0 runs a 200-deep chain before the barrier; the others wait.
  std::string body = R"(
.visible .entry k() {
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  mov.u32 %r1, %tid.x;
  mov.f32 %f1, 0f3F800000;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra DONE;
)";
  for (unsigned i = 0; i < 200; ++i)
    body += "fma.rn.f32 %f1, %f1, %f1, %f1;\n";
  body += "DONE:\nbar.sync 0;\nret;\n}\n";
  ChipModel chip = chipOf("sm_80");
  DeviceMemory memory;
  Timed r = timeKernel(chip, body, {1, 1, 1}, {128, 1, 1}, {}, memory);
  EXPECT_GT(double(r.timing.cycles), 200.0 * chip.sm().fp32Latency);
  EXPECT_GT(r.timing.stallShare[unsigned(Stall::Barrier)], 0.5);
}

TEST(TimingModel, ChipsWithoutParametersAreRefused) {
  auto info = target::lookupTarget("sm_86");
  ASSERT_TRUE(bool(info));
  auto chip = ChipModel::get(*info);
  ASSERT_FALSE(bool(chip));
  EXPECT_NE(llvm::toString(chip.takeError()).find("no parameters for sm_86"),
            std::string::npos);
}

} // namespace
