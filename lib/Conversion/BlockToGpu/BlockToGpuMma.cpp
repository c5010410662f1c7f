//===- BlockToGpuMma.cpp - block-to-gpu: matmuls on tensor and CUDA cores ---===//
//
// Part of the block-to-gpu code generator (BlockToGpuEmitter.h); the pass,
// the memory plan and the kernel's skeleton are in BlockToGpu.cpp.
//
//===----------------------------------------------------------------------===//

#include "BlockToGpuEmitter.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::blocktogpu;

/// The memory plan's rule (SharedMemoryPlan.h): f16 operands of rank 2
/// or 3, where the chip has an mma.sync for them.
bool KernelEmitter::tensorCoresFor(Type a, Type b, int64_t rank) const {
  return block::runsOnTensorCores(a, b, rank, chip.mma != GpuMma::None);
}

bool KernelEmitter::usesTensorCores(block::MatmulOp mm) const {
  return tensorCoresFor(storageType(mm.getLhs()), storageType(mm.getRhs()),
                        cast<ShapedType>(mm.getType()).getRank());
}

KernelEmitter::MmaOperands
KernelEmitter::mmaOperands(block::MatmulOp mm) const {
  auto shape = [](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
  MmaOperands o;
  o.a = views.lookup(mm.getLhs());
  o.b = views.lookup(mm.getRhs());
  o.aRank = shape(mm.getLhs()).size();
  o.bRank = shape(mm.getRhs()).size();
  o.cRank = shape(mm.getResult()).size();
  o.shape = mmaShape(shape(mm.getLhs()), shape(mm.getResult()));
  return o;
}

KernelEmitter::MmaShape KernelEmitter::mmaShape(ArrayRef<int64_t> a,
                                                ArrayRef<int64_t> c) const {
  MmaShape s;
  s.batch = product(c.drop_back(2));
  s.m = c[c.size() - 2];
  s.n = c.back();
  s.k = a.back();
  s.mTiles = llvm::divideCeil(s.m, 16);
  s.nTiles = llvm::divideCeil(s.n, 8);
  s.kTiles = llvm::divideCeil(s.k, 16);
  s.fragments = s.batch * s.mTiles * s.nTiles;
  s.perWarp = llvm::divideCeil(s.fragments, warps);
  return s;
}

FragmentPlace KernelEmitter::fragmentPlace(const MmaShape &s, int64_t j) {
  Value f = arith::AddIOp::create(b, loc, warp, idx(j * warps));
  FragmentPlace p;
  p.valid = less(f, s.fragments);
  Value fc = minIdx(f, s.fragments - 1);
  Value tileIdx = arith::RemUIOp::create(b, loc, fc, idx(s.mTiles * s.nTiles));
  p.batch = arith::DivUIOp::create(b, loc, fc, idx(s.mTiles * s.nTiles));
  p.row = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, tileIdx, idx(s.nTiles)), idx(16));
  p.col = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, tileIdx, idx(s.nTiles)), idx(8));
  return p;
}

