//===- WorkGraph.cpp - a graph function as the search rewrites it ---------===//

#include "mirage/Superopt/Rules/WorkGraph.h"
#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Rules/GraphOps.h"
#include "mirage/Superopt/Rules/Matcher.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mirage::rules;
using mirage::superopt::SplitMix64;

static uint64_t mixIn(uint64_t h, uint64_t v) {
  return SplitMix64::mix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6)));
}

/// Kind, attributes and result shapes of a node, without its operands.
uint64_t mirage::rules::computeLocalHash(const WNode &n) {
  uint64_t h = 0x243f6a8885a308d3ULL + static_cast<uint64_t>(n.type);
  switch (n.type) {
  case WNode::Type::Argument:
    return mixIn(h, n.argument);
  case WNode::Type::Opaque:
    // An opaque op is itself: equal only to its own copies.
    return mixIn(h, reinterpret_cast<uintptr_t>(n.origin));
  case WNode::Type::Rule:
    break;
  }
  h = mixIn(h, static_cast<uint64_t>(n.kind));
  for (int64_t i : n.ints)
    h = mixIn(h, static_cast<uint64_t>(i));
  uint64_t bits;
  std::memcpy(&bits, &n.scalar, sizeof bits);
  h = mixIn(h, bits);
  for (int64_t s : n.sizes)
    h = mixIn(h, static_cast<uint64_t>(s));
  for (const auto &shape : n.resultShapes)
    for (int64_t d : shape)
      h = mixIn(h, static_cast<uint64_t>(d));
  return mixIn(h, reinterpret_cast<uintptr_t>(n.elementType.getAsOpaquePointer()));
}

//===----------------------------------------------------------------------===//
// NodeArena
//===----------------------------------------------------------------------===//

NodeArena::NodeArena(const superopt::GpuTarget &target, MLIRContext *ctx)
    : target(target), ctx(ctx) {
  scratch = ModuleOp::create(UnknownLoc::get(ctx));
}

NodeArena::~NodeArena() = default;

static RankedTensorType typeOf(const WNode &n, unsigned result) {
  return RankedTensorType::get(n.resultShapes[result], n.elementType);
}

/// Appends the raw bytes of `v` to a cache key.
template <typename T>
static void appendKey(llvm::SmallVectorImpl<char> &key, const T &v) {
  const char *bytes = reinterpret_cast<const char *>(&v);
  key.append(bytes, bytes + sizeof v);
}

double NodeArena::costOf(const WNode &node,
                         llvm::function_ref<const WNode *(uint32_t)> nodeAt) {
  if (node.type == WNode::Type::Argument)
    return 0;
  if (node.type == WNode::Type::Opaque) {
    auto [it, fresh] = opaqueCosts.try_emplace(node.origin, 0.0);
    if (!fresh)
      return it->second;
    llvm::Expected<superopt::KernelCost> c =
        superopt::estimateKernel(node.origin, target);
    if (!c) {
      llvm::consumeError(c.takeError());
      return 0;
    }
    return it->second = c->timeUs;
  }
  // A rule node: costed as its predefined kernel, built in the scratch
  // module once per signature (kind, attributes, scalar, operand and result
  // types).
  llvm::SmallString<256> key;
  appendKey(key, static_cast<uint64_t>(node.kind));
  appendKey(key, static_cast<uint64_t>(node.ints.size()));
  for (int64_t i : node.ints)
    appendKey(key, i);
  appendKey(key, node.scalar);
  auto appendType = [&](const WNode &producer, unsigned result) {
    const auto &shape = producer.resultShapes[result];
    appendKey(key, producer.elementType.getAsOpaquePointer());
    appendKey(key, static_cast<uint64_t>(shape.size()));
    for (int64_t d : shape)
      appendKey(key, d);
  };
  appendKey(key, static_cast<uint64_t>(node.operands.size()));
  for (WValue v : node.operands)
    appendType(*nodeAt(v.node), v.result);
  appendKey(key, static_cast<uint64_t>(node.resultShapes.size()));
  for (unsigned r = 0; r < node.resultShapes.size(); ++r)
    appendType(node, r);
  auto it = costCache.find(key.str());
  if (it != costCache.end())
    return it->second;
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(scratch->getBody());
  SmallVector<Type> argTypes, resultTypes;
  for (WValue v : node.operands)
    argTypes.push_back(typeOf(*nodeAt(v.node), v.result));
  for (unsigned r = 0; r < node.resultShapes.size(); ++r)
    resultTypes.push_back(typeOf(node, r));
  Location loc = UnknownLoc::get(ctx);
  auto fn = b.create<func::FuncOp>(loc, "cost",
                                   b.getFunctionType(argTypes, resultTypes));
  Block *block = fn.addEntryBlock();
  b.setInsertionPointToStart(block);
  Operation *op =
      buildGraphOp(b, loc, node.kind, node.ints, node.scalar, node.sizes,
                   block->getArguments(), resultTypes);
  double cost = 0;
  llvm::Expected<superopt::KernelCost> c = superopt::estimateKernel(op, target);
  if (c)
    cost = c->timeUs;
  else
    llvm::consumeError(c.takeError());
  fn.erase();
  costCache[key.str()] = cost;
  return cost;
}

