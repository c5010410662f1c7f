//===- Saturation.h - equality saturation with the rule set -----*- C++ -*-===//
//
// Equality saturation (egg; Tensat, MLSys'21): every rule direction of the
// rule set (rules::prepareDirections) is matched against the e-graph, all
// matches of an iteration are collected first and then applied (the
// target side is added, its outputs merged with the matched source's), and
// the e-graph is rebuilt. Rules with two outputs (TASO's multi-pattern
// rules) match both outputs with one consistent binding of variables,
// dimension and scalar symbols. Matching follows the plan of the
// backtracking matcher (Matcher.h: an op of the first output, then
// producers, then users of bound values), over e-classes: add and mul
// match in either operand order, and a variable's e-class must have the
// shape its constraint says.
//
// Limits, checked between matches: e-nodes, iterations (deterministic
// budgets) and wall-clock time (a reported safety cut). A direction that
// yields more than `matchLimit` matches in an iteration is banned for a
// few iterations (egg's backoff scheduler), so that associativity-like
// rules do not spend the node budget alone; the e-graph is saturated only
// when an iteration with no rule banned changes nothing. Directions with
// two source outputs may be limited to the first iterations (Tensat's
// k_multi); then "saturated" means saturated under the others.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_EQSAT_SATURATION_H
#define MIRAGE_SUPEROPT_EQSAT_SATURATION_H

#include "mirage/Superopt/EqSat/EGraph.h"
#include "mirage/Superopt/Rules/Matcher.h"
#include "llvm/ADT/StringSet.h"

namespace mirage::eqsat {

/// A match of a rule direction in the e-graph.
struct EMatch {
  const rules::RuleDirection *direction = nullptr;
  llvm::SmallVector<ClassId, 4> variables; // per rule variable (or ~0u)
  llvm::SmallVector<int64_t, 8> sizes;     // per dimension symbol
  llvm::SmallVector<double, 2> scalars;    // per scalar symbol
  llvm::SmallVector<ClassId, 2> outputs;   // per source output
  NodeId anchor = 0; // the e-node matched by the first op (for locations)
};

/// Calls `f` on each match of `d` in `g` (rebuilt), in a deterministic
/// order, until it returns false. Matches whose ops all compute from
/// weights only are skipped (they are folded before the run).
void forEachEMatch(const EGraph &g, const rules::RuleDirection &d,
                   llvm::function_ref<bool(const EMatch &)> f);

/// Adds the target side of `m` and merges its outputs with the source's.
/// Returns whether anything changed; false with `refused` set if the
/// target's types do not come out as the source's.
bool applyEMatch(EGraph &g, const EMatch &m, bool &refused);

struct SaturationOptions {
  uint64_t nodeLimit = 20000;
  unsigned iterationLimit = 15;
  /// Seconds; a safety limit (0: none).
  double timeLimit = 0;
  /// Matches of one direction in one iteration beyond which it is banned.
  uint64_t matchLimit = 1000;
  unsigned banLength = 3;
  /// Iterations in which directions with two source outputs (TASO's
  /// multi-pattern rules) are matched: Tensat applies them in the first
  /// iteration(s) only, since each iteration of them can double the
  /// e-graph (a concat and a split for every pair of ops that read one
  /// tensor). 0: every iteration.
  unsigned multiOutputIterationLimit = 0;
};

enum class StopReason { Saturated, NodeLimit, IterationLimit, TimeLimit };
llvm::StringRef stringify(StopReason reason);

struct SaturationResult {
  unsigned iterations = 0;
  StopReason stop = StopReason::Saturated;
  uint64_t matches = 0, applied = 0, refused = 0, bans = 0;
  /// Whether directions with two source outputs were skipped in some
  /// iteration (multiOutputIterationLimit).
  bool multiOutputLimited = false;
  /// Rules whose application changed the e-graph.
  llvm::StringSet<> rulesApplied;
  double seconds = 0;
};

SaturationResult saturate(EGraph &g,
                          llvm::ArrayRef<rules::RuleDirection> directions,
                          const SaturationOptions &options);

/// Adds a work graph's live nodes to the e-graph; returns the e-classes of
/// its outputs.
std::vector<ClassId> addWorkGraph(EGraph &g, const rules::WorkGraph &wg);

/// The work graph of an extraction: `choice` gives one e-node per e-class
/// reached from `roots` (the outputs of `start`, which provides the
/// arguments). Fails, saying why, if the choice is incomplete or cyclic.
std::optional<rules::WorkGraph>
buildWorkGraph(const EGraph &g, const rules::WorkGraph &start,
               llvm::ArrayRef<ClassId> roots, llvm::ArrayRef<int64_t> choice,
               rules::NodeArena &arena, std::string &why);

} // namespace mirage::eqsat

#endif // MIRAGE_SUPEROPT_EQSAT_SATURATION_H
