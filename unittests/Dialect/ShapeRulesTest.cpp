//===- ShapeRulesTest.cpp - shape rules shared by all levels --------------===//

#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mirage;
using namespace mlir;

namespace {

class ShapeRulesTest : public ::testing::Test {
protected:
  ShapeRulesTest() {
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &ctx, [this](Diagnostic &d) {
          lastError = d.str();
          return success();
        });
  }
  OptLoc loc() { return UnknownLoc::get(&ctx); }

  MLIRContext ctx;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  std::string lastError;
};

TEST_F(ShapeRulesTest, CheckedSizes) {
  EXPECT_EQ(checkedElementCount({}), 1);
  EXPECT_EQ(checkedElementCount({8, 0, 4}), 0);
  EXPECT_EQ(checkedElementCount({1 << 20, 1 << 20}), int64_t(1) << 40);
  // 2^32 x 2^32 wraps to 0 in plain int64 arithmetic.
  EXPECT_EQ(checkedElementCount({int64_t(1) << 32, int64_t(1) << 32}),
            std::nullopt);
  EXPECT_EQ(checkedElementCount({4, ShapedType::kDynamic}), std::nullopt);
  EXPECT_EQ(checkedProduct(int64_t(1) << 62, 2), std::nullopt);
  EXPECT_EQ(checkedProduct(-1, 2), std::nullopt);
  EXPECT_EQ(checkedProduct(3, 5), 15);

  EXPECT_TRUE(succeeded(
      verifyElementCountWithin(loc(), {1024, 1024}, 1 << 20, "x", "(why)")));
  EXPECT_TRUE(failed(
      verifyElementCountWithin(loc(), {1024, 1025}, 1 << 20, "x", "(why)")));
  EXPECT_NE(lastError.find("1049600 elements, more than the limit of 1048576 "
                           "(why)"),
            std::string::npos);
  EXPECT_TRUE(failed(verifyElementCountWithin(
      loc(), {int64_t(1) << 32, int64_t(1) << 32}, 1 << 20, "x", "(why)")));
  EXPECT_NE(lastError.find("too many elements to count in 64 bits"),
            std::string::npos);
}

TEST_F(ShapeRulesTest, Matmul) {
  EXPECT_EQ(*inferMatmulShape(loc(), {16, 4096}, {4096, 6144}),
            Shape({16, 6144}));
  EXPECT_EQ(*inferMatmulShape(loc(), {2, 256, 64}, {2, 64, 4096}),
            Shape({2, 256, 4096}));
  EXPECT_TRUE(failed(inferMatmulShape(loc(), {16, 4095}, {4096, 6144})));
  EXPECT_NE(lastError.find("contraction sizes differ"), std::string::npos);
  EXPECT_TRUE(failed(inferMatmulShape(loc(), {2, 8, 4}, {3, 4, 8})));
  EXPECT_NE(lastError.find("batch dimensions differ"), std::string::npos);
  EXPECT_TRUE(failed(inferMatmulShape(loc(), {8}, {8, 4})));
}

TEST_F(ShapeRulesTest, Broadcast) {
  EXPECT_EQ(*inferBroadcastShape(loc(), {16, 64}, {16, 1}), Shape({16, 64}));
  EXPECT_EQ(*inferBroadcastShape(loc(), {4096}, {8, 4096}), Shape({8, 4096}));
  EXPECT_TRUE(failed(inferBroadcastShape(loc(), {16, 64}, {8, 64})));
  EXPECT_TRUE(succeeded(verifyBroadcastTo(loc(), {1, 64}, {8, 64})));
  EXPECT_TRUE(failed(verifyBroadcastTo(loc(), {8, 64}, {1, 64})));
  EXPECT_TRUE(failed(verifyBroadcastTo(loc(), {2, 8, 64}, {8, 64})));
}

TEST_F(ShapeRulesTest, ReduceTransposeRepeat) {
  EXPECT_EQ(*inferReduceShape(loc(), {8, 4096}, 1), Shape({8, 1}));
  EXPECT_TRUE(failed(inferReduceShape(loc(), {8, 4096}, 2)));
  EXPECT_TRUE(failed(inferReduceShape(loc(), {8, 4096}, -1)));
  EXPECT_EQ(*inferTransposeShape(loc(), {2, 3, 4}, {2, 0, 1}),
            Shape({4, 2, 3}));
  EXPECT_TRUE(failed(inferTransposeShape(loc(), {2, 3}, {0, 0})));
  EXPECT_TRUE(failed(inferTransposeShape(loc(), {2, 3}, {0})));
  EXPECT_EQ(*inferRepeatShape(loc(), {2, 3}, {4, 1}), Shape({8, 3}));
  EXPECT_TRUE(failed(inferRepeatShape(loc(), {2, 3}, {0, 1})));
}