const WNode *NodeArena::add(WNode node, ArrayRef<const WNode *> graph) {
  return add(std::move(node), [&](uint32_t i) { return graph[i]; });
}

const WNode *
NodeArena::add(WNode node,
               llvm::function_ref<const WNode *(uint32_t)> nodeAt) {
  node.localHash = computeLocalHash(node);
  node.costUs = costOf(node, nodeAt);
  nodes.push_back(std::move(node));
  return &nodes.back();
}

//===----------------------------------------------------------------------===//
// WorkGraph
//===----------------------------------------------------------------------===//

FailureOr<WorkGraph>
WorkGraph::fromFunction(func::FuncOp func, NodeArena &arena,
                        llvm::function_ref<bool(unsigned)> isWeight) {
  if (!llvm::hasSingleElement(func.getBody()))
    return func.emitError("the graph search needs a body of one block");
  WorkGraph g;
  Block &body = func.getBody().front();
  llvm::DenseMap<Value, WValue> values;
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return func.emitError("argument ")
             << arg.getArgNumber() << " is not a ranked tensor";
    WNode n;
    n.type = WNode::Type::Argument;
    n.argument = arg.getArgNumber();
    n.resultShapes.push_back(
        SmallVector<int64_t, 4>(type.getShape().begin(), type.getShape().end()));
    n.elementType = type.getElementType();
    values[arg] = {g.append(arena.add(std::move(n), g.nodes)), 0};
    g.weightArgs.push_back(isWeight(arg.getArgNumber()));
  }
  // Common subexpressions: one node per (local hash, operands).
  std::map<std::pair<uint64_t, std::vector<uint64_t>>, uint32_t> seen;
  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        g.outputs.push_back(values.lookup(v));
      continue;
    }
    if (!isa<mirage::graph::GraphDialect>(op.getDialect()) ||
        op.getNumRegions() != 0)
      return op.emitError("the graph search rewrites graph-dialect ops only");
    WNode n;
    std::string why;
    if (std::optional<GraphOpInfo> info = readGraphOp(&op, why)) {
      n.type = WNode::Type::Rule;
      n.kind = info->kind;
      n.ints = info->ints;
      n.scalar = info->scalar;
      if (info->kind == OpKind::Split)
        n.sizes.assign(info->shape.begin(), info->shape.end());
    } else {
      n.type = WNode::Type::Opaque;
    }
    n.origin = &op;
    for (Value v : op.getOperands()) {
      auto it = values.find(v);
      if (it == values.end())
        return op.emitError("reads a value from outside the function");
      n.operands.push_back(it->second);
    }
    for (Value r : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(r.getType());
      if (!type || !type.hasStaticShape())
        return op.emitError("the graph search needs static tensor types");
      n.resultShapes.push_back(SmallVector<int64_t, 4>(type.getShape().begin(),
                                                       type.getShape().end()));
      n.elementType = type.getElementType();
    }
    uint64_t local = computeLocalHash(n);
    std::vector<uint64_t> operandKey;
    for (WValue v : n.operands)
      operandKey.push_back(uint64_t(v.node) << 8 | v.result);
    auto [it, fresh] = seen.insert({{local, operandKey}, 0});
    if (fresh || n.type == WNode::Type::Opaque) {
      it->second = g.append(arena.add(std::move(n), g.nodes));
    }
    for (unsigned r = 0; r < op.getNumResults(); ++r)
      values[op.getResult(r)] = {it->second, r};
  }
  g.finish();
  return g;
}

