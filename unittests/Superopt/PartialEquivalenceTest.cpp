//===- PartialEquivalenceTest.cpp - PET's regions and corrections ---------===//
//
// Planted stitched-convolution mutants: the region analysis must find the
// wrong rows exactly (the seam rows, halo on each side), test two positions
// per box, and reach its bound; the correction must make the program
// equivalent again, and a correction with a hole must not be; an inf or NaN
// anywhere in a tile must not make a corrected output non-finite where the
// original's is finite.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/PartialEquivalence/PartialEquivalence.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "MicroGraphTest.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

using namespace mirage;
using namespace mirage::pet;

namespace {

class PartialEquivalenceTest : public mirage::testing::MicroGraphTest {
protected:
  /// The site of function @f, its programs and their regions.
  struct Analysis {
    StitchSite site;
    SitePrograms programs;
    RegionReport report;
  };
  std::optional<Analysis> analyze(RegionOptions options = {}) {
    std::vector<StitchSite> sites = findStitchSites(fn("f"));
    EXPECT_EQ(sites.size(), 1u);
    if (sites.size() != 1)
      return std::nullopt;
    Analysis a{sites[0], buildSitePrograms(sites[0], "f"), {}};
    llvm::Expected<RegionReport> r =
        analyzeRegions(a.programs.original, a.programs.mutant, options);
    EXPECT_TRUE(bool(r)) << (r ? "" : llvm::toString(r.takeError()));
    if (!r)
      return std::nullopt;
    a.report = std::move(*r);
    return a;
  }
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4>
  intervals(const Analysis &a) {
    auto i = wrongIntervals(a.site, a.report);
    EXPECT_TRUE(bool(i)) << (i ? "" : llvm::toString(i.takeError()));
    if (!i)
      return {};
    return *i;
  }
  /// Corrects @f's site in a copy @g of @f; null on failure.
  mlir::func::FuncOp correctCopy(SliceLayout layout) {
    std::optional<Analysis> a = analyze();
    if (!a)
      return nullptr;
    auto spans = intervals(*a);
    a->programs.original.erase();
    a->programs.mutant.erase();
    mlir::func::FuncOp f = fn("f");
    mlir::OpBuilder b(f);
    b.setInsertionPointAfter(f);
    auto copy = llvm::cast<mlir::func::FuncOp>(b.clone(*f));
    copy.setSymName("g");
    CorrectionOptions options;
    options.layout = layout;
    llvm::Expected<Correction> c =
        correctSite(findStitchSites(copy)[0], spans, options);
    EXPECT_TRUE(bool(c)) << (c ? "" : llvm::toString(c.takeError()));
    if (!c)
      return nullptr;
    return copy;
  }
  /// Runs @f and its correction @g in fp64 on random finite inputs with one
  /// non-finite element planted at every row of every tile (several
  /// columns, each of +inf, -inf and NaN), and returns how many output
  /// elements @g makes non-finite or different where @f's is finite (0 is
  /// right). `checked` counts the runs.
  int64_t nonFiniteLeaks(mlir::func::FuncOp f, mlir::func::FuncOp g,
                         int64_t &checked) {
    using superopt::RealTensor;
    const double special[] = {std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN()};
    superopt::SplitMix64 rng(7);
    llvm::SmallVector<RealTensor> inputs;
    for (mlir::Type t : f.getArgumentTypes()) {
      auto type = llvm::cast<mlir::RankedTensorType>(t);
      RealTensor x(type.getShape());
      for (double &v : x.data)
        v = rng.symmetricUnit();
      inputs.push_back(std::move(x));
    }
    int64_t leaks = 0;
    checked = 0;
    StitchSite site = findStitchSites(f)[0];
    // The tiles are the arguments before the weight.
    for (unsigned tile = 0; tile < site.convs.size(); ++tile) {
      RealTensor &x = inputs[tile];
      int64_t rows = x.shape[site.dim], cols = x.shape[5 - site.dim];
      for (int64_t row = 0; row < rows; ++row)
        for (int64_t col : {int64_t(0), cols / 2, cols - 1})
          for (double value : special) {
            // Image 0, channel 1; `row` along the site's axis.
            int64_t h = site.dim == 2 ? row : col;
            int64_t w = site.dim == 2 ? col : row;
            int64_t at = (x.shape[2] + h) * x.shape[3] + w;
            double saved = x.data[at];
            x.data[at] = value;
            auto ra =
                superopt::interpretReal(f, inputs, superopt::RealMode::FP64);
            auto rb =
                superopt::interpretReal(g, inputs, superopt::RealMode::FP64);
            x.data[at] = saved;
            EXPECT_TRUE(mlir::succeeded(ra) && mlir::succeeded(rb));
            if (mlir::failed(ra) || mlir::failed(rb))
              return -1;
            ++checked;
            const RealTensor &ya = (*ra)[0], &yb = (*rb)[0];
            for (int64_t i = 0; i < ya.size(); ++i)
              if (std::isfinite(ya.data[i]) &&
                  !(std::fabs(ya.data[i] - yb.data[i]) <=
                    1e-9 * (1 + std::fabs(ya.data[i]))))
                ++leaks;
          }
    }
    return leaks;
  }
  /// Corrects @f's site in a copy of @f and verifies the copy against @f.
  bool correctAndVerify(bool plantWrong, SliceLayout layout) {
    std::optional<Analysis> a = analyze();
    if (!a)
      return false;
    auto spans = intervals(*a);
    mlir::func::FuncOp f = fn("f");
    mlir::OpBuilder b(f);
    b.setInsertionPointAfter(f);
    auto copy = llvm::cast<mlir::func::FuncOp>(b.clone(*f));
    copy.setSymName("g");
    CorrectionOptions options;
    options.layout = layout;
    options.plantWrong = plantWrong;
    llvm::Expected<Correction> c =
        correctSite(findStitchSites(copy)[0], spans, options);
    EXPECT_TRUE(bool(c)) << (c ? "" : llvm::toString(c.takeError()));
    if (!c)
      return false;
    superopt::VerifierOptions verify;
    verify.maxScales = 2;
    mlir::FailureOr<superopt::VerificationReport> report =
        superopt::verifyEquivalence(f, copy, verify);
    EXPECT_TRUE(mlir::succeeded(report));
    return mlir::succeeded(report) && report->equivalent;
  }
};

// Two tiles of 5 and 7 rows, 3x3 convolution with padding 1: rows 4 and 5
// (the last of the first tile, the first of the second) are wrong.
const char *kTwoTiles = R"mlir(
func.func @f(%a: tensor<1x2x5x6xf32>, %b: tensor<1x2x7x6xf32>,
             %w: tensor<3x2x3x3xf32>) -> tensor<1x3x12x6xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x2x7x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x7x6xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x3x5x6xf32>, tensor<1x3x7x6xf32>) -> tensor<1x3x12x6xf32>
  return %2 : tensor<1x3x12x6xf32>
}
)mlir";

