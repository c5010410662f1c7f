//===- SearchDriver.cpp - running the µGraph search from a pass -----------===//
//
// The threads, the verified cache lookup and the budget texts that
// --superoptimize and --joint-optimize share (SearchDriver.h).
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Search/SearchDriver.h"
#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mlir/IR/Builders.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mirage::superopt;

SearchOptions mirage::superopt::toSearchOptions(const SearchPassOptions &pass,
                                               llvm::ThreadPoolInterface *pool) {
  SearchOptions options;
  options.maxKernelOps = pass.kernelOps;
  options.maxBlockOps = pass.blockOps;
  options.maxGridDims = pass.gridDims;
  options.maxKernelOutputs = pass.kernelOutputs;
  options.stateBudget = pass.stateBudget;
  options.memoryBudgetBytes = pass.memoryBudgetMiB << 20;
  options.timeLimitSeconds = pass.timeBudgetSeconds;
  options.verifier.fieldBits = pass.fieldBits;
  options.verifier.seed = pass.seed;
  options.verifier.realTestsFirst = true;
  options.threadPool = pool;
  return options;
}

SearchThreads::SearchThreads(MLIRContext *ctx, unsigned threads) {
  if (!ctx->isMultithreadingEnabled() || threads == 1)
    return;
  if (threads == 0) {
    chosen = &ctx->getThreadPool();
    return;
  }
  own = std::make_unique<llvm::DefaultThreadPool>(
      llvm::hardware_concurrency(threads));
  chosen = own.get();
}

std::optional<CacheMode> mirage::superopt::parseCacheMode(StringRef text) {
  return llvm::StringSwitch<std::optional<CacheMode>>(text)
      .Cases({"on", "true"}, CacheMode::On)
      .Cases({"off", "false"}, CacheMode::Off)
      .Case("only", CacheMode::Only)
      .Case("refresh", CacheMode::Refresh)
      .Case("clear", CacheMode::Clear)
      .Default(std::nullopt);
}

bool mirage::superopt::readsCache(CacheMode mode) {
  // refresh searches again and overwrites; clear empties the directory
  // first and then acts as on.
  return mode == CacheMode::On || mode == CacheMode::Only ||
         mode == CacheMode::Clear;
}

std::string mirage::superopt::cacheProgramText(func::FuncOp subprogram) {
  std::string program;
  llvm::raw_string_ostream os(program);
  OpPrintingFlags flags;
  flags.printGenericOpForm();
  auto anonymous = cast<func::FuncOp>(subprogram->clone());
  anonymous.setSymName("subprogram");
  MLIRContext *ctx = subprogram.getContext();
  anonymous->walk([&](Operation *op) { op->setLoc(UnknownLoc::get(ctx)); });
  anonymous.print(os, flags);
  anonymous.erase();
  return program;
}

std::string mirage::superopt::describeMismatch(const VerificationReport &report) {
  if (!report.mismatch)
    return report.summary();
  const Mismatch &m = *report.mismatch;
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "output #" << m.output << " differs at [";
  llvm::interleaveComma(m.position, os);
  os << "] in the " << m.method << " check: the subprogram gives "
     << m.originalValue << ", the entry " << m.candidateValue;
  if (!m.detail.empty())
    os << " (" << m.detail << ")";
  return out;
}

