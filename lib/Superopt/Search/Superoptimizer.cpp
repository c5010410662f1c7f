//===- Superoptimizer.cpp - kernel-level search, ranking, verification ----===//

#include "mirage/Superopt/Search/Superoptimizer.h"
#include "BlockGraphSearch.h"
#include "Formulations.h"
#include "SearchTarget.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <mutex>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

namespace {

using Clock = std::chrono::steady_clock;
static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// A value to produce and the tensors its kernel may read, as a bit set of
/// target value indices.
using GoalKey = std::pair<unsigned, uint64_t>;

/// One graph-defined kernel for a goal, ranked by estimated time.
struct KernelOption {
  double costUs;
  BlockGraph graph;
  GridChoice grid;
  bool verified = false, rejected = false;
  std::string report;
};

struct GoalResult {
  std::vector<KernelOption> options; // cheapest first
  KernelOption *best() {
    for (KernelOption &o : options)
      if (!o.rejected)
        return &o;
    return nullptr;
  }
};

/// Complete block-graph structures among `graphs`: the copies saving a
/// second output (BlockGraph::secondTile) are variants of one of them.
static size_t structures(ArrayRef<BlockGraph> graphs) {
  return llvm::count_if(graphs,
                        [](const BlockGraph &g) { return g.secondTile < 0; });
}

/// One block-level search task: a goal and a for-loop choice. Its results
/// are those of its last run (budget rounds rerun it with a larger share).
struct Task {
  GoalKey key;
  int loopVar = -1;
  /// Values the goal's kernel may save too (BlockGoal::pairWith).
  SmallVector<unsigned> pairWith;
  /// A goal no materialization needs but for a kernel with two outputs.
  bool pairOnly = false;
  SmallVector<BlockGraph> graphs; // found by the last run
  std::vector<KernelOption> options;
  /// The cheapest few with a second output, per second goal.
  std::map<unsigned, std::vector<KernelOption>> pairOptions;
  BlockSearchCounts counts;
  uint64_t costed = 0;
  bool costingCut = false; // the deadline stopped the costing
  double seconds = 0;
};

/// The search of one formulation of a subprogram: the program as written,
/// or one the kernel-level enumeration found (Formulations.h). Every µGraph
/// it emits is verified against `reference`, the default schedule of the
/// program as written, whichever formulation it starts from.
class Superoptimizer {
public:
  Superoptimizer(func::FuncOp defaultSchedule, func::FuncOp reference,
                 ModuleOp scratch, const GpuTarget &gpu,
                 const SearchOptions &options, SearchTarget target,
                 std::map<unsigned, SmallVector<RealTensor>> *referenceOutputs)
      : defaultSchedule(defaultSchedule), reference(reference),
        scratch(scratch), gpu(gpu), options(options), t(std::move(target)),
        referenceOutputs(referenceOutputs) {}

  /// The enumeration and the costing; then estimatedUs() is the cheapest
  /// µGraph's estimate before any verification and thread fusion
  /// (rejections only remove options, so verification never lowers it).
  LogicalResult search();
  double estimatedUs() const { return estimate; }
  /// The cheapest µGraph that verifies. For another formulation than the
  /// reference's, `best` is null when none does (its own predefined kernels
  /// included).
  FailureOr<SearchResult> choose();
  const SearchStats &searchStats() const { return stats; }
  /// Whether the wall-clock safety limit cut this search so far.
  bool timeLimitHit() const { return deadline.hit || enumerationDeadline.hit; }

private:
  struct Choice {
    double cost;
    uint64_t materialized;
    DenseMap<unsigned, KernelOption *> chosen;
  };
  Choice pickCheapest();
  /// The cheapest kernels for the values of `m` outside `covered` with at
  /// most `capacity` graph-defined kernels (under a limit on them); their
  /// total and choices, or nothing when some value has no kernel.
  std::optional<std::pair<double, DenseMap<unsigned, KernelOption *>>>
  assignKernels(uint64_t m, uint64_t covered, unsigned capacity);
  uint64_t availableFor(unsigned v, uint64_t m) const;
  SmallVector<unsigned> pairsIn(uint64_t m, unsigned v) const;
  SmallVector<std::pair<GoalKey, GoalKey>> sidePairsIn(uint64_t m) const;
  void costSidePairs();
  bool isReference() const { return defaultSchedule == reference; }

  uint64_t bit(unsigned i) const { return uint64_t(1) << i; }
  void enumerateTask(Task &task, const TaskLimits &limits);
  void costTask(Task &task);
  uint64_t runTasks(std::vector<Task> &tasks, uint64_t budget);
  template <typename F> void forEachTask(ArrayRef<Task *> tasks, F &&f);
  LogicalResult verifyOption(unsigned goal, uint64_t available,
                             KernelOption &option);
  func::FuncOp buildFunction(StringRef name, uint64_t materialized,
                             const DenseMap<unsigned, KernelOption *> &chosen);

  func::FuncOp defaultSchedule, reference;
  ModuleOp scratch;
  const GpuTarget &gpu;
  const SearchOptions &options;
  SearchTarget t;
  /// The reference's outputs, computed once for every formulation.
  std::map<unsigned, SmallVector<RealTensor>> *referenceOutputs;

  Clock::time_point start;
  double defaultCostUs = 0, estimate = 0;
  int64_t defaultKernels = 0;
  uint64_t outputs = 0, inner = 0, args = 0;
  SmallVector<uint64_t> materializations, operandSets;
  /// Per value, the values that depend on it (bit set).
  SmallVector<uint64_t> descendants;
  /// Per materialization (index in `materializations`), the kernels with
  /// two outputs that could stand for two of its values: (u, v, options).
  struct PairSite {
    unsigned u, v;
    GoalResult *options;
  };
  std::vector<SmallVector<PairSite, 1>> pairSites;
  std::map<GoalKey, GoalResult> goals;
  /// Kernels with two outputs: (goal, frontier, second goal).
  std::map<std::tuple<unsigned, uint64_t, unsigned>, GoalResult> pairGoals;
  /// Kernels computing two independent values: (first goal, second goal).
  std::map<std::pair<GoalKey, GoalKey>, GoalResult> sideGoals;

  SmallVector<double> predefinedUs; // per value: its default kernel
  /// The time limit, and the half of it the enumeration may take (the
  /// rest is left to costing and verification).
  SearchDeadline deadline, enumerationDeadline;
  /// The caller's verifier options, bounded by the search's own time limit
  /// and memory budget (a verification under way stops with them).
  VerifierOptions verifierOptions;
  std::mutex progressMutex;
  SearchStats stats;
};

} // namespace

void Superoptimizer::enumerateTask(Task &task, const TaskLimits &limits) {
  auto start = Clock::now();
  BlockGoal goal;
  goal.goal = task.key.first;
  for (unsigned i = 0; i < t.values.size(); ++i)
    if (task.key.second & bit(i))
      goal.available.push_back(i);
  goal.loopVar = task.loopVar;
  goal.pairWith = task.pairWith;

  task.graphs.clear();
  task.counts = {};
  enumerateBlockGraphs(t, goal, options, limits, task.graphs, task.counts);
  task.seconds = secondsSince(start);
}

