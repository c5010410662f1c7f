//===- PtxEntries.h - the kernels a PTX module defines ----------*- C++ -*-===//
//
// Reads a PTX module with the PTX emulator's parser (one reader of PTX in
// the project) and checks a manifest's launches against its `.target` and
// its `.entry` signatures (parameter types, .maxntid / .reqntid): every
// kernel it launches is an entry, each launch passes one device pointer per
// parameter, and its block fits the entry's bounds. A mismatch there would
// otherwise surface only on a GPU, as a launch failure or as a kernel
// reading past its arguments.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_PTXENTRIES_H
#define MIRAGE_RUNTIME_PTXENTRIES_H

#include "mirage/GpuEmulator/PtxModule.h"
#include "mirage/Runtime/Manifest.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mirage::gpurun {

/// Parses the PTX text; a message names `path`.
llvm::Expected<emulator::PtxModule> readPtxModule(llvm::StringRef ptx,
                                                  llvm::StringRef path);

/// Checks the manifest's chip and every launch of every function against
/// the module's target and entries.
llvm::Error checkLaunchesAgainstPtx(const Manifest &manifest,
                                    const emulator::PtxModule &module);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_PTXENTRIES_H
