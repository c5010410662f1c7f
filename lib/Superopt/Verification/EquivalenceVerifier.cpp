//===- EquivalenceVerifier.cpp - are two µGraph functions equal? ----------===//

#include "Superopt/Verification/EquivalenceVerifier.h"
#include "Superopt/Verification/FieldFragment.h"
#include "Superopt/Semantics/Interpreter.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

DtypeTolerance mirage::superopt::toleranceFor(Type elementType) {
  if (elementType.isF16())
    return {1e-2, 1e-2};
  if (elementType.isBF16())
    return {6e-2, 6e-2};
  if (elementType.isF32())
    return {1e-5, 1e-5};
  return {1e-12, 1e-12};
}

static SmallVector<int64_t> unflatten(int64_t index, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> position(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    position[d] = index % shape[d];
    index /= shape[d];
  }
  return position;
}

static std::string formatDouble(double x) { return llvm::formatv("{0:g}", x); }

std::string VerificationReport::summary() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (fieldApplied)
    os << llvm::formatv("finite-field test: {0} test{1} over p = {2}, q = {3} "
                        "(degree {4}, {5} exp/uninterpreted sites), "
                        "false-positive bound 2^{6:f1}",
                        fieldTests, fieldTests == 1 ? "" : "s", p, q, degree,
                        applications, log2Bound);
  else
    os << "finite-field test not applicable (" << outsideReason
       << "): floating-point checks only, a weaker guarantee with no "
          "probability bound";
  if (realTests == 0)
    return s;
  os << llvm::formatv("; fp64 check: {0} input set{1}, max relative error "
                      "{2:e1}; native dtype: max error {3:f2} of tolerance",
                      realTests, realTests == 1 ? "" : "s", fp64MaxRelError,
                      nativeMaxError);
  return s;
}

namespace {
/// Random inputs, reproducible from the verifier's seed: SplitMix64, whose
/// output is fixed by its definition (unlike std's distributions) and which
/// is fast enough for hundreds of millions of draws.
class InputGenerator {
public:
  explicit InputGenerator(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, m).
  uint64_t below(uint64_t m) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * m) >>
                                 64);
  }
  /// Uniform in [-1, 1).
  double real() {
    return static_cast<double>(next() >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  }

private:
  uint64_t state;
};
} // namespace

static LogicalResult checkSignatures(func::FuncOp original,
                                     func::FuncOp candidate) {
  FunctionType a = original.getFunctionType(), b = candidate.getFunctionType();
  if (a == b)
    return success();
  return candidate.emitError("cannot compare @")
         << candidate.getSymName() << " with @" << original.getSymName()
         << ": their types differ (" << b << " vs " << a << ")";
}