/// Instantiates every structure the task's last run found on every grid and
/// loop range and keeps the cheapest few.
void Superoptimizer::costTask(Task &task) {
  auto start = Clock::now();
  // Instantiate every structure on every grid and rank by the cost model.
  // Each task builds in a module of its own: threads never share IR.
  MLIRContext *ctx = scratch.getContext();
  Location loc = t.func.getLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> types;
  for (const TargetValue &tv : t.values)
    types.push_back(tv.value.getType());
  auto holder = func::FuncOp::create(builder, loc, "holder",
                                     builder.getFunctionType(types, {}));
  Block *entry = holder.addEntryBlock();
  builder.setInsertionPointToEnd(entry);

  // The cheapest few, cheapest first; among equal costs the first in
  // enumeration order, so the choice does not depend on the thread schedule.
  // Graphs with a second output are kept apart, per second goal: they
  // compete with the pair of kernels they replace, not with these.
  auto operand = [&](unsigned i) { return entry->getArgument(i); };
  /// The cost of `op` (then erased); nothing when over a limit of the
  /// target (shared memory, registers).
  auto costOf = [&](Operation *op) -> std::optional<double> {
    ++task.costed;
    llvm::Expected<KernelCost> cost = estimateKernel(op, gpu);
    op->erase();
    if (!cost) {
      llvm::consumeError(cost.takeError());
      return std::nullopt;
    }
    return cost->timeUs;
  };
  for (const BlockGraph &graph : task.graphs) {
    std::vector<KernelOption> &kept =
        graph.secondTile < 0 ? task.options
                             : task.pairOptions[graph.secondGoal];
    // The best combining kernel of a split into p parts, found once per p:
    // it does not depend on the partial kernel's grid.
    std::map<int64_t, std::optional<std::pair<double, GridChoice>>> combines;
    for (GridChoice &grid : gridChoices(t, graph, options)) {
      if (deadline.expired()) {
        task.costingCut = true;
        break;
      }
      std::optional<double> cost;
      if (grid.splitParts == 1) {
        cost = costOf(buildGraphDef(builder, loc, t, graph, grid, operand));
      } else {
        Operation *partial =
            buildPartialKernel(builder, loc, t, graph, grid, operand);
        auto found = combines.find(grid.splitParts);
        if (found == combines.end()) {
          std::optional<std::pair<double, GridChoice>> best;
          for (GridChoice &c : combineChoices(t, graph, options)) {
            c.splitParts = grid.splitParts;
            std::optional<double> k2 = costOf(buildCombineKernel(
                builder, loc, t, graph, c, partial->getResults()));
            if (k2 && (!best || *k2 < best->first))
              best = std::make_pair(*k2, c);
          }
          found = combines.try_emplace(grid.splitParts, best).first;
        }
        cost = costOf(partial);
        if (!found->second)
          cost.reset();
        if (cost) {
          *cost += found->second->first;
          grid.combineVars = found->second->second.combineVars;
          grid.combineSizes = found->second->second.combineSizes;
        }
      }
      if (!cost)
        continue;
      if (kept.size() == options.keptPerTask && !(*cost < kept.back().costUs))
        continue;
      auto at = llvm::upper_bound(kept, *cost,
                                  [](double c, const KernelOption &o) {
                                    return c < o.costUs;
                                  });
      kept.insert(at, KernelOption{*cost, graph, grid});
      if (kept.size() > options.keptPerTask)
        kept.pop_back();
    }
  }

  if (options.progress) {
    std::lock_guard<std::mutex> lock(progressMutex);
    const BlockSearchCounts &c = task.counts;
    *options.progress << llvm::formatv(
        "[superoptimize] goal %{0} from {1} tensors, loop {2}: {3} states "
        "({4} pruned), {5} block graphs, {6} instantiations, best {7} us, "
        "{8:F2} s{9}\n",
        task.key.first, llvm::popcount(task.key.second),
        task.loopVar < 0 ? std::string("none")
                         : "over " + std::to_string(t.varExtent[task.loopVar]),
        c.explored, c.pruned, structures(task.graphs), task.costed,
        task.options.empty() ? std::string("-")
                             : llvm::formatv("{0:F2}", task.options[0].costUs).str(),
        task.seconds + secondsSince(start),
        c.stateCapHit     ? " (state share spent)"
        : c.memoryCapHit  ? " (memory share spent)"
        : c.deadlineHit || task.costingCut ? " (time limit)"
                                           : "");
  }
}

/// Runs every block-level task within the state budget, in rounds: each
/// round runs the unfinished tasks with an equal share of what the finished
/// ones left; a task that spends its share is rerun from its start in the
/// next round with the larger share, until every task finishes or the
/// share would grow by less than a quarter. Every share and every task's
/// outcome depend only on the counts, never on time or on which thread ran
/// what, so the result is the same with any number of threads.
/// Returns the states the tasks' last runs explored (what they took of
/// `budget`).
uint64_t Superoptimizer::runTasks(std::vector<Task> &tasks, uint64_t budget) {
  stats.tasks += tasks.size();
  if (tasks.empty())
    return 0;
  unsigned concurrency =
      options.threadPool
          ? std::max(1, static_cast<int>(options.threadPool->getMaxConcurrency()))
          : 1;
  TaskLimits limits;
  limits.deadline = &enumerationDeadline;
  // The tasks running at once share the memory budget.
  limits.maxBytes = std::max<uint64_t>(1, options.memoryBudgetBytes / concurrency);
  limits.maxStates = std::max<uint64_t>(1, budget / tasks.size());

  std::vector<Task *> pending;
  for (Task &task : tasks)
    pending.push_back(&task);
  uint64_t finishedStates = 0;
  while (true) {
    ++stats.rounds;
    forEachTask(pending, [&](Task &task) { enumerateTask(task, limits); });
    std::vector<Task *> next;
    for (Task *task : pending) {
      if (task->counts.stateCapHit)
        next.push_back(task);
      else
        finishedStates += task->counts.explored;
    }
    if (!next.empty() || !stats.stateShare)
      stats.stateShare = limits.maxStates;
    if (next.empty() || enumerationDeadline.expired())
      break;
    uint64_t left = budget > finishedStates ? budget - finishedStates : 0;
    uint64_t share = left / next.size();
    // A round must grow the share by a quarter (and by one state at least),
    // so the rounds end.
    if (share < limits.maxStates + std::max<uint64_t>(1, limits.maxStates / 4))
      break; // the budget binds: the cut tasks keep what they found
    for (Task *task : next)
      stats.statesRepeated += task->counts.explored;
    limits.maxStates = share;
    pending = std::move(next);
  }
  // Cost what each task's last run found, once.
  std::vector<Task *> all;
  uint64_t used = 0;
  for (Task &task : tasks) {
    all.push_back(&task);
    used += task.counts.explored;
  }
  forEachTask(all, [&](Task &task) { costTask(task); });
  return used;
}

