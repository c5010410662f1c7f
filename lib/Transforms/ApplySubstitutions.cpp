//===- ApplySubstitutions.cpp - apply named rules, greedily ---------------===//
//
// The direct use of a rule file: apply the named rules wherever they match,
// first match first, and verify the result against the input before it is
// kept. The lit tests of each rule family go through here.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Superopt/Rules/GraphSearch.h"
#include "mirage/Superopt/Rules/RuleLibrary.h"
#include "mirage/Superopt/Rules/Rules.h"
#include "mirage/Transforms/Passes.h"

#include "mirage/Target/KnownTargets.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace mirage {
#define GEN_PASS_DEF_APPLYSUBSTITUTIONS
#include "mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::rules;

namespace {
struct ApplySubstitutionsPass
    : public mirage::impl::ApplySubstitutionsBase<ApplySubstitutionsPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void ApplySubstitutionsPass::runOnOperation() {
  ModuleOp module = getOperation();
  Location loc = module.getLoc();
  auto error = [&]() { return emitError(loc) << "apply-substitutions: "; };
  if (direction != "forward" && direction != "reverse" && direction != "both") {
    error() << "direction must be forward, reverse or both, got '"
            << direction << "'";
    return signalPassFailure();
  }
  if (maxSteps < 1 || maxSteps > 100000) {
    error() << "max-steps must be between 1 and 100000, got " << maxSteps.getValue();
    return signalPassFailure();
  }
  FailureOr<std::vector<Rule>> loaded =
      loadRules(getContext(), loc, rules, /*acceptedOnly=*/names.empty());
  if (failed(loaded))
    return signalPassFailure();
  std::vector<Rule> selected;
  for (const std::string &n : names) {
    auto it = llvm::find_if(*loaded, [&](const Rule &r) { return r.name == n; });
    if (it == loaded->end()) {
      error() << "the rule file has no rule named '" << n << "'";
      return signalPassFailure();
    }
    if (!isAccepted(*it)) {
      error() << "rule " << n << " is not proved and checked; it is not "
                                 "applied";
      return signalPassFailure();
    }
    selected.push_back(*it);
  }
  if (names.empty())
    selected = std::move(*loaded);
  // Forward directions only when forward; reversed ones only when reverse.
  std::vector<RuleDirection> directions;
  for (RuleDirection &d : prepareDirections(selected, direction != "forward"))
    if (direction == "both" || d.forward == (direction == "forward"))
      directions.push_back(std::move(d));
  if (directions.empty()) {
    error() << "no selected rule can be applied in the direction asked";
    return signalPassFailure();
  }

  // The pass has no target option: it costs for the default target.
  llvm::Expected<superopt::GpuTarget> target =
      superopt::GpuTarget::get(mirage::target::kDefaultTarget);
  if (!target) {
    error() << llvm::toString(target.takeError());
    return signalPassFailure();
  }
  bool failedAny = false;
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    if (func.isExternal() || isRuleOrEquivalencePair(func))
      continue;
    NodeArena arena(*target, &getContext());
    FailureOr<WorkGraph> start =
        WorkGraph::fromFunction(func, arena, [](unsigned) { return false; });
    if (failed(start)) {
      failedAny = true;
      continue;
    }
    WorkGraph g = *start;
    std::vector<std::string> applied;
    // A rule checked in fp64 only (an identity of relu or max pooling,
    // which the finite-field test treats as uninterpreted functions): the
    // field test may not see the rewrite; if the field test tells the
    // result apart, it is checked in floating point only, as the rule was.
    bool floatOnly = false;
    llvm::SmallVector<std::string, 2> floatOnlyUsed;
    for (unsigned step = 0; step < maxSteps; ++step) {
      GraphIndex index(g);
      std::optional<WorkGraph> next;
      for (const RuleDirection &d : directions) {
        forEachMatch(g, index, d, [&](const Match &m) {
          std::optional<WorkGraph> r = applyMatch(g, index, m, arena);
          if (!r || r->hash() == g.hash())
            return true;
          next = std::move(r);
          applied.push_back(d.label());
          if (d.rule->evidence.checkMethod == "fp64") {
            floatOnly = true;
            if (!llvm::is_contained(floatOnlyUsed, d.rule->name))
              floatOnlyUsed.push_back(d.rule->name);
          }
          return false;
        });
        if (next)
          break;
      }
      if (!next)
        break;
      g = std::move(*next);
    }
    if (applied.empty()) {
      emitRemark(func.getLoc())
          << "apply-substitutions @" << func.getSymName()
          << ": no rule applies";
      continue;
    }
    superopt::VerifierOptions verify;
    FailureOr<superopt::VerificationReport> report =
        commitIfVerified(func, g, verify);
    if (succeeded(report) && !report->equivalent && floatOnly) {
      verify.fieldTest = false;
      verify.fieldTestOffReason =
          llvm::formatv("the rewrite uses rule(s) {0} checked in fp64 only: "
                        "an identity of relu or max pooling, such as "
                        "relu(relu(x)) = relu(x), which the field test "
                        "cannot see",
                        llvm::join(floatOnlyUsed, ", "))
              .str();
      report = commitIfVerified(func, g, verify);
    }
    if (failed(report)) {
      failedAny = true;
      continue;
    }
    if (!report->equivalent) {
      emitError(func.getLoc())
          << "apply-substitutions @" << func.getSymName()
          << ": the rewritten function failed verification, kept the "
             "original: "
          << report->summary();
      failedAny = true;
      continue;
    }
    emitRemark(func.getLoc())
        << "apply-substitutions @" << func.getSymName() << ": "
        << applied.size() << " rewrite(s): " << llvm::join(applied, ", ")
        << "; " << start->numLiveOps() << " ops -> " << g.numLiveOps()
        << " ops; verified: " << report->summary();
  }
  if (failedAny)
    signalPassFailure();
}
