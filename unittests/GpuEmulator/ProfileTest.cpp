//===- ProfileTest.cpp - counters and CTAs in parallel --------------------===//
//
// Hand-written kernels whose sector, wavefront and instruction counts are
// worked out here from the access pattern (32-byte sectors; 32 banks of 4
// bytes served per wavefront, half-warp phases for 8-byte and quarter-warp
// phases for 16-byte accesses), and launches on several host threads that
// must give what one thread gives.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "gtest/gtest.h"

using namespace mirage::emulator;

namespace {

const char *kHeader = ".version 7.0\n.target sm_80\n.address_size 64\n";

llvm::Expected<KernelReport> run(llvm::StringRef ptx, LaunchConfig config,
                                 llvm::ArrayRef<uint64_t> args,
                                 DeviceMemory &memory,
                                 EmulatorOptions options) {
  auto module = parsePtx(kHeader + ptx.str());
  if (!module)
    return module.takeError();
  return launchKernel(*module, "k", config, args, memory, options);
}

LaunchConfig grid(unsigned threads, unsigned ctas) {
  LaunchConfig config;
  config.block = {threads, 1, 1};
  config.grid = {ctas, 1, 1};
  return config;
}

EmulatorOptions profiled(unsigned threads = 1) {
  EmulatorOptions options;
  options.profile = true;
  options.threads = threads;
  return options;
}

uint64_t count(const KernelReport &report, InstructionClass cls) {
  return report.profile.instructions[unsigned(cls)];
}

// Each thread loads the f32 at in + tid * stride and stores it to
// out + tid * 4: the load's coalescing depends on the stride, the store is
// always contiguous.
const char *kStrided = R"(
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 stride) {
  .reg .b32 %r<4>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [stride];
  mov.u32 %r2, %tid.x;
  mul.lo.u32 %r3, %r2, %r1;
  mul.wide.u32 %rd3, %r3, 1;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f1;
  ret;
}
)";

KernelReport runStrided(unsigned stride) {
  DeviceMemory memory;
  uint64_t in = memory.allocate(32 * stride + 4);
  memory.markInitialized(in);
  uint64_t out = memory.allocate(32 * 4);
  auto report = run(kStrided, grid(32, 1), {in, out, stride}, memory,
                    profiled());
  if (!report) {
    ADD_FAILURE() << llvm::toString(report.takeError());
    return {};
  }
  return *report;
}

TEST(ProfileTest, CoalescedAccessesMoveOnlyTheirSectors) {
  // 32 lanes x 4 contiguous bytes = 128 bytes = 4 sectors (buffers are
  // 256-byte aligned).
  KernelReport report = runStrided(4);
  EXPECT_EQ(report.profile.globalLoadBytes, 128u);
  EXPECT_EQ(report.profile.globalLoadSectors, 4u);
  EXPECT_EQ(report.profile.globalStoreBytes, 128u);
  EXPECT_EQ(report.profile.globalStoreSectors, 4u);
}

TEST(ProfileTest, StridedLoadsTouchASectorPerLane) {
  // A 32-byte stride puts every lane in its own sector: 32 sectors for 128
  // useful bytes, an efficiency of 1/8.
  KernelReport report = runStrided(32);
  EXPECT_EQ(report.profile.globalLoadBytes, 128u);
  EXPECT_EQ(report.profile.globalLoadSectors, 32u);
  // A 16-byte stride: two lanes per sector.
  EXPECT_EQ(runStrided(16).profile.globalLoadSectors, 16u);
  // Every lane reading the same word: one sector.
  EXPECT_EQ(runStrided(0).profile.globalLoadSectors, 1u);
}

TEST(ProfileTest, InstructionClassesAreCountedPerWarp) {
  // 64 threads = 2 warps, each issuing the 12 instructions once.
  DeviceMemory memory;
  uint64_t in = memory.allocate(64 * 4);
  memory.markInitialized(in);
  uint64_t out = memory.allocate(64 * 4);
  auto report = run(kStrided, grid(64, 1), {in, out, 4}, memory, profiled());
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  EXPECT_EQ(report->warpInstructions, 2u * 12);
  EXPECT_EQ(count(*report, InstructionClass::ParamLoad), 2u * 3);
  EXPECT_EQ(count(*report, InstructionClass::Move), 2u * 1);
  EXPECT_EQ(count(*report, InstructionClass::IntegerArithmetic), 2u * 5);
  EXPECT_EQ(count(*report, InstructionClass::GlobalMemory), 2u * 2);
  EXPECT_EQ(count(*report, InstructionClass::Control), 2u * 1);
  uint64_t sum = 0;
  for (uint64_t n : report->profile.instructions)
    sum += n;
  EXPECT_EQ(sum, report->warpInstructions);
}

