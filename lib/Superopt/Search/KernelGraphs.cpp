//===- KernelGraphs.cpp - kernel-level enumeration of formulations --------===//

#include "mirage/Superopt/Search/KernelGraphs.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "llvm/ADT/STLExtras.h"

using namespace mirage;
using namespace mirage::superopt;
using ExprId = AbstractExprContext::ExprId;

std::optional<llvm::SmallVector<int64_t, 4>>
superopt::kernelGraphShape(KernelGraphOpKind kind, unsigned choice,
                           llvm::ArrayRef<llvm::ArrayRef<int64_t>> operands,
                           llvm::ArrayRef<int64_t> attr) {
  using Shape = llvm::SmallVector<int64_t, 4>;
  switch (kind) {
  case KernelGraphOpKind::Matmul: {
    llvm::ArrayRef<int64_t> a = operands[0], b = operands[1];
    size_t rank = a.size();
    if (rank < 2 || b.size() != rank || a[rank - 1] != b[rank - 2] ||
        a.drop_back(2) != b.drop_back(2))
      return std::nullopt;
    Shape shape(a.drop_back());
    shape.push_back(b.back());
    return shape;
  }
  case KernelGraphOpKind::Elementwise: {
    if (operands.size() == 1)
      return Shape(operands[0]);
    // NumPy broadcasting, aligned at the trailing end.
    llvm::ArrayRef<int64_t> a = operands[0], b = operands[1];
    if (a.size() < b.size())
      std::swap(a, b);
    Shape shape(a);
    for (size_t k = 1; k <= b.size(); ++k) {
      int64_t &out = shape[shape.size() - k];
      int64_t other = b[b.size() - k];
      if (out == other || other == 1)
        continue;
      if (out != 1)
        return std::nullopt;
      out = other;
    }
    return shape;
  }
  case KernelGraphOpKind::ReduceSum: {
    if (choice >= operands[0].size())
      return std::nullopt;
    Shape shape(operands[0]);
    shape[choice] = 1;
    return shape;
  }
  case KernelGraphOpKind::RMSNorm:
    if (operands[0].empty())
      return std::nullopt;
    return Shape(operands[0]);
  case KernelGraphOpKind::Softmax:
    if (choice >= operands[0].size())
      return std::nullopt;
    return Shape(operands[0]);
  case KernelGraphOpKind::Transpose: {
    llvm::ArrayRef<int64_t> in = operands[0];
    if (attr.size() != in.size())
      return std::nullopt;
    Shape shape;
    for (int64_t p : attr) {
      if (p < 0 || p >= int64_t(in.size()))
        return std::nullopt;
      shape.push_back(in[p]);
    }
    return shape;
  }
  case KernelGraphOpKind::Reshape:
    // Size-1 dimensions only: a merge or split is not one index per
    // dimension (see the header).
    if (attr.size() > kKernelGraphMaxRank ||
        !mirage::isUnitDimReshape(operands[0], attr))
      return std::nullopt;
    return Shape(attr);
  }
  return std::nullopt;
}

KernelGraphSources superopt::kernelGraphInputSources(
    unsigned input, llvm::ArrayRef<int64_t> shape) {
  KernelGraphSources sources(shape.size());
  for (auto [d, size] : llvm::enumerate(shape))
    if (size != 1)
      sources[d].push_back(kernelGraphSource(input, d));
  return sources;
}

