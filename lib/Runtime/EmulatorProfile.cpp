//===- EmulatorProfile.cpp - the --emulate --profile report ---------------===//

#include "mirage/Runtime/EmulatorProfile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace mirage::gpurun;
using mirage::emulator::InstructionClass;
using mirage::emulator::instructionClassName;
using mirage::emulator::kNumInstructionClasses;

double mirage::gpurun::sectorEfficiency(uint64_t bytes, uint64_t sectors) {
  return sectors ? double(bytes) / (32.0 * double(sectors)) : 1.0;
}

static uint64_t tensorCoreInstructions(const mirage::emulator::KernelReport &report) {
  return report.profile
      .instructions[unsigned(InstructionClass::TensorCore)];
}

static std::string percent(double fraction) {
  return formatv("{0:f1}%", 100 * fraction).str();
}

void mirage::gpurun::printProfile(raw_ostream &os,
                                  ArrayRef<LaunchProfile> launches) {
  os << "profile (emulated counters; docs/GpuEmulator.md, \"Counters\"):\n";
  os << formatv("{0,-6} {1,-24} {2,12} {3,8} {4,8} {5,8} {6,11} {7,9} "
                "{8,8} {9,5} {10,9} {11,8} {12,10}\n",
                "launch", "kernel", "warp-instrs", "tensor", "ld-eff",
                "st-eff", "smem-wavefr", "conflicts", "barriers", "regs",
                "smem/CTA", "CTAs/SM", "occupancy");
  for (auto [i, launch] : enumerate(launches)) {
    const mirage::emulator::ProfileCounters &c = launch.report.profile;
    uint64_t extra = c.sharedWavefronts - c.sharedIdealWavefronts;
    std::string regs = "-", smem = "-", ctas = "-", occupancy = "-";
    if (launch.resources)
      regs = std::to_string(launch.resources->registers);
    if (launch.occupancy) {
      smem = std::to_string(launch.occupancy->sharedBytesPerCta);
      ctas = formatv("{0} ({1})", launch.occupancy->ctasPerSM,
                     launch.occupancy->limitedBy.substr(0, 4))
                 .str();
      occupancy = percent(launch.occupancy->occupancy);
    }
    double warp = double(std::max<uint64_t>(launch.report.warpInstructions, 1));
    os << formatv("{0,-6} {1,-24} {2,12} {3,8} {4,8} {5,8} {6,11} {7,9} "
                  "{8,8} {9,5} {10,9} {11,8} {12,10}\n",
                  i, launch.kernel, launch.report.warpInstructions,
                  percent(tensorCoreInstructions(launch.report) / warp),
                  percent(sectorEfficiency(c.globalLoadBytes,
                                           c.globalLoadSectors)),
                  percent(sectorEfficiency(c.globalStoreBytes,
                                           c.globalStoreSectors)),
                  c.sharedWavefronts,
                  percent(c.sharedWavefronts
                              ? double(extra) / double(c.sharedWavefronts)
                              : 0.0),
                  launch.report.barriers, regs, smem, ctas, occupancy);
  }
  os << "instruction mix (% of warp-instructions):\n";
  os << formatv("{0,-6}", "launch");
  for (unsigned k = 0; k < kNumInstructionClasses; ++k)
    os << " " << formatv("{0,7}", instructionClassName(InstructionClass(k))
                                      .take_front(7));
  os << "\n";
  for (auto [i, launch] : enumerate(launches)) {
    double warp = double(std::max<uint64_t>(launch.report.warpInstructions, 1));
    os << formatv("{0,-6}", i);
    for (unsigned k = 0; k < kNumInstructionClasses; ++k)
      os << " "
         << formatv("{0,7:f1}",
                    100 * launch.report.profile.instructions[k] / warp);
    os << "\n";
  }
}

json::Object mirage::gpurun::profileJson(const LaunchProfile &launch) {
  const mirage::emulator::ProfileCounters &c = launch.report.profile;
  json::Object instructions;
  for (unsigned k = 0; k < kNumInstructionClasses; ++k)
    instructions[instructionClassName(InstructionClass(k))] =
        int64_t(c.instructions[k]);
  json::Object profile{
      {"instructions", std::move(instructions)},
      {"tensor_core_instructions",
       int64_t(tensorCoreInstructions(launch.report))},
      {"tensor_core_flops", int64_t(c.tensorCoreFlops)},
      {"global_load_bytes", int64_t(c.globalLoadBytes)},
      {"global_load_sectors", int64_t(c.globalLoadSectors)},
      {"global_load_efficiency",
       sectorEfficiency(c.globalLoadBytes, c.globalLoadSectors)},
      {"global_store_bytes", int64_t(c.globalStoreBytes)},
      {"global_store_sectors", int64_t(c.globalStoreSectors)},
      {"global_store_efficiency",
       sectorEfficiency(c.globalStoreBytes, c.globalStoreSectors)},
      {"shared_bytes", int64_t(c.sharedBytes)},
      {"shared_wavefronts", int64_t(c.sharedWavefronts)},
      {"shared_ideal_wavefronts", int64_t(c.sharedIdealWavefronts)},
      {"bank_conflict_wavefronts",
       int64_t(c.sharedWavefronts - c.sharedIdealWavefronts)},
      {"barriers", int64_t(launch.report.barriers)}};
  if (launch.resources) {
    profile["registers"] = int64_t(launch.resources->registers);
    profile["static_shared_bytes"] =
        int64_t(launch.resources->staticSharedBytes);
  }
  if (launch.occupancy) {
    profile["shared_bytes_per_cta"] =
        int64_t(launch.occupancy->sharedBytesPerCta);
    profile["ctas_per_sm"] = int64_t(launch.occupancy->ctasPerSM);
    profile["occupancy_limited_by"] = launch.occupancy->limitedBy;
    profile["occupancy"] = launch.occupancy->occupancy;
    profile["waves"] = int64_t(launch.occupancy->waves);
  }
  return profile;
}