CachedMuGraph mirage::superopt::lookupVerified(
    const SearchCache &store, StringRef key, func::FuncOp defaultSchedule,
    ModuleOp scratch, StringRef name, const GpuTarget &gpu,
    const SearchOptions &options) {
  CachedMuGraph out;
  SearchCache::Lookup hit = store.lookup(key);
  if (hit.status == SearchCache::Status::Miss)
    return out;
  out.state = CachedMuGraph::State::Unusable;
  if (hit.status == SearchCache::Status::Corrupt) {
    out.problem = hit.problem;
    return out;
  }

  MLIRContext *ctx = defaultSchedule.getContext();
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(hit.entry.body, ParserConfig(ctx));
  func::FuncOp cached;
  if (parsed && !parsed->getOps<func::FuncOp>().empty()) {
    OpBuilder builder(ctx);
    builder.setInsertionPointToEnd(scratch.getBody());
    cached = cast<func::FuncOp>(
        builder.clone(**parsed->getOps<func::FuncOp>().begin()));
    cached.setSymName((name + "_cached").str());
  }
  if (!cached || cached.getFunctionType() != defaultSchedule.getFunctionType()) {
    out.problem = "its µGraph does not parse as this subprogram's function";
    if (cached)
      cached.erase();
    return out;
  }

  // The re-verification keeps to the search's own time limit and memory
  // budget.
  VerifierOptions check = options.verifier;
  check.memoryLimitBytes = options.memoryBudgetBytes;
  check.shouldStop = stopAfterSeconds(options.timeLimitSeconds);
  FailureOr<VerificationReport> report =
      verifyEquivalence(defaultSchedule, cached, check);
  if (failed(report) || !report->equivalent) {
    out.keepEntry = succeeded(report) && report->interrupted;
    out.problem = out.keepEntry ? "its re-verification was interrupted (" +
                                      *report->interrupted + ")"
                  : succeeded(report)
                      ? "its µGraph failed re-verification (" +
                            describeMismatch(*report) + ")"
                      : "its µGraph cannot be re-verified";
    cached.erase();
    return out;
  }

  llvm::Expected<FunctionCost> before = estimateFunction(defaultSchedule, gpu);
  llvm::Expected<FunctionCost> after = estimateFunction(cached, gpu);
  if (!before || !after) {
    // A verified µGraph the cost model rejects (a calibration changed a
    // limit, say) is not used.
    llvm::Error err = llvm::joinErrors(
        before ? llvm::Error::success() : before.takeError(),
        after ? llvm::Error::success() : after.takeError());
    out.problem = "the cost model rejects it: " + llvm::toString(std::move(err));
    cached.erase();
    return out;
  }
  out.state = CachedMuGraph::State::Hit;
  out.best = cached;
  out.remark = hit.entry.remark;
  out.verification = report->summary();
  out.before = *before;
  out.after = *after;
  return out;
}

std::string mirage::superopt::describeBudgetCuts(const SearchStats &s,
                                                 uint64_t stateBudget) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (s.tasksCutByStates)
    os << "state budget reached: " << s.tasksCutByStates << " of " << s.tasks
       << " tasks cut at " << s.stateShare << " states each (budget "
       << stateBudget << ", " << s.rounds << " round(s))";
  if (!s.tasksCutByStates && (s.pairTasksCut || s.pairTasksNotRun))
    os << "state budget reached: ";
  if (s.pairTasksCut)
    os << (s.tasksCutByStates ? "; " : "") << s.pairTasksCut << " of "
       << s.pairTasks << " tasks for kernels with two outputs cut at "
       << s.pairStateShare << " states each";
  if (s.pairTasksNotRun)
    os << (s.tasksCutByStates || s.pairTasksCut ? "; " : "")
       << s.pairTasksNotRun
       << " tasks for kernels with two outputs not run (the state budget "
          "was spent)";
  if (s.tasksCutByMemory)
    os << (out.empty() ? "" : "; ") << "memory budget reached: "
       << s.tasksCutByMemory << " task(s) cut (largest task "
       << (s.peakTaskBytes >> 20) << " MiB)";
  if (s.timeLimitHit)
    os << (out.empty() ? "" : "; ") << "time limit reached "
       << (s.verificationCut ? "before verification" : "in the enumeration")
       << " after "
       << llvm::formatv("{0:F1}", s.searchSeconds + s.verifySeconds).str()
       << " s: where it cut depends on the machine, the result may differ "
          "between runs and is not cached";
  if (!s.verificationInterrupted.empty())
    os << (out.empty() ? "" : "; ") << "a verification was interrupted ("
       << s.verificationInterrupted << "): its candidate was not used";
  if (s.kernelGraphStateBudgetHit)
    os << (out.empty() ? "" : "; ")
       << "enumeration budget reached: the kernel-level enumeration "
          "stopped after "
       << s.kernelGraphStates - 1 << " states (kernel-graph-states)";
  if (s.formulationLimitHit)
    os << (out.empty() ? "" : "; ") << "formulation budget reached: "
       << s.formulations
       << " other formulation(s) searched, more were found (formulations)";
  return out;
}

std::string mirage::superopt::describeKernelLevel(const SearchStats &s,
                                                  bool enabled) {
  if (!enabled)
    return "";
  if (!s.kernelGraphSkipped.empty())
    return "; kernel level: not enumerated, " + s.kernelGraphSkipped;
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "; kernel level: " << s.kernelGraphStates << " states, "
     << s.kernelGraphPruned << " pruned, " << s.formulations
     << " other formulation(s) searched (" << s.otherFormulationStates
     << " block states in the searches not chosen";
  if (s.formulationsCutByStates)
    os << ", " << s.formulationsCutByStates << " cut by their state share";
  os << "), " << s.formulationsTried << " verified as cheaper; chosen: "
     << (s.formulation.empty() ? std::string("the program as written")
                               : s.formulation);
  return out;
}