/// Runs the field tests; returns false if a test found a difference.
static LogicalResult
runFieldTests(func::FuncOp original, func::FuncOp candidate,
              const FieldFragment &fragA, const FieldFragment &fragB,
              const VerifierOptions &options, VerificationReport &report) {
  auto field = FieldPair::create(options.fieldBits);
  if (!field)
    return candidate.emitError(llvm::toString(field.takeError()));
  report.fieldApplied = true;
  report.p = field->p();
  report.q = field->q();
  report.degree = std::max(fragA.degree, fragB.degree);
  report.applications = fragA.applications + fragB.applications;
  double k = std::max(1u, report.applications);
  report.log2BoundPerTest = std::min(
      0.0, 3.0 + std::log2(static_cast<double>(report.degree)) +
               4.0 * std::log2(k) - std::log2(static_cast<double>(field->q())));
  unsigned tests = options.fieldTests;
  if (tests == 0)
    tests = report.log2BoundPerTest < 0
                ? static_cast<unsigned>(std::floor(options.targetLog2Bound /
                                                   report.log2BoundPerTest)) +
                      1
                : 1;

  Block &body = original.getBody().front();
  Block &candBody = candidate.getBody().front();
  InputGenerator gen(options.seed ^ 0x6669656c64ULL);
  for (unsigned t = 0; t < tests; ++t) {
    // A zero divisor makes a test inconclusive; draw new inputs.
    for (unsigned attempt = 0;; ++attempt) {
      SmallVector<FieldTensor> inputs;
      for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
        auto shape = cast<ShapedType>(arg.getType()).getShape();
        FieldTensor x;
        x.p = Tensor<uint64_t>(shape);
        for (uint64_t &v : x.p.data)
          v = gen.below(field->p());
        if (fragA.needExponent.contains(arg) ||
            fragB.needExponent.contains(candBody.getArgument(i))) {
          x.q = Tensor<uint64_t>(shape);
          for (uint64_t &v : x.q.data)
            v = gen.below(field->q());
        }
        inputs.push_back(std::move(x));
      }
      uint64_t key = gen.next();
      FieldArithmetic arithA(*field, key), arithB(*field, key);
      arithA.setExponentValues(&fragA.needExponent);
      arithB.setExponentValues(&fragB.needExponent);
      auto outA = interpretField(original, inputs, arithA);
      if (failed(outA))
        return failure();
      auto outB = interpretField(candidate, inputs, arithB);
      if (failed(outB))
        return failure();
      if (arithA.hitZeroDivisor() || arithB.hitZeroDivisor()) {
        if (attempt < 8)
          continue;
        return candidate.emitError("finite-field test kept dividing by zero "
                                   "after 8 fresh input sets");
      }
      for (unsigned o = 0; o < outA->size(); ++o) {
        const auto &a = (*outA)[o].p, &b = (*outB)[o].p;
        for (int64_t i = 0; i < a.size(); ++i) {
          if (a.data[i] == b.data[i])
            continue;
          report.mismatch = Mismatch{
              llvm::formatv("finite-field test {0} of {1}", t + 1, tests),
              o,
              unflatten(i, a.shape),
              std::to_string(a.data[i]),
              std::to_string(b.data[i]),
              llvm::formatv("residues mod p = {0}", field->p())};
          report.fieldTests = t + 1;
          return success();
        }
      }
      if (options.progress)
        *options.progress << llvm::formatv(
            "verify-equivalence: @{0} vs @{1}: finite-field test {2}/{3} "
            "agrees\n",
            candidate.getSymName(), original.getSymName(), t + 1, tests);
      break;
    }
  }
  report.fieldTests = tests;
  report.log2Bound = tests * report.log2BoundPerTest;
  return success();
}

/// Compares `got` with `want` elementwise: |got - want| <= rtol |want| +
/// atol max|want|. Returns the worst error in units of the allowance and
/// the first failing index, if any.
static std::pair<double, std::optional<int64_t>>
compare(const RealTensor &want, const RealTensor &got, DtypeTolerance tol) {
  double scale = 0;
  for (double v : want.data)
    if (std::isfinite(v))
      scale = std::max(scale, std::fabs(v));
  double worst = 0;
  for (int64_t i = 0; i < want.size(); ++i) {
    double w = want.data[i], g = got.data[i];
    if (std::isnan(w) || std::isnan(g) || std::isinf(w) || std::isinf(g)) {
      bool same = (std::isnan(w) && std::isnan(g)) || w == g;
      if (!same)
        return {INFINITY, i};
      continue;
    }
    double allowed = tol.rtol * std::fabs(w) + tol.atol * scale;
    double err = std::fabs(g - w);
    if (err == 0)
      continue;
    double units = allowed > 0 ? err / allowed : INFINITY;
    worst = std::max(worst, units);
    if (units > 1)
      return {units, i};
  }
  return {worst, std::nullopt};
}

