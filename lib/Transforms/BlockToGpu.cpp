//===- BlockToGpu.cpp - graph-defined kernels to gpu.func -----------------===//
//
// The block level's code generator. A kernel.graph_def becomes one gpu.func
// whose thread block runs the block graph (semantics: BlockSemantics.cpp):
//
//   every tile           -> a view of dynamic shared memory (memory plan)
//   block.input/output   -> cooperative global<->shared copies, 16-byte
//                           vectors when the tile row allows
//   block.matmul (f16)   -> nvvm.mma.sync m16n8k16, f32 accumulators; when
//                           its only user is a sum accumulator the
//                           accumulators stay in registers for the loop
//   elementwise, fused   -> one element per thread per step, in f32
//   block.reduce         -> a warp per output row, gpu.shuffle xor
//   block.accum          -> updated in place by the thread owning the
//                           element (f32 tiles)
//   block.softmax_accum  -> a warp per row takes the running maximum, the
//                           rescale and exp(S - m) into a P buffer; then
//                           the output is rescaled and P V added (an mma
//                           whose accumulators start from the rescaled
//                           output); a / l after the loop
//   block.softmax_merge  -> a thread per element, over the parts
//   block.reshape        -> a copy
//   block.rms_norm       -> a warp per row: its largest magnitude, the squares
//                           of the row scaled by a power of two near it
//                           summed by shuffles (no overflow or underflow),
//                           then each lane divides its elements
//   block.accum red_*    -> a warp per row adds the row's sum (of squares)
//                           to the state; red_rms takes sqrt(sum / N) after
//                           the loop
//
// gpu.barrier goes only where a shared tile is read after another op wrote
// it, or written after another op read or wrote it, since the last barrier.
//
//===----------------------------------------------------------------------===//

#include "Dialect/MirageAttributes.h"
#include "Dialect/Block/BlockOps.h"
#include "Dialect/Kernel/KernelOps.h"
#include "Dialect/Graph/ShapeRules.h"
#include "Dialect/Thread/ThreadOps.h"
#include "Transforms/GpuChip.h"
#include "Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mirage {
#define GEN_PASS_DEF_BLOCKTOGPU
#include "Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

/// The element count of a tile or tensor whose size plan() checked.
static int64_t product(ArrayRef<int64_t> dims) {
  std::optional<int64_t> n = checkedElementCount(dims);
  assert(n && "a shape the memory plan did not check");
  return n.value_or(std::numeric_limits<int64_t>::max());
}

static int64_t byteWidth(Type t) { return t.getIntOrFloatBitWidth() / 8; }

namespace {

/// Where a warp's j-th 16x8 fragment of a matmul's output lies: batch, first
/// row, first column, and whether it exists (the last warps may have fewer;
/// they skip the mma of a fragment they do not have).
struct FragmentPlace {
  Value batch, row, col, valid;
};

/// Emits the gpu.func of one graph-defined kernel.
class KernelEmitter {
public:
  KernelEmitter(kernel::GraphDefOp op, int64_t threads, const GpuChip &chip)
      : op(op), body(op.getBody().front()), b(op.getContext()),
        threads(threads), warps(threads / 32), chip(chip) {}

  /// Plans shared memory and builds the kernel `name` in `gpuModule`.
  LogicalResult emit(gpu::GPUModuleOp gpuModule, StringRef name);

  int64_t sharedBytes() const { return planBytes; }

private:
  // Memory plan.
  LogicalResult plan();
  Type storageType(Value tile) const;

  // Small builders.
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  /// `v` (a scalar or a vector of floats) with element type `to`.
  Value castFloat(Value v, Type to);
  Value toF32(Value v) { return castFloat(v, b.getF32Type()); }
  Value fromF32(Value v, Type to) { return castFloat(v, to); }
  SmallVector<Value> delinearize(Value linear, ArrayRef<int64_t> shape);
  Value minIdx(Value a, int64_t bound) {
    return arith::MinUIOp::create(b, loc, a, idx(bound));
  }
  Value less(Value a, int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, a,
                                 idx(bound));
  }

  /// Emits `fn(linear index)` for every element of `count` split over the
  /// block's threads.
  void forEachElement(int64_t count, function_ref<void(Value)> fn);
  /// Reads tile `v` at `coords` of a (broadcast) result of shape `shape`.
  Value loadBroadcast(Value tile, ArrayRef<Value> coords);

  // Barrier placement.
  void access(ArrayRef<Value> reads, ArrayRef<Value> writes);
  void barrier();

