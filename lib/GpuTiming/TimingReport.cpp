//===- TimingReport.cpp - the timing model's table, JSON and trace --------===//

#include "mirage/GpuTiming/TimingModel.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mirage;
using namespace mirage::timing;

llvm::StringRef timing::stallName(Stall stall) {
  switch (stall) {
  case Stall::NotSelected:
    return "not-selected";
  case Stall::Dependency:
    return "dependency";
  case Stall::Memory:
    return "memory";
  case Stall::SharedMemory:
    return "shared";
  case Stall::Throughput:
    return "pipe-busy";
  case Stall::Barrier:
    return "barrier";
  }
  llvm_unreachable("unknown stall");
}

llvm::StringRef timing::boundName(Bound bound) {
  switch (bound) {
  case Bound::Hbm:
    return "HBM";
  case Bound::L2:
    return "L2";
  case Bound::Shared:
    return "shared/L1";
  case Bound::Tensor:
    return "tensor";
  case Bound::Issue:
    return "issue";
  case Bound::Latency:
    return "latency";
  }
  llvm_unreachable("unknown bound");
}

double ProgramTiming::totalMicroseconds() const {
  double total = 0;
  for (const KernelTiming &k : kernels)
    total += k.microseconds + launchOverheadUs;
  return total;
}

/// "memory 62%, dependency 20%, ..." for the causes above 1%, largest
/// first.
static std::string stallSummary(const KernelTiming &k) {
  std::vector<unsigned> order;
  for (unsigned i = 0; i < kNumStalls; ++i)
    order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return k.stallShare[a] > k.stallShare[b];
  });
  std::string out;
  for (unsigned i : order) {
    if (k.stallShare[i] < 0.01)
      continue;
    if (!out.empty())
      out += ", ";
    out += llvm::formatv("{0} {1:f0}%", stallName(Stall(i)),
                         100 * k.stallShare[i])
               .str();
  }
  return out.empty() ? "-" : out;
}

void timing::printTimingTable(llvm::raw_ostream &os, const ChipModel &chip,
                              const ProgramTiming &program) {
  const target::TargetInfo &info = chip.info();
  os << llvm::formatv("timing model (simulated): {0} ({1}), {2} SMs at "
                      "{3:f3} GHz, HBM {4} GB/s, f16 tensor peak {5} "
                      "TFLOP/s\n",
                      info.product, info.arch, info.numSMs, chip.clockGHz(),
                      info.dramBandwidthGBs,
                      info.getTensorCores(target::MmaType::F16).denseTflops);
  os << llvm::formatv("{0,-4} {1,-34} {2,10} {3,9} {4,6} {5,6} {6,-10} "
                      "{7,-16} {8}\n",
                      "#", "kernel", "time (us)", "CTAs/SM", "HBM", "tensor",
                      "bound", "occupancy", "stalls");
  for (auto [i, k] : llvm::enumerate(program.kernels)) {
    std::string name = k.kernel.size() > 34
                           ? k.kernel.substr(0, 31) + "..."
                           : k.kernel;
    std::string occ = llvm::formatv("{0} waves, {1}", k.waves,
                                    k.occupancyLimit)
                          .str();
    os << llvm::formatv("{0,-4} {1,-34} {2,10:f2} {3,9} {4,5:f0}% {5,5:f0}% "
                        "{6,-10} {7,-16} {8}\n",
                        i, name, k.microseconds, k.ctasPerSM,
                        100 * k.hbmFraction, 100 * k.tensorFraction,
                        boundName(k.bound), occ, stallSummary(k));
  }
  os << llvm::formatv("total: {0:f2} us simulated ({1} kernel{2}, {3:f2} us "
                      "launch overhead each{4})\n",
                      program.totalMicroseconds(), program.kernels.size(),
                      program.kernels.size() == 1 ? "" : "s",
                      program.launchOverheadUs,
                      program.cudaGraph ? ", as a CUDA graph" : "");
  bool unknownRegisters = false;
  uint64_t simulated = 0, grid = 0;
  for (const KernelTiming &k : program.kernels) {
    unknownRegisters |= !k.registersKnown;
    simulated += k.simulatedCtas;
    grid += k.gridCtas;
  }
  os << llvm::formatv("sampled: {0} of {1} CTAs simulated in detail (the "
                      "CTAs of the sampled SMs)\n",
                      simulated, grid);
  if (unknownRegisters)
    os << "note: registers per thread unknown (no ptxas): occupancy ignores "
          "registers\n";
}

