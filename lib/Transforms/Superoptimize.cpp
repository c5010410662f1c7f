//===- Superoptimize.cpp - the µGraph search as a pass --------------------===//
//
// Splits graph functions into subprograms, searches each (Superoptimizer.h),
// fuses thread chains, verifies the result against the subprogram, caches
// it, and splices it in place of the subprogram. A cached result is
// re-verified before it is emitted.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Dialect/Block/BlockDialect.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Thread/ThreadDialect.h"
#include "mirage/Superopt/Search/SearchDriver.h"
#include "mirage/Conversion/GraphToKernel/GraphToKernel.h"
#include "mirage/Transforms/FuseThreadChains.h"
#include "mirage/Transforms/Passes.h"
#include "mlir/IR/Remarks.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>

namespace mirage {
#define GEN_PASS_DEF_SUPEROPTIMIZE
#include "mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

namespace {

/// What the pass reports about one subprogram, as text and as remark
/// metrics.
struct Outcome {
  std::string text;       // the human-readable remark after "part N: "
  std::string cache;      // off, miss, hit, refreshed, corrupt, rejected
  bool cacheReverified = false;
  bool optimized = false; // not the default schedule
  std::optional<SearchResult> result; // absent for a cache hit
  unsigned unfusedKernels = 0;
  /// Kernels and estimated times before and after (also for a hit).
  int64_t kernelsBefore = 0, kernelsAfter = 0, graphDefined = 0;
  double costBeforeUs = 0, costAfterUs = 0;
  std::string verification;
};

struct SuperoptimizePass
    : public mirage::impl::SuperoptimizeBase<SuperoptimizePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult validateOptions(Location loc);
  std::string configKey() const;
  SearchOptions searchOptions(llvm::ThreadPoolInterface *pool,
                              const GpuTarget &gpu, unsigned &unfused,
                              unsigned &invalidFusions,
                              std::string &invalidFusion) const;
  LogicalResult optimize(func::FuncOp func, Subprogram &sub, unsigned index,
                         const GpuTarget &gpu, ModuleOp scratch,
                         llvm::ThreadPoolInterface *pool);
  FailureOr<func::FuncOp> useCache(func::FuncOp func, unsigned index,
                                   Location loc, const SearchCache &store,
                                   StringRef key, func::FuncOp defaultSchedule,
                                   ModuleOp scratch, StringRef name,
                                   const GpuTarget &gpu,
                                   const SearchOptions &options,
                                   Outcome &outcome);
  std::string searchRemark(const Subprogram &sub, const SearchResult &result,
                           StringRef budget, unsigned unfused,
                           unsigned invalidFusions,
                           StringRef invalidFusion) const;
  void storeResult(const SearchCache &store, StringRef key, func::FuncOp best,
                   const SearchStats &stats, StringRef budget, Location loc,
                   Outcome &outcome);
  void report(func::FuncOp func, unsigned index, Location loc,
              const Subprogram &sub, const Outcome &outcome);

  CacheMode cacheMode = CacheMode::On;
};

} // namespace

