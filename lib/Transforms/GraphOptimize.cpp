//===- GraphOptimize.cpp - TASO's cost-based graph search as a pass -------===//
//
// For each graph function: read it into a work graph, search the rules'
// rewrites for the cheapest graph (GraphSearch.h), verify the cheapest few
// against the input in order and keep the first that passes. Nothing
// unverified replaces a function.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Superopt/Rules/GraphSearch.h"
#include "mirage/Superopt/Rules/RuleLibrary.h"
#include "mirage/Superopt/Rules/Rules.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mirage/Superopt/Verification/VerifierPassOptions.h"
#include "mirage/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Remarks.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

namespace mirage {
#define GEN_PASS_DEF_GRAPHOPTIMIZE
#include "mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::rules;

namespace {
struct GraphOptimizePass
    : public mirage::impl::GraphOptimizeBase<GraphOptimizePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult validate(Location loc);
  void optimize(func::FuncOp func, llvm::ArrayRef<RuleDirection> directions,
                const superopt::GpuTarget &target, unsigned rulesUsed);
};
} // namespace

LogicalResult GraphOptimizePass::validate(Location loc) {
  auto error = [&]() { return emitError(loc) << "graph-optimize: "; };
  if (!std::isfinite(alpha) || alpha < 1 || alpha > 10)
    return error() << "alpha must be between 1 and 10, got "
                   << llvm::formatv("{0}", alpha.getValue()).str();
  if (budget < 1)
    return error() << "budget must be at least 1 graph, got " << budget.getValue();
  if (maxQueue < 1)
    return error() << "max-queue must be at least 1, got " << maxQueue.getValue();
  if (!std::isfinite(timeLimit) || timeLimit < 0)
    return error() << "time-limit must be a number of seconds >= 0";
  if (weightsFrom < -1)
    return error() << "weights-from must be -1 or an argument index";
  return superopt::checkVerifierOptions(error, fieldBits, scales, verifyTimeLimit);
}

void GraphOptimizePass::runOnOperation() {
  ModuleOp module = getOperation();
  Location loc = module.getLoc();
  if (failed(validate(loc)))
    return signalPassFailure();
  llvm::Expected<superopt::GpuTarget> gpu =
      superopt::GpuTarget::get(this->target, calibration);
  if (!gpu) {
    emitError(loc) << "graph-optimize: " << llvm::toString(gpu.takeError());
    return signalPassFailure();
  }
  unsigned skipped = 0;
  FailureOr<std::vector<Rule>> rules =
      loadRules(getContext(), loc, this->rules, /*acceptedOnly=*/true,
                &skipped);
  if (failed(rules))
    return signalPassFailure();
  if (skipped)
    emitWarning(loc) << "graph-optimize: " << skipped
                     << " rule(s) of the rule file are not proved and "
                        "checked; they are not used";
  std::vector<RuleDirection> directions = prepareDirections(*rules, reverse);
  bool found = function.empty();
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    if (func.isExternal() || isRuleOrEquivalencePair(func))
      continue;
    if (!function.empty() && func.getSymName() != function)
      continue;
    found = true;
    setSearchedTarget(func, gpu->name);
    optimize(func, directions, *gpu, rules->size());
  }
  if (!found) {
    emitError(loc) << "graph-optimize: no function named '" << function
                   << "'";
    signalPassFailure();
  }
}

