//===- EquivalenceVerifier.h - are two µGraph functions equal? --*- C++ -*-===//
//
// Checks that a candidate function computes what an original one does, by
// two independent methods (DESIGN.md, "Equivalence"):
//
//  1. Mirage's finite-field test, when both functions are in the LAX
//     fragment (FieldFragment.h): each test runs both on fresh random
//     inputs over Z_p x Z_q. Unequal programs agree on one test with
//     probability at most eps = 8 d k^4 / q, where d is the larger output
//     degree and k the number of exp and uninterpreted-function sites of
//     both programs together; after T independent tests at most eps^T. By
//     default T is the smallest count with eps^T < 2^-60.
//  2. Floating point: both run in fp64 on the same random inputs (exactly
//     representable in the argument dtypes) and must agree to 1e-9
//     relative; the candidate then runs in its native dtypes and must stay
//     within that dtype's tolerance of the original's fp64 result, which
//     rejects numerically unstable rewrites.
//
// Programs outside the fragment (max, two exps on a path) get method 2
// only, which gives no probability bound: a weaker guarantee.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_EQUIVALENCEVERIFIER_H
#define MIRAGE_SUPEROPT_EQUIVALENCEVERIFIER_H

#include "Superopt/Semantics/RealArithmetic.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>

namespace mirage::superopt {

struct VerifierOptions {
  /// Bits of the exponent prime q (31 to 62); p = k q + 1.
  unsigned fieldBits = 31;
  /// Field tests to run; 0 picks the fewest that reach `targetLog2Bound`.
  unsigned fieldTests = 0;
  double targetLog2Bound = -60.0;
  /// Random input sets for the floating-point check.
  unsigned realTests = 1;
  uint64_t seed = 0;
  /// Run the floating-point checks before the field tests. The search sets
  /// it: its rejected candidates (an f16 overflow, say) fail the native
  /// check, and failing it first saves every field test. The verdict and
  /// the report of an accepted pair do not change.
  /// In that mode the native-dtype run also comes before the candidate's
  /// fp64 run, so a rejection costs two interpretations.
  bool realTestsFirst = false;
  /// fp64 outputs of the original per real test, filled on first use and
  /// reused by later calls with the same original and seed (the search
  /// checks every composed µGraph against one default schedule). Null: not
  /// kept. The caller owns it and must not share it between originals.
  std::map<unsigned, llvm::SmallVector<RealTensor>> *originalOutputs = nullptr;
  /// Where to print a line per test as it finishes (null: quiet).
  llvm::raw_ostream *progress = nullptr;
};

/// Relative and absolute (scaled by the largest reference magnitude)
/// tolerance of a native-dtype result against the fp64 reference.
struct DtypeTolerance {
  double rtol, atol;
};
DtypeTolerance toleranceFor(mlir::Type elementType);

struct Mismatch {
  std::string method; // "finite-field test 2 of 3", "fp64", "f16"
  unsigned output = 0;
  llvm::SmallVector<int64_t> position;
  std::string originalValue, candidateValue;
  std::string detail; // the tolerance or modulus
};

struct VerificationReport {
  bool equivalent = false;
  std::optional<Mismatch> mismatch;

  // The finite-field test.
  bool fieldApplied = false;
  mlir::Operation *outsideFragment = nullptr; // why it was not applied
  std::string outsideReason;
  uint64_t p = 0, q = 0;
  uint64_t degree = 0;
  unsigned applications = 0;
  unsigned fieldTests = 0;
  double log2BoundPerTest = 0, log2Bound = 0;

  // The floating-point check.
  unsigned realTests = 0;
  double fp64MaxRelError = 0;
  double nativeMaxError = 0; // in units of the dtype tolerance (<= 1 passes)

  /// One line: the method, the tests and the bound achieved.
  std::string summary() const;
};

/// Fails (with a diagnostic) only when the functions cannot be compared or
/// run: different signatures, an op the interpreter cannot execute.
mlir::FailureOr<VerificationReport>
verifyEquivalence(mlir::func::FuncOp original, mlir::func::FuncOp candidate,
                  const VerifierOptions &options);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_EQUIVALENCEVERIFIER_H