/// Every numeric option in its range, the cache mode known (docs/Search.md,
/// "Options"). Errors are located at the module, without printing it.
LogicalResult SuperoptimizePass::validateOptions(Location loc) {
  auto error = [&]() { return emitError(loc) << "superoptimize: "; };
  auto inRange = [&](StringRef name, uint64_t value, uint64_t lo,
                     uint64_t hi) -> LogicalResult {
    if (value >= lo && value <= hi)
      return success();
    return error() << name << " must be between " << lo << " and " << hi
                   << ", got " << value;
  };
  std::optional<CacheMode> mode = parseCacheMode(cache);
  if (!mode)
    return error() << "cache must be on, off, only, refresh or clear (or "
                      "true/false), got '"
                   << cache << "'";
  cacheMode = *mode;
  if (preset != "default" && preset != "mirage-limits")
    return error() << "preset must be default or mirage-limits, got '"
                   << preset << "'";
  if (preset == "mirage-limits")
    for (StringRef name : {"kernel-ops", "block-ops", "forloop-ranges"})
      if ((name == "kernel-ops" && kernelOps.hasValue()) ||
          (name == "block-ops" && blockOps.hasValue()) ||
          (name == "forloop-ranges" && forloopRanges.hasValue()))
        return error() << name
                       << " may not be given with preset=mirage-limits, "
                          "which sets it";
  if (failed(inRange("kernel-ops", kernelOps, 1, 64)) ||
      failed(inRange("block-ops", blockOps, 3, 32)) ||
      failed(inRange("grid-dims", gridDims, 1, 3)) ||
      failed(inRange("kernel-outputs", kernelOutputs, 1, 8)) ||
      failed(inRange("state-budget", stateBudget, 1, UINT64_MAX)) ||
      failed(inRange("kernel-graph-ops", kernelGraphOps, 0, 8)) ||
      failed(inRange("kernel-graph-states", kernelGraphStates, 1,
                     UINT64_MAX)) ||
      failed(inRange("formulations", formulations, 1, 64)) ||
      failed(inRange("memory-budget", memoryBudget, 1, uint64_t(1) << 20)) ||
      failed(inRange("threads", threads, 0, 1024)) ||
      failed(inRange("max-subprogram-ops", maxSubprogramOps, 1, 20)) ||
      failed(inRange("field-bits", fieldBits, 31, 62)))
    return failure();
  if (!std::isfinite(timeBudget) || timeBudget <= 0) {
    char got[32];
    std::snprintf(got, sizeof got, "%g", double(timeBudget));
    return error() << "time-budget must be a positive number of seconds, got "
                   << got;
  }
  for (int64_t size : gridSizes)
    if (size < 1)
      return error() << "grid-sizes must be positive, got " << size;
  for (int64_t range : forloopRanges)
    if (range < 1)
      return error() << "forloop-ranges must be positive, got " << range;
  return success();
}

/// Every option that can change the result. The threads and the time limit
/// are not in it: the result does not depend on them (a result the time
/// limit cut is not stored).
std::string SuperoptimizePass::configKey() const {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "target=" << target << " preset=" << preset
     << " kernel-ops=" << kernelOps
     << " block-ops=" << blockOps << " grid-dims=" << gridDims
     << " kernel-outputs=" << kernelOutputs
     << " grid-sizes=";
  llvm::interleaveComma(gridSizes, os);
  os << " forloop-ranges=";
  llvm::interleaveComma(forloopRanges, os);
  os << " pruning=" << pruning << " thread-fusion=" << threadFusion
     << " field-bits=" << fieldBits << " seed=" << seed
     << " state-budget=" << stateBudget << " memory-budget=" << memoryBudget
     << " kernel-graph-ops=" << kernelGraphOps
     << " kernel-graph-states=" << kernelGraphStates
     << " formulations=" << formulations
     << " reduce-verification=" << reduceVerification;
  if (!calibration.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(calibration);
    os << " calibration=" << (buffer ? (*buffer)->getBuffer() : "?");
  }
  return key;
}

SearchOptions SuperoptimizePass::searchOptions(llvm::ThreadPoolInterface *pool,
                                               const GpuTarget &gpu,
                                               unsigned &unfused,
                                               unsigned &invalidFusions,
                                               std::string &invalidFusion) const {
  SearchOptions options = toSearchOptions(
      {kernelOps, blockOps, gridDims, kernelOutputs, stateBudget, memoryBudget,
       timeBudget, fieldBits, seed},
      pool);
  options.gridSizes.assign(gridSizes.begin(), gridSizes.end());
  options.forloopRanges.assign(forloopRanges.begin(), forloopRanges.end());
  if (preset == "mirage-limits") {
    // Mirage's limits, counted as Mirage counts them (docs/Search.md,
    // "Presets"): 5 kernel-graph ops with the inputs, one graph-defined
    // kernel, 9 block ops (input iterators included) plus the output saver,
    // for-loop ranges 4, 16 and 64.
    options.maxKernelOps = 5;
    options.kernelOpsCountInputs = true;
    options.maxGraphDefinedKernels = 1;
    options.maxBlockOps = 10;
    options.forloopRanges = {4, 16, 64};
  }
  options.kernelGraphOps = kernelGraphOps;
  options.kernelGraphStates = kernelGraphStates;
  options.maxFormulations = formulations;
  options.pruning = pruning;
  options.verifier.reduceUniformDimension = reduceVerification;
  options.progress = progress ? &llvm::errs() : nullptr;
  if (threadFusion)
    options.finalize = [&gpu, &unfused, &invalidFusions,
                        &invalidFusion](func::FuncOp f) {
      return fuseThreadChainsWithinTarget(f, gpu, unfused, &invalidFusions,
                                          &invalidFusion);
    };
  return options;
}

