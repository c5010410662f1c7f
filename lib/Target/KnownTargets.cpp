//===- KnownTargets.cpp - the one database of the GPUs mirage knows -------===//
//
// The entries of include/mirage/Target/KnownTargets.h. Sources are abbreviated as
// there: [PG] CUDA C++ Programming Guide, compute-capability table; [PTX]
// PTX ISA reference; [WP] architecture whitepaper; [DS] product datasheet;
// [MB] published microbenchmarks, as docs/CostModel.md cites them.
//
//===----------------------------------------------------------------------===//

#include "mirage/Target/KnownTargets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mirage;
using namespace mirage::target;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

static constexpr int64_t KiB = 1024;
static constexpr int64_t MiB = 1024 * KiB;
static constexpr int64_t GB = 1000ll * 1000 * 1000;

StringRef target::getMmaTypeName(MmaType type) {
  switch (type) {
  case MmaType::F16:
    return "f16";
  case MmaType::BF16:
    return "bf16";
  case MmaType::TF32:
    return "tf32";
  case MmaType::INT8:
    return "int8";
  case MmaType::FP8:
    return "fp8";
  }
  llvm_unreachable("unknown mma type");
}

namespace {
// Limits of an arch [PG, table "Technical Specifications per Compute
// Capability"], shared by its products.
void setArchLimits(TargetInfo &t, int64_t smemOptinKiB, int64_t smemPerSMKiB,
                   int64_t l1SharedKiB, int64_t maxThreadsPerSM,
                   int64_t maxBlocksPerSM) {
  t.sharedMemoryPerBlockDefault = 48 * KiB; // [PG] every CC
  t.sharedMemoryPerBlockOptin = smemOptinKiB * KiB;
  t.sharedMemoryPerSM = smemPerSMKiB * KiB;
  t.l1SharedBytesPerSM = l1SharedKiB * KiB;
  t.registersPerSM = 64 * 1024;  // [PG] every CC since 5.0
  t.maxRegistersPerThread = 255; // [PG]
  t.maxThreadsPerSM = maxThreadsPerSM;
  t.maxWarpsPerSM = maxThreadsPerSM / 32;
  t.maxBlocksPerSM = maxBlocksPerSM;
  t.maxThreadsPerBlock = 1024; // [PG] every CC since 2.0
}

// mma.sync shapes [PTX "Matrix shapes"]: m16n8k16 for f16/bf16, m16n8k8
// for tf32, m16n8k32 for int8 (sm_80+); sm_75 has f16 m16n8k8 and int8
// m8n8k16; fp8 m16n8k32 from sm_89.
void setMma(TargetInfo &t, MmaType type, MmaShape shape, double tflops) {
  t.tensorCores[static_cast<unsigned>(type)] = {shape, tflops};
}

// The timing model's SM parameters (docs/TimingModel.md has the table with
// each source). [PG-T] is the Programming Guide's "Arithmetic
// Instructions" throughput table (results per clock per SM); [MB-A]
// Abdelkhalik et al. 2022, "Demystifying the Nvidia Ampere Architecture
// through Microbenchmarking and Instruction-level Analysis" (arXiv
// 2208.11174); [MB-H] Luo et al. 2024/2025, "Benchmarking and Dissecting
// the Nvidia Hopper GPU Architecture" (arXiv 2402.13499) and "Dissecting
// the NVIDIA Hopper Architecture through Microbenchmarking and Multiple
// Level Analysis" (arXiv 2501.12084). "assumed" marks what nothing
// published measures; the calibration file of bench/gpu replaces them.
void setSmTiming(TargetInfo &t, unsigned fp32Lanes, unsigned fp64Lanes) {
  SmTimingInfo &m = t.timing;
  m.schedulersPerSM = 4; // [WP] four SM sub-partitions since Volta
  m.fp32Lanes = fp32Lanes;      // [PG-T] 32-bit fp add/mul/fma
  m.fp16x2Lanes = 128;          // [PG-T] 16-bit fp: 256 results = 128 x2
  m.fp64Lanes = fp64Lanes;      // [PG-T]
  m.integerLanes = 64;          // [PG-T] 32-bit int add/sub/mad, shifts
  m.specialFunctionLanes = 16;  // [PG-T] rcp, rsqrt, lg2, ex2, sin, cos
  m.conversionLanes = 16;       // [PG-T] type conversions
  m.moveLanes = 64;             // [PG-T] compare, min, max
  m.shuffleLanes = 32;          // [PG-T] warp shuffle
  m.memoryLanes = 64;           // assumed: one memory instruction per 2 cycles per scheduler
  m.divideLatency = 40;         // assumed: div.rn.f32 is ~10 dependent ops
  m.divideIssueCycles = 20;     // assumed
  m.barrierLatency = 20;        // assumed
  m.paramLatency = 4;           // assumed: a constant-bank operand
  m.ctaLaunchCycles = 200;      // assumed
  m.kernelRampCycles = 500;     // assumed
  m.graphLaunchOverheadUs = 1.0; // assumed
  m.sharedBytesPerCycle = 128;  // [WP] 32 banks x 4 bytes
}

std::vector<TargetInfo> buildTargets() {
  std::vector<TargetInfo> all;

  // Turing: Tesla T4 [DS "NVIDIA T4 Tensor Core GPU"; WP Turing].
  {
    TargetInfo t;
    t.product = "T4";
    t.arch = "sm_75";
    t.isArchReference = true;
    t.computeCapability = 75;
    t.minPtxVersion = 63; // [PTX] sm_75 from PTX 6.3
    t.ptxVersion = 65;    // [PTX] mma m16n8k8 needs PTX 6.5
    t.numSMs = 40;        // [WP] 2560 CUDA cores / 64
    t.boostClockGHz = 1.59;  // [DS]
    t.baseClockGHz = 0.585;  // [WP] T4 base clock
    setArchLimits(t, 64, 64, 96, 1024, 16); // [PG] CC 7.5
    t.l2Bytes = 4 * MiB;                    // [WP]
    t.dramBandwidthGBs = 320;               // [DS] GDDR6
    t.dramBytes = 16 * GB;                  // [DS]
    t.fp32Tflops = 8.1;                     // [DS]
    setMma(t, MmaType::F16, {16, 8, 8}, 65); // [DS] mixed precision
    setMma(t, MmaType::INT8, {8, 8, 16}, 130); // [DS]
    t.hasLdmatrix = true; // [PTX] ldmatrix sm_75+
    all.push_back(t);
  }

  // Ampere data center: A100-SXM4-80GB [DS A100; WP "NVIDIA A100 Tensor
  // Core GPU Architecture"].
  auto ampere = [](TargetInfo &t) {
    setMma(t, MmaType::F16, {16, 8, 16}, 0);
    setMma(t, MmaType::BF16, {16, 8, 16}, 0);
    setMma(t, MmaType::TF32, {16, 8, 8}, 0);
    setMma(t, MmaType::INT8, {16, 8, 32}, 0);
    t.hasCpAsync = true; // [PTX] cp.async sm_80+
    t.hasLdmatrix = true;
  };
  {
    TargetInfo t;
    t.product = "A100-SXM4-80GB";
    t.arch = "sm_80";
    t.isArchReference = true;
    t.computeCapability = 80;
    t.minPtxVersion = 70; // [PTX] sm_80 from PTX 7.0
    t.ptxVersion = 70;
    t.numSMs = 108;          // [WP]
    t.boostClockGHz = 1.41;  // [WP]
    t.baseClockGHz = 1.065;  // [DS] A100 SXM4 base clock (board specification)
    setArchLimits(t, 163, 164, 192, 2048, 32); // [PG] CC 8.0
    t.l2Bytes = 40 * MiB;        // [WP]
    t.dramBandwidthGBs = 2039;   // [DS] HBM2e, 80GB SXM
    t.dramBytes = 80 * GB;       // [DS]
    t.fp32Tflops = 19.5;         // [DS]
    ampere(t);
    t.tensorCores[unsigned(MmaType::F16)].denseTflops = 312;  // [DS]
    t.tensorCores[unsigned(MmaType::BF16)].denseTflops = 312; // [DS]
    t.tensorCores[unsigned(MmaType::TF32)].denseTflops = 156; // [DS]
    t.tensorCores[unsigned(MmaType::INT8)].denseTflops = 624; // [DS]
    t.l2BandwidthGBs = 5000;  // [MB] approximate (docs/CostModel.md)
    t.launchOverheadUs = 3.0; // assumed (docs/CostModel.md)
    setSmTiming(t, /*fp32Lanes=*/64, /*fp64Lanes=*/32); // [PG-T] CC 8.0
    SmTimingInfo &m = t.timing;
    m.fp32Latency = 4;             // [MB-A] Table II, add/fma.f32 dependent
    m.fp16Latency = 3;             // [MB-A] Table II, add.f16 dependent
    m.fp64Latency = 5;             // [MB-A] Table II, add.f64 dependent
    m.integerLatency = 4;          // [MB-A] Table II, add.u32 dependent
    m.specialFunctionLatency = 18; // [MB-A] Table V: lg2/rsqrt 18, ex2 14
    m.conversionLatency = 6;       // [MB-A] Table V, cvt.rzi.s32.f32
    m.moveLatency = 4;             // [MB-A] Table II (ALU dependent)
    m.shuffleLatency = 24;         // assumed: not measured in [MB-A]
    m.mmaLatency = 25;             // assumed: Accel-Sim's SM80 prior
    m.mmaSyncPeakFraction = 1.0;   // [MB-A] Table III: 310-312 of 312 TF
    m.mmaMacsPerCyclePerSM = 1024; // [WP] 4 tensor cores x 256 FMA
    m.sharedLatency = 23;          // [MB-A] Table IV
    m.l1HitLatency = 33;           // [MB-A] Table IV
    m.l2HitLatency = 262;          // [MB-H] 2402.13499 Table IV, A100 PCIe
    m.dramLatency = 466;           // [MB-H] 2402.13499 Table IV, A100 PCIe
    m.l2BytesPerCyclePerSM = 64;   // [WP] L2 to SM
    m.dramAchievableFraction = 0.87; // [MB] BabelStream triad 1774 GB/s
    m.sustainedClockGHz = 1.41;    // [WP] the boost clock, held under load
    all.push_back(t);
  }
  // Ampere GA102: GeForce RTX 3090 [WP "NVIDIA Ampere GA102 GPU
  // Architecture", appendix table]. GeForce tensor cores run f32
  // accumulation at half the f16-accumulate rate.
  {
    TargetInfo t;
    t.product = "RTX-3090";
    t.arch = "sm_86";
    t.isArchReference = true;
    t.computeCapability = 86;
    t.minPtxVersion = 71; // [PTX] sm_86 from PTX 7.1
    t.ptxVersion = 71;
    t.numSMs = 82;           // [WP]
    t.boostClockGHz = 1.695; // [WP]
    t.baseClockGHz = 1.395;  // [WP]
    setArchLimits(t, 99, 100, 128, 1536, 16); // [PG] CC 8.6
    t.l2Bytes = 6 * MiB;       // [WP]
    t.dramBandwidthGBs = 936;  // [WP] GDDR6X
    t.dramBytes = 24 * GB;     // [WP]
    t.fp32Tflops = 35.6;       // [WP]
    ampere(t);
    t.tensorCores[unsigned(MmaType::F16)].denseTflops = 71;   // [WP]
    t.tensorCores[unsigned(MmaType::BF16)].denseTflops = 71;  // [WP]
    t.tensorCores[unsigned(MmaType::TF32)].denseTflops = 35.6; // [WP]
    t.tensorCores[unsigned(MmaType::INT8)].denseTflops = 284; // [WP]
    all.push_back(t);
  }
  // Ampere embedded: Jetson AGX Orin 64GB [DS "Jetson AGX Orin Series"].
  {
    TargetInfo t;
    t.product = "Jetson-AGX-Orin-64GB";
    t.arch = "sm_87";
    t.isArchReference = true;
    t.computeCapability = 87;
    t.minPtxVersion = 74; // [PTX] sm_87 from PTX 7.4
    t.ptxVersion = 74;
    t.numSMs = 16;           // [DS] 2048 CUDA cores / 128
    t.boostClockGHz = 1.3;   // [DS] GPU max frequency
    t.baseClockGHz = 1.3;    // [DS] gives only the maximum
    setArchLimits(t, 163, 164, 192, 1536, 16); // [PG] CC 8.7
    t.l2Bytes = 4 * MiB;        // [DS]
    t.dramBandwidthGBs = 204.8; // [DS] LPDDR5, shared with the CPU
    t.dramBytes = 64 * GB;      // [DS]
    t.fp32Tflops = 5.3;         // 2048 cores x 2 x 1.3 GHz
    ampere(t);
    // [DS] 170 sparse INT8 TOPS for the GPU: 85 dense; f16 half of that.
    t.tensorCores[unsigned(MmaType::F16)].denseTflops = 42.5;
    t.tensorCores[unsigned(MmaType::BF16)].denseTflops = 42.5;
    t.tensorCores[unsigned(MmaType::TF32)].denseTflops = 21.25;
    t.tensorCores[unsigned(MmaType::INT8)].denseTflops = 85;
    all.push_back(t);
  }
  // Ada: GeForce RTX 4090 [WP "NVIDIA Ada GPU Architecture", appendix].
  {
    TargetInfo t;
    t.product = "RTX-4090";
    t.arch = "sm_89";
    t.isArchReference = true;
    t.computeCapability = 89;
    t.minPtxVersion = 78; // [PTX] sm_89 from PTX 7.8
    t.ptxVersion = 78;
    t.numSMs = 128;          // [WP]
    t.boostClockGHz = 2.52;  // [WP]
    t.baseClockGHz = 2.235;  // [WP]
    setArchLimits(t, 99, 100, 128, 1536, 24); // [PG] CC 8.9
    t.l2Bytes = 72 * MiB;       // [WP]
    t.dramBandwidthGBs = 1008;  // [WP] GDDR6X
    t.dramBytes = 24 * GB;      // [WP]
    t.fp32Tflops = 82.6;        // [WP]
    ampere(t);
    setMma(t, MmaType::FP8, {16, 8, 32}, 330.3); // [PTX] e4m3/e5m2 sm_89+; [WP]
    t.tensorCores[unsigned(MmaType::F16)].denseTflops = 165.2;  // [WP]
    t.tensorCores[unsigned(MmaType::BF16)].denseTflops = 165.2; // [WP]
    t.tensorCores[unsigned(MmaType::TF32)].denseTflops = 82.6;  // [WP]
    t.tensorCores[unsigned(MmaType::INT8)].denseTflops = 660.6; // [WP]
    all.push_back(t);
  }
  // Hopper: H100-SXM5-80GB and H200 [WP "NVIDIA H100 Tensor Core GPU
  // Architecture"; DS H100, DS H200].
  auto hopper = [&](TargetInfo &t) {
    t.arch = "sm_90";
    t.computeCapability = 90;
    t.minPtxVersion = 78; // [PTX] sm_90 from PTX 7.8
    t.ptxVersion = 78;
    t.numSMs = 132;          // [WP] SXM5
    t.boostClockGHz = 1.98;  // [DS] max boost, SXM5
    t.baseClockGHz = 1.59;   // [DS] board specification
    setArchLimits(t, 227, 228, 256, 2048, 32); // [PG] CC 9.0
    t.l2Bytes = 50 * MiB;  // [WP]
    t.fp32Tflops = 66.9;   // [DS] SXM
    ampere(t);
    setMma(t, MmaType::FP8, {16, 8, 32}, 1978.9);            // [DS]
    t.tensorCores[unsigned(MmaType::F16)].denseTflops = 989.4;  // [DS]
    t.tensorCores[unsigned(MmaType::BF16)].denseTflops = 989.4; // [DS]
    t.tensorCores[unsigned(MmaType::TF32)].denseTflops = 494.7; // [DS]
    t.tensorCores[unsigned(MmaType::INT8)].denseTflops = 1978.9; // [DS]
    t.hasWgmma = true;    // [PTX] wgmma.mma_async, sm_90a
    t.hasTma = true;      // [PTX] cp.async.bulk.tensor, sm_90
    t.hasClusters = true; // [PG] thread block clusters, CC 9.0
    t.l2BandwidthGBs = 10000; // [MB] approximate (docs/CostModel.md)
    t.launchOverheadUs = 2.5; // assumed (docs/CostModel.md)
    setSmTiming(t, /*fp32Lanes=*/128, /*fp64Lanes=*/64); // [PG-T] CC 9.0
    SmTimingInfo &m = t.timing;
    // Hopper's ALU latencies are not published; Ampere's are taken.
    m.fp32Latency = 4;             // as sm_80 [MB-A]
    m.fp16Latency = 3;             // as sm_80 [MB-A]
    m.fp64Latency = 5;             // as sm_80 [MB-A]
    m.integerLatency = 4;          // as sm_80 [MB-A]
    m.specialFunctionLatency = 18; // as sm_80 [MB-A]
    m.conversionLatency = 6;       // as sm_80 [MB-A]
    m.moveLatency = 4;             // as sm_80 [MB-A]
    m.shuffleLatency = 24;         // assumed
    m.mmaLatency = 24;             // [MB-H] 2402.13499 Table VII, H800
    m.mmaSyncPeakFraction = 0.649; // [MB-H] Table VII: 490.7 of 756.5 TF
    m.mmaMacsPerCyclePerSM = 2048; // [WP] 4 tensor cores x 512 FMA
    m.sharedLatency = 29;          // [MB-H] 2402.13499 Table IV, H800
    m.l1HitLatency = 41;           // [MB-H] 2402.13499 Table IV, H800
    m.l2HitLatency = 263;          // [MB-H] 2402.13499 Table IV, H800
    m.dramLatency = 479;           // [MB-H] 2402.13499 Table IV, H800
    m.l2BytesPerCyclePerSM = 64;   // [WP] L2 to SM
    m.dramAchievableFraction = 0.89; // [MB] STREAM triad 2.97 TB/s, SXM5
    m.sustainedClockGHz = 1.755;   // [MB-H] H800's clock in 2402.13499
  };
  {
    TargetInfo t;
    hopper(t);
    t.product = "H100-SXM5-80GB";
    t.isArchReference = true;
    t.dramBandwidthGBs = 3350; // [DS] HBM3
    t.dramBytes = 80 * GB;     // [DS]
    all.push_back(t);
  }
  {
    TargetInfo t;
    hopper(t);
    t.product = "H200-SXM-141GB";
    t.dramBandwidthGBs = 4800; // [DS H200] HBM3e
    t.dramBytes = 141 * GB;    // [DS H200]
    all.push_back(t);
  }
  // Blackwell data center: B200 [DS "NVIDIA DGX B200"/HGX B200; WP
  // "NVIDIA Blackwell Architecture"]. Peaks are per GPU of HGX B200.
  {
    TargetInfo t;
    t.product = "B200";
    t.arch = "sm_100";
    t.isArchReference = true;
    t.computeCapability = 100;
    t.minPtxVersion = 86; // [PTX] sm_100 from PTX 8.6
    t.ptxVersion = 86;
    t.numSMs = 148;          // [WP]
    t.boostClockGHz = 1.965; // [DS] board specification
    t.baseClockGHz = 1.665;  // [DS] board specification
    setArchLimits(t, 227, 228, 256, 2048, 32); // [PG] CC 10.0
    t.l2Bytes = 126 * MiB;      // [WP]
    t.dramBandwidthGBs = 8000;  // [DS] HBM3e
    t.dramBytes = 180 * GB;     // [DS] HGX B200
    t.fp32Tflops = 75;          // [DS] HGX B200 per GPU
    ampere(t);
    setMma(t, MmaType::FP8, {16, 8, 32}, 4500);               // [DS]
    t.tensorCores[unsigned(MmaType::F16)].denseTflops = 2250;  // [DS]
    t.tensorCores[unsigned(MmaType::BF16)].denseTflops = 2250; // [DS]
    t.tensorCores[unsigned(MmaType::TF32)].denseTflops = 1100; // [DS]
    t.tensorCores[unsigned(MmaType::INT8)].denseTflops = 4500; // [DS]
    t.hasTma = true;      // [PTX] sm_90+
    t.hasClusters = true; // [PG] CC 9.0+
    // wgmma is sm_90a only; sm_100a has tcgen05 instead [PTX].
    all.push_back(t);
  }
  // Blackwell client: GeForce RTX 5090 [WP "NVIDIA RTX Blackwell GPU
  // Architecture", appendix].
  {
    TargetInfo t;
    t.product = "RTX-5090";
    t.arch = "sm_120";
    t.isArchReference = true;
    t.computeCapability = 120;
    t.minPtxVersion = 87; // [PTX] sm_120 from PTX 8.7
    t.ptxVersion = 87;
    t.numSMs = 170;          // [WP]
    t.boostClockGHz = 2.407; // [WP]
    t.baseClockGHz = 2.017;  // [WP]
    setArchLimits(t, 99, 100, 128, 1536, 32); // [PG] CC 12.0
    t.l2Bytes = 96 * MiB;       // [WP]
    t.dramBandwidthGBs = 1792;  // [WP] GDDR7
    t.dramBytes = 32 * GB;      // [WP]
    t.fp32Tflops = 104.8;       // [WP]
    ampere(t);
    setMma(t, MmaType::FP8, {16, 8, 32}, 419);                 // [WP]
    t.tensorCores[unsigned(MmaType::F16)].denseTflops = 209.5;  // [WP]
    t.tensorCores[unsigned(MmaType::BF16)].denseTflops = 209.5; // [WP]
    t.tensorCores[unsigned(MmaType::TF32)].denseTflops = 104.8; // [WP]
    t.tensorCores[unsigned(MmaType::INT8)].denseTflops = 838;   // [WP]
    t.hasTma = true;
    t.hasClusters = true;
    all.push_back(t);
  }
  return all;
}
} // namespace

