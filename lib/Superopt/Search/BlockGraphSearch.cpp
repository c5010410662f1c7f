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

/// The divisors of `extent` above 1 from `explicitList`, or, if it is
/// empty, all of them up to `defaultMax`.
static SmallVector<int64_t> divisorsOf(int64_t extent,
                                       ArrayRef<int64_t> explicitList,
                                       int64_t defaultMax) {
  SmallVector<int64_t> out;
  if (extent <= 0)
    return out;
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

uint64_t superopt::approximateBytes(ArrayRef<BlockGraph> graphs) {
  uint64_t bytes = 0;
  for (const BlockGraph &g : graphs)
    bytes += sizeof(BlockGraph) + g.nodes.size() * sizeof(BlockNode);
  return bytes;
}

static bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

namespace {

using Key = std::array<int, 5>;

/// Depth-first enumeration of the block graphs for one goal and loop choice.
///
/// Numerical stability is part of the space, not left to the verifier: a
/// sum of f16 or bf16 values (block.matmul, block.reduce, block.accum) is
/// kept in an f32 tile unless the original program rounds that very value
/// (same abstract expression, same index variables) to the narrow type, as
/// a predefined matmul or reduce_sum kernel does with its result. So no
/// partial or intermediate sum (rms_norm's sum of squares, a for-loop's
/// partial products) is held in a type the original never rounds it to.
/// Elementwise results follow the same rule: an f16/bf16 result is kept
/// narrow only where the original rounds that value to the narrow type,
/// else it is widened to f32 (so an RMS norm's squares, which the original
/// op never rounds, cannot overflow an f16 tile).
/// Softmax has no block-level form here (SearchTarget.h): its exp is never
/// separated from the max subtraction of its predefined kernel.
class BlockGraphEnumerator {
public:
  BlockGraphEnumerator(const SearchTarget &t, const BlockGoal &goal,
                       const SearchOptions &o, const TaskLimits &limits,
                       SmallVectorImpl<BlockGraph> &found,
                       BlockSearchCounts &counts)
      : t(t), goal(goal), o(o), limits(limits), found(found), counts(counts) {
    uint64_t readable = 0;
    for (unsigned v : goal.available)
      readable |= uint64_t(1) << v;
    exprs = t.buildExprs(ctx, readable);
    goalExpr = exprs[goal.goal];
    goalVars = t.values[goal.goal].vars;
    if (goal.loopVar >= 0) {
      SmallVector<int64_t> ranges = loopRanges(t.varExtent[goal.loopVar], o);
      loopStep = ranges.empty() ? 0 : ranges.front();
    }
    for (auto [v, tv] : llvm::enumerate(t.values))
      if (isNarrowFloat(tv.elementType))
        narrowValues.push_back(v);
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
      if ((smallest && limit >= *smallest + 1) || stopped)
        break;
    }
    noteBytes();
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

  uint64_t noteBytes() {
    uint64_t bytes = ctx.approximateBytes() + foundBytes +
                     nodes.capacity() * sizeof(BlockNode);
    counts.peakBytes = std::max(counts.peakBytes, bytes);
    return bytes;
  }

  /// Counts a state; false once a limit stops the task. The state cap is
  /// exact; memory and the wall-clock deadline are checked every 1024
  /// states (at the same states on every run).
  bool tick() {
    if (stopped)
      return false;
    if (counts.explored >= limits.maxStates) {
      counts.stateCapHit = stopped = true;
      return false;
    }
    ++counts.explored;
    if (counts.explored % 1024 == 0) {
      if (noteBytes() > limits.maxBytes)
        counts.memoryCapHit = stopped = true;
      else if (limits.deadline && limits.deadline->expired())
        counts.deadlineHit = stopped = true;
    }
    return !stopped;
  }

  bool prunedByExpr(ExprId e) {
    if (!o.pruning || ctx.isSubexpression(e, goalExpr))
      return false;
    ++counts.pruned;
    return true;
  }

  /// The element types a sum of `operandType` values with expression `e`
  /// and variables `vars` may be held in: its own type where it is f32 (or
  /// wider), else f32, and the narrow type itself only if the original
  /// rounds this same value to it.
  SmallVector<Type, 2> sumTypes(Type operandType, ExprId e,
                                ArrayRef<int> vars) const {
    if (!isNarrowFloat(operandType))
      return {operandType};
    SmallVector<Type, 2> types;
    if (originalRounds(e, vars, operandType))
      types.push_back(operandType);
    types.push_back(t.f32Type);
    return types;
  }

  /// The element type of an elementwise result that would be `type` by the
  /// dialect's rule: an f16/bf16 value is kept narrow only if the original
  /// rounds this same value to that type, else it is widened to f32 (an
  /// RMS norm's squares, an exp the original never rounds, a reassociated
  /// difference: none may overflow or cancel where the original does not).
  Type elementwiseStorage(Type type, ExprId e, ArrayRef<int> vars) const {
    if (!isNarrowFloat(type) || originalRounds(e, vars, type))
      return type;
    return t.f32Type;
  }

  /// Whether the original program holds the value with expression `e` over
  /// index variables `vars` in a tensor of element type `type`.
  bool originalRounds(ExprId e, ArrayRef<int> vars, Type type) const {
    return llvm::any_of(narrowValues, [&](unsigned v) {
      return exprs[v] == e && ArrayRef<int>(t.values[v].vars) == vars &&
             t.values[v].elementType == type;
    });
  }

  void chooseInputs(unsigned i) {
    if (stopped)
      return;
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
    n.type = tv.elementType;
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
      return m.expr == n.expr && m.vars == n.vars && m.stage == n.stage &&
             m.type == n.type;
    });
  }

  /// Tries `n` as the next op: legality was checked by the caller.
  /// Ops are added in canonical order (non-decreasing keys, the key led by
  /// the newest operand), so each block graph is generated once however
  /// its independent ops could be ordered.
  void tryOp(BlockNode n, Key key) {
    if (stopped || key < keys.back() || duplicate(n) || prunedByExpr(n.expr))
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
      if (n.expr != goalExpr || ArrayRef<int>(n.vars) != goalVars ||
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
      out.type = t.values[goal.goal].elementType;
      g.nodes.push_back(std::move(out));
      g.loopVar = goal.loopVar;
      foundBytes += sizeof(BlockGraph) + g.nodes.size() * sizeof(BlockNode);
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
      // Copies of the operand's fields: tryOp appends to `nodes`, which may
      // move them.
      const BlockNode::Stage stage = nodes[i].stage;
      const ExprId expr = nodes[i].expr;
      const Type type = nodes[i].type;
      const SmallVector<int, 4> vars = nodes[i].vars;
      // Without a loop, ops after the (one-iteration) accumulator would
      // only duplicate the same ops before it.
      if (goal.loopVar < 0 && stage == BlockNode::AfterLoop)
        continue;
      // Unary ops.
      for (auto [c, choice] : llvm::enumerate(t.unaryOps)) {
        BlockNode n;
        n.kind = BlockNode::Unary;
        n.a = i;
        n.choice = c;
        n.vars = vars;
        n.stage = stage;
        n.expr = unaryExpr(ctx, choice, expr);
        n.type = elementwiseStorage(type, n.expr, n.vars);
        tryOp(std::move(n), Key{i, 1, i, 0, int(c)});
      }
      // Reductions over a reduced index variable.
      if (t.hasReduce)
        for (auto [d, v] : llvm::enumerate(vars)) {
          if (v < 0 || !t.varReduced[v])
            continue;
          SmallVector<int, 4> reducedVars = vars;
          reducedVars[d] = -1;
          ExprId reduced = ctx.sum(tileExtent(v), expr);
          for (auto [w, resultType] :
               llvm::enumerate(sumTypes(type, reduced, reducedVars))) {
            BlockNode n;
            n.kind = BlockNode::Reduce;
            n.a = i;
            n.choice = d;
            n.vars = reducedVars;
            n.stage = stage;
            n.type = resultType;
            n.expr = reduced;
            tryOp(std::move(n), Key{i, 2, i, int(w), int(d)});
          }
        }
      // For-loop accumulator: every saved tile passes through one (the sum
      // of one iteration when there is no loop). Sums of f16/bf16 tiles are
      // accumulated in f32.
      if (stage != BlockNode::AfterLoop &&
          (goal.loopVar < 0 || !llvm::is_contained(vars, goal.loopVar))) {
        BlockNode n;
        n.kind = BlockNode::Accum;
        n.a = i;
        n.vars = vars;
        n.stage = BlockNode::AfterLoop;
        n.type = isNarrowFloat(type) ? t.f32Type : type;
        n.expr = ctx.sum(loopStep, expr);
        tryOp(std::move(n), Key{i, 3, i, 0, 0});
      }
      for (int j = 0; j <= i; ++j) {
        auto combined = combine(stage, nodes[j].stage);
        if (!combined)
          continue;
        for (auto [lhs, rhs] : {std::pair{i, j}, std::pair{j, i}}) {
          if (std::optional<Type> result = elementwiseType(type, nodes[j].type))
            tryBinaries(lhs, rhs, *combined, i, *result);
          if (type == nodes[j].type)
            tryMatmul(lhs, rhs, *combined, i);
          if (i == j)
            break;
        }
      }
    }
  }

  /// The result type of an elementwise op on tiles of types `a` and `b`:
  /// their type, or f32 for an f16/bf16 tile and an f32 one (the block
  /// dialect's rule); nothing for other pairs.
  std::optional<Type> elementwiseType(Type a, Type b) const {
    if (a == b)
      return a;
    if (a == t.f32Type && isNarrowFloat(b))
      return a;
    if (b == t.f32Type && isNarrowFloat(a))
      return b;
    return std::nullopt;
  }

  void tryBinaries(int lhs, int rhs, BlockNode::Stage stage, int maxOperand,
                   Type resultType) {
    // NumPy broadcasting, as block.binary has it: the tiles' dimensions
    // align at the trailing end (a per-channel [C, 1, 1] operand of an
    // [N, C, H, W] one, as imported CNNs have), and a dimension without a
    // variable (size 1) takes the other's.
    SmallVector<int, 4> vars;
    {
      const auto &va = nodes[lhs].vars, &vb = nodes[rhs].vars;
      const auto &longer = va.size() >= vb.size() ? va : vb;
      const auto &shorter = va.size() >= vb.size() ? vb : va;
      size_t lead = longer.size() - shorter.size();
      vars.append(longer.begin(), longer.begin() + lead);
      for (auto [x, y] : llvm::zip(llvm::drop_begin(longer, lead), shorter)) {
        if (x != y && x >= 0 && y >= 0)
          return;
        vars.push_back(std::max(x, y));
      }
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
      n.type = elementwiseStorage(resultType, n.expr, n.vars);
      tryOp(std::move(n), Key{maxOperand, 4, lhs, rhs, int(kind)});
    }
  }

  void tryMatmul(int lhs, int rhs, BlockNode::Stage stage, int maxOperand) {
    if (!t.hasMatmul)
      return;
    SmallVector<int, 4> vars;
    int k;
    {
      const auto &va = nodes[lhs].vars, &vb = nodes[rhs].vars;
      size_t r = va.size();
      if (r < 2 || vb.size() != r || va[r - 1] != vb[r - 2])
        return;
      k = va[r - 1];
      if (k >= 0 && !t.varReduced[k])
        return;
      for (size_t d = 0; d + 2 < r; ++d)
        if (va[d] != vb[d])
          return;
      vars.assign(va.begin(), va.end() - 1);
      vars.push_back(vb[r - 1]);
    }
    ExprId product =
        ctx.sum(tileExtent(k), ctx.mul(nodes[lhs].expr, nodes[rhs].expr));
    Type operandType = nodes[lhs].type;
    for (auto [w, resultType] :
         llvm::enumerate(sumTypes(operandType, product, vars))) {
      BlockNode n;
      n.kind = BlockNode::Matmul;
      n.a = lhs;
      n.b = rhs;
      n.vars = vars;
      n.stage = stage;
      n.type = resultType;
      n.expr = product;
      tryOp(std::move(n), Key{maxOperand, 5, lhs, rhs, int(w)});
    }
  }

  const SearchTarget &t;
  const BlockGoal &goal;
  const SearchOptions &o;
  const TaskLimits &limits;
  SmallVectorImpl<BlockGraph> &found;
  BlockSearchCounts &counts;

  AbstractExprContext ctx;
  SmallVector<ExprId> exprs;
  ExprId goalExpr = 0;
  ArrayRef<int> goalVars;
  int64_t loopStep = 1;
  /// Target values of f16 or bf16 type.
  SmallVector<unsigned> narrowValues;

  SmallVector<BlockNode> nodes;
  SmallVector<unsigned> uses;
  SmallVector<Key> keys;
  unsigned numInputs = 0;
  unsigned limit = 0; // block ops, output saver included
  uint64_t foundBytes = 0;
  bool stopped = false;
};

} // namespace