/// A verified cached µGraph for the subprogram (null when there is none
/// to use: a miss, or an unusable entry, warned about and discarded unless
/// it is no evidence against the entry); fails under cache=only without a
/// usable entry.
FailureOr<func::FuncOp> SuperoptimizePass::useCache(
    func::FuncOp func, unsigned index, Location loc, const SearchCache &store,
    StringRef key, func::FuncOp defaultSchedule, ModuleOp scratch,
    StringRef name, const GpuTarget &gpu, const SearchOptions &options,
    Outcome &outcome) {
  CachedMuGraph hit = lookupVerified(store, key, defaultSchedule, scratch,
                                     name, gpu, options);
  if (hit.state == CachedMuGraph::State::Hit) {
    outcome.cache = "hit";
    outcome.cacheReverified = true;
    outcome.text = hit.remark + " [from the cache in " + store.directory() +
                   "; re-verified: " + hit.verification + "]";
    outcome.verification = hit.verification;
    outcome.graphDefined = llvm::range_size(
        hit.best.getBody().front().getOps<kernel::GraphDefOp>());
    outcome.optimized = outcome.graphDefined > 0;
    outcome.kernelsBefore = hit.before.kernels;
    outcome.kernelsAfter = hit.after.kernels;
    outcome.costBeforeUs = hit.before.timeUs;
    outcome.costAfterUs = hit.after.timeUs;
    return hit.best;
  }
  if (hit.state == CachedMuGraph::State::Miss) {
    if (cacheMode == CacheMode::Only)
      return emitError(loc) << "superoptimize: no cache entry for @"
                            << func.getSymName() << " part " << index
                            << " in " << store.directory() << " (cache=only)";
    return func::FuncOp();
  }
  std::string what = "superoptimize: cache entry " + store.pathOf(key) +
                     " for @" + func.getSymName().str() + " part " +
                     std::to_string(index) + " is unusable: " + hit.problem;
  if (cacheMode == CacheMode::Only)
    return emitError(loc) << what << " (cache=only)";
  if (hit.keepEntry) {
    // Not evidence against the entry: it stays, unused this time.
    emitWarning(loc) << what << "; not used, searching again";
    outcome.cache = "miss";
  } else {
    emitWarning(loc) << what << "; discarded, searching again";
    if (llvm::Error err = store.remove(key))
      emitWarning(loc) << "superoptimize: " << llvm::toString(std::move(err));
    outcome.cache = "corrupt";
  }
  return func::FuncOp();
}

