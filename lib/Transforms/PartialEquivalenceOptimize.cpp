//===- PartialEquivalenceOptimize.cpp - PET's mutants and corrections ----===//
//
// For each graph function: find the stitched-convolution sites, build each
// site's mutant, cut its output into regions and test them
// (PartialEquivalence.h), recompute the wrong regions in the mutant's
// launch, cost the corrected function, and verify it against the input
// before it replaces it. Nothing unverified is emitted.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Superopt/PartialEquivalence/PartialEquivalence.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mirage/Superopt/Verification/VerifierPassOptions.h"
#include "mirage/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <cmath>
#include <limits>

namespace mirage {
#define GEN_PASS_DEF_PARTIALEQUIVALENCEOPTIMIZE
#include "mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::pet;

namespace {
struct PartialEquivalenceOptimizePass
    : public mirage::impl::PartialEquivalenceOptimizeBase<
          PartialEquivalenceOptimizePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult validate(Location loc);
  /// Tries the sites of `func`; fails only on an internal error (the
  /// diagnostic is emitted).
  LogicalResult optimize(func::FuncOp func, const superopt::GpuTarget &target);
  /// What became of one site.
  enum class Outcome {
    Kept,
    /// Stitched and corrected: the site is gone.
    Rewritten,
    /// Only its per-tile chains were moved after the concat (exact and
    /// cheaper than the correction): a site of bare convolutions stays and
    /// is not tried again.
    ChainsMoved,
  };
  /// One site (the index-th of the function's current sites).
  FailureOr<Outcome> trySite(func::FuncOp func, size_t index,
                             const superopt::GpuTarget &target);
};

/// A copy of `func` named `name`, after it; erased when the guard goes.
struct ScratchCopy {
  func::FuncOp fn;
  ScratchCopy(func::FuncOp func, llvm::StringRef name) {
    OpBuilder b(func);
    b.setInsertionPointAfter(func);
    fn = cast<func::FuncOp>(b.clone(*func));
    fn.setSymName(name);
    fn->removeAttr(kEquivalentToAttrName);
  }
  ~ScratchCopy() {
    if (fn)
      fn.erase();
  }
};
} // namespace

LogicalResult PartialEquivalenceOptimizePass::validate(Location loc) {
  auto error = [&]() {
    return emitError(loc) << "partial-equivalence-optimize: ";
  };
  if (budget < 1)
    return error() << "budget must be at least 1 mutant, got "
                   << budget.getValue();
  if (!std::isfinite(regionBound) || regionBound < -200 || regionBound > -1)
    return error() << "region-bound must be between -200 and -1, got "
                   << llvm::formatv("{0}", regionBound.getValue()).str();
  if (maxBoxes < 1 || maxBoxes > 10000000)
    return error() << "max-boxes must be between 1 and 10000000, got "
                   << maxBoxes.getValue();
  return superopt::checkVerifierOptions(error, fieldBits, scales, verifyTimeLimit);
}

void PartialEquivalenceOptimizePass::runOnOperation() {
  ModuleOp module = getOperation();
  Location loc = module.getLoc();
  if (failed(validate(loc)))
    return signalPassFailure();
  llvm::Expected<superopt::GpuTarget> gpu =
      superopt::GpuTarget::get(this->target, calibration);
  if (!gpu) {
    emitError(loc) << "partial-equivalence-optimize: "
                   << llvm::toString(gpu.takeError());
    return signalPassFailure();
  }
  bool found = function.empty();
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  for (func::FuncOp func : funcs) {
    if (func.isExternal() || isRuleOrEquivalencePair(func))
      continue;
    if (!function.empty() && func.getSymName() != function)
      continue;
    found = true;
    setSearchedTarget(func, gpu->name);
    if (failed(optimize(func, *gpu)))
      return signalPassFailure();
  }
  if (!found) {
    emitError(loc) << "partial-equivalence-optimize: no function named '"
                   << function << "'";
    signalPassFailure();
  }
}

static double functionCost(func::FuncOp func,
                           const superopt::GpuTarget &target) {
  llvm::Expected<superopt::FunctionCost> c =
      superopt::estimateFunction(func, target);
  if (!c) {
    llvm::consumeError(c.takeError());
    return std::nan("");
  }
  return c->timeUs;
}

