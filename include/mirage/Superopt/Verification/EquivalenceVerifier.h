//===- EquivalenceVerifier.h - are two µGraph functions equal? --*- C++ -*-===//
//
// Checks that a candidate function computes what an original one does, by
// two independent methods (docs/Verification.md):
//
//  1. Mirage's finite-field test, when both functions are in the LAX
//     fragment (FieldFragment.h): each test runs both on fresh random
//     inputs over Z_p x Z_q, with q a random prime of `fieldBits` bits drawn
//     afresh for every verification (from the seed and the two programs).
//     Unequal programs agree on one test with probability at most
//     eps = 8 d k^4 / q, where d is the larger output degree and k the
//     number of exp and uninterpreted-function sites of both programs
//     together; after T independent tests at most eps^T. By default T is
//     the smallest count with eps^T < 2^-60. The bound assumes that no
//     constant of either program vanishes or collides with another in the
//     fields: the verifier checks that, draws another pair if one does, and
//     gives up the field test (floating point only, with a warning) when a
//     constant is inf or NaN or no clean pair is found.
//  2. Floating point, at a ladder of input scales (InputScales.h): the
//     candidate in fp64 must agree with the original in fp64 to rounding,
//     and the candidate in its native dtypes must stay within its dtype's
//     tolerance of the original's fp64 result, or not be meaningfully
//     worse than the original in its own dtypes (NumericComparison.h).
//     This rejects rewrites that are exact in the reals but overflow,
//     underflow or cancel in their dtype where the original does not.
//
// Programs outside the fragment (two exps on a path) get method 2
// only, with more input sets, which gives no probability bound: a weaker
// guarantee.
//
// A caller can bound the work: a stop request asked between runs and
// between interpreted ops, and a memory limit checked before each run.
// When one binds, the report says the verification was interrupted, and
// why: neither equivalent nor a mismatch.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_EQUIVALENCEVERIFIER_H
#define MIRAGE_SUPEROPT_EQUIVALENCEVERIFIER_H

#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mirage/Superopt/Verification/NumericComparison.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mirage::superopt {

struct VerifierOptions {
  /// Bits of the exponent prime q (31 to 62); p = 2 q + 1.
  unsigned fieldBits = 31;
  /// Field tests to run; 0 picks the fewest that reach `targetLog2Bound`.
  unsigned fieldTests = 0;
  double targetLog2Bound = -60.0;
  /// Random input sets per input scale for the floating-point checks when
  /// the field test decides (0: no floating-point check then).
  unsigned realTests = 1;
  /// Input sets per scale, at least, when the floating-point checks decide
  /// alone (a program outside the field fragment, or a field test given up).
  unsigned floatOnlyRealTests = 3;
  /// The most input scales the floating-point checks climb (1, 4, 16, ...;
  /// InputScales.h).
  unsigned maxScales = 6;
  /// Run the finite-field test when both programs are in its fragment.
  /// False: floating-point checks only, as outside the fragment. For pairs
  /// that differ by an identity of an uninterpreted function (relu(relu(x))
  /// and relu(x)), which the field test cannot see.
  bool fieldTest = true;
  /// Why the caller turned the field test off, for the report
  /// (VerificationReport::fieldSkipped); empty: "turned off by the caller".
  std::string fieldTestOffReason;
  /// Seeds the inputs and the prime pair.
  uint64_t seed = 0;
  /// A prime pair (p, q) to try first instead of a random one, to reproduce
  /// a report; like a random pair it is replaced when a constant vanishes
  /// or two collide in it. Nothing: random pairs only.
  std::optional<std::pair<uint64_t, uint64_t>> firstPair;
  /// Run the floating-point checks before the field tests. The search sets
  /// it: its rejected candidates (an f16 overflow, say) fail the native
  /// check, and failing it first saves every field test. The verdict and
  /// the report of an accepted pair do not change.
  /// In that mode the native-dtype run also comes before the candidate's
  /// fp64 run, so a rejection costs few interpretations.
  bool realTestsFirst = false;
  /// The original's outputs (fp64 and native, per scale and input set),
  /// filled on first use and reused by later calls with the same original
  /// and seed (the search checks every composed µGraph against one default
  /// schedule). The keys are the verifier's own. Null: not kept. The caller
  /// owns it and must not share it between originals.
  std::map<unsigned, llvm::SmallVector<RealTensor>> *originalOutputs = nullptr;
  /// Where to print a line per test as it finishes (null: quiet).
  llvm::raw_ostream *progress = nullptr;
  /// Asked between tests and between interpreted ops (and blocks of a
  /// graph-defined kernel); true stops the verification, which then
  /// reports itself interrupted. Empty: never.
  std::function<bool()> shouldStop;
  /// Bytes the verification may hold: its inputs and kept outputs plus the
  /// estimated peak of each interpreter run, checked before the run. 0: the
  /// machine's physical memory.
  uint64_t memoryLimitBytes = 0;
  /// Verify on one or two groups of slices of a dimension along which both
  /// functions are proven uniform (UniformDimension.h), when there is one;
  /// at full size otherwise. The bound is the same: the pair computes every
  /// group by the same function, which the reduced instance tests.
  bool reduceUniformDimension = false;
};

