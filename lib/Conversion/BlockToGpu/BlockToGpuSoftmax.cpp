//===- BlockToGpuSoftmax.cpp - block-to-gpu: online softmax and its merge ---===//
//
// Part of the block-to-gpu code generator (BlockToGpuEmitter.h); the pass,
// the memory plan and the kernel's skeleton are in BlockToGpu.cpp.
//
//===----------------------------------------------------------------------===//

#include "BlockToGpuEmitter.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::blocktogpu;

/// m = -inf, l = 0, a = 0: the first iteration's rescale exp(-inf - m_1)
/// is 0.
void KernelEmitter::emitSoftmaxInit(block::SoftmaxAccumOp sm) {
  access({}, {sm.getOutput(), sm.getStats()});
  ArrayRef<int64_t> out = sm.getOutput().getType().getShape();
  forEachElement(product(out), [&](Value linear) {
    memref::StoreOp::create(b, loc, f32(0.0), views.lookup(sm.getOutput()),
                            delinearize(linear, out));
  });
  ArrayRef<int64_t> stats = sm.getStats().getType().getShape();
  forEachElement(product(stats), [&](Value linear) {
    SmallVector<Value> at = delinearize(linear, stats);
    Value isMax = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        at.back(), idx(0));
    Value v = arith::SelectOp::create(
        b, loc, isMax, f32(-std::numeric_limits<double>::infinity()),
        f32(0.0));
    memref::StoreOp::create(b, loc, v, views.lookup(sm.getStats()), at);
  });
}

