//===- KernelDialect.h - kernel dialect -------------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_KERNEL_KERNELDIALECT_H
#define MIRAGE_DIALECT_KERNEL_KERNELDIALECT_H

#include "mirage/Dialect/Block/BlockDialect.h"
#include "mlir/IR/Dialect.h"

#include "mirage/Dialect/Kernel/KernelDialect.h.inc"

#endif // MIRAGE_DIALECT_KERNEL_KERNELDIALECT_H
