//===- MirageDialects.h - register the four µGraph dialects -----*- C++ -*-===//

#ifndef MIRAGE_DIALECT_MIRAGEDIALECTS_H
#define MIRAGE_DIALECT_MIRAGEDIALECTS_H

#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace mirage {
/// Adds the graph, kernel, block and thread dialects to `registry`.
inline void registerMirageDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, kernel::KernelDialect,
                  block::BlockDialect, thread::ThreadDialect>();
}
} // namespace mirage

#endif // MIRAGE_DIALECT_MIRAGEDIALECTS_H