TEST_F(PartialEquivalenceTest, FindsTheSeamRowsExactly) {
  ASSERT_TRUE(parse(kTwoTiles));
  std::optional<Analysis> a = analyze();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->site.halo, 1);
  EXPECT_EQ(a->site.offsets, (llvm::SmallVector<int64_t>{0, 5}));
  // Rows: the union of both programs' cuts {0,1,4,5,6,11,12}; columns
  // {0,1,5,6} (the window meets the padding); one batch, one channel range.
  const std::vector<Box> &boxes = a->report.boxes[0];
  ASSERT_EQ(boxes.size(), 6u * 3u);
  unsigned wrong = 0;
  for (const Box &box : boxes) {
    bool seam = box.lo[2] == 4 || box.lo[2] == 5;
    EXPECT_EQ(box.wrong, seam) << "rows [" << box.lo[2] << ", " << box.hi[2]
                               << "), columns [" << box.lo[3] << ", "
                               << box.hi[3] << ")";
    wrong += box.wrong;
  }
  EXPECT_EQ(wrong, 6u);
  EXPECT_EQ(a->report.wrongBoxes(), 6u);
  // Two positions per box of more than one position, one otherwise.
  unsigned expected = 0;
  for (const Box &box : boxes)
    expected += box.positions() > 1 ? 2 : 1;
  EXPECT_EQ(a->report.positionsTested, expected);
  EXPECT_EQ(a->report.totalPositions, 1u * 3 * 12 * 6);
  EXPECT_EQ(intervals(*a),
            (llvm::SmallVector<std::pair<int64_t, int64_t>, 4>{{4, 6}}));
  a->programs.original.erase();
  a->programs.mutant.erase();
}

