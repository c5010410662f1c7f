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

#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "CompositeOps.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
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
    else if (block::isLoopAccumulator(&op))
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

/// max(a, b) elementwise, as the max of the two-element stack: in the field
/// arithmetic that keeps max(max(S1), max(S2)) = max(S1 + S2).
template <typename Arith>
static typename Arith::Value elementwiseMax(Arith &arith,
                                            const typename Arith::Value &a,
                                            const typename Arith::Value &b) {
  using V = typename Arith::Value;
  SmallVector<int64_t> shape(Arith::shapeOf(a));
  SmallVector<int64_t> stacked{1};
  llvm::append_range(stacked, shape);
  auto lift = [&](const V &v) {
    return Arith::apply(v, [&](const auto &t) { return reshape(t, stacked); });
  };
  V x = lift(a), y = lift(b);
  V both = Arith::applyN({&x, &y}, [](auto ts) { return concat(ts, 0); });
  return Arith::apply(arith.reduce(ReduceKind::max, both, 0),
                      [&](const auto &t) { return reshape(t, shape); });
}

/// One element of the last dimension of `v` (the maximum or the sum of a
/// softmax's stats), keeping the dimension.
template <typename Arith>
static typename Arith::Value lastElement(const typename Arith::Value &v,
                                         int64_t which) {
  SmallVector<int64_t> offsets(Arith::shapeOf(v).size(), 0);
  SmallVector<int64_t> sizes(Arith::shapeOf(v));
  offsets.back() = which;
  sizes.back() = 1;
  return Arith::apply(v,
                      [&](const auto &t) { return slice(t, offsets, sizes); });
}

