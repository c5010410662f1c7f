//===- FloatChecks.cpp - the verifier's floating-point checks -------------===//
//
// At each input scale of the ladder (InputScales.h) and for each input set:
// the original runs in fp64 (the reference) and in its own dtypes, the
// candidate in its own dtypes and, at the first scale or when the
// floating-point checks decide alone, in fp64; NumericComparison.h says
// when they agree. Inputs are drawn uniform in [-s, s) and rounded to each
// argument's dtype, so that every run sees the same values; each (scale,
// set) has its own stream, so the original's outputs can be kept across
// calls (VerifierOptions::originalOutputs).
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/SplitMix64.h"
#include "mirage/Superopt/Verification/InputScales.h"
#include "VerificationRun.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <functional>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

static std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream(s) << t;
  return s;
}

/// Inputs of set `set` at scale `scale`, from a stream of their own.
static SmallVector<RealTensor> drawInputs(func::FuncOp f, func::FuncOp other,
                                          uint64_t seed, unsigned scaleIndex,
                                          unsigned set, double scale) {
  SplitMix64 gen(SplitMix64::mix(seed ^ 0x7265616cULL) ^
                 SplitMix64::mix(uint64_t(scaleIndex) << 32 | set));
  SmallVector<RealTensor> inputs;
  RealArithmetic rounding(RealMode::Native);
  for (BlockArgument arg : f.getBody().front().getArguments()) {
    auto type = cast<ShapedType>(arg.getType());
    RealTensor x(type.getShape());
    if (isIndexInput(f, arg.getArgNumber())) {
      // Index inputs: valid positions, whatever the scale (InputScales.h).
      uint64_t bound = indexInputBound(f, other, arg.getArgNumber());
      for (double &v : x.data)
        v = static_cast<double>(gen.below(bound));
      inputs.push_back(std::move(x));
      continue;
    }
    for (double &v : x.data)
      v = scale * gen.symmetricUnit();
    // Representable in the argument's dtype, so that the fp64 and the
    // native runs see the same inputs.
    rounding.round(x, type.getElementType());
    inputs.push_back(std::move(x));
  }
  return inputs;
}

/// The key of the original's outputs in VerifierOptions::originalOutputs.
static unsigned cacheKey(unsigned scaleIndex, unsigned set, bool native) {
  return (scaleIndex << 20 | set) << 1 | (native ? 1 : 0);
}

