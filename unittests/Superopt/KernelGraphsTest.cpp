//===- KernelGraphsTest.cpp - kernel-level enumeration of formulations ----===//

#include "mirage/Superopt/Search/KernelGraphs.h"
#include "gtest/gtest.h"
#include <set>

using namespace mirage::superopt;
using ExprId = AbstractExprContext::ExprId;
using Shape = llvm::SmallVector<int64_t, 4>;
using llvm::SmallVector;

namespace {

class KernelGraphsTest : public ::testing::Test {
protected:
  AbstractExprContext ctx;

  KernelGraphTensor tensor(Shape shape, ExprId expr, unsigned type = 0) {
    KernelGraphTensor t;
    t.shape = std::move(shape);
    t.elementType = type;
    t.expr = expr;
    return t;
  }
  /// A goal: its sources, per dimension, as (input, dimension) pairs.
  KernelGraphTensor goal(
      Shape shape, ExprId expr,
      std::initializer_list<std::initializer_list<std::pair<unsigned, unsigned>>>
          sources) {
    KernelGraphTensor t = tensor(std::move(shape), expr);
    for (const auto &dim : sources) {
      llvm::SmallVector<unsigned, 2> set;
      for (auto [input, d] : dim)
        set.push_back(kernelGraphSource(input, d));
      llvm::sort(set);
      t.sources.push_back(std::move(set));
    }
    return t;
  }
  ExprId matmul(ExprId a, ExprId b, int64_t k) {
    return ctx.sum(k, ctx.mul(a, b));
  }
  static KernelGraphMenu::Elementwise add() {
    KernelGraphMenu::Elementwise e;
    e.arity = 2;
    e.commutative = true;
    e.expr = [](AbstractExprContext &c, llvm::ArrayRef<ExprId> x) {
      return c.add(x[0], x[1]);
    };
    return e;
  }
  static KernelGraphMenu::Elementwise exp() {
    KernelGraphMenu::Elementwise e;
    e.expr = [](AbstractExprContext &c, llvm::ArrayRef<ExprId> x) {
      return c.apply("exp", x[0]);
    };
    return e;
  }

  static KernelGraphMenu::Elementwise scale(double factor) {
    KernelGraphMenu::Elementwise e;
    e.expr = [factor](AbstractExprContext &c, llvm::ArrayRef<ExprId> x) {
      return c.scale(factor, x[0]);
    };
    return e;
  }
  /// Softmax as the search's target analysis abstracts it: an opaque
  /// shifted exp over its sum, sexp(x) / sum(n, sexp(x)).
  static ExprId softmax(AbstractExprContext &c, int64_t n, ExprId x) {
    ExprId e = c.apply("sexp", x);
    return c.div(e, c.sum(n, e));
  }

