//===- KernelTimer.cpp - timing one launch from its trace -----------------===//
//
// Which CTAs are simulated, how the grid's sectors decide L2 hits, the
// occupancy, and how the sampled SMs' results become the kernel's time and
// bound (docs/TimingModel.md).
//
//===----------------------------------------------------------------------===//

#include "CtaTrace.h"
#include "SmModel.h"
#include "mirage/GpuTiming/TimingModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace mirage;
using namespace mirage::timing;
using namespace mirage::timing::detail;

//===----------------------------------------------------------------------===//
// ChipModel
//===----------------------------------------------------------------------===//

llvm::Expected<ChipModel> ChipModel::get(const target::TargetInfo &info) {
  if (!info.timing.isKnown())
    return llvm::createStringError(
        "the timing model has no parameters for " + info.arch + " (" +
        info.product +
        "): only sm_80 (A100) and sm_90 (H100, H200) have been checked "
        "against published measurements (docs/TimingModel.md)");
  if (!(info.l2BandwidthGBs > 0) || !(info.dramBandwidthGBs > 0) ||
      info.numSMs <= 0)
    return llvm::createStringError("the timing model needs the L2 and DRAM "
                                   "bandwidths and the SM count of " +
                                   info.product);
  return ChipModel(info);
}

double ChipModel::hbmBytesPerCycle() const {
  return chip.dramBandwidthGBs * chip.timing.dramAchievableFraction /
         clockGHz();
}

double ChipModel::l2BytesPerCycle() const {
  return chip.l2BandwidthGBs / clockGHz();
}

