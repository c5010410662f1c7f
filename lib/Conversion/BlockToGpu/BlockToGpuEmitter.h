//===- BlockToGpuEmitter.h - block-to-gpu's kernel emitter ------*- C++ -*-===//
//
// Private to block-to-gpu: the emitter of one graph-defined kernel's
// gpu.func, whose member functions are defined by op family in
// BlockToGpu*.cpp (the pass, memory plan and kernel skeleton in
// BlockToGpu.cpp; copies, elementwise ops, reductions, online softmax and
// matmuls in their own files).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_BLOCKTOGPUEMITTER_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_BLOCKTOGPUEMITTER_H

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Dialect/Block/Analysis/SharedMemoryPlan.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mirage/Target/GpuChip.h"
#include "mirage/Conversion/ThreadToArith/ThreadToArith.h"
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
#include "llvm/ADT/MapVector.h"
#include <limits>

namespace mirage {
namespace blocktogpu {

using namespace mlir;

/// The element count of a tile or tensor whose size plan() checked.
inline int64_t product(ArrayRef<int64_t> dims) {
  std::optional<int64_t> n = checkedElementCount(dims);
  assert(n && "a shape the memory plan did not check");
  return n.value_or(std::numeric_limits<int64_t>::max());
}

inline int64_t byteWidth(Type t) { return t.getIntOrFloatBitWidth() / 8; }


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
  DenseMap<Value, int64_t> rowPitch; // padded tiles -> row pitch (elements)
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

} // namespace blocktogpu
} // namespace mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_BLOCKTOGPUEMITTER_H
