//===- KnownTargetsTest.cpp - the target database ------------------------===//

#include "mirage/Target/KnownTargets.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace mirage::target;

namespace {

TEST(KnownTargets, LooksUpArchAndProductNames) {
  llvm::Expected<const TargetInfo &> a100 = lookupTarget("sm_80");
  ASSERT_TRUE(static_cast<bool>(a100));
  EXPECT_EQ(a100->product, "A100-SXM4-80GB");
  EXPECT_EQ(a100->numSMs, 108);

  llvm::Expected<const TargetInfo &> h100 = lookupTarget("sm_90");
  ASSERT_TRUE(static_cast<bool>(h100));
  EXPECT_EQ(h100->product, "H100-SXM5-80GB");
  EXPECT_EQ(h100->numSMs, 132);

  // Products by name, case-insensitively; H200 shares sm_90 with H100.
  llvm::Expected<const TargetInfo &> h200 = lookupTarget("h200-sxm-141gb");
  ASSERT_TRUE(static_cast<bool>(h200));
  EXPECT_EQ(h200->arch, "sm_90");
  EXPECT_GT(h200->dramBandwidthGBs, h100->dramBandwidthGBs);
}

TEST(KnownTargets, UnknownNameListsKnownNames) {
  llvm::Expected<const TargetInfo &> t = lookupTarget("sm_70");
  ASSERT_FALSE(static_cast<bool>(t));
  std::string message = llvm::toString(t.takeError());
  EXPECT_NE(message.find("unknown target 'sm_70'"), std::string::npos);
  EXPECT_NE(message.find("sm_80 (A100-SXM4-80GB)"), std::string::npos);
  EXPECT_NE(message.find("H200-SXM-141GB"), std::string::npos);
}

// The arches the GPU lowering's chip table (GpuChip.h) supports: the
// database covers each, with the same shared-memory limits and ISA.
TEST(KnownTargets, CoversTheLoweringsChips) {
  struct Expect {
    const char *arch;
    unsigned minPtx, ptx;
    int64_t smemOptinKiB, smemPerSMKiB;
    bool cpAsync;
  };
  const Expect expected[] = {
      {"sm_75", 63, 65, 64, 64, false},   {"sm_80", 70, 70, 163, 164, true},
      {"sm_86", 71, 71, 99, 100, true},   {"sm_87", 74, 74, 163, 164, true},
      {"sm_89", 78, 78, 99, 100, true},   {"sm_90", 78, 78, 227, 228, true},
      {"sm_100", 86, 86, 227, 228, true}, {"sm_120", 87, 87, 99, 100, true},
  };
  for (const Expect &e : expected) {
    SCOPED_TRACE(e.arch);
    llvm::Expected<const TargetInfo &> t = lookupTarget(e.arch);
    ASSERT_TRUE(static_cast<bool>(t));
    EXPECT_EQ(t->minPtxVersion, e.minPtx);
    EXPECT_EQ(t->ptxVersion, e.ptx);
    EXPECT_EQ(t->sharedMemoryPerBlockOptin, e.smemOptinKiB * 1024);
    EXPECT_EQ(t->sharedMemoryPerSM, e.smemPerSMKiB * 1024);
    EXPECT_EQ(t->hasCpAsync, e.cpAsync);
  }
}

TEST(KnownTargets, EveryEntryIsPositiveAndConsistent) {
  llvm::StringSet<> names;
  unsigned archReferences = 0;
  for (const TargetInfo &t : getKnownTargets()) {
    SCOPED_TRACE(t.product);
    EXPECT_TRUE(names.insert(t.product.c_str()).second) << "duplicate";
    EXPECT_TRUE(llvm::StringRef(t.arch).starts_with("sm_"));
    EXPECT_EQ(t.arch, "sm_" + std::to_string(t.computeCapability));
    archReferences += t.isArchReference;
    EXPECT_GE(t.ptxVersion, t.minPtxVersion);
    EXPECT_GT(t.numSMs, 0);
    EXPECT_GT(t.boostClockGHz, 0);
    EXPECT_GT(t.baseClockGHz, 0);
    EXPECT_LE(t.baseClockGHz, t.boostClockGHz);
    EXPECT_GT(t.sharedMemoryPerBlockDefault, 0);
    EXPECT_LE(t.sharedMemoryPerBlockDefault, t.sharedMemoryPerBlockOptin);
    EXPECT_LE(t.sharedMemoryPerBlockOptin, t.sharedMemoryPerSM);
    EXPECT_LE(t.sharedMemoryPerSM, t.l1SharedBytesPerSM);
    EXPECT_GT(t.registersPerSM, 0);
    EXPECT_GT(t.maxRegistersPerThread, 0);
    EXPECT_EQ(t.maxWarpsPerSM * 32, t.maxThreadsPerSM);
    EXPECT_GT(t.maxBlocksPerSM, 0);
    EXPECT_LE(t.maxThreadsPerBlock, t.maxThreadsPerSM);
    EXPECT_GT(t.l2Bytes, 0);
    EXPECT_GT(t.dramBandwidthGBs, 0);
    EXPECT_GT(t.dramBytes, 0);
    EXPECT_GT(t.fp32Tflops, 0);
    // Every chip has f16 tensor cores, and a peak exactly where a shape is.
    EXPECT_TRUE(t.getTensorCores(MmaType::F16).mmaSync.isAvailable());
    for (unsigned i = 0; i < kNumMmaTypes; ++i) {
      const TensorCoreInfo &tc = t.tensorCores[i];
      SCOPED_TRACE(getMmaTypeName(static_cast<MmaType>(i)).str());
      EXPECT_EQ(tc.mmaSync.isAvailable(), tc.denseTflops > 0);
      if (tc.mmaSync.isAvailable()) {
        EXPECT_GE(tc.denseTflops, t.fp32Tflops); // GeForce tf32 = fp32
      }
    }
    // Instruction generations nest: TMA and clusters came with sm_90,
    // cp.async with sm_80, ldmatrix with sm_75.
    EXPECT_EQ(t.hasCpAsync, t.computeCapability >= 80);
    EXPECT_TRUE(t.hasLdmatrix);
    EXPECT_EQ(t.hasTma, t.computeCapability >= 90);
    EXPECT_EQ(t.hasClusters, t.computeCapability >= 90);
    EXPECT_EQ(t.hasWgmma, t.computeCapability == 90);
  }
  EXPECT_GE(getKnownTargets().size(), 9u);
  EXPECT_EQ(archReferences, 8u);
}

TEST(KnownTargets, CalibrationOverlaysMeasuredValues) {
  TargetInfo t = *lookupTarget("sm_80");
  ASSERT_FALSE(static_cast<bool>(applyTargetCalibrationJSON(
      t, R"({"dramBandwidthGBs": 1750.5, "numSMs": 100})")));
  EXPECT_DOUBLE_EQ(t.dramBandwidthGBs, 1750.5);
  EXPECT_EQ(t.numSMs, 100);
  EXPECT_DOUBLE_EQ(t.boostClockGHz, 1.41); // untouched
  // The database itself is unchanged.
  EXPECT_DOUBLE_EQ(lookupTarget("sm_80")->dramBandwidthGBs, 2039);
}

TEST(KnownTargets, CalibrationErrorsLeaveTheEntryUnchanged) {
  TargetInfo t = *lookupTarget("sm_90");
  for (const char *bad :
       {R"({"dramBandwidthGBs": 1, "nosuchKey": 2})",
        R"({"numSMs": 1.5})", R"({"boostClockGHz": -1})", R"([1])",
        R"({"dramBandwidthGBs": )"}) {
    SCOPED_TRACE(bad);
    llvm::Error err = applyTargetCalibrationJSON(t, bad);
    EXPECT_TRUE(static_cast<bool>(err));
    llvm::consumeError(std::move(err));
    EXPECT_DOUBLE_EQ(t.dramBandwidthGBs, 3350);
    EXPECT_EQ(t.numSMs, 132);
  }
}

TEST(KnownTargets, TimingParametersForTheCheckedArchs) {
  // The timing model knows the archs whose figures are published (sm_80,
  // sm_90 and its H200), and nothing else pretends to be known.
  for (const TargetInfo &t : getKnownTargets()) {
    SCOPED_TRACE(t.product);
    bool checked = t.arch == "sm_80" || t.arch == "sm_90";
    EXPECT_EQ(t.timing.isKnown(), checked);
    if (!checked)
      continue;
    const SmTimingInfo &m = t.timing;
    EXPECT_EQ(m.schedulersPerSM, 4u);
    // The memory hierarchy's latencies grow outward.
    EXPECT_LT(m.sharedLatency, m.l1HitLatency);
    EXPECT_LT(m.l1HitLatency, m.l2HitLatency);
    EXPECT_LT(m.l2HitLatency, m.dramLatency);
    EXPECT_GT(m.dramAchievableFraction, 0.5);
    EXPECT_LE(m.dramAchievableFraction, 1.0);
    EXPECT_GT(m.mmaSyncPeakFraction, 0);
    EXPECT_LE(m.mmaSyncPeakFraction, 1.0);
    // The tensor cores' rate and the datasheet's peak agree within the
    // clock the peak is quoted at (H100's at ~1.83 GHz, below boost).
    double peakMacsPerCycle = t.getTensorCores(MmaType::F16).denseTflops *
                              1e12 / 2 / (t.boostClockGHz * 1e9) / t.numSMs;
    EXPECT_NEAR(m.mmaMacsPerCyclePerSM, peakMacsPerCycle,
                0.1 * m.mmaMacsPerCyclePerSM);
  }
}

TEST(KnownTargets, CalibrationGivesTimingParameters) {
  TargetInfo t = *lookupTarget("sm_90");
  ASSERT_FALSE(static_cast<bool>(applyTargetCalibrationJSON(
      t, R"({"timing.dramLatency": 600, "timing.dramAchievableFraction": 0.8})")));
  EXPECT_EQ(t.timing.dramLatency, 600u);
  EXPECT_DOUBLE_EQ(t.timing.dramAchievableFraction, 0.8);
  for (const char *bad : {R"({"timing.dramLatency": 0})",
                          R"({"timing.dramLatency": 1.5})",
                          R"({"timing.unknown": 1})"}) {
    SCOPED_TRACE(bad);
    llvm::Error err = applyTargetCalibrationJSON(t, bad);
    EXPECT_TRUE(static_cast<bool>(err));
    llvm::consumeError(std::move(err));
    EXPECT_EQ(t.timing.dramLatency, 600u);
  }
}

TEST(KnownTargets, CalibrationFromFile) {
  llvm::SmallString<128> path;
  int fd;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("calib", "json", fd, path));
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << R"({"boostClockGHz": 1.2})";
  }
  TargetInfo t = *lookupTarget("sm_86");
  EXPECT_FALSE(static_cast<bool>(applyTargetCalibration(t, path)));
  EXPECT_DOUBLE_EQ(t.boostClockGHz, 1.2);
  llvm::sys::fs::remove(path);
  llvm::Error missing = applyTargetCalibration(t, path);
  EXPECT_TRUE(static_cast<bool>(missing));
  llvm::consumeError(std::move(missing));
}

} // namespace