KernelGraphSources superopt::kernelGraphSources(
    KernelGraphOpKind kind, unsigned choice,
    llvm::ArrayRef<llvm::ArrayRef<int64_t>> operandShapes,
    llvm::ArrayRef<const KernelGraphSources *> operandSources,
    llvm::ArrayRef<int64_t> resultShape, llvm::ArrayRef<int64_t> attr) {
  size_t rank = resultShape.size();
  KernelGraphSources out(rank);
  // Result dimension `d` runs along operand `o`'s dimension `od` too.
  auto take = [&](size_t d, unsigned o, size_t od) {
    if (resultShape[d] == 1 || operandShapes[o][od] != resultShape[d])
      return; // size 1, or broadcast along it
    llvm::SmallVector<unsigned, 2> &set = out[d];
    for (unsigned s : (*operandSources[o])[od])
      set.insert(llvm::lower_bound(set, s), s);
    set.erase(std::unique(set.begin(), set.end()), set.end());
  };
  switch (kind) {
  case KernelGraphOpKind::Matmul:
    for (size_t d = 0; d + 2 < rank; ++d) {
      take(d, 0, d);
      take(d, 1, d);
    }
    take(rank - 2, 0, rank - 2);
    take(rank - 1, 1, rank - 1);
    break;
  case KernelGraphOpKind::Elementwise:
    // Aligned at the trailing end (NumPy broadcasting).
    for (auto [o, shape] : llvm::enumerate(operandShapes))
      for (size_t k = 1; k <= shape.size(); ++k)
        take(rank - k, o, shape.size() - k);
    break;
  case KernelGraphOpKind::ReduceSum:
  case KernelGraphOpKind::RMSNorm:
  case KernelGraphOpKind::Softmax:
    // A reduced dimension is of size 1 in the result: no sources.
    for (size_t d = 0; d < rank; ++d)
      take(d, 0, d);
    break;
  case KernelGraphOpKind::Transpose:
    for (size_t d = 0; d < rank; ++d)
      take(d, 0, attr[d]);
    break;
  case KernelGraphOpKind::Reshape: {
    // The k-th dimension of size other than 1 is the operand's k-th.
    llvm::ArrayRef<int64_t> in = operandShapes[0];
    size_t od = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (resultShape[d] == 1)
        continue;
      while (od < in.size() && in[od] == 1)
        ++od;
      if (od == in.size())
        break; // not a size-1 reshape (kernelGraphShape rejects it)
      take(d, 0, od++);
    }
    break;
  }
  }
  return out;
}

namespace {

/// The canonical key of an op: its newest operand first, so that an op
/// reading the previous op's result always follows it, then its kind,
/// choice and operands. Keys never decrease along a graph, so independent
/// ops are generated in one order only.
using OpKey = llvm::SmallVector<unsigned, 5>;

static OpKey keyOf(const KernelGraphOp &op) {
  OpKey key{*llvm::max_element(op.operands), unsigned(op.kind), op.choice};
  key.append(op.operands.begin(), op.operands.end());
  return key;
}

class Enumerator {
public:
  Enumerator(AbstractExprContext &ctx, llvm::ArrayRef<KernelGraphTensor> goals,
             const KernelGraphMenu &menu, const KernelGraphLimits &limits,
             llvm::SmallVectorImpl<KernelGraph> &graphs,
             KernelGraphCounts &counts, llvm::ArrayRef<ExprId> own)
      : ctx(ctx), goals(goals), menu(menu), limits(limits), graphs(graphs),
        counts(counts), own(own) {}

  void run(llvm::ArrayRef<KernelGraphTensor> inputs) {
    graph.numInputs = inputs.size();
    graph.tensors.assign(inputs.begin(), inputs.end());
    for (auto [i, t] : llvm::enumerate(graph.tensors))
      t.sources = kernelGraphInputSources(i, t.shape);
    uses.assign(inputs.size(), 0);
    visit();
  }

private:
  bool stopped() const {
    return counts.stateBudgetHit || counts.graphLimitHit;
  }

  static bool same(const KernelGraphTensor &a, const KernelGraphTensor &b) {
    return a.expr == b.expr && a.elementType == b.elementType &&
           a.shape == b.shape && a.sources == b.sources;
  }

  /// Whether the created tensors have exactly the expressions of `own`.
  bool isOwn() const {
    if (own.empty())
      return false;
    llvm::SmallVector<ExprId> set;
    for (const KernelGraphTensor &t :
         llvm::ArrayRef(graph.tensors).drop_front(graph.numInputs))
      set.push_back(t.expr);
    llvm::sort(set);
    set.erase(std::unique(set.begin(), set.end()), set.end());
    return llvm::ArrayRef<ExprId>(set) == own;
  }

  /// The op-result tensor of a goal, if there is one.
  std::optional<unsigned> match(const KernelGraphTensor &goal) const {
    for (unsigned i = graph.numInputs; i < graph.tensors.size(); ++i)
      if (same(graph.tensors[i], goal))
        return i;
    return std::nullopt;
  }

