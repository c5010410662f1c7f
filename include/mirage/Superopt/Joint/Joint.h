//===- Joint.h - graph rewrites ranked by the µGraph search -----*- C++ -*-===//
//
// The joint search (docs/JointSearch.md) ranks the graphs the rules reach
// (GraphSearch.h) by what the µGraph search (Superoptimizer.h) makes of
// them, not by the sum of their ops' predefined kernels. A graph is costed
// segment by segment:
//
//  - ops computed from weights only are folded before the run (as in TASO
//    and --graph-optimize): they cost nothing and are hoisted to the top;
//  - the other ops are cut as --superoptimize cuts subprograms
//    (groupSubprograms, Subprograms.h: searchable ops grouped by data
//    dependence, at most `maxSegmentOps` each, convex); each segment costs
//    its µGraph's estimated time, and is spliced as --superoptimize splices;
//  - every other op costs its predefined kernel.
//
// A segment's µGraph is searched once per run: the memo is keyed by the
// segment printed generically without names or locations, so the same
// subprogram met in many graphs (most rewrites change one segment) costs
// one search. A budget of µGraph searches, counted in searches, bounds
// the work: a graph that would need a search beyond it is not ranked.
//
// Ranking costs µGraphs unverified (SearchOptions::verify off): on large
// tensors the verification is most of a search's time, and a ranking meets
// many segments it never emits. `verify` then searches again, verifying,
// the segments of the graphs the pass may emit; a verified cost is never
// below the unverified one, so the pass re-ranks with it before choosing.
// The choice prefers fewer rewrites in a near tie (chooseContender): a
// rewrite must gain more than a margin to be taken.
// Everything is deterministic.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_JOINT_JOINT_H
#define MIRAGE_SUPEROPT_JOINT_JOINT_H

#include "mirage/Superopt/Rules/WorkGraph.h"
#include "mirage/Superopt/Search/Superoptimizer.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

namespace mirage::joint {

/// The ops of a function that one µGraph search takes, with the values they
/// read and those read after them: --superoptimize's subprogram.
using Segment = superopt::Subprogram;

/// Moves the ops that compute from weights only (`isWeightArgument`) to the
/// top of `func`, in their order, and returns them. They depend on no other
/// op, so the program is unchanged; the segments then run unbroken by them.
llvm::SmallVector<mlir::Operation *>
hoistWeightOps(mlir::func::FuncOp func,
               llvm::function_ref<bool(unsigned)> isWeightArgument);

/// Cuts the ops of `func` other than `skip` (the hoisted weight ops) into
/// segments as --superoptimize cuts subprograms (groupSubprograms), with
/// their boundaries computed (`memoryBudgetBytes` as groupSubprograms
/// takes it).
llvm::SmallVector<Segment>
cutSegments(mlir::func::FuncOp func, unsigned maxOps,
            const llvm::SmallPtrSetImpl<mlir::Operation *> &skip,
            uint64_t memoryBudgetBytes = 0);

struct CosterOptions {
  /// The options of each segment's µGraph search.
  superopt::SearchOptions search;
  unsigned maxSegmentOps = 8;
  /// µGraph searches (distinct segments) for the whole run.
  uint64_t maxSearches = 64;
  /// Rewrites a function of graph ops into its default schedule (one
  /// predefined kernel per op; --graph-to-kernel's patterns).
  std::function<mlir::LogicalResult(mlir::func::FuncOp)> toDefaultSchedule;
  /// The structural hash of the graph read from the prototype
  /// (WorkGraph::hash): that graph is costed and lowered in the prototype's
  /// own op order, so that it is cut as --superoptimize cuts the input.
  std::optional<uint64_t> prototypeHash;
  /// A line per µGraph search (null: quiet).
  llvm::raw_ostream *progress = nullptr;
};

/// A graph's cost as the µGraph search schedules it.
struct JointCost {
  /// Weight-only ops folded (what the search ranks by), and counted.
  double timeUs = 0, timeWithWeightOpsUs = 0;
  /// Kernel launches outside the folded ops; graph-defined kernels among
  /// them; segments.
  int64_t kernels = 0, graphDefined = 0;
  unsigned segments = 0;
};

/// What the searches behind the costs did, for the remark.
struct CosterStats {
  /// Costing searches (unverified), memo hits, graphs refused for want of
  /// searches, searches that failed.
  uint64_t searches = 0, memoHits = 0, refused = 0, failed = 0;
  /// Verifying searches (`verify`), and those whose verified µGraph costs
  /// more than the unverified one (a candidate rejected or not verified).
  uint64_t verified = 0, verifiedCostlier = 0;
  uint64_t statesExplored = 0;
  /// Searches a state or memory budget cut (the best so far kept).
  uint64_t budgetCut = 0;
  double searchSeconds = 0, verifySeconds = 0;
};

/// A graph the pass may emit, as the choice among them sees it.
struct Contender {
  /// The verified cost, or a lower bound of it (not verified yet).
  double timeUs = 0;
  /// Rewrites from the input: 0 for the input itself.
  size_t rewrites = 0;
  bool verified = false;
};

/// Whether `cheaper` gains more than `minGain` (a fraction) of `costlier`:
/// costlier - cheaper > minGain * costlier.
bool gainsMoreThan(double cheaper, double costlier, double minGain);

/// The graph to emit, or the graph to verify before choosing.
struct Choice {
  /// The contender chosen (an index); none without contenders.
  std::optional<size_t> chosen;
  /// A contender whose cost is a lower bound that may change the choice
  /// (the chosen one, or the cheapest): verify it, then choose again.
  std::optional<size_t> verifyFirst;
};

/// Chooses among `contenders` (indices in the order found, the last
/// tie-break) with a near-tie preference for fewer rewrites. The cheapest
/// cost (verified or a lower bound) anchors a near-tie class: the
/// contenders it does not beat by more than `minGain`. The one with the
/// fewest rewrites in the class is chosen, then the cheapest, then the
/// first found. The cheapest is to be verified first when its verified
/// cost, higher, could let a contender with fewer rewrites into the class;
/// the chosen one is to be verified when it is not. Once neither is
/// needed:
///  - no contender gains more than `minGain` over the chosen one (a
///    verified cost only rises);
///  - a contender with fewer rewrites than the chosen one (the input, with
///    none) is passed over only when the cheapest, verified, beats it by
///    more than `minGain`;
///  - with `minGain` 0 the choice is the cheapest, with fewer rewrites
///    among equal costs.
/// The choice depends on costs and counts only (deterministic), and the
/// class is anchored, not pairwise ("within the margin" is not
/// transitive). `minGain` is in [0, 1): below 1, a lower bound outside the
/// class keeps its verified cost outside it.
Choice chooseContender(llvm::ArrayRef<Contender> contenders, double minGain);

class MuGraphCoster {
public:
  /// `prototype` is the graph function the graphs are rewrites of.
  MuGraphCoster(mlir::func::FuncOp prototype, const superopt::GpuTarget &gpu,
                CosterOptions options);
  ~MuGraphCoster();

