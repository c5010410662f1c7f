//===- GraphDialect.h - graph dialect ---------------------------*- C++ -*-===//

#ifndef MIRAGE_DIALECT_GRAPH_GRAPHDIALECT_H
#define MIRAGE_DIALECT_GRAPH_GRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

// Operation kinds shared by all four levels (UnaryKind, BinaryKind, ...).
#include "mirage/Dialect/Graph/GraphEnums.h.inc"

namespace mirage {
/// Whether `kind` is a comparison (eq, ne, lt, le, gt, ge): its result is a
/// 0/1 mask, and it has no polynomial image in the finite-field test.
inline bool isComparison(BinaryKind kind) {
  switch (kind) {
  case BinaryKind::add:
  case BinaryKind::sub:
  case BinaryKind::mul:
  case BinaryKind::div:
    return false;
  case BinaryKind::eq:
  case BinaryKind::ne:
  case BinaryKind::lt:
  case BinaryKind::le:
  case BinaryKind::gt:
  case BinaryKind::ge:
    return true;
  }
  return false;
}
} // namespace mirage

#include "mirage/Dialect/Graph/GraphDialect.h.inc"

#endif // MIRAGE_DIALECT_GRAPH_GRAPHDIALECT_H
