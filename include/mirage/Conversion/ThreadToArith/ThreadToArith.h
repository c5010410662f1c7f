//===- ThreadToArith.h - thread -> arith ------------------------*- C++ -*-===//
//
// The thread level's scalar semantics as f32 arith and math ops
// (--thread-to-arith); block-to-gpu builds unfused elementwise ops with the
// same functions, so one definition says what each op computes on a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_THREADTOARITH_THREADTOARITH_H
#define MIRAGE_CONVERSION_THREADTOARITH_THREADTOARITH_H

#include "mirage/Dialect/Graph/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/ArrayRef.h"

namespace mirage {

#define GEN_PASS_DECL_THREADTOARITH
#include "mirage/Conversion/Passes.h.inc"

/// `kind` with its parameters applied to the f32 `x`.
mlir::Value buildScalarUnary(mlir::OpBuilder &b, mlir::Location loc,
                             UnaryKind kind, llvm::ArrayRef<double> params,
                             mlir::Value x);
/// `kind` applied to two f32 values.
mlir::Value buildScalarBinary(mlir::OpBuilder &b, mlir::Location loc,
                              BinaryKind kind, mlir::Value lhs,
                              mlir::Value rhs);
/// cond != 0 ? onTrue : onFalse (select).
mlir::Value buildScalarSelect(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value cond, mlir::Value onTrue,
                              mlir::Value onFalse);

} // namespace mirage

#endif // MIRAGE_CONVERSION_THREADTOARITH_THREADTOARITH_H
