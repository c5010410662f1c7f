//===- JointOptimize.cpp - graph rewrites ranked by the µGraph search -----===//
//
// For each graph function: the rules' best-first search (GraphSearch.h)
// ranks graphs by their µGraph cost (Joint.h), costed without verifying;
// the cheapest graphs by predefined-kernel cost are costed too. Among the
// graphs the cheapest one does not beat by more than `min-gain`, the one
// with the fewest rewrites is chosen (joint::chooseContender): a near tie
// keeps the input. Costs are lower bounds until the µGraphs are verified:
// the cheapest and the chosen graph are costed again, verified, until
// verified costs settle the choice (a graph whose verified cost could not
// change it stays unverified). The graph chosen is verified against the
// input (unless it is the input as written), its segments' µGraphs were
// verified against their ops by their searches, as --superoptimize
// verifies; only then does it replace the function: nothing unverified
// is emitted.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Dialect/Block/BlockDialect.h"
#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Thread/ThreadDialect.h"
#include "mirage/Superopt/Joint/Joint.h"
#include "mirage/Superopt/Rules/GraphSearch.h"
#include "mirage/Superopt/Rules/RuleLibrary.h"
#include "mirage/Superopt/Rules/Rules.h"
#include "mirage/Superopt/Search/SearchDriver.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mirage/Superopt/Verification/VerifierPassOptions.h"
#include "mirage/Conversion/GraphToKernel/GraphToKernel.h"
#include "mirage/Transforms/FuseThreadChains.h"
#include "mirage/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <limits>

namespace mirage {
#define GEN_PASS_DEF_JOINTOPTIMIZE
#include "mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::rules;

namespace {
struct JointOptimizePass
    : public mirage::impl::JointOptimizeBase<JointOptimizePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  class FunctionRun;
  LogicalResult validate(Location loc);
};

/// A graph to choose from, with its costs.
struct Candidate {
  WorkGraph graph;
  std::vector<std::string> applied;
  joint::JointCost cost;
  /// Whether `cost` is of verified µGraphs (else a lower bound of it).
  bool verified = false;
};
} // namespace

/// Runs `f` with the context's error diagnostics kept from the user, the
/// first one's text in `problem` (when it is still empty).
template <typename F>
static auto withErrorsCaptured(MLIRContext *ctx, std::string &problem, F f) {
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && problem.empty())
      problem = d.str();
    return success();
  });
  return f();
}

/// One function's joint search, in the steps the file comment names: the
/// input costed and verified, the graphs of both rule searches ranked by
/// µGraph cost, the choice verified (chooseVerified, checkGraph), and the
/// result emitted with its remark.
class JointOptimizePass::FunctionRun {
public:
  FunctionRun(JointOptimizePass &pass, func::FuncOp func,
              llvm::ArrayRef<RuleDirection> directions,
              const superopt::GpuTarget &target,
              llvm::ThreadPoolInterface *pool);
  LogicalResult run();

private:
  std::optional<joint::JointCost> costOf(const WorkGraph &g);
  void consider(const WorkGraph &g, std::vector<std::string> applied);
  std::optional<size_t> chooseVerified();
  FailureOr<std::optional<superopt::VerificationReport>>
  checkGraph(const Candidate &c);
  std::string graphSearchText(const GraphSearchResult &r) const;
  std::string searchText() const;
  std::string declinedText(const Candidate &chosen) const;
  LogicalResult emit(const Candidate &chosen,
                     const std::optional<superopt::VerificationReport> &report);

  JointOptimizePass &pass;
  func::FuncOp func;
  llvm::ArrayRef<RuleDirection> directions;
  const superopt::GpuTarget &target;
  NodeArena arena;
  joint::CosterOptions costerOptions;
  std::unique_ptr<joint::MuGraphCoster> coster;
  /// Kernels thread fusion left unfused, over every search.
  unsigned unfused = 0;

  std::optional<WorkGraph> start;
  joint::JointCost startVerified;
  GraphSearchResult graphOnly, jointResult;
  /// The graphs to choose from, each once.
  std::vector<Candidate> ranked;
  llvm::DenseSet<uint64_t> rankedHashes;
  uint64_t prefiltered = 0, unsearchable = 0, notVerified = 0;
  unsigned verifiedCandidates = 0;
  std::string firstProblem;
  /// Cheaper results that failed their check against the input.
  std::vector<std::string> rejected;
  superopt::VerifierOptions verify;
  llvm::StringSet<> floatOnlyRules;
};

