//===- VerifierPassOptions.h - the verifier options passes share -*- C++ -*-===//
//
// The checks and the meaning of the verifier options (field-bits, seed,
// scales, verify-time-limit) that the graph-optimizing passes declare with
// the records of VerifierPassOptions.td.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_VERIFICATION_VERIFIERPASSOPTIONS_H
#define MIRAGE_SUPEROPT_VERIFICATION_VERIFIERPASSOPTIONS_H

#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mirage {
namespace superopt {

/// Checks field-bits, scales and verify-time-limit; `error` starts a
/// diagnostic that names the pass.
mlir::LogicalResult
checkVerifierOptions(llvm::function_ref<mlir::InFlightDiagnostic()> error,
                     unsigned fieldBits, unsigned scales,
                     double verifyTimeLimit);

/// The verifier options those passes give the equivalence checks of their
/// results: the field's bits, the seed, the input scales and, when
/// `verifyTimeLimit` > 0, a stop after that many seconds.
VerifierOptions graphVerifierOptions(unsigned fieldBits, uint64_t seed,
                                     unsigned scales, double verifyTimeLimit);

} // namespace superopt
} // namespace mirage

#endif // MIRAGE_SUPEROPT_VERIFICATION_VERIFIERPASSOPTIONS_H