TEST_F(PartialEquivalenceTest, BoundIsReachedWithTheFewestTests) {
  ASSERT_TRUE(parse(kTwoTiles));
  std::optional<Analysis> a = analyze();
  ASSERT_TRUE(a);
  const RegionReport &r = a->report;
  EXPECT_EQ(r.degree, 2u); // input times weight
  EXPECT_GT(r.p, 1ull << 31);
  double perTest = std::log2(2.0) - std::log2(double(r.p));
  double boxes = std::log2(18.0);
  EXPECT_LE(r.log2Bound, -60.0);
  EXPECT_GT(boxes + (r.tests - 1) * perTest, -60.0);
  EXPECT_NEAR(r.log2Bound, boxes + r.tests * perTest, 1e-9);
  // A stricter bound needs more tests.
  RegionOptions strict;
  strict.targetLog2Bound = -150;
  a->programs.original.erase();
  a->programs.mutant.erase();
  std::optional<Analysis> b = analyze(strict);
  ASSERT_TRUE(b);
  EXPECT_GT(b->report.tests, r.tests);
  EXPECT_LE(b->report.log2Bound, -150.0);
  b->programs.original.erase();
  b->programs.mutant.erase();
}

TEST_F(PartialEquivalenceTest, DilatedWindowAlongW) {
  // Dilation 2, padding 2 along W: halo 2, columns 6..9 wrong at the seam
  // at 8.
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x2x4x8xf32>, %b: tensor<1x2x4x9xf32>,
             %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x17xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x2x4x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x8xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x2x4x9xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x9xf32>
  %2 = graph.concat(%0, %1) dim = 3 : (tensor<1x2x4x8xf32>, tensor<1x2x4x9xf32>) -> tensor<1x2x4x17xf32>
  return %2 : tensor<1x2x4x17xf32>
}
)mlir"));
  std::optional<Analysis> a = analyze();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->site.dim, 3);
  EXPECT_EQ(a->site.halo, 2);
  EXPECT_EQ(intervals(*a),
            (llvm::SmallVector<std::pair<int64_t, int64_t>, 4>{{6, 10}}));
  a->programs.original.erase();
  a->programs.mutant.erase();
}

TEST_F(PartialEquivalenceTest, PointwiseConvolutionIsExact) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x4x3x5xf32>, %b: tensor<1x4x6x5xf32>,
             %w: tensor<8x4x1x1xf32>) -> tensor<1x8x9x5xf32> {
  %0 = graph.conv2d %a, %w : (tensor<1x4x3x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x3x5xf32>
  %1 = graph.conv2d %b, %w : (tensor<1x4x6x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x5xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x8x3x5xf32>, tensor<1x8x6x5xf32>) -> tensor<1x8x9x5xf32>
  return %2 : tensor<1x8x9x5xf32>
}
)mlir"));
  std::optional<Analysis> a = analyze();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->report.wrongBoxes(), 0u);
  EXPECT_TRUE(intervals(*a).empty());
  a->programs.original.erase();
  a->programs.mutant.erase();
}

TEST_F(PartialEquivalenceTest, SitesNeedOneWeightAndSamePadding) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x2x5x6xf32>, %b: tensor<1x2x5x6xf32>,
             %w: tensor<3x2x3x3xf32>, %v: tensor<3x2x3x3xf32>) -> (tensor<1x3x10x6xf32>, tensor<1x3x6x4xf32>) {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %1 = graph.conv2d %b, %v {padding = array<i64: 1, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x3x5x6xf32>, tensor<1x3x5x6xf32>) -> tensor<1x3x10x6xf32>
  %3 = graph.conv2d %a, %w : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x4xf32>
  %4 = graph.conv2d %b, %w : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x4xf32>
  %5 = graph.concat(%3, %4) dim = 2 : (tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) -> tensor<1x3x6x4xf32>
  return %2, %5 : tensor<1x3x10x6xf32>, tensor<1x3x6x4xf32>
}
)mlir"));
  std::vector<std::string> why;
  EXPECT_TRUE(findStitchSites(fn("f"), &why).empty());
  ASSERT_EQ(why.size(), 2u);
  EXPECT_NE(why[0].find("weight"), std::string::npos) << why[0];
  EXPECT_NE(why[1].find("extent"), std::string::npos) << why[1];
}