LogicalResult JointOptimizePass::validate(Location loc) {
  auto error = [&]() { return emitError(loc) << "joint-optimize: "; };
  auto inRange = [&](StringRef name, uint64_t value, uint64_t lo,
                     uint64_t hi) -> LogicalResult {
    if (value >= lo && value <= hi)
      return success();
    return error() << name << " must be between " << lo << " and " << hi
                   << ", got " << value;
  };
  auto seconds = [&](StringRef name, double value, bool zeroOk) {
    if (std::isfinite(value) && (zeroOk ? value >= 0 : value > 0))
      return success();
    return LogicalResult(error() << name << " must be a number of seconds "
                                 << (zeroOk ? ">= 0" : "> 0"));
  };
  if (!std::isfinite(alpha) || alpha < 1 || alpha > 10)
    return error() << "alpha must be between 1 and 10, got "
                   << llvm::formatv("{0}", alpha.getValue()).str();
  if (!std::isfinite(prefilter) || prefilter < 1 || prefilter > 100)
    return error() << "prefilter must be between 1 and 100, got "
                   << llvm::formatv("{0}", prefilter.getValue()).str();
  // Below 1: a lower bound outside a near-tie class keeps its verified
  // cost outside it (chooseContender).
  if (!std::isfinite(minGain) || minGain < 0 || minGain >= 1)
    return error() << "min-gain must be at least 0 and below 1 (a "
                      "fraction of the cost), got "
                   << llvm::formatv("{0}",
                                    llvm::format("%g", minGain.getValue()))
                          .str();
  if (failed(inRange("budget", budget, 1, UINT64_MAX)) ||
      failed(inRange("max-queue", maxQueue, 1, UINT64_MAX)) ||
      failed(inRange("candidates", candidates, 1, 64)) ||
      failed(inRange("mugraph-searches", mugraphSearches, 1, UINT64_MAX)) ||
      failed(inRange("state-budget", stateBudget, 1, UINT64_MAX)) ||
      failed(inRange("memory-budget", memoryBudget, 1, uint64_t(1) << 20)) ||
      failed(inRange("kernel-ops", kernelOps, 1, 64)) ||
      failed(inRange("block-ops", blockOps, 3, 32)) ||
      failed(inRange("grid-dims", gridDims, 1, 3)) ||
      failed(inRange("kernel-outputs", kernelOutputs, 1, 8)) ||
      failed(inRange("max-subprogram-ops", maxSubprogramOps, 1, 20)) ||
      failed(inRange("threads", threads, 0, 1024)) ||
      failed(seconds("time-limit", timeLimit, true)) ||
      failed(seconds("time-budget", timeBudget, false)))
    return failure();
  if (weightsFrom < -1)
    return error() << "weights-from must be -1 or an argument index";
  return superopt::checkVerifierOptions(error, fieldBits, scales, verifyTimeLimit);
}

void JointOptimizePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  Location loc = module.getLoc();
  if (failed(validate(loc)))
    return signalPassFailure();
  llvm::Expected<superopt::GpuTarget> gpu =
      superopt::GpuTarget::get(this->target, calibration);
  if (!gpu) {
    emitError(loc) << "joint-optimize: " << llvm::toString(gpu.takeError());
    return signalPassFailure();
  }
  unsigned skipped = 0;
  FailureOr<std::vector<Rule>> rules =
      loadRules(getContext(), loc, this->rules, /*acceptedOnly=*/true, &skipped);
  if (failed(rules))
    return signalPassFailure();
  if (skipped)
    emitWarning(loc) << "joint-optimize: " << skipped
                     << " rule(s) of the rule file are not proved and "
                        "checked; they are not used";
  std::vector<RuleDirection> directions = prepareDirections(*rules, reverse);

  // The µGraph search threads, as --superoptimize picks them; the result
  // does not depend on them.
  superopt::SearchThreads searchThreads(ctx, threads);
  llvm::ThreadPoolInterface *pool = searchThreads.pool();

  bool found = function.empty();
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal() || isRuleOrEquivalencePair(func))
      continue;
    if (!function.empty() && func.getSymName() != function)
      continue;
    found = true;
    setSearchedTarget(func, gpu->name);
    if (failed(FunctionRun(*this, func, directions, *gpu, pool).run()))
      return signalPassFailure();
  }
  if (!found) {
    emitError(loc) << "joint-optimize: no function named '" << function
                   << "'";
    signalPassFailure();
  }
}

