//===- NumericComparison.cpp - when two floating-point results agree ------===//

#include "mirage/Superopt/Verification/NumericComparison.h"
#include "mlir/IR/BuiltinTypes.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace mirage;
using namespace mirage::superopt;

DtypeTolerance mirage::superopt::toleranceFor(mlir::Type elementType) {
  // Two of the smallest subnormals of the dtype, and where it overflows:
  // its largest value plus half the gap below it.
  double floor = 2 * std::numeric_limits<double>::denorm_min();
  double overflow = INFINITY;
  if (auto f = llvm::dyn_cast<mlir::FloatType>(elementType)) {
    const llvm::fltSemantics &semantics = f.getFloatSemantics();
    floor = 2 * llvm::APFloat::getSmallest(semantics).convertToDouble();
    if (!elementType.isF64()) {
      llvm::APFloat largest = llvm::APFloat::getLargest(semantics);
      llvm::APFloat below = largest;
      below.next(/*nextDown=*/true);
      double top = largest.convertToDouble();
      overflow = top + (top - below.convertToDouble()) / 2;
    }
  }
  if (elementType.isF16())
    return {1e-2, 1e-2, floor, overflow};
  if (elementType.isBF16())
    return {6e-2, 6e-2, floor, overflow};
  if (elementType.isF32())
    return {1e-5, 1e-5, floor, overflow};
  return {1e-12, 1e-12, floor, overflow};
}

double mirage::superopt::typicalMagnitude(const RealTensor &reference) {
  std::vector<double> magnitudes;
  magnitudes.reserve(reference.data.size());
  for (double v : reference.data)
    if (std::isfinite(v) && v != 0)
      magnitudes.push_back(std::fabs(v));
  if (magnitudes.empty())
    return 0;
  auto middle = magnitudes.begin() + magnitudes.size() / 2;
  std::nth_element(magnitudes.begin(), middle, magnitudes.end());
  return *middle;
}

/// Scores an error against its allowance into `c`; false if over it. Of
/// the failing positions `c` keeps the one with the largest reference
/// magnitude: where the original's value matters most.
static bool judge(Comparison &c, const RealTensor &reference, int64_t i,
                  double error, double allowed) {
  if (error == 0)
    return true;
  double units = allowed > 0 ? error / allowed : INFINITY;
  c.worst = std::max(c.worst, units);
  if (units <= 1)
    return true;
  auto magnitude = [&](int64_t j) {
    double r = std::fabs(reference.data[j]);
    return std::isnan(r) ? INFINITY : r;
  };
  if (!c.bad || magnitude(i) > magnitude(*c.bad)) {
    c.bad = i;
    c.allowed = allowed;
  }
  return false;
}

Comparison mirage::superopt::compareExact(const RealTensor &reference,
                                          const RealTensor &candidate,
                                          bool requireSameNonFinite) {
  Comparison c;
  c.total = reference.size();
  c.typical = typicalMagnitude(reference);
  for (int64_t i = 0; i < reference.size(); ++i) {
    double r = reference.data[i], x = candidate.data[i];
    if (!std::isfinite(r)) {
      if (!requireSameNonFinite)
        continue;
      ++c.judged;
      bool same = (std::isnan(r) && std::isnan(x)) || r == x;
      if (!same)
        judge(c, reference, i, INFINITY, 0);
      continue;
    }
    ++c.judged;
    double error = std::isfinite(x) ? std::fabs(x - r) : INFINITY;
    judge(c, reference, i, error, kFp64Tolerance * (std::fabs(r) + c.typical));
  }
  return c;
}

Comparison mirage::superopt::compareNative(const RealTensor &reference,
                                           const RealTensor &originalNative,
                                           const RealTensor &candidate,
                                           DtypeTolerance tol) {
  Comparison c;
  c.total = reference.size();
  c.typical = typicalMagnitude(reference);
  auto judged = [&](int64_t i) {
    return std::isfinite(reference.data[i]) &&
           std::fabs(reference.data[i]) < tol.overflow &&
           std::isfinite(originalNative.data[i]);
  };
  for (int64_t i = 0; i < reference.size(); ++i)
    if (judged(i))
      c.ownError = std::max(
          c.ownError, std::fabs(originalNative.data[i] - reference.data[i]));
  for (int64_t i = 0; i < reference.size(); ++i) {
    if (!judged(i))
      continue;
    ++c.judged;
    double r = reference.data[i], x = candidate.data[i];
    double allowed = tol.rtol * std::fabs(r) + tol.atol * c.typical +
                     tol.floor + kOwnErrorFactor * c.ownError;
    double error = std::isfinite(x) ? std::fabs(x - r) : INFINITY;
    // An infinity of r's sign is within the allowance where the allowed
    // band around r reaches the dtype's overflow: rounding noise that size
    // may carry any formulation over the edge.
    if (std::isinf(x) && std::signbit(x) == std::signbit(r) &&
        std::fabs(r) + allowed >= tol.overflow)
      error = 0;
    judge(c, reference, i, error, allowed);
  }
  return c;
}
