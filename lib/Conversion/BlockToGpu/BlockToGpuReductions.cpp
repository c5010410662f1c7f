//===- BlockToGpuReductions.cpp - block-to-gpu: reductions, accumulators, rms_norm ===//
//
// Part of the block-to-gpu code generator (BlockToGpuEmitter.h); the pass,
// the memory plan and the kernel's skeleton are in BlockToGpu.cpp.
//
//===----------------------------------------------------------------------===//

#include "BlockToGpuEmitter.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::blocktogpu;

Value KernelEmitter::warpReduce(Value partial, bool isMax) {
  for (int32_t offset = 16; offset >= 1; offset /= 2) {
    auto shuffle = gpu::ShuffleOp::create(b, loc, partial, offset, 32,
                                          gpu::ShuffleMode::XOR);
    Value other = shuffle.getShuffleResult();
    partial = isMax ? Value(arith::MaximumFOp::create(b, loc, partial, other))
                    : Value(arith::AddFOp::create(b, loc, partial, other));
  }
  return partial;
}

void KernelEmitter::emitReduce(block::ReduceOp red) {
  access({red.getInput()}, {red.getResult()});
  ArrayRef<int64_t> inShape =
      cast<ShapedType>(red.getInput().getType()).getShape();
  ArrayRef<int64_t> outShape = cast<ShapedType>(red.getType()).getShape();
  int64_t dim = red.getDim(), len = inShape[dim];
  bool isMax = red.getKind() == ReduceKind::max;
  auto combine = [&](Value a, Value c) -> Value {
    if (isMax)
      return arith::MaximumFOp::create(b, loc, a, c);
    return arith::AddFOp::create(b, loc, a, c);
  };
  // -0 is the identity of IEEE addition (+0 would turn a sum of -0 into +0,
  // and 1 / x after it into +inf).
  Value init = f32(isMax ? -std::numeric_limits<double>::infinity() : -0.0);

  // One warp per output element (warp-uniform loop: every lane reaches the
  // shuffles); its lanes stride over the reduced dimension.
  auto outer = scf::ForOp::create(b, loc, warp, idx(product(outShape)),
                                  idx(warps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(outer.getBody());
  SmallVector<Value> coords = delinearize(outer.getInductionVar(), outShape);
  auto inner =
      scf::ForOp::create(b, loc, lane, idx(len), idx(32), ValueRange{init});
  {
    OpBuilder::InsertionGuard innerGuard(b);
    b.setInsertionPointToStart(inner.getBody());
    SmallVector<Value> at(coords);
    at[dim] = inner.getInductionVar();
    Value v = toF32(memref::LoadOp::create(
        b, loc, views.lookup(red.getInput()), at));
    scf::YieldOp::create(b, loc, combine(inner.getRegionIterArgs()[0], v));
  }
  Value partial = inner.getResult(0);
  for (int32_t offset = 16; offset >= 1; offset /= 2) {
    auto shuffle =
        gpu::ShuffleOp::create(b, loc, partial, offset, 32, gpu::ShuffleMode::XOR);
    partial = combine(partial, shuffle.getShuffleResult());
  }
  Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                         idx(0));
  auto ifOp = scf::IfOp::create(b, loc, isLeader, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifOp.thenBlock());
  memref::StoreOp::create(b, loc, fromF32(partial, storageType(red.getResult())),
                          views.lookup(red.getResult()), coords);
}

void KernelEmitter::emitAccumInit(block::AccumOp acc) {
  if (acc.getKind() == block::AccumKind::concat)
    return; // every element is written by some iteration
  access({}, {acc.getResult()});
  ArrayRef<int64_t> shape = cast<ShapedType>(acc.getType()).getShape();
  // -0, not +0, for a sum: the identity of IEEE addition, so that a tile
  // of -0 (gelu of a very negative x) stays -0, as the interpreter's fold
  // (which starts from the first tile) keeps it.
  Value init = f32(acc.getKind() == block::AccumKind::max
                       ? -std::numeric_limits<double>::infinity()
                       : -0.0);
  forEachElement(product(shape), [&](Value linear) {
    memref::StoreOp::create(b, loc, init, views.lookup(acc.getResult()),
                            delinearize(linear, shape));
  });
}

void KernelEmitter::forEachRowSum(
    Value tile, int64_t dim, bool squares,
    function_ref<void(ArrayRef<Value>, Value)> fn) {
  ArrayRef<int64_t> shape = cast<ShapedType>(tile.getType()).getShape();
  SmallVector<int64_t> rowShape(shape);
  rowShape[dim] = 1;
  int64_t len = shape[dim];
  // A warp-uniform loop: every lane reaches the shuffles.
  auto outer =
      scf::ForOp::create(b, loc, warp, idx(product(rowShape)), idx(warps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(outer.getBody());
  SmallVector<Value> coords = delinearize(outer.getInductionVar(), rowShape);
  // From -0, the identity of IEEE addition (lanes past the row add it).
  auto inner = scf::ForOp::create(b, loc, lane, idx(len), idx(32),
                                  ValueRange{f32(-0.0)});
  {
    OpBuilder::InsertionGuard innerGuard(b);
    b.setInsertionPointToStart(inner.getBody());
    SmallVector<Value> at(coords);
    at[dim] = inner.getInductionVar();
    Value v = toF32(memref::LoadOp::create(b, loc, views.lookup(tile), at));
    if (squares)
      v = arith::MulFOp::create(b, loc, v, v);
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::AddFOp::create(b, loc, inner.getRegionIterArgs()[0], v)});
  }
  fn(coords, warpReduce(inner.getResult(0), /*isMax=*/false));
}

/// red_sum, red_rms: lane 0 of the row's warp adds the row's sum (of
/// squares) to the state, which only it touches.
void KernelEmitter::emitReducingAccumUpdate(block::AccumOp acc) {
  access({acc.getInput(), acc.getResult()}, {acc.getResult()});
  Value dest = views.lookup(acc.getResult());
  forEachRowSum(acc.getInput(), *acc.getDim(),
                acc.getKind() == block::AccumKind::red_rms,
                [&](ArrayRef<Value> coords, Value sum) {
                  Value isLeader = arith::CmpIOp::create(
                      b, loc, arith::CmpIPredicate::eq, lane, idx(0));
                  auto ifOp = scf::IfOp::create(b, loc, isLeader,
                                                /*withElseRegion=*/false);
                  OpBuilder::InsertionGuard g(b);
                  b.setInsertionPointToStart(ifOp.thenBlock());
                  Value old = memref::LoadOp::create(b, loc, dest, coords);
                  memref::StoreOp::create(
                      b, loc, arith::AddFOp::create(b, loc, old, sum), dest,
                      coords);
                });
}

// A warp per row, three passes over it: m = max |x| (NaN if any x is);
// s = sum (x c)^2 with c = 1 / p, p the power of two at or below m (at
// least 2^-126, so that c is finite), which is exact and keeps every
// square in [0, 4) whatever the row's magnitude; then
// y = (x c) / sqrt(s / n + eps c^2), since x / sqrt(mean(x^2) + eps) is
// that with numerator and denominator scaled by c. Where eps c^2 overflows
// (a row far below sqrt(eps)), mean(x^2) is negligible next to eps and
// y = x / sqrt(eps). An infinite m takes c = 1: the row's sum is inf, and
// y is 0 for its finite elements and NaN for its infinite ones, as in
// exact arithmetic.
void KernelEmitter::emitRMSNorm(block::RMSNormOp norm) {
  access({norm.getInput()}, {norm.getResult()});
  int64_t dim = norm.getDim();
  ArrayRef<int64_t> shape = norm.getInput().getType().getShape();
  int64_t len = shape[dim];
  double eps = norm.getEps().convertToDouble();
  Value in = views.lookup(norm.getInput());
  Value out = views.lookup(norm.getResult());
  Type outType = storageType(norm.getResult());
  SmallVector<int64_t> rowShape(shape);
  rowShape[dim] = 1;
  // A warp-uniform loop: every lane reaches the shuffles.
  auto outer =
      scf::ForOp::create(b, loc, warp, idx(product(rowShape)), idx(warps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(outer.getBody());
  SmallVector<Value> coords = delinearize(outer.getInductionVar(), rowShape);
  auto element = [&](Value i) {
    SmallVector<Value> at(coords);
    at[dim] = i;
    return toF32(memref::LoadOp::create(b, loc, in, at));
  };
  // Each lane's part of a row reduction, from `init`, then the warp's.
  auto rowReduce = [&](double init, bool isMax,
                       function_ref<Value(Value, Value)> step) {
    auto loop = scf::ForOp::create(b, loc, lane, idx(len), idx(32),
                                   ValueRange{f32(init)});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value x = element(loop.getInductionVar());
      scf::YieldOp::create(b, loc,
                           ValueRange{step(loop.getRegionIterArgs()[0], x)});
    }
    return warpReduce(loop.getResult(0), isMax);
  };
  Value m = rowReduce(0.0, /*isMax=*/true, [&](Value acc, Value x) -> Value {
    return arith::MaximumFOp::create(b, loc, acc,
                                     math::AbsFOp::create(b, loc, x));
  });
  Type i32 = b.getI32Type();
  auto i32c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, m);
  Value exponent = arith::AndIOp::create(b, loc, bits, i32c(0x7f800000));
  Value p = arith::MaximumFOp::create(
      b, loc, arith::BitcastOp::create(b, loc, b.getF32Type(), exponent),
      f32(std::ldexp(1.0, -126)));
  Value finite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, p,
                                       f32(INFINITY));
  Value c = arith::SelectOp::create(
      b, loc, finite, arith::DivFOp::create(b, loc, f32(1.0), p), f32(1.0));
  Value s = rowReduce(-0.0, /*isMax=*/false, [&](Value acc, Value x) -> Value {
    Value y = arith::MulFOp::create(b, loc, x, c);
    return arith::AddFOp::create(b, loc, acc,
                                 arith::MulFOp::create(b, loc, y, y));
  });
  Value mean = arith::MulFOp::create(b, loc, s, f32(1.0 / len));
  Value scaledEps = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, f32(eps), c), c);
  Value epsFinite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                          scaledEps, f32(INFINITY));
  Value denominator = buildScalarUnary(
      b, loc, UnaryKind::sqrt, {},
      arith::SelectOp::create(
          b, loc, epsFinite, arith::AddFOp::create(b, loc, mean, scaledEps),
          f32(eps)));
  Value numeratorScale =
      arith::SelectOp::create(b, loc, epsFinite, c, f32(1.0));
  auto loop = scf::ForOp::create(b, loc, lane, idx(len), idx(32));
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> at(coords);
  at[dim] = loop.getInductionVar();
  Value x = element(loop.getInductionVar());
  Value y = arith::DivFOp::create(
      b, loc, arith::MulFOp::create(b, loc, x, numeratorScale), denominator);
  memref::StoreOp::create(b, loc, fromF32(y, outType), out, at);
}