JointOptimizePass::FunctionRun::FunctionRun(
    JointOptimizePass &pass, func::FuncOp func,
    llvm::ArrayRef<RuleDirection> directions,
    const superopt::GpuTarget &target, llvm::ThreadPoolInterface *pool)
    : pass(pass), func(func), directions(directions), target(target),
      arena(target, func.getContext()) {
  costerOptions.search = superopt::toSearchOptions(
      {pass.kernelOps, pass.blockOps, pass.gridDims, pass.kernelOutputs,
       pass.stateBudget, pass.memoryBudget, pass.timeBudget, pass.fieldBits,
       pass.seed},
      pool);
  if (pass.threadFusion)
    costerOptions.search.finalize = [this](func::FuncOp f) {
      return fuseThreadChainsWithinTarget(f, this->target, unfused);
    };
  costerOptions.maxSegmentOps = pass.maxSubprogramOps;
  costerOptions.maxSearches = pass.mugraphSearches;
  costerOptions.toDefaultSchedule = [](func::FuncOp f) {
    return convertToDefaultSchedule(f);
  };
  costerOptions.progress = pass.progress ? &llvm::errs() : nullptr;
  // The time limit's clock starts at each check (checkGraph), not here.
  verify = superopt::graphVerifierOptions(pass.fieldBits, pass.seed,
                                          pass.scales, /*verifyTimeLimit=*/0);
  for (const RuleDirection &d : directions)
    if (d.rule->evidence.checkMethod == "fp64")
      floatOnlyRules.insert(d.rule->name);
}

LogicalResult JointOptimizePass::FunctionRun::run() {
  auto isWeight = [&](unsigned i) {
    return (pass.weightsFrom >= 0 &&
            i >= static_cast<uint64_t>(pass.weightsFrom)) ||
           func.getArgAttr(i, kWeightAttrName);
  };
  FailureOr<WorkGraph> read = WorkGraph::fromFunction(func, arena, isWeight);
  if (failed(read))
    return failure();
  start = std::move(*read);
  // The input in its own order, as --superoptimize cuts it, unless reading
  // it merged common subexpressions or dropped dead ops: then the graph
  // as written, so that every figure is of the same graph.
  if (start->numLiveOps() ==
      func.getBody().front().getOperations().size() - 1)
    costerOptions.prototypeHash = start->hash();
  coster = std::make_unique<joint::MuGraphCoster>(func, target, costerOptions);

  // µGraph-only: the input graph, segment by segment, verified as
  // --superoptimize would emit it (its segments are searched verifying at
  // once: it is the fallback, and the figure the joint result is compared
  // with). Its failure is the pass's (the diagnostic says why).
  FailureOr<std::optional<joint::JointCost>> startCost = coster->verify(*start);
  if (failed(startCost))
    return failure();
  if (!*startCost)
    return func.emitError("joint-optimize: the input needs more µGraph "
                          "searches than mugraph-searches allows");
  startVerified = **startCost;

  // Graph-only: the rules' search by predefined kernels, as
  // --graph-optimize runs it.
  GraphSearchOptions graphOptions;
  graphOptions.alpha = pass.alpha;
  graphOptions.budget = pass.budget;
  graphOptions.maxQueue = pass.maxQueue;
  graphOptions.timeLimit = pass.timeLimit;
  graphOptions.keep = pass.candidates;
  graphOnly = searchGraphs(*start, directions, arena, graphOptions);
  consider(*start, {});
  for (const GraphSearchResult::Found &f : graphOnly.best)
    consider(f.graph, f.applied);

  // Joint: the same search ranked by µGraph cost.
  GraphSearchOptions jointOptions = graphOptions;
  if (pass.progress) {
    jointOptions.progress = &llvm::errs();
    jointOptions.progressPrefix =
        ("joint-optimize @" + func.getSymName() + ": ").str();
  }
  jointOptions.cost = [&](const WorkGraph &g) {
    if (g.hash() == start->hash())
      return startVerified.timeUs;
    std::optional<joint::JointCost> c = costOf(g);
    return c ? c->timeUs : std::numeric_limits<double>::infinity();
  };
  jointResult = searchGraphs(*start, directions, arena, jointOptions);
  for (const GraphSearchResult::Found &f : jointResult.best)
    consider(f.graph, f.applied);

  // The chosen graph, checked; if it fails, it is dropped and the choice
  // made again (the input is among the graphs: nothing unverified is
  // emitted).
  while (std::optional<size_t> at = chooseVerified()) {
    const Candidate &c = ranked[*at];
    FailureOr<std::optional<superopt::VerificationReport>> report =
        checkGraph(c);
    if (failed(report))
      return failure();
    if (*report && !(*report)->equivalent) {
      rejected.push_back(llvm::formatv("{0:f2} us in {1} kernel(s), {2} "
                                       "graph-defined ({3})",
                                       c.cost.timeUs, c.cost.kernels,
                                       c.cost.graphDefined,
                                       (*report)->summary())
                             .str());
      ranked.erase(ranked.begin() + *at);
      continue;
    }
    return emit(c, *report);
  }
  // Not even the input graph verified (it differs from the function as
  // written only by merged common subexpressions): keep the default
  // schedule, which --graph-to-kernel would give.
  emitWarning(func.getLoc()) << llvm::formatv(
      "joint-optimize @{0}: kept the default schedule: every result failed "
      "verification: {1}; {2}",
      func.getSymName(), llvm::join(rejected, "; "), searchText());
  return convertToDefaultSchedule(func);
}