TEST_F(PartialEquivalenceTest, MemoryLimitIsCheckedBeforeTheRuns) {
  ASSERT_TRUE(parse(kTwoTiles));
  std::vector<StitchSite> sites = findStitchSites(fn("f"));
  ASSERT_EQ(sites.size(), 1u);
  SitePrograms programs = buildSitePrograms(sites[0], "f");
  RegionOptions options;
  options.memoryLimitBytes = 1024;
  llvm::Expected<RegionReport> r =
      analyzeRegions(programs.original, programs.mutant, options);
  ASSERT_FALSE(bool(r));
  std::string message = llvm::toString(r.takeError());
  EXPECT_NE(message.find("over the limit of 1.0 KiB"), std::string::npos)
      << message;
}

TEST_F(PartialEquivalenceTest, OpsOutsideTheAnalysisAreRefused) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x2x5x6xf32>) -> tensor<1x2x5x6xf32> {
  %0 = graph.relu %a : tensor<1x2x5x6xf32>
  return %0 : tensor<1x2x5x6xf32>
}
)mlir"));
  llvm::Expected<RegionReport> r = analyzeRegions(fn("f"), fn("f"), {});
  ASSERT_FALSE(bool(r));
  std::string message = llvm::toString(r.takeError());
  EXPECT_NE(message.find("graph.relu"), std::string::npos) << message;
}

TEST_F(PartialEquivalenceTest, CutsOfAStridedWindow) {
  // Stride 2, padding 1, kernel 3 on 9 rows: output row t reads
  // 2t - 1 .. 2t + 1; only row 0 reads the top padding and only row 4 the
  // bottom (2 * 4 + 1 = 9).
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x1x9x9xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x9x9xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}
)mlir"));
  auto cuts = outputCuts(fn("f"));
  ASSERT_TRUE(bool(cuts)) << llvm::toString(cuts.takeError());
  EXPECT_EQ((*cuts)[0][2], (llvm::SmallVector<int64_t>{0, 1, 4, 5}));
  EXPECT_EQ((*cuts)[0][3], (llvm::SmallVector<int64_t>{0, 1, 4, 5}));
}

// Three tiles: two seams, both corrected.
const char *kThreeTiles = R"mlir(
func.func @f(%a: tensor<1x2x6x5xf32>, %b: tensor<1x2x4x5xf32>,
             %c: tensor<1x2x7x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x17x5xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x6x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x2x4x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x5xf32>
  %2 = graph.conv2d %c, %w {padding = array<i64: 1, 1>} : (tensor<1x2x7x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x7x5xf32>
  %3 = graph.concat(%0, %1, %2) dim = 2 : (tensor<1x3x6x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x7x5xf32>) -> tensor<1x3x17x5xf32>
  return %3 : tensor<1x3x17x5xf32>
}
)mlir";

TEST_F(PartialEquivalenceTest, CorrectionFromTheConcatIsEquivalent) {
  ASSERT_TRUE(parse(kThreeTiles));
  EXPECT_TRUE(correctAndVerify(/*plantWrong=*/false, SliceLayout::FromConcat));
}

TEST_F(PartialEquivalenceTest, CorrectionPerTileIsEquivalent) {
  ASSERT_TRUE(parse(kThreeTiles));
  EXPECT_TRUE(correctAndVerify(/*plantWrong=*/false, SliceLayout::PerTile));
}

TEST_F(PartialEquivalenceTest, CorrectionWithAHoleIsNot) {
  ASSERT_TRUE(parse(kThreeTiles));
  EXPECT_FALSE(correctAndVerify(/*plantWrong=*/true, SliceLayout::FromConcat));
}

