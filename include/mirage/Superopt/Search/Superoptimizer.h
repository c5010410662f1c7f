//===- Superoptimizer.h - the multi-level µGraph search ---------*- C++ -*-===//
//
// Searches, for one subprogram of graph ops, the cheapest equivalent µGraph
// (docs/Search.md):
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
// The search is deterministic: its budgets count states and bytes, never
// seconds; tasks are merged in a fixed order and ties keep enumeration
// order; so the same input and options give the same µGraph whatever the
// load and the thread count. Only the wall-clock safety limit can cut a
// search at a point that depends on the machine, and the result says so.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SUPEROPTIMIZER_H
#define MIRAGE_SUPEROPT_SUPEROPTIMIZER_H

#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Superopt/Search/Subprograms.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/ThreadPool.h"
#include <cstdint>
#include <functional>
#include <string>

namespace mirage::superopt {

/// The version of the search (this library's enumeration, ranking and
/// verification steps). It is part of every cache key (SearchCache.h):
/// bump it whenever a change could give a different µGraph for the same
/// input and options, so that no stale result is served.
///   3: f32 tiles for sums of f16/bf16 data, softmax opaque, state budgets
///      in deterministic rounds (issue 11).
///   5: elementwise block ops on tiles of lower rank (NumPy broadcasting:
///      per-channel [C, 1, 1] operands of [N, C, H, W] tensors fuse).
///   6: online softmax (softmax folded into attention's second matmul),
///      grids over reduced variables (split loops, partial results combined
///      by a second kernel), kernel-outputs (issue 16).
///   7: composite block ops in the space: block.rms_norm and the block.accum
///      red_sum / red_rms composites (issue 16).
///   8: transposes in the searched subprograms, followed through their
///      index variables (a kernel reading K computes on K^T), and the
///      pass's subprograms grouped by data dependence (issue 16).
///   9: fewer states for the same block graphs (without a loop the
///      accumulator is the last op, on the goal; the inputs read cover the
///      tensors the goal mentions): a state budget that cut a search before
///      may no longer cut it, and the stored remarks count the states.
///  10: reshapes that only insert or drop size-1 dimensions in the
///      searched subprograms (tile layouts, block.reshape after an input
///      iterator or before the output saver).
///  11: kernel-level enumeration of formulations (KernelGraphs.h): other
///      kernel graphs of predefined ops computing the same goals are searched
///      too, and the cheapest verified µGraph of any of them wins.
///  12: graph-defined kernels with two outputs: a kernel computing a value
///      may also save one it computes on the way, standing for that value's
///      own kernel.
///  13: softmax and transpose in the kernel-level enumeration (subprograms
///      with them are enumerated, softmax((s Q) K) V for softmax(s (Q K)) V),
///      tensors told apart by their dimensions' sources (a square K from
///      K^T, A B from B A).
///  14: kernels with two outputs computing two independent values side by
///      side (the two goals' block graphs combined, shared nodes once).
///  15: reshapes that only insert or drop size-1 dimensions in the
///      kernel-level enumeration (free views, not counted against
///      kernel-graph-ops): subprograms with them are enumerated, e.g.
///      reshape(x) W^T as (W reshape(x)^T)^T.
///  16: the goals only kernels with two outputs need are searched after
///      the others, with the states those left (a binding budget no longer
///      spreads over them: BERT at 1 M states 128.36 -> 122.85 us).
///  17: a for-loop task whose goal no tile after the loop can have is not
///      enumerated (AbstractExpr.h, computableAfterLoop): the same results
///      with fewer states, and a budget that bound such programs no longer
///      does.
///  18: comparisons, select and erf in the search; subprograms cut at
///      casts.
inline constexpr unsigned kSearchVersion = 18;

struct SearchOptions {
  /// Kernels of the µGraph (predefined and graph-defined).
  unsigned maxKernelOps = 5;
  /// Whether the subprogram's inputs count against maxKernelOps, as in
  /// Mirage (its input ops are kernel-graph ops): `preset=mirage-limits`.
  bool kernelOpsCountInputs = false;
  /// Graph-defined kernels of the µGraph (0: no limit); a split loop's
  /// partial and combining kernels count as two. Mirage: 1.
  unsigned maxGraphDefinedKernels = 0;
  /// Block ops of a graph-defined kernel, input iterators and the output
  /// saver included (Mirage: 11).
  unsigned maxBlockOps = 11;
  /// Grid dimensions over output variables of a graph-defined kernel (1 to
  /// 3); a split of the loop variable takes one more, up to 3 in all.
  unsigned maxGridDims = 2;
  /// Device tensors one graph-defined kernel may write (Mirage: 2): the
  /// partial results of a split loop count one per sum accumulator and two
  /// per online softmax; with 2 or more, a kernel may also save a value it
  /// computes on the way to its goal (docs/Search.md, "Two outputs").
  unsigned maxKernelOutputs = 2;
  /// Candidate sizes of one grid dimension; empty: every divisor from 2 to
  /// 1024 of the partitioned extent.
  llvm::SmallVector<int64_t> gridSizes;
  /// Candidate for-loop ranges above 1; empty: every divisor from 2 to 128
  /// of the walked extent.
  llvm::SmallVector<int64_t> forloopRanges;
  /// Enumeration states per subprogram, shared among the block-level tasks
  /// in deterministic rounds (docs/Search.md): a task that reaches its share
  /// stops and keeps what it found, and the result reports it.
  uint64_t stateBudget = 10'000'000;
  /// Bytes the search's own data may take (abstract expressions, block
  /// graphs, candidates), split evenly among the tasks that run at once.
  uint64_t memoryBudgetBytes = uint64_t(4) << 30;
  /// The wall-clock safety limit of the search, in seconds: the enumeration
  /// stops at half of it, costing and verification use the rest, and no
  /// candidate is verified after it (a verification under way finishes).
  /// Not a budget: reaching it is reported and the result is not cached.
  double timeLimitSeconds = 600;
  /// Kernel-level enumeration (KernelGraphs.h, docs/Search.md): ops of a
  /// formulation of the subprogram other than the program's own, over its
  /// inputs and the intermediates made before (0: none, only the program
  /// as written is searched).
  unsigned kernelGraphOps = 0;
  /// States (kernel-graph prefixes) the enumeration may visit.
  uint64_t kernelGraphStates = 100'000;
  /// Formulations searched besides the program's own. Each one's
  /// block-level search gets stateBudget / formulations states, so all of
  /// them together take at most the program's own budget again.
  unsigned maxFormulations = 8;
  /// Abstract-expression pruning (off only for the ablation).
  bool pruning = true;
  /// Cheapest graph-defined kernels each block-level task keeps; the
  /// verification tries them in cost order and drops rejected ones.
  unsigned keptPerTask = 4;
  VerifierOptions verifier;
  /// False: cost only. The cheapest µGraph the enumeration found is
  /// returned unverified (SearchResult::verified false), for a caller that
  /// only ranks by its cost (the joint search, Joint.h) and searches again,
  /// verifying, whatever it keeps: verification is most of a search's time
  /// on large tensors, and a ranking meets many subprograms it never emits.
  /// An unverified cost is a lower bound of the verified one: the verified
  /// search picks from the same candidates, minus those it rejects.
  bool verify = true;
  /// Applied to the chosen µGraph before its whole-program verification,
  /// e.g. thread fusion (null: nothing).
  std::function<mlir::LogicalResult(mlir::func::FuncOp)> finalize;
  /// A line per finished search task (null: quiet).
  llvm::raw_ostream *progress = nullptr;
  /// Where the block-level searches run (null: on the calling thread).
  llvm::ThreadPoolInterface *threadPool = nullptr;
};

struct SearchStats {
  uint64_t statesExplored = 0;    // in each task's last run
  uint64_t statesRepeated = 0;    // re-explored by later budget rounds
  uint64_t statesPruned = 0;      // by abstract expressions
  uint64_t blockGraphs = 0;       // complete block-graph structures
  uint64_t candidatesCosted = 0;  // instantiations on a grid and loop range
  unsigned candidatesVerified = 0, candidatesRejected = 0;
  double searchSeconds = 0, verifySeconds = 0;
  /// Block-level tasks, and budget rounds (docs/Search.md).
  unsigned tasks = 0, rounds = 0;
  /// Tasks stopped by their share of the state or memory budget, and the
  /// state share of the last round.
  unsigned tasksCutByStates = 0, tasksCutByMemory = 0;
  uint64_t stateShare = 0;
  /// Tasks only kernels with two outputs need (their goals' frontiers
  /// without the second value), run after the others with the states those
  /// left: how many ran, how many their share cut (and that share), how
  /// many were not run at all (less than a state each was left).
  unsigned pairTasks = 0, pairTasksCut = 0, pairTasksNotRun = 0;
  uint64_t pairStateShare = 0;
  /// The largest estimated size of one task's data, in bytes.
  uint64_t peakTaskBytes = 0;
  /// The wall-clock safety limit stopped the search (nondeterministic);
  /// with verificationCut, before a candidate could be verified (the
  /// default schedule was kept).
  bool timeLimitHit = false, verificationCut = false;
  /// Why a verification stopped before its verdict (the time limit, the
  /// memory budget); empty if none did. Its candidate was not used.
  std::string verificationInterrupted;
  /// The kernel-level enumeration: prefixes visited and pruned,
  /// formulations searched besides the program's own, how many of them were
  /// verified (their estimate beat the best verified µGraph so far), the
  /// block-level states of the searches whose µGraph was not chosen (the
  /// counts above are the chosen formulation's; the seconds are totals),
  /// and whether its state budget or formulation limit cut it. `kernelGraphSkipped` says
  /// why it did not run (empty: it ran or was off); `formulation` describes
  /// the chosen one (empty: the program's own).
  uint64_t kernelGraphStates = 0, kernelGraphPruned = 0;
  unsigned formulations = 0, formulationsTried = 0;
  /// Formulations whose block-level search spent its share of the budget.
  unsigned formulationsCutByStates = 0;
  uint64_t otherFormulationStates = 0;
  bool kernelGraphStateBudgetHit = false, formulationLimitHit = false;
  std::string kernelGraphSkipped, formulation;
  bool budgetHit() const {
    return tasksCutByStates || tasksCutByMemory || timeLimitHit ||
           pairTasksCut || pairTasksNotRun ||
           !verificationInterrupted.empty() || kernelGraphStateBudgetHit ||
           formulationLimitHit;
  }
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
  /// Whether `best` was verified (or is the default schedule): false only
  /// for a search with SearchOptions::verify off that chose new kernels.
  bool verified = true;
  SearchStats stats;
};

/// Whether the search handles a graph op (matmul, elementwise, reductions,
/// softmax, rms_norm without epsilon); the passes keep the others in their
/// predefined kernels and cut subprograms at them.
bool isSearchableGraphOp(mlir::Operation *op);

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
