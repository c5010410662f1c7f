//===- BlockSemantics.cpp - what a graph-defined kernel computes ----------===//
//
// The block level. Every block of the grid runs the block graph on its own
// tiles, independently:
//
//   for each block b in the grid:
//     for i in 0 .. forloop-1:
//       each input iterator loads its tile: tensor dimension d is cut into
//         grid[g] parts if imap[g] = d (block b takes part b[g]), and that
//         part into `forloop` parts if fmap = d (iteration i takes part i);
//       the loop-body ops run on the tiles;
//       each accumulator folds in its body tile (sum, max, or concat along
//         its dimension in iteration order);
//     the post-loop ops run once on the accumulated tiles;
//     each output saver writes its tile at block b's place in its tensor:
//       output dimension d holds the tiles of grid dimension g along it if
//       omap[g] = d.
//
// The verifier (BlockGraphVerifier.cpp) guarantees the four parts come in
// this order, so the op list is split by position.
//
// Precision follows the GPU code (docs/GpuLowering.md): sum and max
// accumulators hold f32 whatever their type says, so in the native
// arithmetic they round to f32 after every iteration, and post-loop ops and
// savers read that f32 value; a matmul feeding only a sum accumulator
// accumulates in f32 registers across the loop, so its product is not
// rounded to its tile type either; every other tile is stored in its own
// type.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Block/BlockOps.h"
#include "Dialect/Kernel/KernelOps.h"
#include "Dialect/Thread/ThreadOps.h"
#include "Semantics.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;
namespace block = mirage::block;

namespace {
/// The block graph's ops by part.
struct BlockGraphParts {
  SmallVector<Operation *> loopBody, accumulators, postLoop;
  SmallVector<block::OutputOp> savers;
};
} // namespace

static BlockGraphParts splitParts(Block &body) {
  BlockGraphParts parts;
  for (Operation &op : body.without_terminator()) {
    if (auto saver = dyn_cast<block::OutputOp>(op))
      parts.savers.push_back(saver);
    else if (isa<block::AccumOp>(op))
      parts.accumulators.push_back(&op);
    else if (parts.accumulators.empty())
      parts.loopBody.push_back(&op);
    else
      parts.postLoop.push_back(&op);
  }
  return parts;
}

/// Offsets of block `blockIdx`'s tile of a device tensor under `map`, with
/// tile sizes `tile`: grid dimension g contributes blockIdx[g] * tile[d] to
/// dimension d = map[g].
static SmallVector<int64_t> blockOffsets(block::GridMapAttr map,
                                         ArrayRef<int64_t> blockIdx,
                                         ArrayRef<int64_t> partSizes,
                                         size_t rank) {
  SmallVector<int64_t> offsets(rank, 0);
  for (auto [g, d] : llvm::enumerate(map.getDims()))
    if (d != block::GridMapAttr::kReplicate)
      offsets[d] += blockIdx[g] * partSizes[d];
  return offsets;
}