// The zero bands are rows of the tiles times 0; an inf or NaN there must
// reach only outputs that the original computes from it too. (With every
// band cut from one piece of a tile, as the correction once did, an inf in
// that piece made every recomputed row beside a band NaN.)
TEST_F(PartialEquivalenceTest, NonFiniteTileElementsDoNotLeak) {
  ASSERT_TRUE(parse(kThreeTiles));
  for (SliceLayout layout : {SliceLayout::FromConcat, SliceLayout::PerTile}) {
    mlir::func::FuncOp g = correctCopy(layout);
    ASSERT_TRUE(g);
    int64_t checked = 0;
    EXPECT_EQ(nonFiniteLeaks(fn("f"), g, checked), 0);
    EXPECT_EQ(checked, (6 + 4 + 7) * 3 * 3);
    g.erase();
  }
}

TEST_F(PartialEquivalenceTest, NonFiniteElementsDoNotLeakWithDilation) {
  // Dilation 2 along H (halo 2): a band row is read at taps two rows
  // apart, and the row it is 0 x must still be read by the same output.
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x2x9x6xf32>, %b: tensor<1x2x10x6xf32>,
             %w: tensor<3x2x3x3xf32>) -> tensor<1x3x19x6xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 2, 1>, dilations = array<i64: 2, 1>} : (tensor<1x2x9x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x9x6xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 2, 1>, dilations = array<i64: 2, 1>} : (tensor<1x2x10x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x10x6xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x3x9x6xf32>, tensor<1x3x10x6xf32>) -> tensor<1x3x19x6xf32>
  return %2 : tensor<1x3x19x6xf32>
}
)mlir"));
  mlir::func::FuncOp g = correctCopy(SliceLayout::FromConcat);
  ASSERT_TRUE(g);
  int64_t checked = 0;
  EXPECT_EQ(nonFiniteLeaks(fn("f"), g, checked), 0);
  EXPECT_EQ(checked, (9 + 10) * 3 * 3);
}

TEST_F(PartialEquivalenceTest, NonFiniteElementsDoNotLeakWithAnEvenWindow) {
  // Two taps along H, dilation 2, padding 1: the taps are at -1 and +1,
  // never 0, so a band row must be 0 x the row two away (the smallest
  // multiple of the dilation not below the halo), not one.
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x2x7x5xf32>, %b: tensor<1x2x8x5xf32>,
             %w: tensor<3x2x2x3xf32>) -> tensor<1x3x15x5xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>, dilations = array<i64: 2, 1>} : (tensor<1x2x7x5xf32>, tensor<3x2x2x3xf32>) -> tensor<1x3x7x5xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 1, 1>, dilations = array<i64: 2, 1>} : (tensor<1x2x8x5xf32>, tensor<3x2x2x3xf32>) -> tensor<1x3x8x5xf32>
  %2 = graph.concat(%0, %1) dim = 2 : (tensor<1x3x7x5xf32>, tensor<1x3x8x5xf32>) -> tensor<1x3x15x5xf32>
  return %2 : tensor<1x3x15x5xf32>
}
)mlir"));
  for (SliceLayout layout : {SliceLayout::FromConcat, SliceLayout::PerTile}) {
    mlir::func::FuncOp g = correctCopy(layout);
    ASSERT_TRUE(g);
    int64_t checked = 0;
    EXPECT_EQ(nonFiniteLeaks(fn("f"), g, checked), 0);
    EXPECT_EQ(checked, (7 + 8) * 3 * 3);
    g.erase();
  }
}