/// Runs f on every task, on the thread pool if there is one; each task's
/// results are its own, so the order they run in does not matter.
template <typename F>
void Superoptimizer::forEachTask(ArrayRef<Task *> tasks, F &&f) {
  if (options.threadPool && tasks.size() > 1) {
    llvm::ThreadPoolTaskGroup group(*options.threadPool);
    for (Task *task : tasks)
      group.async([&f, task] { f(*task); });
    group.wait();
    return;
  }
  for (Task *task : tasks)
    f(*task);
}

/// The ops of the default schedule that compute `goals` from `available`,
/// as a function of the available tensors it reads.
static func::FuncOp sliceFunction(const SearchTarget &t, ModuleOp scratch,
                                  StringRef name, ArrayRef<unsigned> goals,
                                  uint64_t available,
                                  SmallVectorImpl<unsigned> &args) {
  // Walk back from the goals, stopping at available tensors.
  SmallVector<bool> inSlice(t.values.size(), false), isArg(t.values.size(), false);
  SmallVector<unsigned> stack(goals);
  while (!stack.empty()) {
    unsigned v = stack.pop_back_val();
    if (inSlice[v] || isArg[v])
      continue;
    if (!llvm::is_contained(goals, v) && (available >> v & 1)) {
      isArg[v] = true;
      continue;
    }
    inSlice[v] = true;
    for (Value operand : t.values[v].producer->getOperands())
      stack.push_back(t.indexOf.lookup(operand));
  }
  SmallVector<Type> argTypes;
  for (unsigned v = 0; v < t.values.size(); ++v)
    if (isArg[v]) {
      args.push_back(v);
      argTypes.push_back(t.values[v].value.getType());
    }
  OpBuilder builder(scratch.getContext());
  builder.setInsertionPointToEnd(scratch.getBody());
  Location loc = t.values[goals.front()].value.getLoc();
  SmallVector<Type> resultTypes;
  for (unsigned goal : goals)
    resultTypes.push_back(t.values[goal].value.getType());
  auto func = func::FuncOp::create(
      builder, loc, name, builder.getFunctionType(argTypes, resultTypes));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  IRMapping map;
  for (auto [i, v] : llvm::enumerate(args))
    map.map(t.values[v].value, entry->getArgument(i));
  for (unsigned v = 0; v < t.values.size(); ++v)
    if (inSlice[v])
      builder.clone(*t.values[v].producer, map);
  SmallVector<Value> results;
  for (unsigned goal : goals)
    results.push_back(map.lookup(t.values[goal].value));
  func::ReturnOp::create(builder, loc, results);
  return func;
}

LogicalResult Superoptimizer::verifyOption(unsigned goal, uint64_t available,
                                           KernelOption &option) {
  auto start = Clock::now();
  SmallVector<unsigned> args, goalValues{goal};
  if (option.graph.secondTile >= 0)
    goalValues.push_back(option.graph.secondGoal);
  std::string base = (t.func.getSymName() + "_goal" + Twine(goal)).str();
  func::FuncOp reference = sliceFunction(t, scratch, base + "_reference",
                                         goalValues, available, args);
  OpBuilder builder(scratch.getContext());
  builder.setInsertionPointToEnd(scratch.getBody());
  Location loc = t.values[goal].value.getLoc();
  auto candidate = func::FuncOp::create(builder, loc, base + "_candidate",
                                        reference.getFunctionType());
  Block *entry = candidate.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  SmallVector<Value, 2> built = buildKernels(
      builder, loc, t, option.graph, option.grid, [&](unsigned v) -> Value {
        return entry->getArgument(llvm::find(args, v) - args.begin());
      });
  func::ReturnOp::create(builder, loc, built);

  FailureOr<VerificationReport> report =
      verifyEquivalence(reference, candidate, verifierOptions);
  reference.erase();
  candidate.erase();
  stats.verifySeconds += secondsSince(start);
  if (failed(report))
    return failure();
  stats.candidatesVerified += !report->interrupted;
  if (report->interrupted) {
    // Not verified: never used, but not counted as rejected either.
    stats.verificationInterrupted = *report->interrupted;
    option.rejected = true;
  } else if (!report->equivalent) {
    ++stats.candidatesRejected;
    option.rejected = true;
  } else {
    option.verified = true;
    option.report = report->summary();
  }
  if (options.progress) {
    std::lock_guard<std::mutex> lock(progressMutex);
    *options.progress << "[superoptimize] verified a kernel for %" << goal
                      << ": "
                      << (report->equivalent     ? "equivalent"
                          : report->interrupted ? "interrupted"
                                                : "REJECTED")
                      << " (" << report->summary() << ")\n";
  }
  return success();
}

func::FuncOp
Superoptimizer::buildFunction(StringRef name, uint64_t materialized,
                              const DenseMap<unsigned, KernelOption *> &chosen) {
  OpBuilder builder(scratch.getContext());
  builder.setInsertionPointToEnd(scratch.getBody());
  auto func = cast<func::FuncOp>(builder.clone(*defaultSchedule));
  func.setSymName(name);
  // Map target values to the clone's.
  SmallVector<Value> cloned;
  Block &body = func.getBody().front();
  for (BlockArgument arg : body.getArguments())
    cloned.push_back(arg);
  for (Operation &op : body.without_terminator())
    cloned.push_back(op.getResult(0));

  for (unsigned v = t.numArguments; v < t.values.size(); ++v) {
    auto it = chosen.find(v);
    if (!(materialized >> v & 1) || it == chosen.end())
      continue;
    Operation *producer = cloned[v].getDefiningOp();
    builder.setInsertionPoint(producer);
    const BlockGraph &graph = it->second->graph;
    SmallVector<Value, 2> built =
        buildKernels(builder, producer->getLoc(), t, graph, it->second->grid,
                     [&](unsigned i) { return cloned[i]; });
    cloned[v].replaceAllUsesWith(built[0]);
    cloned[v] = built[0];
    if (graph.secondTile >= 0) {
      unsigned u = graph.secondGoal;
      cloned[u].replaceAllUsesWith(built[1]);
      cloned[u] = built[1];
    }
  }
  // A kernel with two outputs sits where its (first) goal was: the readers
  // of its second output that came before it, and for two values side by
  // side the producers of the second one's operands, change places with it.
  // An order exists: pairsIn keeps the kernel's operands independent of its
  // second output, sidePairsIn pairs only values independent of each
  // other.
  bool sorted = sortTopologically(&body);
  assert(sorted && "kernels with two outputs leave no cycle");
  (void)sorted;
  // Drop the predefined kernels nothing reads any more.
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty())
      op->erase();
  return func;
}

