//===- InputScales.h - input magnitudes of the floating-point checks -*- C++ -*-===//
//
// Inputs from [-1, 1) alone hide the formulations that overflow where
// programs really run: exp without its max subtraction overflows f16 once a
// logit exceeds 11.1, a sum of squares in an f16 tile once a row's RMS
// exceeds sqrt(65504 / n). The floating-point checks therefore run every
// candidate at a ladder of input scales s (inputs uniform in [-s, s)):
//
//   s = 1, 4, 16, 64, ... up to the largest power of 4 at or below the
//   square root of the largest finite value of the narrowest float type
//   anywhere in either program (f16: 64; bf16, f32: 2^62), at most
//   `maxScales` of them.
//
// Up to sqrt(max) every product of two inputs is finite in the dtype, so a
// rejection is about how the candidate combines them (an exp without its
// max subtraction, a sum of squares kept in f16), not about inputs at the
// edge of the dtype's range. The verifier also
// stops climbing once the original itself, in its own dtypes, is no longer
// finite at half the positions of any output (EquivalenceVerifier.cpp):
// the program's structure (how fast its values grow with the inputs) sets
// where the ladder ends.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_INPUTSCALES_H
#define MIRAGE_SUPEROPT_INPUTSCALES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

namespace mirage::superopt {

/// The ratio between consecutive input scales.
constexpr double kScaleRatio = 4.0;

struct ScaleLadder {
  llvm::SmallVector<double> scales;
  /// The narrowest float type of the two programs (null if none) and the
  /// largest scale at or below the square root of its largest value.
  mlir::Type narrowest;
  double ceiling = 1;
};

/// The scales for checking `candidate` against `original`; maxScales >= 1.
ScaleLadder planInputScales(mlir::func::FuncOp original,
                            mlir::func::FuncOp candidate, unsigned maxScales);

/// Index inputs (i32/i64 arguments: token ids, positions) are not scaled:
/// every check draws them uniformly from [0, bound), where bound is the
/// smallest extent any of their uses indexes (gather's data along its axis,
/// one_hot's depth) in either function, so every draw is a valid program
/// input; kIndexRangeWithoutUse when no use indexes anything.
constexpr int64_t kIndexRangeWithoutUse = 1 << 16;
int64_t indexInputBound(mlir::func::FuncOp original,
                        mlir::func::FuncOp candidate, unsigned argNumber);
/// Whether argument `argNumber` of `f` is an index input.
bool isIndexInput(mlir::func::FuncOp f, unsigned argNumber);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_INPUTSCALES_H