/// The µGraph cost of `g` (a lower bound until verified); none for a graph
/// over the prefilter or one the µGraph search rejects (its diagnostics
/// are counted, not shown).
std::optional<joint::JointCost>
JointOptimizePass::FunctionRun::costOf(const WorkGraph &g) {
  if (g.cost() > pass.prefilter * start->cost()) {
    ++prefiltered;
    return std::nullopt;
  }
  std::string problem;
  FailureOr<std::optional<joint::JointCost>> c = withErrorsCaptured(
      func.getContext(), problem, [&] { return coster->evaluate(g); });
  if (failed(c)) {
    if (firstProblem.empty())
      firstProblem = problem;
    ++unsearchable;
    return std::nullopt;
  }
  return *c;
}

/// Ranks `g` once, with its µGraph cost (the input with its verified one).
void JointOptimizePass::FunctionRun::consider(
    const WorkGraph &g, std::vector<std::string> applied) {
  if (!rankedHashes.insert(g.hash()).second)
    return;
  if (g.hash() == start->hash()) {
    ranked.push_back({g, std::move(applied), startVerified, true});
    return;
  }
  if (std::optional<joint::JointCost> c = costOf(g))
    ranked.push_back({g, std::move(applied), *c, false});
}

/// The graph to emit, verified (chooseContender): the cheapest graphs are
/// verified until a verified cost is the cheapest of all, or until the
/// cheapest's verified cost cannot change the choice (a near tie with
/// fewer rewrites, the input's in particular, is kept without verifying
/// the cheaper graph). An unverified cost is a lower bound of its verified
/// one, so no graph left unverified can beat the choice by more than
/// `min-gain`. At most `candidates` graphs besides the input are verified;
/// past them, the unverified graphs are dropped (the remark counts them)
/// and the choice is made among the verified ones.
std::optional<size_t> JointOptimizePass::FunctionRun::chooseVerified() {
  while (true) {
    std::vector<joint::Contender> contenders;
    for (const Candidate &c : ranked)
      contenders.push_back({c.cost.timeUs, c.applied.size(), c.verified});
    joint::Choice choice = joint::chooseContender(contenders, pass.minGain);
    if (!choice.verifyFirst)
      return choice.chosen;
    if (verifiedCandidates == pass.candidates) {
      notVerified +=
          llvm::count_if(ranked, [](const Candidate &x) { return !x.verified; });
      llvm::erase_if(ranked, [](const Candidate &x) { return !x.verified; });
      continue;
    }
    ++verifiedCandidates;
    Candidate &c = ranked[*choice.verifyFirst];
    std::string problem;
    FailureOr<std::optional<joint::JointCost>> v = withErrorsCaptured(
        func.getContext(), problem, [&] { return coster->verify(c.graph); });
    // Its segments were all costed (else it would not be ranked), so the
    // budget of searches does not refuse it.
    if (failed(v) || !*v) {
      if (firstProblem.empty())
        firstProblem = problem;
      ++unsearchable;
      ranked.erase(ranked.begin() + *choice.verifyFirst);
      continue;
    }
    c.cost = **v;
    c.verified = true;
  }
}