void KernelEmitter::emitSoftmaxUpdate(block::SoftmaxAccumOp sm) {
  Value scores = sm.getScores(), values = sm.getValues();
  Value out = sm.getOutput(), stats = sm.getStats();
  access({scores, values, out, stats}, {out, stats});
  auto [pBuf, alphaBuf] = scratch.lookup(sm);
  ArrayRef<int64_t> sShape = sm.getScores().getType().getShape();
  ArrayRef<int64_t> rowShape = sShape.drop_back();
  int64_t rows = product(rowShape), cols = sShape.back();
  Type pType = storageType(values);
  Value S = views.lookup(scores), ST = views.lookup(stats);

  // Phase A, a warp per row (a warp-uniform loop: every lane reaches the
  // shuffles): the new maximum, the rescale, P = exp(S - m) and the sum.
  {
    auto outer = scf::ForOp::create(b, loc, warp, idx(rows), idx(warps));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(outer.getBody());
    Value row = outer.getInductionVar();
    SmallVector<Value> at = delinearize(row, rowShape);
    auto scoreAt = [&](Value j) {
      SmallVector<Value> sAt(at);
      sAt.push_back(j);
      return sAt;
    };
    auto maxLoop = scf::ForOp::create(
        b, loc, lane, idx(cols), idx(32),
        ValueRange{f32(-std::numeric_limits<double>::infinity())});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(maxLoop.getBody());
      Value v = toF32(memref::LoadOp::create(
          b, loc, S, scoreAt(maxLoop.getInductionVar())));
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::MaximumFOp::create(
                               b, loc, maxLoop.getRegionIterArgs()[0], v)});
    }
    Value tileMax = warpReduce(maxLoop.getResult(0), /*isMax=*/true);
    SmallVector<Value> mAt(at), lAt(at);
    mAt.push_back(idx(0));
    lAt.push_back(idx(1));
    // Only lane 0 touches the row's state (the others get m_old by a
    // shuffle), so no lane reads bytes another lane writes between two
    // barriers.
    Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           lane, idx(0));
    auto load = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, isLeader,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(load.thenBlock());
      scf::YieldOp::create(b, loc,
                           ValueRange{memref::LoadOp::create(b, loc, ST, mAt)});
      b.setInsertionPointToStart(load.elseBlock());
      scf::YieldOp::create(b, loc, ValueRange{f32(0.0)});
    }
    Value mOld = gpu::ShuffleOp::create(b, loc, load.getResult(0), 0, 32,
                                        gpu::ShuffleMode::IDX)
                     .getShuffleResult();
    Value mNew = arith::MaximumFOp::create(b, loc, mOld, tileMax);
    Value alpha = buildScalarUnary(
        b, loc, UnaryKind::exp, {}, arith::SubFOp::create(b, loc, mOld, mNew));
    auto expLoop =
        scf::ForOp::create(b, loc, lane, idx(cols), idx(32), ValueRange{f32(0.0)});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(expLoop.getBody());
      SmallVector<Value> sAt = scoreAt(expLoop.getInductionVar());
      Value v = toF32(memref::LoadOp::create(b, loc, S, sAt));
      Value p = fromF32(buildScalarUnary(b, loc, UnaryKind::exp, {},
                                         arith::SubFOp::create(b, loc, v, mNew)),
                        pType);
      memref::StoreOp::create(b, loc, p, pBuf, sAt);
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::AddFOp::create(
                               b, loc, expLoop.getRegionIterArgs()[0], toF32(p))});
    }
    Value sum = warpReduce(expLoop.getResult(0), /*isMax=*/false);
    auto ifOp = scf::IfOp::create(b, loc, isLeader, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value lOld = memref::LoadOp::create(b, loc, ST, lAt);
    Value lNew = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, alpha, lOld), sum);
    memref::StoreOp::create(b, loc, mNew, ST, mAt);
    memref::StoreOp::create(b, loc, lNew, ST, lAt);
    memref::StoreOp::create(b, loc, alpha, alphaBuf, ValueRange{row});
  }
  barrier(); // P and the rescales are complete
  // What phase B reads and writes: the next iteration's loads wait for it.
  access({values, out}, {out});

  // Phase B: a = alpha a + P V.
  ArrayRef<int64_t> oShape = sm.getOutput().getType().getShape();
  int64_t rank = oShape.size();
  Value O = views.lookup(out), V = views.lookup(values);
  if (tensorCoresFor(pType, pType, rank) && storageType(values).isF16()) {
    MmaOperands o;
    o.a = pBuf;
    o.b = V;
    o.aRank = o.bRank = o.cRank = rank;
    o.shape = mmaShape(sShape, oShape);
    const MmaShape &s = o.shape;
    // The mma's accumulators start from the rescaled output.
    SmallVector<Value> init(4 * s.perWarp);
    forEachFragmentElement(s, [&](int64_t e, const FragmentPlace &p, Value r,
                                  Value c, Value ok) {
      // Padding rows and columns start at 0 and read nothing: another
      // lane owns the element a clamped index would read, and writes it.
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, ok,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> at;
      if (rank == 3)
        at.push_back(p.batch);
      at.append({r, c});
      Value rowLinear = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, p.batch, idx(s.m)), r);
      Value scaled = arith::MulFOp::create(
          b, loc, memref::LoadOp::create(b, loc, alphaBuf, ValueRange{rowLinear}),
          memref::LoadOp::create(b, loc, O, at));
      scf::YieldOp::create(b, loc, ValueRange{scaled});
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, ValueRange{f32(0.0)});
      init[e] = ifOp.getResult(0);
    });
    storeFragments(s, emitMmaLoop(o, init), O, b.getF32Type(), rank);
    return;
  }
  // CUDA cores: a thread per output element.
  int64_t k = cols;
  forEachElement(product(oShape), [&](Value linear) {
    SmallVector<Value> c = delinearize(linear, oShape);
    Value rowLinear = arith::DivUIOp::create(b, loc, linear, idx(oShape.back()));
    auto loop = scf::ForOp::create(b, loc, idx(0), idx(k), idx(1),
                                   ValueRange{f32(0.0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kk = loop.getInductionVar();
      SmallVector<Value> pAt(c.begin(), c.end() - 1), vAt(c.begin(), c.end() - 2);
      pAt.push_back(kk);
      vAt.append({kk, c.back()});
      Value x = toF32(memref::LoadOp::create(b, loc, pBuf, pAt));
      Value y = toF32(memref::LoadOp::create(b, loc, V, vAt));
      scf::YieldOp::create(
          b, loc,
          ValueRange{math::FmaOp::create(b, loc, x, y,
                                         loop.getRegionIterArgs()[0])});
    }
    Value alpha =
        memref::LoadOp::create(b, loc, alphaBuf, ValueRange{rowLinear});
    Value next = math::FmaOp::create(
        b, loc, alpha, memref::LoadOp::create(b, loc, O, c), loop.getResult(0));
    memref::StoreOp::create(b, loc, next, O, c);
  });
}

/// After the loop: output = a / l.
void KernelEmitter::emitSoftmaxFinish(block::SoftmaxAccumOp sm) {
  access({sm.getOutput(), sm.getStats()}, {sm.getOutput()});
  ArrayRef<int64_t> shape = sm.getOutput().getType().getShape();
  Value O = views.lookup(sm.getOutput()), ST = views.lookup(sm.getStats());
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> at = delinearize(linear, shape);
    SmallVector<Value> lAt(at.begin(), at.end() - 1);
    lAt.push_back(idx(1));
    Value v = arith::DivFOp::create(b, loc, memref::LoadOp::create(b, loc, O, at),
                                   memref::LoadOp::create(b, loc, ST, lAt));
    memref::StoreOp::create(b, loc, v, O, at);
  });
}