void superopt::enumerateBlockGraphs(const SearchTarget &target,
                                    const BlockGoal &goal,
                                    const SearchOptions &options,
                                    const TaskLimits &limits,
                                    SmallVectorImpl<BlockGraph> &found,
                                    BlockSearchCounts &counts) {
  BlockGraphEnumerator(target, goal, options, limits, found, counts).run();
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
  // The output tensor: the goal's shape and type (the output vars equal the
  // goal's).
  const BlockNode &outNode = graph.nodes.back();
  SmallVector<int64_t> outShape;
  for (int v : outNode.vars)
    outShape.push_back(v < 0 ? 1 : target.varExtent[v]);
  auto outType = RankedTensorType::get(outShape, outNode.type);

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
  auto tileType = [&](const BlockNode &node) {
    SmallVector<int64_t> shape;
    for (int v : node.vars)
      shape.push_back(sizeOf(v));
    return block::TileType::get(shape, node.type);
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
          builder, loc, tileType(node), body->getArgument(nextArg++),
          gridMap(node.vars), block::LoopMapAttr::get(ctx, loopDim));
      break;
    }
    case BlockNode::Unary: {
      const UnaryChoice &c = target.unaryOps[node.choice];
      tiles[i] = block::UnaryOp::create(
          builder, loc, tileType(node), UnaryKindAttr::get(ctx, c.kind), a,
          c.params.empty() ? DenseF64ArrayAttr()
                           : builder.getDenseF64ArrayAttr(c.params));
      break;
    }
    case BlockNode::Binary:
      tiles[i] = block::BinaryOp::create(
          builder, loc, tileType(node), static_cast<BinaryKind>(node.choice),
          a, b);
      break;
    case BlockNode::Matmul:
      tiles[i] = block::MatmulOp::create(builder, loc, tileType(node), a, b);
      break;
    case BlockNode::Reduce:
      tiles[i] = block::ReduceOp::create(
          builder, loc, tileType(node),
          ReduceKindAttr::get(ctx, ReduceKind::sum), a,
          builder.getI64IntegerAttr(node.choice));
      break;
    case BlockNode::Accum:
      tiles[i] = block::AccumOp::create(builder, loc, tileType(node), a,
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
