//===- EquivalenceVerifier.cpp - are two µGraph functions equal? ----------===//
//
// The order of the methods, the caller's limits and the one-line summary.
// The methods themselves: FieldTests.cpp and FloatChecks.cpp.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mirage/Superopt/Verification/UniformDimension.h"
#include "VerificationRun.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <charconv>
#include <cmath>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

std::string mirage::superopt::formatExact(double x) {
  if (std::isnan(x))
    return "nan"; // whatever its sign bit
  char buffer[32];
  std::to_chars_result r = std::to_chars(buffer, buffer + sizeof(buffer), x);
  return std::string(buffer, r.ptr);
}

std::string mirage::superopt::formatShort(double x) {
  return llvm::formatv("{0}", llvm::format("%.3g", x)).str();
}

uint64_t mirage::superopt::bytesOf(ArrayRef<FieldTensor> tensors) {
  uint64_t n = 0;
  for (const FieldTensor &t : tensors) {
    n += (t.p.data.size() + t.q.data.size()) * sizeof(uint64_t);
    for (const Tensor<uint64_t> &key : t.maxKey)
      n += key.data.size() * sizeof(uint64_t);
  }
  return n;
}

//===----------------------------------------------------------------------===//
// VerificationRun
//===----------------------------------------------------------------------===//

VerificationRun::VerificationRun(func::FuncOp original, func::FuncOp candidate,
                                 const VerifierOptions &options,
                                 VerificationReport &report)
    : original(original), candidate(candidate), options(options),
      report(report),
      memoryLimit(options.memoryLimitBytes ? options.memoryLimitBytes
                                           : physicalMemoryBytes()) {}

bool VerificationRun::stopRequested() {
  if (report.interrupted)
    return true;
  if (!options.shouldStop || !options.shouldStop())
    return false;
  report.interrupted = "stopped by the caller's request";
  return true;
}

void VerificationRun::interrupted(const RunInterruption &why) {
  if (why.kind == RunInterruption::Kind::Stopped)
    report.interrupted = "stopped by the caller's request";
  else
    report.interrupted = "over the memory limit: " + why.reason;
}

bool VerificationRun::admit(uint64_t bytes, StringRef what) {
  if (bytes <= memoryLimit)
    return true;
  report.interrupted = llvm::formatv(
      "over the memory limit: {0} need about {1}, more than the memory limit "
      "of {2}",
      what, formatByteCount(bytes), formatByteCount(memoryLimit));
  return false;
}

std::optional<InterpreterLimits>
VerificationRun::limitsFor(uint64_t heldBytes) {
  if (!admit(heldBytes, "the inputs and outputs the verification holds"))
    return std::nullopt;
  InterpreterLimits limits;
  limits.memoryBytes = memoryLimit - heldBytes;
  limits.shouldStop = options.shouldStop;
  return limits;
}

FailureOr<SmallVector<RealTensor>>
VerificationRun::runReal(func::FuncOp f, ArrayRef<RealTensor> inputs,
                         RealMode mode, uint64_t heldBytes) {
  std::optional<InterpreterLimits> limits = limitsFor(heldBytes);
  if (!limits)
    return failure();
  RunInterruption why;
  auto result = interpretReal(f, inputs, mode, *limits, &why);
  if (why)
    interrupted(why);
  return result;
}

FailureOr<SmallVector<FieldTensor>>
VerificationRun::runField(func::FuncOp f, ArrayRef<FieldTensor> inputs,
                          FieldArithmetic &arith, uint64_t heldBytes) {
  std::optional<InterpreterLimits> limits = limitsFor(heldBytes);
  if (!limits)
    return failure();
  RunInterruption why;
  auto result = interpretField(f, inputs, arith, *limits, &why);
  if (why)
    interrupted(why);
  return result;
}

//===----------------------------------------------------------------------===//
// The summary
//===----------------------------------------------------------------------===//

static std::string formatScale(double s) { return formatExact(s); }

