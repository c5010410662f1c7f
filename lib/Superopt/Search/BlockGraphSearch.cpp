//===- BlockGraphSearch.cpp - enumerating and building block graphs -------===//

#include "BlockGraphSearch.h"
#include "Dialect/Block/BlockOps.h"
#include "Dialect/Kernel/KernelOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include <array>
#include <functional>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

bool SearchBudget::charge(uint64_t n) {
  if (exhausted())
    return false;
  if (states.fetch_add(n) + n >= maxStates)
    stateHit = true;
  if (std::chrono::steady_clock::now() >= deadline)
    timeHit = true;
  return !exhausted();
}

/// The divisors of `extent` above 1 from `explicitList`, or, if it is
/// empty, all of them up to `defaultMax`.
static SmallVector<int64_t> divisorsOf(int64_t extent,
                                       ArrayRef<int64_t> explicitList,
                                       int64_t defaultMax) {
  SmallVector<int64_t> out;
  if (!explicitList.empty()) {
    for (int64_t d : explicitList)
      if (d > 1 && extent % d == 0)
        out.push_back(d);
    return out;
  }
  for (int64_t d = 2; d <= defaultMax && d <= extent; ++d)
    if (extent % d == 0)
      out.push_back(d);
  return out;
}

/// The for-loop ranges tried for an index variable of `extent`.
static SmallVector<int64_t> loopRanges(int64_t extent,
                                       const SearchOptions &options) {
  return divisorsOf(extent, options.forloopRanges, 128);
}

static SmallVector<int64_t> gridSizes(int64_t extent,
                                      const SearchOptions &options) {
  return divisorsOf(extent, options.gridSizes, 1024);
}

namespace {

using Key = std::array<int, 5>;

/// Depth-first enumeration of the block graphs for one goal and loop choice.
class BlockGraphEnumerator {
public:
  BlockGraphEnumerator(const SearchTarget &t, const BlockGoal &goal,
                       const SearchOptions &o, SearchBudget &budget,
                       std::chrono::steady_clock::time_point sliceEnd,
                       SmallVectorImpl<BlockGraph> &found,
                       BlockSearchCounts &counts)
      : t(t), goal(goal), o(o), budget(budget), sliceEnd(sliceEnd),
        found(found), counts(counts) {
    exprs = t.buildExprs(ctx);
    goalExpr = exprs[goal.goal];
    goalVars = t.values[goal.goal].vars;
    if (goal.loopVar >= 0) {
      SmallVector<int64_t> ranges = loopRanges(t.varExtent[goal.loopVar], o);
      loopStep = ranges.empty() ? 0 : ranges.front();
    }
  }

  /// Iterative deepening on the op count: block graphs of the smallest
  /// size that reaches the goal, and of one op more (which may read fewer
  /// tensors or place a division after the loop), but not the many larger
  /// variants that only recompute what is already there.
  void run() {
    if (goal.loopVar >= 0 && loopStep == 0)
      return;
    std::optional<unsigned> smallest;
    for (limit = 3; limit <= o.maxBlockOps; ++limit) {
      chooseInputs(0);
      if (!smallest && !found.empty())
        smallest = limit;
      if ((smallest && limit >= *smallest + 1) || counts.sliceHit ||
          budget.exhausted())
        break;
    }
    budget.charge(pending);
  }

private:
  /// Size of index variable v in a tile during the enumeration; the loop
  /// variable is walked in steps of the smallest range (any range gives the
  /// same structures).
  int64_t tileExtent(int v) const {
    if (v < 0)
      return 1;
    int64_t e = t.varExtent[v];
    return v == goal.loopVar ? e / loopStep : e;
  }

  bool tick() {
    if (counts.sliceHit)
      return false;
    ++counts.explored;
    if (++pending == 1024) {
      bool ok = budget.charge(pending);
      pending = 0;
      if (std::chrono::steady_clock::now() >= sliceEnd)
        counts.sliceHit = true;
      return ok && !counts.sliceHit;
    }
    return !budget.exhausted();
  }

  bool prunedByExpr(ExprId e) {
    if (!o.pruning || ctx.isSubexpression(e, goalExpr))
      return false;
    ++counts.pruned;
    return true;
  }