std::vector<uint32_t> WorkGraph::liveOrder(bool *cyclic) const {
  if (cyclic)
    *cyclic = false;
  std::vector<uint32_t> order;
  std::vector<uint8_t> state(nodes.size(), 0); // 0 new, 1 open, 2 done
  std::vector<std::pair<uint32_t, unsigned>> stack;
  auto visit = [&](uint32_t root) {
    if (state[root])
      return;
    stack.push_back({root, 0});
    state[root] = 1;
    while (!stack.empty()) {
      auto &[n, next] = stack.back();
      const WNode *node = nodes[n];
      if (next < node->operands.size()) {
        uint32_t m = node->operands[next++].node;
        if (!state[m]) {
          state[m] = 1;
          stack.push_back({m, 0});
        } else if (state[m] == 1 && cyclic) {
          *cyclic = true;
        }
        continue;
      }
      state[n] = 2;
      order.push_back(n);
      stack.pop_back();
    }
  };
  // Arguments first, in their order, so that every graph lists them alike.
  for (uint32_t i = 0; i < nodes.size(); ++i)
    if (nodes[i] && nodes[i]->type == WNode::Type::Argument)
      visit(i);
  for (WValue v : outputs)
    visit(v.node);
  return order;
}

/// A node's cost in the fixed-point units of the totals.
static int64_t fixedCost(const WNode *n) {
  return static_cast<int64_t>(std::llround(n->costUs * 1e9));
}

/// The structural hash of a node that is not an argument, from its
/// operands' hashes.
template <typename HashOf>
static uint64_t structuralHash(const WNode *n, HashOf hashOf) {
  SmallVector<uint64_t, 2> operandHashes;
  for (WValue v : n->operands)
    operandHashes.push_back(mixIn(hashOf(v.node), v.result));
  if (n->isRule() && isCommutative(n->kind))
    llvm::sort(operandHashes);
  uint64_t h = n->localHash;
  for (uint64_t o : operandHashes)
    h = mixIn(h, o);
  return h;
}

static uint64_t graphHashOf(ArrayRef<WValue> outputs,
                            llvm::function_ref<uint64_t(uint32_t)> hashOf) {
  uint64_t h = 0x13198a2e03707344ULL;
  for (WValue v : outputs)
    h = mixIn(h, mixIn(hashOf(v.node), v.result));
  return h;
}

void WorkGraph::finish() {
  std::vector<uint32_t> order = liveOrder(&cyclic);
  std::vector<uint64_t> hashes(nodes.size(), 0);
  weight.assign(nodes.size(), false);
  totalCost = unfoldedCost = 0;
  liveOps = 0;
  for (uint32_t i : order) {
    const WNode *n = nodes[i];
    if (n->type == WNode::Type::Argument) {
      weight[i] = weightArgs[n->argument];
      hashes[i] = n->localHash;
      continue;
    }
    bool allWeights = !n->operands.empty();
    for (WValue v : n->operands)
      allWeights &= weight[v.node];
    hashes[i] = structuralHash(n, [&](uint32_t o) { return hashes[o]; });
    weight[i] = allWeights;
    ++liveOps;
    unfoldedCost += fixedCost(n);
    if (!allWeights)
      totalCost += fixedCost(n);
  }
  graphHash = graphHashOf(outputs, [&](uint32_t o) { return hashes[o]; });
}

WorkGraph WorkGraph::withEdit(const GraphEdit &edit) const {
  WorkGraph out;
  out.nodes.reserve(nodes.size() + edit.appended.size());
  out.nodes = nodes;
  out.nodes.insert(out.nodes.end(), edit.appended.begin(),
                   edit.appended.end());
  for (auto [i, n] : edit.replaced)
    out.nodes[i] = n;
  out.outputs = outputs;
  for (auto [k, v] : edit.outputs)
    out.outputs[k] = v;
  out.weightArgs = weightArgs;
  return out;
}

//===----------------------------------------------------------------------===//
// EditEvaluator
//===----------------------------------------------------------------------===//

EditEvaluator::EditEvaluator(const WorkGraph &g, const GraphIndex &index)
    : graph(g), index(index) {
  assert(g.weight.size() == g.nodes.size() && "the graph is not finished");
  uses.assign(g.nodes.size(), 0);
  for (size_t i = 0; i < index.users.size(); ++i)
    uses[i] = index.users[i].size();
  for (WValue v : g.outputs)
    ++uses[v.node];
}

