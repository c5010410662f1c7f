//===- AbstractExprTest.cpp - normal form and subexpression tests ---------===//

#include "mirage/Superopt/Search/AbstractExpr.h"
#include "gtest/gtest.h"

using namespace mirage::superopt;

namespace {

class AbstractExprTest : public ::testing::Test {
protected:
  AbstractExprContext ctx;
  AbstractExprContext::ExprId x = ctx.input(0), w = ctx.input(1),
                              h = ctx.input(2);

  /// rms_norm(x) over n elements, as the search target builds it.
  AbstractExprContext::ExprId rmsNorm(AbstractExprContext::ExprId v,
                                      int64_t n) {
    auto meanSq = ctx.scale(1.0 / n, ctx.sum(n, ctx.mul(v, v)));
    return ctx.div(v, ctx.apply("sqrt", meanSq));
  }
};

TEST_F(AbstractExprTest, EquivalenceAxiomsGiveOneId) {
  // Commutativity, associativity, distributivity.
  EXPECT_EQ(ctx.add(x, w), ctx.add(w, x));
  EXPECT_EQ(ctx.mul(ctx.mul(x, w), h), ctx.mul(x, ctx.mul(w, h)));
  EXPECT_EQ(ctx.mul(x, ctx.add(w, h)), ctx.add(ctx.mul(x, w), ctx.mul(x, h)));
  // sum(i, sum(j, e)) = sum(i*j, e); sum distributes and pulls out of mul.
  EXPECT_EQ(ctx.sum(16, ctx.sum(256, x)), ctx.sum(4096, x));
  EXPECT_EQ(ctx.sum(4, ctx.add(x, w)), ctx.add(ctx.sum(4, x), ctx.sum(4, w)));
  EXPECT_EQ(ctx.mul(ctx.sum(4, x), w), ctx.sum(4, ctx.mul(x, w)));
  EXPECT_EQ(ctx.sum(1, x), x);
  // Division by an unreduced monomial moves its atoms across the bar.
  EXPECT_EQ(ctx.div(ctx.div(x, w), h), ctx.div(x, ctx.mul(w, h)));
  EXPECT_EQ(ctx.div(ctx.sum(8, x), w), ctx.sum(8, ctx.div(x, w)));
}

TEST_F(AbstractExprTest, NoCancellation) {
  EXPECT_NE(ctx.div(ctx.mul(x, w), w), x);
  EXPECT_NE(ctx.sum(8, x), x);
  EXPECT_NE(ctx.apply("exp", ctx.add(x, w)),
            ctx.mul(ctx.apply("exp", x), ctx.apply("exp", w)));
  // Scalars are kept: a dropped 1/n is a different program.
  EXPECT_NE(ctx.scale(0.25, x), x);
  EXPECT_EQ(ctx.sub(x, x), ctx.scale(0.0, x));
}

TEST_F(AbstractExprTest, RMSNormMatmulFusion) {
  // Target: rms_norm(X) W with K = 4096. The fused block graph computes
  // sum(16, sum(256, X W)) / sqrt(sum(16, sum(256, X^2)) / 4096).
  auto target = ctx.sum(4096, ctx.mul(rmsNorm(x, 4096), w));
  auto tileMM = ctx.sum(256, ctx.mul(x, w));
  auto tileSS = ctx.sum(256, ctx.mul(x, x));
  auto accMM = ctx.sum(16, tileMM), accSS = ctx.sum(16, tileSS);
  auto rms = ctx.apply("sqrt", ctx.scale(1.0 / 4096, accSS));
  EXPECT_EQ(ctx.div(accMM, rms), target);
  for (auto prefix : {x, w, ctx.mul(x, x), tileMM, tileSS, accMM, accSS,
                      ctx.scale(1.0 / 4096, accSS), rms})
    EXPECT_TRUE(ctx.isSubexpression(prefix, target)) << ctx.str(prefix);
  // Dividing inside the loop, square roots of partial sums, or taking the
  // root of the unscaled sum lead nowhere.
  EXPECT_FALSE(ctx.isSubexpression(ctx.apply("sqrt", tileSS), target));
  EXPECT_FALSE(ctx.isSubexpression(ctx.mul(w, w), target));
  EXPECT_FALSE(ctx.isSubexpression(ctx.apply("sqrt", accSS), target));
  EXPECT_FALSE(ctx.isSubexpression(ctx.apply("exp", x), target));
  // A reduction larger than the target's cannot be undone.
  EXPECT_FALSE(ctx.isSubexpression(ctx.sum(8192, ctx.mul(x, w)), target));
}

TEST_F(AbstractExprTest, SumsMustShareACofactor) {
  // u = h + a (x - h) (nTrans): x - h is a subexpression, x + w is not,
  // although each of its monomials looks like one of u's.
  auto a = ctx.input(3);
  auto u = ctx.add(h, ctx.mul(a, ctx.sub(x, h)));
  EXPECT_TRUE(ctx.isSubexpression(ctx.sub(x, h), u));
  EXPECT_FALSE(ctx.isSubexpression(ctx.add(x, h), u));
  EXPECT_FALSE(ctx.isSubexpression(ctx.add(x, ctx.mul(a, h)), u));
}

TEST_F(AbstractExprTest, SoftmaxDenominatorIsAnAtom) {
  // softmax(s) V with the row sum over 4096 keys.
  auto e = ctx.apply("exp", ctx.sum(64, ctx.mul(x, w)));
  auto target = ctx.sum(4096, ctx.mul(ctx.div(e, ctx.sum(4096, e)), h));
  // FlashAttention order: both sums first, one division at the end.
  EXPECT_EQ(ctx.div(ctx.sum(4096, ctx.mul(e, h)), ctx.sum(4096, e)), target);
  EXPECT_TRUE(ctx.isSubexpression(ctx.sum(512, e), target));
  EXPECT_TRUE(ctx.isSubexpression(ctx.sum(512, ctx.mul(e, h)), target));
  EXPECT_FALSE(ctx.isSubexpression(ctx.apply("exp", x), target));
}

TEST_F(AbstractExprTest, AnswersAreCached) {
  auto target = ctx.sum(4096, ctx.mul(rmsNorm(x, 4096), w));
  size_t before = ctx.size();
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(ctx.isSubexpression(ctx.mul(x, w), target));
  EXPECT_EQ(ctx.size(), before + 1); // only x*w was new
}

TEST_F(AbstractExprTest, ReductionSizesDoNotOverflow) {
  // 1024^7 = 2^70: a 64-bit K wrapped to 0 after 2^60 * 1024 and the
  // divisibility test divided by it (SIGFPE on a 64x1024 matmul -> rms_norm
  // -> silu -> add program).
  auto deep = x, deeper = x;
  for (int i = 0; i < 7; ++i)
    deep = ctx.sum(1024, deep);
  for (int i = 0; i < 8; ++i)
    deeper = ctx.sum(1024, deeper);
  EXPECT_NE(deep, x);
  EXPECT_NE(deeper, deep);
  EXPECT_TRUE(ctx.isSubexpression(deep, deeper));
  EXPECT_FALSE(ctx.isSubexpression(deeper, deep));
  EXPECT_TRUE(ctx.isSubexpression(ctx.sum(512, x), deep));
  EXPECT_FALSE(ctx.isSubexpression(ctx.sum(3, x), deep));
  // sum(2^35, sum(2^35, x)) = sum(2^70, x), whichever way it is built.
  int64_t big = int64_t(1) << 35;
  EXPECT_EQ(ctx.sum(big, ctx.sum(big, x)), ctx.sum(2, ctx.sum(big, ctx.sum(big / 2, x))));
  EXPECT_EQ(ctx.mul(ctx.sum(big, x), ctx.sum(big, w)),
            ctx.sum(big, ctx.sum(big, ctx.mul(x, w))));
  EXPECT_NE(ctx.str(deep).find("1180591620717411303424"), std::string::npos)
      << ctx.str(deep);
}

TEST_F(AbstractExprTest, SumOverNoElementsIsZero) {
  // A reduction over an extent of 0 is the zero term, not a K of 0 that a
  // later divisibility test divides by.
  auto empty = ctx.sum(0, ctx.mul(x, w));
  EXPECT_EQ(empty, ctx.scale(0.0, x));
  EXPECT_EQ(ctx.str(empty), "0");
  EXPECT_FALSE(ctx.isSubexpression(empty, ctx.sum(8, x)));
  EXPECT_FALSE(ctx.isSubexpression(ctx.sum(8, x), empty));
  EXPECT_EQ(ctx.add(empty, x), x);
  EXPECT_EQ(ctx.mul(empty, x), empty);
  // Dividing by it makes an inverse atom of the zero term, never a crash.
  EXPECT_NE(ctx.div(x, empty), x);
}

} // namespace

