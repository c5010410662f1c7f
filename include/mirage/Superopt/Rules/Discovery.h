//===- Discovery.h - TASO's substitution discovery, end to end --*- C++ -*-===//
//
// Enumerate (Enumeration.h), form and prune candidates (Candidates.h),
// generalize their shapes (Generalize.h), check each at generic sizes and
// prove each from the axioms (RuleEvidence.h). Every stage is counted and
// timed; the rules come out sorted (family, size, text) and named r0001,
// r0002, ..., so that one seed gives one file.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_DISCOVERY_H
#define MIRAGE_SUPEROPT_RULES_DISCOVERY_H

#include "mirage/Superopt/Rules/Candidates.h"
#include "mirage/Superopt/Rules/RuleEvidence.h"

namespace mirage::rules {

struct DiscoveryOptions {
  std::vector<std::string> menu = getDefaultMenuOps();
  unsigned maxOps = 3;
  unsigned maxInputs = 4;
  FingerprintSizes sizes;
  uint64_t seed = 1;
  unsigned threads = 0;
  /// Seconds; a wall-clock safety limit. Reaching it stops the discovery
  /// where it is, and the report says so.
  double timeBudget = 600;
  ProofOptions proof;
  CheckOptions check;
  llvm::raw_ostream *progress = nullptr;
};

struct DiscoveryReport {
  EnumerationStats enumeration;
  PruningStats pruning;
  uint64_t generalized = 0, notGeneralized = 0;
  /// Per candidate that did not generalize: the candidate and why.
  std::vector<std::string> notGeneralizedNotes;
  /// Candidates that generalized to a rule already kept.
  uint64_t duplicates = 0;
  uint64_t checkedOk = 0, checkFailed = 0;
  uint64_t proved = 0, notProved = 0;
  /// Accepted: proved and checked.
  uint64_t accepted = 0;
  bool timeBudgetReached = false;
  std::string timeBudgetStage;
  double enumerateSeconds = 0, pruneSeconds = 0, generalizeSeconds = 0,
         checkSeconds = 0, proveSeconds = 0;
  /// Every rule after pruning and generalization, with its evidence,
  /// sorted and named.
  std::vector<Rule> rules;
};

/// Runs the discovery. Fails on a bad menu or sizes.
llvm::Expected<DiscoveryReport> discoverRules(const DiscoveryOptions &options,
                                              mlir::MLIRContext &ctx);

/// Whether a rule may be used: proved, and its check passed.
inline bool isAccepted(const Rule &rule) {
  return rule.evidence.proof == ProofStatus::Proved &&
         rule.evidence.checked && rule.evidence.checkPassed;
}

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_DISCOVERY_H