void GraphOptimizePass::optimize(func::FuncOp func,
                                 llvm::ArrayRef<RuleDirection> directions,
                                 const superopt::GpuTarget &target,
                                 unsigned rulesUsed) {
  NodeArena arena(target, &getContext());
  auto isWeight = [&](unsigned i) {
    return (weightsFrom >= 0 && i >= static_cast<uint64_t>(weightsFrom)) ||
           func.getArgAttr(i, kWeightAttrName);
  };
  FailureOr<WorkGraph> start = WorkGraph::fromFunction(func, arena, isWeight);
  if (failed(start))
    return signalPassFailure();
  GraphSearchOptions options;
  options.alpha = alpha;
  options.budget = budget;
  options.maxQueue = maxQueue;
  options.timeLimit = timeLimit;
  if (progress) {
    options.progress = &llvm::errs();
    options.progressPrefix = ("graph-optimize @" + func.getSymName() + ": ").str();
  }
  options.checkIncremental = checkIncremental;
  GraphSearchResult result = searchGraphs(*start, directions, arena, options);
  if (result.incrementalMismatches) {
    func.emitError() << "graph-optimize @" << func.getSymName()
                     << ": the incremental matching or costing differed "
                        "from the full computation in "
                     << result.incrementalMismatches << " graphs or children ("
                     << result.visited << " graphs visited)";
    return signalPassFailure();
  }

  std::string search = llvm::formatv(
      "search: {0} graphs visited, {1} generated ({9} queued, {13} built, "
      "{10} taken again: reached by another rewrite order{11}), {2} "
      "matches of {3} "
      "rules ({4} directions; {7} roots matched, {8} reused), {5:f3} s; "
      "{12:f3} s of CPU{6}",
      result.visited, result.generated, result.matches, rulesUsed,
      directions.size(), result.seconds,
      result.budgetReached
          ? llvm::formatv("; the budget of {0} graphs was reached", budget)
                .str()
          : result.timeLimitReached
                ? llvm::formatv("; the time limit of {0} s was reached (a "
                                "safety cut: the result depends on the "
                                "machine)",
                                timeLimit)
                      .str()
                : std::string("; the search space was exhausted"),
      result.rootsMatched, result.rootsReused, result.queued,
      result.duplicates,
      result.dropped
          ? llvm::formatv("; {0} dropped from the full queue", result.dropped)
                .str()
          : std::string(),
      result.cpuSeconds, result.built);
  double before = start->cost();
  auto describe = [&](const WorkGraph &g) {
    return llvm::formatv("{0} ops, {1:f2} us", g.numLiveOps(), g.cost()).str();
  };

  superopt::VerifierOptions verify =
      superopt::graphVerifierOptions(fieldBits, seed, scales, verifyTimeLimit);
  llvm::StringSet<> floatOnlyRules;
  for (const RuleDirection &d : directions)
    if (d.rule->evidence.checkMethod == "fp64")
      floatOnlyRules.insert(d.rule->name);
  std::vector<std::string> rejected;
  for (const GraphSearchResult::Found &f : result.best) {
    // Cheaper by more than the rounding of a sum of per-op estimates (a
    // rewrite that splits an op's cost between two ops can come out a few
    // 1e-9 us cheaper): only a real gain is worth a verification.
    if (!(f.graph.cost() < before * (1 - 1e-9)))
      break;
    // A rule checked in fp64 only (an identity of relu or max pooling,
    // which the finite-field test treats as uninterpreted functions): the
    // field test may not see the rewrite; if it tells the graph apart, the
    // graph is checked in floating point only, as the rule was.
    llvm::SmallVector<std::string, 2> floatOnlyUsed;
    for (const std::string &a : f.applied) {
      llvm::StringRef name = llvm::StringRef(a).split(' ').first;
      if (floatOnlyRules.contains(name) &&
          !llvm::is_contained(floatOnlyUsed, name.str()))
        floatOnlyUsed.push_back(name.str());
    }
    bool floatOnly = !floatOnlyUsed.empty();
    verify.fieldTest = true;
    verify.fieldTestOffReason =
        llvm::formatv("the rewrite uses rule(s) {0} checked in fp64 only: an "
                      "identity of relu or max pooling, such as relu(relu(x)) "
                      "= relu(x), which the field test cannot see",
                      llvm::join(floatOnlyUsed, ", "))
            .str();
    FailureOr<superopt::VerificationReport> report =
        commitIfVerified(func, f.graph, verify);
    if (succeeded(report) && !report->equivalent && floatOnly) {
      verify.fieldTest = false;
      report = commitIfVerified(func, f.graph, verify);
    }
    if (failed(report))
      return signalPassFailure();
    if (!report->equivalent) {
      rejected.push_back(llvm::formatv("{0} ({1})", describe(f.graph),
                                       report->summary())
                             .str());
      continue;
    }
    emitRemark(func.getLoc()) << llvm::formatv(
        "graph-optimize @{0}: {1} -> {2} on {3} ({4:f2}x; ops on weights "
        "only are folded before the run, as in TASO: {5:f2} us -> {6:f2} us "
        "with them); {7} rewrite(s): {8}; {9}{10}; verified: {11}",
        func.getSymName(), describe(*start), describe(f.graph), target.name,
        before / f.graph.cost(), start->costWithWeightOps(),
        f.graph.costWithWeightOps(), f.applied.size(),
        llvm::join(f.applied, ", "), search,
        rejected.empty()
            ? std::string()
            : llvm::formatv("; {0} cheaper graph(s) failed verification: {1}",
                            rejected.size(), llvm::join(rejected, "; "))
                  .str(),
        report->summary());
    return;
  }
  if (!rejected.empty()) {
    emitWarning(func.getLoc()) << llvm::formatv(
        "graph-optimize @{0}: kept the input ({1}): every cheaper graph "
        "failed verification: {2}; {3}",
        func.getSymName(), describe(*start), llvm::join(rejected, "; "),
        search);
    return;
  }
  emitRemark(func.getLoc()) << llvm::formatv(
      "graph-optimize @{0}: no cheaper graph found ({1} on {2}); {3}",
      func.getSymName(), describe(*start), target.name, search);
}