TEST_F(AbstractExprTest, MentionsInputLooksIntoAtoms) {
  // relu((x - h) * w + b), a batch norm and ReLU: every input is mentioned,
  // inside the function's argument too; an input it does not read is not.
  auto b = ctx.input(3);
  auto bn = ctx.apply("relu",
                      ctx.add(ctx.mul(ctx.sub(x, h), w), b));
  for (unsigned i = 0; i < 4; ++i)
    EXPECT_TRUE(ctx.mentionsInput(bn, i)) << i;
  EXPECT_FALSE(ctx.mentionsInput(bn, 4));
  // Inside an inverse (a divisor that is a sum), and in a denominator.
  EXPECT_TRUE(ctx.mentionsInput(ctx.div(x, ctx.add(w, h)), 2));
  EXPECT_TRUE(ctx.mentionsInput(ctx.div(x, w), 1));
  // Cancelled to the zero term, nothing is mentioned.
  EXPECT_FALSE(ctx.mentionsInput(ctx.sub(x, x), 0));
}

TEST_F(AbstractExprTest, ComputableAfterLoop) {
  // After a loop of 4 steps every accumulator has K divisible by 4, and the
  // ops after the loop keep that or wrap it in a function or an inverse.
  auto acc = ctx.sum(4, ctx.sub(x, w));
  EXPECT_TRUE(ctx.computableAfterLoop(acc, 4));
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.mul(acc, ctx.sum(8, h)), 4));
  auto e = ctx.apply("exp", acc);
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.mul(e, e), 4));
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.div(acc, e), 4));
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.div(acc, ctx.add(acc, acc)), 4));
  EXPECT_TRUE(ctx.computableAfterLoop(rmsNorm(acc, 16), 4));
  // The lone x of x + sum_j (x - w_j) is not an accumulator's, nor is an
  // atom whose argument is not; without a loop anything is.
  EXPECT_FALSE(ctx.computableAfterLoop(ctx.add(x, acc), 4));
  EXPECT_FALSE(ctx.computableAfterLoop(ctx.add(acc, ctx.apply("exp", x)), 2));
  // But acc * exp(x) is: sum_j (x - w_j) exp(x) accumulates in the loop.
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.mul(acc, ctx.apply("exp", x)), 2));
  EXPECT_FALSE(ctx.computableAfterLoop(ctx.sum(6, x), 4));
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.sum(6, x), 1));
  // A reduction after the loop keeps the property.
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.sum(3, ctx.mul(e, e)), 4));
  EXPECT_TRUE(ctx.computableAfterLoop(ctx.sum(3, ctx.mul(e, acc)), 4));
}