  /// A graph as text, an op a word: M(atmul), E(lementwise), R(educe),
  /// T(ranspose), S(oftmax) and V (a reshape, a view) with their choice,
  /// N(orm), then the operands, e.g. "M(0,1) E0(3,2)".
  static std::string str(const KernelGraph &g) {
    std::string out;
    for (const KernelGraphOp &op : g.ops) {
      if (!out.empty())
        out += " ";
      out += "MERNTSV"[unsigned(op.kind)];
      if (op.kind != KernelGraphOpKind::Matmul &&
          op.kind != KernelGraphOpKind::RMSNorm)
        out += std::to_string(op.choice);
      out += "(";
      for (size_t i = 0; i < op.operands.size(); ++i)
        out += (i ? "," : "") + std::to_string(op.operands[i]);
      out += ")";
    }
    return out;
  }
  static std::vector<std::string> strs(llvm::ArrayRef<KernelGraph> graphs) {
    std::vector<std::string> out;
    for (const KernelGraph &g : graphs)
      out.push_back(str(g));
    return out;
  }
};

TEST_F(KernelGraphsTest, ShapeRules) {
  using K = KernelGraphOpKind;
  Shape a{2, 8, 16}, b{2, 16, 4}, c{3, 16, 4};
  EXPECT_EQ(*kernelGraphShape(K::Matmul, 0, {a, b}), (Shape{2, 8, 4}));
  EXPECT_FALSE(kernelGraphShape(K::Matmul, 0, {a, c})); // batch differs
  EXPECT_FALSE(kernelGraphShape(K::Matmul, 0, {b, a})); // 4 against 8
  Shape x{8, 1, 4}, y{5, 1};
  EXPECT_EQ(*kernelGraphShape(K::Elementwise, 0, {x, y}), (Shape{8, 5, 4}));
  EXPECT_FALSE(kernelGraphShape(K::Elementwise, 0, {a, b}));
  EXPECT_EQ(*kernelGraphShape(K::ReduceSum, 1, {a}), (Shape{2, 1, 16}));
  EXPECT_FALSE(kernelGraphShape(K::ReduceSum, 3, {a}));
  EXPECT_EQ(*kernelGraphShape(K::RMSNorm, 0, {a}), a);
  EXPECT_EQ(*kernelGraphShape(K::Softmax, 2, {a}), a);
  EXPECT_FALSE(kernelGraphShape(K::Softmax, 3, {a}));
  EXPECT_EQ(*kernelGraphShape(K::Transpose, 0, {a}, {0, 2, 1}),
            (Shape{2, 16, 8}));
  EXPECT_FALSE(kernelGraphShape(K::Transpose, 0, {a}, {1, 0}));
  // Reshapes insert or drop size-1 dimensions only.
  Shape row{1, 16, 64};
  EXPECT_EQ(*kernelGraphShape(K::Reshape, 0, {row}, {16, 64}),
            (Shape{16, 64}));
  EXPECT_EQ(*kernelGraphShape(K::Reshape, 0, {row}, {16, 1, 64, 1}),
            (Shape{16, 1, 64, 1}));
  EXPECT_FALSE(kernelGraphShape(K::Reshape, 0, {row}, {64, 16})); // order
  EXPECT_FALSE(kernelGraphShape(K::Reshape, 0, {row}, {1024}));   // merge
  EXPECT_FALSE(kernelGraphShape(K::Reshape, 0, {row}, {16, 8, 8})); // split
}

// Sources follow the indexing: a matmul's rows, columns and batch, a
// broadcast operand's size-1 dimensions add nothing, a transpose permutes,
// a reduced dimension has none.
TEST_F(KernelGraphsTest, Sources) {
  using K = KernelGraphOpKind;
  Shape a{2, 8, 16}, b{2, 16, 4}, out{2, 8, 4};
  KernelGraphSources sa = kernelGraphInputSources(0, a),
                     sb = kernelGraphInputSources(1, b);
  unsigned a0 = kernelGraphSource(0, 0), a1 = kernelGraphSource(0, 1),
           a2 = kernelGraphSource(0, 2), b0 = kernelGraphSource(1, 0),
           b2 = kernelGraphSource(1, 2);
  KernelGraphSources mm = kernelGraphSources(K::Matmul, 0, {a, b}, {&sa, &sb},
                                             out);
  EXPECT_EQ(mm, (KernelGraphSources{{a0, b0}, {a1}, {b2}}));
  Shape row{1, 1, 4};
  KernelGraphSources srow = kernelGraphInputSources(2, row);
  EXPECT_EQ(srow, (KernelGraphSources{{}, {}, {kernelGraphSource(2, 2)}}));
  EXPECT_EQ(kernelGraphSources(K::Elementwise, 0, {out, row}, {&mm, &srow},
                               out),
            (KernelGraphSources{{a0, b0}, {a1}, {b2, kernelGraphSource(2, 2)}}));
  EXPECT_EQ(kernelGraphSources(K::Transpose, 0, {a}, {&sa}, {2, 16, 8},
                               {0, 2, 1}),
            (KernelGraphSources{{a0}, {a2}, {a1}}));
  EXPECT_EQ(kernelGraphSources(K::ReduceSum, 1, {a}, {&sa}, {2, 1, 16}),
            (KernelGraphSources{{a0}, {}, {a2}}));
  EXPECT_EQ(kernelGraphSources(K::Softmax, 2, {a}, {&sa}, a), sa);
  // A reshape moves the dimensions other than size 1 in order; its size-1
  // dimensions have none.
  Shape x{1, 16, 1, 64};
  KernelGraphSources sx = kernelGraphInputSources(3, x);
  unsigned x1 = kernelGraphSource(3, 1), x3 = kernelGraphSource(3, 3);
  EXPECT_EQ(kernelGraphSources(K::Reshape, 0, {x}, {&sx}, {16, 64},
                               {16, 64}),
            (KernelGraphSources{{x1}, {x3}}));
  EXPECT_EQ(kernelGraphSources(K::Reshape, 0, {x}, {&sx}, {16, 1, 64, 1, 1},
                               {16, 1, 64, 1, 1}),
            (KernelGraphSources{{x1}, {}, {x3}, {}, {}}));
}

// softmax(s (Q K)) V: scaling Q or K before the product is the same
// softmax argument in the abstract expressions (scalars pull out of sums),
// so both are formulations; the program's own is counted, not reported.
// Scaling V or the output is not: the scale would sit outside the opaque
// shifted exp.
TEST_F(KernelGraphsTest, ScaledAttention) {
  ExprId q = ctx.input(0), k = ctx.input(1), v = ctx.input(2);
  SmallVector<KernelGraphTensor> inputs{tensor({8, 16}, q),
                                        tensor({16, 32}, k),
                                        tensor({32, 16}, v)};
  ExprId scores = ctx.scale(0.25, matmul(q, k, 16));
  ExprId probs = softmax(ctx, 32, scores);
  KernelGraphTensor out =
      goal({8, 16}, matmul(probs, v, 32), {{{0, 0}}, {{2, 1}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  menu.elementwise.push_back(scale(0.25));
  menu.softmax = softmax;
  menu.softmaxDims.push_back(1);
  KernelGraphLimits limits;
  limits.maxOps = 4;
  SmallVector<ExprId> own{matmul(q, k, 16), scores, probs, out.expr};
  llvm::sort(own);
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts, own);
  EXPECT_EQ(strs(graphs),
            (std::vector<std::string>{"E0(0) M(3,1) S1(4) M(5,2)",
                                      "E0(1) M(0,3) S1(4) M(5,2)"}));
  EXPECT_EQ(counts.own, 1u);
  EXPECT_FALSE(counts.stateBudgetHit);
  // The softmax's result has the target analysis' expression.
  EXPECT_EQ(graphs[0].tensors[5].expr, probs);
  EXPECT_GT(counts.pruned, 0u);
  // Without the program's set, its own formulation is reported first.
  graphs.clear();
  counts = {};
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts);
  EXPECT_EQ(strs(graphs).front(), "M(0,1) E0(3) S1(4) M(5,2)");
  EXPECT_EQ(graphs.size(), 3u);
}

// Q K^T with a square K: the abstract expressions of Q K and Q K^T are the
// same, and so are their shapes; the sources tell them apart, so Q K is
// not a formulation, and K^T^T is K again (a duplicate). (K Q^T)^T is.
TEST_F(KernelGraphsTest, TransposeLayouts) {
  ExprId q = ctx.input(0), k = ctx.input(1);
  SmallVector<KernelGraphTensor> inputs{tensor({16, 16}, q),
                                        tensor({16, 16}, k)};
  KernelGraphTensor out =
      goal({16, 16}, matmul(q, k, 16), {{{0, 0}}, {{1, 0}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  menu.transposes.push_back({1, 0});
  KernelGraphLimits limits;
  limits.maxOps = 3;
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts);
  EXPECT_EQ(strs(graphs), (std::vector<std::string>{"T0(0) M(1,2) T0(3)",
                                                    "T0(1) M(0,2)"}));
  EXPECT_GT(counts.duplicates, 0u);
  // A transpose is data movement: its operand's expression.
  EXPECT_EQ(graphs[1].tensors[2].expr, k);
  EXPECT_EQ(graphs[1].tensors[2].shape, (Shape{16, 16}));
  EXPECT_NE(graphs[1].tensors[2].sources, graphs[1].tensors[1].sources);
}

// (x A) B: the program's formulation and x (A B), each once, and nothing
// else within three ops (a third op would be dead).
TEST_F(KernelGraphsTest, MatmulAssociativity) {
  ExprId x = ctx.input(0), a = ctx.input(1), b = ctx.input(2);
  SmallVector<KernelGraphTensor> inputs{tensor({8, 64}, x),
                                        tensor({64, 16}, a),
                                        tensor({16, 64}, b)};
  KernelGraphTensor goal =
      this->goal({8, 64}, matmul(matmul(x, a, 64), b, 16), {{{0, 0}}, {{2, 1}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  KernelGraphLimits limits;
  limits.maxOps = 3;
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  enumerateKernelGraphs(ctx, inputs, {goal}, menu, limits, graphs, counts);
  EXPECT_EQ(strs(graphs),
            (std::vector<std::string>{"M(0,1) M(3,2)", "M(1,2) M(0,3)"}));
  for (const KernelGraph &g : graphs) {
    ASSERT_EQ(g.outputs.size(), 1u);
    EXPECT_EQ(g.outputs[0], 4u);
    EXPECT_EQ(g.tensors[4].shape, (Shape{8, 64}));
  }
  EXPECT_FALSE(counts.stateBudgetHit);
  EXPECT_FALSE(counts.graphLimitHit);
  // Products with an atom twice (A (B A), ...) cannot be subexpressions.
  EXPECT_GT(counts.pruned, 0u);
}

// x W1 + x W2 = x (W1 + W2): two formulations; the independent matmuls of
// the first appear in one order only, the add's operands in one order.
TEST_F(KernelGraphsTest, DistributivityCanonicalOrder) {
  ExprId x = ctx.input(0), w1 = ctx.input(1), w2 = ctx.input(2);
  SmallVector<KernelGraphTensor> inputs{
      tensor({8, 32}, x), tensor({32, 64}, w1), tensor({32, 64}, w2)};
  KernelGraphTensor goal =
      this->goal({8, 64}, ctx.add(matmul(x, w1, 32), matmul(x, w2, 32)),
                 {{{0, 0}}, {{1, 1}, {2, 1}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  menu.elementwise.push_back(add());
  KernelGraphLimits limits;
  limits.maxOps = 3;
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  enumerateKernelGraphs(ctx, inputs, {goal}, menu, limits, graphs, counts);
  EXPECT_EQ(strs(graphs), (std::vector<std::string>{"M(0,1) M(0,2) E0(3,4)",
                                                    "E0(1,2) M(0,3)"}));
  // Within two ops only the distributed form fits.
  limits.maxOps = 2;
  graphs.clear();
  counts = {};
  enumerateKernelGraphs(ctx, inputs, {goal}, menu, limits, graphs, counts);
  EXPECT_EQ(strs(graphs), (std::vector<std::string>{"E0(1,2) M(0,3)"}));
}

// Pruning drops ops, never a formulation: the same graphs with and without
// it, in fewer states with it.
TEST_F(KernelGraphsTest, PruningKeepsTheGraphs) {
  ExprId x = ctx.input(0), w1 = ctx.input(1), w2 = ctx.input(2);
  SmallVector<KernelGraphTensor> inputs{
      tensor({8, 32}, x), tensor({32, 64}, w1), tensor({32, 64}, w2)};
  KernelGraphTensor goal = this->goal(
      {8, 64}, ctx.apply("exp", ctx.add(matmul(x, w1, 32), matmul(x, w2, 32))),
      {{{0, 0}}, {{1, 1}, {2, 1}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  menu.reduceSum = true;
  menu.elementwise.push_back(add());
  menu.elementwise.push_back(exp());
  KernelGraphLimits limits;
  limits.maxOps = 4;
  SmallVector<KernelGraph> pruned, full;
  KernelGraphCounts withPruning, without;
  enumerateKernelGraphs(ctx, inputs, {goal}, menu, limits, pruned,
                        withPruning);
  limits.pruning = false;
  enumerateKernelGraphs(ctx, inputs, {goal}, menu, limits, full, without);
  EXPECT_EQ(strs(pruned), strs(full));
  EXPECT_EQ(strs(pruned),
            (std::vector<std::string>{"M(0,1) M(0,2) E0(3,4) E1(5)",
                                      "E0(1,2) M(0,3) E1(4)"}));
  EXPECT_GT(withPruning.pruned, 0u);
  EXPECT_EQ(without.pruned, 0u);
  EXPECT_LT(withPruning.states, without.states);
}

// Every goal must be present; tensors of another element type never mix.
TEST_F(KernelGraphsTest, MultipleGoalsAndElementTypes) {
  ExprId x = ctx.input(0), a = ctx.input(1), b = ctx.input(2);
  SmallVector<KernelGraphTensor> inputs{tensor({8, 64}, x),
                                        tensor({64, 16}, a),
                                        tensor({16, 64}, b)};
  ExprId xa = matmul(x, a, 64);
  SmallVector<KernelGraphTensor> goals{
      goal({8, 16}, xa, {{{0, 0}}, {{1, 1}}}),
      goal({8, 64}, matmul(xa, b, 16), {{{0, 0}}, {{2, 1}}})};
  KernelGraphMenu menu;
  menu.matmul = true;
  KernelGraphLimits limits;
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  enumerateKernelGraphs(ctx, inputs, goals, menu, limits, graphs, counts);
  // x (A B) alone would leave the first goal out; with x A beside it, it
  // is a formulation of both.
  EXPECT_EQ(strs(graphs), (std::vector<std::string>{"M(0,1) M(1,2) M(0,4)",
                                                    "M(0,1) M(3,2)"}));
  EXPECT_EQ(graphs[0].outputs, (SmallVector<unsigned>{3, 5}));
  EXPECT_EQ(graphs[1].outputs, (SmallVector<unsigned>{3, 4}));

  inputs[2].elementType = 1;
  goals[1].elementType = 1;
  graphs.clear();
  enumerateKernelGraphs(ctx, inputs, goals, menu, limits, graphs, counts);
  EXPECT_TRUE(graphs.empty());
}

// y = reshape(x) W^T with W of many rows (Llama's projections): the
// formulation (W reshape(x)^T)^T transposes the [16, 64] activations
// instead of the [256, 64] weight. The reshape is a free view: the
// formulation has three counted ops (two transposes and the matmul), so it
// is found at the default limit, and the reshaped x has x's expression.
TEST_F(KernelGraphsTest, ReshapedActivations) {
  ExprId x = ctx.input(0), w = ctx.input(1);
  SmallVector<KernelGraphTensor> inputs{tensor({1, 16, 64}, x),
                                        tensor({256, 64}, w)};
  KernelGraphTensor out =
      goal({16, 256}, matmul(x, w, 64), {{{0, 1}}, {{1, 0}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  menu.transposes.push_back({1, 0});
  menu.reshapes.push_back({{1, 16, 64}, {16, 64}});
  KernelGraphLimits limits;
  ASSERT_EQ(limits.maxOps, 3u);
  SmallVector<ExprId> own{x, w, out.expr};
  llvm::sort(own);
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts, own);
  EXPECT_EQ(strs(graphs),
            (std::vector<std::string>{"V0(0) T0(2) M(1,3) T0(4)"}));
  // The program's own, reshape(x) transpose(W), is counted, not reported.
  EXPECT_EQ(counts.own, 1u);
  EXPECT_FALSE(counts.stateBudgetHit);
  ASSERT_EQ(graphs.size(), 1u);
  const KernelGraph &g = graphs[0];
  EXPECT_EQ(g.tensors[2].expr, x);
  EXPECT_EQ(g.tensors[2].shape, (Shape{16, 64}));
  EXPECT_EQ(g.tensors[2].sources,
            (KernelGraphSources{{kernelGraphSource(0, 1)},
                                {kernelGraphSource(0, 2)}}));
  EXPECT_EQ(g.outputs, (SmallVector<unsigned>{5}));
  // Counted ops only: within two, nothing (the reshape alone is free, the
  // formulation needs three more).
  limits.maxOps = 2;
  graphs.clear();
  counts = {};
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts, own);
  EXPECT_TRUE(graphs.empty());
  EXPECT_EQ(counts.own, 1u);
}

// A goal of the program's reshaped shape is met only by a reshape to it
// (x W viewed as [1, 16, 32]): the shape and the size-1 dimension's empty
// sources must match; without the reshape in the menu there is no graph.
TEST_F(KernelGraphsTest, ReshapedGoal) {
  ExprId x = ctx.input(0), w = ctx.input(1);
  SmallVector<KernelGraphTensor> inputs{tensor({16, 64}, x),
                                        tensor({64, 32}, w)};
  KernelGraphTensor out =
      goal({1, 16, 32}, matmul(x, w, 64), {{}, {{0, 0}}, {{1, 1}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  menu.reshapes.push_back({{16, 32}, {1, 16, 32}});
  menu.reshapes.push_back({{1, 16, 32}, {16, 32}});
  KernelGraphLimits limits;
  limits.maxOps = 1;
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts);
  EXPECT_EQ(strs(graphs), (std::vector<std::string>{"M(0,1) V0(2)"}));
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].outputs, (SmallVector<unsigned>{3}));
  // In another layout (x^T's rows) the goal is not met.
  out.sources[1] = {kernelGraphSource(0, 1)};
  graphs.clear();
  counts = {};
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts);
  EXPECT_TRUE(graphs.empty());
  out.sources[1] = {kernelGraphSource(0, 0)};
  menu.reshapes.clear();
  enumerateKernelGraphs(ctx, inputs, {out}, menu, limits, graphs, counts);
  EXPECT_TRUE(graphs.empty());
}

// The state budget and the graph limit stop the enumeration and say so.
TEST_F(KernelGraphsTest, Budgets) {
  ExprId x = ctx.input(0), w1 = ctx.input(1), w2 = ctx.input(2);
  SmallVector<KernelGraphTensor> inputs{
      tensor({8, 32}, x), tensor({32, 64}, w1), tensor({32, 64}, w2)};
  KernelGraphTensor goal =
      this->goal({8, 64}, ctx.add(matmul(x, w1, 32), matmul(x, w2, 32)),
                 {{{0, 0}}, {{1, 1}, {2, 1}}});
  KernelGraphMenu menu;
  menu.matmul = true;
  menu.elementwise.push_back(add());
  KernelGraphLimits limits;
  SmallVector<KernelGraph> graphs;
  KernelGraphCounts counts;
  limits.maxGraphs = 1;
  enumerateKernelGraphs(ctx, inputs, {goal}, menu, limits, graphs, counts);
  EXPECT_EQ(graphs.size(), 1u);
  EXPECT_TRUE(counts.graphLimitHit);
  EXPECT_FALSE(counts.stateBudgetHit);

  limits.maxGraphs = 8;
  limits.maxStates = 3;
  graphs.clear();
  counts = {};
  enumerateKernelGraphs(ctx, inputs, {goal}, menu, limits, graphs, counts);
  EXPECT_TRUE(counts.stateBudgetHit);
  EXPECT_EQ(counts.states, 4u); // the fourth is refused
  EXPECT_TRUE(graphs.empty());
}

} // namespace