struct Mismatch {
  std::string method; // "finite-field test 2 of 3", "fp64", "f16"
  unsigned output = 0;
  llvm::SmallVector<int64_t> position;
  std::string originalValue, candidateValue;
  std::string detail; // the tolerance or modulus
  /// The input scale of a floating-point mismatch (0 for the field test).
  double scale = 0;
};

struct VerificationReport {
  /// Exactly one of: equivalent, a mismatch, interrupted.
  bool equivalent = false;
  std::optional<Mismatch> mismatch;
  /// Why the verification stopped before a verdict (the caller's stop
  /// request, or the memory limit).
  std::optional<std::string> interrupted;

  /// Non-empty when the pair was verified on fewer slices of a uniform
  /// dimension (VerifierOptions::reduceUniformDimension): which, and why
  /// that is sound for these two functions. Positions in a mismatch are
  /// those of the reduced instance.
  std::string reduction;
  /// Non-empty when a reduction was asked for but not made: why not.
  std::string notReduced;

  // The finite-field test.
  bool fieldApplied = false;              // it ran and decided
  mlir::Operation *outsideFragment = nullptr; // why it could not run
  std::string outsideReason;
  /// Non-empty when the test ran but was given up (a non-finite constant,
  /// no prime pair keeping the constants apart): why.
  std::string fieldAbandoned;
  /// Non-empty when the caller turned the field test off
  /// (VerifierOptions::fieldTest): why.
  std::string fieldSkipped;
  /// Prime pairs drawn that had to be replaced, and why (a constant
  /// vanishing or two colliding): one line each, for warnings.
  std::vector<std::string> fieldRedraws;
  uint64_t p = 0, q = 0;
  uint64_t primeSeed = 0; // the seed of the pair's draw
  bool primesGiven = false; // VerifierOptions::firstPair decided
  unsigned primeDraws = 0;
  double log2PairCount = 0; // how many pairs the draw chose from
  unsigned constants = 0;   // distinct constants embedded
  uint64_t degree = 0;
  unsigned applications = 0;
  unsigned fieldTests = 0;
  double log2BoundPerTest = 0, log2Bound = 0;

  // The floating-point checks.
  unsigned realTests = 0; // input sets per scale
  /// The input scales that ran, and the fraction of output positions the
  /// original kept finite at each (the judged ones).
  llvm::SmallVector<double> scales, judgedFraction;
  /// Why the ladder ended before its last scale ("" if it did not).
  std::string ladderStop;
  std::string narrowestType;
  double fp64MaxRelError = 0;
  double nativeMaxError = 0; // in units of the allowance (<= 1 passes)

  bool floatOnly() const { return !fieldApplied; }
  /// One line: the method, the tests, the primes, the scales and the bound
  /// (led by the difference or the interruption, if there is one).
  std::string summary() const;
};

/// Fails (with a diagnostic) only when the functions cannot be compared or
/// run: different signatures, an op the interpreter cannot execute, a value
/// too large to interpret.
mlir::FailureOr<VerificationReport>
verifyEquivalence(mlir::func::FuncOp original, mlir::func::FuncOp candidate,
                  const VerifierOptions &options);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_EQUIVALENCEVERIFIER_H