/// The remark of a search that ran: kernels and estimates before and after,
/// the search's counts, its budget cuts, thread fusion, the verification and
/// the kernel level.
std::string SuperoptimizePass::searchRemark(const Subprogram &sub,
                                            const SearchResult &result,
                                            StringRef budget, unsigned unfused,
                                            unsigned invalidFusions,
                                            StringRef invalidFusion) const {
  const SearchStats &s = result.stats;
  std::string fusion;
  if (unfused)
    fusion += llvm::formatv("; thread fusion left {0} kernel(s) unfused "
                            "(over the target's registers per thread)",
                            unfused);
  if (invalidFusions)
    fusion += llvm::formatv("; thread fusion declined for {0} kernel(s) "
                            "whose fused block graph the verifier rejects "
                            "({1})",
                            invalidFusions, invalidFusion);
  return llvm::formatv(
      "{0} graph op(s) -> {1} kernel(s) ({2} graph-defined), was {3}; "
      "estimated {4:F2} us -> {5:F2} us on {6} ({7:F2}x); search: {8} "
      "states explored, {9} pruned, {10} block graphs, {11} "
      "instantiations costed, {12} candidates verified ({13} "
      "rejected), {14:F2} s search + {15:F2} s verification{16}{19}{17}; "
      "verified: {18}",
      sub.ops.size(), result.kernels, result.graphDefinedKernels,
      result.defaultKernels, result.defaultCostUs, result.costUs,
      target.getValue(), result.defaultCostUs / result.costUs,
      s.statesExplored, s.statesPruned, s.blockGraphs, s.candidatesCosted,
      s.candidatesVerified, s.candidatesRejected, s.searchSeconds,
      s.verifySeconds,
      budget.empty() ? std::string()
                     : ("; " + budget + ", best so far kept").str(),
      fusion, result.verification, describeKernelLevel(s, kernelGraphOps > 0));
}

/// Stores a search's result unless the time limit cut it or a verification
/// was interrupted (a result that depends on the machine is not kept).
void SuperoptimizePass::storeResult(const SearchCache &store, StringRef key,
                                    func::FuncOp best, const SearchStats &s,
                                    StringRef budget, Location loc,
                                    Outcome &outcome) {
  if (cacheMode == CacheMode::Off)
    return;
  if (s.timeLimitHit) {
    outcome.text += " [not cached: cut by the time limit]";
    return;
  }
  if (!s.verificationInterrupted.empty()) {
    outcome.text += " [not cached: a verification was interrupted]";
    return;
  }
  CacheEntry entry;
  entry.remark = outcome.text;
  entry.budget = budget.str();
  llvm::raw_string_ostream os(entry.body);
  best.print(os);
  os << "\n";
  if (llvm::Error err = store.store(key, entry))
    emitWarning(loc) << "superoptimize: result not cached: "
                     << llvm::toString(std::move(err));
  else if (outcome.cache == "miss" && cacheMode == CacheMode::Refresh)
    outcome.cache = "refreshed";
}

