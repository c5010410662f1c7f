//===- KernelToBlock.cpp - default block graphs for predefined kernels ----===//
//
// Rewrites every predefined kernel that launches work into a
// kernel.graph_def whose block graph computes the same, so that one code
// generator (--block-to-gpu) emits the GPU code of every kernel. The tile
// choices follow what a GPU library would do for 128-thread blocks with all
// tiles in shared memory (docs/DefaultBlockGraphs.md):
//
//   matmul        grid (N tiles, M tiles, batch), K walked by the for-loop,
//                 block.matmul accumulated by block.accum sum;
//   elementwise   grid over row tiles of the result, one iteration;
//   reduce        grid over the kept dims, the for-loop walks the reduced
//                 dim, block.accum sum or max combines the partial results;
//   rms_norm,     one block per group of rows with the whole normalized dim
//   softmax       in its tile, one iteration;
//   data movement broadcast, repeat and concat tile the result like an
//                 elementwise kernel; transpose walks one moved dim with the
//                 for-loop and rebuilds it with block.accum concat.
//
// Loop-body ops are followed by one block.accum per saved tile (an identity
// for one iteration), since savers may only save accumulated tiles.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Dialect/Block/Analysis/SharedMemoryPlan.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mirage/Target/KnownTargets.h"
#include "mirage/Target/GpuChip.h"
#include "mirage/Conversion/KernelToBlock/KernelToBlock.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include <functional>

