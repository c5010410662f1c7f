//===- PtxParser.h - PTX text to PtxModule ----------------------*- C++ -*-===//
//
// Parses the PTX that our pipeline and nvcc emit into a PtxModule for the
// PTX emulator. Instructions are parsed generically (opcode, modifiers,
// operands), whatever the opcode. Device functions (`.func`) are rejected:
// the kernels we run do not call any.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_PTXPARSER_H
#define MIRAGE_GPUEMULATOR_PTXPARSER_H

#include "mirage/GpuEmulator/PtxModule.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mirage::emulator {

/// Parses a whole PTX module. On malformed or unsupported text, returns an
/// llvm::StringError "PTX line N: ..." that quotes the offending token.
llvm::Expected<PtxModule> parsePtx(llvm::StringRef text);

} // namespace mirage::emulator

#endif // MIRAGE_GPUEMULATOR_PTXPARSER_H