  /// The cost of `g`; std::nullopt when a segment would need a µGraph
  /// search beyond the budget. Fails (with the search's diagnostic) when a
  /// segment cannot be searched.
  mlir::FailureOr<std::optional<JointCost>>
  evaluate(const rules::WorkGraph &g);

  /// The cost of `g` with each segment's µGraph verified: segments costed
  /// unverified are searched again with the verification on, and their
  /// memo entries replaced; new segments are searched verifying at once
  /// (within the budget of searches: std::nullopt beyond it).
  mlir::FailureOr<std::optional<JointCost>>
  verify(const rules::WorkGraph &g);

  /// Writes `g` into `func` as kernel-level IR: weight-only ops first, each
  /// segment's verified µGraph (from the memo: `g` must have been
  /// verified), the other ops' predefined kernels.
  mlir::LogicalResult lower(const rules::WorkGraph &g, mlir::func::FuncOp func);

  const CosterStats &getStats() const { return stats; }

private:
  struct Entry {
    /// The segment's default schedule, searched again to verify.
    mlir::func::FuncOp defaultSchedule;
    mlir::func::FuncOp best;
    double timeUs = 0;
    int64_t kernels = 0, graphDefined = 0;
    bool verified = false;
  };
  enum class Need { Cost, Verified, Memo };
  /// The memo entry of a segment of `func`: searched (unverified) if new
  /// and allowed, searched again verifying if `need` is Verified; null if
  /// refused by the budget or not in the memo (Memo).
  mlir::FailureOr<const Entry *> entryFor(Segment &segment, Need need);
  /// The cost of `g` from its segments' entries.
  mlir::FailureOr<std::optional<JointCost>> costOf(const rules::WorkGraph &g,
                                                   Need need);
  /// Searches `entry`'s default schedule and stores the result in it.
  mlir::LogicalResult search(Entry &entry, bool verified);
  /// Writes `g` into `func` and cuts it; `weightOps` gets the hoisted ops.
  mlir::FailureOr<llvm::SmallVector<Segment>>
  prepare(const rules::WorkGraph &g, mlir::func::FuncOp func,
          llvm::SmallPtrSet<mlir::Operation *, 8> &weightOps);

  mlir::func::FuncOp prototype;
  const superopt::GpuTarget &gpu;
  CosterOptions options;
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
  llvm::StringMap<Entry> memo;
  CosterStats stats;
  unsigned nextId = 0;
};

} // namespace mirage::joint

#endif // MIRAGE_SUPEROPT_JOINT_JOINT_H
