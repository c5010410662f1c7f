//===- NumericComparison.h - when two floating-point results agree -*- C++ -*-===//
//
// The rules of the verifier's floating-point checks (docs/Verification.md,
// "Floating point"), on one output tensor:
//
//  - exact: the candidate in fp64 against the original in fp64, which must
//    agree to rounding: |c - r| <= rel (|r| + m), m the typical magnitude;
//  - native: the candidate in its own dtypes against the original in fp64,
//    allowed its dtype's tolerance plus twice the original's own error in
//    its own dtypes:
//      |c - r| <= rtol |r| + atol m + floor + 2 E,
//    where floor is two of the dtype's smallest subnormals (results that
//    underflow cannot be nearer than that) and E the largest error
//    |o - r| of the original in its own dtypes over the output's judged
//    positions, on the same inputs. E measures how much rounding the
//    original itself suffers here; its error at one position alone is one
//    draw of rounding noise, which can be near zero by chance where an
//    equally stable formulation's is not.
//    Positions where r or o is not finite, or where r itself overflows the
//    output's dtype, are not judged: there the original overflowed (or
//    stayed finite only by the luck of its rounding), and the input tells
//    nothing about the candidate. Everywhere else a non-finite c is an
//    error, but for an infinity of r's sign where the allowed band around
//    r reaches the dtype's overflow (|r| + allowance >= the overflow
//    threshold): rounding noise within the allowance can carry any
//    formulation over the edge.
//
// m is the median of the non-zero finite |r|: a typical output magnitude
// that one large element cannot inflate (the maximum could, and would hide
// errors in every other element).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_NUMERICCOMPARISON_H
#define MIRAGE_SUPEROPT_NUMERICCOMPARISON_H

#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mlir/IR/Types.h"
#include <cmath>
#include <optional>

namespace mirage::superopt {

/// Relative and absolute (in units of the typical magnitude) tolerance of a
/// native-dtype result against the fp64 reference, and the absolute floor
/// below which the dtype cannot resolve values.
struct DtypeTolerance {
  double rtol, atol;
  double floor = 0;
  /// The smallest magnitude that rounds to infinity in the dtype (its
  /// largest value plus half an ulp): an exact result this large has no
  /// finite value in the dtype.
  double overflow = INFINITY;
};
DtypeTolerance toleranceFor(mlir::Type elementType);

/// How much of its own error in its dtype the original lends the
/// candidate: the candidate may be this many times as far off as the
/// original's largest error in the output.
constexpr double kOwnErrorFactor = 2.0;

/// The relative tolerance of the fp64 check.
constexpr double kFp64Tolerance = 1e-9;

/// The median of the non-zero finite magnitudes of `reference` (0 when it
/// has none).
double typicalMagnitude(const RealTensor &reference);

struct Comparison {
  /// The worst error among the judged positions, in units of its allowance
  /// (at most 1 when nothing failed).
  double worst = 0;
  /// A position over its allowance: of those, the one where the
  /// reference has the largest magnitude.
  std::optional<int64_t> bad;
  /// At `bad`: the allowance and how it is made up (`ownError`: the
  /// original's largest error in its own dtypes over the output).
  double allowed = 0, typical = 0, ownError = 0;
  /// Positions judged (both the reference and the original finite).
  int64_t judged = 0, total = 0;
};

/// The exact check. With `requireSameNonFinite`, a position where the
/// reference is inf or NaN needs the same value from the candidate;
/// without, such a position is not judged.
Comparison compareExact(const RealTensor &reference,
                        const RealTensor &candidate,
                        bool requireSameNonFinite);

/// The native check of `candidate` (native dtypes) against `reference`
/// (the original in fp64), lending it the error of `originalNative` (the
/// original in its native dtypes).
Comparison compareNative(const RealTensor &reference,
                         const RealTensor &originalNative,
                         const RealTensor &candidate, DtypeTolerance tol);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_NUMERICCOMPARISON_H
