//===- Passes.h - the optimizations -----------------------------*- C++ -*-===//
//
// The optimizations: --superoptimize, --fuse-thread-chains, the TASO-style
// rule passes, --graph-optimize, --partial-equivalence-optimize,
// --joint-optimize and --graph-saturate. The conversions are in
// Conversion/Passes.h, the reports in Reports/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_PASSES_H
#define MIRAGE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL
#include "mirage/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mirage/Transforms/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_PASSES_H
