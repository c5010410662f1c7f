//===- PartialEquivalence.h - PET's mutants, regions, corrections -*- C++ -*-===//
//
// Partially equivalent transformations with automated corrections, after
// PET (Wang et al., OSDI'21), on graph-dialect programs
// (docs/PartialEquivalence.md):
//
//  1. Mutants (StitchedConvolutions.cpp): a concat along a spatial axis of
//     convolutions that share one weight, one per tile, becomes one
//     convolution of the concatenated tiles. Input and output shapes are
//     the same; the mutant is wrong only next to the seams, where a window
//     reads the neighbouring tile instead of the zero padding.
//  2. Regions (RegionAnalysis.cpp): the output is cut into boxes inside
//     which every op of both programs computes the same linear form up to
//     one translation (PET's first theorem: a box is then right everywhere
//     or wrong everywhere), and each box is decided by random tests over a
//     prime field at two of its positions (the second theorem, Schwartz-
//     Zippel: a wrong position agrees on one test with probability at most
//     degree / p).
//  3. Corrections (Correction.cpp): the wrong rows are recomputed from the
//     original program, on thin slices of the tiles framed by zero rows,
//     in the same convolution launch as the mutant (fused), and put in
//     place by one split and the concat the program already had.
//
// The caller verifies the corrected program against the original with the
// equivalence verifier before anything is emitted.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_PARTIALEQUIVALENCE_PARTIALEQUIVALENCE_H
#define MIRAGE_SUPEROPT_PARTIALEQUIVALENCE_PARTIALEQUIVALENCE_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mirage::pet {

//===----------------------------------------------------------------------===//
// Mutants
//===----------------------------------------------------------------------===//

/// A concat of convolutions that share one weight and attributes, each read
/// only by the concat, along a spatial axis (2: H, 3: W) that the
/// convolutions keep ("same" padding: 2 pad = dil (k - 1), stride 1 on it).
/// Each convolution may be followed by a chain of elementwise ops before
/// the concat (bias, batch norm, ReLU per tile), the same ops with the same
/// other operands for every tile, none of which varies along the axis: the
/// chain then commutes with the concat exactly.
struct StitchSite {
  mirage::graph::ConcatOp concat;
  llvm::SmallVector<mirage::graph::Conv2DOp> convs;
  /// Per tile, the ops from its convolution's result to the concat, in
  /// order (empty: the convolution feeds the concat).
  llvm::SmallVector<llvm::SmallVector<mlir::Operation *, 4>> chains;
  int64_t dim = 2;
  /// Half the window's extent on `dim`: pad = dil (k - 1) / 2.
  int64_t halo = 0;
  /// Each tile's extent on `dim`, and where it starts in the concat.
  llvm::SmallVector<int64_t> extents, offsets;
};

/// The stitch sites of `func`, in op order. Concats that look like one but
/// break a condition are left out; `why`, if given, gets one line each.
std::vector<StitchSite> findStitchSites(mlir::func::FuncOp func,
                                        std::vector<std::string> *why = nullptr);

/// Two standalone functions of the site, inserted after the site's
/// function: the original (the tiles and the weight as arguments, the
/// convolutions and the concat) and the mutant (one convolution of the
/// concatenated tiles). The chains are left out: they apply the same
/// elementwise function to both programs' outputs, so they move no wrong
/// row. The caller erases them.
struct SitePrograms {
  mlir::func::FuncOp original, mutant;
};
SitePrograms buildSitePrograms(const StitchSite &site, llvm::StringRef prefix);

/// Moves the site's per-tile chains after the concat: concat(chain(conv_i))
/// becomes chain(concat(conv_i)), one op per chain step instead of one per
/// tile (exact: the ops are elementwise and their other operands do not
/// vary along the axis). Returns the site with a concat of the bare
/// convolutions; a site without chains is returned as it is.
StitchSite hoistTileChains(const StitchSite &site);

/// The building blocks the mutant and the correction share: a concat of
/// `parts` along `dim`, and a convolution like the site's (its weight and
/// attributes) of `input`, keeping its extent along the site's axis.
mlir::Value buildTileConcat(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::ValueRange parts, int64_t dim);
mlir::Value buildSiteConv(mlir::OpBuilder &b, const StitchSite &site,
                          mlir::Value input, mlir::Value weight);

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// A box [lo, hi) of an output's positions.
struct Box {
  llvm::SmallVector<int64_t, 4> lo, hi;
  /// Decided by the tests: the mutant differs from the original here.
  bool wrong = false;
  int64_t positions() const;
};