ArrayRef<TargetInfo> target::getKnownTargets() {
  static const std::vector<TargetInfo> targets = buildTargets();
  return targets;
}

std::string target::getKnownTargetNames() {
  std::string names;
  for (const TargetInfo &t : getKnownTargets()) {
    if (!names.empty())
      names += ", ";
    if (t.isArchReference)
      names += t.arch + " (" + t.product + ")";
    else
      names += t.product;
  }
  return names;
}

Expected<const TargetInfo &> target::lookupTarget(StringRef name) {
  for (const TargetInfo &t : getKnownTargets())
    if (name.equals_insensitive(t.product) ||
        (t.isArchReference && name.equals_insensitive(t.arch)))
      return t;
  return llvm::createStringError("unknown target '" + name.str() +
                                 "'; known targets: " + getKnownTargetNames());
}

std::optional<std::string>
target::getMissingCostModelParameters(const TargetInfo &info) {
  std::string missing;
  if (!(info.l2BandwidthGBs > 0))
    missing = "l2BandwidthGBs";
  if (!(info.launchOverheadUs > 0))
    missing += missing.empty() ? "launchOverheadUs" : " and launchOverheadUs";
  if (missing.empty())
    return std::nullopt;
  // Only sm_80 and sm_90 have been checked against published measurements;
  // a made-up L2 bandwidth would rank µGraphs by a guess.
  return "the cost model has no " + missing + " for " + info.arch + " (" +
         info.product + "): nothing published has been checked for it; give " +
         missing + " in a calibration file (docs/CostModel.md)";
}

