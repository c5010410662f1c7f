//===- Superoptimize.cpp - the µGraph search as a pass --------------------===//
//
// Splits graph functions into subprograms, searches each (Superoptimizer.h),
// fuses thread chains, verifies the result against the subprogram once
// more, caches it, and splices it in place of the subprogram.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Block/BlockDialect.h"
#include "Dialect/Graph/GraphOps.h"
#include "Dialect/Kernel/KernelOps.h"
#include "Dialect/Thread/ThreadDialect.h"
#include "Superopt/Search/SearchCache.h"
#include "Superopt/Search/Superoptimizer.h"
#include "Transforms/Passes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mirage {
#define GEN_PASS_DEF_SUPEROPTIMIZE
#include "Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

/// Graph ops the search handles; the others keep the default schedule.
static bool isSearchable(Operation *op) {
  if (auto norm = dyn_cast<graph::RMSNormOp>(op))
    return norm.getEps().isZero();
  return isa<graph::MatmulOp, graph::ExpOp, graph::SqrtOp, graph::SquareOp,
             graph::SiluOp, graph::GeluOp, graph::ReluOp, graph::ClampOp,
             graph::ScalarMulOp, graph::PowOp, graph::AddOp, graph::SubOp,
             graph::MulOp, graph::DivOp, graph::ReduceSumOp,
             graph::SoftmaxOp>(op);
}

static LogicalResult convertToKernels(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populateGraphToKernelPatterns(patterns);
  ConversionTarget target(*root->getContext());
  target.addIllegalDialect<graph::GraphDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(root, target, std::move(patterns));
}

namespace {

/// A run of consecutive searchable ops of one function.
struct Subprogram {
  SmallVector<Operation *> ops;
  SmallVector<Value> inputs, outputs;
};

struct SuperoptimizePass
    : public mirage::impl::SuperoptimizeBase<SuperoptimizePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  SmallVector<Subprogram> split(func::FuncOp func);
  std::string configKey() const;
  LogicalResult optimize(func::FuncOp func, Subprogram &sub, unsigned index,
                         const GpuTarget &gpu, ModuleOp scratch,
                         llvm::ThreadPoolInterface *pool);
};

} // namespace

SmallVector<Subprogram> SuperoptimizePass::split(func::FuncOp func) {
  SmallVector<Subprogram> subs;
  Subprogram current;
  auto flush = [&] {
    if (!current.ops.empty())
      subs.push_back(std::move(current));
    current = Subprogram();
  };
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (!isSearchable(&op)) {
      flush();
      continue;
    }
    if (current.ops.size() == maxSubprogramOps)
      flush();
    current.ops.push_back(&op);
  }
  flush();

  return subs;
}

/// The values a subprogram reads and those read after it. Computed just
/// before its search: earlier subprograms may have replaced its inputs.
static void computeBoundary(Subprogram &sub) {
  llvm::SmallPtrSet<Operation *, 8> inside(sub.ops.begin(), sub.ops.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : sub.ops)
    for (Value operand : op->getOperands())
      if (!inside.contains(operand.getDefiningOp()))
        inputs.insert(operand);
  sub.inputs = inputs.takeVector();
  sub.outputs.clear();
  for (Operation *op : sub.ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inside.contains(user);
          }))
        sub.outputs.push_back(result);
}

std::string SuperoptimizePass::configKey() const {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "target=" << target << " kernel-ops=" << kernelOps
     << " block-ops=" << blockOps << " grid-dims=" << gridDims
     << " grid-sizes=";
  llvm::interleaveComma(gridSizes, os);
  os << " forloop-ranges=";
  llvm::interleaveComma(forloopRanges, os);
  os << " pruning=" << pruning << " thread-fusion=" << threadFusion
     << " field-bits=" << fieldBits << " seed=" << seed;
  if (!calibration.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(calibration);
    os << " calibration=" << (buffer ? (*buffer)->getBuffer() : "?");
  }
  // The budgets are part of the key: a search cut short is not reused by a
  // longer one.
  os << " time-budget=" << timeBudget << " state-budget=" << stateBudget;
  return key;
}

