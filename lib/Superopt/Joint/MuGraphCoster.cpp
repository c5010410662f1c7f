//===- MuGraphCoster.cpp - a graph's cost as the µGraph search makes it ---===//

#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Superopt/Joint/Joint.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::joint;
using namespace mirage::superopt;

MuGraphCoster::MuGraphCoster(func::FuncOp prototype, const GpuTarget &gpu,
                             CosterOptions options)
    : prototype(prototype), gpu(gpu), options(std::move(options)) {
  scratch = ModuleOp::create(UnknownLoc::get(prototype.getContext()));
}

MuGraphCoster::~MuGraphCoster() = default;

FailureOr<SmallVector<Segment>>
MuGraphCoster::prepare(const rules::WorkGraph &g, func::FuncOp func,
                       llvm::SmallPtrSet<Operation *, 8> &weightOps) {
  // `func` is a copy of the prototype: the input graph keeps its order.
  if (g.hash() != options.prototypeHash && failed(g.writeInto(func)))
    return failure();
  weightOps.clear();
  for (Operation *op : hoistWeightOps(
           func, [&](unsigned i) { return g.isWeightArgument(i); }))
    weightOps.insert(op);
  return cutSegments(func, options.maxSegmentOps, weightOps,
                     options.search.memoryBudgetBytes);
}

LogicalResult MuGraphCoster::search(Entry &entry, bool verified) {
  SearchOptions searchOptions = options.search;
  searchOptions.verify = verified;
  FailureOr<SearchResult> result =
      searchMuGraph(entry.defaultSchedule, *scratch, gpu, searchOptions);
  if (failed(result)) {
    ++stats.failed;
    return failure();
  }
  const SearchStats &s = result->stats;
  stats.statesExplored += s.statesExplored;
  stats.searchSeconds += s.searchSeconds;
  stats.verifySeconds += s.verifySeconds;
  stats.budgetCut += s.budgetHit();
  if (options.progress) {
    *options.progress << llvm::formatv(
        "[joint] {0} {1}: {2:f2} us{3}, {4} states, {5:f2} s search + {6:f2} "
        "s verification{7}\n",
        verified ? "verified" : "costed", entry.defaultSchedule.getSymName(),
        result->costUs,
        verified && entry.best
            ? llvm::formatv(" (costed {0:f2} us)", entry.timeUs).str()
                 : std::string(),
        s.statesExplored, s.searchSeconds, s.verifySeconds,
        s.budgetHit() ? "; cut: " + s.verificationInterrupted : std::string());
    options.progress->flush();
  }
  if (verified) {
    ++stats.verified;
    stats.verifiedCostlier += result->costUs > entry.timeUs * (1 + 1e-9);
  }
  // The unverified µGraph is not needed any more (nor kept for lowering).
  if (entry.best && entry.best != entry.defaultSchedule)
    entry.best.erase();
  entry.best = result->best;
  entry.timeUs = result->costUs;
  entry.kernels = result->kernels;
  entry.graphDefined = result->graphDefinedKernels;
  entry.verified = result->verified;
  return success();
}

FailureOr<const MuGraphCoster::Entry *>
MuGraphCoster::entryFor(Segment &segment, Need need) {
  MLIRContext *ctx = prototype.getContext();
  Location unknown = UnknownLoc::get(ctx);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(scratch->getBody());
  SmallVector<Type> inTypes, outTypes;
  for (Value v : segment.inputs)
    inTypes.push_back(v.getType());
  for (Value v : segment.outputs)
    outTypes.push_back(v.getType());
  // The subprogram as --superoptimize builds it, anonymous and without
  // locations: its generic form is the memo key, so the same ops on the
  // same types meet the same entry whatever graph they come from.
  auto sub = func::FuncOp::create(b, unknown, "subprogram",
                                  b.getFunctionType(inTypes, outTypes));
  {
    Block *entry = sub.addEntryBlock();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(entry);
    IRMapping map;
    for (auto [v, arg] : llvm::zip(segment.inputs, entry->getArguments()))
      map.map(v, arg);
    for (Operation *op : segment.ops)
      b.clone(*op, map)->setLoc(unknown);
    SmallVector<Value> results;
    for (Value v : segment.outputs)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(b, unknown, results);
  }
  std::string key;
  {
    llvm::raw_string_ostream os(key);
    OpPrintingFlags flags;
    flags.printGenericOpForm();
    sub.print(os, flags);
  }
  auto it = memo.find(key);
  if (it != memo.end()) {
    sub.erase();
    Entry &entry = it->second;
    stats.memoHits += need == Need::Cost;
    if (need == Need::Verified && !entry.verified &&
        failed(search(entry, /*verified=*/true)))
      return failure();
    return &entry;
  }
  if (need == Need::Memo || stats.searches >= options.maxSearches) {
    sub.erase();
    return static_cast<const Entry *>(nullptr);
  }
  ++stats.searches;
  unsigned id = nextId++;
  sub.setSymName(("segment" + Twine(id) + "_default").str());
  if (failed(options.toDefaultSchedule(sub))) {
    sub.erase();
    return failure();
  }
  Entry entry;
  entry.defaultSchedule = sub;
  if (failed(search(entry, need == Need::Verified)))
    return failure();
  return &memo.insert({key, entry}).first->second;
}

