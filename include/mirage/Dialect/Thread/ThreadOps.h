//===- ThreadOps.h - thread dialect operations ------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_THREAD_THREADOPS_H
#define MIRAGE_DIALECT_THREAD_THREADOPS_H

#include "mirage/Dialect/Thread/ThreadDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "mirage/Dialect/Thread/ThreadOps.h.inc"

#endif // MIRAGE_DIALECT_THREAD_THREADOPS_H
