//===- AxiomChecker.h - test axioms on concrete instances -------*- C++ -*-===//
//
// An axiom is only as good as its truth: each one's concrete instance (two
// graph-dialect functions @lhs and @rhs on small shapes) is run by the
// reference interpreter in fp64 on seeded random inputs, and the results
// must agree to |a - b| <= tolerance * (1 + |b|) elementwise. A false axiom
// shows as a mismatch; a malformed instance is an error.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_AXIOMCHECKER_H
#define MIRAGE_SUPEROPT_AXIOMCHECKER_H

#include "mirage/Superopt/Axioms/OperatorAxioms.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace mirage::superopt {

struct AxiomCheckOptions {
  /// Seed of the first trial; trial i uses seed + i.
  uint64_t seed = 20190527;
  /// Independent random input sets.
  unsigned trials = 3;
  /// Relative tolerance of the elementwise comparison.
  double tolerance = 1e-9;
};

struct AxiomCheckResult {
  /// Every element of every trial agreed within the tolerance.
  bool holds = false;
  /// The largest |a - b| / (1 + |b|) seen (NaN when a result was NaN).
  double worstError = 0;
  /// Where it failed: the trial, result and element, with both values.
  std::string mismatch;
};

/// Checks an instance: `source` holds @lhs and @rhs with the same function
/// type; inputs are drawn uniformly from [inputLow, inputHigh]. The dialects
/// it needs are loaded into `ctx`. Errors: the source does not parse or
/// verify, a function is missing, the types differ, the two functions have
/// identical bodies (the instance would prove nothing), or the interpreter
/// fails.
llvm::Expected<AxiomCheckResult>
checkAxiomInstance(llvm::StringRef source, double inputLow, double inputHigh,
                   mlir::MLIRContext &ctx,
                   const AxiomCheckOptions &options = {});

/// checkAxiomInstance on an axiom's instance and input range.
llvm::Expected<AxiomCheckResult>
checkAxiom(const OperatorAxiom &axiom, mlir::MLIRContext &ctx,
           const AxiomCheckOptions &options = {});

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_AXIOMCHECKER_H