/// Runs the rule-based thread fusion on every graph-defined kernel.
static LogicalResult fuseThreadChains(func::FuncOp func) {
  SmallVector<kernel::GraphDefOp> defs;
  func.walk([&](kernel::GraphDefOp def) { defs.push_back(def); });
  for (kernel::GraphDefOp def : defs) {
    fuseBlockGraph(def.getBody().front());
    if (failed(verify(def)))
      return def.emitError("thread fusion produced an invalid block graph");
  }
  return success();
}

LogicalResult SuperoptimizePass::optimize(func::FuncOp func, Subprogram &sub,
                                          unsigned index, const GpuTarget &gpu,
                                          ModuleOp scratch,
                                          llvm::ThreadPoolInterface *pool) {
  MLIRContext *ctx = &getContext();
  Location loc = sub.ops.front()->getLoc();
  OpBuilder builder(ctx);
  computeBoundary(sub);

  // The subprogram as a function of its own.
  builder.setInsertionPointToEnd(scratch.getBody());
  SmallVector<Type> inTypes, outTypes;
  for (Value v : sub.inputs)
    inTypes.push_back(v.getType());
  for (Value v : sub.outputs)
    outTypes.push_back(v.getType());
  std::string name = (func.getSymName() + "_part" + Twine(index)).str();
  auto original = func::FuncOp::create(builder, loc, name,
                                       builder.getFunctionType(inTypes, outTypes));
  {
    Block *entry = original.addEntryBlock();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(entry);
    IRMapping map;
    for (auto [v, arg] : llvm::zip(sub.inputs, entry->getArguments()))
      map.map(v, arg);
    for (Operation *op : sub.ops)
      builder.clone(*op, map);
    SmallVector<Value> results;
    for (Value v : sub.outputs)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(builder, loc, results);
  }

  // The cache key: the subprogram printed generically, without locations.
  std::string program;
  {
    llvm::raw_string_ostream os(program);
    OpPrintingFlags flags;
    flags.printGenericOpForm();
    auto anonymous = cast<func::FuncOp>(original->clone());
    anonymous.setSymName("subprogram");
    anonymous->walk([&](Operation *op) { op->setLoc(UnknownLoc::get(ctx)); });
    anonymous.print(os, flags);
    anonymous.erase();
  }
  SearchCache cacheStore(cacheDir);
  std::string key = SearchCache::key(program, configKey());

  func::FuncOp best;
  std::string remark;
  if (cache) {
    if (std::optional<std::string> hit = cacheStore.lookup(key)) {
      OwningOpRef<ModuleOp> parsed =
          parseSourceString<ModuleOp>(*hit, ParserConfig(ctx));
      if (parsed && !parsed->getOps<func::FuncOp>().empty()) {
        builder.setInsertionPointToEnd(scratch.getBody());
        best = cast<func::FuncOp>(
            builder.clone(**parsed->getOps<func::FuncOp>().begin()));
        StringRef text = *hit;
        remark = text.take_until([](char c) { return c == '\n'; })
                     .drop_front(3)
                     .str() +
                 " [from the cache in " + cacheStore.directory() + "]";
      }
    }
  }

  if (!best) {
    auto defaultSchedule = cast<func::FuncOp>(original->clone());
    scratch.push_back(defaultSchedule);
    defaultSchedule.setSymName(name + "_default");
    if (failed(convertToKernels(defaultSchedule)))
      return failure();

    SearchOptions options;
    options.maxKernelOps = kernelOps;
    options.maxBlockOps = blockOps;
    options.maxGridDims = gridDims;
    options.gridSizes.assign(gridSizes.begin(), gridSizes.end());
    options.forloopRanges.assign(forloopRanges.begin(), forloopRanges.end());
    options.timeBudgetSeconds = timeBudget;
    options.stateBudget = stateBudget;
    options.pruning = pruning;
    options.verifier.fieldBits = fieldBits;
    options.verifier.seed = seed;
    options.verifier.realTestsFirst = true;
    options.progress = progress ? &llvm::errs() : nullptr;
    options.threadPool = pool;
    if (threadFusion)
      options.finalize = fuseThreadChains;
    FailureOr<SearchResult> result =
        searchMuGraph(defaultSchedule, scratch, gpu, options);
    if (failed(result))
      return failure();
    best = result->best;

    const SearchStats &s = result->stats;
    remark = llvm::formatv(
        "{0} graph op(s) -> {1} kernel(s) ({2} graph-defined), was {3}; "
        "estimated {4:F2} us -> {5:F2} us on {6} ({7:F2}x); search: {8} "
        "states explored, {9} pruned, {10} block graphs, {11} "
        "instantiations costed, {12} candidates verified ({13} "
        "rejected), {14:F2} s search + {15:F2} s verification{16}; "
        "verified: {17}",
        sub.ops.size(), result->kernels, result->graphDefinedKernels,
        result->defaultKernels, result->defaultCostUs, result->costUs, target,
        result->defaultCostUs / result->costUs, s.statesExplored,
        s.statesPruned, s.blockGraphs, s.candidatesCosted,
        s.candidatesVerified, s.candidatesRejected, s.searchSeconds,
        s.verifySeconds,
        s.timeBudgetHit    ? "; time budget reached, best so far kept"
        : s.stateBudgetHit ? "; state budget reached, best so far kept"
                           : "",
        result->verification);

    if (cache) {
      std::string contents = "// " + remark + "\n";
      llvm::raw_string_ostream os(contents);
      best.print(os);
      os << "\n";
      if (llvm::Error err = cacheStore.store(key, contents))
        emitWarning(loc) << "superoptimize: result not cached: "
                         << llvm::toString(std::move(err));
    }
  }

  // Splice the µGraph in place of the subprogram.
  builder.setInsertionPoint(sub.ops.front());
  IRMapping map;
  Block &body = best.getBody().front();
  for (auto [arg, v] : llvm::zip(body.getArguments(), sub.inputs))
    map.map(arg, v);
  for (Operation &op : body.without_terminator()) {
    Operation *clone = builder.clone(op, map);
    clone->setLoc(loc);
  }
  for (auto [v, result] :
       llvm::zip(sub.outputs, body.getTerminator()->getOperands()))
    v.replaceAllUsesWith(map.lookupOrDefault(result));
  for (Operation *op : llvm::reverse(sub.ops))
    op->erase();
  emitRemark(loc) << "superoptimize @" << func.getSymName() << " part "
                  << index << ": " << remark;
  return success();
}

void SuperoptimizePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  llvm::Expected<GpuTarget> gpu = GpuTarget::get(target);
  if (!gpu) {
    module.emitError("superoptimize: ") << llvm::toString(gpu.takeError());
    return signalPassFailure();
  }
  if (!calibration.empty())
    if (llvm::Error err = gpu->applyCalibration(calibration)) {
      module.emitError("superoptimize: ") << llvm::toString(std::move(err));
      return signalPassFailure();
    }
  if (gridDims < 1 || gridDims > 3) {
    module.emitError("superoptimize: grid-dims must be 1, 2 or 3");
    return signalPassFailure();
  }

  // The search threads: MLIR's pool unless threading is off or a count is
  // given.
  std::unique_ptr<llvm::DefaultThreadPool> ownPool;
  llvm::ThreadPoolInterface *pool = nullptr;
  if (ctx->isMultithreadingEnabled() && threads != 1) {
    if (threads == 0) {
      pool = &ctx->getThreadPool();
    } else {
      ownPool = std::make_unique<llvm::DefaultThreadPool>(
          llvm::hardware_concurrency(threads));
      pool = ownPool.get();
    }
  }

  OwningOpRef<ModuleOp> scratch = ModuleOp::create(module.getLoc());
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal())
      continue;
    SmallVector<Subprogram> subs = split(func);
    for (auto [i, sub] : llvm::enumerate(subs))
      if (failed(optimize(func, sub, i, *gpu, *scratch, pool)))
        return signalPassFailure();
    // The ops left outside every subprogram: the default schedule.
    if (failed(convertToKernels(func)))
      return signalPassFailure();
  }
}