llvm::json::Value timing::timingJson(const ChipModel &chip,
                                     const ProgramTiming &program) {
  llvm::json::Array kernels;
  for (const KernelTiming &k : program.kernels) {
    llvm::json::Object stalls;
    for (unsigned i = 0; i < kNumStalls; ++i)
      stalls[stallName(Stall(i))] = k.stallShare[i];
    llvm::json::Object pipes;
    for (unsigned u = 0; u < emulator::kNumTimingUnits; ++u)
      if (k.pipeUtilization[u] > 0)
        pipes[emulator::timingUnitName(emulator::TimingUnit(u))] =
            k.pipeUtilization[u];
    kernels.push_back(llvm::json::Object{
        {"kernel", k.kernel},
        {"time_us", k.microseconds},
        {"cycles", int64_t(k.cycles)},
        {"bound", boundName(k.bound)},
        {"hbm_fraction", k.hbmFraction},
        {"tensor_fraction", k.tensorFraction},
        {"hbm_bytes", k.hbmBytes},
        {"l2_bytes", k.l2Bytes},
        {"tensor_flops", k.tensorFlops},
        {"utilization", llvm::json::Object{{"hbm", k.hbmUtilization},
                                           {"l2", k.l2Utilization},
                                           {"shared", k.sharedUtilization},
                                           {"tensor", k.tensorUtilization},
                                           {"issue", k.issueUtilization}}},
        {"ctas_per_sm", k.ctasPerSM},
        {"occupancy_limit", k.occupancyLimit},
        {"registers_known", k.registersKnown},
        {"waves", int64_t(k.waves)},
        {"grid_ctas", int64_t(k.gridCtas)},
        {"simulated_ctas", int64_t(k.simulatedCtas)},
        {"simulated_sms", k.simulatedSMs},
        {"stalls", std::move(stalls)},
        {"pipes", std::move(pipes)}});
  }
  return llvm::json::Object{
      {"label", "simulated"},
      {"target", chip.info().product},
      {"arch", chip.info().arch},
      {"clock_ghz", chip.clockGHz()},
      {"cuda_graph", program.cudaGraph},
      {"launch_overhead_us", program.launchOverheadUs},
      {"total_us", program.totalMicroseconds()},
      {"kernels", std::move(kernels)}};
}

llvm::json::Value timing::chromeTrace(const ChipModel &chip,
                                      const ProgramTiming &program) {
  llvm::json::Array events;
  double offsetUs = 0;
  double cyclesPerUs = chip.clockGHz() * 1e3;
  for (const KernelTiming &k : program.kernels) {
    offsetUs += program.launchOverheadUs;
    double rampUs = chip.sm().kernelRampCycles / cyclesPerUs;
    events.push_back(llvm::json::Object{{"name", k.kernel},
                                        {"ph", "X"},
                                        {"pid", 0},
                                        {"tid", "kernels"},
                                        {"ts", offsetUs},
                                        {"dur", k.microseconds}});
    for (const KernelTiming::CtaSpan &span : k.spans)
      events.push_back(llvm::json::Object{
          {"name", llvm::formatv("CTA {0}", span.cta).str()},
          {"cat", k.kernel},
          {"ph", "X"},
          {"pid", 1 + span.sm},
          {"tid", llvm::formatv("slot {0}", span.slot).str()},
          {"ts", offsetUs + rampUs + span.start / cyclesPerUs},
          {"dur", (span.end - span.start) / cyclesPerUs}});
    offsetUs += k.microseconds;
  }
  return llvm::json::Object{{"traceEvents", std::move(events)},
                            {"displayTimeUnit", "ns"}};
}
