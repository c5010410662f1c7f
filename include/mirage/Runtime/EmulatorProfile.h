//===- EmulatorProfile.h - the --emulate --profile report -------*- C++ -*-===//
//
// Per launch: the emulator's counters (instruction classes, global sectors
// against requested bytes, shared-memory wavefronts against the conflict-
// free count, barriers, tensor-core instructions) and, when ptxas is there,
// the registers and the occupancy they allow. Printed as two tables and as
// JSON (docs/mirage-gpu-run.md, "--profile").
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_EMULATORPROFILE_H
#define MIRAGE_RUNTIME_EMULATORPROFILE_H

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/Runtime/Occupancy.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace mirage::gpurun {

struct LaunchProfile {
  std::string kernel;
  emulator::KernelReport report;
  std::optional<KernelResources> resources;
  std::optional<Occupancy> occupancy;
};

/// Useful bytes over the bytes of the sectors moved; 1 when nothing moved.
double sectorEfficiency(uint64_t bytes, uint64_t sectors);

void printProfile(llvm::raw_ostream &os,
                  llvm::ArrayRef<LaunchProfile> launches);
llvm::json::Object profileJson(const LaunchProfile &launch);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_EMULATORPROFILE_H
