//===- GraphSaturate.cpp - equality saturation of graph functions ---------===//
//
// For each graph function: read it into a work graph, make it an e-graph,
// saturate it with the rules (EqSat/Saturation.h), extract the cheapest
// graph (EqSat/Extraction.h), and replace the function only if that graph
// is cheaper and the equivalence verifier passes against the input.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Superopt/EqSat/EqSat.h"
#include "mirage/Superopt/Rules/GraphSearch.h"
#include "mirage/Superopt/Rules/RuleLibrary.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mirage/Superopt/Verification/VerifierPassOptions.h"
#include "mirage/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <cmath>

namespace mirage {
#define GEN_PASS_DEF_GRAPHSATURATE
#include "mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::rules;
using namespace mirage::eqsat;

/// The least e-node limit node-factor scales to: small programs (a few
/// ops) need room for a few iterations of the rules.
static constexpr uint64_t kMinScaledNodeLimit = 2000;

namespace {
struct GraphSaturatePass
    : public mirage::impl::GraphSaturateBase<GraphSaturatePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult validate(Location loc);
  void optimize(func::FuncOp func, llvm::ArrayRef<RuleDirection> directions,
                const superopt::GpuTarget &target);
};
} // namespace

LogicalResult GraphSaturatePass::validate(Location loc) {
  auto error = [&]() { return emitError(loc) << "graph-saturate: "; };
  if (nodeFactor < 1 || nodeFactor > 1000)
    return error() << "node-factor must be between 1 and 1000, got "
                   << nodeFactor.getValue();
  if (iterLimit < 1)
    return error() << "iter-limit must be at least 1 iteration, got "
                   << iterLimit.getValue();
  if (matchLimit < 1)
    return error() << "match-limit must be at least 1, got "
                   << matchLimit.getValue();
  if (!std::isfinite(timeLimit) || timeLimit < 0)
    return error() << "time-limit must be a number of seconds >= 0";
  if (extraction != "greedy" && extraction != "sharing" &&
      extraction != "ilp")
    return error() << "extraction must be greedy, sharing or ilp, got '"
                   << extraction.getValue() << "'";
  if (extractEvalLimit < 1)
    return error() << "extract-eval-limit must be at least 1, got "
                   << extractEvalLimit.getValue();
  if (!std::isfinite(ilpTimeLimit) || ilpTimeLimit < 0 || ilpTimeLimit > 4e6)
    return error() << "ilp-time-limit must be a number of seconds >= 0";
  if (weightsFrom < -1)
    return error() << "weights-from must be -1 or an argument index";
  return superopt::checkVerifierOptions(error, fieldBits, scales, verifyTimeLimit);
}

void GraphSaturatePass::runOnOperation() {
  ModuleOp module = getOperation();
  Location loc = module.getLoc();
  if (failed(validate(loc)))
    return signalPassFailure();
  llvm::Expected<superopt::GpuTarget> gpu =
      superopt::GpuTarget::get(this->target);
  if (!gpu) {
    emitError(loc) << "graph-saturate: " << llvm::toString(gpu.takeError());
    return signalPassFailure();
  }
  unsigned skipped = 0;
  FailureOr<std::vector<Rule>> rules = loadRules(
      getContext(), loc, this->rules, /*acceptedOnly=*/true, &skipped);
  if (failed(rules))
    return signalPassFailure();
  if (skipped)
    emitWarning(loc) << "graph-saturate: " << skipped
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
    optimize(func, directions, *gpu);
  }
  if (!found) {
    emitError(loc) << "graph-saturate: no function named '" << function << "'";
    signalPassFailure();
  }
}