TEST_F(ShapeRulesTest, ReshapeConcatSplit) {
  EXPECT_TRUE(succeeded(verifyReshape(loc(), {8, 4096}, {8, 64, 64})));
  EXPECT_TRUE(failed(verifyReshape(loc(), {8, 4096}, {8, 64, 63})));
  EXPECT_EQ(*inferConcatShape(loc(), {{2, 3}, {2, 5}}, 1), Shape({2, 8}));
  EXPECT_TRUE(failed(inferConcatShape(loc(), {{2, 3}, {3, 5}}, 1)));
  auto pieces = inferSplitShapes(loc(), {8, 6}, 1, {2, 4});
  ASSERT_TRUE(succeeded(pieces));
  EXPECT_EQ((*pieces)[0], Shape({8, 2}));
  EXPECT_EQ((*pieces)[1], Shape({8, 4}));
  EXPECT_TRUE(failed(inferSplitShapes(loc(), {8, 6}, 1, {2, 3})));
}

TEST_F(ShapeRulesTest, UnitDimReshape) {
  // Size-1 dimensions inserted or dropped anywhere: the other sizes keep
  // their order (a CNN's [C] -> [C, 1, 1], a layer's [1, S, D] -> [S, D]).
  EXPECT_TRUE(isUnitDimReshape({64}, {64, 1, 1}));
  EXPECT_TRUE(isUnitDimReshape({1, 128, 768}, {128, 768}));
  EXPECT_TRUE(isUnitDimReshape({1, 8, 16}, {8, 1, 16, 1}));
  EXPECT_TRUE(isUnitDimReshape({16, 64}, {16, 64}));
  EXPECT_TRUE(isUnitDimReshape({1, 1}, {1}));
  // Merged, split or reordered sizes are not.
  EXPECT_FALSE(isUnitDimReshape({8, 16}, {128}));
  EXPECT_FALSE(isUnitDimReshape({1, 128, 768}, {1, 128, 12, 64}));
  EXPECT_FALSE(isUnitDimReshape({2, 3}, {3, 2}));
  EXPECT_FALSE(isUnitDimReshape({4, 4}, {2, 8}));
}

TEST_F(ShapeRulesTest, ConvAndPool) {
  // ResNet stem: 224x224, 7x7 stride 2 pad 3 -> 112x112.
  EXPECT_EQ(*inferConv2DShape(loc(), {1, 3, 224, 224}, {64, 3, 7, 7}, {2, 2},
                              {3, 3}, {1, 1}, 1),
            Shape({1, 64, 112, 112}));
  // Depthwise: groups = channels.
  EXPECT_EQ(*inferConv2DShape(loc(), {1, 32, 8, 8}, {32, 1, 3, 3}, {1, 1},
                              {1, 1}, {1, 1}, 32),
            Shape({1, 32, 8, 8}));
  EXPECT_TRUE(failed(inferConv2DShape(loc(), {1, 3, 8, 8}, {4, 2, 3, 3},
                                      {1, 1}, {0, 0}, {1, 1}, 1)));
  EXPECT_TRUE(failed(inferConv2DShape(loc(), {1, 3, 2, 2}, {4, 3, 3, 3},
                                      {1, 1}, {0, 0}, {1, 1}, 1)));
  EXPECT_EQ(*inferPool2DShape(loc(), {1, 64, 112, 112}, {3, 3}, {2, 2},
                              {1, 1}),
            Shape({1, 64, 56, 56}));
  EXPECT_TRUE(failed(inferPool2DShape(loc(), {1, 64, 8, 8}, {2, 2}, {2, 2},
                                      {2, 2})));
}

TEST_F(ShapeRulesTest, UnaryParams) {
  EXPECT_TRUE(succeeded(verifyUnaryParams(loc(), UnaryKind::exp, {})));
  EXPECT_TRUE(failed(verifyUnaryParams(loc(), UnaryKind::exp, {1.0})));
  EXPECT_TRUE(succeeded(verifyUnaryParams(loc(), UnaryKind::clamp, {0, 6})));
  EXPECT_TRUE(failed(verifyUnaryParams(loc(), UnaryKind::clamp, {6, 0})));
  EXPECT_TRUE(failed(verifyUnaryParams(loc(), UnaryKind::scale, {})));
}

} // namespace
