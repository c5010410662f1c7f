//===- Extraction.h - choosing one graph from an e-graph --------*- C++ -*-===//
//
// An extraction picks one e-node per e-class reached from the roots, so
// that the picks form a cycle-free graph. Its cost is the graph's: every
// picked e-node reached from the roots counted once, however many users it
// has (dagCost).
//
//  - greedy: per e-class the e-node of least tree cost (its cost plus its
//    children's), to a fixed point, bottom-up. Fast; a subterm shared by
//    two users is paid in both trees, so the pick can miss a cheaper
//    graph that shares more.
//  - sharing (SharingExtraction.cpp): greedy, then a local search on the
//    DAG cost: switch one reached e-class to another e-node, or switch it
//    and then the e-classes whose other e-nodes read what the switch
//    brought in (the other output of a merged op), keeping a move only if
//    the graph stays cycle-free and gets strictly cheaper; e-classes whose
//    greedy pick costs nothing with all it reaches are left as they are
//    (nothing is cheaper) and end the walks. Not optimal,
//    but never worse than greedy, fast, and within a budget of cost
//    evaluations (deterministic).
//  - optimal (Tensat's ILP): a 0/1 variable per e-node and per e-class;
//    the roots are picked, a picked e-class picks one of its e-nodes, a
//    picked e-node picks its children; minimize the sum of the picked
//    e-nodes' costs (shared subterms once). Cycles are excluded as Tensat
//    does, by constraints against the cycles: those of two e-nodes up
//    front, the others lazily (each cycle the optimum forms is forbidden:
//    not all its e-nodes picked) and the problem re-solved, until the
//    optimum is cycle-free. Solved by Z3's
//    optimizer (weighted MaxSAT over integer weights: costs in units of
//    0.1 ns, plus one unit per op as a tie-break towards fewer ops),
//    within a node budget, a timeout and a number of cuts; outside them
//    the caller falls back to greedy. E-classes of tree cost 0 (ops on
//    weights only, folded before the run) are leaves of the ILP, taken
//    from the greedy pick: nothing beats 0, and their picks reach only
//    classes of tree cost 0, so they close no cycle with the ILP's.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_EQSAT_EXTRACTION_H
#define MIRAGE_SUPEROPT_EQSAT_EXTRACTION_H

#include "mirage/Superopt/EqSat/EGraph.h"

namespace mirage::eqsat {

struct Extraction {
  /// Per e-class id (canonical ones reached from the roots): the e-node
  /// picked, or -1.
  std::vector<int64_t> choice;
  /// dagCost of the choice.
  double cost = 0;
};

/// The cost of a choice: each e-node reached from the roots once; nothing
/// if a root reaches an e-class with no pick or a cycle.
std::optional<double> dagCost(const EGraph &g, llvm::ArrayRef<ClassId> roots,
                              llvm::ArrayRef<int64_t> choice,
                              llvm::ArrayRef<double> nodeCost);

/// Greedy extraction; `nodeCost` per e-node id (non-negative). Nothing if
/// a root has no finite extraction.
std::optional<Extraction> extractGreedy(const EGraph &g,
                                        llvm::ArrayRef<ClassId> roots,
                                        llvm::ArrayRef<double> nodeCost);

struct SharingOptions {
  /// The most DAG-cost evaluations of the local search (each walks the
  /// picked graph once); the best pick so far is returned when it binds.
  uint64_t maxEvaluations = 20000;
};

struct SharingStats {
  double greedyCost = 0;
  uint64_t evaluations = 0, passes = 0;
  /// Switches kept, and how many of them came in bundles.
  uint64_t moves = 0, bundles = 0;
  bool budgetReached = false;
};

/// Greedy extraction improved by the local search on DAG cost; nothing if
/// greedy finds none. Its cost is at most greedy's.
std::optional<Extraction> extractSharing(const EGraph &g,
                                         llvm::ArrayRef<ClassId> roots,
                                         llvm::ArrayRef<double> nodeCost,
                                         const SharingOptions &options,
                                         SharingStats *stats = nullptr);

struct IlpOptions {
  /// The most e-nodes (reached from the roots) the ILP is built for.
  uint64_t maxNodes = 5000;
  /// Z3's resource limit over all rounds (its deterministic "rlimit"
  /// count, about 10 M per second on the development machine; 0: none).
  /// The same e-graph gets the same answer on any machine and load.
  uint64_t resourceLimit = 100'000'000;
  /// Z3's timeout, milliseconds: a wall-clock safety cut (0: none).
  unsigned timeoutMs = 0;
  /// The most rounds of cycle cuts before giving up.
  unsigned maxCycleCuts = 200;
};

/// Optimal extraction by integer programming; nothing, with `why` set
/// (over the node budget, Z3's timeout or an error), when it gives no
/// proved optimum.
std::optional<Extraction> extractOptimal(const EGraph &g,
                                         llvm::ArrayRef<ClassId> roots,
                                         llvm::ArrayRef<double> nodeCost,
                                         const IlpOptions &options,
                                         std::string &why);

} // namespace mirage::eqsat

#endif // MIRAGE_SUPEROPT_EQSAT_EXTRACTION_H
