//===- CheckSubstitutions.cpp - re-derive a rule file's evidence ----------===//
//
// A rule file says of each rule that it was proved and checked; this pass
// does not take its word: it checks every rule numerically and proves it
// again, and reports each rule that fails at its function.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Rules/Rules.h"
#include "mirage/Reports/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace mirage {
#define GEN_PASS_DEF_CHECKSUBSTITUTIONS
#include "mirage/Reports/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::rules;

namespace {
struct CheckSubstitutionsPass
    : public mirage::impl::CheckSubstitutionsBase<CheckSubstitutionsPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void CheckSubstitutionsPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (proofLimit == 0 || proofTimeout == 0) {
    emitError(module.getLoc())
        << "check-substitutions: proof-limit and proof-timeout must be "
           "positive";
    return signalPassFailure();
  }
  FailureOr<std::vector<Rule>> read = readRules(module);
  if (failed(read))
    return signalPassFailure();
  llvm::StringSet<> wanted;
  for (const std::string &n : names)
    wanted.insert(n);
  std::vector<Rule> rules;
  for (Rule &r : *read)
    if (wanted.empty() || wanted.contains(r.name))
      rules.push_back(std::move(r));
  for (const std::string &n : names)
    if (llvm::none_of(rules, [&](const Rule &r) { return r.name == n; })) {
      emitError(module.getLoc())
          << "check-substitutions: no rule named '" << n << "'";
      return signalPassFailure();
    }
  if (rules.empty()) {
    emitError(module.getLoc()) << "check-substitutions: the module has no "
                                  "rule (functions with 'mirage.rule')";
    return signalPassFailure();
  }
  for (Rule &r : rules)
    r.evidence = RuleEvidence();
  CheckOptions check;
  check.seed = seed;
  checkRules(rules, getContext(), check, threads, nullptr);
  ProofOptions proof;
  proof.resourceLimit = proofLimit;
  proof.timeoutMs = proofTimeout;
  proveRules(rules, proof, threads, nullptr);

  unsigned wrong = 0;
  for (const Rule &r : rules) {
    auto fn = module.lookupSymbol<func::FuncOp>(r.name + "_lhs");
    Location loc = fn ? fn.getLoc() : module.getLoc();
    if (isAccepted(r)) {
      emitRemark(loc) << "rule " << r.name << " holds: proved from "
                      << llvm::join(r.evidence.axioms, ", ")
                      << (r.evidence.assumesPositiveScalars
                              ? " (scalars positive)"
                              : "")
                      << "; " << r.evidence.checkMethod << " check, "
                      << r.evidence.checkTests << " tests";
      continue;
    }
    ++wrong;
    InFlightDiagnostic d = emitError(loc)
                           << "rule " << r.name << " is rejected: "
                           << describeSide(r, r.lhs) << " = "
                           << describeSide(r, r.rhs) << ": ";
    if (r.evidence.checkPassed)
      d << "its numerical check passes";
    else
      d << "its sides differ numerically at the sizes written ("
        << (r.evidence.checkNote.empty() ? "no note" : r.evidence.checkNote)
        << ")";
    d << "; ";
    if (r.evidence.proof == ProofStatus::Proved)
      d << "it is proved from the axioms";
    else
      d << "it is not proved from the axioms ("
        << (r.evidence.proofNote.empty() ? stringify(r.evidence.proof).str()
                                         : r.evidence.proofNote)
        << ")";
  }
  if (wrong)
    return signalPassFailure();
}
