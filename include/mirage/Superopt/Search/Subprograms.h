//===- Subprograms.h - a function cut into µGraph subprograms ---*- C++ -*-===//
//
// How a graph function is cut into the subprograms the µGraph search takes
// (docs/Search.md): searchable ops grouped by data dependence, each group
// convex, and how a subprogram's µGraph is spliced back. --superoptimize
// and the joint search (Joint.h) cut and splice alike through these, so the
// joint search's costs are those --superoptimize realizes.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SEARCH_SUBPROGRAMS_H
#define MIRAGE_SUPEROPT_SEARCH_SUBPROGRAMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mirage::superopt {

/// Searchable ops of one block, connected by data dependence and convex (no
/// path leaves the set and comes back), in program order; with the values
/// they read and those read after them (computeBoundary).
struct Subprogram {
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::SmallVector<mlir::Value> inputs, outputs;
};

/// Ops that only move data (transposes, reshapes that only insert or drop
/// size-1 dimensions): the search expresses them through the index
/// variables of the kernels around them. A reshape of a value no searchable
/// op produces joins no subprogram (it is a free view; the subprogram reads
/// it).
bool isDataMovement(mlir::Operation *op);

/// Whether `ops` (in program order, one block) is convex: no op outside the
/// set both depends on one of them and feeds one of them.
bool isConvex(llvm::ArrayRef<mlir::Operation *> ops);

/// Groups the searchable ops (isSearchableGraphOp or data movement) of
/// `block`, other than those `skip` selects, by data dependence: walking in
/// program order, each op other than a size-1 reshape joins the groups of
/// the searchable ops producing its operands (all of them when the union
/// fits and is convex, else the first one that does), or starts one. Then
/// each size-1 reshape of a grouped value joins its producer's group and,
/// through it, the groups of its users, whole groups only, each when the
/// union fits and is convex. A group fits with at most `maxOps` ops (views
/// not counted); a reshape's join also needs, when `memoryBudgetBytes` is
/// not 0, a verificationFloorBytes() within it. Groups of data movement alone are
/// dropped. The boundaries are not computed.
llvm::SmallVector<Subprogram>
groupSubprograms(mlir::Block &block, unsigned maxOps,
                 llvm::function_ref<bool(mlir::Operation *)> skip = nullptr,
                 uint64_t memoryBudgetBytes = 0);

/// A lower bound on the bytes the verification of a subprogram of `ops`
/// needs: its finite-field test holds the values it reads while running
/// the default schedule on them (estimatePeakBytes: the inputs twice, an
/// op's results and their temporaries). A subprogram over the search's
/// memory budget by this bound could only keep its default schedule.
uint64_t verificationFloorBytes(llvm::ArrayRef<mlir::Operation *> ops);

/// (Re)computes the values a subprogram reads and those read after it (a
/// subprogram spliced before it may have replaced its inputs).
void computeBoundary(Subprogram &sub);

/// The subprogram (boundary computed) as a function of its own, `name`,
/// appended to `scratch`: its inputs are the arguments, its ops cloned in
/// order, its outputs returned.
mlir::func::FuncOp outlineSubprogram(const Subprogram &sub,
                                     llvm::StringRef name,
                                     mlir::ModuleOp scratch,
                                     mlir::Location loc);

/// Whether an op of the subprogram reads or makes a tensor without
/// elements (nothing to search for).
bool hasEmptyTensor(const Subprogram &sub);

/// Replaces the subprogram (boundary computed) by the body of `muGraph`
/// (arguments = inputs, returned values = outputs), inserted at the
/// subprogram's last op, where every value it reads is defined; ops between
/// its first and last op that depend on it move after it, in their order.
/// The new ops get `loc`. The subprogram's ops are erased.
void spliceSubprogram(Subprogram &sub, mlir::func::FuncOp muGraph,
                      mlir::Location loc);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_SEARCH_SUBPROGRAMS_H