namespace mirage {
#define GEN_PASS_DEF_KERNELTOBLOCK
#include "mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using block::AccumKind;
using block::TileType;

static constexpr int64_t kReplicate = block::GridMapAttr::kReplicate;

/// Blocks that fill one wave of the default target (H100 SXM: 132
/// SMs; A100 has 108), from the target database. The same for every chip
/// lowered to, so that a graph tiles the same whatever the chip.
static int64_t getWaveBlocks() {
  static const int64_t blocks =
      llvm::cantFail(
          mirage::target::lookupTarget(mirage::target::kDefaultTarget),
          "the default search target is in the database")
          .numSMs;
  return blocks;
}
/// Largest tile of a row-wise or elementwise graph: 8 KiB holds 32 f16 (16
/// f32) elements for each of the 128 threads.
static constexpr int64_t kRowTileBytes = 8 * 1024;
/// Smallest tile worth a block when splitting for parallelism: 8 elements
/// per thread, one 16-byte vector of f16.
static constexpr int64_t kMinTileElements = 1024;
/// Shared memory a matmul's tiles may take (accumulator counted as f32) at
/// most: with 64 KiB two blocks fit an SM of sm_80 or sm_90. A chip with
/// less shared memory per SM gets half of it, so two blocks still fit.
static constexpr int64_t kMatmulSmemBudget = 64 * 1024;
/// Shared memory any default block graph may take at most: well under the
/// 163 KiB per block of sm_80. A chip with less gets its own limit.
static constexpr int64_t kSmemLimit = 96 * 1024;

namespace {
/// The shared-memory budgets of one chip.
struct SmemBudgets {
  int64_t graph;  // all tiles of a block graph
  int64_t matmul; // the tiles of a matmul
};
} // namespace

static SmemBudgets budgetsFor(const GpuChip &chip) {
  return {std::min(kSmemLimit, chip.maxSharedMemoryPerBlock),
          std::min(kMatmulSmemBudget, chip.sharedMemoryPerSM / 2)};
}

/// The element count of a tensor or tile whose size lowerKernel checked
/// (every dim >= 1, at most kGpuMaxTensorElements elements): it cannot fail.
static int64_t product(ArrayRef<int64_t> shape) {
  std::optional<int64_t> n = checkedElementCount(shape);
  assert(n && "a shape lowerKernel did not check");
  return n.value_or(std::numeric_limits<int64_t>::max());
}

static int64_t elementBytes(Type type) {
  return std::max<int64_t>(
      1, getElementTypeOrSelf(type).getIntOrFloatBitWidth() / 8);
}

/// The largest divisor of n >= 1 that is at most `cap` (1 when cap < 1).
/// At most min(cap, sqrt(n)) steps: a divisor above sqrt(n) is n / d for a
/// divisor d below it, so the scan never walks toward a large prime.
static int64_t largestDivisor(int64_t n, int64_t cap) {
  if (cap >= n)
    return n;
  int64_t best = 1;
  for (int64_t d = 1; d <= cap && d <= n / d; ++d) {
    if (n % d)
      continue;
    // d rises, so n / d falls: the first co-divisor within the cap is the
    // largest, and it is at least every d <= sqrt(n) seen so far.
    if (n / d <= cap)
      return n / d;
    best = d;
  }
  return best;
}

/// The smallest divisor of n >= 1 that is at least `floor` (n when there
/// is none below n): the co-divisor of the largest divisor of n at most
/// n / floor.
static int64_t smallestDivisorAtLeast(int64_t n, int64_t floor) {
  if (floor <= 1)
    return 1;
  if (floor >= n)
    return n;
  return n / largestDivisor(n, n / floor);
}

/// Elements a row tile should hold: enough blocks to fill the GPU if the
/// tensor is large enough, at least kMinTileElements per block otherwise,
/// never more than kRowTileBytes.
static int64_t rowTileTarget(int64_t totalElements, int64_t elemBytes) {
  int64_t perBlock = (totalElements + getWaveBlocks() - 1) / getWaveBlocks();
  return std::clamp(perBlock, kMinTileElements, kRowTileBytes / elemBytes);
}

/// Splits a tile of shape `tile` over at most `gridDims` grid dimensions,
/// outermost dims first (rows, so that each block keeps contiguous rows or
/// contiguous chunks of the last dim), until it has at most `target`
/// elements. Dims set in `whole` are never split. Returns the number of
/// parts of each dim.
static SmallVector<int64_t> splitRows(ArrayRef<int64_t> tile,
                                      ArrayRef<bool> whole, int64_t target,
                                      unsigned gridDims = 3) {
  SmallVector<int64_t> parts(tile.size(), 1);
  SmallVector<int64_t> rest(tile);
  unsigned used = 0;
  for (size_t d = 0; d < tile.size() && used < gridDims; ++d) {
    int64_t elements = product(rest);
    if (elements <= target)
      break;
    if (whole[d] || rest[d] == 1)
      continue;
    int64_t others = elements / rest[d];
    // Split the dim completely if the tile is still too large without it;
    // otherwise into the fewest parts that bring the tile under target
    // (any c >= ceil(elements / target) does).
    int64_t f = rest[d];
    if (others < target)
      f = smallestDivisorAtLeast(rest[d], (elements + target - 1) / target);
    parts[d] = f;
    rest[d] /= f;
    ++used;
  }
  return parts;
}

namespace {
/// The grid of a block graph: for each grid dimension (x first) its size and
/// the result dimension it partitions.
struct Grid {
  SmallVector<int64_t> sizes;
  SmallVector<int64_t> resultDims;
};
} // namespace

/// One grid dimension per partitioned result dim, the innermost on x (so
/// that consecutive blocks share the rows of their operands, and x has the
/// largest limit). Without any, one block: grid [1] with replicate maps.
/// A grid beyond the limits of every GPU is an error.
static FailureOr<Grid> makeGrid(Operation *op, ArrayRef<int64_t> parts) {
  Grid grid;
  for (int64_t d = parts.size() - 1; d >= 0; --d)
    if (parts[d] > 1) {
      grid.sizes.push_back(parts[d]);
      grid.resultDims.push_back(d);
    }
  assert(grid.sizes.size() <= 3 && "more partitioned dims than grid dims");
  if (grid.sizes.empty())
    return Grid{{1}, {kReplicate}};
  // Only x may exceed 65535 blocks.
  auto largest = std::max_element(grid.sizes.begin(), grid.sizes.end());
  if (*largest > kGpuMaxGridYZ) {
    size_t i = largest - grid.sizes.begin();
    std::swap(grid.sizes[0], grid.sizes[i]);
    std::swap(grid.resultDims[0], grid.resultDims[i]);
  }
  if (grid.sizes[0] > kGpuMaxGridX)
    return op->emitOpError("has no block-graph form: its default grid [")
           << grid.sizes << "] has more than " << kGpuMaxGridX
           << " blocks along x";
  for (int64_t s : ArrayRef(grid.sizes).drop_front())
    if (s > kGpuMaxGridYZ)
      return op->emitOpError("has no block-graph form: its default grid [")
             << grid.sizes << "] has more than " << kGpuMaxGridYZ
             << " blocks along y or z";
  return grid;
}

/// The tensor dim of an operand that a result dim corresponds to, or
/// kReplicate.
using DimMap = std::function<int64_t(int64_t)>;

static DimMap identityDims() {
  return [](int64_t d) { return d; };
}

/// NumPy broadcasting of `operand` to `result`: trailing dims align, and an
/// operand dim of size 1 is the same for every block (replicate).
static DimMap broadcastDims(ArrayRef<int64_t> operand,
                            ArrayRef<int64_t> result) {
  SmallVector<int64_t> from(operand), to(result);
  return [from, to](int64_t d) -> int64_t {
    int64_t e = d - static_cast<int64_t>(to.size() - from.size());
    if (e < 0 || from[e] != to[d])
      return kReplicate;
    return e;
  };
}

namespace {
/// Builds a kernel.graph_def in place of a predefined kernel: its operands
/// (deduplicated) become the graph's device tensors, its results the saved
/// tensors.
class BlockGraphBuilder {
public:
  /// `piece`: build the graph of that one result of `op` (a kernel with
  /// several results, lowered one graph per result); finish() then leaves
  /// `op` for the caller to erase.
  BlockGraphBuilder(Operation *op, ValueRange operands, const Grid &grid,
                    int64_t forloop, int64_t smemLimit,
                    std::optional<unsigned> piece = std::nullopt)
      : op(op), grid(grid), forloop(forloop), smemLimit(smemLimit), b(op),
        piece(piece) {
    SmallVector<Value> inputs;
    for (Value v : operands)
      if (!llvm::is_contained(inputs, v))
        inputs.push_back(v);
    TypeRange resultTypes = op->getResultTypes();
    if (piece)
      resultTypes = resultTypes.slice(*piece, 1);
    graphDef = kernel::GraphDefOp::create(b, op->getLoc(), resultTypes,
                                          inputs, grid.sizes, forloop);
    Block *body = b.createBlock(&graphDef.getBody());
    for (Value v : inputs)
      args[v] = body->addArgument(v.getType(), op->getLoc());
    b.setInsertionPointToStart(body);
  }

  OpBuilder &builder() { return b; }
  Location loc() const { return op->getLoc(); }

  /// An input iterator over kernel operand `source`: grid dim g partitions
  /// tensor dim `dims(resultDims[g])`, the loop walks `loopDim`.
  Value input(Value source, const DimMap &dims,
              int64_t loopDim = block::LoopMapAttr::kReplicate) {
    BlockArgument arg = args.lookup(source);
    SmallVector<int64_t> imap;
    for (int64_t d : grid.resultDims)
      imap.push_back(d == kReplicate ? kReplicate : dims(d));
    auto key = std::make_tuple(arg.getArgNumber(), imap, loopDim);
    for (auto &[k, tile] : inputs)
      if (k == key)
        return tile;

    auto type = cast<RankedTensorType>(source.getType());
    SmallVector<int64_t> shape(type.getShape());
    for (auto [g, d] : llvm::enumerate(imap))
      if (d != kReplicate)
        shape[d] /= grid.sizes[g];
    if (loopDim != block::LoopMapAttr::kReplicate)
      shape[loopDim] /= forloop;
    MLIRContext *ctx = b.getContext();
    Value tile = block::InputOp::create(
        b, loc(), TileType::get(shape, type.getElementType()), arg,
        block::GridMapAttr::get(ctx, imap),
        block::LoopMapAttr::get(ctx, loopDim));
    inputs.emplace_back(key, tile);
    return tile;
  }

