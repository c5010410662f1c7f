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

#include "mirage/Superopt/Verification/UniformDimension.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
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

// A projection of 16 rows (tokens) by a shared weight, as a graph and as a
// kernel whose grid partitions the rows (4 per block) and whose for-loop
// walks the contracted dimension: row i of x W depends on row i of x
// alone, by the same function for every row.
const char *kRows = R"mlir(
func.func @proj(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %m = graph.matmul %x, %w : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %y = graph.add %m, %b : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}
func.func @proj_kernel(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %0 = kernel.graph_def(%x, %w) grid = [4] forloop = 4 : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%a: tensor<16x32xf32>, %c: tensor<32x8xf32>):
    %1 = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<16x32xf32> -> !block.tile<4x8xf32>
    %2 = block.input %c imap = <x: replicate> fmap = <i: 0> : tensor<32x8xf32> -> !block.tile<8x8xf32>
    %3 = block.matmul %1, %2 : (!block.tile<4x8xf32>, !block.tile<8x8xf32>) -> !block.tile<4x8xf32>
    %4 = block.accum sum %3 : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %5 = block.output %4 omap = <x: 0> : !block.tile<4x8xf32> -> tensor<16x8xf32>
    block.yield %5 : tensor<16x8xf32>
  }
  %y = kernel.binary add %0, %b : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}
func.func @proj_wrong(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %0 = kernel.graph_def(%x, %w) grid = [4] forloop = 4 : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%a: tensor<16x32xf32>, %c: tensor<32x8xf32>):
    %1 = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<16x32xf32> -> !block.tile<4x8xf32>
    %2 = block.input %c imap = <x: replicate> fmap = <i: 0> : tensor<32x8xf32> -> !block.tile<8x8xf32>
    %3 = block.matmul %1, %2 : (!block.tile<4x8xf32>, !block.tile<8x8xf32>) -> !block.tile<4x8xf32>
    %4 = block.accum sum %3 : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %5 = block.output %4 omap = <x: 0> : !block.tile<4x8xf32> -> tensor<16x8xf32>
    block.yield %5 : tensor<16x8xf32>
  }
  %y = kernel.binary sub %0, %b : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}
)mlir";