LogicalResult
PartialEquivalenceOptimizePass::optimize(func::FuncOp func,
                                         const superopt::GpuTarget &target) {
  std::vector<std::string> why;
  size_t sites = findStitchSites(func, &why).size();
  if (sites == 0) {
    emitRemark(func.getLoc()) << llvm::formatv(
        "partial-equivalence-optimize @{0}: no stitched-convolution site{1}",
        func.getSymName(),
        why.empty() ? std::string()
                    : " (" + llvm::join(why, "; ") + ")");
    return success();
  }
  double before = functionCost(func, target);
  // Sites are re-found after each rewrite: a rewritten site is gone, and
  // the others keep their order.
  uint64_t tried = 0, rewritten = 0;
  size_t index = 0;
  while (tried < budget) {
    if (index >= findStitchSites(func).size())
      break;
    ++tried;
    FailureOr<Outcome> outcome = trySite(func, index, target);
    if (failed(outcome))
      return failure();
    if (*outcome != Outcome::Kept)
      ++rewritten;
    if (*outcome != Outcome::Rewritten)
      ++index;
  }
  bool cut = index < findStitchSites(func).size();
  emitRemark(func.getLoc()) << llvm::formatv(
      "partial-equivalence-optimize @{0}: {1} mutant(s) tried of {2} "
      "site(s){3}, {4} rewritten; {5:f2} us -> {6:f2} us on {7}",
      func.getSymName(), tried, sites,
      cut ? llvm::formatv(" (the budget of {0} mutants was reached)",
                          budget.getValue())
                .str()
          : std::string(),
      rewritten, before, functionCost(func, target), target.name);
  return success();
}

