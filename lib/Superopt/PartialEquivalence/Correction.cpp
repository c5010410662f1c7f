//===- Correction.cpp - recompute a stitched mutant's wrong rows ----------===//
//
// A wrong row r of tile j is what the original computes from tile j alone
// with zero padding: its window reads rows [r - halo, r + halo] of the tile
// and zeros beyond the tile's ends. So a slice of the tile, halo rows past
// the wrong rows on each side (clipped to the tile), convolved where zeros
// follow it on every side that reached past the tile, gives the right rows.
// Those slices go after the tiles in the mutant's own concat, framed by
// bands of halo zero rows where a side needs zeros (the end of the stitched
// input needs none: the padding supplies it), so that the one convolution
// computes the mutant and the corrections in one launch (PET's fusion of
// the correction kernel with its neighbour). One split of its result and
// the program's concat put the recomputed rows in place.
//
// The graph dialect has no constant, fill or pad op, so a zero band is
// gt(x, x) of input rows: 0 for every float, infinities and NaN included
// (x times 0 made an inf input NaN, and a relu after the concat kept it).
// A band beside an edge of a tile is cut from the tile's rows on the other
// side of the edge, shifted across it by the smallest multiple of the
// dilation d not below the halo (docs/PartialEquivalence.md, "Zero
// bands"); with exact zeros the rows no longer matter for the numbers.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/PartialEquivalence/PartialEquivalence.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace mlir;
using namespace mirage;
using namespace mirage::pet;

static llvm::Error error(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

llvm::Expected<SmallVector<std::pair<int64_t, int64_t>, 4>>
mirage::pet::wrongIntervals(const StitchSite &site,
                            const RegionReport &report) {
  if (report.boxes.size() != 1)
    return error("the site programs have one output");
  std::set<std::pair<int64_t, int64_t>> spans;
  for (const Box &box : report.boxes[0])
    if (box.wrong)
      spans.insert({box.lo[site.dim], box.hi[site.dim]});
  SmallVector<std::pair<int64_t, int64_t>, 4> merged;
  for (auto span : spans) {
    if (!merged.empty() && merged.back().second >= span.first)
      merged.back().second = std::max(merged.back().second, span.second);
    else
      merged.push_back(span);
  }
  return merged;
}

namespace {
/// Rows [lo, hi) of one tile (concat coordinates) to recompute, and the
/// slice [from, to) of the tile that recomputes them.
struct Segment {
  unsigned tile;
  int64_t lo, hi, from, to;
  bool zerosBefore, zerosAfter;
  /// Where the slice starts in the fused input.
  int64_t placed = 0;
};

/// One split of `value` along `dim` at the given cut points (relative to
/// the value, 0 and the extent excluded): the pieces, in order, with their
/// start.
std::map<int64_t, Value> splitAt(OpBuilder &b, Location loc, Value value,
                                 int64_t dim, const std::set<int64_t> &cuts) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t extent = type.getDimSize(dim);
  SmallVector<int64_t> starts = {0};
  for (int64_t c : cuts)
    if (c > 0 && c < extent)
      starts.push_back(c);
  SmallVector<int64_t> sizes;
  SmallVector<Type> types;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t end = i + 1 < starts.size() ? starts[i + 1] : extent;
    sizes.push_back(end - starts[i]);
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = sizes.back();
    types.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  std::map<int64_t, Value> pieces;
  if (starts.size() == 1) {
    pieces[0] = value;
    return pieces;
  }
  auto split = graph::SplitOp::create(
      b, loc, types, ValueRange{value},
      ArrayRef<NamedAttribute>{
          b.getNamedAttr("dim", b.getI64IntegerAttr(dim)),
          b.getNamedAttr("sizes", b.getDenseI64ArrayAttr(sizes))});
  for (size_t i = 0; i < starts.size(); ++i)
    pieces[starts[i]] = split.getResult(i);
  return pieces;
}
} // namespace