struct RegionOptions {
  /// Bits of the random prime q; values live in Z_p, p = 2 q + 1.
  unsigned fieldBits = 31;
  uint64_t seed = 0;
  /// Tests run until a wrong box passes them all with probability below
  /// 2^targetLog2Bound (union over the boxes).
  double targetLog2Bound = -60.0;
  /// The most boxes an output may be cut into.
  uint64_t maxBoxes = 100000;
  /// Tests of a box at two positions (its lowest and highest corner);
  /// with false, one.
  bool twoPositions = true;
  /// Bytes the field runs may hold (both programs' estimated peaks,
  /// checked before any input is drawn); 0: the machine's memory.
  uint64_t memoryLimitBytes = 0;
};

struct RegionReport {
  /// The boxes of each output, in row-major order of their corners.
  std::vector<std::vector<Box>> boxes;
  uint64_t positionsTested = 0; // per test, over all outputs
  uint64_t totalPositions = 0;
  unsigned tests = 0;
  uint64_t p = 0;
  /// The largest polynomial degree of an output of either program.
  unsigned degree = 0;
  /// log2 of the probability that some wrong box passed every test.
  double log2Bound = 0;
  unsigned wrongBoxes() const;
  /// "12 boxes (2 wrong), 24 positions of 3136 tested in each of 3 tests
  /// over Z_p, p = ...; P(a wrong box missed) <= 2^-..."
  std::string summary() const;
};

/// Cuts the outputs of `original` and `mutant` (same signature) into boxes
/// and decides each box. Fails, saying why, on an op outside the analysis
/// (conv2d, concat, split, add, sub, mul, scalar_mul, scalar_add, avg
/// pooling: the multi-linear ops whose windows it knows), on programs whose
/// outputs translate their inputs differently, or on too many boxes.
llvm::Expected<RegionReport> analyzeRegions(mlir::func::FuncOp original,
                                            mlir::func::FuncOp mutant,
                                            const RegionOptions &options);

/// Per output dimension, the points where some op's form may change (the
/// starts of the boxes, with 0 and the extent); exposed for tests.
llvm::Expected<std::vector<llvm::SmallVector<llvm::SmallVector<int64_t>>>>
outputCuts(mlir::func::FuncOp func);

//===----------------------------------------------------------------------===//
// Corrections
//===----------------------------------------------------------------------===//

/// Where the slices around the wrong intervals are cut from.
enum class SliceLayout {
  /// One split of each tile that has a slice (no extra concat).
  PerTile,
  /// One split of the concatenated tiles (one launch however many tiles).
  FromConcat,
};

struct CorrectionOptions {
  SliceLayout layout = SliceLayout::FromConcat;
  /// Leave the first wrong interval uncorrected: a planted wrong
  /// correction, which verification must reject (tests only).
  bool plantWrong = false;
};

/// What a correction built.
struct Correction {
  /// The wrong intervals [lo, hi) of the site's axis that were recomputed.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4> intervals;
  /// The ops the correction adds to the mutant (splits, the zero bands'
  /// product and split, the split of the result; the concat of the tiles is
  /// the mutant's and the final concat the program's).
  unsigned ops = 0;
  /// Rows (or columns) the fused convolution computes beyond the mutant's.
  int64_t extraExtent = 0;
};

/// The wrong intervals [lo, hi) along the site's axis: the projections of
/// the wrong boxes of output 0, merged. (Whole rows are recomputed: a row
/// only partly wrong is recomputed whole, which is still right.)
llvm::Expected<llvm::SmallVector<std::pair<int64_t, int64_t>, 4>>
wrongIntervals(const StitchSite &site, const RegionReport &report);

/// Rewrites the site inside its function: the tiles, slices of them around
/// each wrong interval (halo rows on each side, clipped to the tile) and
/// zero bands of halo rows are concatenated along the axis; one
/// convolution computes the mutant and the recomputed rows (fused); one
/// split and the program's concat assemble the result. A band is 0 x rows
/// of the same tile on the other side of the edge it borders (shifted by
/// the smallest multiple of the dilation not below the halo), so that an
/// inf or NaN it carries reaches only outputs that the original computes
/// from that element too (never a finite one). Fails, saying why, when the
/// slices of two intervals would overlap (a tile shorter than 4 halo), a
/// band's tile is shorter than that shift, or an interval is empty.
llvm::Expected<Correction>
correctSite(const StitchSite &site,
            llvm::ArrayRef<std::pair<int64_t, int64_t>> intervals,
            const CorrectionOptions &options);

} // namespace mirage::pet

#endif // MIRAGE_SUPEROPT_PARTIALEQUIVALENCE_PARTIALEQUIVALENCE_H