FailureOr<PartialEquivalenceOptimizePass::Outcome>
PartialEquivalenceOptimizePass::trySite(
    func::FuncOp func, size_t index, const superopt::GpuTarget &target) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0 = Clock::now();
  StitchSite site = findStitchSites(func)[index];
  Location loc = site.concat.getLoc();
  std::string name = func.getSymName().str();
  size_t chainOps = site.chains.front().size();
  std::string what = llvm::formatv(
      "partial-equivalence-optimize @{0}: {1} convolutions stitched along "
      "axis {2} (halo {3}){4}",
      name, site.convs.size(), site.dim, site.halo,
      chainOps ? llvm::formatv(", each followed by {0} elementwise op(s) "
                               "moved after the concat",
                               chainOps)
                     .str()
               : std::string());

  double before = functionCost(func, target);
  superopt::VerifierOptions verify =
      superopt::graphVerifierOptions(fieldBits, seed, scales, verifyTimeLimit);
  // Verifies `candidate` against the input; when equivalent, the input
  // takes its body. Nothing unverified replaces the input.
  auto emitVerified = [&](func::FuncOp candidate, const std::string &summary,
                          StringRef noun) -> FailureOr<bool> {
    FailureOr<superopt::VerificationReport> report =
        superopt::verifyEquivalence(func, candidate, verify);
    if (failed(report))
      return failure();
    if (!report->equivalent) {
      emitWarning(loc) << summary << "; kept the input: the " << noun
                       << " program failed verification: "
                       << report->summary();
      return false;
    }
    func.getBody().takeBody(candidate.getBody());
    emitRemark(loc) << summary << "; verified: " << report->summary();
    return true;
  };
  // With per-tile chains, moving them after the concat is exact on its own
  // and saves their launches: when PET is not applied (or does not beat
  // it), the chains alone are moved if that is cheaper than the input.
  std::unique_ptr<ScratchCopy> moved;
  double movedCost = std::numeric_limits<double>::infinity();
  if (chainOps) {
    moved = std::make_unique<ScratchCopy>(func, name + "__pet_chains_moved");
    hoistTileChains(findStitchSites(moved->fn)[index]);
    movedCost = functionCost(moved->fn, target);
  }
  bool moveChains = moved && movedCost < before * (1 - 1e-9);
  // A site PET does not rewrite: `kept` says why when nothing changes;
  // `why` leads the remark when the chains alone are moved.
  auto keep = [&](const std::string &kept,
                  const std::string &why) -> FailureOr<Outcome> {
    if (!moveChains) {
      emitRemark(loc) << kept;
      return Outcome::Kept;
    }
    FailureOr<bool> ok = emitVerified(
        moved->fn,
        llvm::formatv("{0}; moved the chains after the concat alone "
                      "(exact): {1:f2} us -> {2:f2} us on {3}",
                      why, before, movedCost, target.name)
            .str(),
        "rewritten");
    if (failed(ok))
      return failure();
    return *ok ? Outcome::ChainsMoved : Outcome::Kept;
  };

  // The mutant and its regions, on the site alone.
  SitePrograms programs = buildSitePrograms(site, name);
  llvm::scope_exit eraseSite([&] {
    programs.original.erase();
    programs.mutant.erase();
  });
  RegionOptions regionOptions;
  regionOptions.fieldBits = fieldBits;
  regionOptions.seed = seed;
  regionOptions.targetLog2Bound = regionBound;
  regionOptions.maxBoxes = maxBoxes;
  llvm::Expected<RegionReport> regions =
      analyzeRegions(programs.original, programs.mutant, regionOptions);
  if (!regions) {
    std::string text = what + ": region analysis not applicable: " +
                       llvm::toString(regions.takeError());
    return keep(text, text);
  }
  llvm::Expected<SmallVector<std::pair<int64_t, int64_t>, 4>> intervals =
      wrongIntervals(site, *regions);
  if (!intervals) {
    std::string text = what + ": regions: " + regions->summary() +
                       "; not corrected: " +
                       llvm::toString(intervals.takeError());
    return keep(text, text);
  }
  if (intervals->empty()) {
    // Exact (a 1-wide window): the graph rules' territory, not PET's.
    std::string text = what + ": regions: " + regions->summary() +
                       "; the mutant is exact, nothing to correct";
    return keep(text, text);
  }
  double analysisSeconds =
      std::chrono::duration<double>(Clock::now() - t0).count();

  // The correction in both layouts, each in a copy; the cheaper is kept.
  double mutantCost = 0;
  {
    ScratchCopy mutantCopy(func, name + "__pet_mutant_cost");
    StitchSite s = hoistTileChains(findStitchSites(mutantCopy.fn)[index]);
    OpBuilder b(s.concat);
    SmallVector<Value> tiles;
    for (graph::Conv2DOp c : s.convs)
      tiles.push_back(c.getInput());
    Value conv = buildSiteConv(
        b, s, buildTileConcat(b, s.concat.getLoc(), tiles, s.dim),
        s.convs.front().getWeight());
    s.concat.getResult().replaceAllUsesWith(conv);
    s.concat.erase();
    for (graph::Conv2DOp c : s.convs)
      c.erase();
    mutantCost = functionCost(mutantCopy.fn, target);
  }
  struct Built {
    std::unique_ptr<ScratchCopy> copy;
    Correction correction;
    double cost;
    StringRef layout;
  };
  std::optional<Built> best;
  std::vector<std::string> notBuilt;
  for (auto [layout, layoutName] :
       {std::pair(SliceLayout::FromConcat, StringRef("from the concatenated "
                                                     "tiles")),
        std::pair(SliceLayout::PerTile, StringRef("per tile"))}) {
    auto copy = std::make_unique<ScratchCopy>(
        func, name + "__pet_corrected_" +
                  std::to_string(static_cast<int>(layout)));
    CorrectionOptions options;
    options.layout = layout;
    options.plantWrong = plantWrongCorrection;
    llvm::Expected<Correction> c =
        correctSite(findStitchSites(copy->fn)[index], *intervals, options);
    if (!c) {
      notBuilt.push_back((layoutName + ": " + llvm::toString(c.takeError()))
                             .str());
      continue;
    }
    // A correction that does not verify as IR is a bug here, not a
    // verdict on the site.
    if (failed(mlir::verify(copy->fn))) {
      copy->fn.emitError() << what << ": the corrected function (slices "
                           << layoutName << ") is not valid IR";
      return failure();
    }
    double cost = functionCost(copy->fn, target);
    if (!best || cost < best->cost)
      best = Built{std::move(copy), *c, cost, layoutName};
  }
  if (!best) {
    std::string text = what + ": regions: " + regions->summary() +
                       "; no correction: " + llvm::join(notBuilt, "; ");
    return keep(text, text);
  }
  std::string intervalText;
  for (auto [lo, hi] : best->correction.intervals)
    intervalText += llvm::formatv(" [{0}, {1})", lo, hi).str();
  std::string summary = llvm::formatv(
      "{0}: regions: {1}; wrong along the axis:{2}; correction: {3} op(s), "
      "slices {4}, {5} extra rows in the fused convolution, {6:f2} us "
      "(mutant {7:f2} us); {8:f2} us -> {9:f2} us on {10}; analysis {11:f3} s",
      what, regions->summary(), intervalText, best->correction.ops,
      best->layout, best->correction.extraExtent,
      best->cost - mutantCost, mutantCost, before, best->cost, target.name,
      analysisSeconds);
  if (!(best->cost < std::min(before, movedCost) * (1 - 1e-9)))
    return keep(summary + "; not cheaper: kept",
                summary + "; not cheaper than the chains moved alone");
  FailureOr<bool> ok = emitVerified(best->copy->fn, summary, "corrected");
  if (failed(ok))
    return failure();
  return *ok ? Outcome::Rewritten : Outcome::Kept;
}