void KernelEmitter::emitSoftmaxMerge(block::SoftmaxMergeOp merge) {
  access({merge.getPartials(), merge.getStats()}, {merge.getResult()});
  ArrayRef<int64_t> shape = merge.getType().getShape();
  int64_t dim = merge.getDim();
  int64_t parts = merge.getPartials().getType().getShape()[dim];
  Value P = views.lookup(merge.getPartials());
  Value ST = views.lookup(merge.getStats());
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> at = delinearize(linear, shape);
    auto statAt = [&](Value j, int64_t which) {
      SmallVector<Value> s(at.begin(), at.end() - 1);
      s[dim] = j;
      s.push_back(idx(which));
      return s;
    };
    // The largest maximum, then the weighted sums.
    auto maxLoop = scf::ForOp::create(
        b, loc, idx(0), idx(parts), idx(1),
        ValueRange{f32(-std::numeric_limits<double>::infinity())});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(maxLoop.getBody());
      Value m = memref::LoadOp::create(b, loc, ST,
                                       statAt(maxLoop.getInductionVar(), 0));
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::MaximumFOp::create(
                               b, loc, maxLoop.getRegionIterArgs()[0], m)});
    }
    Value top = maxLoop.getResult(0);
    auto sumLoop = scf::ForOp::create(b, loc, idx(0), idx(parts), idx(1),
                                      ValueRange{f32(0.0), f32(0.0)});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(sumLoop.getBody());
      Value j = sumLoop.getInductionVar();
      Value m = memref::LoadOp::create(b, loc, ST, statAt(j, 0));
      Value l = memref::LoadOp::create(b, loc, ST, statAt(j, 1));
      Value w = arith::MulFOp::create(
          b, loc,
          buildScalarUnary(b, loc, UnaryKind::exp, {},
                           arith::SubFOp::create(b, loc, m, top)),
          l);
      SmallVector<Value> pAt(at);
      pAt[dim] = j;
      Value x = toF32(memref::LoadOp::create(b, loc, P, pAt));
      Value num = math::FmaOp::create(b, loc, w, x,
                                      sumLoop.getRegionIterArgs()[0]);
      Value den = arith::AddFOp::create(b, loc, sumLoop.getRegionIterArgs()[1], w);
      scf::YieldOp::create(b, loc, ValueRange{num, den});
    }
    Value v = arith::DivFOp::create(b, loc, sumLoop.getResult(0),
                                    sumLoop.getResult(1));
    memref::StoreOp::create(b, loc, fromF32(v, storageType(merge.getResult())),
                            views.lookup(merge.getResult()), at);
  });
}