  void chooseInputs(unsigned i) {
    if (i == goal.available.size()) {
      if (nodes.empty())
        return;
      bool anyVarying = llvm::any_of(nodes, [](const BlockNode &n) {
        return n.stage == BlockNode::Varying;
      });
      if (goal.loopVar >= 0 && !anyVarying)
        return; // the same as no loop
      numInputs = nodes.size();
      search();
      return;
    }
    chooseInputs(i + 1);
    unsigned value = goal.available[i];
    const TargetValue &tv = t.values[value];
    if (nodes.size() + 2 > limit || prunedByExpr(exprs[value]))
      return;
    // The loop variable must be one dimension of the tensor at most.
    if (goal.loopVar >= 0 && llvm::count(tv.vars, goal.loopVar) > 1)
      return;
    BlockNode n;
    n.kind = BlockNode::Input;
    n.choice = value;
    n.expr = exprs[value];
    n.vars = tv.vars;
    n.stage = llvm::is_contained(tv.vars, goal.loopVar) && goal.loopVar >= 0
                  ? BlockNode::Varying
                  : BlockNode::Invariant;
    push(std::move(n), Key{-1, 0, 0, 0, 0});
    chooseInputs(i + 1);
    pop();
  }

  void push(BlockNode n, Key key) {
    if (n.a >= 0)
      ++uses[n.a];
    if (n.b >= 0)
      ++uses[n.b];
    nodes.push_back(std::move(n));
    uses.push_back(0);
    keys.push_back(key);
  }

  void pop() {
    const BlockNode &n = nodes.back();
    if (n.a >= 0)
      --uses[n.a];
    if (n.b >= 0)
      --uses[n.b];
    nodes.pop_back();
    uses.pop_back();
    keys.pop_back();
  }

  bool duplicate(const BlockNode &n) const {
    return llvm::any_of(nodes, [&](const BlockNode &m) {
      return m.expr == n.expr && m.vars == n.vars && m.stage == n.stage;
    });
  }

  /// Tries `n` as the next op: legality was checked by the caller.
  /// Ops are added in canonical order (non-decreasing keys, the key led by
  /// the newest operand), so each block graph is generated once however
  /// its independent ops could be ordered.
  void tryOp(BlockNode n, Key key) {
    if (key < keys.back() || duplicate(n) || prunedByExpr(n.expr))
      return;
    push(std::move(n), key);
    search();
    pop();
  }

  /// Loop-body tiles (invariant or varying) combine; tiles after the loop
  /// only with each other (the block dialect's phase rule).
  static std::optional<BlockNode::Stage> combine(BlockNode::Stage a,
                                                 BlockNode::Stage b) {
    if ((a == BlockNode::AfterLoop) != (b == BlockNode::AfterLoop))
      return std::nullopt;
    return std::max(a, b);
  }

  void recordOutputs() {
    if (nodes.size() + 1 != limit)
      return; // smaller graphs were found at a smaller limit
    for (unsigned i = numInputs; i < nodes.size(); ++i) {
      const BlockNode &n = nodes[i];
      if (n.expr != goalExpr || n.vars != goalVars ||
          n.stage != BlockNode::AfterLoop)
        continue;
      bool allUsed = true;
      for (unsigned k = 0; k < nodes.size(); ++k)
        allUsed &= k == i || uses[k] > 0;
      if (!allUsed)
        continue;
      BlockGraph g;
      g.nodes.assign(nodes.begin(), nodes.end());
      BlockNode out;
      out.kind = BlockNode::Output;
      out.a = i;
      out.expr = n.expr;
      out.vars = n.vars;
      out.stage = n.stage;
      g.nodes.push_back(std::move(out));
      g.loopVar = goal.loopVar;
      found.push_back(std::move(g));
    }
  }