TEST(ProfileTest, BitAndHalfPrecisionInstructionsHaveTheirClasses) {
  // The bit instructions count as integer arithmetic whatever their type
  // (bfind's is .u32); copysign and the bf16 and packed forms as float.
  const char *ptx = R"(
.visible .entry k() {
  .reg .b32 %r<10>;
  .reg .b16 %h<4>;
  .reg .f32 %f<2>;
  popc.b32 %r1, 7;
  clz.b32 %r2, 7;
  bfind.u32 %r3, 7;
  brev.b32 %r4, 7;
  bfi.b32 %r5, 1, 2, 3, 4;
  prmt.b32 %r6, 1, 2, 0x3210;
  shf.l.wrap.b32 %r7, 1, 2, 3;
  copysign.f32 %f1, 0fBF800000, 0f40000000;
  add.bf16x2 %r8, 0x3f803f80, 0x3f803f80;
  fma.rn.bf16 %h1, 0x3f80, 0x3f80, 0x3f80;
  neg.f16x2 %r9, 0x3c003c00;
  ret;
}
)";
  DeviceMemory memory;
  auto report = run(ptx, grid(32, 1), {}, memory, profiled());
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  EXPECT_EQ(count(*report, InstructionClass::IntegerArithmetic), 7u);
  EXPECT_EQ(count(*report, InstructionClass::FloatArithmetic), 4u);
  EXPECT_EQ(count(*report, InstructionClass::Control), 1u);
  EXPECT_EQ(report->warpInstructions, 12u);
}

// Each thread stores its tid to shared memory at tid * stride bytes as a
// `.v` vector of `width` b32 values, then loads it back.
std::string sharedKernel(unsigned width) {
  std::string vec = width == 1 ? "" : ".v" + std::to_string(width);
  std::string regs = width == 1   ? "%r2"
                     : width == 2 ? "{%r2, %r2}"
                                  : "{%r2, %r2, %r2, %r2}";
  std::string dsts = width == 1   ? "%r4"
                     : width == 2 ? "{%r4, %r5}"
                                  : "{%r4, %r5, %r6, %r7}";
  return R"(
.visible .entry k(.param .u32 stride) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 16 .b8 buf[8192];
  ld.param.u32 %r1, [stride];
  mov.u32 %r2, %tid.x;
  mul.lo.u32 %r3, %r2, %r1;
  cvt.u64.u32 %rd1, %r3;
  mov.u64 %rd2, buf;
  add.s64 %rd3, %rd2, %rd1;
  st.shared)" + vec + ".b32 [%rd3], " + regs + R"(;
  ld.shared)" + vec + ".b32 " + dsts + R"(, [%rd3];
  ret;
}
)";
}

/// Wavefronts and the conflict-free count of one warp's store and load.
std::pair<uint64_t, uint64_t> sharedCost(unsigned width, unsigned stride) {
  DeviceMemory memory;
  EmulatorOptions options = profiled();
  options.racecheck = false; // stride 0 makes every lane write one word
  auto report =
      run(sharedKernel(width), grid(32, 1), {stride}, memory, options);
  if (!report) {
    ADD_FAILURE() << llvm::toString(report.takeError());
    return {};
  }
  // Every lane stores and loads width * 4 bytes.
  EXPECT_EQ(report->profile.sharedBytes, 2u * 32 * width * 4);
  return {report->profile.sharedWavefronts,
          report->profile.sharedIdealWavefronts};
}

TEST(ProfileTest, SharedBankConflicts) {
  // 4-byte words at consecutive addresses: one bank each, one wavefront
  // per access (store and load).
  EXPECT_EQ(sharedCost(1, 4), std::make_pair(uint64_t(2), uint64_t(2)));
  // A stride of 128 bytes puts all 32 lanes in bank 0: 32 wavefronts each.
  EXPECT_EQ(sharedCost(1, 128), std::make_pair(uint64_t(64), uint64_t(2)));
  // A stride of 8 bytes: two lanes per even bank, 2 wavefronts each.
  EXPECT_EQ(sharedCost(1, 8), std::make_pair(uint64_t(4), uint64_t(2)));
  // All lanes on one word: a broadcast, one wavefront.
  EXPECT_EQ(sharedCost(1, 0), std::make_pair(uint64_t(2), uint64_t(2)));
  // 16-byte vectors, contiguous: 4 quarter-warp phases of 128 bytes, each
  // conflict-free.
  EXPECT_EQ(sharedCost(4, 16), std::make_pair(uint64_t(8), uint64_t(8)));
  // 16-byte vectors 32 bytes apart: a phase's 8 lanes cover 256 bytes, so
  // each bank holds 2 of its words.
  EXPECT_EQ(sharedCost(4, 32), std::make_pair(uint64_t(16), uint64_t(8)));
  // 8-byte vectors, contiguous: 2 half-warp phases, conflict-free.
  EXPECT_EQ(sharedCost(2, 8), std::make_pair(uint64_t(4), uint64_t(4)));
}