  Value accum(Value tile, AccumKind kind) {
    return block::AccumOp::create(b, loc(), tile.getType(), tile, kind,
                                  IntegerAttr());
  }
  Value accumConcat(Value tile, int64_t dim) {
    auto type = cast<TileType>(tile.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] *= forloop;
    return block::AccumOp::create(
        b, loc(), TileType::get(shape, type.getElementType()), tile,
        AccumKind::concat, b.getI64IntegerAttr(dim));
  }

  Value unary(UnaryKind kind, Value x, ArrayRef<double> params = {}) {
    return block::UnaryOp::create(
        b, loc(), kind, x,
        params.empty() ? DenseF64ArrayAttr() : b.getDenseF64ArrayAttr(params));
  }
  /// `x` converted to element type `to` (block.unary cast).
  Value convert(Value x, Type to) {
    auto type = cast<TileType>(x.getType());
    return block::UnaryOp::create(
        b, loc(), TileType::get(type.getShape(), to),
        UnaryKindAttr::get(b.getContext(), UnaryKind::cast), x,
        DenseF64ArrayAttr());
  }
  static bool isNarrow(TileType type) {
    return type.getElementType().isF16() || type.getElementType().isBF16();
  }
  /// `kind` of an f16/bf16 tile computed and kept in f32.
  Value unaryWidened(UnaryKind kind, Value x) {
    auto type = cast<TileType>(x.getType());
    if (!isNarrow(type))
      return unary(kind, x);
    return block::UnaryOp::create(
        b, loc(), TileType::get(type.getShape(), b.getF32Type()),
        UnaryKindAttr::get(b.getContext(), kind), x, DenseF64ArrayAttr());
  }
  Value binary(BinaryKind kind, Value lhs, Value rhs) {
    return block::BinaryOp::create(b, loc(), kind, lhs, rhs);
  }
  /// `kind` of two tiles, kept in f32 where both are f16 or bf16 (the
  /// inferred type where either is f32 already).
  Value binaryWidened(BinaryKind kind, Value lhs, Value rhs) {
    Value result = binary(kind, lhs, rhs);
    if (isNarrow(cast<TileType>(lhs.getType())) &&
        isNarrow(cast<TileType>(rhs.getType())))
      result.setType(TileType::get(
          cast<TileType>(result.getType()).getShape(), b.getF32Type()));
    return result;
  }
  Value reduce(ReduceKind kind, Value x, int64_t dim) {
    return block::ReduceOp::create(b, loc(), kind, x, dim);
  }
  /// block.rms_norm of whole rows along `dim`; f32 for f16 or bf16 data.
  Value rmsNorm(Value x, int64_t dim, double eps) {
    auto type = cast<TileType>(x.getType());
    Type element = isNarrow(type) ? b.getF32Type() : type.getElementType();
    return block::RMSNormOp::create(
        b, loc(), TileType::get(type.getShape(), element), x,
        b.getI64IntegerAttr(dim), b.getF64FloatAttr(eps));
  }
  /// A reduction of an f16 or bf16 tile kept in f32 (a max stays exact in
  /// the narrow type, but its users may need it wide).
  Value reduceWidened(ReduceKind kind, Value x, int64_t dim) {
    auto type = cast<TileType>(x.getType());
    if (!isNarrow(type))
      return reduce(kind, x, dim);
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = 1;
    return block::ReduceOp::create(b, loc(),
                                   TileType::get(shape, b.getF32Type()), kind,
                                   x, dim);
  }

