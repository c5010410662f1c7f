//===- GraphSearch.h - TASO's cost-based backtracking search ----*- C++ -*-===//
//
// Best-first search over the graphs the rules reach (TASO, SOSP'19,
// section 5): a priority queue of graphs ordered by estimated time; each
// step takes the cheapest, applies every rule at every match, and queues
// each new graph (by structural hash, each once) that costs less than
// alpha times the best seen. alpha > 1 lets the search pass through
// slightly worse graphs on its way to better ones (merging two
// convolutions costs a split before the bias adds and relus merge too).
//
// Deterministic: rules, directions and matches are tried in a fixed order,
// ties in the queue go to the older graph, and the budget counts graphs
// taken from the queue. The wall-clock limit is a safety cut the result
// reports, not a slice of work.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_GRAPHSEARCH_H
#define MIRAGE_SUPEROPT_RULES_GRAPHSEARCH_H

#include "Superopt/Rules/Matcher.h"
#include "Superopt/Verification/EquivalenceVerifier.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

namespace mirage::rules {

struct GraphSearchOptions {
  double alpha = 1.05;
  /// Graphs taken from the queue.
  uint64_t budget = 300;
  /// The most graphs the queue holds (the costliest are dropped beyond).
  uint64_t maxQueue = 20000;
  /// Seconds; a safety limit (0: none).
  double timeLimit = 0;
  /// How many of the cheapest graphs to return (the caller verifies them
  /// in order).
  unsigned keep = 4;
  llvm::raw_ostream *progress = nullptr;
  /// Also match every visited graph from scratch and count the graphs where
  /// the incremental matcher found anything else (a test; slow).
  bool checkIncremental = false;
  std::string progressPrefix;
  /// Ranks the graphs instead of WorkGraph::cost() when set: the queue's
  /// order, the alpha bound and the best graphs kept all use it. It is
  /// given every generated graph once (the start graph first), finished
  /// by finishFrom (call finish() on a copy for isWeight()); +infinity
  /// drops a graph. It must be deterministic for the search to be.
  std::function<double(const WorkGraph &)> cost;
};

struct GraphSearchResult {
  /// The cheapest graphs found, cheapest first (the start graph last if
  /// nothing cheaper was found), each with the rules applied to reach it.
  struct Found {
    WorkGraph graph;
    std::vector<std::string> applied;
  };
  std::vector<Found> best;
  uint64_t visited = 0, generated = 0, matches = 0;
  /// The incremental matcher's roots reused and matched again, and (with
  /// checkIncremental) the graphs where it differed from a full match.
  uint64_t rootsReused = 0, rootsMatched = 0, incrementalMismatches = 0;
  bool budgetReached = false, timeLimitReached = false;
  double seconds = 0;
};

GraphSearchResult searchGraphs(const WorkGraph &start,
                               llvm::ArrayRef<RuleDirection> directions,
                               NodeArena &arena,
                               const GraphSearchOptions &options);

/// Writes `g` into a copy of `func`, verifies the copy against `func`
/// (EquivalenceVerifier.h) and, if they are equivalent, gives `func` the
/// copy's body. Returns the verifier's report either way; fails (with a
/// diagnostic) only if the graph cannot be written or the verifier cannot
/// compare the two.
mlir::FailureOr<superopt::VerificationReport>
commitIfVerified(mlir::func::FuncOp func, const WorkGraph &g,
                 const superopt::VerifierOptions &options);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_GRAPHSEARCH_H
