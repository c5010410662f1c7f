//===- TermFromGraph.h - graph-dialect values as axiom terms ----*- C++ -*-===//
//
// Reads the term an SSA value of a graph-dialect function computes, so that
// graphs can be handed to the prover (AxiomProver.h). Only what the axioms
// are sound for is accepted: rank-2 matmuls and transposes (the axioms call
// rows and columns dimensions 0 and 1, as TASO's did), rms_norm with
// eps = 0, two-way concats and splits (whose sizes are dropped, as in TASO).
// Shared subgraphs are expanded into trees.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_TERMFROMGRAPH_H
#define MIRAGE_SUPEROPT_TERMFROMGRAPH_H

#include "mirage/Superopt/Axioms/AxiomTerm.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/Support/Error.h"

namespace mirage::superopt {

/// The term `value` computes. A block argument is the variable arg<i>, i its
/// argument number; every op on the way must be a graph op the term
/// language expresses.
llvm::Expected<Term> termFromGraph(mlir::Value value);

/// The term of result `resultIndex` of `func`, whose body is one block
/// ending in func.return.
llvm::Expected<Term> termFromGraph(mlir::func::FuncOp func,
                                   unsigned resultIndex = 0);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_TERMFROMGRAPH_H