//===----------------------------------------------------------------------===//
// Calibration
//===----------------------------------------------------------------------===//

namespace {
struct IntKey {
  const char *key;
  int64_t TargetInfo::*field;
};
struct DoubleKey {
  const char *key;
  double TargetInfo::*field;
};
struct TimingUnsignedKey {
  const char *key;
  unsigned SmTimingInfo::*field;
};
struct TimingDoubleKey {
  const char *key;
  double SmTimingInfo::*field;
};
} // namespace

// Only what a measurement can refine: capacities and rates. Names, ISA
// versions and instruction flags describe the arch, not a board, and are
// not calibrated.
static const IntKey kIntKeys[] = {
    {"numSMs", &TargetInfo::numSMs},
    {"sharedMemoryPerBlockOptin", &TargetInfo::sharedMemoryPerBlockOptin},
    {"sharedMemoryPerSM", &TargetInfo::sharedMemoryPerSM},
    {"l2Bytes", &TargetInfo::l2Bytes},
    {"dramBytes", &TargetInfo::dramBytes},
};
static const DoubleKey kDoubleKeys[] = {
    {"boostClockGHz", &TargetInfo::boostClockGHz},
    {"baseClockGHz", &TargetInfo::baseClockGHz},
    {"dramBandwidthGBs", &TargetInfo::dramBandwidthGBs},
    {"fp32Tflops", &TargetInfo::fp32Tflops},
    {"l2BandwidthGBs", &TargetInfo::l2BandwidthGBs},
    {"launchOverheadUs", &TargetInfo::launchOverheadUs},
};

