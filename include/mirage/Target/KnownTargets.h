//===- KnownTargets.h - the one database of the GPUs mirage knows -*- C++ -*-===//
//
// Every fact about a GPU that the search, the cost model, the lowering and
// the tools need lives in one entry of this database, so that a chip is
// described once and the parts of the compiler cannot disagree about it
// (issue 25). An entry is a product (a board with a given SM count, clocks
// and memory); its `arch` ("sm_90") names the instruction set. Looking up an
// arch name gives that arch's reference product (sm_90 is the
// H100-SXM5-80GB).
//
// Each number carries a comment naming its source. Abbreviations used there:
//   [PG]  CUDA C++ Programming Guide, "Technical Specifications per Compute
//         Capability" (per-arch limits).
//   [PTX] PTX ISA reference, target and instruction tables (ISA versions,
//         instruction availability).
//   [WP]  the architecture whitepaper of the product's generation.
//   [DS]  the product's datasheet.
//   [MB]  published microbenchmarks, as docs/CostModel.md cites them.
// Peaks are dense (no structured sparsity), tensor-core peaks with f32
// accumulation.
//
// Measured values (e.g. the bandwidth a microbenchmark reaches) are layered
// over an entry with applyTargetCalibration, from a JSON file.
//
// The library links nothing but LLVM Support: tools that do not link the
// MLIR passes (mirage-gpu-run) read it too.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TARGET_KNOWNTARGETS_H
#define MIRAGE_TARGET_KNOWNTARGETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>

namespace mirage {
namespace target {

/// The element types whose tensor-core shapes and peaks an entry records.
enum class MmaType { F16, BF16, TF32, INT8, FP8 };
inline constexpr unsigned kNumMmaTypes = 5;

/// "f16", "bf16", "tf32", "int8", "fp8".
llvm::StringRef getMmaTypeName(MmaType type);

/// One warp-level mma.sync shape (m x n x k) of an element type; all zero
/// when the chip has none for that type.
struct MmaShape {
  unsigned m = 0, n = 0, k = 0;
  bool isAvailable() const { return m != 0; }
};

/// What one element type gets from the tensor cores.
struct TensorCoreInfo {
  /// The largest mma.sync shape [PTX "Warp-level matrix shapes"].
  MmaShape mmaSync;
  /// Dense peak, TFLOP/s (TOP/s for int8); 0 when unsupported.
  double denseTflops = 0;
};

/// What the timing model (lib/GpuTiming, docs/TimingModel.md) needs of an
/// SM beyond the product's peaks: issue rates, dependent latencies and the
/// memory path, per arch. All zero for an arch nothing published has been
/// checked for: the timing model then refuses the target.
struct SmTimingInfo {
  /// Warp schedulers (SM sub-partitions), each issuing one warp-level
  /// instruction per cycle [WP].
  unsigned schedulersPerSM = 0;
  /// Lanes per cycle per SM (the [PG] "Arithmetic Instructions" throughput
  /// table): a warp-level instruction takes 32 / (lanes / schedulers)
  /// cycles of its sub-partition's pipe.
  unsigned fp32Lanes = 0, fp16x2Lanes = 0, fp64Lanes = 0, integerLanes = 0,
           specialFunctionLanes = 0, conversionLanes = 0, moveLanes = 0,
           shuffleLanes = 0, memoryLanes = 0;
  /// Dependent-issue latencies, cycles [MB].
  unsigned fp32Latency = 0, fp16Latency = 0, fp64Latency = 0,
           integerLatency = 0, specialFunctionLatency = 0,
           conversionLatency = 0, moveLatency = 0, shuffleLatency = 0;
  /// div.rn / rem / integer division: the instruction sequence ptxas
  /// expands them into, as one latency and an issue cost in cycles.
  unsigned divideLatency = 0, divideIssueCycles = 0;
  /// mma.sync m16n8k16 (f16 in, f32 accumulate): dependent latency, and the
  /// fraction of the tensor-core peak mma.sync reaches (below 1 on Hopper,
  /// whose peak needs wgmma) [MB].
  unsigned mmaLatency = 0;
  double mmaSyncPeakFraction = 0;
  /// Dense f16 multiply-adds per cycle per SM of the tensor cores [WP].
  unsigned mmaMacsPerCyclePerSM = 0;
  /// The memory path, cycles [MB]: ld.shared, an L1 hit, an L2 hit, a miss
  /// to device memory, ld.param (constant cache hit).
  unsigned sharedLatency = 0, l1HitLatency = 0, l2HitLatency = 0,
           dramLatency = 0, paramLatency = 0;
  /// Bytes per cycle per SM: shared memory / L1 (one 128-byte wavefront a
  /// cycle) and the SM's link to L2 [WP, MB].
  double sharedBytesPerCycle = 0, l2BytesPerCyclePerSM = 0;
  /// The fraction of the datasheet's DRAM bandwidth a streaming kernel
  /// reaches (STREAM triad) [MB].
  double dramAchievableFraction = 0;
  /// bar.sync: cycles from the last arrival to the release [MB].
  unsigned barrierLatency = 0;
  /// Cycles from a CTA's exit to the next CTA's first issue on that SM, and
  /// from a kernel's launch to its first CTA's issue (assumed; docs/
  /// TimingModel.md).
  unsigned ctaLaunchCycles = 0, kernelRampCycles = 0;
  /// Launch overhead of one kernel in a CUDA graph, microseconds (the
  /// stream launch overhead is TargetInfo::launchOverheadUs).
  double graphLaunchOverheadUs = 0;
  /// The clock the SMs run at under load, GHz [MB]: below the boost clock
  /// on H100 SXM (power-limited), equal to it on A100.
  double sustainedClockGHz = 0;

