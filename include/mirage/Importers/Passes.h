//===- Passes.h - importers from upstream MLIR dialects ---------*- C++ -*-===//
//
// The entry header of the importers: --tosa-to-graph and --linalg-to-graph
// (docs/Importers.md), and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_IMPORTERS_PASSES_H
#define MIRAGE_IMPORTERS_PASSES_H

#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Importers/LiftedConstants.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL
#include "mirage/Importers/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mirage/Importers/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_IMPORTERS_PASSES_H
