//===- Interpreter.h - reference semantics of the four levels ---*- C++ -*-===//
//
// Executes a func.func whose body holds graph and kernel ops (graph-defined
// kernels with their block graphs and thread.fused chains included) on
// concrete inputs, in one of three arithmetics:
//
//  - fp64: every op in double precision;
//  - native: double precision, with each op's result rounded to the op's
//    own element type (f16, bf16, f32), so the program's precision loss shows;
//  - field: finite-field fingerprints (FieldArithmetic.h).
//
// The semantics of each level is in one file: GraphSemantics.cpp,
// KernelSemantics.cpp, BlockSemantics.cpp, ThreadSemantics.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_INTERPRETER_H
#define MIRAGE_SUPEROPT_INTERPRETER_H

#include "Superopt/Semantics/FieldArithmetic.h"
#include "Superopt/Semantics/RealArithmetic.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mirage::superopt {

/// Checks that `func` can be run: it has a body of one block. Emits a
/// diagnostic at the function otherwise.
mlir::LogicalResult checkInterpretable(mlir::func::FuncOp func);

/// Runs `func` on `inputs` (one per argument, shapes as the argument types)
/// in fp64 or, for RealMode::Native, in the program's own dtypes (inputs are
/// rounded to their argument's dtype first). On failure (an op without
/// semantics, a shape mismatch in the inputs) a diagnostic is emitted at the
/// offending op or function.
mlir::FailureOr<llvm::SmallVector<RealTensor>>
interpretReal(mlir::func::FuncOp func, llvm::ArrayRef<RealTensor> inputs,
              RealMode mode);

/// Runs `func` on finite-field inputs. `fieldInputs[i].q` may be empty when
/// the argument never reaches an exp. Ops without field semantics (max) give
/// a diagnostic; a division by zero in the field makes the result
/// inconclusive, reported through `arith.hitZeroDivisor()`.
mlir::FailureOr<llvm::SmallVector<FieldTensor>>
interpretField(mlir::func::FuncOp func, llvm::ArrayRef<FieldTensor> inputs,
               FieldArithmetic &arith);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_INTERPRETER_H