llvm::Expected<Correction>
mirage::pet::correctSite(const StitchSite &site,
                         ArrayRef<std::pair<int64_t, int64_t>> intervals,
                         const CorrectionOptions &options) {
  const int64_t dim = site.dim, halo = site.halo;
  const unsigned tiles = site.convs.size();
  graph::ConcatOp concat = site.concat;
  SmallVector<graph::Conv2DOp> convs(site.convs);
  Location loc = concat.getLoc();
  Correction result;
  result.intervals.assign(intervals.begin(), intervals.end());

  // The intervals, cut at the tile boundaries.
  std::vector<Segment> segments;
  for (auto [lo, hi] : intervals) {
    if (lo >= hi)
      return error("an empty wrong interval");
    SmallVector<Segment, 2> inInterval;
    for (unsigned j = 0; j < tiles; ++j) {
      int64_t start = site.offsets[j], end = start + site.extents[j];
      int64_t a = std::max(lo, start), b = std::min(hi, end);
      if (a >= b)
        continue;
      Segment s{j, a, b, std::max(start, a - halo), std::min(end, b + halo),
                a - halo < start, b + halo > end};
      inInterval.push_back(s);
    }
    // Across a seam, the earlier tile's slice (zeros after) first, then
    // the later tile's (zeros before): their two bands, the halo rows on
    // each side of the seam, are then adjacent rows of the stitched tiles.
    segments.insert(segments.end(), inInterval.begin(), inInterval.end());
  }
  if (segments.empty())
    return error("no wrong interval to correct");
  {
    // Slices are split out of their tile once: two may not overlap.
    std::vector<std::pair<int64_t, int64_t>> slices;
    for (const Segment &s : segments)
      slices.push_back({s.from, s.to});
    std::sort(slices.begin(), slices.end());
    for (size_t i = 1; i < slices.size(); ++i)
      if (slices[i].first < slices[i - 1].second)
        return error(llvm::formatv(
            "the slices [{0}, {1}) and [{2}, {3}) overlap (a tile shorter "
            "than 4 x halo = {4} along the axis)",
            slices[i - 1].first, slices[i - 1].second, slices[i].first,
            slices[i].second, 4 * halo));
  }
  if (halo == 0)
    return error("a halo of 0 leaves nothing wrong to correct");

  // Each zero band, as the rows of the stitched tiles it is 0 x: after a
  // side that ends a tile (the last tile's end included: the slices follow
  // it), that tile's rows `shift` before the band's; before a side that
  // starts a tile, its rows `shift` after (see the file comment).
  const int64_t mutantExtent = site.offsets.back() + site.extents.back();
  auto tileOf = [&](int64_t row) {
    unsigned j = 0;
    while (j + 1 < tiles && site.offsets[j + 1] <= row)
      ++j;
    return j;
  };
  // The shift across the edge: the smallest multiple of the dilation not
  // below the halo (the halo itself for an odd window), so that a tap
  // past the edge and its shifted row are both taps of one window.
  const int64_t dilation = convs.front().getDilations()[dim - 2];
  const int64_t shift = (halo + dilation - 1) / dilation * dilation;
  auto bandRows = [&](int64_t edge, bool after)
      -> llvm::Expected<std::pair<int64_t, int64_t>> {
    unsigned j = tileOf(after ? edge - 1 : edge);
    if (site.extents[j] < shift)
      return error(llvm::formatv(
          "tile {0} has {1} rows along the axis, fewer than the {2} its "
          "zero band is made from",
          j, site.extents[j], shift));
    return after ? std::pair(edge - shift, edge - shift + halo)
                 : std::pair(edge - halo + shift, edge + shift);
  };
  // The fused input after the tiles, in order: slices (with their
  // segment) and bands (rows of the stitched tiles, times 0).
  struct Part {
    bool band;
    int64_t from, to;
    Segment *segment = nullptr;
  };
  std::vector<Part> layout;
  std::optional<int64_t> zerosAfter = mutantExtent;
  for (Segment &s : segments) {
    if (zerosAfter) {
      auto rows = bandRows(*zerosAfter, /*after=*/true);
      if (!rows)
        return rows.takeError();
      layout.push_back({true, rows->first, rows->second});
    }
    if (s.zerosBefore) {
      auto rows = bandRows(s.from, /*after=*/false);
      if (!rows)
        return rows.takeError();
      layout.push_back({true, rows->first, rows->second});
    }
    layout.push_back({false, s.from, s.to, &s});
    // The end of the fused input needs no band: the padding supplies it.
    zerosAfter = s.zerosAfter ? std::optional<int64_t>(s.to) : std::nullopt;
  }

  // The ops after the convolutions move after the concat first (exact);
  // the correction then replaces the concat of the bare convolutions.
  concat = hoistTileChains(site).concat;

  // The cut points, in concat coordinates: the slices' ends, and the
  // bands' (where the bands are cut from the tiles themselves).
  OpBuilder b(concat);
  SmallVector<Value> tileValues;
  for (graph::Conv2DOp conv : convs)
    tileValues.push_back(conv.getInput());
  std::set<int64_t> cuts, bandCuts;
  for (const Part &part : layout) {
    (part.band ? bandCuts : cuts).insert(part.from);
    (part.band ? bandCuts : cuts).insert(part.to);
  }
  if (options.layout == SliceLayout::PerTile)
    cuts.insert(bandCuts.begin(), bandCuts.end());

  // gt(v, v): 0 for every float, infinities and NaN included, where 0 x v
  // would be NaN at an infinite v.
  auto zerosOf = [&](Value v) {
    return graph::GtOp::create(b, loc, TypeRange{v.getType()},
                               ValueRange{v, v})
        .getResult();
  };
  // Pieces of the tiles and of the bands, by their start in concat
  // coordinates.
  std::map<int64_t, Value> pieces, zeroPieces;
  Value stitchedTiles; // the mutant's concat, in the FromConcat layout
  unsigned ops = 0;
  if (options.layout == SliceLayout::FromConcat) {
    // The program may concatenate the same tiles already (a residual
    // branch reads the whole map): the mutant reuses that concat.
    for (Operation *user : tileValues.front().getUsers()) {
      auto other = dyn_cast<graph::ConcatOp>(user);
      if (other && other != concat &&
          static_cast<int64_t>(other.getDim()) == dim &&
          llvm::equal(other.getInputs(), tileValues) &&
          other->getBlock() == concat->getBlock() &&
          other->isBeforeInBlock(concat)) {
        stitchedTiles = other.getResult();
        break;
      }
    }
    if (!stitchedTiles)
      stitchedTiles = buildTileConcat(b, loc, tileValues, dim);
    pieces = splitAt(b, loc, stitchedTiles, dim, cuts);
    // All bands from one product and one split, whatever their number.
    zeroPieces = splitAt(b, loc, zerosOf(stitchedTiles), dim, bandCuts);
    ops += (pieces.size() > 1) + 1 + (zeroPieces.size() > 1);
  } else {
    for (unsigned j = 0; j < tiles; ++j) {
      int64_t start = site.offsets[j], end = start + site.extents[j];
      std::set<int64_t> local;
      for (int64_t c : cuts)
        if (c > start && c < end)
          local.insert(c - start);
      if (local.empty()) {
        pieces[start] = tileValues[j];
        continue;
      }
      for (auto [at, v] : splitAt(b, loc, tileValues[j], dim, local))
        pieces[at + start] = v;
      ops += 1;
    }
    // One product per band piece (a piece shared by two bands is scaled
    // once).
    for (const Part &part : layout)
      for (int64_t at = part.from; part.band && at < part.to;) {
        Value piece = pieces.at(at);
        if (!zeroPieces.count(at)) {
          zeroPieces[at] = zerosOf(piece);
          ops += 1;
        }
        at += cast<RankedTensorType>(piece.getType()).getDimSize(dim);
      }
  }

  // The fused input: the tiles (or their concat), then the slices and
  // their bands.
  SmallVector<Value> parts;
  if (stitchedTiles)
    parts.push_back(stitchedTiles);
  else
    parts.append(tileValues.begin(), tileValues.end());
  int64_t total = mutantExtent;
  for (const Part &part : layout) {
    if (part.segment)
      part.segment->placed = total;
    const std::map<int64_t, Value> &from = part.band ? zeroPieces : pieces;
    for (int64_t at = part.from; at < part.to;) {
      Value piece = from.at(at);
      parts.push_back(piece);
      at += cast<RankedTensorType>(piece.getType()).getDimSize(dim);
    }
    total += part.to - part.from;
  }
  result.extraExtent = total - mutantExtent;
  Value fused = buildTileConcat(b, loc, parts, dim);
  // In the per-tile layout the fused concat is the mutant's own, grown.
  if (stitchedTiles)
    ops += 1;
  Value conv = buildSiteConv(b, site, fused, convs.front().getWeight());

  // Which rows of the convolution make up the result: the mutant's rows
  // outside the corrected segments, the recomputed rows inside.
  std::vector<std::pair<int64_t, int64_t>> sources; // [from, to) of conv
  int64_t row = 0;
  std::vector<const Segment *> byRow;
  for (size_t i = 0; i < segments.size(); ++i)
    if (!(options.plantWrong && i == 0))
      byRow.push_back(&segments[i]);
  std::sort(byRow.begin(), byRow.end(),
            [](const Segment *x, const Segment *y) { return x->lo < y->lo; });
  for (const Segment *s : byRow) {
    if (row < s->lo)
      sources.push_back({row, s->lo});
    int64_t at = s->placed + (s->lo - s->from);
    sources.push_back({at, at + (s->hi - s->lo)});
    row = s->hi;
  }
  if (row < mutantExtent)
    sources.push_back({row, mutantExtent});
  std::set<int64_t> outCuts;
  for (auto [from, to] : sources) {
    outCuts.insert(from);
    outCuts.insert(to);
  }
  std::map<int64_t, Value> outPieces = splitAt(b, loc, conv, dim, outCuts);
  ops += outPieces.size() > 1;
  SmallVector<Value> assembled;
  for (auto [from, to] : sources)
    for (int64_t at = from; at < to;) {
      Value piece = outPieces.at(at);
      assembled.push_back(piece);
      at += cast<RankedTensorType>(piece.getType()).getDimSize(dim);
    }
  Value replacement = buildTileConcat(b, loc, assembled, dim);
  concat.getResult().replaceAllUsesWith(replacement);
  concat.erase();
  for (graph::Conv2DOp c : convs)
    c.erase();
  result.ops = ops;
  return result;
}