void KernelEmitter::emitAccumUpdate(block::AccumOp acc, Value iter) {
  if (acc.getKind() == block::AccumKind::red_sum ||
      acc.getKind() == block::AccumKind::red_rms)
    return emitReducingAccumUpdate(acc);
  access({acc.getInput(), acc.getResult()}, {acc.getResult()});
  ArrayRef<int64_t> shape = cast<ShapedType>(acc.getInput().getType()).getShape();
  Value dest = views.lookup(acc.getResult());
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> coords = delinearize(linear, shape);
    Value v = memref::LoadOp::create(b, loc, views.lookup(acc.getInput()),
                                     coords);
    if (acc.getKind() == block::AccumKind::concat) {
      int64_t dim = *acc.getDim();
      coords[dim] = arith::AddIOp::create(
          b, loc, coords[dim],
          arith::MulIOp::create(b, loc, iter, idx(shape[dim])));
      memref::StoreOp::create(b, loc, v, dest, coords);
      return;
    }
    Value old = memref::LoadOp::create(b, loc, dest, coords);
    Value next = acc.getKind() == block::AccumKind::sum
                     ? Value(arith::AddFOp::create(b, loc, old, toF32(v)))
                     : Value(arith::MaximumFOp::create(b, loc, old, toF32(v)));
    memref::StoreOp::create(b, loc, next, dest, coords);
  });
}