  void search() {
    if (!tick())
      return;
    recordOutputs();
    // Room for one more op and the output saver?
    if (nodes.size() + 2 > limit)
      return;
    unsigned unused = llvm::count(uses, 0u);
    unsigned remainingOps = limit - 1 - nodes.size();
    if (unused > remainingOps + 1)
      return;

    for (int i = 0, e = nodes.size(); i < e; ++i) {
      // Without a loop, ops after the (one-iteration) accumulator would
      // only duplicate the same ops before it.
      if (goal.loopVar < 0 && nodes[i].stage == BlockNode::AfterLoop)
        continue;
      // Unary ops.
      for (auto [c, choice] : llvm::enumerate(t.unaryOps)) {
        BlockNode n;
        n.kind = BlockNode::Unary;
        n.a = i;
        n.choice = c;
        n.vars = nodes[i].vars;
        n.stage = nodes[i].stage;
        n.expr = unaryExpr(ctx, choice, nodes[i].expr);
        tryOp(std::move(n), Key{i, 1, i, 0, int(c)});
      }
      // Reductions over a reduced index variable.
      // (A copy of the operand's variables: tryOp appends to `nodes`, which
      // may move them.)
      SmallVector<int, 4> operandVars = nodes[i].vars;
      if (t.hasReduce)
        for (auto [d, v] : llvm::enumerate(operandVars)) {
          if (v < 0 || !t.varReduced[v])
            continue;
          BlockNode n;
          n.kind = BlockNode::Reduce;
          n.a = i;
          n.choice = d;
          n.vars = operandVars;
          n.vars[d] = -1;
          n.stage = nodes[i].stage;
          n.expr = ctx.sum(tileExtent(v), nodes[i].expr);
          tryOp(std::move(n), Key{i, 2, i, 0, int(d)});
        }
      // For-loop accumulator: every saved tile passes through one (the sum
      // of one iteration when there is no loop).
      if (nodes[i].stage != BlockNode::AfterLoop &&
          (goal.loopVar < 0 ||
           !llvm::is_contained(nodes[i].vars, goal.loopVar))) {
        BlockNode n;
        n.kind = BlockNode::Accum;
        n.a = i;
        n.vars = nodes[i].vars;
        n.stage = BlockNode::AfterLoop;
        n.expr = ctx.sum(loopStep, nodes[i].expr);
        tryOp(std::move(n), Key{i, 3, i, 0, 0});
      }
      for (int j = 0; j <= i; ++j) {
        auto stage = combine(nodes[i].stage, nodes[j].stage);
        if (!stage)
          continue;
        for (auto [lhs, rhs] : {std::pair{i, j}, std::pair{j, i}}) {
          tryBinaries(lhs, rhs, *stage, i);
          tryMatmul(lhs, rhs, *stage, i);
          if (i == j)
            break;
        }
      }
    }
  }

  void tryBinaries(int lhs, int rhs, BlockNode::Stage stage, int maxOperand) {
    const auto &va = nodes[lhs].vars, &vb = nodes[rhs].vars;
    if (va.size() != vb.size())
      return;
    SmallVector<int, 4> vars;
    for (auto [x, y] : llvm::zip(va, vb)) {
      if (x != y && x >= 0 && y >= 0)
        return;
      vars.push_back(std::max(x, y));
    }
    for (BinaryKind kind : t.binaryOps) {
      bool commutative = kind == BinaryKind::add || kind == BinaryKind::mul;
      if (commutative && lhs < rhs)
        continue;
      BlockNode n;
      n.kind = BlockNode::Binary;
      n.a = lhs;
      n.b = rhs;
      n.choice = static_cast<unsigned>(kind);
      n.vars = vars;
      n.stage = stage;
      n.expr = binaryExpr(ctx, kind, nodes[lhs].expr, nodes[rhs].expr);
      tryOp(std::move(n), Key{maxOperand, 4, lhs, rhs, int(kind)});
    }
  }

  void tryMatmul(int lhs, int rhs, BlockNode::Stage stage, int maxOperand) {
    if (!t.hasMatmul)
      return;
    const auto &va = nodes[lhs].vars, &vb = nodes[rhs].vars;
    size_t r = va.size();
    if (r < 2 || vb.size() != r || va[r - 1] != vb[r - 2])
      return;
    int k = va[r - 1];
    if (k >= 0 && !t.varReduced[k])
      return;
    for (size_t d = 0; d + 2 < r; ++d)
      if (va[d] != vb[d])
        return;
    BlockNode n;
    n.kind = BlockNode::Matmul;
    n.a = lhs;
    n.b = rhs;
    n.vars.assign(va.begin(), va.end() - 1);
    n.vars.push_back(vb[r - 1]);
    n.stage = stage;
    n.expr = ctx.sum(tileExtent(k), ctx.mul(nodes[lhs].expr, nodes[rhs].expr));
    tryOp(std::move(n), Key{maxOperand, 5, lhs, rhs, 0});
  }