LogicalResult Superoptimizer::search() {
  start = Clock::now();
  auto after = [&](double seconds) {
    return start + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(seconds));
  };
  deadline.at = after(options.timeLimitSeconds);
  enumerationDeadline.at = after(options.timeLimitSeconds / 2);
  verifierOptions = options.verifier;
  verifierOptions.shouldStop = [this, outer = options.verifier.shouldStop] {
    return (outer && outer()) || deadline.expired();
  };
  if (options.memoryBudgetBytes &&
      (!verifierOptions.memoryLimitBytes ||
       options.memoryBudgetBytes < verifierOptions.memoryLimitBytes))
    verifierOptions.memoryLimitBytes = options.memoryBudgetBytes;
  unsigned n = t.values.size();
  if (n > 64)
    return emitError(t.func.getLoc())
           << "µGraph search: subprogram has more than 64 values";

  // The cost of each value's predefined kernel.
  predefinedUs.assign(n, 0);
  for (unsigned v = t.numArguments; v < n; ++v) {
    Operation *producer = t.values[v].producer;
    llvm::Expected<KernelCost> cost = estimateKernel(producer, gpu);
    if (!cost)
      return emitError(producer->getLoc())
             << "µGraph search: cannot estimate the default kernel: "
             << llvm::toString(cost.takeError());
    predefinedUs[v] = cost->timeUs;
  }
  llvm::Expected<FunctionCost> defaultCost =
      estimateFunction(defaultSchedule, gpu);
  if (!defaultCost)
    return emitError(t.func.getLoc()) << llvm::toString(defaultCost.takeError());
  defaultCostUs = defaultCost->timeUs;
  defaultKernels = defaultCost->kernels;

  args = bit(t.numArguments) - 1;
  for (unsigned v = t.numArguments; v < n; ++v)
    (t.values[v].isOutput ? outputs : inner) |= bit(v);
  // A size-1 reshape is a free view, not a choice: it is materialized
  // (its predefined kernel, a view) exactly when its input is readable, and
  // otherwise computed by the kernels that read through it (their tiles
  // take its layout).
  SmallVector<unsigned> innerValues, views;
  for (unsigned v = t.numArguments; v < n; ++v)
    if (inner >> v & 1)
      (isUnitDimReshape(t.values[v].producer) ? views : innerValues)
          .push_back(v);
  auto withViews = [&](uint64_t m) {
    for (unsigned v : views) // in program order: chains of views follow
      if ((args | m) >> t.indexOf.lookup(t.values[v].producer->getOperand(0)) &
          1)
        m |= bit(v);
    return m;
  };
  uint64_t viewBits = 0;
  for (unsigned v : views)
    viewBits |= bit(v);
  if (innerValues.size() > 20)
    return emitError(t.func.getLoc())
           << "µGraph search: subprogram too large (" << innerValues.size()
           << " inner values; split it)";

  // Kernel-level choices: which values to materialize. Each materialized
  // value is one kernel reading the arguments and the earlier materialized
  // values it depends on.
  // Mirage counts its input ops as kernel-graph ops (preset=mirage-limits).
  unsigned kernelOpLimit = options.maxKernelOps;
  if (options.kernelOpsCountInputs)
    kernelOpLimit = kernelOpLimit > t.numArguments
                        ? kernelOpLimit - t.numArguments
                        : 0;
  for (uint64_t s = 0; s < (uint64_t(1) << innerValues.size()); ++s) {
    uint64_t m = outputs;
    for (auto [i, v] : llvm::enumerate(innerValues))
      if (s >> i & 1)
        m |= bit(v);
    m = withViews(m);
    // Opaque values (softmax) come only from their predefined kernel, or
    // are folded by their consumers' block graphs (an online softmax).
    bool opaqueKept = llvm::all_of(innerValues, [&](unsigned v) {
      return !t.values[v].opaque || t.values[v].foldable || (m >> v & 1);
    });
    if (opaqueKept &&
        (static_cast<unsigned>(llvm::popcount(m & ~viewBits)) <=
             kernelOpLimit ||
         m == (outputs | inner)))
      materializations.push_back(m);
  }
  operandSets.assign(n, 0);
  SmallVector<uint64_t> ancestors(n, 0);
  for (unsigned v = t.numArguments; v < n; ++v)
    for (Value operand : t.values[v].producer->getOperands()) {
      unsigned u = t.indexOf.lookup(operand);
      operandSets[v] |= bit(u);
      ancestors[v] |= bit(u) | ancestors[u];
    }
  descendants.assign(n, 0);
  for (unsigned v = 0; v < n; ++v)
    for (unsigned u = 0; u < n; ++u)
      if (ancestors[v] >> u & 1)
        descendants[u] |= bit(v);

  // The goals: every materialized value from its frontier, and, for two
  // outputs, v from the frontier it has when a value u it reads is not
  // materialized, saving u too (pairsIn).
  std::map<GoalKey, SmallVector<unsigned>> goalPairs;
  std::set<GoalKey> ownGoals;
  for (uint64_t m : materializations)
    for (unsigned v = t.numArguments; v < n; ++v) {
      if (!(m >> v & 1))
        continue;
      goalPairs.try_emplace({v, availableFor(v, m)});
      ownGoals.insert({v, availableFor(v, m)});
      for (unsigned u : pairsIn(m, v)) {
        SmallVector<unsigned> &with =
            goalPairs[{v, availableFor(v, m & ~bit(u))}];
        if (!llvm::is_contained(with, u))
          with.push_back(u);
      }
    }
  // One block-level task per distinct goal and loop choice, in the order of
  // the goals (value, then frontier), so the tasks do not depend on the
  // order the materializations were met in.
  std::vector<Task> tasks;
  for (auto &[key, pairWith] : goalPairs) {
    unsigned v = key.first;
    llvm::sort(pairWith);
    if (!goals.try_emplace(key).second || t.values[v].opaque)
      continue;
    SmallVector<int> loops{-1};
    for (unsigned u = 0; u < n; ++u)
      if (key.second >> u & 1)
        for (int var : t.values[u].vars)
          if (var >= 0 && t.varReduced[var] &&
              !llvm::is_contained(t.values[v].vars, var) &&
              !llvm::is_contained(loops, var))
            loops.push_back(var);
    for (int loop : loops) {
      tasks.emplace_back();
      tasks.back().key = key;
      tasks.back().loopVar = loop;
      tasks.back().pairWith = pairWith;
      tasks.back().pairOnly = !ownGoals.count(key);
    }
  }

  // Small goals first: they are cheap and their results are needed by most
  // materializations.
  std::stable_sort(tasks.begin(), tasks.end(), [](const Task &a, const Task &b) {
    return llvm::popcount(a.key.second) < llvm::popcount(b.key.second);
  });
  // Costing only: when the verification of any µGraph would be refused at
  // once, the floating-point runs of the default schedule being over the
  // memory limit (the check FloatChecks.cpp makes first, on the default
  // schedule alone), the verified search keeps the default schedule
  // whatever it finds; so does this one, and the cost it gives is the
  // verified one. It also spares the enumeration. (Not with verification on
  // fewer slices, whose smaller instance may fit: that search may verify.)
  if (!options.verify && !verifierOptions.reduceUniformDimension) {
    uint64_t limit = verifierOptions.memoryLimitBytes
                         ? verifierOptions.memoryLimitBytes
                         : physicalMemoryBytes();
    uint64_t need = estimatePeakBytes(defaultSchedule, kRealElementBytes);
    if (need > limit) {
      tasks.clear();
      stats.verificationInterrupted = llvm::formatv(
          "over the memory limit: the floating-point runs of '{0}' need "
          "about {1}, more than the memory limit of {2}",
          defaultSchedule.getSymName(), formatByteCount(need),
          formatByteCount(limit));
    }
  }
  // The goals every materialization needs first, with the whole budget, as
  // if there were no kernels with two outputs; then the goals only those
  // need, with what the first left. So a budget that binds never makes a
  // search worse than it was with one output per kernel.
  {
    auto firstPair = std::stable_partition(
        tasks.begin(), tasks.end(), [](const Task &t) { return !t.pairOnly; });
    std::vector<Task> pairTasks(std::make_move_iterator(firstPair),
                                std::make_move_iterator(tasks.end()));
    tasks.erase(firstPair, tasks.end());
    uint64_t used = runTasks(tasks, options.stateBudget);
    uint64_t left = options.stateBudget > used ? options.stateBudget - used : 0;
    if (left < pairTasks.size()) {
      stats.pairTasksNotRun = pairTasks.size();
      pairTasks.clear();
    }
    unsigned ownTasks = stats.tasks;
    uint64_t ownShare = stats.stateShare;
    stats.stateShare = 0;
    runTasks(pairTasks, left);
    stats.pairTasks = stats.tasks - ownTasks;
    stats.pairStateShare = stats.stateShare;
    stats.tasks = ownTasks;
    stats.stateShare = ownShare;
    for (Task &task : pairTasks)
      tasks.push_back(std::move(task));
  }
  // Merged in task order (fixed above), whatever order the threads ran in.
  for (Task &task : tasks) {
    stats.statesExplored += task.counts.explored;
    stats.statesPruned += task.counts.pruned;
    stats.blockGraphs += structures(task.graphs);
    stats.candidatesCosted += task.costed;
    (task.pairOnly ? stats.pairTasksCut : stats.tasksCutByStates) +=
        task.counts.stateCapHit;
    stats.tasksCutByMemory += task.counts.memoryCapHit;
    stats.peakTaskBytes = std::max(stats.peakTaskBytes, task.counts.peakBytes);
    auto &opts = goals[task.key].options;
    for (KernelOption &o : task.options)
      opts.push_back(std::move(o));
    for (auto &[u, options] : task.pairOptions) {
      auto &pairOpts = pairGoals[{task.key.first, task.key.second, u}].options;
      for (KernelOption &o : options)
        pairOpts.push_back(std::move(o));
    }
  }
  auto byCost = [](const KernelOption &a, const KernelOption &b) {
    return a.costUs < b.costUs;
  };
  for (auto &[key, goal] : goals)
    std::stable_sort(goal.options.begin(), goal.options.end(), byCost);
  for (auto &[key, goal] : pairGoals)
    std::stable_sort(goal.options.begin(), goal.options.end(), byCost);
  costSidePairs();
  // Where a kernel with two outputs could stand for two values' kernels.
  pairSites.assign(materializations.size(), {});
  auto hasOptions = [](auto &entry) { return !entry.second.options.empty(); };
  if (llvm::any_of(pairGoals, hasOptions))
    for (auto [i, m] : llvm::enumerate(materializations))
      for (unsigned v = t.numArguments; v < n; ++v) {
        if (!(m >> v & 1))
          continue;
        for (unsigned u : pairsIn(m, v)) {
          auto it = pairGoals.find({v, availableFor(v, m & ~bit(u)), u});
          if (it != pairGoals.end() && !it->second.options.empty())
            pairSites[i].push_back({u, v, &it->second});
        }
      }
  if (llvm::any_of(sideGoals, hasOptions))
    for (auto [i, m] : llvm::enumerate(materializations))
      for (auto &keys : sidePairsIn(m)) {
        auto it = sideGoals.find(keys);
        if (it != sideGoals.end() && !it->second.options.empty())
          pairSites[i].push_back(
              {keys.second.first, keys.first.first, &it->second});
      }
  stats.searchSeconds = secondsSince(start);
  estimate = pickCheapest().cost;
  return success();
}

