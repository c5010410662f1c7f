//===- Profile.h - what a warp-level access costs ---------------*- C++ -*-===//
//
// The profile's models of one warp-level instruction (docs/GpuEmulator.md,
// "Counters"): its instruction class, the 32-byte global sectors its lanes'
// addresses touch, and the shared-memory wavefronts its lanes' offsets need
// across the 32 four-byte banks.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_GPUEMULATOR_PROFILE_H
#define MIRAGE_LIB_GPUEMULATOR_PROFILE_H

#include "Decoder.h"
#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/Trace.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/ArrayRef.h"

namespace mirage::emulator::detail {

InstructionClass classify(const DecodedInstruction &inst);

/// One lane's access in a warp-level request.
struct LaneAccess {
  unsigned lane;
  uint64_t address;
};

/// The distinct 32-byte sectors that `size`-byte accesses at the lanes'
/// addresses touch: their count, and (globalSectorList) the sectors as
/// address / 32, ascending.
uint64_t globalSectors(llvm::ArrayRef<LaneAccess> accesses, unsigned size);
void globalSectorList(llvm::ArrayRef<LaneAccess> accesses, unsigned size,
                      llvm::SmallVectorImpl<uint64_t> &sectors);

/// A warp-level memory request, as the profile and a trace see it.
struct WarpAccess {
  MemoryKind kind = MemoryKind::None;
  /// atom or red (not in the profile's counters).
  bool atomic = false;
  /// Global (and local) sectors, ascending; global bytes the lanes asked
  /// for.
  llvm::SmallVector<uint64_t, 32> sectors;
  uint64_t globalBytes = 0;
  /// Bytes read or written in shared memory (both sides of cp.async count
  /// the copy), and the wavefronts of the shared request.
  uint64_t sharedBytes = 0;
  uint64_t wavefronts = 0, idealWavefronts = 0;
};

/// Shared memory serves a request in phases (all 32 lanes for accesses of
/// up to 4 bytes, half-warps for 8 bytes, quarter-warps for 16); in a phase
/// each bank delivers one 4-byte word per wavefront, and lanes reading the
/// same word share it. Returns the wavefronts the request takes, and in
/// `ideal` the phases that had any lane (the conflict-free count).
uint64_t sharedWavefronts(llvm::ArrayRef<LaneAccess> accesses, unsigned size,
                          uint64_t &ideal);

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_PROFILE_H