  const SearchTarget &t;
  const BlockGoal &goal;
  const SearchOptions &o;
  SearchBudget &budget;
  std::chrono::steady_clock::time_point sliceEnd;
  SmallVectorImpl<BlockGraph> &found;
  BlockSearchCounts &counts;

  AbstractExprContext ctx;
  SmallVector<ExprId> exprs;
  ExprId goalExpr = 0;
  ArrayRef<int> goalVars;
  int64_t loopStep = 1;

  SmallVector<BlockNode> nodes;
  SmallVector<unsigned> uses;
  SmallVector<Key> keys;
  unsigned numInputs = 0;
  unsigned limit = 0; // block ops, output saver included
  uint64_t pending = 0;
};

} // namespace

void superopt::enumerateBlockGraphs(const SearchTarget &target,
                                    const BlockGoal &goal,
                                    const SearchOptions &options,
                                    SearchBudget &budget,
                                    std::chrono::steady_clock::time_point sliceEnd,
                                    SmallVectorImpl<BlockGraph> &found,
                                    BlockSearchCounts &counts) {
  BlockGraphEnumerator(target, goal, options, budget, sliceEnd, found, counts)
      .run();
}

SmallVector<GridChoice> superopt::gridChoices(const SearchTarget &target,
                                              const BlockGraph &graph,
                                              const SearchOptions &options) {
  // Grid dimensions partition distinct, unreduced index variables of the
  // output, in increasing order (x, y, z), which names each grid once.
  SmallVector<int> candidates;
  for (int v : graph.nodes.back().vars)
    if (v >= 0 && !target.varReduced[v] && !llvm::is_contained(candidates, v))
      candidates.push_back(v);
  llvm::sort(candidates);
  // A variable in two dims of one input cannot follow a single imap entry.
  llvm::erase_if(candidates, [&](int v) {
    return llvm::any_of(graph.nodes, [&](const BlockNode &n) {
      return n.kind == BlockNode::Input && llvm::count(n.vars, v) > 1;
    });
  });

  SmallVector<int64_t> loops{1};
  if (graph.loopVar >= 0)
    loops = loopRanges(target.varExtent[graph.loopVar], options);

  SmallVector<GridChoice> grids;
  GridChoice current;
  std::function<void(size_t)> extend = [&](size_t from) {
    for (int64_t f : loops) {
      GridChoice g = current;
      g.forloop = f;
      grids.push_back(std::move(g));
    }
    if (current.vars.size() == options.maxGridDims)
      return;
    for (size_t i = from; i < candidates.size(); ++i)
      for (int64_t size : gridSizes(target.varExtent[candidates[i]], options)) {
        current.vars.push_back(candidates[i]);
        current.sizes.push_back(size);
        extend(i + 1);
        current.vars.pop_back();
        current.sizes.pop_back();
      }
  };
  extend(0);
  return grids;
}