SmallVector<Value> KernelEmitter::emitMmaLoop(const MmaOperands &o,
                                              ValueRange acc) {
  const MmaShape &s = o.shape;
  Value A = o.a, B = o.b;
  int64_t aRank = o.aRank, bRank = o.bRank;
  Type f16 = b.getF16Type();
  auto pair = VectorType::get({2}, f16);
  Value zero16 = arith::ConstantOp::create(b, loc, b.getF16FloatAttr(0.0));
  Value group = arith::DivUIOp::create(b, loc, lane, idx(4));
  Value quad2 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, idx(4)), idx(2));

  SmallVector<FragmentPlace> places;
  for (int64_t j = 0; j < s.perWarp; ++j)
    places.push_back(fragmentPlace(s, j));

  // Element loaders; rows past M and columns past K read as zero (padding
  // to the m16n8k16 shape), columns past N clamp (their results are not
  // stored).
  auto loadA = [&](const FragmentPlace &p, Value r, Value c) -> Value {
    Value rc = s.m % 16 ? minIdx(r, s.m - 1) : r;
    Value cc = s.k % 16 ? minIdx(c, s.k - 1) : c;
    SmallVector<Value> at;
    if (aRank == 3)
      at.push_back(p.batch);
    at.append({rc, cc});
    Value v = memref::LoadOp::create(b, loc, A, at);
    Value ok;
    if (s.m % 16)
      ok = less(r, s.m);
    if (s.k % 16) {
      Value kOk = less(c, s.k);
      ok = ok ? Value(arith::AndIOp::create(b, loc, ok, kOk)) : kOk;
    }
    return ok ? Value(arith::SelectOp::create(b, loc, ok, v, zero16)) : v;
  };
  auto loadB = [&](const FragmentPlace &p, Value r, Value c) -> Value {
    SmallVector<Value> at;
    if (bRank == 3)
      at.push_back(p.batch);
    at.append({s.k % 16 ? minIdx(r, s.k - 1) : r,
               s.n % 8 ? minIdx(c, s.n - 1) : c});
    return memref::LoadOp::create(b, loc, B, at);
  };
  auto add = [&](Value v, int64_t c) -> Value {
    return c ? Value(arith::AddIOp::create(b, loc, v, idx(c))) : v;
  };
  // Fragments in shared memory with rows 16-byte aligned: each is one
  // ldmatrix (the ISA's "warp-level matrix load"), x4 for A and x2.trans
  // for B, instead of eight and four pairs of 16-bit loads. An A tile of
  // 8 rows past a multiple of 16 (a batch of 8 tokens) loads clamped rows
  // and zeroes a1 and a3 of its last fragment row; other partial tiles keep
  // the element loads, which pad.
  auto inShared = [](Value v) {
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
        cast<MemRefType>(v.getType()).getMemorySpace());
    return space && space.getValue() == gpu::AddressSpace::Workgroup;
  };
  bool useLdmatrix = (s.m % 16 == 0 || s.m % 16 == 8) && s.k % 16 == 0 &&
                     s.n % 8 == 0 && inShared(A) && inShared(B);
  Value ldRow, ldCol, ldKRow;
  if (useLdmatrix) {
    // Lane l names row l % 8 of matrix l / 8: for A, matrices 0-3 are
    // (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15), the
    // registers a0-a3; for B (x2, transposed), lanes 0-15 name the 16 k
    // rows of the n-column block, b0 and b1.
    Value matrix = arith::DivUIOp::create(b, loc, lane, idx(8));
    Value row8 = arith::RemUIOp::create(b, loc, lane, idx(8));
    ldRow = arith::AddIOp::create(
        b, loc, row8,
        arith::MulIOp::create(
            b, loc, arith::RemUIOp::create(b, loc, matrix, idx(2)), idx(8)));
    ldCol = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, matrix, idx(2)), idx(8));
    ldKRow = arith::RemUIOp::create(b, loc, lane, idx(16));
  }

  auto loop = scf::ForOp::create(b, loc, idx(0), idx(s.kTiles), idx(1), acc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value k0 = arith::MulIOp::create(b, loc, loop.getInductionVar(), idx(16));
  Value kq = arith::AddIOp::create(b, loc, k0, quad2);
  auto structType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, b.getF32Type()));
  // One k step of the warp's j-th fragment: its A and B elements, then the
  // mma; returns the fragment's four new accumulators.
  auto step = [&](const FragmentPlace &p, ValueRange c) -> SmallVector<Value> {
    SmallVector<Value> aFrag, bFrag;
    if (useLdmatrix) {
      auto at = [&](int64_t rank, Value r, Value col) {
        SmallVector<Value> idxs;
        if (rank == 3)
          idxs.push_back(p.batch);
        idxs.append({r, col});
        return idxs;
      };
      Value aRow = arith::AddIOp::create(b, loc, p.row, ldRow);
      if (s.m % 16)
        aRow = minIdx(aRow, s.m - 1);
      Value aLoad = nvgpu::LdMatrixOp::create(
          b, loc, VectorType::get({4, 2}, f16), A,
          at(aRank, aRow, arith::AddIOp::create(b, loc, k0, ldCol)),
          /*transpose=*/false, /*numTiles=*/4);
      Value bLoad = nvgpu::LdMatrixOp::create(
          b, loc, VectorType::get({2, 2}, f16), B,
          at(bRank, arith::AddIOp::create(b, loc, k0, ldKRow), p.col),
          /*transpose=*/true, /*numTiles=*/2);
      for (int64_t i = 0; i < 4; ++i)
        aFrag.push_back(vector::ExtractOp::create(b, loc, aLoad, i));
      if (s.m % 16) {
        // Rows 8-15 (a1, a3) past M are zero; the condition is the
        // fragment's, the same for the whole warp.
        Value rowsValid = less(add(p.row, 8), s.m);
        Value zeros = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(pair, b.getF16FloatAttr(0.0)));
        for (int64_t i : {1, 3})
          aFrag[i] = arith::SelectOp::create(b, loc, rowsValid, aFrag[i], zeros);
      }
      for (int64_t i = 0; i < 2; ++i)
        bFrag.push_back(vector::ExtractOp::create(b, loc, bLoad, i));
    } else {
      Value r0 = arith::AddIOp::create(b, loc, p.row, group);
      Value r8 = add(r0, 8);
      // A fragment (row-major 16x16): a0 (g, 2t..), a1 (g+8, 2t..),
      // a2 (g, 2t+8..), a3 (g+8, 2t+8..).
      for (auto [r, dc] : {std::pair{r0, 0}, {r8, 0}, {r0, 8}, {r8, 8}}) {
        Value c = add(kq, dc);
        aFrag.push_back(vector::FromElementsOp::create(
            b, loc, pair, ValueRange{loadA(p, r, c), loadA(p, r, add(c, 1))}));
      }
      // B fragment (column-major 16x8): b0 (k 2t.., n g), b1 (k 2t+8.., n
      // g).
      Value n = arith::AddIOp::create(b, loc, p.col, group);
      for (int64_t dk : {0, 8}) {
        Value k = add(kq, dk);
        bFrag.push_back(vector::FromElementsOp::create(
            b, loc, pair, ValueRange{loadB(p, k, n), loadB(p, add(k, 1), n)}));
      }
    }
    auto mma = [&](ValueRange a, ValueRange bb, ValueRange acc, int64_t k) {
      auto op = NVVM::MmaOp::create(
          b, loc, structType, a, bb, acc, ArrayRef<int64_t>{16, 8, k},
          std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::f16,
                                        NVVM::MMATypes::f16},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      // LLVM's mma intrinsics are not convergent (IntrNoMem only), so LLVM
      // may sink one into the branch of a lane-dependent condition that
      // guards its only users (a fragment's in-range stores); there
      // mma.sync.aligned runs in a divergent warp and hangs. An empty asm
      // with side effects reading each result here keeps the mma where
      // every lane runs it (a searched softmax_accum over one-column score
      // tiles deadlocked on the emulator).
      SmallVector<Value> d;
      for (int64_t e = 0; e < 4; ++e) {
        Value v =
            LLVM::ExtractValueOp::create(b, loc, op, ArrayRef<int64_t>{e});
        d.push_back(LLVM::InlineAsmOp::create(
                        b, loc, b.getF32Type(), ValueRange{v},
                        b.getStringAttr(""), b.getStringAttr("=f,0"),
                        b.getUnitAttr(), UnitAttr(), LLVM::TailCallKindAttr(),
                        LLVM::AsmDialectAttr(), ArrayAttr())
                        .getResult(0));
      }
      return d;
    };
    if (chip.mma == GpuMma::M16N8K16)
      return mma(aFrag, bFrag, c, 16);
    // sm_75 has m16n8k8 only: the k16 step is two k8 steps with the same
    // fragment layout, the first over columns 0-7 of A (a0, a1) and rows
    // 0-7 of B (b0), the second over the next eight (a2, a3; b1).
    SmallVector<Value> half = mma({aFrag[0], aFrag[1]}, {bFrag[0]}, c, 8);
    return mma({aFrag[2], aFrag[3]}, {bFrag[1]}, half, 8);
  };
  SmallVector<Value> next;
  for (auto [j, p] : llvm::enumerate(places)) {
    ValueRange c = loop.getRegionIterArgs().slice(4 * j, 4);
    // Every warp has a j-th fragment when the warps times j + 1 fit in the
    // fragments; otherwise the last warps have none and skip the step (the
    // condition depends on the warp only, so the whole warp branches
    // together, as mma.sync.aligned requires), rather than spend the
    // tensor cores on a copy they never store.
    if (int64_t(j + 1) * warps <= s.fragments) {
      llvm::append_range(next, step(p, c));
      continue;
    }
    auto ifOp = scf::IfOp::create(b, loc, c.getTypes(), p.valid,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard ifGuard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, step(p, c));
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, c);
    }
    llvm::append_range(next, ifOp.getResults());
  }
  scf::YieldOp::create(b, loc, next);
  return SmallVector<Value>(loop.getResults());
}

