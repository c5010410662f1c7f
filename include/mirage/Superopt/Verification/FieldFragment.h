//===- FieldFragment.h - which programs the field verifier covers -*- C++
//-*-===//
//
// Mirage's finite-field test is sound for the LAX fragment: multilinear ops,
// division, and at most one exp on any input-to-output path. This analysis
// decides whether a µGraph function is in it (extended with the
// uninterpreted unary functions and the uninterpreted max of
// FieldArithmetic.h), and measures what the false-positive bound needs:
//
//  - degree: the largest total degree of an output as a rational function of
//    the inputs, where each exp, uninterpreted or max application counts as
//    a fresh variable of degree 1 (a quotient a/b counts deg a + deg b);
//  - applications: the number of exp, uninterpreted-function and max op
//    sites.
//
// It also finds the values whose exponent part (Z_q) must be computed:
// exactly those on a path into an exp.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_FIELDFRAGMENT_H
#define MIRAGE_SUPEROPT_FIELDFRAGMENT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"
#include <string>

namespace mirage::superopt {

struct FieldFragment {
  /// Null when the function is in the fragment; otherwise the first op that
  /// takes it out, and why.
  mlir::Operation *offender = nullptr;
  std::string reason;

  uint64_t degree = 1;
  unsigned applications = 0;
  /// Values (at every level) that need their Z_q part.
  llvm::DenseSet<mlir::Value> needExponent;

  bool isLax() const { return offender == nullptr; }
};

FieldFragment analyzeFieldFragment(mlir::func::FuncOp func);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_FIELDFRAGMENT_H