TEST_F(PartialEquivalenceTest, NonFiniteElementsDoNotLeakAlongW) {
  // A 5x5 window (halo 2) stitched along W.
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x2x4x8xf32>, %b: tensor<1x2x4x9xf32>,
             %w: tensor<2x2x5x5xf32>) -> tensor<1x2x4x17xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 2, 2>} : (tensor<1x2x4x8xf32>, tensor<2x2x5x5xf32>) -> tensor<1x2x4x8xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 2, 2>} : (tensor<1x2x4x9xf32>, tensor<2x2x5x5xf32>) -> tensor<1x2x4x9xf32>
  %2 = graph.concat(%0, %1) dim = 3 : (tensor<1x2x4x8xf32>, tensor<1x2x4x9xf32>) -> tensor<1x2x4x17xf32>
  return %2 : tensor<1x2x4x17xf32>
}
)mlir"));
  for (SliceLayout layout : {SliceLayout::FromConcat, SliceLayout::PerTile}) {
    mlir::func::FuncOp g = correctCopy(layout);
    ASSERT_TRUE(g);
    int64_t checked = 0;
    EXPECT_EQ(nonFiniteLeaks(fn("f"), g, checked), 0);
    EXPECT_EQ(checked, (8 + 9) * 3 * 3);
    g.erase();
  }
}

