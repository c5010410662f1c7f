//===- FuseThreadChains.h - thread fusion of block graphs -------*- C++ -*-===//
//
// The rule-based thread fusion of --fuse-thread-chains, which the µGraph
// searches also apply to their results.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_FUSETHREADCHAINS_H
#define MIRAGE_TRANSFORMS_FUSETHREADCHAINS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Block.h"
#include <string>

namespace mirage {
namespace superopt {
struct GpuTarget;
} // namespace superopt

/// Rule-based thread fusion of one block graph (--fuse-thread-chains).
void fuseBlockGraph(mlir::Block &graph);

/// Thread fusion of every graph-defined kernel of `func`, as the µGraph
/// passes apply it to their results. A kernel whose fused chains would
/// exceed the target's registers per thread (or its shared memory) is left
/// unfused, as the search costed it, and counted in `unfused`. A kernel whose
/// fused block graph the verifiers reject is left unfused too (a valid
/// µGraph stays valid), counted in `invalid` when given, and its verifier
/// message kept in `firstInvalid`.
mlir::LogicalResult
fuseThreadChainsWithinTarget(mlir::func::FuncOp func,
                             const superopt::GpuTarget &gpu,
                             unsigned &unfused, unsigned *invalid = nullptr,
                             std::string *firstInvalid = nullptr);

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_FUSETHREADCHAINS_H
