//===- FieldFragmentTest.cpp - the LAX fragment and exponent parts --------===//

#include "mirage/Superopt/Verification/FieldFragment.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "MicroGraphTest.h"
#include "gtest/gtest.h"

using namespace mirage;
using namespace mirage::superopt;

namespace {

using Shape = std::vector<int64_t>;

class FieldFragmentTest : public mirage::testing::MicroGraphTest {
protected:
  /// The index-th op of type OpT in `func`, in walk order.
  template <typename OpT>
  OpT nthOp(mlir::func::FuncOp func, unsigned index) {
    OpT found;
    unsigned seen = 0;
    func.walk([&](OpT op) {
      if (seen++ == index)
        found = op;
    });
    return found;
  }

};

TEST_F(FieldFragmentTest, ExpOfExpIsNotLax) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = graph.exp %x : tensor<4x8xf32>
  %b = graph.exp %a : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
)mlir"));
  FieldFragment frag = analyzeFieldFragment(fn("f"));
  EXPECT_FALSE(frag.isLax());
  auto inner = nthOp<graph::ExpOp>(fn("f"), 0);
  ASSERT_TRUE(inner);
  EXPECT_EQ(frag.offender, inner.getOperation());
  EXPECT_NE(frag.reason.find("two exps"), std::string::npos) << frag.reason;
}

TEST_F(FieldFragmentTest, ExpOfSoftmaxIsNotLax) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = graph.softmax %x, dim = 1 : tensor<4x8xf32>
  %t = graph.scalar_mul %s, 2.0 : tensor<4x8xf32>
  %b = graph.exp %t : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
)mlir"));
  FieldFragment frag = analyzeFieldFragment(fn("f"));
  EXPECT_FALSE(frag.isLax());
  EXPECT_EQ(frag.offender, nthOp<graph::SoftmaxOp>(fn("f"), 0).getOperation());
}

TEST_F(FieldFragmentTest, ExpsOnSeparatePathsAreLax) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.exp %x : tensor<4xf32>
  %b = graph.exp %y : tensor<4xf32>
  %c = graph.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}
)mlir"));
  FieldFragment frag = analyzeFieldFragment(fn("f"));
  EXPECT_TRUE(frag.isLax()) << frag.reason;
  EXPECT_EQ(frag.applications, 2u);
  EXPECT_EQ(frag.degree, 2u);
}

TEST_F(FieldFragmentTest, MaxIsAnUninterpretedSite) {
  ASSERT_TRUE(parse(R"mlir(
func.func @reduce(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = graph.scalar_mul %x, 2.0 : tensor<4x8xf32>
  %m = graph.reduce_max %s, dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}
func.func @accum(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 2 : (tensor<4x8xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<4x8xf32> -> !block.tile<2x4xf32>
    %r = block.reduce sum %t, dim = 1 : !block.tile<2x4xf32> -> !block.tile<2x1xf32>
    %acc = block.accum max %r : !block.tile<2x1xf32> -> !block.tile<2x1xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<2x1xf32> -> tensor<4x1xf32>
    block.yield %o : tensor<4x1xf32>
  }
  return %Y : tensor<4x1xf32>
}
)mlir"));
  // A fresh variable of degree 1: one site each.
  FieldFragment frag = analyzeFieldFragment(fn("reduce"));
  EXPECT_TRUE(frag.isLax()) << frag.reason;
  EXPECT_EQ(frag.degree, 1u);
  EXPECT_EQ(frag.applications, 1u);

  FieldFragment inBlock = analyzeFieldFragment(fn("accum"));
  EXPECT_TRUE(inBlock.isLax()) << inBlock.reason;
  EXPECT_EQ(inBlock.applications, 1u);
}

const char *kRMSNormMatmul = R"mlir(
func.func @graph(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %n = graph.rms_norm %X : tensor<4x64xf32>
  %y = graph.matmul %n, %W : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func @fused(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 4
      : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x64xf32> -> !block.tile<4x16xf32>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf32> -> !block.tile<16x16xf32>
    %sq = block.unary square %xt : !block.tile<4x16xf32>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<4x16xf32> -> !block.tile<4x1xf32>
    %mm = block.matmul %xt, %wt : (!block.tile<4x16xf32>, !block.tile<16x16xf32>) -> !block.tile<4x16xf32>
    %acc_mm = block.accum sum %mm : !block.tile<4x16xf32> -> !block.tile<4x16xf32>
    %acc_ss = block.accum sum %ss : !block.tile<4x1xf32> -> !block.tile<4x1xf32>
    %mean = block.unary scale %acc_ss params = [0.015625] : !block.tile<4x1xf32>
    %rms = block.unary sqrt %mean : !block.tile<4x1xf32>
    %y = block.binary div %acc_mm, %rms : (!block.tile<4x16xf32>, !block.tile<4x1xf32>) -> !block.tile<4x16xf32>
    %out = block.output %y omap = <x: 1> : !block.tile<4x16xf32> -> tensor<4x32xf32>
    block.yield %out : tensor<4x32xf32>
  }
  return %Y : tensor<4x32xf32>
}
)mlir";