GraphTotals EditEvaluator::evaluate(const GraphEdit &edit) const {
  const WorkGraph &parent = graph;
  const uint32_t pn = parent.nodes.size();
  const uint32_t n = pn + edit.appended.size();
  llvm::SmallDenseMap<uint32_t, const WNode *, 8> replacedAt;
  for (auto [i, node] : edit.replaced)
    replacedAt[i] = node;
  auto nodeAt = [&](uint32_t i) -> const WNode * {
    if (i >= pn)
      return edit.appended[i - pn];
    auto it = replacedAt.find(i);
    return it == replacedAt.end() ? parent.nodes[i] : it->second;
  };

  // Liveness, as finish() finds it from the outputs: the parent's live
  // uses, updated by the changed edges; then the nodes left without a use
  // die, and their operands lose one. Kept as changes to the parent's.
  llvm::SmallDenseMap<uint32_t, int64_t, 16> countChange;
  llvm::SmallDenseMap<uint32_t, bool, 16> liveChange;
  auto count = [&](uint32_t i) {
    return (i < pn ? static_cast<int64_t>(uses[i]) : 0) + countChange.lookup(i);
  };
  auto isLive = [&](uint32_t i) {
    auto it = liveChange.find(i);
    if (it != liveChange.end())
      return it->second;
    return i < pn && index.live[i];
  };
  llvm::SmallVector<uint32_t, 32> touched;
  auto use = [&](uint32_t i, int delta) {
    countChange[i] += delta;
    touched.push_back(i);
  };
  for (auto [k, v] : edit.outputs)
    if (v != parent.outputs[k]) {
      use(parent.outputs[k].node, -1);
      use(v.node, +1);
    }
  for (auto [i, node] : edit.replaced) {
    if (!index.live[i])
      continue;
    for (WValue v : parent.nodes[i]->operands)
      use(v.node, -1);
    for (WValue v : node->operands)
      use(v.node, +1);
  }
  // Appended nodes read only earlier ones: last first.
  for (uint32_t i = n; i-- > pn;)
    if (count(i) > 0) {
      liveChange[i] = true;
      for (WValue v : nodeAt(i)->operands)
        use(v.node, +1);
    }
  llvm::SmallVector<uint32_t, 16> dead;
  for (size_t t = 0; t < touched.size(); ++t) {
    uint32_t i = touched[t];
    if (!isLive(i) || count(i) > 0 ||
        nodeAt(i)->type == WNode::Type::Argument)
      continue;
    liveChange[i] = false;
    dead.push_back(i);
    for (WValue v : nodeAt(i)->operands)
      use(v.node, -1);
  }

  GraphTotals totals;
  // A cycle: the parent has none, and parent nodes read appended ones only
  // through the replaced nodes' new operands, so every cycle passes through
  // a replaced node that is live. From there it can only pass through
  // parent nodes placed after the first replaced one in the parent's
  // topological order (an unchanged node reads only nodes placed before
  // it), so the search stops at the others.
  const std::vector<uint32_t> &position = index.position;
  uint32_t firstReplaced = UINT32_MAX;
  for (auto [i, node] : edit.replaced)
    firstReplaced = std::min(firstReplaced, position[i]);
  if (!index.topological)
    firstReplaced = 0;
  llvm::SmallDenseMap<uint32_t, uint8_t, 32> state; // 1 open, 2 done
  llvm::SmallVector<std::pair<uint32_t, unsigned>, 32> dfs;
  for (auto [root, node] : edit.replaced) {
    if (!isLive(root) || state.count(root))
      continue;
    dfs.push_back({root, 0});
    state[root] = 1;
    while (!dfs.empty() && !totals.cyclic) {
      auto &[i, next] = dfs.back();
      const WNode *node = nodeAt(i);
      if (next < node->operands.size()) {
        uint32_t o = node->operands[next++].node;
        if (o < pn && !replacedAt.count(o) && position[o] < firstReplaced)
          continue;
        auto [it, fresh] = state.try_emplace(o, 1);
        if (fresh)
          dfs.push_back({o, 0});
        else if (it->second == 1)
          totals.cyclic = true;
        continue;
      }
      state[i] = 2;
      dfs.pop_back();
    }
    if (totals.cyclic)
      return totals;
  }

  // Weights (computed from weights only) change from the appended and
  // replaced nodes down, as far as a node's flag changes.
  llvm::SmallDenseMap<uint32_t, bool, 16> weightChange;
  auto weightOf = [&](uint32_t i) {
    auto it = weightChange.find(i);
    if (it != weightChange.end())
      return it->second;
    return i < pn && parent.weight[i];
  };
  // The changed nodes that read each node (the parent's users do not list
  // them).
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 8> newReaders;
  llvm::SmallVector<uint32_t, 16> work;
  for (uint32_t i = pn; i < n; ++i)
    work.push_back(i);
  for (auto [i, node] : edit.replaced)
    work.push_back(i);
  for (uint32_t i : work)
    for (WValue v : nodeAt(i)->operands)
      newReaders.push_back({v.node, i});
  for (size_t w = 0; w < work.size(); ++w) {
    uint32_t i = work[w];
    const WNode *node = nodeAt(i);
    bool allWeights = !node->operands.empty();
    for (WValue v : node->operands)
      allWeights &= weightOf(v.node);
    bool fresh = i >= pn && !weightChange.count(i);
    if (!fresh && allWeights == weightOf(i))
      continue;
    weightChange[i] = allWeights;
    if (i < pn)
      for (auto [user, k] : index.users[i])
        work.push_back(user);
    for (auto [o, reader] : newReaders)
      if (o == i)
        work.push_back(reader);
  }

  // Totals: the parent's, minus what the changed, dead and reweighted
  // nodes counted there, plus what they count here.
  totals.totalCost = parent.totalCost;
  totals.unfoldedCost = parent.unfoldedCost;
  totals.liveOps = parent.liveOps;
  llvm::SmallDenseSet<uint32_t, 32> counted;
  auto recount = [&](uint32_t i) {
    if (!counted.insert(i).second)
      return;
    if (i < pn && index.live[i] &&
        parent.nodes[i]->type != WNode::Type::Argument) {
      --totals.liveOps;
      totals.unfoldedCost -= fixedCost(parent.nodes[i]);
      if (!parent.weight[i])
        totals.totalCost -= fixedCost(parent.nodes[i]);
    }
    const WNode *node = nodeAt(i);
    if (isLive(i) && node->type != WNode::Type::Argument) {
      ++totals.liveOps;
      totals.unfoldedCost += fixedCost(node);
      if (!weightOf(i))
        totals.totalCost += fixedCost(node);
    }
  };
  for (uint32_t i = pn; i < n; ++i)
    recount(i);
  for (auto [i, node] : edit.replaced)
    recount(i);
  for (uint32_t i : dead)
    recount(i);
  for (auto [i, w] : weightChange)
    recount(i);
  return totals;
}