static LogicalResult runRealTests(func::FuncOp original, func::FuncOp candidate,
                                  const VerifierOptions &options,
                                  VerificationReport &report) {
  Block &body = original.getBody().front();
  InputGenerator gen(options.seed ^ 0x7265616cULL);
  auto resultTypes = candidate.getFunctionType().getResults();
  for (unsigned t = 0; t < options.realTests; ++t) {
    SmallVector<RealTensor> inputs;
    for (BlockArgument arg : body.getArguments()) {
      auto type = cast<ShapedType>(arg.getType());
      RealTensor x(type.getShape());
      for (double &v : x.data)
        v = gen.real();
      // Representable in the argument's dtype, so that the fp64 and the
      // native runs see the same inputs.
      RealArithmetic(RealMode::Native).round(x, type.getElementType());
      inputs.push_back(std::move(x));
    }
    FailureOr<SmallVector<RealTensor>> refA;
    if (options.originalOutputs && options.originalOutputs->count(t)) {
      refA = options.originalOutputs->at(t);
    } else {
      refA = interpretReal(original, inputs, RealMode::FP64);
      if (failed(refA))
        return failure();
      if (options.originalOutputs)
        (*options.originalOutputs)[t] = *refA;
    }
    auto native = interpretReal(candidate, inputs, RealMode::Native);
    if (failed(native))
      return failure();
    // Output o of the candidate in its own dtypes against the fp64
    // original; true (and the report's mismatch set) when it is off.
    auto nativeMismatch = [&](unsigned o) {
      const RealTensor &want = (*refA)[o];
      Type elementType = cast<ShapedType>(resultTypes[o]).getElementType();
      DtypeTolerance tol = toleranceFor(elementType);
      auto [nerr, nbad] = compare(want, (*native)[o], tol);
      report.nativeMaxError = std::max(report.nativeMaxError, nerr);
      if (!nbad)
        return false;
      std::string dtype;
      llvm::raw_string_ostream(dtype) << elementType;
      report.mismatch = Mismatch{
          dtype + " (candidate in its native dtype vs original in fp64)",
          o,
          unflatten(*nbad, want.shape),
          formatDouble(want.data[*nbad]),
          formatDouble((*native)[o].data[*nbad]),
          llvm::formatv("tolerance {0:e0} relative + {1:e0} of the largest "
                        "magnitude",
                        tol.rtol, tol.atol)};
      return true;
    };
    // Fail fast (the search's mode): a native-dtype mismatch rejects the
    // candidate before its fp64 run.
    if (options.realTestsFirst)
      for (unsigned o = 0; o < refA->size(); ++o)
        if (nativeMismatch(o)) {
          report.realTests = t + 1;
          return success();
        }
    auto refB = interpretReal(candidate, inputs, RealMode::FP64);
    if (failed(refB))
      return failure();
    report.realTests = t + 1;
    if (options.progress)
      *options.progress << llvm::formatv(
          "verify-equivalence: @{0} vs @{1}: fp64 and native run {2}/{3} "
          "done\n",
          candidate.getSymName(), original.getSymName(), t + 1,
          options.realTests);
    for (unsigned o = 0; o < refA->size(); ++o) {
      const RealTensor &want = (*refA)[o];
      DtypeTolerance fp64Tol{1e-9, 1e-9};
      auto [err, bad] = compare(want, (*refB)[o], fp64Tol);
      report.fp64MaxRelError =
          std::max(report.fp64MaxRelError, err * fp64Tol.rtol);
      if (bad) {
        report.mismatch = Mismatch{"fp64",
                                   o,
                                   unflatten(*bad, want.shape),
                                   formatDouble(want.data[*bad]),
                                   formatDouble((*refB)[o].data[*bad]),
                                   "tolerance 1e-9 relative"};
        return success();
      }
      if (!options.realTestsFirst && nativeMismatch(o))
        return success();
    }
  }
  return success();
}

FailureOr<VerificationReport>
mirage::superopt::verifyEquivalence(func::FuncOp original,
                                    func::FuncOp candidate,
                                    const VerifierOptions &options) {
  if (failed(checkInterpretable(original)) ||
      failed(checkInterpretable(candidate)) ||
      failed(checkSignatures(original, candidate)))
    return failure();
  VerificationReport report;
  FieldFragment fragA = analyzeFieldFragment(original);
  FieldFragment fragB = analyzeFieldFragment(candidate);
  const FieldFragment &outside = fragA.isLax() ? fragB : fragA;
  if (options.realTestsFirst) {
    if (failed(runRealTests(original, candidate, options, report)))
      return failure();
    if (report.mismatch)
      return report;
  }
  if (fragA.isLax() && fragB.isLax()) {
    if (failed(
            runFieldTests(original, candidate, fragA, fragB, options, report)))
      return failure();
    if (report.mismatch)
      return report;
  } else {
    report.outsideFragment = outside.offender;
    report.outsideReason =
        (outside.offender->getName().getStringRef() + ": " + outside.reason)
            .str();
  }
  if (!options.realTestsFirst &&
      failed(runRealTests(original, candidate, options, report)))
    return failure();
  report.equivalent = !report.mismatch;
  return report;
}
