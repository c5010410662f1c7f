//===- Matcher.h - matching rules in a work graph and rewriting -*- C++ -*-===//
//
// A rule applies in a direction: its source side is matched, its target
// side replaces it. Matching binds the source ops to graph nodes (add and
// mul in either operand order), its variables to graph values, its
// dimension symbols to sizes (every variable's shape constraint must hold)
// and its scalar symbols to the ops' constants (positive ones, if the
// rule's proof assumed that). Ops are matched in an order that follows the
// pattern's edges (producers, then users of bound values), so that after
// the first op every candidate comes from a node already matched.
//
// A rewrite adds the target's ops (reusing an identical node the graph
// already has), redirects every use of each source output to the target's
// value, and lets the source ops that nothing uses any more die. A source
// op whose result has other users stays. A rewrite is refused if a value
// the target reads depends on a source output (it would make a cycle), or
// if the target's types do not come out as the source's.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_MATCHER_H
#define MIRAGE_SUPEROPT_RULES_MATCHER_H

#include "mirage/Superopt/Rules/WorkGraph.h"
#include "llvm/ADT/DenseMap.h"

namespace mirage::rules {

/// How the matcher finds the graph node of a source op.
struct MatchStep {
  unsigned op = 0; // the source op this step binds
  enum class From : uint8_t { AnyOfKind, ProducerOf, UserOf } from;
  /// ProducerOf: operand `operand` of the op bound at step `step`.
  /// UserOf: a user of `ref` (a variable or a result of a bound op).
  unsigned step = 0, operand = 0;
  PatternRef ref;
};

/// A rule in one direction, prepared for matching.
struct RuleDirection {
  const Rule *rule = nullptr;
  bool forward = true; // lhs -> rhs
  std::vector<MatchStep> steps;
  const PatternSide &source() const { return rule->side(!forward); }
  const PatternSide &target() const { return rule->side(forward); }
  /// "r0042" or "r0042 (reversed)".
  std::string label() const;
};

/// The directions in which each rule can be applied: the source side has
/// ops and binds every variable and scalar symbol the target side reads.
/// `reverse` also allows rhs -> lhs.
std::vector<RuleDirection> prepareDirections(llvm::ArrayRef<Rule> rules,
                                             bool reverse);

/// Per graph: users of each node, live rule nodes by kind, liveness, and
/// each live node's position in liveOrder() (operands first: a node reads
/// only nodes placed before it, which bounds the searches for cycles).
/// The live users of a node: (user, operand slot).
using UserList = llvm::SmallVector<std::pair<uint32_t, unsigned>, 2>;

struct GraphIndex {
  explicit GraphIndex(const WorkGraph &g);
  std::vector<UserList> users;
  std::vector<std::vector<uint32_t>> byKind;
  std::vector<bool> live;
  std::vector<uint32_t> position; // UINT32_MAX for dead nodes
  /// Whether the live nodes have no cycle (then `position` is topological).
  bool topological = true;
};

struct Match {
  const RuleDirection *direction = nullptr;
  llvm::SmallVector<uint32_t, 4> ops;        // per source op
  llvm::SmallVector<WValue, 4> variables;    // per rule variable
  llvm::SmallVector<int64_t, 8> sizes;       // per dimension symbol
  llvm::SmallVector<double, 2> scalars;      // per scalar symbol
};

/// Calls `f` on each match of `d` in `g`, in a deterministic order, until it
/// returns false. Matches whose ops all compute from weights only are
/// skipped: those ops are folded before the run.
void forEachMatch(const WorkGraph &g, const GraphIndex &index,
                  const RuleDirection &d,
                  llvm::function_ref<bool(const Match &)> f);

/// Matches every direction in the graphs of a search, reusing what it found
/// in earlier graphs. A direction whose source is found from its first op
/// (every other op as a producer of a bound op, or a user of a bound value)
/// has its matches rooted at a node decided by what the matcher read from
/// there: the nodes (the root, producers, users, the variables' nodes) and
/// the user lists it enumerated. Nodes are immutable and shared, so if
/// every one of those indices holds the same node, and every list the same
/// users, as when the root was last matched, the matches are the same. The
/// per-node results are cached by root index and checked by pointer and by
/// list; a root is matched again only when a rewrite changed something it
/// read. Other directions (a second op found by kind: disconnected sources)
/// are matched in full. The matches come out in the order of
/// `for (d) forEachMatch(g, index, d)` over the directions, so a search's
/// results do not change.
class IncrementalMatcher {
public:
  explicit IncrementalMatcher(llvm::ArrayRef<RuleDirection> directions);
  void forEachMatch(const WorkGraph &g, const GraphIndex &index,
                    llvm::function_ref<bool(const Match &)> f);
  /// Roots whose cached matches were reused / matched again.
  uint64_t rootsReused = 0, rootsMatched = 0;

private:
  struct Entry {
    std::vector<std::pair<uint32_t, const WNode *>> reads;
    std::vector<std::pair<uint32_t, UserList>> users;
    /// (direction, binding) in direction order, then the matcher's order;
    /// before the filters that read the whole graph (ops on weights only,
    /// cycles).
    std::vector<std::pair<unsigned, Match>> matches;
  };
  const Entry &entryFor(const WorkGraph &g, const GraphIndex &index,
                        uint32_t root);

  llvm::ArrayRef<RuleDirection> directions;
  std::vector<bool> tree;
  std::vector<std::vector<unsigned>> treeByKind;
  std::vector<llvm::SmallVector<Entry, 2>> cache;
  std::vector<std::vector<const Match *>> buckets;
};

/// The rewrite of `m` as a change of `g` (its new nodes are added to
/// `arena`), or nothing if the rewrite is refused for its types. The child
/// may still have a cycle (EditEvaluator::evaluate says).
std::optional<GraphEdit> planRewrite(const WorkGraph &g,
                                     const GraphIndex &index, const Match &m,
                                     NodeArena &arena);
/// The graph after rewriting `m`, finished, or nothing if the rewrite is
/// refused (its types, or a cycle).
std::optional<WorkGraph> applyMatch(const WorkGraph &g, const GraphIndex &index,
                                    const Match &m, NodeArena &arena);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_MATCHER_H
