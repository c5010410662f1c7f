//===- Candidates.h - candidate substitutions and their pruning -*- C++ -*-===//
//
// Graphs with the same fingerprint key compute the same tensors (with a
// small probability of error, which the proofs and the check at generic
// sizes remove). Each group gives candidates: its least graph (fewest ops,
// then canonical order) paired with each other member, their outputs
// matched by fingerprint. Then TASO's pruning, each step counted:
//
//  1. renaming: a candidate equal to another up to a renaming of its
//     variables (within their kinds) is dropped;
//  2. common subgraph: a candidate whose two sides apply the same op to
//     the same variables is dropped if it still holds with that op's
//     result replaced by any tensor: the rule with a fresh variable there
//     is smaller and more general (relu(relu(x)) = relu(x) shares relu(x)
//     but does not hold for relu(x) replaced: it stays);
//  3. common context: a candidate whose every output is computed on both
//     sides by the same op from operands that are equal (same fingerprint)
//     is dropped: it is smaller rules applied inside that op;
//  4. irrelevant subterm: a candidate with an op whose result can be
//     replaced by any tensor without changing the outputs ((x + t) - t) is
//     dropped: the rule with a variable in its place is more general;
//  5. conjunctions: a candidate with several outputs and no split on
//     either side is dropped: it is one rule per output, each smaller
//     (several outputs are needed where a split shares one op's result
//     between them: merging two matmuls that read the same input).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_CANDIDATES_H
#define MIRAGE_SUPEROPT_RULES_CANDIDATES_H

#include <functional>

#include "mirage/Superopt/Rules/Enumeration.h"
#include "mirage/Superopt/Rules/Fingerprint.h"

namespace mirage::rules {

/// The values of every variable of the menu, by code (as the enumeration
/// draws them from `eval`'s seed).
std::vector<TinyTensor> makeVariableValues(const Menu &menu,
                                           const FingerprintEvaluator &eval);

/// Evaluates an enumerated graph: `results[i]` holds op i's results.
bool evaluateGraph(const Menu &menu, const FingerprintEvaluator &eval,
                   llvm::ArrayRef<TinyTensor> variables, const EnumGraph &graph,
                   std::vector<llvm::SmallVector<TinyTensor, 2>> &results);

struct Candidate {
  EnumGraph lhs, rhs;
  /// rhs output matched to each lhs output.
  llvm::SmallVector<uint8_t, 4> rhsOutput;
};

struct PruningStats {
  uint64_t candidates = 0;
  uint64_t afterRenaming = 0;
  uint64_t afterCommonSubgraph = 0;
  uint64_t afterCommonContext = 0;
  uint64_t afterIrrelevantSubterm = 0;
  uint64_t afterConjunctions = 0;
  /// The pruning was cut short by its stop callback.
  bool stopped = false;
};

/// Candidates of `graphs` (grouped by key, as enumerateGraphs returns
/// them), pruned. Deterministic: the order follows the groups.
/// `shouldStop`, asked every 1024 candidates, cuts the pruning short (the
/// candidates not yet looked at are dropped; `stats.stopped` says so).
std::vector<Candidate> formCandidates(const Menu &menu,
                                      const FingerprintEvaluator &eval,
                                      llvm::ArrayRef<EnumGraph> graphs,
                                      PruningStats &stats,
                                      std::function<bool()> shouldStop = {});

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_CANDIDATES_H
