//===- VerifierPassOptions.cpp - the verifier options passes share --------===//

#include "mirage/Superopt/Verification/VerifierPassOptions.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include <cmath>

using namespace mlir;
using namespace mirage::superopt;

LogicalResult mirage::superopt::checkVerifierOptions(
    llvm::function_ref<InFlightDiagnostic()> error, unsigned fieldBits,
    unsigned scales, double verifyTimeLimit) {
  if (!std::isfinite(verifyTimeLimit) || verifyTimeLimit < 0)
    return error() << "verify-time-limit must be a number of seconds >= 0";
  if (fieldBits < 31 || fieldBits > 62)
    return error() << "field-bits must be between 31 and 62, got "
                   << fieldBits;
  if (scales < 1 || scales > 16)
    return error() << "scales must be between 1 and 16, got " << scales;
  return success();
}

mirage::superopt::VerifierOptions mirage::superopt::graphVerifierOptions(unsigned fieldBits,
                                                       uint64_t seed,
                                                       unsigned scales,
                                                       double verifyTimeLimit) {
  VerifierOptions verify;
  verify.fieldBits = fieldBits;
  verify.seed = seed;
  verify.maxScales = scales;
  if (verifyTimeLimit > 0)
    verify.shouldStop = stopAfterSeconds(verifyTimeLimit);
  return verify;
}