LogicalResult WorkGraph::writeInto(func::FuncOp func) const {
  Block &body = func.getBody().front();
  bool isCyclicGraph = false;
  std::vector<uint32_t> order = liveOrder(&isCyclicGraph);
  if (isCyclicGraph)
    return func.emitError("the rewritten graph has a cycle");
  // Build the new ops before the terminator, then drop the old ones.
  Operation *terminator = body.getTerminator();
  OpBuilder b(terminator);
  std::vector<SmallVector<Value, 2>> values(nodes.size());
  Location fallback = func.getLoc();
  for (uint32_t i : order) {
    const WNode *n = nodes[i];
    if (n->type == WNode::Type::Argument) {
      values[i] = {body.getArgument(n->argument)};
      continue;
    }
    SmallVector<Value, 2> operands;
    for (WValue v : n->operands)
      operands.push_back(values[v.node][v.result]);
    Operation *built;
    if (n->type == WNode::Type::Opaque) {
      IRMapping map;
      for (auto [from, to] : llvm::zip(n->origin->getOperands(), operands))
        map.map(from, to);
      built = b.clone(*n->origin, map);
    } else {
      SmallVector<Type, 2> types;
      for (unsigned r = 0; r < n->resultShapes.size(); ++r)
        types.push_back(typeOf(*n, r));
      built = buildGraphOp(b, n->origin ? n->origin->getLoc() : fallback,
                           n->kind, n->ints, n->scalar, n->sizes, operands,
                           types);
    }
    values[i].assign(built->result_begin(), built->result_end());
  }
  SmallVector<Value> outs;
  for (WValue v : outputs)
    outs.push_back(values[v.node][v.result]);
  // The old ops: every op before the first new one, erased in reverse so
  // that uses go first.
  SmallVector<Operation *> old;
  for (Operation &op : body) {
    if (&op == terminator)
      break;
    old.push_back(&op);
  }
  terminator->setOperands(outs);
  size_t newOps = 0;
  for (uint32_t i : order)
    newOps += nodes[i]->type != WNode::Type::Argument;
  // The first (old.size() - newOps) ops are the old body.
  size_t oldCount = old.size() - newOps;
  for (size_t k = oldCount; k-- > 0;) {
    Operation *op = old[k];
    if (!op->use_empty())
      return op->emitError("the rewritten graph still uses this op");
    op->erase();
  }
  return success();
}
