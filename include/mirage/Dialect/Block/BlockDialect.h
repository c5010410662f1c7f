//===- BlockDialect.h - block dialect ---------------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_BLOCK_BLOCKDIALECT_H
#define MIRAGE_DIALECT_BLOCK_BLOCKDIALECT_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "mirage/Dialect/Block/BlockDialect.h.inc"
#include "mirage/Dialect/Block/BlockEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mirage/Dialect/Block/BlockTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mirage/Dialect/Block/BlockAttrs.h.inc"

namespace mirage::block {
class BlockGraphOpInterface;

namespace OpTrait {
/// Verifies that the op sits directly in a block graph, i.e. its parent
/// implements BlockGraphOpInterface.
mlir::LogicalResult verifyInBlockGraph(mlir::Operation *op);

template <typename ConcreteType>
class InBlockGraph
    : public mlir::OpTrait::TraitBase<ConcreteType, InBlockGraph> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInBlockGraph(op);
  }
};

/// A for-loop accumulator: it combines loop-body tiles over all iterations
/// and its results are available after the loop (BlockGraphVerifier.cpp).
template <typename ConcreteType>
class LoopAccumulator
    : public mlir::OpTrait::TraitBase<ConcreteType, LoopAccumulator> {};
} // namespace OpTrait

/// Whether `op` is a for-loop accumulator.
inline bool isLoopAccumulator(mlir::Operation *op) {
  return op->hasTrait<OpTrait::LoopAccumulator>();
}

/// The grid and for-loop range of the block graph that holds `op`, when they
/// are well formed (the holder reports them otherwise).
struct GridInfo {
  llvm::ArrayRef<int64_t> grid;
  int64_t forloop;
};
mlir::FailureOr<GridInfo> getGridInfo(mlir::Operation *op);

/// Checks the structure of the block graph held by `op` (which implements
/// BlockGraphOpInterface); see BlockGraphVerifier.cpp for the rules.
mlir::LogicalResult verifyBlockGraph(mlir::Operation *op);
} // namespace mirage::block

#include "mirage/Dialect/Block/BlockInterfaces.h.inc"

#endif // MIRAGE_DIALECT_BLOCK_BLOCKDIALECT_H
