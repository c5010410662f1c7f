//===- GraphDialect.h - graph dialect ---------------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_GRAPH_GRAPHDIALECT_H
#define MIRAGE_DIALECT_GRAPH_GRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

// Operation kinds shared by all four levels (UnaryKind, BinaryKind, ...).
#include "Dialect/Graph/GraphEnums.h.inc"

#include "Dialect/Graph/GraphDialect.h.inc"

#endif // MIRAGE_DIALECT_GRAPH_GRAPHDIALECT_H