TEST_F(UniformDimensionTest, MatmulRowsOfASharedWeightAreUniform) {
  ASSERT_TRUE(parse(kRows));
  std::string whyNot;
  std::optional<UniformDimension> dim =
      findUniformDimension(fn("proj"), fn("proj_kernel"), &whyNot);
  ASSERT_TRUE(dim.has_value()) << whyNot;
  EXPECT_EQ(dim->extent, 16);
  EXPECT_EQ(dim->group, 4);
  EXPECT_EQ(dim->reducedExtent, 8);
  EXPECT_EQ(dim->argumentDims,
            (llvm::SmallVector<int64_t>{0, -1, -1}));
  EXPECT_NE(dim->describe().find("matmul rows of a shared right operand"),
            std::string::npos)
      << dim->describe();
  mlir::FailureOr<ReducedPair> reduced =
      shrinkUniformDimension(fn("proj"), fn("proj_kernel"), *dim);
  ASSERT_TRUE(mlir::succeeded(reduced));
  kernel::GraphDefOp kernel;
  reduced->candidate.walk([&](kernel::GraphDefOp k) { kernel = k; });
  ASSERT_TRUE(kernel);
  EXPECT_EQ(llvm::SmallVector<int64_t>(kernel.getGrid()),
            (llvm::SmallVector<int64_t>{2}));

  VerifierOptions options;
  options.reduceUniformDimension = true;
  mlir::FailureOr<VerificationReport> report =
      verifyEquivalence(fn("proj"), fn("proj_kernel"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_TRUE(report->equivalent) << report->summary();
  EXPECT_NE(report->summary().find("on a reduced instance, 8 of 16 slices"),
            std::string::npos)
      << report->summary();
  // A wrong candidate (the bias subtracted) is caught on the reduced rows.
  report = verifyEquivalence(fn("proj"), fn("proj_wrong"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_FALSE(report->equivalent);
  EXPECT_TRUE(report->mismatch.has_value());
  EXPECT_FALSE(report->reduction.empty());
}

TEST_F(UniformDimensionTest, MatmulColumnsOfASharedLeftOperandAreUniform) {
  // Column j of A W is the shared A times column j of W; the predefined
  // kernel.matmul follows the same rule as the graph op.
  ASSERT_TRUE(parse(R"mlir(
func.func @cols(%a: tensor<2x32xf32>, %w: tensor<32x16xf32>) -> tensor<2x16xf32> {
  %m = graph.matmul %a, %w : (tensor<2x32xf32>, tensor<32x16xf32>) -> tensor<2x16xf32>
  return %m : tensor<2x16xf32>
}
func.func @cols_kernel(%a: tensor<2x32xf32>, %w: tensor<32x16xf32>) -> tensor<2x16xf32> {
  %m = kernel.matmul %a, %w : (tensor<2x32xf32>, tensor<32x16xf32>) -> tensor<2x16xf32>
  return %m : tensor<2x16xf32>
}
)mlir"));
  std::string whyNot;
  std::optional<UniformDimension> dim =
      findUniformDimension(fn("cols"), fn("cols_kernel"), &whyNot);
  ASSERT_TRUE(dim.has_value()) << whyNot;
  EXPECT_EQ(dim->extent, 16);
  EXPECT_EQ(dim->reducedExtent, 2);
  EXPECT_EQ(dim->resultDims, (llvm::SmallVector<int64_t>{1}));
  EXPECT_NE(dim->describe().find("matmul columns of a shared left operand"),
            std::string::npos)
      << dim->describe();
}

TEST_F(UniformDimensionTest, TheDimensionLeavingTheSmallestInstanceIsChosen) {
  // x W^T computed as (W x^T)^T, as the kernel-level enumeration finds it
  // for a transposed weight: uniform over the 8 token rows (x's rows) and
  // over the 512 output columns (W's rows). Reducing the tokens keeps all
  // of W; reducing W's rows leaves 2 of them, so that one is chosen,
  // though it is the later dimension.
  ASSERT_TRUE(parse(R"mlir(
func.func @proj(%x: tensor<8x64xf32>, %w: tensor<512x64xf32>) -> tensor<8x512xf32> {
  %t = graph.transpose %w, perm = [1, 0] : tensor<512x64xf32> -> tensor<64x512xf32>
  %y = graph.matmul %x, %t : (tensor<8x64xf32>, tensor<64x512xf32>) -> tensor<8x512xf32>
  return %y : tensor<8x512xf32>
}
func.func @proj_weight_left(%x: tensor<8x64xf32>, %w: tensor<512x64xf32>) -> tensor<8x512xf32> {
  %xt = kernel.transpose %x, perm = [1, 0] : tensor<8x64xf32> -> tensor<64x8xf32>
  %m = kernel.matmul %w, %xt : (tensor<512x64xf32>, tensor<64x8xf32>) -> tensor<512x8xf32>
  %y = kernel.transpose %m, perm = [1, 0] : tensor<512x8xf32> -> tensor<8x512xf32>
  return %y : tensor<8x512xf32>
}
)mlir"));
  std::string whyNot;
  std::optional<UniformDimension> dim =
      findUniformDimension(fn("proj"), fn("proj_weight_left"), &whyNot);
  ASSERT_TRUE(dim.has_value()) << whyNot;
  EXPECT_EQ(dim->extent, 512);
  EXPECT_EQ(dim->reducedExtent, 2);
  EXPECT_EQ(dim->resultDims, (llvm::SmallVector<int64_t>{1}));
  EXPECT_EQ(dim->argumentDims, (llvm::SmallVector<int64_t>{-1, 0}));

  VerifierOptions options;
  options.reduceUniformDimension = true;
  mlir::FailureOr<VerificationReport> report =
      verifyEquivalence(fn("proj"), fn("proj_weight_left"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_TRUE(report->equivalent) << report->summary();
  EXPECT_NE(report->summary().find("2 of 512 slices of result dimension 1"),
            std::string::npos)
      << report->summary();
}

TEST_F(UniformDimensionTest, AContractedDimensionIsNotReduced) {
  // x (xT x): the Gram matrix xT x sums over all 16 rows of x, so row i of
  // the result depends on every row. Rows of both operands (the columns 4
  // of xT and x) are refused as well.
  ASSERT_TRUE(parse(R"mlir(
func.func @gram(%x: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %t = graph.transpose %x, perm = [1, 0] : tensor<16x4xf32> -> tensor<4x16xf32>
  %g = graph.matmul %t, %x : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  %y = graph.matmul %x, %g : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}
)mlir"));
  std::string whyNot;
  EXPECT_FALSE(findUniformDimension(fn("gram"), fn("gram"), &whyNot));
  EXPECT_EQ(whyNot,
            "result dimension 0 (16): @gram: graph.matmul contracts the "
            "dimension; result dimension 1 (4): @gram: graph.matmul does "
            "not take the dimension as a batch dimension of both operands, "
            "the rows of the left one or the columns of the right one alone");
}

TEST_F(UniformDimensionTest, AKernelSplittingTheContractionIsNotReduced) {
  // Split-K: the first kernel's grid y splits the 16-long contraction into
  // 16 parts and saves one partial product per part; the second sums the
  // parts. The partials are uniform in their part (part k reads column k
  // of %a and row k of %w only), but the combining kernel reads every part
  // in each block: along the contraction the analysis refuses. (The first
  // result, %a transposed, puts that extent in the result.)
  ASSERT_TRUE(parse(R"mlir(
func.func @split_k(%a: tensor<2x16xf32>, %w: tensor<16x4xf32>) -> (tensor<16x2xf32>, tensor<2x4xf32>) {
  %t = kernel.transpose %a, perm = [1, 0] : tensor<2x16xf32> -> tensor<16x2xf32>
  %p = kernel.graph_def(%a, %w) grid = [1, 16] forloop = 1 : (tensor<2x16xf32>, tensor<16x4xf32>) -> tensor<16x2x4xf32> {
  ^bb0(%x: tensor<2x16xf32>, %y: tensor<16x4xf32>):
    %1 = block.input %x imap = <x: replicate, y: 1> fmap = <i: replicate> : tensor<2x16xf32> -> !block.tile<2x1xf32>
    %2 = block.input %y imap = <x: replicate, y: 0> fmap = <i: replicate> : tensor<16x4xf32> -> !block.tile<1x4xf32>
    %3 = block.matmul %1, %2 : (!block.tile<2x1xf32>, !block.tile<1x4xf32>) -> !block.tile<2x4xf32>
    %4 = block.accum sum %3 : !block.tile<2x4xf32> -> !block.tile<2x4xf32>
    %5 = block.reshape %4 : !block.tile<2x4xf32> -> !block.tile<1x2x4xf32>
    %6 = block.output %5 omap = <x: replicate, y: 0> : !block.tile<1x2x4xf32> -> tensor<16x2x4xf32>
    block.yield %6 : tensor<16x2x4xf32>
  }
  %s = kernel.graph_def(%p) grid = [1] forloop = 1 : (tensor<16x2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%q: tensor<16x2x4xf32>):
    %1 = block.input %q imap = <x: replicate> fmap = <i: replicate> : tensor<16x2x4xf32> -> !block.tile<16x2x4xf32>
    %2 = block.reduce sum %1, dim = 0 : !block.tile<16x2x4xf32> -> !block.tile<1x2x4xf32>
    %3 = block.reshape %2 : !block.tile<1x2x4xf32> -> !block.tile<2x4xf32>
    %4 = block.accum sum %3 : !block.tile<2x4xf32> -> !block.tile<2x4xf32>
    %5 = block.output %4 omap = <x: replicate> : !block.tile<2x4xf32> -> tensor<2x4xf32>
    block.yield %5 : tensor<2x4xf32>
  }
  return %t, %s : tensor<16x2xf32>, tensor<2x4xf32>
}
)mlir"));
  std::string whyNot;
  EXPECT_FALSE(findUniformDimension(fn("split_k"), fn("split_k"), &whyNot));
  EXPECT_EQ(whyNot, "result dimension 0 (16): @split_k: kernel.graph_def "
                    "does not partition the dimension by exactly one grid "
                    "dimension");
}

TEST_F(UniformDimensionTest, SizeOneReshapesKeepTheRows) {
  // An imported projection: [1, S, D] -> [S, D], the matmul, [S, N] ->
  // [1, S, N]. The reshapes only drop or insert a size-1 dimension, so the
  // 16 rows stay the same slices; one that splits the rows does not.
  ASSERT_TRUE(parse(R"mlir(
func.func @proj3(%x: tensor<1x16x32xf32>, %w: tensor<32x8xf32>) -> tensor<1x16x8xf32> {
  %v = graph.reshape %x : tensor<1x16x32xf32> -> tensor<16x32xf32>
  %m = graph.matmul %v, %w : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %r = graph.reshape %m : tensor<16x8xf32> -> tensor<1x16x8xf32>
  return %r : tensor<1x16x8xf32>
}
func.func @proj3_kernels(%x: tensor<1x16x32xf32>, %w: tensor<32x8xf32>) -> tensor<1x16x8xf32> {
  %v = kernel.reshape %x : tensor<1x16x32xf32> -> tensor<16x32xf32>
  %m = kernel.matmul %v, %w : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %r = kernel.reshape %m : tensor<16x8xf32> -> tensor<1x16x8xf32>
  return %r : tensor<1x16x8xf32>
}
func.func @split_rows(%x: tensor<1x16x32xf32>, %w: tensor<32x2xf32>) -> tensor<1x16x2xf32> {
  %v = graph.reshape %x : tensor<1x16x32xf32> -> tensor<4x4x32xf32>
  %u = graph.reshape %v : tensor<4x4x32xf32> -> tensor<16x32xf32>
  %m = graph.matmul %u, %w : (tensor<16x32xf32>, tensor<32x2xf32>) -> tensor<16x2xf32>
  %r = graph.reshape %m : tensor<16x2xf32> -> tensor<1x16x2xf32>
  return %r : tensor<1x16x2xf32>
}
)mlir"));
  std::string whyNot;
  std::optional<UniformDimension> dim =
      findUniformDimension(fn("proj3"), fn("proj3_kernels"), &whyNot);
  ASSERT_TRUE(dim.has_value()) << whyNot;
  EXPECT_EQ(dim->extent, 16);
  EXPECT_EQ(dim->reducedExtent, 2);
  EXPECT_EQ(dim->argumentDims, (llvm::SmallVector<int64_t>{1, -1}));
  EXPECT_EQ(dim->resultDims, (llvm::SmallVector<int64_t>{1}));
  VerifierOptions options;
  options.reduceUniformDimension = true;
  mlir::FailureOr<VerificationReport> report =
      verifyEquivalence(fn("proj3"), fn("proj3_kernels"), options);
  ASSERT_TRUE(mlir::succeeded(report));
  EXPECT_TRUE(report->equivalent) << report->summary();
  EXPECT_FALSE(report->reduction.empty());

  EXPECT_FALSE(findUniformDimension(fn("split_rows"), fn("split_rows"),
                                    &whyNot));
  EXPECT_EQ(whyNot, "result dimension 1 (16): @split_rows: graph.reshape "
                    "merges or splits dimensions");
}

} // namespace
