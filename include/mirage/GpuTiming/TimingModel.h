//===- TimingModel.h - a clock for emulated kernels -------------*- C++ -*-===//
//
// The timing model (docs/TimingModel.md): a cycle-approximate model of one
// GPU, driven by the instructions the PTX emulator executes. A KernelTimer
// is given to the emulator as its LaunchTracer; it records the warp-level
// issues of the CTAs that the hardware's round-robin CTA scheduler puts on
// the sampled SMs (CTA i goes to SM i mod #SMs), and the global sectors of
// every CTA. finish() replays the recorded CTAs on a model of the SM (four
// schedulers, a register scoreboard, per-unit pipes, shared-memory
// wavefronts, an L1 sector cache, the SM's share of L2 and HBM bandwidth,
// cp.async groups, barriers, occupancy) and returns the predicted time with
// its bound and stall breakdown.
//
// Parameters come from the target database (mirage/Target/KnownTargets.h,
// SmTimingInfo), each with its source.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUTIMING_TIMINGMODEL_H
#define MIRAGE_GPUTIMING_TIMINGMODEL_H

#include "mirage/GpuEmulator/Trace.h"
#include "mirage/Target/KnownTargets.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mirage::timing {

/// Why a warp did not issue in a cycle (the stall reasons of Nsight
/// Compute, coarsened).
enum class Stall : uint8_t {
  /// It could issue, but its scheduler issued another warp.
  NotSelected,
  /// Waiting for an arithmetic result (execution latency).
  Dependency,
  /// Waiting for a global, local or L2 result, or at cp.async.wait_group.
  Memory,
  /// Waiting for a shared-memory result.
  SharedMemory,
  /// Its unit's pipe (or the SM's memory pipe) was busy.
  Throughput,
  /// Waiting at bar.sync.
  Barrier,
};
inline constexpr unsigned kNumStalls = 6;
llvm::StringRef stallName(Stall stall);

/// What limits a kernel.
enum class Bound : uint8_t { Hbm, L2, Shared, Tensor, Issue, Latency };
llvm::StringRef boundName(Bound bound);

struct TimingOptions {
  /// SMs simulated in detail, SM 0 upward (the others' CTAs only feed the
  /// grid's sector statistics). The kernel's time is the slowest of them.
  unsigned sampledSMs = 1;
  /// Registers per thread (ptxas -v); 0 when unknown: occupancy then
  /// ignores registers, and the result says so.
  unsigned registersPerThread = 0;
};

/// A launch's shape.
struct LaunchShape {
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::array<unsigned, 3> block = {1, 1, 1};
  uint64_t dynamicSharedBytes = 0;
};

/// The predicted timing of one launch.
struct KernelTiming {
  std::string kernel;
  /// Predicted time of the kernel alone (first CTA issue to last CTA exit,
  /// plus the ramp), microseconds, and the sampled SM's cycles.
  double microseconds = 0;
  uint64_t cycles = 0;
  /// Occupancy: CTAs per SM, what limits it, waves over the grid.
  unsigned ctasPerSM = 0;
  std::string occupancyLimit;
  bool registersKnown = false;
  uint64_t gridCtas = 0, waves = 0, simulatedCtas = 0;
  unsigned simulatedSMs = 0;
  /// Bytes that cross HBM and the L2 (grid-wide estimates from the sectors
  /// every CTA touched), and the kernel's tensor-core FLOPs.
  double hbmBytes = 0, l2Bytes = 0;
  double tensorFlops = 0;
  /// Achieved fractions of the chip's HBM bandwidth and f16 tensor peak.
  double hbmFraction = 0, tensorFraction = 0;
  /// Utilizations (0..1) behind the bound: HBM, L2, shared memory pipe,
  /// tensor pipes, issue slots.
  double hbmUtilization = 0, l2Utilization = 0, sharedUtilization = 0,
         tensorUtilization = 0, issueUtilization = 0;
  /// Per TimingUnit: the fraction of scheduler-cycles its pipes were busy
  /// on the slowest sampled SM.
  std::array<double, emulator::kNumTimingUnits> pipeUtilization{};
  /// The pipe-busy stalls by the unit whose pipe was busy, as shares of all
  /// stall cycles (they sum to stallShare[Throughput]).
  std::array<double, emulator::kNumTimingUnits> pipeStallShare{};
  Bound bound = Bound::Latency;
  /// Warp-cycles of each stall reason over all of them (sums to 1 when a
  /// warp ever stalled).
  std::array<double, kNumStalls> stallShare{};
  /// Per CTA of the sampled SM: start and end cycle, for a trace.
  struct CtaSpan {
    uint64_t cta;
    unsigned sm, slot;
    uint64_t start, end;
  };
  std::vector<CtaSpan> spans;
};