TEST_F(FieldFragmentTest, RMSNormMatmulIsLaxWithDegree3) {
  ASSERT_TRUE(parse(kRMSNormMatmul));
  for (const char *name : {"graph", "fused"}) {
    FieldFragment frag = analyzeFieldFragment(fn(name));
    EXPECT_TRUE(frag.isLax()) << name << ": " << frag.reason;
    // x / sqrt(...) has degree 1 + 1 (the sqrt is a fresh variable); times
    // W, 3.
    EXPECT_EQ(frag.degree, 3u) << name;
    EXPECT_EQ(frag.applications, 1u) << name;
    EXPECT_TRUE(frag.needExponent.empty()) << name;
  }
}

TEST_F(FieldFragmentTest, Degrees) {
  ASSERT_TRUE(parse(R"mlir(
func.func @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.mul %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @quotient(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %d = graph.div %s, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}
func.func @cube(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.pow %x, 3.0 : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @chain(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>, %c: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %ab = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %abc = graph.matmul %ab, %c : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %abc : tensor<2x2xf32>
}
func.func @silu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.square %x : tensor<4xf32>
  %y = graph.silu %s : tensor<4xf32>
  %z = graph.pow %y, 0.5 : tensor<4xf32>
  return %z : tensor<4xf32>
}
func.func @softmax(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = graph.softmax %x, dim = 1 : tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
)mlir"));
  struct Case {
    const char *name;
    uint64_t degree;
    unsigned applications;
  };
  for (Case c : {Case{"square", 2, 0}, Case{"quotient", 2, 0},
                 Case{"cube", 3, 0}, Case{"chain", 3, 0}, Case{"silu", 1, 2},
                 Case{"softmax", 2, 1}}) {
    FieldFragment frag = analyzeFieldFragment(fn(c.name));
    EXPECT_TRUE(frag.isLax()) << c.name;
    EXPECT_EQ(frag.degree, c.degree) << c.name;
    EXPECT_EQ(frag.applications, c.applications) << c.name;
  }
}

const char *kExpProgram = R"mlir(
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = graph.exp %a : tensor<4xf32>
  %m = graph.mul %e, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %u = graph.mul %z, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m, %u : tensor<4xf32>, tensor<4xf32>
}
)mlir";

TEST_F(FieldFragmentTest, NeedExponent) {
  ASSERT_TRUE(parse(kExpProgram));
  mlir::func::FuncOp f = fn("f");
  FieldFragment frag = analyzeFieldFragment(f);
  ASSERT_TRUE(frag.isLax()) << frag.reason;
  mlir::Block &body = f.getBody().front();
  auto add = nthOp<graph::AddOp>(f, 0);
  auto exp = nthOp<graph::ExpOp>(f, 0);
  auto mul = nthOp<graph::MulOp>(f, 0);
  auto sq = nthOp<graph::MulOp>(f, 1);
  EXPECT_TRUE(frag.needExponent.contains(add.getResult()));
  EXPECT_TRUE(frag.needExponent.contains(body.getArgument(0)));
  EXPECT_TRUE(frag.needExponent.contains(body.getArgument(1)));
  EXPECT_FALSE(frag.needExponent.contains(body.getArgument(2)));
  EXPECT_FALSE(frag.needExponent.contains(exp.getResult()));
  EXPECT_FALSE(frag.needExponent.contains(mul.getResult()));
  EXPECT_FALSE(frag.needExponent.contains(sq.getResult()));
  EXPECT_EQ(frag.needExponent.size(), 3u);
  EXPECT_EQ(frag.applications, 1u);
  EXPECT_EQ(frag.degree, 2u);
}

