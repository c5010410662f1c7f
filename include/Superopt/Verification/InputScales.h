//===- InputScales.h - input magnitudes of the floating-point checks -*- C++ -*-===//
//
// Inputs from [-1, 1) alone hide the formulations that overflow where
// programs really run: exp without its max subtraction overflows f16 once a
// logit exceeds 11.1, a sum of squares in an f16 tile once a row's RMS
// exceeds sqrt(65504 / n). The floating-point checks therefore run every
// candidate at a ladder of input scales s (inputs uniform in [-s, s)):
//
//   s = 1, 4, 16, 64, ... up to the first power of 4 at or above the square
//   root of the largest finite value of the narrowest float type anywhere
//   in either program (f16: 256; bf16, f32: 2^64), at most `maxScales` of
//   them.
//
// Beyond sqrt(max) a single product of two inputs overflows the dtype, so
// the original overflows too and the scale tells nothing. The verifier also
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
  /// scale its square root of the largest finite value rounds up to.
  mlir::Type narrowest;
  double ceiling = 1;
};

/// The scales for checking `candidate` against `original`; maxScales >= 1.
ScaleLadder planInputScales(mlir::func::FuncOp original,
                            mlir::func::FuncOp candidate, unsigned maxScales);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_INPUTSCALES_H
