//===- Passes.h - passes that check and report ------------------*- C++ -*-===//
//
// Passes that check or describe a program and leave it unchanged:
// --verify-equivalence, --check-substitutions, --estimate-cost and
// --print-mugraph-dot.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_REPORTS_PASSES_H
#define MIRAGE_REPORTS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL
#include "mirage/Reports/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mirage/Reports/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_REPORTS_PASSES_H
