//===- KernelOps.h - kernel dialect operations ------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_KERNEL_KERNELOPS_H
#define MIRAGE_DIALECT_KERNEL_KERNELOPS_H

#include "mirage/Dialect/Kernel/KernelDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "mirage/Dialect/Kernel/KernelOps.h.inc"

#endif // MIRAGE_DIALECT_KERNEL_KERNELOPS_H