// Every thread of every CTA writes out[ctaid * ntid + tid] = in[same] + 1.
const char *kPerCta = R"(
.visible .entry k(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  add.u32 %r5, %r5, 1;
  st.global.u32 [%rd5], %r5;
  ret;
}
)";

TEST(ParallelCtaTest, ThreadsDoNotChangeResultsOrCounters) {
  constexpr unsigned kCtas = 37, kThreads = 96, kN = kCtas * kThreads;
  std::vector<uint32_t> input(kN);
  for (unsigned i = 0; i < kN; ++i)
    input[i] = i * 7;
  std::vector<KernelReport> reports;
  for (unsigned threads : {1u, 2u, 4u}) {
    DeviceMemory memory;
    uint64_t in = memory.allocate(kN * 4), out = memory.allocate(kN * 4);
    ASSERT_FALSE(bool(memory.writeArray<uint32_t>(in, input)));
    auto report =
        run(kPerCta, grid(kThreads, kCtas), {in, out}, memory,
            profiled(threads));
    ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
    auto values = memory.readArray<uint32_t>(out, kN);
    ASSERT_TRUE(bool(values));
    for (unsigned i = 0; i < kN; ++i)
      ASSERT_EQ((*values)[i], i * 7 + 1) << i;
    // The launch's writes are in the shadow once it ends.
    EXPECT_EQ(memory.firstUnwritten(out, kN * 4), std::nullopt);
    reports.push_back(*report);
  }
  for (const KernelReport &report : reports) {
    EXPECT_EQ(report.threadInstructions, reports[0].threadInstructions);
    EXPECT_EQ(report.warpInstructions, reports[0].warpInstructions);
    EXPECT_EQ(report.profile.instructions, reports[0].profile.instructions);
    EXPECT_EQ(report.profile.globalLoadSectors,
              reports[0].profile.globalLoadSectors);
  }
    // 3 warps per CTA, 13 instructions each.
  EXPECT_EQ(reports[0].warpInstructions, uint64_t(kCtas) * 3 * 13);
}

TEST(ParallelCtaTest, TheFirstFaultingCtaInGridOrderIsReported) {
  // The input covers 5 CTAs of 32 threads; CTAs 5 to 15 read past it. With
  // any number of threads the error is CTA 5's.
  for (unsigned threads : {1u, 2u, 3u}) {
    DeviceMemory memory;
    uint64_t in = memory.allocate(5 * 32 * 4);
    memory.markInitialized(in);
    uint64_t out = memory.allocate(16 * 32 * 4);
    auto report =
        run(kPerCta, grid(32, 16), {in, out}, memory, profiled(threads));
    ASSERT_FALSE(bool(report));
    std::string message = llvm::toString(report.takeError());
    EXPECT_NE(message.find("CTA (5,0,0) thread (0,0,0)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("memcheck: outside every device buffer"),
              std::string::npos)
        << message;
  }
}

TEST(ParallelCtaTest, ReadingAnotherCtasWriteOfTheSameLaunchIsUninitialized) {
  // CTA 1 reads the word CTA 0 writes: CUDA orders no two CTAs of a launch,
  // so initcheck treats the word as unwritten whatever order they run in.
  // The next launch sees it.
  const char *ptx = R"(
.visible .entry k(.param .u64 buf) {
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [buf];
  mov.u32 %r1, %ctaid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.global.u32 [%rd1], 5;
  @!%p1 ld.global.u32 %r2, [%rd1];
  @!%p1 st.global.u32 [%rd1+4], %r2;
  ret;
}
)";
  for (unsigned threads : {1u, 2u}) {
    DeviceMemory memory;
    uint64_t buf = memory.allocate(8);
    auto report = run(ptx, grid(1, 2), {buf}, memory, profiled(threads));
    ASSERT_FALSE(bool(report));
    std::string message = llvm::toString(report.takeError());
    EXPECT_NE(message.find("CTA (1,0,0)"), std::string::npos) << message;
    EXPECT_NE(message.find("initcheck: the stored data uses bytes never "
                           "written"),
              std::string::npos)
        << message;
  }
  // CTA 0 alone writes the word; in the next launch CTA 1 reads it.
  DeviceMemory memory;
  uint64_t buf = memory.allocate(8);
  ASSERT_TRUE(bool(run(ptx, grid(1, 1), {buf}, memory, profiled())));
  auto second = run(ptx, grid(1, 2), {buf}, memory, profiled(2));
  EXPECT_TRUE(bool(second)) << llvm::toString(second.takeError());
}

} // namespace
