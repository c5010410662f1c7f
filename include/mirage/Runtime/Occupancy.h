//===- Occupancy.h - ptxas's resource use and the SM occupancy --*- C++ -*-===//
//
// `ptxas -v` tells how many registers and how much static shared memory each
// kernel of a PTX module uses; with a launch's block and dynamic shared
// memory, that decides how many CTAs one SM holds at once (the CUDA
// occupancy rules) under the chip limits of the cost model's GpuTarget.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_OCCUPANCY_H
#define MIRAGE_RUNTIME_OCCUPANCY_H

#include "mirage/Superopt/CostModel/CostModel.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <string>

namespace mirage::gpurun {

struct KernelResources {
  unsigned registers = 0;
  uint64_t staticSharedBytes = 0;
};

/// Finds ptxas (on PATH, then in $CUDA_HOME/bin and /usr/local/cuda/bin);
/// an error if there is none.
llvm::Expected<std::string> findPtxas();

/// Runs `ptxas -v -arch=<chip>` on the PTX file and reads each entry's
/// registers and static shared memory.
llvm::Expected<llvm::StringMap<KernelResources>>
readKernelResources(llvm::StringRef ptxas, llvm::StringRef ptxPath,
                    llvm::StringRef chip);

/// Parses ptxas -v's report (exposed for tests).
llvm::StringMap<KernelResources> parsePtxasVerbose(llvm::StringRef report);

struct Occupancy {
  /// Bytes of shared memory one CTA takes: static, dynamic and the 1 KiB
  /// the system reserves per CTA on sm_80 and later.
  uint64_t sharedBytesPerCta = 0;
  /// CTAs resident on one SM, what limits them ("warps", "registers",
  /// "shared memory", "CTAs"), and the resident warps over the SM's maximum.
  unsigned ctasPerSM = 0;
  std::string limitedBy;
  double occupancy = 0;
  /// Grid CTAs over (SMs x ctasPerSM), rounded up.
  uint64_t waves = 0;
};

/// The occupancy of a launch of `threadsPerCta` threads and `grid` CTAs
/// under `target`'s limits. ctasPerSM is 0 when one CTA does not fit.
Occupancy computeOccupancy(const superopt::GpuTarget &target,
                           const KernelResources &resources,
                           unsigned threadsPerCta, uint64_t dynamicSharedBytes,
                           uint64_t gridCtas);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_OCCUPANCY_H