/// The graph of `c` against the input, as --graph-optimize checks its
/// result; std::nullopt when `c` is the input as written (nothing to
/// check: its segments' µGraphs were verified by their searches).
FailureOr<std::optional<superopt::VerificationReport>>
JointOptimizePass::FunctionRun::checkGraph(const Candidate &c) {
  if (costerOptions.prototypeHash &&
      c.graph.hash() == *costerOptions.prototypeHash)
    return std::optional<superopt::VerificationReport>();
  // A rule checked in fp64 only: as --graph-optimize, the graph is checked
  // in floating point only if the field test tells it apart.
  llvm::SmallVector<std::string, 2> floatOnlyUsed;
  for (const std::string &a : c.applied) {
    StringRef name = StringRef(a).split(' ').first;
    if (floatOnlyRules.contains(name) &&
        !llvm::is_contained(floatOnlyUsed, name.str()))
      floatOnlyUsed.push_back(name.str());
  }
  verify.fieldTest = true;
  verify.fieldTestOffReason =
      llvm::formatv("the rewrite uses rule(s) {0} checked in fp64 only: an "
                    "identity of relu or max pooling, which the field test "
                    "cannot see",
                    llvm::join(floatOnlyUsed, ", "))
          .str();
  OpBuilder b(func);
  b.setInsertionPointAfter(func);
  auto rewritten = cast<func::FuncOp>(b.clone(*func));
  rewritten.setSymName((func.getSymName() + "__rewritten").str());
  rewritten->removeAttr(kEquivalentToAttrName);
  llvm::scope_exit cleanup([&] { rewritten.erase(); });
  if (failed(c.graph.writeInto(rewritten)))
    return failure();
  auto check = [&]() -> FailureOr<superopt::VerificationReport> {
    if (pass.verifyTimeLimit > 0)
      verify.shouldStop = superopt::stopAfterSeconds(pass.verifyTimeLimit);
    return superopt::verifyEquivalence(func, rewritten, verify);
  };
  FailureOr<superopt::VerificationReport> report = check();
  if (succeeded(report) && !report->equivalent && !floatOnlyUsed.empty()) {
    verify.fieldTest = false;
    report = check();
  }
  if (failed(report))
    return failure();
  return std::optional<superopt::VerificationReport>(*report);
}

std::string JointOptimizePass::FunctionRun::graphSearchText(
    const GraphSearchResult &r) const {
  return llvm::formatv(
             "{0} graphs visited, {1} generated, {2:f3} s{3}", r.visited,
             r.generated, r.seconds,
             r.budgetReached
                 ? llvm::formatv("; the budget of {0} graphs was reached",
                                 pass.budget.getValue())
                       .str()
             : r.timeLimitReached
                 ? llvm::formatv("; the time limit of {0} s was reached (a "
                                 "safety cut: the result depends on the "
                                 "machine)",
                                 pass.timeLimit.getValue())
                       .str()
                 : std::string("; the search space was exhausted"))
      .str();
}

/// The searches' part of the remark; read when the result is emitted (a
/// graph failing its check may cost more verifying searches).
std::string JointOptimizePass::FunctionRun::searchText() const {
  const joint::CosterStats &stats = coster->getStats();
  return llvm::formatv(
      "graph search by predefined kernels: {0}; by µGraph cost: {1}; "
      "µGraph searches: {2} of {3} allowed ({4} memo hits, {5} graphs not "
      "costed for want of searches{6}), {7} states, {8:f2} s search + "
      "{9:f2} s verification{10}; {14} verifying search(es): the input's "
      "segments, then those of {15} other graph(s) costed unverified, "
      "searched again cheapest first ({16} costlier once verified){17}; "
      "{11} graphs over the prefilter ({12}x the input's predefined "
      "cost){13}",
      graphSearchText(graphOnly), graphSearchText(jointResult),
      stats.searches, uint64_t(pass.mugraphSearches), stats.memoHits,
      stats.refused,
      stats.refused ? "; the budget of µGraph searches was reached" : "",
      stats.statesExplored, stats.searchSeconds, stats.verifySeconds,
      stats.budgetCut
          ? llvm::formatv("; {0} µGraph search(es) cut by the state or "
                          "memory budget or the time limit (best so far "
                          "kept)",
                          stats.budgetCut)
                .str()
          : std::string(),
      prefiltered, pass.prefilter.getValue(),
      unsearchable ? llvm::formatv("; {0} graph(s) the µGraph search "
                                   "rejects ({1})",
                                   unsearchable, firstProblem)
                         .str()
                   : std::string(),
      stats.verified, verifiedCandidates, stats.verifiedCostlier,
      notVerified ? llvm::formatv("; {0} graph(s) left unverified, past the "
                                  "{1} candidates",
                                  notVerified, unsigned(pass.candidates))
                        .str()
                  : std::string());
}