  // Ops.
  /// Copies a box of `tile` shape between a global memref (the box at
  /// `offsets`) and a shared one.
  void copyBox(ArrayRef<int64_t> tile, ArrayRef<int64_t> globalShape,
               ArrayRef<Value> offsets, Value global, Value shared,
               bool toShared);
  LogicalResult emitOp(Operation *inner, Value iter);
  void emitInput(block::InputOp in, Value iter);
  void emitOutput(block::OutputOp out);
  void emitElementwise(Operation *inner);
  void emitReduce(block::ReduceOp red);
  void emitConcat(block::ConcatOp cat);
  void emitSlice(block::SliceOp slice);
  void emitAccumUpdate(block::AccumOp acc, Value iter);
  void emitAccumInit(block::AccumOp acc);
  void emitReducingAccumUpdate(block::AccumOp acc);
  void emitRMSNorm(block::RMSNormOp norm);
  /// Calls fn(row coordinates, sum) for each row of `tile` along `dim`
  /// (squares summed when `squares`), a warp per row; every lane of the warp
  /// gets the sum.
  void forEachRowSum(Value tile, int64_t dim, bool squares,
                     function_ref<void(ArrayRef<Value>, Value)> fn);
  void emitSoftmaxInit(block::SoftmaxAccumOp sm);
  void emitSoftmaxUpdate(block::SoftmaxAccumOp sm);
  void emitSoftmaxFinish(block::SoftmaxAccumOp sm);
  void emitSoftmaxMerge(block::SoftmaxMergeOp merge);
  void emitReshape(block::ReshapeOp reshape);
  /// Warp-uniform reduction of `partial` over the warp's lanes (max or sum);
  /// every lane gets the result.
  Value warpReduce(Value partial, bool isMax);
  void emitMatmulCudaCores(block::MatmulOp mm);

  // Tensor-core matmuls, on shared-memory buffers (a tile's view or a
  // scratch buffer).
  struct MmaShape {
    int64_t batch, m, n, k, mTiles, nTiles, kTiles, fragments, perWarp;
  };
  struct MmaOperands {
    Value a, b; // [batch..., m, k] and [batch..., k, n] f16 memrefs
    int64_t aRank, bRank, cRank;
    MmaShape shape;
  };
  MmaShape mmaShape(ArrayRef<int64_t> a, ArrayRef<int64_t> c) const;
  MmaOperands mmaOperands(block::MatmulOp mm) const;
  FragmentPlace fragmentPlace(const MmaShape &s, int64_t j);
  bool usesTensorCores(block::MatmulOp mm) const;
  /// Whether the chip's mma.sync takes these operand types and the rank.
  bool tensorCoresFor(Type a, Type b, int64_t rank) const;
  /// Adds A B over all of K into `acc` (4 f32 per fragment the warp owns).
  SmallVector<Value> emitMmaLoop(const MmaOperands &o, ValueRange acc);
  /// Calls fn(fragment element, row, col, in range) for the four f32
  /// elements of each of the warp's fragments: (g, 2t), (g, 2t+1),
  /// (g+8, 2t), (g+8, 2t+1) of its 16x8 box.
  void forEachFragmentElement(
      const MmaShape &s,
      function_ref<void(int64_t, const FragmentPlace &, Value, Value, Value)>
          fn);
  /// Stores the warp's fragments into the [batch?, m, n] buffer `dest`.
  void storeFragments(const MmaShape &s, ValueRange acc, Value dest,
                      Type elt, int64_t rank);

  kernel::GraphDefOp op;
  Block &body;
  OpBuilder b;
  Location loc = UnknownLoc::get(op.getContext());
  int64_t threads, warps;
  const GpuChip &chip;

  // The block graph's parts, in order.
  SmallVector<Operation *> loopBody, postLoop;
  SmallVector<block::AccumOp> accums;
  SmallVector<block::SoftmaxAccumOp> softmaxAccums;
  /// Each online softmax's scratch buffers, live in the loop: P (its
  /// scores' shape, in the values' element type) and the rescale factor
  /// per row; offsets, then views.
  DenseMap<Operation *, std::pair<int64_t, int64_t>> scratchOffsets;
  DenseMap<Operation *, std::pair<Value, Value>> scratch;
  SmallVector<block::OutputOp> savers;
  /// Matmuls whose accumulation stays in registers, with their accumulator.
  llvm::MapVector<Operation *, block::AccumOp> registerMatmuls;

  DenseMap<Value, int64_t> offsets; // tile -> byte offset in shared memory
  int64_t planBytes = 0;

