//===- KernelGraphs.cpp - kernel-level enumeration of formulations --------===//

#include "Superopt/Search/KernelGraphs.h"
#include "llvm/ADT/STLExtras.h"

using namespace mirage;
using namespace mirage::superopt;
using ExprId = AbstractExprContext::ExprId;

std::optional<llvm::SmallVector<int64_t, 4>>
superopt::kernelGraphShape(KernelGraphOpKind kind, unsigned choice,
                           llvm::ArrayRef<llvm::ArrayRef<int64_t>> operands) {
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
  }
  return std::nullopt;
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
             KernelGraphCounts &counts)
      : ctx(ctx), goals(goals), menu(menu), limits(limits), graphs(graphs),
        counts(counts) {}

  void run(llvm::ArrayRef<KernelGraphTensor> inputs) {
    graph.numInputs = inputs.size();
    graph.tensors.assign(inputs.begin(), inputs.end());
    uses.assign(inputs.size(), 0);
    visit();
  }

private:
  bool stopped() const {
    return counts.stateBudgetHit || counts.graphLimitHit;
  }

  static bool same(const KernelGraphTensor &a, const KernelGraphTensor &b) {
    return a.expr == b.expr && a.elementType == b.elementType &&
           a.shape == b.shape;
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
        if (graphs.size() == limits.maxGraphs) {
          counts.graphLimitHit = true;
          return;
        }
        graphs.push_back(graph);
        graphs.back().outputs = std::move(outputs);
      }
      return;
    }
    unsigned left = limits.maxOps - graph.ops.size();
    // Each op consumes at most two unused tensors; a prefix with more than
    // its remaining ops can consume never completes without dead code.
    if (left == 0 || dead > 2 * left)
      return;
    unsigned n = graph.tensors.size();
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
    auto shape = kernelGraphShape(op.kind, op.choice, shapes);
    if (!shape)
      return;
    KernelGraphTensor result;
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
    for (unsigned o : operands)
      ++uses[o];
    graph.tensors.push_back(std::move(result));
    graph.ops.push_back(std::move(op));
    uses.push_back(0);
    visit();
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
  KernelGraph graph;
  llvm::SmallVector<unsigned> uses;
};

} // namespace

void superopt::enumerateKernelGraphs(
    AbstractExprContext &ctx, llvm::ArrayRef<KernelGraphTensor> inputs,
    llvm::ArrayRef<KernelGraphTensor> goals, const KernelGraphMenu &menu,
    const KernelGraphLimits &limits,
    llvm::SmallVectorImpl<KernelGraph> &graphs, KernelGraphCounts &counts) {
  Enumerator(ctx, goals, menu, limits, graphs, counts).run(inputs);
}