// Three tiles, each convolution followed by a per-channel scale, a shift
// (broadcast from the left, rank 3) and ReLU.
const char *kThreeTilesChained = R"mlir(
func.func @f(%a: tensor<1x2x6x5xf32>, %b: tensor<1x2x4x5xf32>,
             %c: tensor<1x2x7x5xf32>, %w: tensor<3x2x3x3xf32>,
             %s: tensor<1x3x1x1xf32>, %t: tensor<3x1x1xf32>) -> tensor<1x3x17x5xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x6x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %1 = graph.mul %0, %s : (tensor<1x3x6x5xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x6x5xf32>
  %2 = graph.add %t, %1 : (tensor<3x1x1xf32>, tensor<1x3x6x5xf32>) -> tensor<1x3x6x5xf32>
  %3 = graph.relu %2 : tensor<1x3x6x5xf32>
  %4 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x2x4x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x5xf32>
  %5 = graph.mul %4, %s : (tensor<1x3x4x5xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x5xf32>
  %6 = graph.add %t, %5 : (tensor<3x1x1xf32>, tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  %7 = graph.relu %6 : tensor<1x3x4x5xf32>
  %8 = graph.conv2d %c, %w {padding = array<i64: 1, 1>} : (tensor<1x2x7x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x7x5xf32>
  %9 = graph.mul %8, %s : (tensor<1x3x7x5xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x7x5xf32>
  %10 = graph.add %t, %9 : (tensor<3x1x1xf32>, tensor<1x3x7x5xf32>) -> tensor<1x3x7x5xf32>
  %11 = graph.relu %10 : tensor<1x3x7x5xf32>
  %12 = graph.concat(%3, %7, %11) dim = 2 : (tensor<1x3x6x5xf32>, tensor<1x3x4x5xf32>, tensor<1x3x7x5xf32>) -> tensor<1x3x17x5xf32>
  return %12 : tensor<1x3x17x5xf32>
}
)mlir";

TEST_F(PartialEquivalenceTest, ChainsMoveAfterTheConcatExactly) {
  ASSERT_TRUE(parse(kThreeTilesChained));
  std::vector<StitchSite> sites = findStitchSites(fn("f"));
  ASSERT_EQ(sites.size(), 1u);
  ASSERT_EQ(sites[0].chains.size(), 3u);
  for (const auto &chain : sites[0].chains) {
    ASSERT_EQ(chain.size(), 3u);
    EXPECT_TRUE(llvm::isa<graph::MulOp>(chain[0]));
    EXPECT_TRUE(llvm::isa<graph::AddOp>(chain[1]));
    EXPECT_TRUE(llvm::isa<graph::ReluOp>(chain[2]));
  }
  EXPECT_EQ(sites[0].offsets, (llvm::SmallVector<int64_t>{0, 6, 10}));

  mlir::func::FuncOp f = fn("f");
  mlir::OpBuilder b(f);
  b.setInsertionPointAfter(f);
  auto g = llvm::cast<mlir::func::FuncOp>(b.clone(*f));
  g.setSymName("g");
  StitchSite bare = hoistTileChains(findStitchSites(g)[0]);
  EXPECT_TRUE(
      llvm::all_of(bare.chains, [](const auto &c) { return c.empty(); }));
  unsigned muls = 0, adds = 0, relus = 0;
  g.walk([&](mlir::Operation *op) {
    muls += llvm::isa<graph::MulOp>(op);
    adds += llvm::isa<graph::AddOp>(op);
    relus += llvm::isa<graph::ReluOp>(op);
  });
  EXPECT_EQ(muls + adds + relus, 3u);
  // The moved chain reads the concat of the bare convolutions.
  mlir::Operation *last =
      g.getBody().front().getTerminator()->getOperand(0).getDefiningOp();
  ASSERT_TRUE(llvm::isa_and_nonnull<graph::ReluOp>(last));
  // Exact: the same operations on the same elements, bit for bit.
  std::vector<StitchSite> again = findStitchSites(g);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_TRUE(again[0].chains.front().empty());
  superopt::SplitMix64 rng(3);
  llvm::SmallVector<superopt::RealTensor> inputs;
  for (mlir::Type t : f.getArgumentTypes()) {
    superopt::RealTensor x(llvm::cast<mlir::RankedTensorType>(t).getShape());
    for (double &v : x.data)
      v = rng.symmetricUnit();
    inputs.push_back(std::move(x));
  }
  auto ra = superopt::interpretReal(f, inputs, superopt::RealMode::Native);
  auto rb = superopt::interpretReal(g, inputs, superopt::RealMode::Native);
  ASSERT_TRUE(mlir::succeeded(ra) && mlir::succeeded(rb));
  EXPECT_EQ((*ra)[0].data, (*rb)[0].data);
}

TEST_F(PartialEquivalenceTest, CorrectionWithChainsIsEquivalent) {
  // A fresh module for each correction (each leaves its copy behind).
  ASSERT_TRUE(parse(kThreeTilesChained));
  EXPECT_TRUE(correctAndVerify(/*plantWrong=*/false, SliceLayout::FromConcat));
  ASSERT_TRUE(parse(kThreeTilesChained));
  EXPECT_TRUE(correctAndVerify(/*plantWrong=*/false, SliceLayout::PerTile));
  ASSERT_TRUE(parse(kThreeTilesChained));
  EXPECT_FALSE(correctAndVerify(/*plantWrong=*/true, SliceLayout::FromConcat));
}

TEST_F(PartialEquivalenceTest, NonFiniteElementsDoNotLeakThroughChains) {
  ASSERT_TRUE(parse(kThreeTilesChained));
  mlir::func::FuncOp g = correctCopy(SliceLayout::FromConcat);
  ASSERT_TRUE(g);
  int64_t checked = 0;
  EXPECT_EQ(nonFiniteLeaks(fn("f"), g, checked), 0);
  EXPECT_EQ(checked, (6 + 4 + 7) * 3 * 3);
}

TEST_F(PartialEquivalenceTest, OverlappingSlicesAreRefused) {
  // A middle tile of 3 rows with halo 1: the slices for its two seams
  // overlap (it would need 4 rows).
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<1x2x6x5xf32>, %b: tensor<1x2x3x5xf32>,
             %c: tensor<1x2x6x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x15x5xf32> {
  %0 = graph.conv2d %a, %w {padding = array<i64: 1, 1>} : (tensor<1x2x6x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %1 = graph.conv2d %b, %w {padding = array<i64: 1, 1>} : (tensor<1x2x3x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x5xf32>
  %2 = graph.conv2d %c, %w {padding = array<i64: 1, 1>} : (tensor<1x2x6x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %3 = graph.concat(%0, %1, %2) dim = 2 : (tensor<1x3x6x5xf32>, tensor<1x3x3x5xf32>, tensor<1x3x6x5xf32>) -> tensor<1x3x15x5xf32>
  return %3 : tensor<1x3x15x5xf32>
}
)mlir"));
  std::optional<Analysis> a = analyze();
  ASSERT_TRUE(a);
  auto spans = intervals(*a);
  EXPECT_EQ(spans, (llvm::SmallVector<std::pair<int64_t, int64_t>, 4>{
                       {5, 7}, {8, 10}}));
  llvm::Expected<Correction> c = correctSite(a->site, spans, {});
  ASSERT_FALSE(bool(c));
  std::string message = llvm::toString(c.takeError());
  EXPECT_NE(message.find("overlap"), std::string::npos) << message;
  a->programs.original.erase();
  a->programs.mutant.erase();
}

} // namespace