FailureOr<std::optional<JointCost>>
MuGraphCoster::costOf(const rules::WorkGraph &g, Need need) {
  OpBuilder b(prototype.getContext());
  b.setInsertionPointToEnd(scratch->getBody());
  auto func = cast<func::FuncOp>(b.clone(*prototype));
  func.setSymName(("candidate" + Twine(nextId++)).str());
  llvm::scope_exit cleanup([&] { func.erase(); });
  llvm::SmallPtrSet<Operation *, 8> weightOps;
  FailureOr<SmallVector<Segment>> segments = prepare(g, func, weightOps);
  if (failed(segments))
    return failure();
  JointCost cost;
  llvm::SmallPtrSet<Operation *, 16> inSegment;
  for (Segment &segment : *segments) {
    FailureOr<const Entry *> entry = entryFor(segment, need);
    if (failed(entry))
      return failure();
    if (!*entry) {
      ++stats.refused;
      return std::optional<JointCost>();
    }
    cost.timeUs += (*entry)->timeUs;
    cost.kernels += (*entry)->kernels;
    cost.graphDefined += (*entry)->graphDefined;
    ++cost.segments;
    inSegment.insert(segment.ops.begin(), segment.ops.end());
  }
  cost.timeWithWeightOpsUs = cost.timeUs;
  // The ops outside every segment run as their predefined kernels; those on
  // weights only are folded before the run.
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (inSegment.contains(&op))
      continue;
    llvm::Expected<KernelCost> c = estimateKernel(&op, gpu);
    if (!c)
      return op.emitError("joint-optimize: ")
             << llvm::toString(c.takeError());
    cost.timeWithWeightOpsUs += c->timeUs;
    if (weightOps.contains(&op))
      continue;
    cost.timeUs += c->timeUs;
    cost.kernels += c->bound != "free";
  }
  return std::optional<JointCost>(cost);
}

FailureOr<std::optional<JointCost>>
MuGraphCoster::evaluate(const rules::WorkGraph &g) {
  return costOf(g, Need::Cost);
}

FailureOr<std::optional<JointCost>>
MuGraphCoster::verify(const rules::WorkGraph &g) {
  return costOf(g, Need::Verified);
}

LogicalResult MuGraphCoster::lower(const rules::WorkGraph &g,
                                   func::FuncOp func) {
  llvm::SmallPtrSet<Operation *, 8> weightOps;
  FailureOr<SmallVector<Segment>> segments = prepare(g, func, weightOps);
  if (failed(segments))
    return failure();
  for (Segment &segment : *segments) {
    // Earlier segments were replaced by their µGraphs: read their values.
    computeBoundary(segment);
    FailureOr<const Entry *> entry = entryFor(segment, Need::Memo);
    if (failed(entry))
      return failure();
    if (!*entry || !(*entry)->verified)
      return segment.ops.front()->emitError(
          "joint-optimize: no verified µGraph was searched for this segment");
    // As --superoptimize splices: at the segment's last op.
    spliceSubprogram(segment, (*entry)->best, segment.ops.front()->getLoc());
  }
  return options.toDefaultSchedule(func);
}
