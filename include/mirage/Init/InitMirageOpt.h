//===- InitMirageOpt.h - everything mirage-opt registers --------*- C++ -*-===//
//
// The dialects, extensions and passes of mirage-opt, in one place, for every
// host that runs its pipelines: the mirage-opt driver and the Python
// package (python/). A program that mirage-opt reads or writes at any stage
// of the lowering parses in a context with this registry.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INIT_INITMIRAGEOPT_H
#define MIRAGE_INIT_INITMIRAGEOPT_H

#include "mlir/IR/DialectRegistry.h"

namespace mirage {

/// The four µGraph dialects, every upstream dialect the pipelines read or
/// lower to (func, arith, math, tensor, memref, scf, linalg, tosa, gpu,
/// nvvm, nvgpu, llvm, cf, vector), their extensions, and the LLVM IR
/// translations the PTX emission needs.
void registerMirageOptDialects(mlir::DialectRegistry &registry);

/// mirage-opt's passes (the importers among them) and pipelines, and the
/// generic upstream passes (canonicalize, cse, ...) that pipelines use.
/// Idempotent.
void registerMirageOptPasses();

} // namespace mirage

#endif // MIRAGE_INIT_INITMIRAGEOPT_H