LogicalResult SuperoptimizePass::optimize(func::FuncOp func, Subprogram &sub,
                                          unsigned index, const GpuTarget &gpu,
                                          ModuleOp scratch,
                                          llvm::ThreadPoolInterface *pool) {
  MLIRContext *ctx = &getContext();
  Location loc = sub.ops.front()->getLoc();
  computeBoundary(sub);

  // A subprogram with an empty tensor computes nothing to search for: its
  // ops keep their default kernels.
  if (hasEmptyTensor(sub)) {
    Outcome outcome;
    outcome.cache = "off";
    outcome.text = "not searched: a tensor has no elements; default "
                   "schedule kept";
    report(func, index, loc, sub, outcome);
    return success();
  }

  std::string name = (func.getSymName() + "_part" + Twine(index)).str();
  func::FuncOp original = outlineSubprogram(sub, name, scratch, loc);
  auto defaultSchedule = cast<func::FuncOp>(original->clone());
  scratch.push_back(defaultSchedule);
  defaultSchedule.setSymName(name + "_default");
  // An internal failure on this subprogram (its default schedule, the
  // search, a finalization) keeps the subprogram as written, with a remark
  // naming the failure: one subprogram never fails the pass. The errors it
  // raised are caught here and become the remark's text.
  std::string internalError;
  auto keepAsWritten = [&](StringRef stage) {
    Outcome outcome;
    outcome.cache = "off";
    outcome.text = ("not optimized: " + stage + " failed (" +
                    (internalError.empty() ? std::string("no diagnostic")
                                           : internalError) +
                    "); the subprogram is kept as written")
                       .str();
    report(func, index, loc, sub, outcome);
    return success();
  };
  auto captureErrors = [&]() {
    return std::make_unique<ScopedDiagnosticHandler>(
        ctx, [&](Diagnostic &d) -> LogicalResult {
          if (d.getSeverity() != DiagnosticSeverity::Error)
            return failure(); // remarks and warnings go on to the user
          if (internalError.empty())
            internalError = d.str();
          return success();
        });
  };
  {
    auto capture = captureErrors();
    if (failed(convertToDefaultSchedule(defaultSchedule)))
      return keepAsWritten("its default schedule");
  }

  SearchCache store(cacheDir);
  std::string key = SearchCache::key(cacheProgramText(original), configKey());
  unsigned unfused = 0, invalidFusions = 0;
  std::string invalidFusion;
  SearchOptions options =
      searchOptions(pool, gpu, unfused, invalidFusions, invalidFusion);

  Outcome outcome;
  outcome.cache = cacheMode == CacheMode::Off ? "off" : "miss";
  func::FuncOp best;
  if (readsCache(cacheMode)) {
    FailureOr<func::FuncOp> cached =
        useCache(func, index, loc, store, key, defaultSchedule, scratch, name,
                 gpu, options, outcome);
    if (failed(cached))
      return failure();
    best = *cached;
  }

  if (!best) {
    FailureOr<SearchResult> result = failure();
    {
      auto capture = captureErrors();
      if (testFailPart == int64_t(index))
        emitError(loc) << "planted failure (test-fail-part=" << index << ")";
      else
        result = searchMuGraph(defaultSchedule, scratch, gpu, options);
    }
    if (failed(result))
      return keepAsWritten("the µGraph search");
    best = result->best;
    std::string budget = describeBudgetCuts(result->stats, stateBudget);
    outcome.optimized = result->graphDefinedKernels > 0 ||
                        result->kernels != result->defaultKernels;
    outcome.text = searchRemark(sub, *result, budget, unfused, invalidFusions,
                                invalidFusion);
    storeResult(store, key, best, result->stats, budget, loc, outcome);
    outcome.unfusedKernels = unfused;
    outcome.kernelsBefore = result->defaultKernels;
    outcome.kernelsAfter = result->kernels;
    outcome.graphDefined = result->graphDefinedKernels;
    outcome.costBeforeUs = result->defaultCostUs;
    outcome.costAfterUs = result->costUs;
    outcome.verification = result->verification;
    outcome.result = std::move(*result);
  }

  // The µGraph in place of the subprogram, at its last op (Subprograms.h).
  spliceSubprogram(sub, best, loc);
  report(func, index, loc, sub, outcome);
  return success();
}

static std::string fixed(double value, unsigned digits) {
  return llvm::formatv(("{0:F" + Twine(digits) + "}").str().c_str(), value)
      .str();
}