void GraphSaturatePass::optimize(func::FuncOp func,
                                 llvm::ArrayRef<RuleDirection> directions,
                                 const superopt::GpuTarget &target) {
  using Clock = std::chrono::steady_clock;
  NodeArena arena(target, &getContext());
  auto isWeight = [&](unsigned i) {
    return (weightsFrom >= 0 && i >= static_cast<uint64_t>(weightsFrom)) ||
           func.getArgAttr(i, kWeightAttrName);
  };
  FailureOr<WorkGraph> start = WorkGraph::fromFunction(func, arena, isWeight);
  if (failed(start))
    return signalPassFailure();

  EGraph egraph(arena);
  std::vector<ClassId> roots = addWorkGraph(egraph, *start);
  SaturationOptions sat;
  // By default the e-graph may grow to a multiple of the input: a flat
  // limit stops large models (600-1,000 ops) after an iteration or two,
  // before the chains of rewrites that pay off, and lets small ones spend
  // the time on rules that only reorder.
  size_t inputNodes = egraph.numNodes();
  sat.nodeLimit = nodeLimit ? nodeLimit.getValue()
                            : std::max<uint64_t>(kMinScaledNodeLimit,
                                                 uint64_t(nodeFactor) *
                                                     inputNodes);
  sat.iterationLimit = iterLimit;
  sat.timeLimit = timeLimit;
  sat.matchLimit = matchLimit;
  sat.multiOutputIterationLimit = multiIterLimit;
  SaturationResult result = saturate(egraph, directions, sat);

  Clock::time_point t0 = Clock::now();
  std::vector<double> costs(egraph.numNodes());
  for (NodeId n = 0; n < egraph.numNodes(); ++n)
    costs[n] = egraph.foldedCost(n);
  std::optional<Extraction> picked;
  std::string method = extraction;
  auto extractBySharing = [&]() {
    SharingOptions options;
    options.maxEvaluations = extractEvalLimit;
    SharingStats st;
    std::optional<Extraction> x =
        extractSharing(egraph, roots, costs, options, &st);
    if (x)
      method += llvm::formatv(
          " ({0:f2} us greedy -> {1:f2} us by {2} switch(es), {3} bundle(s) "
          "of them, {4} evaluations{5})",
          st.greedyCost, x->cost, st.moves, st.bundles, st.evaluations,
          st.budgetReached ? ", stopped by extract-eval-limit" : "");
    return x;
  };
  if (extraction == "sharing")
    picked = extractBySharing();
  if (extraction == "ilp") {
    IlpOptions ilp;
    ilp.maxNodes = ilpNodeLimit;
    ilp.resourceLimit = ilpResourceLimit;
    ilp.timeoutMs = static_cast<unsigned>(std::llround(ilpTimeLimit * 1000));
    std::string why;
    picked = extractOptimal(egraph, roots, costs, ilp, why);
    if (!picked) {
      method = "sharing (fallback from ilp: " + why + ")";
      emitRemark(func.getLoc())
          << "graph-saturate @" << func.getSymName()
          << ": the ILP extraction gave no optimum (" << why
          << "); falling back to the sharing extraction";
      picked = extractBySharing();
    } else {
      method = "ilp (optimal)";
    }
  }
  if (!picked)
    picked = extractGreedy(egraph, roots, costs);
  double extractSeconds =
      std::chrono::duration<double>(Clock::now() - t0).count();
  std::string why;
  std::optional<WorkGraph> best;
  if (picked)
    best = buildWorkGraph(egraph, *start, roots, picked->choice, arena, why);
  else
    why = "no extraction reaches the outputs";
  if (!best) {
    func.emitError() << "graph-saturate: extraction failed: " << why;
    return signalPassFailure();
  }

  std::string stats = llvm::formatv(
      "e-graph: {0} e-nodes, {1} e-classes, {2} iteration(s), stopped: {3}{4}; "
      "limits: {12} e-nodes, {14} iterations{13}; "
      "{5} matches, {6} applied, {7} rule(s) used, {8} ban(s); extraction: "
      "{9}; saturation {10:f3} s, extraction {11:f3} s",
      egraph.numLiveNodes(), egraph.numClasses(), result.iterations,
      stringify(result.stop),
      result.stop == StopReason::TimeLimit
          ? " (a safety cut: the result depends on the machine)"
          : "",
      result.matches, result.applied, result.rulesApplied.size(), result.bans,
      method, result.seconds, extractSeconds, sat.nodeLimit,
      result.multiOutputLimited
          ? llvm::formatv(", rules with two outputs in the first {0} "
                          "iteration(s) only",
                          sat.multiOutputIterationLimit)
                .str()
          : std::string(),
      sat.iterationLimit);
  auto describe = [&](const WorkGraph &g) {
    return llvm::formatv("{0} ops, {1:f2} us", g.numLiveOps(), g.cost()).str();
  };
  double before = start->cost();
  if (!(best->cost() < before)) {
    emitRemark(func.getLoc()) << llvm::formatv(
        "graph-saturate @{0}: no cheaper graph extracted ({1} on {2}; "
        "extracted {3}); kept the input; {4}",
        func.getSymName(), describe(*start), target.name, describe(*best),
        stats);
    return;
  }

  superopt::VerifierOptions verify =
      superopt::graphVerifierOptions(fieldBits, seed, scales, verifyTimeLimit);
  // A rule checked in fp64 only (identities of relu or max pooling, which
  // the finite-field test treats as uninterpreted): if one was applied and
  // the field test tells the graphs apart, they are compared in floating
  // point only, as that rule was checked; the remark says so.
  bool floatOnlyRule = false;
  for (const RuleDirection &d : directions)
    if (d.rule->evidence.checkMethod == "fp64" &&
        result.rulesApplied.contains(d.rule->name))
      floatOnlyRule = true;
  verify.fieldTest = true;
  FailureOr<superopt::VerificationReport> report =
      commitIfVerified(func, *best, verify);
  bool floatOnly = false;
  if (succeeded(report) && !report->equivalent && floatOnlyRule) {
    verify.fieldTest = false;
    floatOnly = true;
    report = commitIfVerified(func, *best, verify);
  }
  if (failed(report))
    return signalPassFailure();
  if (!report->equivalent) {
    emitWarning(func.getLoc()) << llvm::formatv(
        "graph-saturate @{0}: kept the input ({1}): the extracted graph ({2}) "
        "failed verification: {3}; {4}",
        func.getSymName(), describe(*start), describe(*best),
        report->summary(), stats);
    return;
  }
  emitRemark(func.getLoc()) << llvm::formatv(
      "graph-saturate @{0}: {1} -> {2} on {3} ({4:f2}x; ops on weights only "
      "are folded before the run, as in TASO: {5:f2} us -> {6:f2} us with "
      "them); {7}; verified{8}: {9}",
      func.getSymName(), describe(*start), describe(*best), target.name,
      before / best->cost(), start->costWithWeightOps(),
      best->costWithWeightOps(), stats,
      floatOnly ? " in floating point only (a rule checked in fp64 only was "
                  "applied and the finite-field test tells the graphs apart)"
                : "",
      report->summary());
}
