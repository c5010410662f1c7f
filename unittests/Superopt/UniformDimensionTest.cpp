//===- UniformDimensionTest.cpp - verification on fewer slices ------------===//
//
// findUniformDimension and shrinkUniformDimension on attention (uniform over
// the heads in both the graph and the fused kernel) and on planted pairs
// that must not be reduced along the heads: an original that sums over
// them, a kernel that walks them with its for-loop, a kernel that
// partitions a shared input by the heads' grid dimension. And the verifier
// with the reduction: an equivalent pair keeps its bound, a wrong
// candidate is still rejected.
//
//===----------------------------------------------------------------------===//

#include "Superopt/Verification/UniformDimension.h"
#include "Superopt/Verification/EquivalenceVerifier.h"
#include "Dialect/Kernel/KernelOps.h"
#include "MicroGraphTest.h"
#include "gtest/gtest.h"

using namespace mirage;
using namespace mirage::superopt;

namespace {

class UniformDimensionTest : public mirage::testing::MicroGraphTest {};

const char *kAttention = R"mlir(
func.func @attn(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  %s = graph.matmul %Q, %K : (tensor<8x32x16xf16>, tensor<8x16x32xf16>) -> tensor<8x32x32xf16>
  %p = graph.softmax %s, dim = 2 : tensor<8x32x32xf16>
  %o = graph.matmul %p, %V : (tensor<8x32x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16>
  return %o : tensor<8x32x16xf16>
}
func.func @fused(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  %0 = kernel.graph_def(%Q, %K, %V) grid = [8, 16] forloop = 1 : (tensor<8x32x16xf16>, tensor<8x16x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  ^bb0(%q: tensor<8x32x16xf16>, %k: tensor<8x16x32xf16>, %v: tensor<8x32x16xf16>):
    %1 = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x2x16xf16>
    %2 = block.input %k imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x16x32xf16> -> !block.tile<1x16x32xf16>
    %3 = block.input %v imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x32x16xf16>
    %4 = block.matmul %1, %2 : (!block.tile<1x2x16xf16>, !block.tile<1x16x32xf16>) -> !block.tile<1x2x32xf16>
    %o, %st = block.softmax_accum %4, %3 : (!block.tile<1x2x32xf16>, !block.tile<1x32x16xf16>) -> (!block.tile<1x2x16xf32>, !block.tile<1x2x2xf32>)
    %5 = block.output %o omap = <x: 0, y: 1> : !block.tile<1x2x16xf32> -> tensor<8x32x16xf16>
    block.yield %5 : tensor<8x32x16xf16>
  }
  return %0 : tensor<8x32x16xf16>
}
func.func @wrong_values(%Q: tensor<8x32x16xf16>, %K: tensor<8x16x32xf16>, %V: tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  %0 = kernel.graph_def(%Q, %K, %V) grid = [8, 16] forloop = 1 : (tensor<8x32x16xf16>, tensor<8x16x32xf16>, tensor<8x32x16xf16>) -> tensor<8x32x16xf16> {
  ^bb0(%q: tensor<8x32x16xf16>, %k: tensor<8x16x32xf16>, %v: tensor<8x32x16xf16>):
    %1 = block.input %q imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x2x16xf16>
    %2 = block.input %k imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x16x32xf16> -> !block.tile<1x16x32xf16>
    %3 = block.input %q imap = <x: 0, y: replicate> fmap = <i: replicate> : tensor<8x32x16xf16> -> !block.tile<1x32x16xf16>
    %4 = block.matmul %1, %2 : (!block.tile<1x2x16xf16>, !block.tile<1x16x32xf16>) -> !block.tile<1x2x32xf16>
    %o, %st = block.softmax_accum %4, %3 : (!block.tile<1x2x32xf16>, !block.tile<1x32x16xf16>) -> (!block.tile<1x2x16xf32>, !block.tile<1x2x2xf32>)
    %5 = block.output %o omap = <x: 0, y: 1> : !block.tile<1x2x16xf32> -> tensor<8x32x16xf16>
    block.yield %5 : tensor<8x32x16xf16>
  }
  return %0 : tensor<8x32x16xf16>
}
)mlir";

TEST_F(UniformDimensionTest, AttentionIsUniformOverTheHeads) {
  ASSERT_TRUE(parse(kAttention));
  std::string whyNot;
  std::optional<UniformDimension> dim =
      findUniformDimension(fn("attn"), fn("fused"), &whyNot);
  ASSERT_TRUE(dim.has_value()) << whyNot;
  EXPECT_EQ(dim->extent, 8);
  EXPECT_EQ(dim->group, 1);
  EXPECT_EQ(dim->reducedExtent, 2);
  EXPECT_EQ(dim->argumentDims, (llvm::SmallVector<int64_t>{0, 0, 0}));
  EXPECT_EQ(dim->resultDims, (llvm::SmallVector<int64_t>{0}));
  EXPECT_EQ(dim->describe().rfind("2 of 8 slices of result dimension 0; "
                                  "uniform in both programs",
                                  0),
            0u)
      << dim->describe();

  mlir::FailureOr<ReducedPair> reduced =
      shrinkUniformDimension(fn("attn"), fn("fused"), *dim);
  ASSERT_TRUE(mlir::succeeded(reduced));
  auto type = [](mlir::Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  };
  EXPECT_EQ(type(reduced->original.getFunctionType()),
            "(tensor<2x32x16xf16>, tensor<2x16x32xf16>, tensor<2x32x16xf16>) "
            "-> tensor<2x32x16xf16>");
  EXPECT_EQ(reduced->candidate.getFunctionType(),
            reduced->original.getFunctionType());
  // The grid shrinks with the heads; the tiles stay.
  kernel::GraphDefOp kernel;
  reduced->candidate.walk([&](kernel::GraphDefOp k) { kernel = k; });
  ASSERT_TRUE(kernel);
  EXPECT_EQ(llvm::SmallVector<int64_t>(kernel.getGrid()),
            (llvm::SmallVector<int64_t>{2, 16}));
  // The originals are untouched.
  EXPECT_EQ(type(fn("fused").getFunctionType().getResult(0)),
            "tensor<8x32x16xf16>");
}

TEST_F(UniformDimensionTest, ReducedVerificationKeepsTheBound) {
  ASSERT_TRUE(parse(kAttention));
  VerifierOptions options;
  options.reduceUniformDimension = true;
  mlir::FailureOr<VerificationReport> report =
      verifyEquivalence(fn("attn"), fn("fused"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_TRUE(report->equivalent) << report->summary();
  EXPECT_TRUE(report->fieldApplied);
  EXPECT_LT(report->log2Bound, -60.0);
  EXPECT_NE(report->summary().find("on a reduced instance, 2 of 8 slices"),
            std::string::npos)
      << report->summary();
  // Without the option: at full size, no mention of a reduction.
  options.reduceUniformDimension = false;
  report = verifyEquivalence(fn("attn"), fn("fused"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_TRUE(report->equivalent);
  EXPECT_TRUE(report->reduction.empty());
}

TEST_F(UniformDimensionTest, AWrongCandidateIsStillRejected) {
  ASSERT_TRUE(parse(kAttention));
  VerifierOptions options;
  options.reduceUniformDimension = true;
  mlir::FailureOr<VerificationReport> report =
      verifyEquivalence(fn("attn"), fn("wrong_values"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_FALSE(report->equivalent);
  EXPECT_TRUE(report->mismatch.has_value());
  EXPECT_FALSE(report->reduction.empty());
}

TEST_F(UniformDimensionTest, AnOriginalThatSumsOverTheHeadsIsNotReduced) {
  ASSERT_TRUE(parse(R"mlir(
func.func @centered(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %s = graph.reduce_sum %x, dim = 0 : tensor<8x2xf32> -> tensor<1x2xf32>
  %y = graph.sub %x, %s : (tensor<8x2xf32>, tensor<1x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}
func.func @copy(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %s = graph.reduce_sum %x, dim = 0 : tensor<8x2xf32> -> tensor<1x2xf32>
  %y = graph.sub %x, %s : (tensor<8x2xf32>, tensor<1x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}
)mlir"));
  std::string whyNot;
  EXPECT_FALSE(findUniformDimension(fn("centered"), fn("copy"), &whyNot));
  EXPECT_EQ(whyNot, "result dimension 0 (8): @centered: graph.reduce_sum "
                    "reduces or normalizes over the dimension");
  // The verifier says why it verified at full size.
  VerifierOptions options;
  options.reduceUniformDimension = true;
  mlir::FailureOr<VerificationReport> report =
      verifyEquivalence(fn("centered"), fn("copy"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_TRUE(report->equivalent);
  EXPECT_TRUE(report->reduction.empty());
  EXPECT_EQ(report->notReduced, whyNot);
}

TEST_F(UniformDimensionTest, AKernelThatWalksTheHeadsIsNotReduced) {
  ASSERT_TRUE(parse(R"mlir(
func.func @twice(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %y = graph.add %x, %x : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}
func.func @looped(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = kernel.graph_def(%x) grid = [1] forloop = 8 : (tensor<8x2xf32>) -> tensor<8x2xf32> {
  ^bb0(%a: tensor<8x2xf32>):
    %1 = block.input %a imap = <x: replicate> fmap = <i: 0> : tensor<8x2xf32> -> !block.tile<1x2xf32>
    %2 = block.binary add %1, %1 : (!block.tile<1x2xf32>, !block.tile<1x2xf32>) -> !block.tile<1x2xf32>
    %3 = block.accum concat %2, dim = 0 : !block.tile<1x2xf32> -> !block.tile<8x2xf32>
    %4 = block.output %3 omap = <x: replicate> : !block.tile<8x2xf32> -> tensor<8x2xf32>
    block.yield %4 : tensor<8x2xf32>
  }
  return %0 : tensor<8x2xf32>
}
)mlir"));
  std::string whyNot;
  EXPECT_FALSE(findUniformDimension(fn("twice"), fn("looped"), &whyNot));
  EXPECT_EQ(whyNot, "result dimension 0 (8): @looped: kernel.graph_def walks "
                    "the dimension with its for-loop");
}

TEST_F(UniformDimensionTest, AKernelThatSplitsASharedInputByTheHeadsIsNotReduced) {
  // Block j along x reads part j of the shared %w: slice j would depend on
  // j. (The kernel need not be equivalent: the analysis alone must refuse.)
  ASSERT_TRUE(parse(R"mlir(
func.func @plus(%x: tensor<8x2x2xf32>, %w: tensor<16x2xf32>) -> tensor<8x2x2xf32> {
  %y = graph.add %x, %x : (tensor<8x2x2xf32>, tensor<8x2x2xf32>) -> tensor<8x2x2xf32>
  return %y : tensor<8x2x2xf32>
}
func.func @split_shared(%x: tensor<8x2x2xf32>, %w: tensor<16x2xf32>) -> tensor<8x2x2xf32> {
  %0 = kernel.graph_def(%x, %w) grid = [8] forloop = 1 : (tensor<8x2x2xf32>, tensor<16x2xf32>) -> tensor<8x2x2xf32> {
  ^bb0(%a: tensor<8x2x2xf32>, %b: tensor<16x2xf32>):
    %1 = block.input %a imap = <x: 0> fmap = <i: replicate> : tensor<8x2x2xf32> -> !block.tile<1x2x2xf32>
    %2 = block.input %b imap = <x: 0> fmap = <i: replicate> : tensor<16x2xf32> -> !block.tile<2x2xf32>
    %3 = block.binary add %1, %2 : (!block.tile<1x2x2xf32>, !block.tile<2x2xf32>) -> !block.tile<1x2x2xf32>
    %4 = block.accum sum %3 : !block.tile<1x2x2xf32> -> !block.tile<1x2x2xf32>
    %5 = block.output %4 omap = <x: 0> : !block.tile<1x2x2xf32> -> tensor<8x2x2xf32>
    block.yield %5 : tensor<8x2x2xf32>
  }
  return %0 : tensor<8x2x2xf32>
}
)mlir"));
  std::string whyNot;
  EXPECT_FALSE(findUniformDimension(fn("plus"), fn("split_shared"), &whyNot));
  EXPECT_EQ(whyNot, "result dimension 0 (8): @split_shared: kernel.graph_def "
                    "partitions a shared input by the grid dimension of the "
                    "uniform one");
}

} // namespace
