//===- VerifierPassOptions.td - verifier options passes share -*- tablegen -*-===//
//
// The options of the equivalence verifier that every search pass which
// verifies its result repeats (docs/Verification.md), defined once.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_VERIFICATION_VERIFIERPASSOPTIONS_TD
#define MIRAGE_SUPEROPT_VERIFICATION_VERIFIERPASSOPTIONS_TD

include "mlir/Pass/PassBase.td"

def VerifierFieldBitsOption : Option<"fieldBits", "field-bits", "unsigned",
    "31", "Bits of the verifier's random prime q (31 to 62)">;
def VerifierSeedOption : Option<"seed", "seed", "uint64_t", "0",
    "Seed of the verification">;
def VerifierScalesOption : Option<"scales", "scales", "unsigned", "6",
    "Input scales of the verifier's floating-point checks (1 to 16)">;
def VerifierTimeLimitOption : Option<"verifyTimeLimit", "verify-time-limit",
    "double", "600", "Seconds per verification: a safety cut (0: none)">;

#endif // MIRAGE_SUPEROPT_VERIFICATION_VERIFIERPASSOPTIONS_TD