/// Evaluates one shared-memory op (or thread.fused) of a block graph.
template <typename Arith>
static LogicalResult evalTileOp(Operation *op, Arith &arith,
                                ValueEnv<Arith> &env) {
  using V = typename Arith::Value;
  auto in = [&](Value v) -> const V & { return env.get(v); };
  auto result = [&](V value) {
    return bindResult(arith, env, op->getResult(0), std::move(value));
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .template Case<block::MatmulOp>([&](auto mm) {
        V product = arith.matmul(in(mm.getLhs()), in(mm.getRhs()));
        // A matmul whose only user is a sum accumulator keeps its f32
        // accumulators in registers across the for-loop on the GPU: its
        // tile never holds the product in its own type.
        if (mm->hasOneUse())
          if (auto accum = dyn_cast<block::AccumOp>(*mm->user_begin());
              accum && accum.getKind() == block::AccumKind::sum)
            return bindResultAs(arith, env, mm.getResult(), std::move(product),
                                Float32Type::get(op->getContext()));
        return result(std::move(product));
      })
      .template Case<block::UnaryOp>([&](auto u) {
        return result(arith.unary(u.getKind(),
                                  u.getParams().value_or(ArrayRef<double>()),
                                  in(u.getInput())));
      })
      .template Case<block::BinaryOp>([&](auto b) {
        return result(
            arith.binary(b.getKind(), in(b.getLhs()), in(b.getRhs())));
      })
      .template Case<block::ReduceOp>([&](auto r) -> LogicalResult {
        return result(arith.reduce(r.getKind(), in(r.getInput()),
                                   static_cast<int64_t>(r.getDim())));
      })
      .template Case<block::ConcatOp>([&](auto c) {
        SmallVector<const V *> parts;
        for (Value v : c.getInputs())
          parts.push_back(&in(v));
        int64_t dim = c.getDim();
        return result(
            Arith::applyN(parts, [&](auto ts) { return concat(ts, dim); }));
      })
      .template Case<thread::FusedOp>(
          [&](auto fused) { return evalThreadFused(fused, arith, env); })
      .template Default([&](Operation *) {
        return op->emitOpError("has no semantics in the interpreter");
      });
}

/// The type an accumulator is stored in: f32 for sum and max, as the GPU
/// code keeps them (the sum of many f16 tiles is not rounded to f16 at
/// every step); a concat accumulator only moves values, in its own type.
static Type accumulatorStorage(block::AccumOp accum) {
  if (accum.getKind() == block::AccumKind::concat)
    return cast<ShapedType>(accum.getType()).getElementType();
  return Float32Type::get(accum.getContext());
}

/// Folds this iteration's tile into an accumulator. `state` is empty before
/// the first iteration; concat accumulators collect every tile in `pieces`.
template <typename Arith>
static LogicalResult accumulate(block::AccumOp accum, Arith &arith,
                                typename Arith::Value tile,
                                std::optional<typename Arith::Value> &state,
                                SmallVector<typename Arith::Value> &pieces) {
  using V = typename Arith::Value;
  switch (accum.getKind()) {
  case block::AccumKind::concat:
    pieces.push_back(std::move(tile));
    return success();
  case block::AccumKind::sum:
    if (state)
      tile = arith.binary(BinaryKind::add, *state, tile);
    break;
  case block::AccumKind::max: {
    if (state) {
      // max(a, b) = reduce_max(stack(a, b)).
      SmallVector<int64_t> stacked{1};
      llvm::append_range(stacked, Arith::shapeOf(tile));
      SmallVector<int64_t> shape(Arith::shapeOf(tile));
      auto lift = [&](const V &v) {
        return Arith::apply(v,
                            [&](const auto &t) { return reshape(t, stacked); });
      };
      V a = lift(*state), b = lift(tile);
      V both = Arith::applyN({&a, &b}, [](auto ts) { return concat(ts, 0); });
      tile = Arith::apply(arith.reduce(ReduceKind::max, both, 0),
                          [&](const auto &t) { return reshape(t, shape); });
    }
    break;
  }
  }
  arith.round(tile, accumulatorStorage(accum));
  state = std::move(tile);
  return success();
}

template <typename Arith>
LogicalResult mirage::superopt::evalBlockGraph(kernel::GraphDefOp op,
                                               Arith &arith,
                                               ValueEnv<Arith> &env) {
  using V = typename Arith::Value;
  Block &body = op.getBody().front();
  BlockGraphParts parts = splitParts(body);
  ArrayRef<int64_t> grid = op.getGrid();
  int64_t forloop = op.getForloop();

  // The device tensors the block graph reads, by block argument.
  DenseMap<Value, const V *> device;
  for (auto [arg, operand] : llvm::zip(body.getArguments(), op.getInputs()))
    device[arg] = &env.get(operand);

  // Each saver's tensor, filled block by block.
  DenseMap<Value, V> outputs;
  for (block::OutputOp saver : parts.savers) {
    auto type = cast<ShapedType>(saver.getType());
    outputs[saver.getResult()] = Arith::zeros(type.getShape());
  }

  int64_t numBlocks = numElements(grid);
  SmallVector<int64_t> blockIdx(grid.size());
  for (int64_t linear = 0; linear < numBlocks; ++linear) {
    // A large grid can take long: the caller may stop between blocks.
    if (arith.shouldStop())
      return failure();
    for (int64_t g = grid.size() - 1, rest = linear; g >= 0; --g) {
      blockIdx[g] = rest % grid[g];
      rest /= grid[g];
    }
    ValueEnv<Arith> tiles;
    DenseMap<Operation *, std::optional<V>> accState;
    DenseMap<Operation *, SmallVector<V>> accPieces;

    for (int64_t iter = 0; iter < forloop; ++iter) {
      for (Operation *inner : parts.loopBody) {
        arith.beginOp(inner);
        auto input = dyn_cast<block::InputOp>(inner);
        if (!input) {
          if (failed(evalTileOp(inner, arith, tiles)))
            return failure();
          continue;
        }
        const V &tensor = *device.find(input.getSource())->second;
        ArrayRef<int64_t> shape =
            cast<ShapedType>(input.getSource().getType()).getShape();
        ArrayRef<int64_t> tile = input.getType().getShape();
        // A block's share of dimension d is forloop tiles long if the loop
        // walks d, one tile otherwise.
        SmallVector<int64_t> share(tile);
        int64_t loopDim = input.getFmap().getDim();
        if (loopDim != block::LoopMapAttr::kReplicate)
          share[loopDim] *= forloop;
        SmallVector<int64_t> offsets =
            blockOffsets(input.getImap(), blockIdx, share, shape.size());
        if (loopDim != block::LoopMapAttr::kReplicate)
          offsets[loopDim] += iter * tile[loopDim];
        V value = Arith::apply(
            tensor, [&](const auto &t) { return slice(t, offsets, tile); });
        if (failed(bindResult(arith, tiles, input.getTile(), std::move(value))))
          return failure();
      }
      for (Operation *inner : parts.accumulators) {
        auto accum = cast<block::AccumOp>(inner);
        arith.beginOp(inner);
        if (failed(accumulate(accum, arith, tiles.get(accum.getInput()),
                              accState[inner], accPieces[inner])))
          return failure();
      }
    }

    for (Operation *inner : parts.accumulators) {
      auto accum = cast<block::AccumOp>(inner);
      V value;
      if (accum.getKind() == block::AccumKind::concat) {
        SmallVector<const V *> pieces;
        for (const V &piece : accPieces[inner])
          pieces.push_back(&piece);
        int64_t dim = *accum.getDim();
        value = Arith::applyN(pieces, [&](auto ts) { return concat(ts, dim); });
      } else {
        value = std::move(*accState[inner]);
      }
      if (failed(bindResultAs(arith, tiles, accum.getResult(),
                              std::move(value), accumulatorStorage(accum))))
        return failure();
    }
    for (Operation *inner : parts.postLoop) {
      arith.beginOp(inner);
      if (failed(evalTileOp(inner, arith, tiles)))
        return failure();
    }
    for (block::OutputOp saver : parts.savers) {
      const V &tile = tiles.get(saver.getTile());
      ArrayRef<int64_t> tileShape = Arith::shapeOf(tile);
      V &out = outputs[saver.getResult()];
      SmallVector<int64_t> offsets =
          blockOffsets(saver.getOmap(), blockIdx, tileShape, tileShape.size());
      Arith::update(out, tile, [&](auto &dst, const auto &part) {
        insertSlice(dst, part, offsets);
      });
    }
  }

  auto yield = cast<block::YieldOp>(body.getTerminator());
  for (auto [result, saved] : llvm::zip(op.getOutputs(), yield.getResults()))
    if (failed(bindResult(arith, env, result, std::move(outputs[saved]))))
      return failure();
  return success();
}

template LogicalResult
mirage::superopt::evalBlockGraph(kernel::GraphDefOp, RealArithmetic &,
                                 ValueEnv<RealArithmetic> &);
template LogicalResult
mirage::superopt::evalBlockGraph(kernel::GraphDefOp, FieldArithmetic &,
                                 ValueEnv<FieldArithmetic> &);