/// The timing model's view of a chip: its database entry, checked to have
/// what the model needs.
class ChipModel {
public:
  /// Fails naming what is missing for a chip whose SmTimingInfo is unknown.
  static llvm::Expected<ChipModel> get(const target::TargetInfo &info);
  const target::TargetInfo &info() const { return chip; }
  const target::SmTimingInfo &sm() const { return chip.timing; }
  double clockGHz() const { return chip.timing.sustainedClockGHz; }
  /// Device-wide bytes per SM cycle: HBM at the bandwidth a streaming
  /// kernel reaches (SmTimingInfo::dramAchievableFraction), L2 at its
  /// bandwidth.
  double hbmBytesPerCycle() const;
  double l2BytesPerCycle() const;
  /// f16 multiply-adds per cycle per scheduler that mma.sync reaches.
  double mmaMacsPerCyclePerScheduler() const;

private:
  explicit ChipModel(const target::TargetInfo &info) : chip(info) {}
  target::TargetInfo chip;
};

namespace detail {
class CtaRecorder;
struct CtaTrace;
} // namespace detail

/// Times one launch: give it to the emulator as EmulatorOptions::tracer,
/// run the launch, then call finish().
class KernelTimer : public emulator::LaunchTracer {
public:
  KernelTimer(const ChipModel &chip, emulator::KernelDescription kernel,
              const LaunchShape &shape, const TimingOptions &options = {});
  ~KernelTimer() override;

  std::unique_ptr<emulator::CtaTracer> beginCta(uint64_t linearIndex) override;
  void endCta(uint64_t linearIndex,
              std::unique_ptr<emulator::CtaTracer> tracer) override;

  /// Replays the recorded CTAs. `tensorFlops` is the launch's mma FLOPs
  /// (KernelReport::profile.tensorCoreFlops). Fails when a CTA does not fit
  /// on an SM.
  llvm::Expected<KernelTiming> finish(double tensorFlops);

private:
  ChipModel chip;
  emulator::KernelDescription kernel;
  LaunchShape shape;
  TimingOptions options;
  uint64_t numCtas;
  std::mutex mutex;
  /// The traced CTAs of the sampled SMs, by linear index.
  std::vector<std::pair<uint64_t, std::unique_ptr<detail::CtaTrace>>> traces;
  /// CTAs per wave (SMs x resident CTAs per SM; 0 when a CTA does not
  /// fit, which finish() reports).
  uint64_t ctasPerWave = 0;
  /// Per sector: how many CTAs loaded it, the first and last wave that did
  /// (order-independent: the result does not depend on which host thread
  /// finished which CTA first), and whether any CTA stored it.
  struct SectorUse {
    uint32_t ctas = 0;
    uint32_t firstWave = ~0u, lastWave = 0;
    bool stored = false;
  };
  std::unique_ptr<llvm::DenseMap<uint64_t, SectorUse>> sectors;
  /// The most distinct sectors tracked (4 GiB of data); a kernel touching
  /// more is refused by finish().
  static constexpr uint64_t kMaxTrackedSectors = uint64_t(1) << 27;
  bool sectorLimitHit = false;
};

/// A program: its launches in order.
struct ProgramTiming {
  std::vector<KernelTiming> kernels;
  /// Launch overhead per kernel: in a stream, or in a CUDA graph.
  bool cudaGraph = false;
  double launchOverheadUs = 0;
  double totalMicroseconds() const;
};

/// Per kernel: time, bound, fractions of peak, occupancy and stalls; then
/// the program's total.
void printTimingTable(llvm::raw_ostream &os, const ChipModel &chip,
                      const ProgramTiming &program);
llvm::json::Value timingJson(const ChipModel &chip,
                             const ProgramTiming &program);
/// A Chrome / Perfetto trace (JSON "traceEvents") of the sampled SMs' CTAs
/// per kernel, the kernels one after another.
llvm::json::Value chromeTrace(const ChipModel &chip,
                              const ProgramTiming &program);

} // namespace mirage::timing

#endif // MIRAGE_GPUTIMING_TIMINGMODEL_H