/// The tensors a kernel producing v may read under materialization m: the
/// frontier of v's ancestors, where a walk back from v stops at each
/// argument or materialized value. An argument whose every path to v runs
/// through a materialized value is left out: the kernel would only
/// recompute that value, which reading it does for less (the
/// materialization without it covers the recomputation).
uint64_t Superoptimizer::availableFor(unsigned v, uint64_t m) const {
  uint64_t readable = args | m, frontier = 0;
  uint64_t pending = operandSets[v];
  for (int u = int(v) - 1; u >= 0; --u) {
    if (!(pending >> u & 1))
      continue;
    if (readable >> u & 1)
      frontier |= bit(u);
    else
      pending |= operandSets[u];
  }
  return frontier;
}

/// The values u of `m` that v's kernel may save too (docs/Search.md, "Two
/// outputs"): v reads u (u is on its frontier), so with u not materialized
/// v's kernel computes u on its way, and no tensor that kernel would then
/// read depends on u (which it would have to wait for). Views, opaque
/// values and arguments are never second outputs.
SmallVector<unsigned> Superoptimizer::pairsIn(uint64_t m, unsigned v) const {
  SmallVector<unsigned> pairs;
  if (options.maxKernelOutputs < 2 || t.values[v].opaque)
    return pairs;
  uint64_t frontier = availableFor(v, m);
  for (unsigned u = t.numArguments; u < v; ++u) {
    if (!(frontier >> u & 1) || t.values[u].opaque ||
        isUnitDimReshape(t.values[u].producer))
      continue;
    if (!(availableFor(v, m & ~bit(u)) & descendants[u]))
      pairs.push_back(u);
  }
  return pairs;
}

