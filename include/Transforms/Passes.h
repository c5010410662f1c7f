//===- Passes.h - mirage-opt lowering and import passes ---------*- C++ -*-===//

#ifndef MIRAGE_TRANSFORMS_PASSES_H
#define MIRAGE_TRANSFORMS_PASSES_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL
#include "Transforms/Passes.h.inc"

/// The default schedule's rewrite patterns (graph op -> predefined kernel),
/// for passes that convert part of a function.
void populateGraphToKernelPatterns(mlir::RewritePatternSet &patterns);

/// Rule-based thread fusion of one block graph (--fuse-thread-chains).
void fuseBlockGraph(mlir::Block &graph);

#define GEN_PASS_REGISTRATION
#include "Transforms/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_PASSES_H