// The timing model's measured values, as "timing.<field>" (bench/gpu
// measures latencies, the achieved DRAM fraction, the clock and the launch
// overheads).
static const TimingUnsignedKey kTimingUnsignedKeys[] = {
    {"timing.fp32Latency", &SmTimingInfo::fp32Latency},
    {"timing.fp16Latency", &SmTimingInfo::fp16Latency},
    {"timing.integerLatency", &SmTimingInfo::integerLatency},
    {"timing.specialFunctionLatency", &SmTimingInfo::specialFunctionLatency},
    {"timing.shuffleLatency", &SmTimingInfo::shuffleLatency},
    {"timing.mmaLatency", &SmTimingInfo::mmaLatency},
    {"timing.sharedLatency", &SmTimingInfo::sharedLatency},
    {"timing.l1HitLatency", &SmTimingInfo::l1HitLatency},
    {"timing.l2HitLatency", &SmTimingInfo::l2HitLatency},
    {"timing.dramLatency", &SmTimingInfo::dramLatency},
    {"timing.barrierLatency", &SmTimingInfo::barrierLatency},
    {"timing.ctaLaunchCycles", &SmTimingInfo::ctaLaunchCycles},
    {"timing.kernelRampCycles", &SmTimingInfo::kernelRampCycles},
};
static const TimingDoubleKey kTimingDoubleKeys[] = {
    {"timing.mmaSyncPeakFraction", &SmTimingInfo::mmaSyncPeakFraction},
    {"timing.dramAchievableFraction", &SmTimingInfo::dramAchievableFraction},
    {"timing.l2BytesPerCyclePerSM", &SmTimingInfo::l2BytesPerCyclePerSM},
    {"timing.graphLaunchOverheadUs", &SmTimingInfo::graphLaunchOverheadUs},
    {"timing.sustainedClockGHz", &SmTimingInfo::sustainedClockGHz},
};