  bool isKnown() const { return schedulersPerSM != 0; }
};

/// One GPU product.
struct TargetInfo {
  /// The product: "H100-SXM5-80GB".
  std::string product;
  /// The arch name LLVM's NVPTX backend, ptxas and the manifest use:
  /// "sm_90".
  std::string arch;
  /// Whether this product is what the bare arch name means.
  bool isArchReference = false;
  /// Compute capability as major * 10 + minor: 90.
  unsigned computeCapability = 0;
  /// The first PTX ISA version that knows the arch, major * 10 + minor:
  /// what LLVM emits without a "+ptx<N>" feature.
  unsigned minPtxVersion = 0;
  /// The PTX ISA version the kernels are emitted in: the first that knows
  /// the arch and every instruction the code generator uses on it.
  unsigned ptxVersion = 0;

  // Compute.
  int64_t numSMs = 0;
  double boostClockGHz = 0;
  double baseClockGHz = 0;

  // Per-arch limits [PG].
  int64_t sharedMemoryPerBlockDefault = 0; // bytes without the opt-in
  int64_t sharedMemoryPerBlockOptin = 0;   // cudaDevAttrMaxSharedMemoryPerBlockOptin
  int64_t sharedMemoryPerSM = 0;           // bytes for all resident blocks
  int64_t registersPerSM = 0;              // 32-bit registers
  int64_t maxRegistersPerThread = 0;
  int64_t maxThreadsPerSM = 0;
  int64_t maxWarpsPerSM = 0;
  int64_t maxBlocksPerSM = 0;
  int64_t maxThreadsPerBlock = 0;

  // Memory hierarchy.
  int64_t l1SharedBytesPerSM = 0; // unified L1 + shared memory per SM
  int64_t l2Bytes = 0;
  double dramBandwidthGBs = 0; // 1e9 bytes/s
  int64_t dramBytes = 0;

  // Arithmetic.
  double fp32Tflops = 0; // CUDA cores, an FMA counted as 2 flops
  TensorCoreInfo tensorCores[kNumMmaTypes];

  // The cost model's own parameters (docs/CostModel.md): 0 where nothing
  // has been measured or assumed for the product, and the cost model then
  // refuses the target until a calibration file gives them.
  double l2BandwidthGBs = 0;   // L2 read bandwidth, 1e9 bytes/s
  double launchOverheadUs = 0; // one launch, back to back in a stream

  // The timing model's parameters.
  SmTimingInfo timing;

  // Instructions [PTX].
  bool hasCpAsync = false;  // cp.async, sm_80+
  bool hasLdmatrix = false; // ldmatrix, sm_75+
  bool hasWgmma = false;    // wgmma.mma_async, sm_90a only
  bool hasTma = false;      // cp.async.bulk.tensor, sm_90+
  bool hasClusters = false; // thread-block clusters, sm_90+

  const TensorCoreInfo &getTensorCores(MmaType type) const {
    return tensorCores[static_cast<unsigned>(type)];
  }
};

/// The target every pass, tool and the Python package use when none is
/// named and the program records none (`mirage.target`): the H100's arch,
/// the largest chip the cost model has been checked against.
inline constexpr llvm::StringLiteral kDefaultTarget = "sm_90";

/// Every known product, oldest arch first.
llvm::ArrayRef<TargetInfo> getKnownTargets();

/// The entry named `name`: a product ("H200-SXM-141GB") or an arch
/// ("sm_80", its reference product). Names compare case-insensitively.
/// The error lists every known name.
llvm::Expected<const TargetInfo &> lookupTarget(llvm::StringRef name);

/// Whether the cost model has its own parameters for `info` (see
/// l2BandwidthGBs); when not, the reason, naming what a calibration file
/// must give.
std::optional<std::string> getMissingCostModelParameters(const TargetInfo &info);

/// "sm_75 (T4), sm_80 (A100-SXM4-80GB), ..., H200-SXM-141GB".
std::string getKnownTargetNames();

/// Overrides fields of `info` with those of the JSON object `json`, e.g.
/// {"dramBandwidthGBs": 1800, "boostClockGHz": 1.3}: the measured values
/// of a calibration. Keys are the field names above; unknown keys and
/// non-positive values are errors, and on error `info` is unchanged.
llvm::Error applyTargetCalibrationJSON(TargetInfo &info, llvm::StringRef json);
/// The same, from the file at `path`.
llvm::Error applyTargetCalibration(TargetInfo &info, llvm::StringRef path);

} // namespace target
} // namespace mirage

#endif // MIRAGE_TARGET_KNOWNTARGETS_H