  /// Saves `tile` as the kernel's only result (omap: the grid's result
  /// dims), ends the graph and replaces the kernel. Fails, erasing the
  /// graph, if it would not fit in shared memory or does not verify.
  LogicalResult finish(Value tile) {
    SmallVector<int64_t> omap(grid.resultDims);
    Value saved = block::OutputOp::create(
        b, loc(), op->getResult(piece.value_or(0)).getType(), tile,
        block::GridMapAttr::get(b.getContext(), omap));
    block::YieldOp::create(b, loc(), saved);

    // Tile types are built unchecked; one the parser would reject must not
    // reach the printed IR.
    WalkResult tiles = graphDef.getBody().walk([&](Operation *inner) {
      for (Type t : inner->getResultTypes())
        if (auto tileType = dyn_cast<TileType>(t))
          if (failed(TileType::verify(
                  [&] { return op->emitOpError("kernel-to-block built "); },
                  tileType.getShape(), tileType.getElementType())))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (tiles.wasInterrupted()) {
      graphDef.erase();
      return failure();
    }
    int64_t bytes = footprint();
    if (bytes > smemLimit) {
      graphDef.erase();
      return op->emitOpError("has no block-graph form within shared memory: "
                             "its default block graph needs ")
             << bytes << " bytes per block, more than " << smemLimit;
    }
    if (failed(verify(graphDef))) {
      graphDef.erase();
      return op->emitOpError("kernel-to-block built an invalid block graph");
    }
    if (piece) {
      op->getResult(*piece).replaceAllUsesWith(graphDef->getResult(0));
      return success();
    }
    op->replaceAllUsesWith(graphDef);
    op->erase();
    return success();
  }

private:
  /// Shared memory of the graph in the code generator's plan
  /// (SharedMemoryPlan.h), the larger of the plans with and without tensor
  /// cores (without: every matmul's result in shared memory; with: its
  /// operands' rows padded): an upper bound of the plan on any chip.
  int64_t footprint() {
    Block &graph = graphDef.getBody().front();
    return std::max(
        block::planSharedMemory(graph, /*chipHasF16Mma=*/false).bytes,
        block::planSharedMemory(graph, /*chipHasF16Mma=*/true).bytes);
  }

  Operation *op;
  Grid grid;
  int64_t forloop;
  int64_t smemLimit;
  OpBuilder b;
  kernel::GraphDefOp graphDef;
  /// The block argument of each kernel operand, and the input iterators
  /// built so far by (argument, imap, fmap).
  DenseMap<Value, BlockArgument> args;
  std::optional<unsigned> piece;
  SmallVector<
      std::pair<std::tuple<unsigned, SmallVector<int64_t>, int64_t>, Value>>
      inputs;
};
} // namespace

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

namespace {
/// Tiles of a (batched) matmul C[Mt x Nt] += A[Mt x Kt] B[Kt x Nt].
struct MatmulTiles {
  int64_t m, n, k;
};
} // namespace

/// The tiles' bytes, or INT64_MAX when they do not fit in 64 bits (a batch
/// tile of many whole batch dims).
static int64_t matmulSmem(const MatmulTiles &t, int64_t batchTile,
                          int64_t bytes) {
  int64_t a = t.m * t.k, bt = t.k * t.n, c = t.m * t.n;
  return checkedProduct(batchTile, (a + bt + c) * bytes + c * 4)
      .value_or(std::numeric_limits<int64_t>::max());
}

/// The next smaller divisor of n below `current` that is at least `floor`,
/// or `current` if there is none.
static int64_t shrink(int64_t n, int64_t current, int64_t floor) {
  int64_t d = largestDivisor(n, current - 1);
  return d >= floor && d < current ? d : current;
}

/// A 64 x 128 output tile (the tensor-core sweet spot for 4 warps), made
/// narrower (to 64) then shorter (to 16) until the grid fills the GPU, and
/// narrower still (to 32) while it is under half a wave. A K of at most 128 is
/// one K tile (no accumulation pass, no barrier per step). A longer K is
/// walked in K tiles of 256 or 128 where they fit kMatmulSmemBudget (skinny
/// tiles, as for a small M, need deep steps to keep enough loads in
/// flight), else of 64 or 32. If the tiles still do not fit, K tiles shrink
/// first (down to 32; a short K stays whole), then N (down to 64), then
/// both and M further. Every tile size divides its dim; a small M or N is
/// taken whole.
static MatmulTiles chooseMatmulTiles(int64_t m, int64_t n, int64_t k,
                                     int64_t batches, int64_t batchTile,
                                     int64_t bytes, int64_t budget) {
  MatmulTiles t{largestDivisor(m, 64), largestDivisor(n, 128),
                k <= 128      ? k
                : k % 64 == 0 ? 64
                              : largestDivisor(k, 32)};
  auto blocks = [&] { return (m / t.m) * (n / t.n) * batches; };
  while (blocks() < getWaveBlocks()) {
    if (int64_t s = shrink(n, t.n, 64); s != t.n)
      t.n = s;
    else if (int64_t s = shrink(m, t.m, 16); s != t.m)
      t.m = s;
    // Below half a wave, narrower columns are worth their shorter rows.
    else if (int64_t s = shrink(n, t.n, 32);
             s != t.n && blocks() < getWaveBlocks() / 2)
      t.n = s;
    else
      break;
  }
  auto fits = [&](const MatmulTiles &c) {
    return matmulSmem(c, batchTile, bytes) <= budget;
  };
  if (k > 128) {
    for (int64_t depth : {256, 128}) {
      MatmulTiles deep = t;
      deep.k = largestDivisor(k, depth);
      if (deep.k > t.k && fits(deep)) {
        t = deep;
        break;
      }
    }
  }
  while (!fits(t)) {
    if (int64_t s = shrink(k, t.k, 32); k > 128 && s != t.k)
      t.k = s;
    else if (int64_t s = shrink(n, t.n, 64); s != t.n)
      t.n = s;
    else if (int64_t s = shrink(k, t.k, 16); s != t.k)
      t.k = s;
    else if (int64_t s = shrink(n, t.n, 16); s != t.n)
      t.n = s;
    else if (int64_t s = shrink(m, t.m, 16); s != t.m)
      t.m = s;
    else
      break; // finish() reports a graph that does not fit
  }
  return t;
}

static LogicalResult lowerMatmul(kernel::MatmulOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> a = shapeOf(op.getLhs()), c = shapeOf(op.getResult());
  int64_t rank = a.size(), m = a[rank - 2], k = a[rank - 1], n = c[rank - 1];
  // The largest batch dim goes on the grid; any others stay whole in the
  // tiles (the grid has three dims).
  int64_t batchDim = -1;
  for (int64_t d = 0; d < rank - 2; ++d)
    if (batchDim < 0 || a[d] > a[batchDim])
      batchDim = d;
  int64_t batches = batchDim < 0 ? 1 : a[batchDim];
  int64_t batchTile = product(a.drop_back(2)) / batches;
  MatmulTiles t = chooseMatmulTiles(m, n, k, batches, batchTile,
                                    elementBytes(op.getType()),
                                    budgets.matmul);

  SmallVector<int64_t> parts(rank, 1);
  parts[rank - 1] = n / t.n;
  parts[rank - 2] = m / t.m;
  if (batchDim >= 0)
    parts[batchDim] = batches;
  FailureOr<Grid> grid = makeGrid(op, parts);
  if (failed(grid))
    return failure();

  int64_t forloop = k / t.k;
  BlockGraphBuilder g(op, op->getOperands(), *grid, forloop,
                      budgets.graph);
  // A's tile moves with the M blocks, B's with the N blocks; both with the
  // batch blocks. Iteration i takes the i-th K tile of both (with one
  // iteration, the tiles are loaded once: fmap replicate).
  auto walk = [&](int64_t d) {
    return forloop > 1 ? d : block::LoopMapAttr::kReplicate;
  };
  Value lhs = g.input(
      op.getLhs(), [&](int64_t d) { return d == rank - 1 ? kReplicate : d; },
      walk(rank - 1));
  Value rhs = g.input(
      op.getRhs(), [&](int64_t d) { return d == rank - 2 ? kReplicate : d; },
      walk(rank - 2));
  Value product = block::MatmulOp::create(g.builder(), g.loc(), lhs, rhs);
  return g.finish(g.accum(product, AccumKind::sum));
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// The grid of an elementwise kernel: row tiles of its result.
static FailureOr<Grid> elementwiseGrid(Operation *op) {
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0));
  SmallVector<bool> whole(shape.size(), false);
  int64_t target =
      rowTileTarget(product(shape), elementBytes(op->getResult(0).getType()));
  return makeGrid(op, splitRows(shape, whole, target));
}

static LogicalResult lowerUnary(kernel::UnaryOp op,
                                const SmemBudgets &budgets) {
  FailureOr<Grid> grid = elementwiseGrid(op);
  if (failed(grid))
    return failure();
  BlockGraphBuilder g(op, op->getOperands(), *grid, 1,
                      budgets.graph);
  Value x = g.input(op.getInput(), identityDims());
  Value y =
      op.getKind() == UnaryKind::cast
          // The tile converted to the result's element type (issue 24).
          ? g.convert(x, op.getType().getElementType())
          : g.unary(op.getKind(), x,
                    op.getParams().value_or(ArrayRef<double>()));
  return g.finish(g.accum(y, AccumKind::sum));
}

static LogicalResult lowerBinary(kernel::BinaryOp op,
                                const SmemBudgets &budgets) {
  FailureOr<Grid> grid = elementwiseGrid(op);
  if (failed(grid))
    return failure();
  ArrayRef<int64_t> result = shapeOf(op.getResult());
  BlockGraphBuilder g(op, op->getOperands(), *grid, 1,
                      budgets.graph);
  // A broadcast operand's tile is smaller; block.binary broadcasts it.
  Value lhs = g.input(op.getLhs(), broadcastDims(shapeOf(op.getLhs()), result));
  Value rhs = g.input(op.getRhs(), broadcastDims(shapeOf(op.getRhs()), result));
  return g.finish(g.accum(g.binary(op.getKind(), lhs, rhs), AccumKind::sum));
}

/// select (selectop): block graphs have no ternary op, so the tile is
/// computed by a thread.fused chain of one thread.select; its inputs
/// broadcast like block.binary's.
static LogicalResult lowerSelect(kernel::SelectOp op,
                                 const SmemBudgets &budgets) {
  FailureOr<Grid> grid = elementwiseGrid(op);
  if (failed(grid))
    return failure();
  ArrayRef<int64_t> result = shapeOf(op.getResult());
  BlockGraphBuilder g(op, op->getOperands(), *grid, 1, budgets.graph);
  SmallVector<Value> tiles;
  for (Value v : op->getOperands())
    tiles.push_back(g.input(v, broadcastDims(shapeOf(v), result)));
  Shape common(cast<TileType>(tiles[0].getType()).getShape());
  for (Value t : ArrayRef(tiles).drop_front())
    common = *inferBroadcastShape(std::nullopt, common,
                                  cast<TileType>(t.getType()).getShape());
  Type elem = op.getType().getElementType();
  OpBuilder &b = g.builder();
  auto fused = thread::FusedOp::create(
      b, g.loc(), TypeRange{TileType::get(common, elem)}, tiles);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&fused.getBody(), {},
                                SmallVector<Type>(tiles.size(), elem),
                                SmallVector<Location>(tiles.size(), g.loc()));
    Value picked =
        thread::SelectOp::create(b, g.loc(), body->getArgument(0),
                                 body->getArgument(1), body->getArgument(2));
    thread::YieldOp::create(b, g.loc(), ValueRange{picked});
  }
  return g.finish(g.accum(fused.getResult(0), AccumKind::sum));
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

/// Row tiles of `tile` that keep dim `dim` whole, sized for `elements`
/// elements per iteration over all blocks.
static FailureOr<Grid> rowGrid(Operation *op, ArrayRef<int64_t> tile,
                               int64_t dim, int64_t elements) {
  SmallVector<bool> whole(tile.size(), false);
  whole[dim] = true;
  int64_t target =
      rowTileTarget(elements, elementBytes(op->getResult(0).getType()));
  return makeGrid(op, splitRows(tile, whole, target));
}

/// Blocks split the kept elements (rows for a last-dim reduction, columns
/// for a leading one): enough blocks to fill the GPU, but as few kept
/// elements per block as keep the whole reduced dim in one row tile, and at
/// least 32 contiguous columns below a leading reduced dim. The for-loop
/// walks the reduced dim in chunks that fill the row tile, and the
/// accumulator combines the chunks' partial reductions: sum for sum, max
/// for max.
static LogicalResult lowerReduce(kernel::ReduceOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> shape = shapeOf(op.getInput());
  int64_t dim = op.getDim();
  int64_t maxElements = kRowTileBytes / elementBytes(op.getType());
  SmallVector<int64_t> kept(shape);
  kept[dim] = 1;
  int64_t target = (product(kept) + getWaveBlocks() - 1) / getWaveBlocks();
  target = std::min(target, std::max<int64_t>(1, maxElements / shape[dim]));
  target = std::max(target,
                    std::min<int64_t>(product(shape.drop_front(dim + 1)), 32));
  SmallVector<int64_t> parts =
      splitRows(kept, SmallVector<bool>(shape.size(), false), target);
  FailureOr<Grid> grid = makeGrid(op, parts);
  if (failed(grid))
    return failure();
  int64_t keptPerBlock = product(kept) / product(parts);
  int64_t chunk = largestDivisor(
      shape[dim], std::max<int64_t>(1, maxElements / keptPerBlock));
  int64_t forloop = shape[dim] / chunk;

  BlockGraphBuilder g(op, op->getOperands(), *grid, forloop,
                      budgets.graph);
  Value x = g.input(op.getInput(), identityDims(),
                    forloop > 1 ? dim : block::LoopMapAttr::kReplicate);
  // A sum of f16 or bf16 data keeps each chunk's partial sum in f32, so that
  // the result rounds once (at the saver), as a reduction does; an f16
  // partial would round every chunk first. A max is exact in any type.
  Value partial = op.getKind() == ReduceKind::max
                      ? g.reduce(op.getKind(), x, dim)
                      : g.reduceWidened(op.getKind(), x, dim);
  return g.finish(g.accum(partial, op.getKind() == ReduceKind::max
                                       ? AccumKind::max
                                       : AccumKind::sum));
}

/// y = x / sqrt(mean(x^2) + eps) over the last dim, whole rows per block:
/// one block.rms_norm, whose kernel sums the squares in f32 scaled by a
/// power of two at the row's largest magnitude. Square, sum, sqrt and
/// divide as separate tiles overflowed f32 once the row's RMS passed
/// 1.8e19 (exp of a score of 44) and underflowed below 1e-19 (0 / 0 for a
/// softmax's or a gelu's tiny tails), where the op's semantics are finite;
/// f16 squares overflow once |x| > 255.
static LogicalResult lowerRMSNorm(kernel::RMSNormOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> shape = shapeOf(op.getInput());
  int64_t last = shape.size() - 1;
  FailureOr<Grid> grid = rowGrid(op, shape, last, product(shape));
  if (failed(grid))
    return failure();

  BlockGraphBuilder g(op, op->getOperands(), *grid, 1,
                      budgets.graph);
  Value x = g.input(op.getInput(), identityDims());
  Value norm = g.rmsNorm(x, last, op.getEps().convertToDouble());
  return g.finish(g.accum(norm, AccumKind::sum));
}

/// exp(x - max) / sum(exp(x - max)) along `dim`, whole rows per block; the
/// max keeps exp's argument at most 0. For f16 or bf16 data the difference,
/// exp, row sum and quotient are kept in f32 tiles and rounded once, by the
/// saver, as the op's semantics (an fp32-internal kernel) round: f16 tiles
/// rounded exp and again its sum (128 terms of up to 1 in f16 are off by
/// many ulps) and the difference x - max before exp.
static LogicalResult lowerSoftmax(kernel::SoftmaxOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> shape = shapeOf(op.getInput());
  int64_t dim = op.getDim();
  FailureOr<Grid> grid = rowGrid(op, shape, dim, product(shape));
  if (failed(grid))
    return failure();

  BlockGraphBuilder g(op, op->getOperands(), *grid, 1,
                      budgets.graph);
  Value x = g.input(op.getInput(), identityDims());
  Value shifted =
      g.binaryWidened(BinaryKind::sub, x, g.reduce(ReduceKind::max, x, dim));
  Value e = g.unary(UnaryKind::exp, shifted);
  Value y = g.binary(BinaryKind::div, e, g.reduce(ReduceKind::sum, e, dim));
  return g.finish(g.accum(y, AccumKind::sum));
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

/// Grid dims of size `fixed[d]` for the dims the op needs partitioned
/// completely (at most three), then row tiles of the rest of `tile`, never
/// splitting the dims in `whole`.
static FailureOr<Grid> movementGrid(Operation *op, ArrayRef<int64_t> fixed,
                                    ArrayRef<int64_t> tile,
                                    SmallVector<bool> whole, StringRef what) {
  unsigned used = 0;
  for (auto [d, f] : llvm::enumerate(fixed)) {
    whole[d] = whole[d] || f > 1;
    used += f > 1;
  }
  if (used > 3)
    return op->emitOpError("has no block-graph form: its ")
           << used << " " << what
           << " need one grid dimension each, and a grid has at most 3";
  int64_t target = rowTileTarget(product(shapeOf(op->getResult(0))),
                                 elementBytes(op->getResult(0).getType()));
  SmallVector<int64_t> parts = splitRows(tile, whole, target, 3 - used);
  for (auto [p, f] : llvm::zip(parts, fixed))
    if (f > 1)
      p = f;
  return makeGrid(op, parts);
}

/// Each broadcast dim gets a grid dim whose blocks all read the same tile
/// (imap replicate) and write their copies side by side (omap).
static LogicalResult lowerBroadcast(kernel::BroadcastOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> result = shapeOf(op.getResult());
  // An input iterator's tile has its tensor's rank: a lower-rank input is
  // viewed with the result's rank first (a reshape is free).
  SmallVector<int64_t> input(result.size() - shapeOf(op.getInput()).size(), 1);
  llvm::append_range(input, shapeOf(op.getInput()));
  SmallVector<int64_t> fixed, tile(result);
  for (auto [d, size] : llvm::enumerate(result)) {
    bool broadcast = input[d] == 1 && size > 1;
    fixed.push_back(broadcast ? size : 1);
    if (broadcast)
      tile[d] = 1;
  }
  FailureOr<Grid> grid =
      movementGrid(op, fixed, tile, SmallVector<bool>(result.size(), false),
                   "broadcast dimensions");
  if (failed(grid))
    return failure();

  Value source = op.getInput();
  kernel::ReshapeOp view;
  if (shapeOf(source).size() < result.size()) {
    OpBuilder b(op);
    view = kernel::ReshapeOp::create(
        b, op.getLoc(),
        RankedTensorType::get(input, getElementTypeOrSelf(source.getType())),
        source);
    source = view;
  }
  BlockGraphBuilder g(op, source, *grid, 1,
                      budgets.graph);
  Value x = g.input(source, broadcastDims(input, result));
  if (succeeded(g.finish(g.accum(x, AccumKind::sum))))
    return success();
  if (view)
    view.erase();
  return failure();
}

/// Each repeated dim gets a grid dim of `repeats` blocks that read the whole
/// dim (imap replicate) and write one copy each.
static LogicalResult lowerRepeat(kernel::RepeatOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> repeats = op.getRepeats();
  FailureOr<Grid> grid = movementGrid(op, repeats, shapeOf(op.getInput()),
                                      SmallVector<bool>(repeats.size(), false),
                                      "repeated dimensions");
  if (failed(grid))
    return failure();
  BlockGraphBuilder g(op, op->getOperands(), *grid, 1,
                      budgets.graph);
  Value x = g.input(op.getInput(),
                    [&](int64_t d) { return repeats[d] > 1 ? kReplicate : d; });
  return g.finish(g.accum(x, AccumKind::sum));
}

/// Row tiles with the concatenated dim whole; block.concat joins the
/// inputs' tiles.
/// One kernel per piece: blocks take rows that keep the split dim whole (as
/// a concat's do), and a block.slice cuts the piece out of each row tile.
static LogicalResult lowerSplit(kernel::SplitOp op,
                               const SmemBudgets &budgets) {
  int64_t dim = op.getDim(), offset = 0;
  for (auto [i, piece] : llvm::enumerate(op.getResults())) {
    ArrayRef<int64_t> shape = shapeOf(piece);
    FailureOr<Grid> grid = rowGrid(op, shape, dim, product(shape));
    if (failed(grid))
      return failure();
    BlockGraphBuilder g(op, op.getInput(), *grid, 1, budgets.graph, i);
    Value rows = g.input(op.getInput(), identityDims());
    auto rowType = cast<TileType>(rows.getType());
    SmallVector<int64_t> offsets(shape.size(), 0), sizes(rowType.getShape());
    offsets[dim] = offset;
    sizes[dim] = shape[dim];
    Value part = block::SliceOp::create(
        g.builder(), g.loc(), TileType::get(sizes, rowType.getElementType()),
        rows, offsets, sizes);
    if (failed(g.finish(g.accum(part, AccumKind::sum))))
      return failure();
    offset += shape[dim];
  }
  op.erase();
  return success();
}

static LogicalResult lowerConcat(kernel::ConcatOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> result = shapeOf(op.getResult());
  int64_t dim = op.getDim();
  FailureOr<Grid> grid = rowGrid(op, result, dim, product(result));
  if (failed(grid))
    return failure();
  BlockGraphBuilder g(op, op->getOperands(), *grid, 1,
                      budgets.graph);
  SmallVector<Value> tiles;
  for (Value v : op.getInputs())
    tiles.push_back(g.input(v, identityDims()));
  Value joined = tiles.size() == 1
                     ? tiles.front()
                     : block::ConcatOp::create(g.builder(), g.loc(), tiles, dim)
                           .getResult();
  return g.finish(g.accum(joined, AccumKind::sum));
}

/// The block dialect has no op that transposes a tile, but a concat
/// accumulator can: the for-loop walks input dim perm[c] one element at a
/// time and the accumulator stacks the elements along tile dim c, which
/// makes output dim c. Every other moved dim (of size > 1) is split into
/// single elements by a grid dim; unmoved dims are tiled like rows. Slow
/// (narrow, strided loads), but exact.
static LogicalResult lowerTranspose(kernel::TransposeOp op,
                                const SmemBudgets &budgets) {
  ArrayRef<int64_t> perm = op.getPerm();
  ArrayRef<int64_t> result = shapeOf(op.getResult());
  SmallVector<int64_t> moved;
  for (auto [j, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(j) && result[j] > 1)
      moved.push_back(j);

  // Dims of size 1 do not affect the layout: if the others keep their
  // order, the transpose is a view.
  SmallVector<int64_t> order;
  for (auto [j, p] : llvm::enumerate(perm))
    if (result[j] > 1)
      order.push_back(p);
  if (llvm::is_sorted(order)) {
    Value view = op.getInput();
    if (view.getType() != op.getType()) {
      OpBuilder b(op);
      view = kernel::ReshapeOp::create(b, op.getLoc(), op.getType(), view);
    }
    op.replaceAllUsesWith(view);
    op.erase();
    return success();
  }

  // The for-loop runs result[c] iterations of one narrow load each, so
  // accumulate the shortest moved dim (the innermost of equals, whose saved
  // rows are then contiguous); the others make blocks.
  int64_t c = moved.back();
  for (int64_t j : moved)
    if (result[j] < result[c])
      c = j;
  SmallVector<int64_t> fixed(result.size(), 1), tile(result);
  for (int64_t j : moved) {
    tile[j] = 1;
    if (j != c)
      fixed[j] = result[j];
  }
  tile[c] = result[c];
  SmallVector<bool> whole(result.size(), false);
  whole[c] = true;
  FailureOr<Grid> grid = movementGrid(
      op, fixed, tile, whole, "moved dimensions besides the accumulated one");
  if (failed(grid))
    return failure();
  BlockGraphBuilder g(op, op->getOperands(), *grid, result[c],
                      budgets.graph);
  Value x = g.input(
      op.getInput(), [&](int64_t j) { return perm[j]; }, perm[c]);
  return g.finish(g.accumConcat(x, c));
}

/// Whether every tensor `op` reads or writes can be tiled: rank >= 1 and
/// every dim >= 1 (a tile has at least one element along each of at least
/// one dimension, and the tile sizes divide the dims), and at most
/// kGpuMaxTensorElements elements, so that no size computed from it overflows.
static LogicalResult verifyTileable(Operation *op) {
  auto check = [&](Value v, StringRef what, unsigned i) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return op->emitOpError("has no block-graph form: ")
             << what << " #" << i << " is not a ranked tensor";
    std::string name = (what + " #" + Twine(i)).str();
    if (type.getRank() == 0)
      return op->emitOpError("has no block-graph form: ")
             << name << " is a rank-0 tensor " << type
             << ", and tiles have rank >= 1; reshape it to rank 1 first";
    if (llvm::is_contained(type.getShape(), 0))
      return op->emitOpError("has no block-graph form: ")
             << name << " " << type
             << " is empty, and a tile has at least one element per "
                "dimension; an empty tensor needs no kernel";
    return verifyElementCountWithin(
        op->getLoc(), type.getShape(), kGpuMaxTensorElements,
        (op->getName().getStringRef() + " " + name).str(),
        "(2^38) of a GPU kernel's tensor, more than any GPU's memory holds");
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(check(v, "operand", i)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(check(v, "result", i)))
      return failure();
  return success();
}

static LogicalResult lowerKernel(Operation *op, const SmemBudgets &budgets) {
  // Kernels with no block-graph form say why, whatever their shapes.
  if (!isa<kernel::SplitOp, kernel::Conv2DOp, kernel::Pool2DOp,
           kernel::GatherOp, kernel::GatherElementsOp,
           kernel::ScatterElementsOp, kernel::OneHotOp, kernel::TopKOp>(op) &&
      failed(verifyTileable(op)))
    return failure();
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](kernel::MatmulOp op) { return lowerMatmul(op, budgets); })
      .Case([&](kernel::UnaryOp op) { return lowerUnary(op, budgets); })
      .Case([&](kernel::BinaryOp op) { return lowerBinary(op, budgets); })
      .Case([&](kernel::SelectOp op) { return lowerSelect(op, budgets); })
      .Case([&](kernel::ReduceOp op) { return lowerReduce(op, budgets); })
      .Case([&](kernel::RMSNormOp op) { return lowerRMSNorm(op, budgets); })
      .Case([&](kernel::SoftmaxOp op) { return lowerSoftmax(op, budgets); })
      .Case([&](kernel::BroadcastOp op) { return lowerBroadcast(op, budgets); })
      .Case([&](kernel::RepeatOp op) { return lowerRepeat(op, budgets); })
      .Case([&](kernel::ConcatOp op) { return lowerConcat(op, budgets); })
      .Case([&](kernel::TransposeOp op) { return lowerTranspose(op, budgets); })
      .Case([&](kernel::SplitOp op) { return lowerSplit(op, budgets); })
      .Case<kernel::Conv2DOp, kernel::Pool2DOp>([](Operation *op) {
        return op->emitOpError(
            "has no block-graph form: input iterators read disjoint tiles, "
            "not the overlapping sliding windows it needs");
      })
      // Reads where an index tensor says (or orders a row: topk): no input
      // iterator can, and kernel-to-gpu writes these kernels itself
      // (DirectKernels.h).
      .Case<kernel::GatherOp, kernel::GatherElementsOp, kernel::OneHotOp,
            kernel::TopKOp>([](Operation *) { return success(); })
      .Case([](kernel::ScatterElementsOp op) {
        return op.emitOpError(
            "has no GPU lowering: its writes go where an index tensor says, "
            "and two that meet (an error for reduction none, a sum for "
            "add) need a check or atomics that no kernel here has; it runs "
            "in the interpreter only");
      })

      .Default([](Operation *op) {
        return op->emitOpError("has no block-graph form in kernel-to-block");
      });
}

namespace {
struct KernelToBlockPass : mirage::impl::KernelToBlockBase<KernelToBlockPass> {
  using Base::Base;
  void runOnOperation() override {
    // Each function's chip: `target`, else the one it was searched for.
    DenseMap<Operation *, std::optional<SmemBudgets>> budgetsOfFunction;
    auto budgetsOf = [&](Operation *op) -> std::optional<SmemBudgets> {
      auto func = op->getParentOfType<func::FuncOp>();
      auto [it, inserted] = budgetsOfFunction.try_emplace(func);
      if (!inserted)
        return it->second;
      std::string name =
          // block-to-gpu, which generates the code, warns of a mismatch.
          func ? resolveLoweringTarget(func, target, "kernel-to-block",
                                       /*warn=*/false)
               : (target.empty() ? mirage::target::kDefaultTarget.str()
                                 : std::string(target));
      if (const GpuChip *gpu = lookupGpuChipOfTarget(name))
        it->second = budgetsFor(*gpu);
      else
        emitError(func ? func.getLoc() : getOperation()->getLoc())
            << "kernel-to-block: " << unsupportedGpuChipMessage(name);
      return it->second;
    };
    // Views and kernels that already have a block graph (or code) stay.
    SmallVector<Operation *> predefined;
    getOperation()->walk([&](Operation *op) {
      if (isa_and_nonnull<kernel::KernelDialect>(op->getDialect()) &&
          !isa<kernel::GraphDefOp, kernel::ReshapeOp, kernel::LaunchOp>(op))
        predefined.push_back(op);
    });
    // The program as the kernel level states it, before its default block
    // graphs: what a GPU run is checked against.
    getOperation()->walk([&](Operation *op) {
      if (isa<kernel::GraphDefOp>(op) || llvm::is_contained(predefined, op))
        if (auto func = op->getParentOfType<func::FuncOp>())
          recordReference(func);
    });
    bool ok = true;
    for (Operation *op : predefined) {
      std::optional<SmemBudgets> budgets = budgetsOf(op);
      ok &= budgets && succeeded(lowerKernel(op, *budgets));
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