Error target::applyTargetCalibrationJSON(TargetInfo &info, StringRef json) {
  Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return parsed.takeError();
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object)
    return llvm::createStringError("target calibration: not a JSON object");
  // Work on a copy so that an error leaves `info` unchanged.
  TargetInfo result = info;
  for (const auto &[key, value] : *object) {
    StringRef k = key;
    if (const IntKey *ik = llvm::find_if(
            kIntKeys, [&](const IntKey &e) { return k == e.key; });
        ik != std::end(kIntKeys)) {
      std::optional<int64_t> v = value.getAsInteger();
      if (!v || *v <= 0)
        return llvm::createStringError("target calibration: '" + k.str() +
                                       "' must be a positive integer");
      result.*(ik->field) = *v;
      continue;
    }
    if (const DoubleKey *dk = llvm::find_if(
            kDoubleKeys, [&](const DoubleKey &e) { return k == e.key; });
        dk != std::end(kDoubleKeys)) {
      std::optional<double> v = value.getAsNumber();
      if (!v || !(*v > 0))
        return llvm::createStringError("target calibration: '" + k.str() +
                                       "' must be a positive number");
      result.*(dk->field) = *v;
      continue;
    }
    if (const TimingUnsignedKey *tk = llvm::find_if(
            kTimingUnsignedKeys,
            [&](const TimingUnsignedKey &e) { return k == e.key; });
        tk != std::end(kTimingUnsignedKeys)) {
      std::optional<int64_t> v = value.getAsInteger();
      if (!v || *v <= 0 || *v > int64_t(1) << 30)
        return llvm::createStringError("target calibration: '" + k.str() +
                                       "' must be a positive integer");
      result.timing.*(tk->field) = unsigned(*v);
      continue;
    }
    if (const TimingDoubleKey *tk = llvm::find_if(
            kTimingDoubleKeys,
            [&](const TimingDoubleKey &e) { return k == e.key; });
        tk != std::end(kTimingDoubleKeys)) {
      std::optional<double> v = value.getAsNumber();
      if (!v || !(*v > 0))
        return llvm::createStringError("target calibration: '" + k.str() +
                                       "' must be a positive number");
      result.timing.*(tk->field) = *v;
      continue;
    }
    return llvm::createStringError("target calibration: unknown key '" +
                                   k.str() + "'");
  }
  info = std::move(result);
  return Error::success();
}

Error target::applyTargetCalibration(TargetInfo &info, StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "target calibration: cannot read '" +
                                       path.str() + "'");
  return applyTargetCalibrationJSON(info, (*buffer)->getBuffer());
}