  /// Created tensors that nothing reads and no goal is.
  unsigned unused() const {
    unsigned n = 0;
    for (unsigned i = graph.numInputs; i < graph.tensors.size(); ++i)
      if (!uses[i] && !llvm::any_of(goals, [&](const KernelGraphTensor &g) {
            return same(graph.tensors[i], g);
          }))
        ++n;
    return n;
  }

  void visit() {
    if (++counts.states > limits.maxStates) {
      counts.stateBudgetHit = true;
      return;
    }
    llvm::SmallVector<unsigned> outputs;
    for (const KernelGraphTensor &goal : goals)
      if (std::optional<unsigned> t = match(goal))
        outputs.push_back(*t);
    unsigned dead = unused();
    if (outputs.size() == goals.size()) {
      // Complete. With every goal present a further op could only be dead
      // (its tensor would be read by nothing, or repeat a goal's).
      if (dead == 0) {
        if (isOwn()) {
          ++counts.own;
          return;
        }
        if (graphs.size() == limits.maxGraphs) {
          counts.graphLimitHit = true;
          return;
        }
        graphs.push_back(graph);
        graphs.back().outputs = std::move(outputs);
      }
      return;
    }
    unsigned left = limits.maxOps - counted;
    // Each op consumes at most two unused tensors and makes one, unused
    // unless it is a goal; a reshape consumes at most one, so it lowers
    // the count only by making a goal. A prefix with more unused tensors
    // than what is left can consume never completes without dead code.
    unsigned unmet = goals.size() - outputs.size();
    if (dead > 2 * left + (menu.reshapes.empty() ? 0 : unmet))
      return;
    unsigned n = graph.tensors.size();
    if (left > 0)
      visitCounted(n);
    // Reshapes are free views, not counted; a reshape's result is not
    // reshaped again (see the header).
    for (auto [r, reshape] : llvm::enumerate(menu.reshapes))
      for (unsigned a = 0; a < n && !stopped(); ++a)
        if (graph.tensors[a].shape == reshape.from &&
            (a < graph.numInputs ||
             graph.ops[a - graph.numInputs].kind != KernelGraphOpKind::Reshape))
          tryOp({KernelGraphOpKind::Reshape, unsigned(r), {a}});
  }

  /// The ops that count against KernelGraphLimits::maxOps, on the first
  /// `n` tensors.
  void visitCounted(unsigned n) {
    if (menu.matmul)
      for (unsigned a = 0; a < n && !stopped(); ++a)
        for (unsigned b = 0; b < n && !stopped(); ++b)
          tryOp({KernelGraphOpKind::Matmul, 0, {a, b}});
    for (auto [e, entry] : llvm::enumerate(menu.elementwise))
      for (unsigned a = 0; a < n && !stopped(); ++a) {
        if (entry.arity == 1) {
          tryOp({KernelGraphOpKind::Elementwise, unsigned(e), {a}});
          continue;
        }
        for (unsigned b = entry.commutative ? a : 0; b < n && !stopped(); ++b)
          tryOp({KernelGraphOpKind::Elementwise, unsigned(e), {a, b}});
      }
    if (menu.reduceSum)
      for (unsigned a = 0; a < n && !stopped(); ++a)
        for (unsigned d = 0; d < graph.tensors[a].shape.size() && !stopped();
             ++d)
          if (graph.tensors[a].shape[d] > 1)
            tryOp({KernelGraphOpKind::ReduceSum, d, {a}});
    if (menu.rmsNorm)
      for (unsigned a = 0; a < n && !stopped(); ++a)
        tryOp({KernelGraphOpKind::RMSNorm, 0, {a}});
    for (auto [p, perm] : llvm::enumerate(menu.transposes))
      for (unsigned a = 0; a < n && !stopped(); ++a)
        if (graph.tensors[a].shape.size() == perm.size())
          tryOp({KernelGraphOpKind::Transpose, unsigned(p), {a}});
    if (menu.softmax)
      for (unsigned d : menu.softmaxDims)
        for (unsigned a = 0; a < n && !stopped(); ++a)
          if (d < graph.tensors[a].shape.size())
            tryOp({KernelGraphOpKind::Softmax, d, {a}});
  }

