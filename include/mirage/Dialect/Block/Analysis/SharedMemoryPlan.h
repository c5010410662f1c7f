//===- SharedMemoryPlan.h - where a block graph's tiles live ----*- C++ -*-===//
//
// The shared-memory plan of one block graph, as the code generator
// (block-to-gpu) lays it out: accumulators for the whole kernel, then the
// loop body's tiles, whose space the post-loop tiles reuse; each online
// softmax's scratch (P and the per-row rescale) in the loop; a tensor-core
// matmul summed by its only user keeps its accumulation in registers and
// takes no shared memory; a tensor-core matmul's operand tiles have padded
// rows (rowPitch). kernel-to-block (does a default block graph fit?)
// and the cost model (does a candidate fit, how many blocks per SM?) read
// the same plan, so the three cannot disagree about a kernel's footprint.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_ANALYSIS_SHAREDMEMORYPLAN_H
#define MIRAGE_DIALECT_BLOCK_ANALYSIS_SHAREDMEMORYPLAN_H

#include "mirage/Dialect/Block/BlockOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include <utility>

namespace mirage::block {

/// The element type a tile is stored in: accumulators other than concat
/// hold f32 whatever their type says (the sum of many f16 tiles must not be
/// rounded at every step).
mlir::Type tileStorageType(mlir::Value tile);

/// Whether a product of these operand storage types and this result rank
/// runs on tensor cores: f16 operands of rank 2 or 3 (one batch dimension),
/// on a chip with an f16 mma.sync.
bool runsOnTensorCores(mlir::Type lhs, mlir::Type rhs, int64_t rank,
                       bool chipHasF16Mma);
bool runsOnTensorCores(MatmulOp matmul, bool chipHasF16Mma);

struct SharedMemoryPlan {
  /// The block graph's parts, in order: the loop body (before the first
  /// accumulator), the accumulators, the ops after the loop, the savers.
  llvm::SmallVector<mlir::Operation *> loopBody, postLoop;
  llvm::SmallVector<AccumOp> accums;
  llvm::SmallVector<SoftmaxAccumOp> softmaxAccums;
  llvm::SmallVector<OutputOp> savers;
  /// Matmuls whose accumulation stays in registers, with their accumulator.
  llvm::MapVector<mlir::Operation *, AccumOp> registerMatmuls;
  /// Each tile's byte offset (16-byte aligned) in the dynamic shared memory.
  llvm::DenseMap<mlir::Value, int64_t> offsets;
  /// The row pitch, in elements, of the tiles stored with padded rows: the
  /// f16 operands of tensor-core matmuls whose rows are an even number of
  /// 16-byte units get one more, so that eight consecutive rows (an
  /// ldmatrix phase, or a fragment's rows) fall in distinct banks.
  llvm::DenseMap<mlir::Value, int64_t> rowPitch;
  /// Each online softmax's scratch: the offsets of P and of the rescale.
  llvm::DenseMap<mlir::Operation *, std::pair<int64_t, int64_t>>
      softmaxScratch;
  /// Bytes the accumulators take (live throughout), and the whole plan.
  int64_t persistentBytes = 0;
  int64_t bytes = 0;
};

/// The plan of the block graph `graph` (the body of a kernel.graph_def or
/// of a block-graph op), for a chip with or without an f16 mma.sync.
SharedMemoryPlan planSharedMemory(mlir::Block &graph, bool chipHasF16Mma);

} // namespace mirage::block

#endif // MIRAGE_DIALECT_BLOCK_ANALYSIS_SHAREDMEMORYPLAN_H
