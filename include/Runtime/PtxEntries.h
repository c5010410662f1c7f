//===- PtxEntries.h - the kernels a PTX module defines ----------*- C++ -*-===//
//
// Reads the `.target` and the `.entry` signatures (parameter types and the
// .maxntid / .reqntid launch bounds) of a PTX module, and checks a
// manifest's launches against them: every kernel it launches is an entry,
// each launch passes one device pointer per parameter, and its block fits
// the entry's bounds. A mismatch there would otherwise surface only on a
// GPU, as a launch failure or as a kernel reading past its arguments.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_PTXENTRIES_H
#define MIRAGE_RUNTIME_PTXENTRIES_H

#include "Runtime/Manifest.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <optional>
#include <string>

namespace mirage::gpurun {

struct PtxEntry {
  /// Each parameter's type as written (".u64", ".b32", ".b8" for a byte
  /// array), with whether it is an array (`name[16]`).
  struct Param {
    std::string type;
    bool isArray = false;
  };
  llvm::SmallVector<Param> params;
  /// .maxntid and .reqntid, missing dims as 1.
  std::optional<std::array<unsigned, 3>> maxntid, reqntid;
};

struct PtxModule {
  /// The first argument of `.target` ("sm_90"), empty without one.
  std::string target;
  llvm::StringMap<PtxEntry> entries;
};

/// Reads the PTX text; `path` labels the messages.
llvm::Expected<PtxModule> readPtxEntries(llvm::StringRef ptx,
                                         llvm::StringRef path);

/// Checks the manifest's chip and every launch of every function against
/// the module's target and entries.
llvm::Error checkLaunchesAgainstPtx(const Manifest &manifest,
                                    const PtxModule &module);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_PTXENTRIES_H