  // Values of the kernel being built.
  DenseMap<Value, Value> views;   // tile -> shared-memory memref
  DenseMap<Value, Value> globals; // block-graph argument/output -> memref
  SmallVector<Value> blockIds;
  Value tid, lane, warp;

  llvm::SetVector<Value> readSinceBarrier, writtenSinceBarrier;
  /// cp.async copies issued and not yet waited for: the next barrier waits
  /// first, so the tiles are complete when other threads read them.
  bool asyncCopiesPending = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Memory plan
//===----------------------------------------------------------------------===//

/// Accumulators hold f32 whatever their type says: the sum of many f16
/// tiles must not be rounded at every step.
Type KernelEmitter::storageType(Value tile) const {
  if (auto acc = tile.getDefiningOp<block::AccumOp>();
      acc && acc.getKind() != block::AccumKind::concat)
    return Float32Type::get(tile.getContext());
  return cast<ShapedType>(tile.getType()).getElementType();
}

LogicalResult KernelEmitter::plan() {
  // A fused chain's scalar code comes from --thread-to-arith, the one place
  // the thread level's semantics turn into arith and math.
  WalkResult unlowered = body.walk([](Operation *op) {
    if (isa<thread::UnaryOp, thread::BinaryOp, thread::SelectOp>(op)) {
      op->emitOpError("has no scalar code yet: run --thread-to-arith before "
                      "--block-to-gpu");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unlowered.wasInterrupted())
    return failure();

  // The launch must fit the chip's grid.
  ArrayRef<int64_t> grid = op.getGrid();
  for (auto [g, size] : llvm::enumerate(grid))
    if (size > (g == 0 ? kGpuMaxGridX : kGpuMaxGridYZ))
      return op.emitOpError("has a grid [")
             << grid << "] that no GPU launches: at most " << kGpuMaxGridX
             << " blocks along x and " << kGpuMaxGridYZ << " along y and z";
  // Every size below is computed from these shapes: the tiles must fit the
  // chip's shared memory and the tensors its device memory, so their
  // element counts are bounded first.
  WalkResult tooBig = body.walk([&](Operation *inner) {
    for (Value v : inner->getResults()) {
      auto tile = dyn_cast<block::TileType>(v.getType());
      if (tile && failed(verifyElementCountWithin(
                      inner->getLoc(), tile.getShape(),
                      chip.maxSharedMemoryPerBlock,
                      (inner->getName().getStringRef() + " tile").str(),
                      "(the shared memory per block of " + chip.name +
                          ", in bytes)")))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (tooBig.wasInterrupted())
    return failure();
  for (Type t : llvm::concat<const Type>(op.getInputs().getTypes(),
                                         op.getResultTypes())) {
    auto tensor = cast<ShapedType>(t);
    if (failed(verifyElementCountWithin(
            op.getLoc(), tensor.getShape(), kGpuMaxTensorElements,
            "kernel.graph_def tensor",
            "(2^38) of a GPU kernel's tensor, more than any GPU's memory "
            "holds")))
      return failure();
  }

  bool afterLoop = false;
  for (Operation &inner : body.without_terminator()) {
    if (auto saver = dyn_cast<block::OutputOp>(inner)) {
      savers.push_back(saver);
    } else if (block::isLoopAccumulator(&inner)) {
      afterLoop = true;
      if (auto acc = dyn_cast<block::AccumOp>(inner))
        accums.push_back(acc);
      else
        softmaxAccums.push_back(cast<block::SoftmaxAccumOp>(inner));
    } else if (!afterLoop) {
      loopBody.push_back(&inner);
    } else {
      postLoop.push_back(&inner);
    }
  }
  for (Operation *inner : loopBody) {
    auto mm = dyn_cast<block::MatmulOp>(inner);
    if (!mm || !usesTensorCores(mm) || !mm->hasOneUse())
      continue;
    auto acc = dyn_cast<block::AccumOp>(*mm->user_begin());
    if (acc && acc.getKind() == block::AccumKind::sum)
      registerMatmuls.insert({mm, acc});
  }

  // Accumulators live throughout; loop-body tiles die with the loop, so the
  // post-loop tiles reuse their space.
  auto bytesOf = [&](Value tile) {
    int64_t n = product(cast<ShapedType>(tile.getType()).getShape()) *
                byteWidth(storageType(tile));
    return llvm::alignTo(n, 16);
  };
  int64_t persistent = 0;
  for (block::AccumOp acc : accums) {
    offsets[acc.getResult()] = persistent;
    persistent += bytesOf(acc.getResult());
  }
  for (block::SoftmaxAccumOp sm : softmaxAccums)
    for (Value result : sm->getResults()) {
      offsets[result] = persistent;
      persistent += bytesOf(result);
    }
  auto place = [&](ArrayRef<Operation *> ops) {
    int64_t end = persistent;
    for (Operation *inner : ops) {
      if (registerMatmuls.count(inner))
        continue;
      for (Value result : inner->getResults()) {
        offsets[result] = end;
        end += bytesOf(result);
      }
    }
    return end;
  };
  int64_t loopEnd = place(loopBody);
  for (block::SoftmaxAccumOp sm : softmaxAccums) {
    auto scores = cast<ShapedType>(sm.getScores().getType());
    int64_t p = loopEnd;
    loopEnd += llvm::alignTo(product(scores.getShape()) *
                                 byteWidth(storageType(sm.getValues())),
                             16);
    int64_t alpha = loopEnd;
    loopEnd += llvm::alignTo(product(scores.getShape().drop_back()) * 4, 16);
    scratchOffsets[sm] = {p, alpha};
  }
  planBytes = std::max(loopEnd, place(postLoop));
  if (planBytes > chip.maxSharedMemoryPerBlock)
    return op.emitOpError("needs ")
           << planBytes << " bytes of shared memory per block; "
           << chip.name << " gives a block at most "
           << chip.maxSharedMemoryPerBlock;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value KernelEmitter::castFloat(Value v, Type to) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == to)
    return v;
  Type target = to;
  if (auto vec = dyn_cast<VectorType>(v.getType()))
    target = vec.clone(to);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, target, v);
  return arith::TruncFOp::create(b, loc, target, v);
}

SmallVector<Value> KernelEmitter::delinearize(Value linear,
                                              ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  Value rest = linear;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    if (d == 0) {
      coords[d] = rest;
      break;
    }
    coords[d] = arith::RemUIOp::create(b, loc, rest, idx(shape[d]));
    rest = arith::DivUIOp::create(b, loc, rest, idx(shape[d]));
  }
  return coords;
}

void KernelEmitter::forEachElement(int64_t count,
                                   function_ref<void(Value)> fn) {
  auto loop = scf::ForOp::create(b, loc, tid, idx(count), idx(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  fn(loop.getInductionVar());
}

Value KernelEmitter::loadBroadcast(Value tile, ArrayRef<Value> coords) {
  ArrayRef<int64_t> shape = cast<ShapedType>(tile.getType()).getShape();
  size_t lead = coords.size() - shape.size();
  SmallVector<Value> at;
  for (auto [d, size] : llvm::enumerate(shape))
    at.push_back(size == 1 ? idx(0) : coords[lead + d]);
  return toF32(memref::LoadOp::create(b, loc, views.lookup(tile), at));
}

void KernelEmitter::barrier() {
  if (asyncCopiesPending) {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0));
    asyncCopiesPending = false;
  }
  gpu::BarrierOp::create(b, loc);
  readSinceBarrier.clear();
  writtenSinceBarrier.clear();
}

void KernelEmitter::access(ArrayRef<Value> reads, ArrayRef<Value> writes) {
  bool hazard = llvm::any_of(reads, [&](Value v) {
    return writtenSinceBarrier.contains(v);
  }) || llvm::any_of(writes, [&](Value v) {
    return writtenSinceBarrier.contains(v) || readSinceBarrier.contains(v);
  });
  if (hazard)
    barrier();
  readSinceBarrier.insert(reads.begin(), reads.end());
  writtenSinceBarrier.insert(writes.begin(), writes.end());
}

//===----------------------------------------------------------------------===//
// Input iterators and output savers
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Elementwise ops, reductions, concatenation, accumulators
//===----------------------------------------------------------------------===//

void KernelEmitter::emitElementwise(Operation *inner) {
  SmallVector<Value> reads(inner->getOperands());
  SmallVector<Value> writes(inner->getResults());
  access(reads, writes);
  ArrayRef<int64_t> shape =
      cast<ShapedType>(inner->getResult(0).getType()).getShape();
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> coords = delinearize(linear, shape);
    SmallVector<Value> in;
    for (Value operand : inner->getOperands())
      in.push_back(loadBroadcast(operand, coords));
    SmallVector<Value> results;
    if (auto u = dyn_cast<block::UnaryOp>(inner)) {
      results.push_back(buildScalarUnary(
          b, loc, u.getKind(), u.getParams().value_or(ArrayRef<double>()),
          in[0]));
    } else if (auto bin = dyn_cast<block::BinaryOp>(inner)) {
      results.push_back(buildScalarBinary(b, loc, bin.getKind(), in[0], in[1]));
    } else {
      // thread.fused, lowered by --thread-to-arith: its scalar body, once
      // per element; arguments and results in the tiles' element types.
      auto fused = cast<thread::FusedOp>(inner);
      Block &chain = fused.getBody().front();
      IRMapping map;
      for (auto [arg, v] : llvm::zip(chain.getArguments(), in))
        map.map(arg, fromF32(v, arg.getType()));
      for (Operation &op : chain.without_terminator())
        b.clone(op, map);
      for (Value v : chain.getTerminator()->getOperands())
        results.push_back(toF32(map.lookup(v)));
    }
    for (auto [result, v] : llvm::zip(inner->getResults(), results))
      memref::StoreOp::create(b, loc, fromF32(v, storageType(result)),
                              views.lookup(result), coords);
  });
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

void KernelEmitter::emitConcat(block::ConcatOp cat) {
  SmallVector<Value> reads(cat.getInputs());
  access(reads, {cat.getResult()});
  int64_t dim = cat.getDim(), start = 0;
  for (Value part : cat.getInputs()) {
    ArrayRef<int64_t> shape = cast<ShapedType>(part.getType()).getShape();
    forEachElement(product(shape), [&](Value linear) {
      SmallVector<Value> coords = delinearize(linear, shape);
      Value v = memref::LoadOp::create(b, loc, views.lookup(part), coords);
      coords[dim] = arith::AddIOp::create(b, loc, coords[dim], idx(start));
      memref::StoreOp::create(b, loc, v, views.lookup(cat.getResult()), coords);
    });
    start += shape[dim];
  }
}

void KernelEmitter::emitSlice(block::SliceOp slice) {
  access({slice.getInput()}, {slice.getResult()});
  ArrayRef<int64_t> shape = slice.getSizes(), offsets = slice.getOffsets();
  forEachElement(product(shape), [&](Value linear) {
    SmallVector<Value> coords = delinearize(linear, shape);
    SmallVector<Value> from(coords);
    for (auto [d, o] : llvm::enumerate(offsets))
      if (o)
        from[d] = arith::AddIOp::create(b, loc, coords[d], idx(o));
    Value v = memref::LoadOp::create(b, loc, views.lookup(slice.getInput()), from);
    memref::StoreOp::create(b, loc, v, views.lookup(slice.getResult()), coords);
  });
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

//===----------------------------------------------------------------------===//
// Online softmax, its merge, reshape
//===----------------------------------------------------------------------===//

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

void KernelEmitter::emitReshape(block::ReshapeOp reshape) {
  access({reshape.getInput()}, {reshape.getResult()});
  ArrayRef<int64_t> from = reshape.getInput().getType().getShape();
  ArrayRef<int64_t> to = reshape.getType().getShape();
  forEachElement(product(to), [&](Value linear) {
    Value v = memref::LoadOp::create(b, loc, views.lookup(reshape.getInput()),
                                     delinearize(linear, from));
    memref::StoreOp::create(b, loc, v, views.lookup(reshape.getResult()),
                            delinearize(linear, to));
  });
}

//===----------------------------------------------------------------------===//
// Matmuls
//===----------------------------------------------------------------------===//

/// f16 operands of rank 2 or 3 (one batch dimension) run on tensor cores,
/// where the chip has an mma.sync for them.
bool KernelEmitter::tensorCoresFor(Type a, Type b, int64_t rank) const {
  return chip.mma != GpuMma::None && a.isF16() && b.isF16() && rank <= 3;
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
    Value r0 = arith::AddIOp::create(b, loc, p.row, group);
    Value r8 = add(r0, 8);
    // A fragment (row-major 16x16): a0 (g, 2t..), a1 (g+8, 2t..),
    // a2 (g, 2t+8..), a3 (g+8, 2t+8..).
    SmallVector<Value> aFrag;
    for (auto [r, dc] : {std::pair{r0, 0}, {r8, 0}, {r0, 8}, {r8, 8}}) {
      Value c = add(kq, dc);
      aFrag.push_back(vector::FromElementsOp::create(
          b, loc, pair, ValueRange{loadA(p, r, c), loadA(p, r, add(c, 1))}));
    }
    // B fragment (column-major 16x8): b0 (k 2t.., n g), b1 (k 2t+8.., n g).
    Value n = arith::AddIOp::create(b, loc, p.col, group);
    SmallVector<Value> bFrag;
    for (int64_t dk : {0, 8}) {
      Value k = add(kq, dk);
      bFrag.push_back(vector::FromElementsOp::create(
          b, loc, pair, ValueRange{loadB(p, k, n), loadB(p, add(k, 1), n)}));
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

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitOp(Operation *inner, Value iter) {
  loc = inner->getLoc();
  if (auto in = dyn_cast<block::InputOp>(inner)) {
    emitInput(in, iter);
  } else if (auto mm = dyn_cast<block::MatmulOp>(inner)) {
    access({mm.getLhs(), mm.getRhs()}, {mm.getResult()});
    if (usesTensorCores(mm)) {
      MmaOperands o = mmaOperands(mm);
      SmallVector<Value> zero(4 * o.shape.perWarp, f32(0.0));
      storeFragments(o.shape, emitMmaLoop(o, zero),
                     views.lookup(mm.getResult()),
                     storageType(mm.getResult()), o.cRank);
    } else {
      emitMatmulCudaCores(mm);
    }
  } else if (isa<block::UnaryOp, block::BinaryOp, thread::FusedOp>(inner)) {
    emitElementwise(inner);
  } else if (auto red = dyn_cast<block::ReduceOp>(inner)) {
    emitReduce(red);
  } else if (auto cat = dyn_cast<block::ConcatOp>(inner)) {
    emitConcat(cat);
  } else if (auto merge = dyn_cast<block::SoftmaxMergeOp>(inner)) {
    emitSoftmaxMerge(merge);
  } else if (auto reshape = dyn_cast<block::ReshapeOp>(inner)) {
    emitReshape(reshape);
  } else if (auto norm = dyn_cast<block::RMSNormOp>(inner)) {
    emitRMSNorm(norm);
  } else if (auto slice = dyn_cast<block::SliceOp>(inner)) {
    emitSlice(slice);
  } else {
    return inner->emitOpError("has no GPU code generation");
  }
  return success();
}

LogicalResult KernelEmitter::emit(gpu::GPUModuleOp gpuModule, StringRef name) {
  if (failed(plan()))
    return failure();

  // Signature: one global memref per input, then per output.
  SmallVector<Type> argTypes;
  auto memrefOf = [](Type t) {
    auto tensor = cast<RankedTensorType>(t);
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  };
  for (Type t : op.getInputs().getTypes())
    argTypes.push_back(memrefOf(t));
  for (Type t : op.getResultTypes())
    argTypes.push_back(memrefOf(t));
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, op.getLoc(), name,
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  loc = op.getLoc();

  for (auto [arg, memref] :
       llvm::zip(body.getArguments(), entry.getArguments().take_front(
                                          op.getInputs().size())))
    globals[arg] = memref;
  // Output i is block.yield's operand i, whatever order the savers have.
  auto yield = cast<block::YieldOp>(body.getTerminator());
  for (auto [v, memref] :
       llvm::zip(yield.getResults(),
                 entry.getArguments().drop_front(op.getInputs().size())))
    globals[v] = memref;

  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = arith::RemUIOp::create(b, loc, tid, idx(32));
  warp = arith::DivUIOp::create(b, loc, tid, idx(32));
  for (gpu::Dimension d :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    blockIds.push_back(gpu::BlockIdOp::create(b, loc, d));

  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface{}, workgroup));
  for (auto [tile, offset] : offsets) {
    auto type = MemRefType::get(cast<ShapedType>(tile.getType()).getShape(),
                                storageType(tile), MemRefLayoutAttrInterface{},
                                workgroup);
    views[tile] = memref::ViewOp::create(b, loc, type, smem, idx(offset),
                                         ValueRange{});
  }

  for (auto [sm, off] : scratchOffsets) {
    auto smOp = cast<block::SoftmaxAccumOp>(sm);
    ArrayRef<int64_t> shape = smOp.getScores().getType().getShape();
    auto pType = MemRefType::get(shape, storageType(smOp.getValues()),
                                 MemRefLayoutAttrInterface{}, workgroup);
    auto alphaType =
        MemRefType::get({product(shape.drop_back())}, b.getF32Type(),
                        MemRefLayoutAttrInterface{}, workgroup);
    scratch[sm] = {
        memref::ViewOp::create(b, loc, pType, smem, idx(off.first),
                               ValueRange{}),
        memref::ViewOp::create(b, loc, alphaType, smem, idx(off.second),
                               ValueRange{})};
  }

  // Accumulators start at 0 (sum) or -inf (max); register ones as values.
  for (block::SoftmaxAccumOp sm : softmaxAccums) {
    loc = sm.getLoc();
    emitSoftmaxInit(sm);
  }
  for (block::AccumOp acc : accums)
    if (!llvm::any_of(registerMatmuls,
                      [&](auto &entry) { return entry.second == acc; }))
      emitAccumInit(acc);
  SmallVector<Value> registers;
  for (auto &entry : registerMatmuls)
    registers.append(
        4 * mmaOperands(cast<block::MatmulOp>(entry.first)).shape.perWarp,
        f32(0.0));

  // The for-loop; one iteration needs no loop (and no barrier at its end).
  int64_t forloop = op.getForloop();
  auto emitIteration = [&](Value iter, ValueRange regs) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> out;
    size_t next = 0;
    for (Operation *inner : loopBody) {
      if (auto it = registerMatmuls.find(inner); it != registerMatmuls.end()) {
        auto mm = cast<block::MatmulOp>(inner);
        loc = mm.getLoc();
        access({mm.getLhs(), mm.getRhs()}, {});
        MmaOperands o = mmaOperands(mm);
        int64_t n = 4 * o.shape.perWarp;
        llvm::append_range(out, emitMmaLoop(o, regs.slice(next, n)));
        next += n;
        continue;
      }
      if (failed(emitOp(inner, iter)))
        return failure();
    }
    for (block::AccumOp acc : accums) {
      loc = acc.getLoc();
      if (Value in = acc.getInput(); !registerMatmuls.count(in.getDefiningOp()))
        emitAccumUpdate(acc, iter);
    }
    for (block::SoftmaxAccumOp sm : softmaxAccums) {
      loc = sm.getLoc();
      emitSoftmaxUpdate(sm);
    }
    return out;
  };
  SmallVector<Value> finalRegs;
  if (forloop == 1) {
    FailureOr<SmallVector<Value>> out = emitIteration(idx(0), registers);
    if (failed(out))
      return failure();
    finalRegs = *out;
  } else {
    auto loop = scf::ForOp::create(b, loc, idx(0), idx(forloop), idx(1),
                                   registers);
    {
      OpBuilder::InsertionGuard guard(b);
      if (!registers.empty() || loop.getBody()->empty())
        b.setInsertionPointToEnd(loop.getBody());
      else
        b.setInsertionPoint(loop.getBody()->getTerminator());
      FailureOr<SmallVector<Value>> out =
          emitIteration(loop.getInductionVar(), loop.getRegionIterArgs());
      if (failed(out))
        return failure();
      // The next iteration overwrites the loop-body tiles.
      if (!readSinceBarrier.empty() || !writtenSinceBarrier.empty())
        barrier();
      if (!registers.empty())
        scf::YieldOp::create(b, loc, *out);
    }
    finalRegs = SmallVector<Value>(loop.getResults());
  }

  // Register accumulators land in their tiles.
  size_t next = 0;
  for (auto &[inner, acc] : registerMatmuls) {
    MmaOperands o = mmaOperands(cast<block::MatmulOp>(inner));
    int64_t n = 4 * o.shape.perWarp;
    loc = acc.getLoc();
    access({}, {acc.getResult()});
    storeFragments(o.shape, ValueRange(finalRegs).slice(next, n),
                   views.lookup(acc.getResult()), storageType(acc.getResult()),
                   o.cRank);
    next += n;
  }
  for (block::SoftmaxAccumOp sm : softmaxAccums) {
    loc = sm.getLoc();
    emitSoftmaxFinish(sm);
  }
  // red_rms: the root mean square of what was summed.
  for (block::AccumOp acc : accums) {
    if (acc.getKind() != block::AccumKind::red_rms)
      continue;
    loc = acc.getLoc();
    access({acc.getResult()}, {acc.getResult()});
    int64_t dim = *acc.getDim();
    double n = double(acc.getInput().getType().getShape()[dim]) *
               double(forloop);
    ArrayRef<int64_t> shape = acc.getType().getShape();
    Value state = views.lookup(acc.getResult());
    forEachElement(product(shape), [&](Value linear) {
      SmallVector<Value> at = delinearize(linear, shape);
      Value v = memref::LoadOp::create(b, loc, state, at);
      memref::StoreOp::create(
          b, loc,
          buildScalarUnary(b, loc, UnaryKind::sqrt, {},
                           arith::MulFOp::create(b, loc, v, f32(1.0 / n))),
          state, at);
    });
  }
  for (Operation *inner : postLoop)
    if (failed(emitOp(inner, idx(0))))
      return failure();
  for (block::OutputOp saver : savers) {
    loc = saver.getLoc();
    emitOutput(saver);
  }
  gpu::ReturnOp::create(b, op.getLoc());
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

void mirage::recordReference(func::FuncOp func) {
  if (func->hasAttr(kReferenceAttrName))
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "module {\n";
  func->print(os);
  os << "\n}\n";
  func->setAttr(kReferenceAttrName, StringAttr::get(func.getContext(), text));
}

/// `name` with every character that may not appear in a PTX identifier
/// replaced by '_' (LLVM's NVPTX printer aborts on other symbol names), and
/// "k" in front unless it starts with a letter: names starting with '_'
/// belong to the toolchain (convert-gpu-to-nvvm's __dynamic_shmem__0,
/// libdevice's __nv_expf), which would clash with a kernel of that name.
static std::string kernelNameBase(StringRef name) {
  std::string base;
  for (char c : name)
    base += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (base.empty() || !llvm::isAlpha(base.front()))
    base.insert(0, "k");
  return base;
}

namespace {
struct BlockToGpuPass : mirage::impl::BlockToGpuBase<BlockToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (threads < 32 || threads > kGpuMaxThreadsPerBlock || threads % 32) {
      emitError(module.getLoc())
          << "block-to-gpu: threads must be a multiple of 32 in [32, "
          << kGpuMaxThreadsPerBlock << "], got "
          << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    // One chip for the module: its kernels share one gpu.module.
    FailureOr<std::string> targetName =
        resolveModuleLoweringTarget(module, target, "block-to-gpu");
    if (failed(targetName))
      return signalPassFailure();
    const GpuChip *gpu = lookupGpuChipOfTarget(*targetName);
    if (!gpu) {
      emitError(module.getLoc())
          << "block-to-gpu: " << unsupportedGpuChipMessage(*targetName);
      return signalPassFailure();
    }
    SmallVector<kernel::GraphDefOp> kernels;
    module.walk([&](kernel::GraphDefOp op) { kernels.push_back(op); });
    if (kernels.empty())
      return;

    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels");
    if (!gpuModule) {
      b.setInsertionPointToEnd(module.getBody());
      gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "mirage_kernels");
    }
    // The chip the kernels are generated for: attach-gpu-target gives the
    // gpu.module its #nvvm.target from it.
    if (StringRef earlier = getSearchedTarget(gpuModule);
        !earlier.empty() && earlier != gpu->name) {
      emitError(gpuModule.getLoc())
          << "block-to-gpu: @mirage_kernels holds kernels for " << earlier
          << "; the new ones would be for " << gpu->name;
      return signalPassFailure();
    }
    setSearchedTarget(gpuModule, gpu->name);
    // The names taken in the kernel module, kept current as kernels are
    // added (a SymbolTable would not see them).
    llvm::StringSet<> taken;
    for (Operation &symbol : gpuModule.getBody()->getOperations())
      if (auto name = symbol.getAttrOfType<StringAttr>(
              SymbolTable::getSymbolAttrName()))
        taken.insert(name.getValue());
    DenseMap<Operation *, int64_t> counters;
    for (kernel::GraphDefOp op : kernels)
      if (auto func = op->getParentOfType<func::FuncOp>())
        recordReference(func);
    for (kernel::GraphDefOp op : kernels) {
      auto func = op->getParentOfType<func::FuncOp>();
      // Two functions may share a base ("a b" and "a_b"): the counter runs
      // on until the name is new in the kernel module.
      std::string base =
          kernelNameBase(func ? func.getSymName() : StringRef("kernel"));
      std::string name;
      do
        name = base + "_" + std::to_string(counters[func]++);
      while (!taken.insert(name).second);

      KernelEmitter emitter(op, threads, *gpu);
      if (failed(emitter.emit(gpuModule, name)))
        return signalPassFailure();

      ArrayRef<int64_t> grid = op.getGrid();
      SmallVector<int64_t> grid3(grid);
      grid3.resize(3, 1);
      b.setInsertionPoint(op);
      auto launch = kernel::LaunchOp::create(
          b, op.getLoc(), op.getResultTypes(), op.getInputs(),
          SymbolRefAttr::get(b.getContext(), "mirage_kernels",
                             {FlatSymbolRefAttr::get(b.getContext(), name)}),
          b.getDenseI64ArrayAttr(grid3),
          b.getDenseI64ArrayAttr({int64_t(threads), 1, 1}),
          b.getI64IntegerAttr(emitter.sharedBytes()));
      op->replaceAllUsesWith(launch);
      op->erase();
    }
  }
};
} // namespace
