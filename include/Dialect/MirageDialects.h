//===- MirageDialects.h - register the four µGraph dialects -----*- C++ -*-===//

#ifndef MIRAGE_DIALECT_MIRAGEDIALECTS_H
#define MIRAGE_DIALECT_MIRAGEDIALECTS_H

#include "Dialect/Block/BlockOps.h"
#include "Dialect/Graph/GraphOps.h"
#include "Dialect/Kernel/KernelOps.h"
#include "Dialect/Thread/ThreadOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace mirage {
/// Adds the graph, kernel, block and thread dialects to `registry`.
inline void registerMirageDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, kernel::KernelDialect,
                  block::BlockDialect, thread::ThreadDialect>();
}
} // namespace mirage

#endif // MIRAGE_DIALECT_MIRAGEDIALECTS_H