/// Pairs of values of `m` one kernel may compute side by side: independent
/// (neither depends on the other), both searched as graph-defined kernels,
/// and reading a tensor in common (which the kernel then loads once); as
/// their goals (value, frontier), the first one earlier in the program.
SmallVector<std::pair<GoalKey, GoalKey>>
Superoptimizer::sidePairsIn(uint64_t m) const {
  SmallVector<std::pair<GoalKey, GoalKey>> pairs;
  if (options.maxKernelOutputs < 2)
    return pairs;
  auto searched = [&](unsigned v) {
    return (m >> v & 1) && !t.values[v].opaque &&
           !isUnitDimReshape(t.values[v].producer);
  };
  for (unsigned v1 = t.numArguments; v1 < t.values.size(); ++v1) {
    if (!searched(v1))
      continue;
    uint64_t a1 = availableFor(v1, m);
    for (unsigned v2 = v1 + 1; v2 < t.values.size(); ++v2) {
      if (!searched(v2) || (descendants[v1] >> v2 & 1))
        continue;
      uint64_t a2 = availableFor(v2, m);
      if (a1 & a2)
        pairs.push_back({{v1, a1}, {v2, a2}});
    }
  }
  return pairs;
}

/// Kernels computing two independent values side by side: for the first
/// `kMaxSidePairs` pairs of goals (in goal order) any materialization
/// offers, the cheapest block graph of each goal per loop choice, combined
/// (combineGraphs) and costed on every grid over the variables both
/// values have, like a task's graphs.
void Superoptimizer::costSidePairs() {
  constexpr size_t kMaxSidePairs = 32;
  std::set<std::pair<GoalKey, GoalKey>> keyPairs;
  for (uint64_t m : materializations)
    for (auto &keys : sidePairsIn(m)) {
      auto g1 = goals.find(keys.first), g2 = goals.find(keys.second);
      if (g1 != goals.end() && g2 != goals.end() &&
          !g1->second.options.empty() && !g2->second.options.empty())
        keyPairs.insert(keys);
    }
  // The cheapest graph of a goal per loop choice (options are sorted).
  auto bestPerLoop = [](const GoalResult &goal) {
    SmallVector<const BlockGraph *> graphs;
    SmallVector<int> loops;
    for (const KernelOption &o : goal.options)
      if (!llvm::is_contained(loops, o.graph.loopVar)) {
        loops.push_back(o.graph.loopVar);
        graphs.push_back(&o.graph);
      }
    return graphs;
  };
  std::vector<Task> tasks;
  std::vector<std::pair<GoalKey, GoalKey>> taskKeys;
  for (auto &keys : keyPairs) {
    if (tasks.size() == kMaxSidePairs)
      break;
    Task task;
    task.key = keys.first;
    for (const BlockGraph *g1 : bestPerLoop(goals[keys.first]))
      for (const BlockGraph *g2 : bestPerLoop(goals[keys.second]))
        if (std::optional<BlockGraph> g = combineGraphs(
                *g1, *g2, keys.second.first, options.maxBlockOps))
          task.graphs.push_back(std::move(*g));
    if (task.graphs.empty())
      continue;
    tasks.push_back(std::move(task));
    taskKeys.push_back(keys);
  }
  std::vector<Task *> all;
  for (Task &task : tasks)
    all.push_back(&task);
  forEachTask(all, [&](Task &task) { costTask(task); });
  for (auto [task, keys] : llvm::zip(tasks, taskKeys)) {
    stats.candidatesCosted += task.costed;
    auto &kept = task.pairOptions[keys.second.first];
    if (!kept.empty())
      sideGoals[keys].options = std::move(kept);
  }
}

std::optional<std::pair<double, DenseMap<unsigned, KernelOption *>>>
Superoptimizer::assignKernels(uint64_t m, uint64_t covered, unsigned capacity) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const unsigned gdLimit = options.maxGraphDefinedKernels;
  unsigned n = t.values.size();
  double total = 0;
  DenseMap<unsigned, KernelOption *> chosen;
  // Capacity-indexed best totals and the options they use.
  SmallVector<double> dp(capacity + 1, inf);
  SmallVector<SmallVector<std::pair<unsigned, KernelOption *>>> picks(
      capacity + 1);
  if (gdLimit)
    dp[0] = 0;
  for (unsigned v = t.numArguments; v < n; ++v) {
    if (!(m >> v & 1) || (covered >> v & 1))
      continue;
    uint64_t avail = availableFor(v, m);
    double bestUs = inf;
    bool predefined = llvm::all_of(
        t.values[v].producer->getOperands(), [&](Value operand) {
          return avail >> t.indexOf.lookup(operand) & 1;
        });
    if (predefined)
      bestUs = predefinedUs[v];
    GoalResult &goal = goals[{v, avail}];
    KernelOption *option = goal.best();
    if (gdLimit) {
      double pre = bestUs;
      unsigned weight = option && option->grid.splitParts > 1 ? 2 : 1;
      SmallVector<double> next(capacity + 1, inf);
      SmallVector<SmallVector<std::pair<unsigned, KernelOption *>>> nextPicks(
          capacity + 1);
      for (unsigned c = 0; c <= capacity; ++c) {
        if (dp[c] == inf)
          continue;
        if (pre != inf && dp[c] + pre < next[c]) {
          next[c] = dp[c] + pre;
          nextPicks[c] = picks[c];
        }
        if (option && c + weight <= capacity &&
            dp[c] + option->costUs < next[c + weight]) {
          next[c + weight] = dp[c] + option->costUs;
          nextPicks[c + weight] = picks[c];
          nextPicks[c + weight].push_back({v, option});
        }
      }
      dp = std::move(next);
      picks = std::move(nextPicks);
      if (llvm::none_of(dp, [&](double d) { return d != inf; }))
        return std::nullopt;
      continue;
    }
    if (option && option->costUs < bestUs) {
      bestUs = option->costUs;
      chosen[v] = option;
    }
    if (bestUs == inf)
      return std::nullopt;
    total += bestUs;
  }
  if (gdLimit) {
    unsigned c = std::min_element(dp.begin(), dp.end()) - dp.begin();
    total = dp[c];
    for (auto [v, option] : picks[c])
      chosen[v] = option;
  }
  return std::make_pair(total, std::move(chosen));
}

/// The cheapest materialization with the kernels not rejected so far; the
/// default schedule (nothing chosen) unless something beats it.
Superoptimizer::Choice Superoptimizer::pickCheapest() {
  Choice best{defaultCostUs, outputs | inner,
              DenseMap<unsigned, KernelOption *>()};
  // With a limit on graph-defined kernels (preset=mirage-limits), each
  // materialization takes the cheapest assignment of predefined and
  // graph-defined kernels within it (a split loop's pair counts two, a
  // kernel with two outputs one).
  const unsigned gdLimit = options.maxGraphDefinedKernels;
  // Kernels with two outputs: the first few sites of a materialization
  // with an option left are combined (every disjoint subset of them).
  constexpr unsigned kMaxPairSites = 6;
  struct Site {
    unsigned u, v;
    KernelOption *option;
  };
  for (auto [mi, m] : llvm::enumerate(materializations)) {
    SmallVector<Site> sites;
    for (const PairSite &site : pairSites[mi])
      if (KernelOption *option = site.options->best())
        if (sites.size() < kMaxPairSites)
          sites.push_back({site.u, site.v, option});
    // Every set of disjoint sites, each site's kernel standing for the two
    // values' own; the rest assigned as without sites.
    SmallVector<unsigned> used;
    std::function<void(unsigned, uint64_t, double)> extend =
        [&](unsigned from, uint64_t covered, double pairUs) {
          unsigned capacity = gdLimit;
          if (gdLimit && used.size() > gdLimit)
            return;
          if (gdLimit)
            capacity -= used.size();
          if (auto rest = assignKernels(m, covered, capacity)) {
            double total = rest->first + pairUs;
            if (total < best.cost * (1 - 1e-9)) {
              best.cost = total;
              best.materialized = m;
              best.chosen = std::move(rest->second);
              for (unsigned i : used)
                best.chosen[sites[i].v] = sites[i].option;
            }
          }
          for (unsigned i = from; i < sites.size(); ++i) {
            uint64_t both = bit(sites[i].u) | bit(sites[i].v);
            if (covered & both)
              continue;
            used.push_back(i);
            extend(i + 1, covered | both, pairUs + sites[i].option->costUs);
            used.pop_back();
          }
        };
    extend(0, 0, 0);
  }
  return best;
}