/// The remark of one subprogram: the text (emitRemark) and the same facts
/// as metrics through MLIR's remark engine, category `mirage-search`.
void SuperoptimizePass::report(func::FuncOp func, unsigned index, Location loc,
                               const Subprogram &sub, const Outcome &outcome) {
  emitRemark(loc) << "superoptimize @" << func.getSymName() << " part "
                  << index << ": " << outcome.text;

  auto opts = remark::RemarkOpts::name("Superoptimize")
                  .category("mirage-search")
                  .subCategory(outcome.cache == "hit" ? "cache-hit" : "search")
                  .function(func.getSymName());
  auto inFlight = outcome.optimized ? remark::passed(loc, opts)
                                    : remark::missed(loc, opts);
  inFlight << remark::add("superoptimize @{0} part {1}", func.getSymName(),
                          index)
           << remark::metric("Part", index)
           << remark::metric("GraphOps", sub.ops.size())
           << remark::metric("Target", StringRef(target))
           << remark::metric("Cache", StringRef(outcome.cache))
           << remark::metric("CacheReverified", outcome.cacheReverified)
           << remark::metric("KernelsBefore", outcome.kernelsBefore)
           << remark::metric("KernelsAfter", outcome.kernelsAfter)
           << remark::metric("GraphDefinedKernels", outcome.graphDefined)
           << remark::metric("CostBeforeUs", fixed(outcome.costBeforeUs, 3))
           << remark::metric("CostAfterUs", fixed(outcome.costAfterUs, 3));
  if (const std::optional<SearchResult> &r = outcome.result) {
    const SearchStats &s = r->stats;
    inFlight << remark::metric("StatesExplored", s.statesExplored)
             << remark::metric("StatesRepeated", s.statesRepeated)
             << remark::metric("StatesPruned", s.statesPruned)
             << remark::metric("BlockGraphs", s.blockGraphs)
             << remark::metric("InstantiationsCosted", s.candidatesCosted)
             << remark::metric("CandidatesVerified", s.candidatesVerified)
             << remark::metric("CandidatesRejected", s.candidatesRejected)
             << remark::metric("Tasks", s.tasks)
             << remark::metric("BudgetRounds", s.rounds)
             << remark::metric("StateBudget", uint64_t(stateBudget))
             << remark::metric("StateBudgetReached", s.tasksCutByStates > 0)
             << remark::metric("MemoryBudgetReached", s.tasksCutByMemory > 0)
             << remark::metric("PeakTaskBytes", s.peakTaskBytes)
             << remark::metric("TimeLimitReached", s.timeLimitHit)
             << remark::metric("VerificationCut", s.verificationCut)
             << remark::metric("SearchSeconds", fixed(s.searchSeconds, 3))
             << remark::metric("VerifySeconds", fixed(s.verifySeconds, 3))
             << remark::metric("UnfusedKernels", outcome.unfusedKernels)
             << remark::metric("KernelGraphStates", s.kernelGraphStates)
             << remark::metric("KernelGraphPruned", s.kernelGraphPruned)
             << remark::metric("Formulations", s.formulations)
             << remark::metric("FormulationsVerified", s.formulationsTried)
             << remark::metric("KernelGraphBudgetReached",
                               s.kernelGraphStateBudgetHit ||
                                   s.formulationLimitHit)
             << remark::metric("Formulation",
                               StringRef(s.formulation.empty()
                                             ? "as written"
                                             : s.formulation));
  }
  inFlight << remark::metric("Verification", outcome.verification);
}

void SuperoptimizePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  Location loc = module.getLoc();
  if (failed(validateOptions(loc)))
    return signalPassFailure();
  llvm::Expected<GpuTarget> gpu = GpuTarget::get(target, calibration);
  if (!gpu) {
    emitError(loc) << "superoptimize: " << llvm::toString(gpu.takeError());
    return signalPassFailure();
  }
  if (cacheMode == CacheMode::Clear) {
    SearchCache store(cacheDir);
    llvm::Expected<unsigned> removed = store.clear();
    if (!removed) {
      emitError(loc) << "superoptimize: cannot clear the cache: "
                     << llvm::toString(removed.takeError());
      return signalPassFailure();
    }
    emitRemark(loc) << "superoptimize: removed " << *removed
                    << " cache entr" << (*removed == 1 ? "y" : "ies")
                    << " from " << store.directory();
  }

  // The search threads; the result does not depend on them.
  SearchThreads searchThreads(ctx, threads);
  llvm::ThreadPoolInterface *pool = searchThreads.pool();

  OwningOpRef<ModuleOp> scratch = ModuleOp::create(module.getLoc());
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal())
      continue;
    setSearchedTarget(func, gpu->name);
    // Grouped by data dependence (Subprograms.h).
    SmallVector<Subprogram> subs =
        groupSubprograms(func.getBody().front(), maxSubprogramOps,
                         /*skip=*/nullptr, uint64_t(memoryBudget) << 20);
    for (auto [i, sub] : llvm::enumerate(subs))
      if (failed(optimize(func, sub, i, *gpu, *scratch, pool)))
        return signalPassFailure();
    // The ops left outside every subprogram: the default schedule.
    if (failed(convertToDefaultSchedule(func)))
      return signalPassFailure();
  }
}
