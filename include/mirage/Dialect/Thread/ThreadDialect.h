//===- ThreadDialect.h - thread dialect -------------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_THREAD_THREADDIALECT_H
#define MIRAGE_DIALECT_THREAD_THREADDIALECT_H

#include "mirage/Dialect/Block/BlockDialect.h"
#include "mlir/IR/Dialect.h"

#include "mirage/Dialect/Thread/ThreadDialect.h.inc"

#endif // MIRAGE_DIALECT_THREAD_THREADDIALECT_H
