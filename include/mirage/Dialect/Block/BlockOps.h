//===- BlockOps.h - block dialect operations --------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_BLOCK_BLOCKOPS_H
#define MIRAGE_DIALECT_BLOCK_BLOCKOPS_H

#include "mirage/Dialect/Block/BlockDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mirage::block {
/// Whether `accumulator` may hold sums of `elementType` values: the same type,
/// or f32 for f16 and bf16 (block.matmul, block.reduce and block.accum
/// results; block.output rounds such a tile back to its tensor's type).
bool isAccumulatorType(mlir::Type elementType, mlir::Type accumulator);
} // namespace mirage::block

#define GET_OP_CLASSES
#include "mirage/Dialect/Block/BlockOps.h.inc"

#endif // MIRAGE_DIALECT_BLOCK_BLOCKOPS_H
