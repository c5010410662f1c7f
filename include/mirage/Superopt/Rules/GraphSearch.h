//===- GraphSearch.h - TASO's cost-based backtracking search ----*- C++ -*-===//
//
// Best-first search over the graphs the rules reach (TASO, SOSP'19,
// section 5): a priority queue of graphs ordered by estimated time; each
// step takes the cheapest, applies every rule at every match, and queues
// each new graph that costs less than alpha times the best seen. alpha > 1
// lets the search pass through slightly worse graphs on its way to better
// ones (merging two convolutions costs a split before the bias adds and
// relus merge too).
//
// Children are queued lazily: a child is its parent and the edit of its
// rewrite (GraphEdit), costed from the parent without being built
// (EditEvaluator: the exact fixed-point totals that building and finishing
// it gives). It is built, hashed and checked against the graphs already
// expanded only when it is taken from the queue (a graph reached again by
// another rewrite order is then skipped, and does not count against the
// budget), or when it enters the few cheapest (which are distinct graphs).
// This visits the same graphs in the same order as building every child
// and queueing each structural hash once would, as long as the queue is
// not cut (maxQueue), at the cost of one edit per child instead of a copy
// and a hash of the whole graph downstream of the rewrite.
//
// Deterministic: rules, directions and matches are tried in a fixed order,
// ties in the queue go to the older entry, and the budget counts graphs
// taken from the queue and expanded. The wall-clock limit is a safety cut
// the result reports, not a slice of work.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_GRAPHSEARCH_H
#define MIRAGE_SUPEROPT_RULES_GRAPHSEARCH_H

#include "mirage/Superopt/Rules/Matcher.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

namespace mirage::rules {

struct GraphSearchOptions {
  double alpha = 1.05;
  /// Graphs taken from the queue.
  uint64_t budget = 300;
  /// The most entries the queue holds (the costliest are dropped beyond).
  /// An entry is a parent index and an edit, not a graph; the same graph
  /// reached by several rewrite orders takes an entry each.
  uint64_t maxQueue = 200000;
  /// Seconds; a safety limit (0: none).
  double timeLimit = 0;
  /// How many of the cheapest graphs to return (the caller verifies them
  /// in order).
  unsigned keep = 4;
  llvm::raw_ostream *progress = nullptr;
  /// Also match every visited graph from scratch, and build and finish
  /// every child, and count where the incremental matcher or the
  /// EditEvaluator found anything else than the full computation (a test;
  /// slow).
  bool checkIncremental = false;
  std::string progressPrefix;
  /// Ranks the graphs instead of WorkGraph::cost() when set: the queue's
  /// order, the alpha bound and the best graphs kept all use it. It is
  /// given every distinct generated graph once (the start graph first),
  /// built and finished (children are then built as they are generated,
  /// not when taken from the queue); +infinity
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
  /// Graphs expanded; children costed (rewrites not refused, whether or
  /// not the graph was reached before); matches.
  uint64_t visited = 0, generated = 0, matches = 0;
  /// Children queued; built (taken from the queue, or entering the
  /// cheapest few); taken from the queue but already expanded (reached by
  /// another rewrite order); dropped from a full queue.
  uint64_t queued = 0, built = 0, duplicates = 0, dropped = 0;
  /// The incremental matcher's roots reused and matched again, and (with
  /// checkIncremental) the graphs and children where the incremental
  /// matching or costing differed from the full computation.
  uint64_t rootsReused = 0, rootsMatched = 0, incrementalMismatches = 0;
  bool budgetReached = false, timeLimitReached = false;
  /// Wall clock, and the process's CPU time over the search (on a shared
  /// machine the wall clock includes waiting for a core).
  double seconds = 0, cpuSeconds = 0;
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