void KernelEmitter::forEachFragmentElement(
    const MmaShape &s,
    function_ref<void(int64_t, const FragmentPlace &, Value, Value, Value)>
        fn) {
  Value group = arith::DivUIOp::create(b, loc, lane, idx(4));
  Value quad2 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, idx(4)), idx(2));
  for (int64_t j = 0; j < s.perWarp; ++j) {
    FragmentPlace p = fragmentPlace(s, j);
    Value row = arith::AddIOp::create(b, loc, p.row, group);
    Value col = arith::AddIOp::create(b, loc, p.col, quad2);
    // c0, c1 at (g, 2t), (g, 2t+1); c2, c3 at (g+8, 2t), (g+8, 2t+1).
    for (int64_t e = 0; e < 4; ++e) {
      Value r = e < 2 ? row : arith::AddIOp::create(b, loc, row, idx(8));
      Value c = e % 2 ? arith::AddIOp::create(b, loc, col, idx(1)) : col;
      Value ok = arith::AndIOp::create(
          b, loc, p.valid,
          arith::AndIOp::create(b, loc, less(r, s.m), less(c, s.n)));
      fn(4 * j + e, p, r, c, ok);
    }
  }
}

void KernelEmitter::storeFragments(const MmaShape &s, ValueRange acc,
                                   Value dest, Type elt, int64_t rank) {
  forEachFragmentElement(s, [&](int64_t e, const FragmentPlace &p, Value r,
                                Value c, Value ok) {
    auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> at;
    if (rank == 3)
      at.push_back(p.batch);
    at.append({r, c});
    memref::StoreOp::create(b, loc, fromF32(acc[e], elt), dest, at);
  });
}