LogicalResult mirage::superopt::runFloatChecks(VerificationRun &run,
                                               bool floatOnly) {
  const VerifierOptions &options = run.options;
  VerificationReport &report = run.report;
  func::FuncOp original = run.original, candidate = run.candidate;
  ScaleLadder ladder = planInputScales(original, candidate,
                                       std::max(1u, options.maxScales));
  unsigned sets = floatOnly
                      ? std::max(options.realTests, options.floatOnlyRealTests)
                      : options.realTests;
  sets = std::min(sets, 1u << 19); // the cache key's room
  report.realTests = sets;
  report.scales.clear();
  report.judgedFraction.clear();
  report.ladderStop.clear();
  report.narrowestType =
      ladder.narrowest ? typeName(ladder.narrowest) : std::string();
  if (sets == 0)
    return success();

  TypeRange resultTypes = candidate.getFunctionType().getResults();
  auto elementType = [&](unsigned o) {
    return cast<ShapedType>(resultTypes[o]).getElementType();
  };
  auto original_ = [&](unsigned k, unsigned t, bool native,
                       ArrayRef<RealTensor> inputs, uint64_t held)
      -> FailureOr<SmallVector<RealTensor>> {
    unsigned key = cacheKey(k, t, native);
    if (options.originalOutputs && options.originalOutputs->count(key))
      return options.originalOutputs->at(key);
    auto out = run.runReal(original, inputs,
                           native ? RealMode::Native : RealMode::FP64, held);
    if (succeeded(out) && options.originalOutputs)
      (*options.originalOutputs)[key] = *out;
    return out;
  };

  // Before any input is drawn: the inputs and one run of the original.
  if (!run.admit(estimatePeakBytes(original, kRealElementBytes),
                 llvm::formatv("the floating-point runs of '{0}'",
                               original.getSymName())
                     .str()))
    return failure();
  for (auto [k, scale] : llvm::enumerate(ladder.scales)) {
    int64_t judged = 0, total = 0;
    // Whether some output of the original stayed finite at half its
    // positions or more: else this scale, and larger ones, tell nothing.
    bool informative = false;
    SmallVector<int64_t> judgedPerOutput(resultTypes.size(), 0),
        totalPerOutput(resultTypes.size(), 0);
    std::string range = llvm::formatv("input scale {0} (inputs in [-{0}, {0}))",
                                      formatExact(scale));
    for (unsigned t = 0; t < sets; ++t) {
      if (run.stopRequested())
        return failure();
      SmallVector<RealTensor> inputs =
          drawInputs(original, candidate, options.seed, k, t, scale);
      uint64_t held = bytesOf<double>(inputs);
      auto reference = original_(k, t, /*native=*/false, inputs, held);
      if (failed(reference))
        return failure();
      held += bytesOf<double>(*reference);
      auto originalNative = original_(k, t, /*native=*/true, inputs, held);
      if (failed(originalNative))
        return failure();
      held += bytesOf<double>(*originalNative);

      // The candidate in its own dtypes; true when it is off somewhere.
      auto nativeMismatch = [&]() -> FailureOr<bool> {
        auto native = run.runReal(candidate, inputs, RealMode::Native, held);
        if (failed(native))
          return failure();
        for (unsigned o = 0; o < resultTypes.size(); ++o) {
          Type type = elementType(o);
          DtypeTolerance tol = toleranceFor(type);
          const RealTensor &r = (*reference)[o], &x = (*native)[o],
                           &own = (*originalNative)[o];
          Comparison c = compareNative(r, own, x, tol);
          report.nativeMaxError = std::max(report.nativeMaxError, c.worst);
          judgedPerOutput[o] += c.judged;
          totalPerOutput[o] += c.total;
          if (!c.bad)
            continue;
          std::string dtype = typeName(type);
          int64_t i = *c.bad;
          report.mismatch = Mismatch{
              dtype + " check at " + range,
              o,
              delinearize(i, computeStrides(r.shape)),
              llvm::formatv("{0} (fp64; {1} in its own {2})",
                            formatExact(r.data[i]), formatExact(own.data[i]),
                            dtype),
              llvm::formatv("{0} in {1}", formatExact(x.data[i]), dtype),
              llvm::formatv("allowed error {0} = {1} relative + {2} of the "
                            "typical magnitude {3} + {4} + {5}x the "
                            "original's largest own {6} error {7}",
                            formatShort(c.allowed), formatShort(tol.rtol),
                            formatShort(tol.atol), formatShort(c.typical),
                            formatShort(tol.floor),
                            formatShort(kOwnErrorFactor), dtype,
                            formatShort(c.ownError)),
              scale};
          return true;
        }
        return false;
      };
      // The candidate in fp64 against the original in fp64: exact but for
      // rounding. A non-finite reference needs the same value at the first
      // scale; at larger ones fp64 itself may overflow, and such positions
      // tell nothing.
      auto exactMismatch = [&]() -> FailureOr<bool> {
        if (!floatOnly && k != 0)
          return false;
        auto fp64 = run.runReal(candidate, inputs, RealMode::FP64, held);
        if (failed(fp64))
          return failure();
        for (unsigned o = 0; o < resultTypes.size(); ++o) {
          const RealTensor &r = (*reference)[o], &x = (*fp64)[o];
          Comparison c = compareExact(r, x, /*requireSameNonFinite=*/k == 0);
          report.fp64MaxRelError =
              std::max(report.fp64MaxRelError, c.worst * kFp64Tolerance);
          if (!c.bad)
            continue;
          int64_t i = *c.bad;
          report.mismatch = Mismatch{
              "fp64 check at " + range,
              o,
              delinearize(i, computeStrides(r.shape)),
              formatExact(r.data[i]),
              formatExact(x.data[i]),
              std::isfinite(r.data[i])
                  ? llvm::formatv("allowed error {0} = {1} relative + {1} of "
                                  "the typical magnitude {2}",
                                  formatShort(c.allowed),
                                  formatShort(kFp64Tolerance),
                                  formatShort(c.typical))
                        .str()
                  : std::string("a non-finite result at input scale 1 must "
                                "be matched exactly"),
              scale};
          return true;
        }
        return false;
      };
      // Fail fast (the search's mode): the native check first.
      std::function<FailureOr<bool>()> checks[2] = {exactMismatch,
                                                     nativeMismatch};
      if (options.realTestsFirst)
        std::swap(checks[0], checks[1]);
      for (auto &check : checks) {
        FailureOr<bool> bad = check();
        if (failed(bad))
          return failure();
        if (*bad) {
          report.scales.push_back(scale);
          report.judgedFraction.push_back(1);
          return success();
        }
      }
      if (options.progress)
        *options.progress << llvm::formatv(
            "verify-equivalence: @{0} vs @{1}: floating-point checks at input "
            "scale {2}, set {3}/{4} done\n",
            candidate.getSymName(), original.getSymName(), formatExact(scale),
            t + 1, sets);
    }
    for (unsigned o = 0; o < resultTypes.size(); ++o) {
      judged += judgedPerOutput[o];
      total += totalPerOutput[o];
      informative |= 2 * judgedPerOutput[o] >= totalPerOutput[o];
    }
    report.scales.push_back(scale);
    report.judgedFraction.push_back(total ? double(judged) / total : 1);
    if (!informative && k + 1 < ladder.scales.size()) {
      report.ladderStop = llvm::formatv(
          "the ladder stops at {0}: there the original's own results are not "
          "finite at most positions",
          formatExact(scale));
      break;
    }
  }
  return success();
}
