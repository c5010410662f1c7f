//===- BlockGraphSearch.cpp - enumerating and building block graphs -------===//

#include "BlockGraphSearch.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
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
    // A goal no tile after this loop can have is not searched at every
    // size up to block-ops: nothing would be found (AbstractExpr.h).
    if (goal.loopVar >= 0 && o.pruning &&
        !ctx.computableAfterLoop(goalExpr, loopStep)) {
      ++counts.pruned;
      return;
    }
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
    unsigned value = goal.available[i];
    // A goal that mentions this tensor cannot be reached without reading
    // it: no block op introduces an input atom (AbstractExpr.h).
    if (!o.pruning || !ctx.mentionsInput(goalExpr, value))
      chooseInputs(i + 1);
    const TargetValue &tv = t.values[value];
    if (nodes.size() + 2 > limit || prunedByExpr(exprs[value]))
      return;
    // The loop variable must be one dimension of the tensor at most.
    if (goal.loopVar >= 0 && llvm::count(tv.vars, goal.loopVar) > 1)
      return;
    // The tile in each layout the program reads the tensor in (its own, or
    // a size-1 reshape's: SearchTarget.h); the builder reshapes the tile
    // it loads into it.
    for (const SmallVector<int, 4> &layout : tv.layouts) {
      BlockNode n;
      n.kind = BlockNode::Input;
      n.choice = value;
      n.expr = exprs[value];
      n.vars = layout;
      n.type = tv.elementType;
      n.stage = llvm::is_contained(tv.vars, goal.loopVar) && goal.loopVar >= 0
                    ? BlockNode::Varying
                    : BlockNode::Invariant;
      push(std::move(n), Key{-1, 0, 0, 0, 0});
      chooseInputs(i + 1);
      pop();
    }
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
      // A tile in another layout of the same variables is saved through a
      // block.reshape (a size-1 reshape of the program: SearchTarget.h).
      if (n.expr != goalExpr || !sameUpToUnitDims(n.vars, goalVars) ||
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
      out.vars.assign(goalVars.begin(), goalVars.end());
      out.stage = n.stage;
      out.type = t.values[goal.goal].elementType;
      g.nodes.push_back(std::move(out));
      g.loopVar = goal.loopVar;
      foundBytes += sizeof(BlockGraph) + g.nodes.size() * sizeof(BlockNode);
      found.push_back(g);
      recordSecondOutputs(g, i);
    }
  }

  /// Copies of the complete graph `g` (its output tile at `outTile`) that
  /// also save a tile of a value in `goal.pairWith`: the kernel then writes
  /// that value as well as the goal, and the kernel that would have written
  /// it alone is spared. The tile must hold the whole value once the grid
  /// partitions it (gridChoices keeps to grids over variables both outputs
  /// have), so it is one computed after the loop, or any loop-body tile
  /// when there is no loop (its one-iteration accumulator is the identity).
  /// With a loop, a loop-body tile is one step's slice: not savable.
  void recordSecondOutputs(const BlockGraph &g, unsigned outTile) {
    if (goal.pairWith.empty() || o.maxKernelOutputs < 2)
      return;
    for (unsigned u : goal.pairWith) {
      ArrayRef<int> uVars = t.values[u].vars;
      for (unsigned k = numInputs; k < nodes.size(); ++k) {
        const BlockNode &n = nodes[k];
        bool savable = (goal.loopVar < 0) != (n.stage == BlockNode::AfterLoop);
        if (k == outTile || !savable || n.expr != exprs[u] ||
            !sameUpToUnitDims(n.vars, uVars))
          continue;
        BlockGraph paired = g;
        paired.secondTile = k;
        paired.secondGoal = u;
        if (paired.nodes.size() + paired.secondOutputOps() > o.maxBlockOps)
          break;
        foundBytes += sizeof(BlockGraph) + paired.nodes.size() * sizeof(BlockNode);
        found.push_back(std::move(paired));
        break; // equal tiles are not generated twice (duplicate())
      }
    }
  }

  void search() {
    if (!tick())
      return;
    recordOutputs();
    // Without a loop nothing reads a tile after the (one-iteration)
    // accumulator, so the graph ends with it: see the accumulator below.
    if (goal.loopVar < 0 && nodes.back().stage == BlockNode::AfterLoop)
      return;
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
      // Without a loop, no op reads a tile after it, so every tile but the
      // output must be read before it: it is the last op, on the goal
      // itself (any other accumulator or later op would stay unread, and
      // such graphs are never recorded).
      bool accumUseful =
          goal.loopVar >= 0 ||
          (nodes.size() + 2 == limit && expr == goalExpr &&
           sameUpToUnitDims(vars, goalVars));
      if (stage != BlockNode::AfterLoop && accumUseful &&
          (goal.loopVar < 0 || !llvm::is_contained(vars, goal.loopVar))) {
        BlockNode n;
        n.kind = BlockNode::Accum;
        n.choice = static_cast<unsigned>(block::AccumKind::sum);
        n.a = i;
        n.vars = vars;
        n.stage = BlockNode::AfterLoop;
        n.type = isNarrowFloat(type) ? t.f32Type : type;
        n.expr = ctx.sum(loopStep, expr);
        tryOp(std::move(n), Key{i, 3, i, 0, 0});
      }
      if (stage != BlockNode::AfterLoop)
        tryReducingAccums(i);
      tryRMSNorm(i);
      for (int j = 0; j <= i; ++j) {
        auto combined = combine(stage, nodes[j].stage);
        if (!combined)
          continue;
        for (auto [lhs, rhs] : {std::pair{i, j}, std::pair{j, i}}) {
          if (std::optional<Type> result = elementwiseType(type, nodes[j].type))
            tryBinaries(lhs, rhs, *combined, i, *result);
          if (type == nodes[j].type)
            tryMatmul(lhs, rhs, *combined, i);
          if (*combined != BlockNode::AfterLoop)
            trySoftmaxAccum(lhs, rhs, i);
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

  /// The composite accumulators that reduce tile i along one dimension
  /// first (Mirage's accum_red_ld_sum / accum_red_ld_rms, one op each):
  /// red_sum over any reduced variable, red_rms over a variable an rms_norm
  /// normalizes, walked by the loop (or whole in the tile without one). The
  /// result must not vary with the loop.
  void tryReducingAccums(int i) {
    const SmallVector<int, 4> vars = nodes[i].vars;
    const ExprId expr = nodes[i].expr;
    const Type type = nodes[i].type;
    for (auto [d, v] : llvm::enumerate(vars)) {
      if (v < 0 || !t.varReduced[v])
        continue;
      SmallVector<int, 4> reduced = vars;
      reduced[d] = -1;
      if (goal.loopVar >= 0 && llvm::is_contained(reduced, goal.loopVar))
        continue;
      Type result = isNarrowFloat(type) ? t.f32Type : type;
      int64_t n = tileExtent(v) * loopStep;
      if (t.hasReduce) {
        BlockNode r;
        r.kind = BlockNode::Accum;
        r.choice = static_cast<unsigned>(block::AccumKind::red_sum);
        r.dim = d;
        r.a = i;
        r.vars = reduced;
        r.stage = BlockNode::AfterLoop;
        r.type = result;
        r.expr = ctx.sum(loopStep, ctx.sum(tileExtent(v), expr));
        tryOp(std::move(r), Key{i, 3, i, 1, int(d)});
      }
      if (llvm::is_contained(t.rmsVars, v) &&
          (goal.loopVar < 0 || v == goal.loopVar)) {
        BlockNode r;
        r.kind = BlockNode::Accum;
        r.choice = static_cast<unsigned>(block::AccumKind::red_rms);
        r.dim = d;
        r.a = i;
        r.vars = reduced;
        r.stage = BlockNode::AfterLoop;
        r.type = t.f32Type;
        r.expr = unaryExpr(ctx, {UnaryKind::sqrt, {}},
                           ctx.scale(1.0 / double(n),
                                     ctx.sum(n, ctx.mul(expr, expr))));
        tryOp(std::move(r), Key{i, 3, i, 2, int(d)});
      }
    }
  }

  /// block.rms_norm of tile i along a variable an rms_norm normalizes,
  /// whole in the tile (not the loop's): x / sqrt(mean(x^2)).
  void tryRMSNorm(int i) {
    if (t.rmsVars.empty())
      return;
    const SmallVector<int, 4> vars = nodes[i].vars;
    const ExprId expr = nodes[i].expr;
    const Type type = nodes[i].type;
    const BlockNode::Stage stage = nodes[i].stage;
    for (auto [d, v] : llvm::enumerate(vars)) {
      if (v < 0 || v == goal.loopVar || !llvm::is_contained(t.rmsVars, v))
        continue;
      int64_t n = tileExtent(v);
      BlockNode r;
      r.kind = BlockNode::RMSNorm;
      r.dim = d;
      r.a = i;
      r.vars = vars;
      r.stage = stage;
      r.expr = ctx.div(expr, unaryExpr(ctx, {UnaryKind::sqrt, {}},
                                       ctx.scale(1.0 / double(n),
                                                 ctx.sum(n, ctx.mul(expr, expr)))));
      r.type = elementwiseStorage(type, r.expr, r.vars);
      tryOp(std::move(r), Key{i, 7, i, 0, int(d)});
    }
  }

  /// An online softmax (block.softmax_accum) of scores `s` [..., r, c] and
  /// values `v` [..., c, d], c a softmax's variable, walked by the for-loop
  /// or whole in the tile. Its node stands for its output, softmax(S) V
  /// after the loop, whose expression is the normal form of the
  /// program's softmax(S) V: sum(sexp(S) V) / sum(sexp(S)).
  void trySoftmaxAccum(int s, int v, int maxOperand) {
    if (t.softmaxVars.empty())
      return;
    SmallVector<int, 4> vars;
    int c;
    {
      const auto &vs = nodes[s].vars, &vv = nodes[v].vars;
      size_t r = vs.size();
      if (r < 2 || vv.size() != r || vs[r - 1] != vv[r - 2])
        return;
      c = vs[r - 1];
      if (c < 0 || !llvm::is_contained(t.softmaxVars, c))
        return;
      if (goal.loopVar >= 0 && c != goal.loopVar)
        return;
      for (size_t d = 0; d + 2 < r; ++d)
        if (vs[d] != vv[d])
          return;
      vars.assign(vs.begin(), vs.end() - 1);
      vars.push_back(vv[r - 1]);
      if (goal.loopVar >= 0 && llvm::is_contained(vars, goal.loopVar))
        return;
    }
    int64_t n = tileExtent(c) * (goal.loopVar >= 0 ? loopStep : 1);
    ExprId e = shiftedExp(ctx, nodes[s].expr);
    BlockNode node;
    node.kind = BlockNode::SoftmaxAccum;
    node.a = s;
    node.b = v;
    node.vars = vars;
    node.stage = BlockNode::AfterLoop;
    node.type = t.f32Type;
    node.expr = ctx.div(ctx.sum(n, ctx.mul(e, nodes[v].expr)), ctx.sum(n, e));
    tryOp(std::move(node), Key{maxOperand, 6, s, v, 0});
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

std::optional<BlockGraph> superopt::combineGraphs(const BlockGraph &first,
                                                  const BlockGraph &second,
                                                  unsigned secondGoal,
                                                  unsigned maxBlockOps) {
  if (first.loopVar != second.loopVar || first.secondTile >= 0 ||
      second.secondTile >= 0)
    return std::nullopt;
  BlockGraph g;
  g.loopVar = first.loopVar;
  g.nodes.assign(first.nodes.begin(), first.nodes.end() - 1);
  SmallVector<int> index(second.nodes.size(), -1);
  for (size_t i = 0; i + 1 < second.nodes.size(); ++i) {
    BlockNode n = second.nodes[i];
    if (n.a >= 0)
      n.a = index[n.a];
    if (n.b >= 0)
      n.b = index[n.b];
    // A node the first graph has already (the same op on the same tiles,
    // an input iterator of the same tensor in the same layout) is shared.
    auto shared = llvm::find_if(g.nodes, [&](const BlockNode &m) {
      return m.kind == n.kind && m.choice == n.choice && m.dim == n.dim &&
             m.a == n.a && m.b == n.b && m.vars == n.vars &&
             m.type == n.type && m.stage == n.stage;
    });
    if (shared != g.nodes.end()) {
      index[i] = shared - g.nodes.begin();
      continue;
    }
    index[i] = g.nodes.size();
    g.nodes.push_back(std::move(n));
  }
  g.nodes.push_back(first.nodes.back());
  g.secondTile = index[second.nodes.back().a];
  g.secondGoal = secondGoal;
  if (g.nodes.size() + g.secondOutputOps() > maxBlockOps)
    return std::nullopt;
  return g;
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
  // With a second output, only variables it has too: a grid dimension it
  // lacks would have every block along it save the same tile.
  if (graph.secondTile >= 0)
    llvm::erase_if(candidates, [&](int v) {
      return !llvm::is_contained(target.values[graph.secondGoal].vars, v);
    });
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
  // A split of the loop variable over one more grid dimension: each part
  // is then walked by the for-loop (any range dividing the part; one
  // iteration too). Its accumulators must be combinable (sums, online
  // softmaxes: the only ones the enumeration makes) and their partial
  // results few enough to save.
  SmallVector<int64_t> splits;
  bool combinable = llvm::none_of(graph.nodes, [](const BlockNode &n) {
    return n.kind == BlockNode::Accum &&
           n.choice == static_cast<unsigned>(block::AccumKind::red_rms);
  });
  // A split is two graph-defined kernels: not under a limit of one.
  if (graph.loopVar >= 0 && combinable && graph.secondTile < 0 &&
      options.maxGraphDefinedKernels != 1 &&
      partialOutputs(graph) <= options.maxKernelOutputs)
    for (int64_t p : gridSizes(target.varExtent[graph.loopVar], options))
      if (p < target.varExtent[graph.loopVar])
        splits.push_back(p);

  SmallVector<GridChoice> grids;
  GridChoice current;
  std::function<void(size_t)> extend = [&](size_t from) {
    for (int64_t f : loops) {
      GridChoice g = current;
      g.forloop = f;
      grids.push_back(std::move(g));
    }
    // Every partial result is saved: each grid dimension must place its
    // blocks' tiles of it apart (an online softmax's stats do not have the
    // output's last variable).
    bool savable = llvm::all_of(graph.nodes, [&](const BlockNode &n) {
      if (n.kind != BlockNode::Accum && n.kind != BlockNode::SoftmaxAccum)
        return true;
      ArrayRef<int> saved(n.vars);
      if (n.kind == BlockNode::SoftmaxAccum)
        saved = saved.drop_back();
      return llvm::all_of(current.vars,
                          [&](int v) { return llvm::is_contained(saved, v); });
    });
    if (savable && current.vars.size() < 3)
      for (int64_t p : splits) {
        int64_t part = target.varExtent[graph.loopVar] / p;
        SmallVector<int64_t> partLoops{1};
        llvm::append_range(partLoops, loopRanges(part, options));
        for (int64_t f : partLoops) {
          GridChoice g = current;
          g.forloop = f;
          g.splitParts = p;
          grids.push_back(std::move(g));
        }
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

SmallVector<GridChoice> superopt::combineChoices(const SearchTarget &target,
                                                 const BlockGraph &graph,
                                                 const SearchOptions &options) {
  SmallVector<int> candidates;
  for (int v : graph.nodes.back().vars)
    if (v >= 0 && !target.varReduced[v] && !llvm::is_contained(candidates, v))
      candidates.push_back(v);
  llvm::sort(candidates);
  SmallVector<GridChoice> grids;
  GridChoice current;
  std::function<void(size_t)> extend = [&](size_t from) {
    grids.push_back(current);
    if (current.combineVars.size() == options.maxGridDims)
      return;
    for (size_t i = from; i < candidates.size(); ++i)
      for (int64_t size : gridSizes(target.varExtent[candidates[i]], options)) {
        current.combineVars.push_back(candidates[i]);
        current.combineSizes.push_back(size);
        extend(i + 1);
        current.combineVars.pop_back();
        current.combineSizes.pop_back();
      }
  };
  extend(0);
  return grids;
}