Operation *superopt::buildGraphDef(OpBuilder &builder, Location loc,
                                   const SearchTarget &target,
                                   const BlockGraph &graph,
                                   const GridChoice &grid,
                                   function_ref<Value(unsigned)> operand) {
  MLIRContext *ctx = builder.getContext();
  auto sizeOf = [&](int v) -> int64_t {
    if (v < 0)
      return 1;
    int64_t e = target.varExtent[v];
    for (auto [gv, gs] : llvm::zip(grid.vars, grid.sizes))
      if (gv == v)
        e /= gs;
    if (v == graph.loopVar)
      e /= grid.forloop;
    return e;
  };
  auto gridMap = [&](ArrayRef<int> vars) {
    SmallVector<int64_t> dims;
    for (int gv : grid.vars) {
      auto it = llvm::find(vars, gv);
      dims.push_back(it == vars.end() ? block::GridMapAttr::kReplicate
                                      : it - vars.begin());
    }
    if (dims.empty()) // a single block: one grid dimension of size 1
      dims.push_back(block::GridMapAttr::kReplicate);
    return block::GridMapAttr::get(ctx, dims);
  };

  SmallVector<Value> operands;
  SmallVector<Type> operandTypes;
  for (const BlockNode &n : graph.nodes)
    if (n.kind == BlockNode::Input) {
      operands.push_back(operand(n.choice));
      operandTypes.push_back(operands.back().getType());
    }
  Type elementType =
      cast<ShapedType>(operandTypes.front()).getElementType();
  // The output tensor: the goal's shape (the output vars equal the goal's).
  const BlockNode &outNode = graph.nodes.back();
  SmallVector<int64_t> outShape;
  for (int v : outNode.vars)
    outShape.push_back(v < 0 ? 1 : target.varExtent[v]);
  auto outType = RankedTensorType::get(outShape, elementType);

  SmallVector<int64_t> gridSizes(grid.sizes.begin(), grid.sizes.end());
  if (gridSizes.empty())
    gridSizes.push_back(1);
  auto def = kernel::GraphDefOp::create(builder, loc, TypeRange{outType},
                                        operands, gridSizes,
                                        static_cast<uint64_t>(grid.forloop));
  Block *body = new Block();
  def.getBody().push_back(body);
  for (Type type : operandTypes)
    body->addArgument(type, loc);

  // Placement: the loop body, the accumulators, the ops after the loop.
  size_t n = graph.nodes.size();
  SmallVector<bool> afterLoop(n, false);
  for (auto [i, node] : llvm::enumerate(graph.nodes))
    afterLoop[i] = node.stage == BlockNode::AfterLoop &&
                   node.kind != BlockNode::Accum &&
                   node.kind != BlockNode::Output;

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  SmallVector<Value> tiles(n);
  unsigned nextArg = 0;
  auto tileType = [&](ArrayRef<int> vars) {
    SmallVector<int64_t> shape;
    for (int v : vars)
      shape.push_back(sizeOf(v));
    return block::TileType::get(shape, elementType);
  };
  auto emit = [&](unsigned i) {
    const BlockNode &node = graph.nodes[i];
    Value a = node.a >= 0 ? tiles[node.a] : Value();
    Value b = node.b >= 0 ? tiles[node.b] : Value();
    switch (node.kind) {
    case BlockNode::Input: {
      auto it = llvm::find(node.vars, graph.loopVar);
      int64_t loopDim = graph.loopVar >= 0 && it != node.vars.end()
                            ? it - node.vars.begin()
                            : block::LoopMapAttr::kReplicate;
      tiles[i] = block::InputOp::create(
          builder, loc, tileType(node.vars), body->getArgument(nextArg++),
          gridMap(node.vars), block::LoopMapAttr::get(ctx, loopDim));
      break;
    }
    case BlockNode::Unary: {
      const UnaryChoice &c = target.unaryOps[node.choice];
      tiles[i] = block::UnaryOp::create(
          builder, loc, a.getType(), UnaryKindAttr::get(ctx, c.kind), a,
          c.params.empty() ? DenseF64ArrayAttr()
                           : builder.getDenseF64ArrayAttr(c.params));
      break;
    }
    case BlockNode::Binary:
      tiles[i] = block::BinaryOp::create(
          builder, loc, static_cast<BinaryKind>(node.choice), a, b);
      break;
    case BlockNode::Matmul:
      tiles[i] = block::MatmulOp::create(builder, loc, a, b);
      break;
    case BlockNode::Reduce:
      tiles[i] = block::ReduceOp::create(
          builder, loc, ReduceKindAttr::get(ctx, ReduceKind::sum), a,
          builder.getI64IntegerAttr(node.choice));
      break;
    case BlockNode::Accum:
      tiles[i] = block::AccumOp::create(builder, loc, a.getType(), a,
                                        block::AccumKind::sum, IntegerAttr());
      break;
    case BlockNode::Output:
      tiles[i] = block::OutputOp::create(builder, loc, outType, a,
                                         gridMap(node.vars));
      break;
    }
  };
  for (size_t i = 0; i < n; ++i) {
    const BlockNode &node = graph.nodes[i];
    if (node.kind != BlockNode::Accum && node.kind != BlockNode::Output &&
        !afterLoop[i])
      emit(i);
  }
  for (size_t i = 0; i < n; ++i)
    if (graph.nodes[i].kind == BlockNode::Accum)
      emit(i);
  for (size_t i = 0; i < n; ++i)
    if (afterLoop[i])
      emit(i);
  emit(n - 1);
  block::YieldOp::create(builder, loc, ValueRange{tiles[n - 1]});
  return def;
}