FailureOr<SearchResult> Superoptimizer::choose() {
  // Pick the cheapest materialization; verify its graph-defined kernels,
  // and pick again whenever one is rejected.
  SearchResult result;
  // Every composed µGraph is checked against the same reference: its fp64
  // outputs are computed once.
  VerifierOptions wholeOptions = verifierOptions;
  wholeOptions.originalOutputs = referenceOutputs;
  while (true) {
    Choice pick = pickCheapest();
    double bestCost = pick.cost;
    uint64_t bestM = pick.materialized;
    DenseMap<unsigned, KernelOption *> &bestChosen = pick.chosen;
    // The time limit covers the verification too: once it has passed, no
    // new candidate is verified and the default schedule is kept (nothing
    // unverified is emitted). A verification under way runs to its end.
    if (!bestChosen.empty() && deadline.expired()) {
      stats.verificationCut = true;
      bestM = outputs | inner;
      bestChosen.clear();
    }
    result.best = buildFunction(
        (t.func.getSymName() + "_searched").str(), bestM, bestChosen);
    if (bestChosen.empty() && isReference()) {
      // The default schedule itself: the subprogram's own predefined
      // kernels, op for op. Checking it against itself would only measure
      // the original's own rounding (an f16 program that overflows on the
      // verifier's inputs), which is not a reason to reject it.
      result.verification =
          stats.verificationCut
              ? "default schedule kept (the time limit passed before a "
                "candidate could be verified)"
          : !stats.verificationInterrupted.empty()
              ? "default schedule kept (a candidate's verification was "
                "interrupted, " +
                    stats.verificationInterrupted +
                    ", so it was not used)"
              : "default schedule kept (the subprogram's own predefined "
                "kernels, nothing to verify)";
      break;
    }
    if (!bestChosen.empty() && options.finalize &&
        failed(options.finalize(result.best)))
      return failure();
    if (!options.verify) {
      // Costing only: the caller verifies by searching again.
      result.verified = false;
      result.verification = "not verified (costing only)";
      break;
    }
    // The whole, in the form that will be emitted: composed, a kernel reads
    // the values the other kernels really produce (e.g. attention scores
    // whose exp overflows f16 without a max subtraction). It goes first
    // because it fails fast (the floating-point checks run first, against
    // the default schedule's outputs computed once); its report is the one
    // the caller shows. Another formulation is checked against the program
    // as written, never against itself, and so are its own predefined
    // kernels: a formulation less stable in its dtype fails the native
    // check here.
    {
      auto checkStart = Clock::now();
      FailureOr<VerificationReport> whole =
          verifyEquivalence(reference, result.best, wholeOptions);
      stats.verifySeconds += secondsSince(checkStart);
      if (failed(whole))
        return failure();
      stats.candidatesVerified += !whole->interrupted;
      if (whole->interrupted)
        stats.verificationInterrupted = *whole->interrupted;
      if (!whole->equivalent) {
        if (options.progress) {
          std::lock_guard<std::mutex> lock(progressMutex);
          *options.progress << "[superoptimize] the composed µGraph of @"
                            << t.func.getSymName() << " was "
                            << (whole->interrupted ? "not verified"
                                                   : "REJECTED")
                            << " (" << whole->summary()
                            << "); dropping its kernels\n";
        }
        stats.candidatesRejected += !whole->interrupted;
        result.best.erase();
        result.best = nullptr;
        if (bestChosen.empty())
          break; // a formulation whose own kernels fail: nothing of it
        for (auto &[v, option] : bestChosen)
          option->rejected = true;
        continue;
      }
      result.verification = whole->summary();
    }
    if (bestChosen.empty())
      break;
    // Then each chosen graph-defined kernel against the ops it replaces, on
    // inputs of its own (and with the field test where it applies).
    bool allVerified = true;
    for (auto &[v, option] : bestChosen) {
      if (option->verified)
        continue;
      // A kernel with two outputs reads v's frontier without its second
      // value when v reads it (computed on the way), and both frontiers
      // when the two are independent (side by side).
      uint64_t frontier = availableFor(v, bestM);
      uint64_t computed = bit(v);
      if (option->graph.secondTile >= 0) {
        unsigned u = option->graph.secondGoal;
        computed |= bit(u);
        frontier = (frontier >> u & 1)
                       ? availableFor(v, bestM & ~bit(u))
                       : frontier | availableFor(u, bestM);
      }
      // A kernel (pair) that computes the whole subprogram from its
      // arguments was just checked against exactly the ops it replaces
      // (or, for another formulation, against the program as written).
      if (bestChosen.size() == 1 && computed == outputs && bestM == outputs &&
          (frontier & ~args) == 0) {
        option->verified = true;
        option->report = result.verification;
        continue;
      }
      if (failed(verifyOption(v, frontier, *option)))
        return failure();
      allVerified &= option->verified;
    }
    if (!allVerified) {
      result.best.erase();
      result.best = nullptr;
      continue;
    }
    result.costUs = bestCost;
    break;
  }
  result.defaultCostUs = defaultCostUs;
  result.defaultKernels = defaultKernels;
  stats.timeLimitHit = deadline.hit || enumerationDeadline.hit;
  result.stats = stats;
  if (!result.best)
    return result;
  llvm::Expected<FunctionCost> bestCost = estimateFunction(result.best, gpu);
  if (!bestCost)
    return emitError(t.func.getLoc()) << llvm::toString(bestCost.takeError());
  result.costUs = bestCost->timeUs;
  result.kernels = bestCost->kernels;
  // Counted in the µGraph: a split loop's pair is two graph-defined kernels.
  result.graphDefinedKernels = 0;
  result.best.walk([&](kernel::GraphDefOp) { ++result.graphDefinedKernels; });
  return result;
}

