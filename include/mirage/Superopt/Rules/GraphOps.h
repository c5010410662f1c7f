//===- GraphOps.h - rule ops as graph-dialect ops and back ------*- C++ -*-===//
//
// The bridge between a rule op (OpKind and its integer attributes, laid out
// as RuleIR.h says) and the graph-dialect op it stands for. Rule files,
// matching and the search all cross it, in both directions.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_GRAPHOPS_H
#define MIRAGE_SUPEROPT_RULES_GRAPHOPS_H

#include "mirage/Superopt/Rules/RuleIR.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mirage::rules {

/// A graph op read as a rule op: its kind, integer attributes, scalar
/// (scalar_mul, scalar_add), split sizes or reshape target.
struct GraphOpInfo {
  OpKind kind;
  IntAttrs ints;
  double scalar = 0;
  llvm::SmallVector<int64_t, 4> shape;
};

/// The rule op `op` is, or nothing (then `why` says why: another op, a
/// concat of three tensors, ...).
std::optional<GraphOpInfo> readGraphOp(mlir::Operation *op, std::string &why);

/// Builds the graph op of a rule op; `shape` is a split's sizes (a
/// reshape's target comes from its result type). The result types are the
/// caller's (from inferShapes).
mlir::Operation *buildGraphOp(mlir::OpBuilder &b, mlir::Location loc,
                              OpKind kind, llvm::ArrayRef<int64_t> ints,
                              double scalar, llvm::ArrayRef<int64_t> shape,
                              mlir::ValueRange operands,
                              mlir::TypeRange resultTypes);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_GRAPHOPS_H
