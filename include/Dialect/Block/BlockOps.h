//===- BlockOps.h - block dialect operations --------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_BLOCK_BLOCKOPS_H
#define MIRAGE_DIALECT_BLOCK_BLOCKOPS_H

#include "Dialect/Block/BlockDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Dialect/Block/BlockOps.h.inc"

#endif // MIRAGE_DIALECT_BLOCK_BLOCKOPS_H