/// block.softmax_merge: sum_j w_j partial_j / sum_j w_j along `dim`, with
/// w_j = exp(m_j - M) l_j and M the largest m_j.
template <typename Arith>
static typename Arith::Value softmaxMerge(Arith &arith,
                                          const typename Arith::Value &partials,
                                          const typename Arith::Value &stats,
                                          int64_t dim) {
  using V = typename Arith::Value;
  arith.requireExponentParts();
  V m = lastElement<Arith>(stats, 0), l = lastElement<Arith>(stats, 1);
  V top = arith.reduce(ReduceKind::max, m, dim);
  V w = arith.binary(
      BinaryKind::mul,
      arith.unary(UnaryKind::exp, {}, arith.binary(BinaryKind::sub, m, top)),
      l);
  V num = arith.reduce(ReduceKind::sum,
                       arith.binary(BinaryKind::mul, w, partials), dim);
  V den = arith.reduce(ReduceKind::sum, w, dim);
  return arith.binary(BinaryKind::div, num, den);
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
      .template Case<block::RMSNormOp>([&](auto n) {
        return result(rmsNorm(arith, in(n.getInput()),
                              n.getEps().convertToDouble(),
                              static_cast<int64_t>(n.getDim())));
      })
      .template Case<block::ReshapeOp>([&](auto r) {
        ArrayRef<int64_t> shape = r.getType().getShape();
        return result(Arith::apply(in(r.getInput()), [&](const auto &t) {
          return reshape(t, shape);
        }));
      })
      .template Case<block::SoftmaxMergeOp>([&](auto m) {
        return result(softmaxMerge(arith, in(m.getPartials()),
                                   in(m.getStats()),
                                   static_cast<int64_t>(m.getDim())));
      })
      .template Case<block::ConcatOp>([&](auto c) {
        SmallVector<const V *> parts;
        for (Value v : c.getInputs())
          parts.push_back(&in(v));
        int64_t dim = c.getDim();
        return result(
            Arith::applyN(parts, [&](auto ts) { return concat(ts, dim); }));
      })
      .template Case<block::SliceOp>([&](auto s) {
        return result(Arith::apply(in(s.getInput()), [&](const auto &t) {
          return slice(t, s.getOffsets(), s.getSizes());
        }));
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
  case block::AccumKind::max:
    if (state)
      tile = elementwiseMax(arith, *state, tile);
    break;
  case block::AccumKind::red_sum:
  case block::AccumKind::red_rms: {
    // The row sums (of squares) of this iteration, added to the state; the
    // root mean square is taken after the loop (finishAccumulator).
    int64_t dim = *accum.getDim();
    if (accum.getKind() == block::AccumKind::red_rms)
      tile = arith.unary(UnaryKind::square, {}, tile);
    tile = arith.reduce(ReduceKind::sum, tile, dim);
    if (state)
      tile = arith.binary(BinaryKind::add, *state, tile);
    break;
  }
  }
  arith.round(tile, accumulatorStorage(accum));
  state = std::move(tile);
  return success();
}

/// The running state of a block.softmax_accum, per row: the maximum m, the
/// rescaled sum l and the rescaled weighted sum a. Empty before the first
/// iteration (m_0 = -inf: its rescale factor exp(-inf) is 0).
template <typename V> struct SoftmaxState {
  std::optional<V> m, l, a;
};

/// One iteration of the online softmax (BlockOps.td): all three kept in f32,
/// as the GPU code keeps them; P rounded to V's element type, the operand
/// of the tensor-core product.
template <typename Arith>
static void softmaxAccumulate(block::SoftmaxAccumOp op, Arith &arith,
                              const typename Arith::Value &scores,
                              const typename Arith::Value &values,
                              SoftmaxState<typename Arith::Value> &state) {
  using V = typename Arith::Value;
  arith.requireExponentParts();
  Type f32 = Float32Type::get(op.getContext());
  int64_t last = Arith::shapeOf(scores).size() - 1;
  V rowMax = arith.reduce(ReduceKind::max, scores, last);
  V m = state.m ? elementwiseMax(arith, *state.m, rowMax) : rowMax;
  arith.round(m, f32);
  V p = arith.unary(UnaryKind::exp, {},
                    arith.binary(BinaryKind::sub, scores, m));
  arith.round(p, op.getValues().getType().getElementType());
  V l = arith.reduce(ReduceKind::sum, p, last);
  V a = arith.matmul(p, values);
  if (state.m) {
    V alpha = arith.unary(UnaryKind::exp, {},
                          arith.binary(BinaryKind::sub, *state.m, m));
    l = arith.binary(BinaryKind::add,
                     arith.binary(BinaryKind::mul, alpha, *state.l), l);
    a = arith.binary(BinaryKind::add,
                     arith.binary(BinaryKind::mul, alpha, *state.a), a);
  }
  arith.round(l, f32);
  arith.round(a, f32);
  state.m = std::move(m);
  state.l = std::move(l);
  state.a = std::move(a);
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
    DenseMap<Operation *, SoftmaxState<V>> softmaxState;

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
        arith.beginOp(inner);
        if (auto sm = dyn_cast<block::SoftmaxAccumOp>(inner)) {
          softmaxAccumulate(sm, arith, tiles.get(sm.getScores()),
                            tiles.get(sm.getValues()), softmaxState[inner]);
          continue;
        }
        auto accum = cast<block::AccumOp>(inner);
        if (failed(accumulate(accum, arith, tiles.get(accum.getInput()),
                              accState[inner], accPieces[inner])))
          return failure();
      }
    }

    for (Operation *inner : parts.accumulators) {
      if (auto sm = dyn_cast<block::SoftmaxAccumOp>(inner)) {
        arith.beginOp(inner);
        arith.requireExponentParts();
        SoftmaxState<V> &st = softmaxState[inner];
        Type f32 = Float32Type::get(inner->getContext());
        V out = arith.binary(BinaryKind::div, *st.a, *st.l);
        // The pack keeps m's exponent part, which a softmax_merge reads.
        Arith::giveExponentPart(*st.l);
        int64_t last = Arith::shapeOf(*st.m).size() - 1;
        V stats = Arith::applyN({&*st.m, &*st.l},
                                [&](auto ts) { return concat(ts, last); });
        if (failed(bindResultAs(arith, tiles, sm.getOutput(), std::move(out),
                                f32)) ||
            failed(bindResultAs(arith, tiles, sm.getStats(), std::move(stats),
                                f32)))
          return failure();
        continue;
      }
      auto accum = cast<block::AccumOp>(inner);
      V value;
      if (accum.getKind() == block::AccumKind::red_rms) {
        // sqrt(sum / N), N the elements summed per row over the loop.
        int64_t dim = *accum.getDim();
        double n = double(accum.getInput().getType().getShape()[dim]) *
                   double(forloop);
        arith.beginOp(inner);
        value = arith.unary(
            UnaryKind::sqrt, {},
            arith.unary(UnaryKind::scale, {1.0 / n}, *accState[inner]));
      } else if (accum.getKind() == block::AccumKind::concat) {
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