/// The graphs left cheaper than the chosen one: each in its near-tie class
/// (between the cheapest and it), so each gains at most `min-gain` over it;
/// some may not be verified (a lower bound).
std::string
JointOptimizePass::FunctionRun::declinedText(const Candidate &c) const {
  const Candidate *declined = nullptr;
  unsigned numDeclined = 0;
  for (const Candidate &d : ranked) {
    if (d.cost.timeUs >= c.cost.timeUs)
      continue;
    ++numDeclined;
    if (!declined || d.cost.timeUs < declined->cost.timeUs)
      declined = &d;
  }
  if (!declined)
    return "";
  return llvm::formatv(
             "declined {0} cheaper graph(s), none gaining more than "
             "min-gain {1}: the cheapest, {2:f4} us{3} with {4} "
             "rewrite(s){5}{6}, gains {7} over the {8:f4} us kept; ",
             numDeclined, llvm::format("%g", pass.minGain.getValue()),
             declined->cost.timeUs,
             declined->verified ? "" : " (a lower bound, not verified)",
             declined->applied.size(), declined->applied.empty() ? "" : ": ",
             llvm::join(declined->applied, ", "),
             llvm::format("%.3g", (c.cost.timeUs - declined->cost.timeUs) /
                                      c.cost.timeUs),
             c.cost.timeUs)
      .str();
}

/// Lowers the chosen graph into the function and states the result.
LogicalResult JointOptimizePass::FunctionRun::emit(
    const Candidate &c,
    const std::optional<superopt::VerificationReport> &report) {
  OpBuilder b(func);
  b.setInsertionPointAfter(func);
  auto lowered = cast<func::FuncOp>(b.clone(*func));
  lowered.setSymName((func.getSymName() + "__joint").str());
  lowered->removeAttr(kEquivalentToAttrName);
  llvm::scope_exit cleanup([&] {
    if (lowered)
      lowered.erase();
  });
  if (failed(coster->lower(c.graph, lowered)))
    return failure();
  std::string describe =
      llvm::formatv("{0:f2} us in {1} kernel(s), {2} graph-defined",
                    c.cost.timeUs, c.cost.kernels, c.cost.graphDefined);
  std::string verifiedText = llvm::formatv(
      "the µGraphs of its {0} segment(s) each against the segment's ops by "
      "the µGraph search, as --superoptimize verifies them; {1}",
      c.cost.segments,
      report ? "the rewritten graph against the input: " + report->summary()
             : std::string("the graph is the input as written (no "
                           "rewrite to check)"));
  double graphOnlyUs = graphOnly.best.front().graph.cost();
  double muGraphOnlyUs = startVerified.timeUs;
  double others = std::min(graphOnlyUs, muGraphOnlyUs);
  emitRemark(func.getLoc()) << llvm::formatv(
      "joint-optimize @{0} on {1}: default {2:f2} us; graph-only {3:f2} us; "
      "µGraph-only {4:f2} us; joint {5} ({6:f2}x the default, {7:f2}x the "
      "better of the two alone; ops on weights only folded before the "
      "run, as in TASO: {8:f2} us with them); {9} rewrite(s){10}{11}; "
      "{16}{12}{13}{15}; verified: {14}",
      func.getSymName(), target.name, start->cost(), graphOnlyUs,
      muGraphOnlyUs, describe, start->cost() / c.cost.timeUs,
      others / c.cost.timeUs, c.cost.timeWithWeightOpsUs, c.applied.size(),
      c.applied.empty() ? "" : ": ", llvm::join(c.applied, ", "),
      searchText(),
      rejected.empty()
          ? std::string()
          : llvm::formatv("; {0} cheaper result(s) failed verification: {1}",
                          rejected.size(), llvm::join(rejected, "; "))
                .str(),
      verifiedText,
      unfused ? llvm::formatv("; thread fusion left {0} kernel(s) unfused "
                              "(over the target's registers per thread)",
                              unfused)
                    .str()
              : std::string(),
      declinedText(c));
  func.getBody().takeBody(lowered.getBody());
  return success();
}
