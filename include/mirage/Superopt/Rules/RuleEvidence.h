//===- RuleEvidence.h - proving and checking rules --------------*- C++ -*-===//
//
// Two independent reasons to trust a rule, both recorded in its evidence:
//
//  - a proof from the operator axioms (docs/Axioms.md) by Z3: each output's
//    two terms are proved equal; a rule with scalars that is not proved
//    for all scalars is tried again assuming them positive (relu commutes
//    with a positive scale only), and then carries that constraint;
//  - a numerical check of its two functions at its generic sizes (distinct
//    per dimension symbol) by the equivalence verifier: the finite-field
//    test with its false-positive bound and the floating-point checks, or,
//    for rules with relu or max pooling (which the field test treats as
//    uninterpreted, so that relu(relu(x)) and relu(x) differ there), the
//    floating-point checks alone.
//
// The axioms are untyped, so a proof assumes what the rule's shapes say
// (a split cuts where the concat joined); the check tests the shapes.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_RULEEVIDENCE_H
#define MIRAGE_SUPEROPT_RULES_RULEEVIDENCE_H

#include "mirage/Superopt/Axioms/AxiomTerm.h"
#include "mirage/Superopt/Rules/RuleIR.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

namespace mirage::rules {

/// The terms of a side's outputs: variables x0, x1, ..., scalars c0, c1.
llvm::Expected<std::vector<superopt::Term>> sideTerms(const Rule &rule,
                                                      const PatternSide &side);

struct ProofOptions {
  /// Wall-clock safety limit per output, in milliseconds.
  unsigned timeoutMs = 4000;
  /// Z3's deterministic resource limit per output (0: none): what decides
  /// whether a proof is found, the same on every machine.
  unsigned resourceLimit = 300000;
};

/// Proves `rule` from the operator axioms and records the outcome.
void proveRule(Rule &rule, const ProofOptions &options);

struct CheckOptions {
  uint64_t seed = 0;
  /// Input scales of the floating-point checks (1, 4, ...).
  unsigned scales = 2;
};

/// Checks `rule` numerically at its generic sizes and records the outcome.
/// Diagnostics of the verifier are captured into the evidence's note.
void checkRule(Rule &rule, mlir::MLIRContext &ctx, const CheckOptions &options);

/// proveRule and checkRule over many rules on `threads` threads (0: the
/// hardware's), with a line on `progress` every so often. `shouldStop` is
/// asked between rules; rules not reached keep their evidence.
void proveRules(llvm::MutableArrayRef<Rule> rules, const ProofOptions &options,
                unsigned threads, llvm::raw_ostream *progress,
                const std::function<bool()> &shouldStop = {});
void checkRules(llvm::MutableArrayRef<Rule> rules, mlir::MLIRContext &ctx,
                const CheckOptions &options, unsigned threads,
                llvm::raw_ostream *progress,
                const std::function<bool()> &shouldStop = {});

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_RULEEVIDENCE_H