std::string VerificationReport::summary() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (interrupted)
    os << "interrupted (" << *interrupted << "); ";
  if (!reduction.empty())
    os << "on a reduced instance, " << reduction << ": ";
  if (mismatch) {
    os << "differs: output #" << mismatch->output << " at [";
    llvm::interleaveComma(mismatch->position, os);
    os << "] in the " << mismatch->method << ": " << mismatch->originalValue
       << " vs " << mismatch->candidateValue << " (" << mismatch->detail
       << "); ";
  }
  if (fieldApplied) {
    os << llvm::formatv("finite-field test: {0} test{1} over p = {2}, q = {3} ",
                        fieldTests, fieldTests == 1 ? "" : "s", p, q);
    if (primesGiven)
      os << "(primes given by the caller";
    else
      os << llvm::formatv("(random primes, q drawn with seed {0:x16} from "
                          "about 2^{1:f1} {2}-bit choices",
                          primeSeed, log2PairCount, 64 - __builtin_clzll(q));
    if (primeDraws > 1)
      os << llvm::formatv(", the {0} before it discarded", primeDraws - 1);
    os << llvm::formatv("; {0} constant{1}, none vanishing or colliding; "
                        "degree {2}, {3} exp/uninterpreted/max sites), "
                        "false-positive bound 2^{4:f1}",
                        constants, constants == 1 ? "" : "s", degree,
                        applications, log2Bound);
  } else if (outsideFragment) {
    os << "finite-field test not applicable (" << outsideReason
       << "): floating-point checks only, a weaker guarantee with no "
          "probability bound";
  } else if (!fieldSkipped.empty()) {
    os << "finite-field test not run (" << fieldSkipped
       << "): floating-point checks only, a weaker guarantee with no "
          "probability bound";
  } else if (!fieldAbandoned.empty()) {
    os << "finite-field test given up (" << fieldAbandoned
       << "): floating-point checks only, a weaker guarantee with no "
          "probability bound";
  } else {
    os << "finite-field test not run";
  }
  if (realTests == 0) {
    os << "; floating-point checks skipped (real-tests = 0): the numerics "
          "of the program's dtypes are not checked";
    return s;
  }
  if (scales.empty())
    return s;
  os << llvm::formatv("; floating point: {0} input set{1} at input scale{2} ",
                      realTests, realTests == 1 ? "" : "s",
                      scales.size() == 1 ? "" : "s");
  for (auto [i, scale] : llvm::enumerate(scales)) {
    if (i)
      os << ", ";
    os << formatScale(scale);
    if (judgedFraction[i] < 1)
      os << llvm::formatv(" ({0:f0}% judged)", 100 * judgedFraction[i]);
  }
  if (!narrowestType.empty())
    os << " (" << narrowestType << " ladder)";
  if (!ladderStop.empty())
    os << ", " << ladderStop;
  os << llvm::formatv("; fp64: max relative error {0:e1}; native dtypes: max "
                      "error {1:f2} of allowance",
                      fp64MaxRelError, nativeMaxError);
  return s;
}

//===----------------------------------------------------------------------===//
// verifyEquivalence
//===----------------------------------------------------------------------===//

static LogicalResult checkSignatures(func::FuncOp original,
                                     func::FuncOp candidate) {
  FunctionType a = original.getFunctionType(), b = candidate.getFunctionType();
  if (a == b)
    return success();
  return candidate.emitError("cannot compare @")
         << candidate.getSymName() << " with @" << original.getSymName()
         << ": their types differ (" << b << " vs " << a << ")";
}

FailureOr<VerificationReport>
mirage::superopt::verifyEquivalence(func::FuncOp original,
                                    func::FuncOp candidate,
                                    const VerifierOptions &options) {
  if (failed(checkInterpretable(original)) ||
      failed(checkInterpretable(candidate)) ||
      failed(checkSignatures(original, candidate)))
    return failure();
  std::string notReduced;
  if (options.reduceUniformDimension) {
    std::optional<UniformDimension> dim =
        findUniformDimension(original, candidate, &notReduced);
    FailureOr<ReducedPair> reduced = failure();
    if (dim) {
      reduced = shrinkUniformDimension(original, candidate, *dim);
      if (failed(reduced))
        notReduced = "the reduced copies did not pass the IR verifier";
    }
    if (succeeded(reduced)) {
      VerifierOptions inner = options;
      inner.reduceUniformDimension = false;
      // Kept outputs are the full-size original's.
      inner.originalOutputs = nullptr;
      FailureOr<VerificationReport> report =
          verifyEquivalence(reduced->original, reduced->candidate, inner);
      if (succeeded(report))
        report->reduction = dim->describe();
      return report;
    }
  }
  VerificationReport report;
  report.notReduced = notReduced;
  VerificationRun run(original, candidate, options, report);
  // A step fails on an error (diagnosed) or an interruption (reported).
  auto finish = [&](LogicalResult step) -> FailureOr<VerificationReport> {
    if (failed(step) && !report.interrupted)
      return failure();
    report.equivalent = !report.mismatch && !report.interrupted;
    return report;
  };

  FieldFragment fragA = analyzeFieldFragment(original);
  FieldFragment fragB = analyzeFieldFragment(candidate);
  bool inFragment = fragA.isLax() && fragB.isLax();
  if (inFragment && !options.fieldTest) {
    inFragment = false;
    report.fieldSkipped = options.fieldTestOffReason.empty()
                              ? std::string("turned off by the caller")
                              : options.fieldTestOffReason;
  } else if (!inFragment) {
    const FieldFragment &outside = fragA.isLax() ? fragB : fragA;
    report.outsideFragment = outside.offender;
    report.outsideReason =
        (outside.offender->getName().getStringRef() + ": " + outside.reason)
            .str();
  }

  bool floatDone = false;
  if (options.realTestsFirst) {
    LogicalResult step = runFloatChecks(run, !inFragment);
    if (failed(step) || report.mismatch)
      return finish(step);
    floatDone = true;
  }
  if (inFragment) {
    LogicalResult step = runFieldTests(run, fragA, fragB);
    if (failed(step) || report.mismatch)
      return finish(step);
  }
  // The floating-point checks decide alone when the field test did not
  // (with more input sets and the fp64 check at every scale): run them, or
  // run them again if they ran first expecting the field test's help.
  if (!floatDone || (inFragment && !report.fieldApplied))
    return finish(runFloatChecks(run, !report.fieldApplied));
  return finish(success());
}
