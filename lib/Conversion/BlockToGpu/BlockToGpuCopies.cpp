//===- BlockToGpuCopies.cpp - block-to-gpu: input iterators and output savers ===//
//
// Part of the block-to-gpu code generator (BlockToGpuEmitter.h); the pass,
// the memory plan and the kernel's skeleton are in BlockToGpu.cpp.
//
//===----------------------------------------------------------------------===//

#include "BlockToGpuEmitter.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::blocktogpu;

/// Rows whose bytes are
/// a multiple of 16 (in both element types) move as 16-byte vectors:
/// consecutive threads take consecutive vectors, so each warp's accesses
/// coalesce into full 128-byte lines.
void KernelEmitter::copyBox(ArrayRef<int64_t> tile,
                            ArrayRef<int64_t> globalShape,
                            ArrayRef<Value> offsets, Value global,
                            Value shared, bool toShared) {
  auto globalType = cast<MemRefType>(global.getType());
  auto sharedType = cast<MemRefType>(shared.getType());
  Type gElt = globalType.getElementType(), sElt = sharedType.getElementType();
  int64_t rank = tile.size();
  int64_t vec = 16 / byteWidth(gElt);
  int64_t row = tile.back();
  bool vectorize = row % vec == 0 && globalShape.back() % vec == 0 &&
                   (row * byteWidth(sElt)) % 16 == 0;
  if (!vectorize)
    vec = 1;
  int64_t units = product(tile) / vec;

  auto loop = scf::ForOp::create(b, loc, tid, idx(units), idx(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value first = arith::MulIOp::create(b, loc, loop.getInductionVar(), idx(vec));
  // Tile coordinates of the unit's first element.
  SmallVector<Value> local(rank), at(rank);
  Value rest = first;
  for (int64_t d = rank - 1; d >= 0; --d) {
    local[d] = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, idx(tile[d]));
    if (d > 0)
      rest = arith::DivUIOp::create(b, loc, rest, idx(tile[d]));
    at[d] = arith::AddIOp::create(b, loc, local[d], offsets[d]);
  }
  ValueRange srcIdx = toShared ? ValueRange(at) : ValueRange(local);
  ValueRange dstIdx = toShared ? ValueRange(local) : ValueRange(at);
  Value src = toShared ? global : shared, dst = toShared ? shared : global;
  Type srcElt = toShared ? gElt : sElt, dstElt = toShared ? sElt : gElt;
  if (vec == 1) {
    Value v = memref::LoadOp::create(b, loc, src, srcIdx);
    memref::StoreOp::create(b, loc, castFloat(v, dstElt), dst, dstIdx);
    return;
  }
  if (toShared && srcElt == dstElt && chip.hasCpAsync) {
    // Global to shared without a register round trip (cp.async, sm_80+):
    // a thread issues all its copies before any completes, so the whole
    // tile is in flight at once; they are committed as one group after the
    // loop and waited for at the next barrier.
    nvgpu::DeviceAsyncCopyOp::create(b, loc, dst, dstIdx, src, srcIdx,
                                     b.getIndexAttr(vec), Value(),
                                     b.getUnitAttr());
    b.setInsertionPointAfter(loop);
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    asyncCopiesPending = true;
    return;
  }
  auto load = vector::LoadOp::create(b, loc, VectorType::get({vec}, srcElt),
                                     src, srcIdx);
  load->setAttr("alignment", b.getI64IntegerAttr(16));
  auto store = vector::StoreOp::create(b, loc, castFloat(load, dstElt), dst,
                                       dstIdx);
  store->setAttr("alignment", b.getI64IntegerAttr(16));
}

void KernelEmitter::emitInput(block::InputOp in, Value iter) {
  auto source = cast<ShapedType>(in.getSource().getType());
  ArrayRef<int64_t> tile = cast<ShapedType>(in.getType()).getShape();
  ArrayRef<int64_t> grid = op.getGrid();
  // Dimension d of this block's part: split across blocks first, then
  // across iterations.
  SmallVector<Value> offsets(tile.size(), idx(0));
  for (auto [g, d] : llvm::enumerate(in.getImap().getDims())) {
    if (d == block::GridMapAttr::kReplicate)
      continue;
    int64_t part = source.getDimSize(d) / grid[g];
    offsets[d] = arith::AddIOp::create(
        b, loc, offsets[d],
        arith::MulIOp::create(b, loc, blockIds[g], idx(part)));
  }
  if (!in.getFmap().isReplicate()) {
    int64_t d = in.getFmap().getDim();
    offsets[d] = arith::AddIOp::create(
        b, loc, offsets[d], arith::MulIOp::create(b, loc, iter, idx(tile[d])));
  }
  access({}, {in.getResult()});
  copyBox(tile, source.getShape(), offsets, globals.lookup(in.getSource()),
      views.lookup(in.getResult()), /*toShared=*/true);
}

void KernelEmitter::emitOutput(block::OutputOp out) {
  auto dest = cast<ShapedType>(out.getType());
  ArrayRef<int64_t> tile = cast<ShapedType>(out.getTile().getType()).getShape();
  SmallVector<Value> offsets(tile.size(), idx(0));
  for (auto [g, d] : llvm::enumerate(out.getOmap().getDims()))
    if (d != block::GridMapAttr::kReplicate)
      offsets[d] = arith::AddIOp::create(
          b, loc, offsets[d],
          arith::MulIOp::create(b, loc, blockIds[g], idx(tile[d])));
  access({out.getTile()}, {});
  copyBox(tile, dest.getShape(), offsets, globals.lookup(out.getResult()),
      views.lookup(out.getTile()), /*toShared=*/false);
}