/// Searches the other formulations the kernel-level enumeration finds
/// (Formulations.h) after the program's own, and keeps the cheapest
/// verified µGraph. The program's own result is always computed, exactly
/// as without the enumeration, so the result is never worse; another
/// formulation is verified only when its estimate beats it.
static FailureOr<SearchResult>
searchFormulations(func::FuncOp defaultSchedule, ModuleOp scratch,
                   const GpuTarget &gpu, const SearchOptions &options,
                   SearchTarget target) {
  auto start = Clock::now();
  std::map<unsigned, SmallVector<RealTensor>> referenceOutputs;
  std::string unsupported = options.kernelGraphOps
                                ? formulationsUnsupported(target)
                                : std::string();
  Formulations found;
  if (options.kernelGraphOps && unsupported.empty()) {
    KernelGraphLimits limits;
    limits.maxOps = options.kernelGraphOps;
    limits.maxStates = options.kernelGraphStates;
    limits.maxGraphs = options.maxFormulations;
    limits.pruning = options.pruning;
    found = enumerateFormulations(target, scratch, limits);
  }
  double enumerationSeconds = secondsSince(start);

  Superoptimizer program(defaultSchedule, defaultSchedule, scratch, gpu,
                         options, std::move(target), &referenceOutputs);
  if (failed(program.search()))
    return failure();
  FailureOr<SearchResult> best = program.choose();
  if (failed(best))
    return failure();
  // Totals over every formulation's search, for the remark.
  double searchSeconds = enumerationSeconds + best->stats.searchSeconds;
  double verifySeconds = best->stats.verifySeconds;
  uint64_t blockStates = best->stats.statesExplored;
  unsigned formulationsCut = 0;
  // A formulation's search that the time limit cut makes the result depend
  // on the machine, chosen or not: it is reported and not cached.
  bool timeCut = false;

  // The other formulations: each with its share of the state budget and
  // what is left of the time limit.
  SearchOptions altOptions = options;
  if (!found.functions.empty())
    altOptions.stateBudget =
        std::max<uint64_t>(1, options.stateBudget / found.functions.size());
  std::vector<std::unique_ptr<Superoptimizer>> alternatives;
  std::vector<std::pair<double, unsigned>> order;
  SearchStats kernelLevel;
  for (auto [i, f] : llvm::enumerate(found.functions)) {
    altOptions.timeLimitSeconds =
        std::max(1e-3, options.timeLimitSeconds - secondsSince(start));
    FailureOr<SearchTarget> t = SearchTarget::analyze(f);
    if (failed(t))
      return failure();
    alternatives.push_back(std::make_unique<Superoptimizer>(
        f, defaultSchedule, scratch, gpu, altOptions, std::move(*t),
        &referenceOutputs));
    if (failed(alternatives.back()->search()))
      return failure();
    blockStates += alternatives.back()->searchStats().statesExplored;
    formulationsCut += alternatives.back()->searchStats().tasksCutByStates > 0;
    timeCut |= alternatives.back()->timeLimitHit();
    searchSeconds += alternatives.back()->searchStats().searchSeconds;
    order.push_back({alternatives.back()->estimatedUs(), unsigned(i)});
    // What each formulation is and what it is estimated at, so that a
    // rejection below (named by the formulation's function) can be traced
    // to the ops that made it.
    if (options.progress)
      *options.progress << llvm::formatv(
          "[superoptimize] formulation @{0}: {1}; estimated {2:F2} us "
          "(the program as written: {3:F2} us, {4})\n",
          f.getSymName(), found.descriptions[i],
          alternatives.back()->estimatedUs(), best->costUs,
          best->verified ? "verified" : "not verified");
  }
  std::stable_sort(order.begin(), order.end(),
                   [](auto a, auto b) { return a.first < b.first; });
  for (auto [estimate, i] : order) {
    if (!(estimate < best->costUs * (1 - 1e-9)))
      break;
    ++kernelLevel.formulationsTried;
    FailureOr<SearchResult> r = alternatives[i]->choose();
    if (failed(r))
      return failure();
    timeCut |= r->stats.timeLimitHit;
    verifySeconds += r->stats.verifySeconds;
    if (options.progress) {
      std::string outcome =
          !r->best ? std::string("no µGraph of it verified, it is not used")
                   : llvm::formatv("{0} at {1:F2} us, {2}",
                                   r->verified ? "verified" : "costed",
                                   r->costUs,
                                   r->costUs < best->costUs * (1 - 1e-9)
                                       ? "the cheapest so far"
                                       : "not cheaper than the best so far")
                         .str();
      *options.progress << llvm::formatv(
          "[superoptimize] formulation @{0} (estimated {1:F2} us, best so "
          "far {2:F2} us): {3}\n",
          found.functions[i].getSymName(), estimate, best->costUs, outcome);
    }
    if (r->best && r->costUs < best->costUs * (1 - 1e-9)) {
      r->defaultCostUs = best->defaultCostUs;
      r->defaultKernels = best->defaultKernels;
      best->best.erase();
      best = std::move(r);
      kernelLevel.formulation = found.descriptions[i];
    } else if (r->best) {
      r->best.erase();
    }
  }
  SearchStats &s = best->stats;
  s.kernelGraphStates = found.counts.states;
  s.kernelGraphPruned = found.counts.pruned;
  s.kernelGraphStateBudgetHit = found.counts.stateBudgetHit;
  s.formulationLimitHit = found.counts.graphLimitHit;
  s.formulations = found.functions.size();
  s.formulationsTried = kernelLevel.formulationsTried;
  s.otherFormulationStates = blockStates - s.statesExplored;
  s.formulationsCutByStates = formulationsCut;
  s.formulation = kernelLevel.formulation;
  s.kernelGraphSkipped = unsupported;
  s.searchSeconds = searchSeconds;
  s.verifySeconds = verifySeconds;
  s.timeLimitHit |= timeCut;
  // The formulations' functions are not needed any more (the chosen µGraph
  // is a function of its own).
  alternatives.clear();
  for (func::FuncOp f : found.functions)
    f.erase();
  return best;
}

FailureOr<SearchResult>
superopt::searchMuGraph(func::FuncOp defaultSchedule, ModuleOp scratch,
                        const GpuTarget &gpu, const SearchOptions &options) {
  FailureOr<SearchTarget> target = SearchTarget::analyze(defaultSchedule);
  if (failed(target))
    return failure();
  return searchFormulations(defaultSchedule, scratch, gpu, options,
                            std::move(*target));
}

bool mirage::superopt::isSearchableGraphOp(mlir::Operation *op) {
  if (auto norm = llvm::dyn_cast<graph::RMSNormOp>(op))
    return norm.getEps().isZero();
  // Comparisons too (elementwise binary kinds the block search can fuse);
  // select has no block op of its own and stays a predefined kernel.
  return llvm::isa<graph::MatmulOp, graph::UnaryOpInterface,
                   graph::BinaryOpInterface, graph::ReduceSumOp,
                   graph::SoftmaxOp>(op);
}
