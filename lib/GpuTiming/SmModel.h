//===- SmModel.h - one SM running recorded CTAs ------------------*- C++ -*-===//
//
// The cycle-approximate model of one streaming multiprocessor
// (docs/TimingModel.md, "The SM"): its resident CTAs' warps split over the
// warp schedulers, each scheduler issuing at most one instruction a cycle
// (greedy-then-oldest) from a warp whose operands are ready (scoreboard)
// and whose unit's pipe is free; memory through the SM's memory pipe
// (shared wavefronts, L1 lines), an L1 sector cache, the SM's link to L2 and
// its share of HBM; cp.async groups; bar.sync.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_GPUTIMING_SMMODEL_H
#define MIRAGE_LIB_GPUTIMING_SMMODEL_H

#include "CtaTrace.h"
#include "mirage/GpuTiming/TimingModel.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mirage::timing::detail {

struct SmInputs {
  const ChipModel *chip = nullptr;
  const emulator::KernelDescription *kernel = nullptr;
  unsigned warpsPerCta = 0;
  unsigned ctasPerSM = 0;
  /// L1 data capacity left beside the resident CTAs' shared memory.
  uint64_t l1Bytes = 0;
  /// SMs that share the device's L2 and HBM bandwidth at once.
  unsigned activeSMs = 1;
  /// The expected fraction of this SM's first L2 request for `sector` that
  /// misses to HBM; later requests of the SM for it miss by
  /// capacityMissFraction only (the L2 keeps what the SM fetched while the
  /// grid's footprint fits).
  llvm::function_ref<double(uint64_t sector)> missFraction;
  double capacityMissFraction = 0;
};

struct SmResult {
  uint64_t cycles = 0;
  std::array<uint64_t, kNumStalls> stallCycles{};
  uint64_t issued = 0;
  /// Cycles the memory pipe was busy (shared wavefronts and L1 lines), and
  /// the tensor pipes (summed over schedulers).
  uint64_t memoryPipeBusy = 0, tensorBusy = 0;
  /// Cycles each unit's pipes were busy, summed over schedulers.
  std::array<uint64_t, emulator::kNumTimingUnits> unitBusy{};
  /// Warp-cycles of Throughput stalls, by the unit whose pipe was busy.
  std::array<uint64_t, emulator::kNumTimingUnits> pipeStallCycles{};
  /// Bytes this SM moved over its L2 link, and its expected HBM bytes.
  double l2Bytes = 0, hbmBytes = 0;
  std::vector<KernelTiming::CtaSpan> spans;
};

/// Runs `ctas` (in the order the CTA scheduler hands them to this SM) on
/// one SM. `ctaIndices` are their grid indices, for the spans.
SmResult simulateSm(const SmInputs &inputs,
                    llvm::ArrayRef<const CtaTrace *> ctas,
                    llvm::ArrayRef<uint64_t> ctaIndices, unsigned sm);

} // namespace mirage::timing::detail

#endif // MIRAGE_LIB_GPUTIMING_SMMODEL_H