  void tryOp(KernelGraphOp op) {
    OpKey key = keyOf(op);
    if (!graph.ops.empty() && key < keyOf(graph.ops.back()))
      return;
    llvm::SmallVector<llvm::ArrayRef<int64_t>, 2> shapes;
    llvm::SmallVector<ExprId, 2> exprs;
    unsigned elementType = graph.tensors[op.operands[0]].elementType;
    for (unsigned o : op.operands) {
      const KernelGraphTensor &t = graph.tensors[o];
      if (t.elementType != elementType)
        return;
      shapes.push_back(t.shape);
      exprs.push_back(t.expr);
    }
    llvm::ArrayRef<int64_t> attr;
    if (op.kind == KernelGraphOpKind::Transpose)
      attr = menu.transposes[op.choice];
    if (op.kind == KernelGraphOpKind::Reshape)
      attr = menu.reshapes[op.choice].to;
    auto shape = kernelGraphShape(op.kind, op.choice, shapes, attr);
    if (!shape)
      return;
    KernelGraphTensor result;
    llvm::SmallVector<const KernelGraphSources *, 2> sources;
    for (unsigned o : op.operands)
      sources.push_back(&graph.tensors[o].sources);
    result.sources =
        kernelGraphSources(op.kind, op.choice, shapes, sources, *shape, attr);
    result.shape = std::move(*shape);
    result.elementType = elementType;
    switch (op.kind) {
    case KernelGraphOpKind::Matmul:
      result.expr = ctx.sum(shapes[0].back(), ctx.mul(exprs[0], exprs[1]));
      break;
    case KernelGraphOpKind::Elementwise:
      result.expr = menu.elementwise[op.choice].expr(ctx, exprs);
      break;
    case KernelGraphOpKind::ReduceSum:
      result.expr = ctx.sum(shapes[0][op.choice], exprs[0]);
      break;
    case KernelGraphOpKind::RMSNorm:
      result.expr = menu.rmsNorm(ctx, shapes[0].back(), exprs[0]);
      break;
    case KernelGraphOpKind::Transpose:
    case KernelGraphOpKind::Reshape:
      // Data movement: the layout is in the shape and sources only.
      result.expr = exprs[0];
      break;
    case KernelGraphOpKind::Softmax:
      result.expr = menu.softmax(ctx, shapes[0][op.choice], exprs[0]);
      break;
    }
    if (llvm::any_of(graph.tensors, [&](const KernelGraphTensor &t) {
          return same(t, result);
        })) {
      ++counts.duplicates;
      return;
    }
    if (limits.pruning &&
        !llvm::any_of(goals, [&](const KernelGraphTensor &g) {
          return ctx.isSubexpression(result.expr, g.expr);
        })) {
      ++counts.pruned;
      return;
    }
    llvm::SmallVector<unsigned, 2> operands = op.operands;
    unsigned cost = op.kind == KernelGraphOpKind::Reshape ? 0 : 1;
    for (unsigned o : operands)
      ++uses[o];
    graph.tensors.push_back(std::move(result));
    graph.ops.push_back(std::move(op));
    uses.push_back(0);
    counted += cost;
    visit();
    counted -= cost;
    uses.pop_back();
    graph.ops.pop_back();
    graph.tensors.pop_back();
    for (unsigned o : operands)
      --uses[o];
  }

  AbstractExprContext &ctx;
  llvm::ArrayRef<KernelGraphTensor> goals;
  const KernelGraphMenu &menu;
  const KernelGraphLimits &limits;
  llvm::SmallVectorImpl<KernelGraph> &graphs;
  KernelGraphCounts &counts;
  llvm::ArrayRef<ExprId> own;
  KernelGraph graph;
  llvm::SmallVector<unsigned> uses;
  /// The ops of `graph` that count against the limit (not its reshapes).
  unsigned counted = 0;
};

} // namespace

void superopt::enumerateKernelGraphs(
    AbstractExprContext &ctx, llvm::ArrayRef<KernelGraphTensor> inputs,
    llvm::ArrayRef<KernelGraphTensor> goals, const KernelGraphMenu &menu,
    const KernelGraphLimits &limits,
    llvm::SmallVectorImpl<KernelGraph> &graphs, KernelGraphCounts &counts,
    llvm::ArrayRef<ExprId> own) {
  Enumerator(ctx, goals, menu, limits, graphs, counts, own).run(inputs);
}