double ChipModel::mmaMacsPerCyclePerScheduler() const {
  return double(chip.timing.mmaMacsPerCyclePerSM) *
         chip.timing.mmaSyncPeakFraction / chip.timing.schedulersPerSM;
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

namespace {
struct OccupancyResult {
  unsigned ctasPerSM = 0;
  std::string limit;
  uint64_t sharedPerCta = 0;
};
} // namespace

static OccupancyResult occupancy(const target::TargetInfo &info,
                                 unsigned threads, uint64_t sharedBytes,
                                 unsigned registers);

KernelTimer::KernelTimer(const ChipModel &chip,
                         emulator::KernelDescription kernel,
                         const LaunchShape &shape, const TimingOptions &options)
    : chip(chip), kernel(std::move(kernel)), shape(shape), options(options),
      numCtas(uint64_t(shape.grid[0]) * shape.grid[1] * shape.grid[2]),
      sectors(std::make_unique<llvm::DenseMap<uint64_t, SectorUse>>()) {
  this->options.sampledSMs = unsigned(std::clamp<uint64_t>(
      options.sampledSMs, 1, uint64_t(chip.info().numSMs)));
  unsigned threads = shape.block[0] * shape.block[1] * shape.block[2];
  ctasPerWave =
      uint64_t(chip.info().numSMs) *
      occupancy(chip.info(), threads,
                this->kernel.staticSharedBytes + shape.dynamicSharedBytes,
                options.registersPerThread)
          .ctasPerSM;
}

KernelTimer::~KernelTimer() = default;

std::unique_ptr<emulator::CtaTracer>
KernelTimer::beginCta(uint64_t linearIndex) {
  // The CTA scheduler hands CTAs to SMs round-robin: CTA i runs on SM
  // i mod #SMs (for a grid of CTAs of equal work, later waves keep the
  // order, since SMs free their slots in the order they filled them).
  bool sampled = linearIndex % uint64_t(chip.info().numSMs) <
                 options.sampledSMs;
  unsigned threads = shape.block[0] * shape.block[1] * shape.block[2];
  return std::make_unique<CtaRecorder>(sampled, (threads + 31) / 32);
}

void KernelTimer::endCta(uint64_t linearIndex,
                         std::unique_ptr<emulator::CtaTracer> tracer) {
  auto *recorder = static_cast<CtaRecorder *>(tracer.get());
  std::lock_guard<std::mutex> lock(mutex);
  if (sectorLimitHit)
    return;
  // Counts and flags only: the result does not depend on the order in
  // which worker threads finish CTAs.
  uint32_t wave =
      uint32_t(ctasPerWave ? linearIndex / ctasPerWave : 0);
  for (uint64_t s : recorder->loaded) {
    SectorUse &use = (*sectors)[s];
    ++use.ctas;
    use.firstWave = std::min(use.firstWave, wave);
    use.lastWave = std::max(use.lastWave, wave);
  }
  for (uint64_t s : recorder->stored)
    (*sectors)[s].stored = true;
  // The statistics take about 32 bytes of host memory per distinct sector:
  // past the limit they would rival the emulated memory itself. Whether it
  // is passed depends only on the grid's footprint, not on the order.
  if (sectors->size() > kMaxTrackedSectors) {
    sectorLimitHit = true;
    sectors->shrink_and_clear();
    traces.clear();
    return;
  }
  if (recorder->trace)
    traces.emplace_back(linearIndex, std::move(recorder->trace));
}

//===----------------------------------------------------------------------===//
// Occupancy
//===----------------------------------------------------------------------===//

static OccupancyResult occupancy(const target::TargetInfo &info,
                                 unsigned threads, uint64_t sharedBytes,
                                 unsigned registers) {
  OccupancyResult r;
  unsigned warps = (threads + 31) / 32;
  // sm_80 and later reserve 1 KiB of shared memory per CTA [PG].
  r.sharedPerCta = sharedBytes + (info.computeCapability >= 80 ? 1024 : 0);
  auto consider = [&](int64_t limit, const char *why) {
    unsigned value = unsigned(std::max<int64_t>(0, limit));
    if (r.limit.empty() || value < r.ctasPerSM) {
      r.ctasPerSM = value;
      r.limit = why;
    }
  };
  consider(info.maxBlocksPerSM, "CTAs");
  consider(info.maxWarpsPerSM / std::max(1u, warps), "warps");
  consider(info.sharedMemoryPerSM / int64_t(std::max<uint64_t>(1, r.sharedPerCta)),
           "shared memory");
  if (registers) {
    // Registers are allocated per warp in units of 256 [PG occupancy
    // calculator]: 32 lanes x registers, rounded up.
    int64_t perWarp = (int64_t(registers) * 32 + 255) / 256 * 256;
    consider(info.registersPerSM / (perWarp * warps), "registers");
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Replay
//===----------------------------------------------------------------------===//

llvm::Expected<KernelTiming> KernelTimer::finish(double tensorFlops) {
  const target::TargetInfo &info = chip.info();
  if (sectorLimitHit)
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}': it touches more than {1} GiB of distinct global "
        "memory, beyond what the timing model's per-sector statistics keep "
        "(docs/TimingModel.md, \"Limits\")",
        kernel.name, (kMaxTrackedSectors * 32) >> 30));
  const target::SmTimingInfo &sm = chip.sm();
  unsigned threads = shape.block[0] * shape.block[1] * shape.block[2];
  unsigned warpsPerCta = (threads + 31) / 32;
  OccupancyResult occ =
      occupancy(info, threads, kernel.staticSharedBytes + shape.dynamicSharedBytes,
                options.registersPerThread);
  if (occ.ctasPerSM == 0)
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}': one CTA ({1} threads, {2} bytes of shared memory) does "
        "not fit on an SM of {3}",
        kernel.name, threads, occ.sharedPerCta, info.product));

  KernelTiming timing;
  timing.kernel = kernel.name;
  timing.ctasPerSM = occ.ctasPerSM;
  timing.occupancyLimit = occ.limit;
  timing.registersKnown = options.registersPerThread != 0;
  timing.gridCtas = numCtas;
  uint64_t perWave = uint64_t(info.numSMs) * occ.ctasPerSM;
  timing.waves = (numCtas + perWave - 1) / perWave;
  timing.tensorFlops = tensorFlops;

  // The L2 against the grid's reuse: a sector that n CTAs load comes from
  // HBM once while the L2 keeps it between their requests, so each of the
  // n requests misses with probability 1/n. CTAs run in waves; between two
  // waves' requests for a sector the L2 sees about one wave's live data:
  // the sectors loaded in that wave, estimated as each loaded sector
  // counted for every wave between its first and its last (stores stream
  // through and are not kept). Beyond the L2's capacity, that reuse misses
  // in proportion to the excess.
  uint64_t uniqueStores = 0;
  double liveSectorWaves = 0;
  for (const auto &[sector, use] : *sectors) {
    uniqueStores += use.stored;
    if (use.ctas)
      liveSectorWaves += double(use.lastWave - use.firstWave + 1);
  }
  double liveBytesPerWave =
      32.0 * liveSectorWaves / double(std::max<uint64_t>(1, timing.waves));
  double overflow =
      liveBytesPerWave > double(info.l2Bytes)
          ? (liveBytesPerWave - double(info.l2Bytes)) / liveBytesPerWave
          : 0.0;
  auto missFraction = [&](uint64_t sector) {
    auto it = sectors->find(sector);
    if (it == sectors->end() || it->second.ctas <= 1)
      return 1.0;
    double first = 1.0 / it->second.ctas;
    return first + (1.0 - first) * overflow;
  };
  double hbmLoadSectors = 0;
  for (const auto &[sector, use] : *sectors)
    if (use.ctas)
      hbmLoadSectors += 1.0 + (use.ctas - 1) * overflow;
  timing.hbmBytes = 32.0 * (hbmLoadSectors + double(uniqueStores));

  // The L1 keeps what the unified L1/shared array leaves beside the
  // resident CTAs' shared memory.
  int64_t l1 = info.l1SharedBytesPerSM -
               int64_t(occ.ctasPerSM) * int64_t(occ.sharedPerCta);
  llvm::sort(traces, [](const auto &a, const auto &b) { return a.first < b.first; });

  SmInputs inputs;
  inputs.chip = &chip;
  inputs.kernel = &kernel;
  inputs.warpsPerCta = warpsPerCta;
  inputs.ctasPerSM = occ.ctasPerSM;
  inputs.l1Bytes = uint64_t(std::max<int64_t>(0, l1));
  inputs.activeSMs =
      unsigned(std::min<uint64_t>(uint64_t(info.numSMs), numCtas));
  inputs.missFraction = missFraction;
  inputs.capacityMissFraction = overflow;

  uint64_t cycles = 0;
  double l2BytesSampled = 0;
  uint64_t memoryBusy = 0, tensorBusy = 0, issued = 0, busiestPipe = 0;
  std::array<uint64_t, kNumStalls> stalls{};
  std::array<uint64_t, emulator::kNumTimingUnits> pipeStalls{};
  for (unsigned s = 0; s < options.sampledSMs; ++s) {
    std::vector<const CtaTrace *> ctas;
    std::vector<uint64_t> indices;
    for (const auto &[index, trace] : traces)
      if (index % uint64_t(info.numSMs) == s) {
        ctas.push_back(trace.get());
        indices.push_back(index);
      }
    if (ctas.empty())
      continue;
    ++timing.simulatedSMs;
    timing.simulatedCtas += ctas.size();
    SmResult r = simulateSm(inputs, ctas, indices, s);
    if (r.cycles >= cycles) {
      cycles = r.cycles;
      memoryBusy = r.memoryPipeBusy;
      tensorBusy = r.tensorBusy;
      issued = r.issued;
      for (unsigned u = 0; u < emulator::kNumTimingUnits; ++u)
        timing.pipeUtilization[u] =
            double(r.unitBusy[u]) / (double(r.cycles ? r.cycles : 1) *
                                     sm.schedulersPerSM);
      busiestPipe = 0;
      for (unsigned u = 0; u < emulator::kNumTimingUnits; ++u)
        if (emulator::TimingUnit(u) != emulator::TimingUnit::TensorCore &&
            emulator::TimingUnit(u) != emulator::TimingUnit::Memory &&
            emulator::TimingUnit(u) != emulator::TimingUnit::AsyncCopy)
          busiestPipe = std::max(busiestPipe, r.unitBusy[u]);
    }
    l2BytesSampled += r.l2Bytes;
    for (unsigned i = 0; i < kNumStalls; ++i)
      stalls[i] += r.stallCycles[i];
    for (unsigned u = 0; u < emulator::kNumTimingUnits; ++u)
      pipeStalls[u] += r.pipeStallCycles[u];
    timing.spans.insert(timing.spans.end(), r.spans.begin(), r.spans.end());
  }
  // The L2 traffic of the grid, from the sampled CTAs' (their L1 misses
  // and stores) per CTA.
  timing.l2Bytes = timing.simulatedCtas
                       ? l2BytesSampled / timing.simulatedCtas * numCtas
                       : 0;
  // The sampled SM moves its share of the HBM traffic at its share of the
  // bandwidth; the grid's total at the whole bandwidth bounds the kernel
  // too (it binds when the sampled SM's CTAs are lighter than the rest).
  double hbmCycles = timing.hbmBytes / chip.hbmBytesPerCycle();
  double l2Cycles = timing.l2Bytes / chip.l2BytesPerCycle();
  cycles = std::max<uint64_t>(
      cycles, uint64_t(std::ceil(std::max(hbmCycles, l2Cycles))));
  cycles = std::max<uint64_t>(cycles, 1);
  timing.cycles = cycles;
  timing.microseconds =
      double(cycles + sm.kernelRampCycles) / (chip.clockGHz() * 1e3);

  double seconds = timing.microseconds * 1e-6;
  timing.hbmFraction = timing.hbmBytes / seconds / (info.dramBandwidthGBs * 1e9);
  double tensorPeak =
      info.getTensorCores(target::MmaType::F16).denseTflops * 1e12;
  timing.tensorFraction = tensorPeak > 0 ? tensorFlops / seconds / tensorPeak : 0;

  double c = double(cycles);
  timing.hbmUtilization = hbmCycles / c;
  timing.l2Utilization = l2Cycles / c;
  timing.sharedUtilization = double(memoryBusy) / c;
  timing.tensorUtilization = double(tensorBusy) / (c * sm.schedulersPerSM);
  // Issue: the schedulers' issue slots, or the busiest arithmetic pipe
  // (an FP32 instruction holds A100's pipe two cycles).
  timing.issueUtilization =
      double(std::max(issued, busiestPipe)) / (c * sm.schedulersPerSM);
  std::pair<double, Bound> candidates[] = {
      {timing.hbmUtilization, Bound::Hbm},
      {timing.l2Utilization, Bound::L2},
      {timing.sharedUtilization, Bound::Shared},
      {timing.tensorUtilization, Bound::Tensor},
      {timing.issueUtilization, Bound::Issue}};
  auto best = std::max_element(
      std::begin(candidates), std::end(candidates),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  // Below 60% of every resource the kernel waits more than it works:
  // latency (too few warps or bytes in flight) bounds it.
  timing.bound = best->first >= 0.6 ? best->second : Bound::Latency;
  uint64_t totalStalls = 0;
  for (uint64_t v : stalls)
    totalStalls += v;
  for (unsigned i = 0; i < kNumStalls; ++i)
    timing.stallShare[i] =
        totalStalls ? double(stalls[i]) / double(totalStalls) : 0;
  for (unsigned u = 0; u < emulator::kNumTimingUnits; ++u)
    timing.pipeStallShare[u] =
        totalStalls ? double(pipeStalls[u]) / double(totalStalls) : 0;
  return timing;
}
