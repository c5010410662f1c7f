//===- Superoptimizer.h - the multi-level µGraph search ---------*- C++ -*-===//
//
// Searches, for one subprogram of graph ops, the cheapest equivalent µGraph
// (DESIGN.md, "µGraph search"; docs/Search.md):
//
//  - kernel level: which of the subprogram's values to materialize in
//    device memory. Every materialized value is produced by one kernel:
//    its predefined kernel, or a graph-defined kernel found by
//  - the block-level search: a depth-first enumeration of block graphs
//    (input iterators, shared-memory ops, for-loop accumulators, post-loop
//    ops, output saver) whose every tile's abstract expression must be a
//    subexpression of the goal's. Maps follow the program's index
//    variables; complete block graphs are instantiated on every grid and
//    for-loop range drawn from divisors of the real shapes and ranked by the
//    cost model;
//  - thread level: rule-based fusion, applied by the pass afterwards.
//
// Candidates are verified lazily, cheapest first: a graph-defined kernel is
// used only once the verifier (finite-field test, then floating point) has
// accepted it against the ops it replaces.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SUPEROPTIMIZER_H
#define MIRAGE_SUPEROPT_SUPEROPTIMIZER_H

#include "Superopt/CostModel/CostModel.h"
#include "Superopt/Verification/EquivalenceVerifier.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/ThreadPool.h"
#include <cstdint>
#include <functional>
#include <string>

namespace mirage::superopt {

struct SearchOptions {
  /// Kernels of the µGraph (predefined and graph-defined).
  unsigned maxKernelOps = 5;
  /// Block ops of a graph-defined kernel, input iterators and the output
  /// saver included (Mirage: 11).
  unsigned maxBlockOps = 11;
  /// Grid dimensions of a graph-defined kernel (1 to 3).
  unsigned maxGridDims = 2;
  /// Candidate sizes of one grid dimension; empty: every divisor from 2 to
  /// 1024 of the partitioned extent.
  llvm::SmallVector<int64_t> gridSizes;
  /// Candidate for-loop ranges above 1; empty: every divisor from 2 to 128
  /// of the walked extent.
  llvm::SmallVector<int64_t> forloopRanges;
  /// Budgets: on reaching either the search stops and keeps the best so far.
  double timeBudgetSeconds = 60;
  uint64_t stateBudget = 50'000'000;
  /// Abstract-expression pruning (off only for the ablation).
  bool pruning = true;
  /// Cheapest graph-defined kernels each block-level task keeps; the
  /// verification tries them in cost order and drops rejected ones.
  unsigned keptPerTask = 4;
  VerifierOptions verifier;
  /// Applied to the chosen µGraph before its whole-program verification,
  /// e.g. thread fusion (null: nothing).
  std::function<mlir::LogicalResult(mlir::func::FuncOp)> finalize;
  /// A line per finished search task (null: quiet).
  llvm::raw_ostream *progress = nullptr;
  /// Where the block-level searches run (null: on the calling thread).
  llvm::ThreadPoolInterface *threadPool = nullptr;
};

struct SearchStats {
  uint64_t statesExplored = 0;
  uint64_t statesPruned = 0;      // by abstract expressions
  uint64_t blockGraphs = 0;       // complete block-graph structures
  uint64_t candidatesCosted = 0;  // instantiations on a grid and loop range
  unsigned candidatesVerified = 0, candidatesRejected = 0;
  double searchSeconds = 0, verifySeconds = 0;
  bool timeBudgetHit = false, stateBudgetHit = false;
  /// Block-level tasks stopped by their share of the time budget.
  unsigned tasksCut = 0;
};

struct SearchResult {
  /// The best µGraph found, finalized and verified, in the scratch module;
  /// the default schedule when nothing beats it.
  mlir::func::FuncOp best;
  double costUs = 0, defaultCostUs = 0;
  int64_t kernels = 0, defaultKernels = 0;
  unsigned graphDefinedKernels = 0;
  /// The summary of the whole µGraph's verification against the default
  /// schedule.
  std::string verification;
  SearchStats stats;
};

/// Searches a subprogram given in its default schedule (one predefined
/// kernel per graph op, as --graph-to-kernel emits it). New functions are
/// created in `scratch`. Fails with a diagnostic when the subprogram cannot
/// be searched.
mlir::FailureOr<SearchResult> searchMuGraph(mlir::func::FuncOp defaultSchedule,
                                            mlir::ModuleOp scratch,
                                            const GpuTarget &target,
                                            const SearchOptions &options);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_SUPEROPTIMIZER_H