void KernelEmitter::emitMatmulCudaCores(block::MatmulOp mm) {
  ArrayRef<int64_t> shape = cast<ShapedType>(mm.getType()).getShape();
  int64_t rank = shape.size();
  int64_t k = cast<ShapedType>(mm.getLhs().getType()).getShape().back();
  int64_t aRank = cast<ShapedType>(mm.getLhs().getType()).getRank();
  int64_t bRank = cast<ShapedType>(mm.getRhs().getType()).getRank();
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> c = delinearize(linear, shape);
    auto loop = scf::ForOp::create(b, loc, idx(0), idx(k), idx(1),
                                   ValueRange{f32(0.0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kk = loop.getInductionVar();
      SmallVector<Value> aAt(c.begin(), c.end() - 2), bAt(aAt);
      aAt.erase(aAt.begin(), aAt.begin() + (rank - aRank));
      bAt.erase(bAt.begin(), bAt.begin() + (rank - bRank));
      aAt.append({c[rank - 2], kk});
      bAt.append({kk, c[rank - 1]});
      Value x = toF32(memref::LoadOp::create(b, loc, views.lookup(mm.getLhs()), aAt));
      Value y = toF32(memref::LoadOp::create(b, loc, views.lookup(mm.getRhs()), bAt));
      Value sum = math::FmaOp::create(b, loc, x, y, loop.getRegionIterArgs()[0]);
      scf::YieldOp::create(b, loc, sum);
    }
    memref::StoreOp::create(b, loc,
                            fromF32(loop.getResult(0), storageType(mm.getResult())),
                            views.lookup(mm.getResult()), c);
  });
}