TEST_F(FieldFragmentTest, NeedExponentStopsAtUninterpreted) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = graph.sqrt %x : tensor<4xf32>
  %e = graph.exp %s : tensor<4xf32>
  return %e : tensor<4xf32>
}
)mlir"));
  mlir::func::FuncOp f = fn("f");
  FieldFragment frag = analyzeFieldFragment(f);
  ASSERT_TRUE(frag.isLax()) << frag.reason;
  // The sqrt hashes x's Z_p part: x needs no exponent part.
  EXPECT_TRUE(frag.needExponent.contains(nthOp<graph::SqrtOp>(f, 0).getResult()));
  EXPECT_FALSE(frag.needExponent.contains(f.getBody().front().getArgument(0)));
}

TEST_F(FieldFragmentTest, NeedExponentThroughBlockGraph) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<4x8xf32>, %z: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %Y = kernel.graph_def (%x, %z) grid = [2] forloop = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<4x8xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<4x8xf32> -> !block.tile<2x8xf32>
    %u = block.input %c imap = <x: 0> fmap = <i: replicate> : tensor<4x8xf32> -> !block.tile<2x8xf32>
    %e = block.unary exp %t : !block.tile<2x8xf32>
    %m = block.binary mul %e, %u : (!block.tile<2x8xf32>, !block.tile<2x8xf32>) -> !block.tile<2x8xf32>
    %acc = block.accum sum %m : !block.tile<2x8xf32> -> !block.tile<2x8xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<2x8xf32> -> tensor<4x8xf32>
    block.yield %o : tensor<4x8xf32>
  }
  return %Y : tensor<4x8xf32>
}
)mlir"));
  mlir::func::FuncOp f = fn("f");
  FieldFragment frag = analyzeFieldFragment(f);
  ASSERT_TRUE(frag.isLax()) << frag.reason;
  mlir::Block &body = f.getBody().front();
  EXPECT_TRUE(frag.needExponent.contains(body.getArgument(0)));
  EXPECT_FALSE(frag.needExponent.contains(body.getArgument(1)));
  auto input = nthOp<block::InputOp>(f, 0);
  EXPECT_TRUE(frag.needExponent.contains(input.getTile()));
  EXPECT_TRUE(frag.needExponent.contains(input.getSource()));
  EXPECT_FALSE(frag.needExponent.contains(nthOp<block::InputOp>(f, 1).getTile()));
}

TEST_F(FieldFragmentTest, FieldRunWithExponentValues) {
  // The analysis feeds the field run: only the values it names carry
  // exponent parts, and the result is exp(x + y) z, z^2 in Z_p.
  ASSERT_TRUE(parse(kExpProgram));
  mlir::func::FuncOp f = fn("f");
  FieldFragment frag = analyzeFieldFragment(f);
  auto created = FieldPair::create(31);
  ASSERT_TRUE(bool(created));
  const FieldPair &field = *created;
  uint64_t p = field.p(), q = field.q();
  FieldArithmetic arith(field, 5);
  arith.setExponentValues(&frag.needExponent);
  std::vector<uint64_t> xp{1, 2, 3, 4}, xq{10, q - 1, 0, 12345},
      yp{5, 6, 7, 8}, yq{7, 5, 0, q - 2}, zp{9, p - 1, 11, 12};
  FieldTensor x{Tensor<uint64_t>(Shape{4}, xp), Tensor<uint64_t>(Shape{4}, xq)};
  FieldTensor y{Tensor<uint64_t>(Shape{4}, yp), Tensor<uint64_t>(Shape{4}, yq)};
  FieldTensor z{Tensor<uint64_t>(Shape{4}, zp), {}};
  auto result = interpretField(f, {x, y, z}, arith);
  ASSERT_TRUE(mlir::succeeded(result));
  ASSERT_EQ(result->size(), 2u);
  for (int i = 0; i < 4; ++i) {
    uint64_t e = powMod(field.w(), (xq[i] + yq[i]) % q, p);
    EXPECT_EQ((*result)[0].p.data[i], mulMod(e, zp[i], p)) << i;
    EXPECT_EQ((*result)[1].p.data[i], mulMod(zp[i], zp[i], p)) << i;
  }
  EXPECT_FALSE(arith.hitZeroDivisor());
}

} // namespace
