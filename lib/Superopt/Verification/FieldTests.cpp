//===- FieldTests.cpp - the verifier's finite-field tests -----------------===//
//
// Each verification draws its own prime pair (FieldPair::random), seeded by
// the verifier's seed and a hash of the two programs, so that no constant
// can be chosen against primes known in advance. After each test the
// constants both runs embedded are checked: one that vanishes (a non-zero
// multiple of p or q) or two that collide (unequal values, equal images)
// would hide a difference, so another pair is drawn; an inf or NaN constant
// has no image at all, and the field test is given up. A pair that keeps
// every constant apart gives the false-positive bound of
// EquivalenceVerifier.h.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/SplitMix64.h"
#include "mirage/Superopt/Verification/InputScales.h"
#include "VerificationRun.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"
#include <cmath>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

/// Prime pairs drawn before the field test is given up.
static constexpr unsigned kMaxPrimeDraws = 4;

/// Attempts with fresh inputs when a test divides by zero in the field.
static constexpr unsigned kMaxZeroDivisorRetries = 8;

/// A hash of both programs' text: the pair then differs between pairs of
/// programs even under one seed.
static uint64_t hashPrograms(func::FuncOp a, func::FuncOp b) {
  uint64_t h = 0;
  for (func::FuncOp f : {a, b}) {
    std::string text;
    llvm::raw_string_ostream os(text);
    f->print(os, OpPrintingFlags().useLocalScope());
    h = SplitMix64::mix(h ^ llvm::xxh3_64bits(text));
  }
  return h;
}

namespace {
/// Where a constant was embedded, for the messages.
struct ConstantSite {
  double value;
  bool inP = false, inQ = false;
  bool inOriginal = false, inCandidate = false;
};
} // namespace

/// Why the constants make the field test with `field` blind, or "".
static std::string
checkConstants(const std::map<uint64_t, ConstantSite> &constants,
               const FieldPair &field, func::FuncOp original,
               func::FuncOp candidate, bool &nonFinite) {
  auto where = [&](const ConstantSite &c) {
    std::string s = c.inOriginal && c.inCandidate ? "both programs"
                    : c.inOriginal ? ("@" + original.getSymName()).str()
                                   : ("@" + candidate.getSymName()).str();
    return s;
  };
  for (const auto &[bits, c] : constants)
    if (!std::isfinite(c.value)) {
      nonFinite = true;
      return llvm::formatv("the constant {0} of {1} has no finite-field "
                           "image",
                           formatExact(c.value), where(c));
    }
  for (unsigned part = 0; part < 2; ++part) {
    uint64_t m = part == 0 ? field.p() : field.q();
    const char *name = part == 0 ? "p" : "q";
    std::map<uint64_t, const ConstantSite *> images;
    for (const auto &[bits, c] : constants) {
      if (!(part == 0 ? c.inP : c.inQ))
        continue;
      uint64_t image = *FieldArithmetic::embed(c.value, m);
      if (image == 0 && c.value != 0)
        return llvm::formatv("the constant {0} of {1} vanishes modulo {2} = "
                             "{3}",
                             formatExact(c.value), where(c), name, m);
      auto [it, inserted] = images.try_emplace(image, &c);
      if (!inserted && it->second->value != c.value)
        return llvm::formatv("the constants {0} of {1} and {2} of {3} are "
                             "equal modulo {4} = {5}",
                             formatExact(it->second->value),
                             where(*it->second), formatExact(c.value),
                             where(c), name, m);
    }
  }
  return "";
}

namespace {
enum class PairOutcome { Decided, Redraw, GiveUp };
} // namespace

/// The tests with one prime pair.
static FailureOr<PairOutcome> testWithPair(VerificationRun &run,
                                           const FieldPair &field,
                                           const FieldFragment &fragA,
                                           const FieldFragment &fragB,
                                           unsigned tests) {
  const VerifierOptions &options = run.options;
  VerificationReport &report = run.report;
  func::FuncOp original = run.original, candidate = run.candidate;
  Block &body = original.getBody().front();
  Block &candBody = candidate.getBody().front();
  SplitMix64 gen(SplitMix64::mix(options.seed ^ 0x6669656c64ULL) ^
                 field.q());
  // Before any input is drawn: the inputs and one run of the original.
  if (!run.admit(estimatePeakBytes(original, kFieldElementBytes),
                 llvm::formatv("the finite-field runs of '{0}'",
                               original.getSymName())
                     .str()))
    return failure();
  for (unsigned t = 0; t < tests; ++t) {
    // A zero divisor makes a test inconclusive; draw new inputs.
    for (unsigned attempt = 0;; ++attempt) {
      if (run.stopRequested())
        return failure();
      SmallVector<FieldTensor> inputs;
      for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
        auto shape = cast<ShapedType>(arg.getType()).getShape();
        FieldTensor x;
        x.p = Tensor<uint64_t>(shape);
        if (isIndexInput(original, i)) {
          // Concrete positions (IndexingOps.h reads them as integers); an
          // exponent part, if asked for, is the same integer.
          uint64_t bound = indexInputBound(original, candidate, i);
          for (uint64_t &v : x.p.data)
            v = gen.below(bound);
          x.q = x.p;
          inputs.push_back(std::move(x));
          continue;
        }
        for (uint64_t &v : x.p.data)
          v = gen.below(field.p());
        if (fragA.needExponent.contains(arg) ||
            fragB.needExponent.contains(candBody.getArgument(i))) {
          x.q = Tensor<uint64_t>(shape);
          for (uint64_t &v : x.q.data)
            v = gen.below(field.q());
        }
        inputs.push_back(std::move(x));
      }
      uint64_t held = bytesOf(inputs);
      uint64_t key = gen.next();
      FieldArithmetic arithA(field, key), arithB(field, key);
      arithA.setExponentValues(&fragA.needExponent);
      arithB.setExponentValues(&fragB.needExponent);
      auto outA = run.runField(original, inputs, arithA, held);
      if (failed(outA))
        return failure();
      auto outB =
          run.runField(candidate, inputs, arithB, held + bytesOf(*outA));
      if (failed(outB))
        return failure();

      // The constants first: a blind test decides nothing.
      std::map<uint64_t, ConstantSite> constants;
      for (auto [arith, inOriginal] :
           {std::pair(&arithA, true), std::pair(&arithB, false)})
        for (const auto &[bits, use] : arith->constants()) {
          ConstantSite &site = constants[bits];
          site.value = use.value;
          site.inP |= use.inP;
          site.inQ |= use.inQ;
          (inOriginal ? site.inOriginal : site.inCandidate) = true;
        }
      report.constants = constants.size();
      bool nonFinite = false;
      std::string blind =
          checkConstants(constants, field, original, candidate, nonFinite);
      if (!blind.empty()) {
        if (nonFinite) {
          report.fieldAbandoned = blind;
          return PairOutcome::GiveUp;
        }
        report.fieldRedraws.push_back(
            llvm::formatv("{0}: drew another prime pair", blind));
        return PairOutcome::Redraw;
      }

      if (arithA.hitZeroDivisor() || arithB.hitZeroDivisor()) {
        if (attempt < kMaxZeroDivisorRetries)
          continue;
        return candidate.emitError("finite-field test kept dividing by zero "
                                   "after ")
               << kMaxZeroDivisorRetries << " fresh input sets";
      }
      for (unsigned o = 0; o < outA->size(); ++o) {
        const auto &a = (*outA)[o].p, &b = (*outB)[o].p;
        for (int64_t i = 0; i < a.size(); ++i) {
          if (a.data[i] == b.data[i])
            continue;
          report.mismatch =
              Mismatch{llvm::formatv("finite-field test {0} of {1}", t + 1,
                                     tests),
                       o,
                       delinearize(i, computeStrides(a.shape)),
                       std::to_string(a.data[i]),
                       std::to_string(b.data[i]),
                       llvm::formatv("residues mod p = {0}", field.p()),
                       0};
          report.fieldTests = t + 1;
          return PairOutcome::Decided;
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
  return PairOutcome::Decided;
}

LogicalResult mirage::superopt::runFieldTests(VerificationRun &run,
                                              const FieldFragment &fragA,
                                              const FieldFragment &fragB) {
  const VerifierOptions &options = run.options;
  VerificationReport &report = run.report;
  report.degree = std::max(fragA.degree, fragB.degree);
  report.applications = fragA.applications + fragB.applications;
  report.log2PairCount = FieldPair::log2RandomPairCount(options.fieldBits);
  uint64_t programs = hashPrograms(run.original, run.candidate);
  for (unsigned draw = 0; draw < kMaxPrimeDraws; ++draw) {
    uint64_t pairSeed =
        SplitMix64::mix(SplitMix64::mix(options.seed ^ 0x7072696d6573ULL) ^
                        programs) +
        draw;
    auto field = draw == 0 && options.firstPair
                     ? FieldPair::fromPrimes(options.firstPair->first,
                                             options.firstPair->second)
                     : FieldPair::random(options.fieldBits, pairSeed);
    if (!field)
      return run.candidate.emitError(llvm::toString(field.takeError()));
    report.p = field->p();
    report.q = field->q();
    report.primesGiven = draw == 0 && options.firstPair;
    report.primeSeed = report.primesGiven ? 0 : pairSeed;
    report.primeDraws = draw + 1;
    double k = std::max(1u, report.applications);
    report.log2BoundPerTest =
        std::min(0.0, 3.0 + std::log2(static_cast<double>(report.degree)) +
                          4.0 * std::log2(k) -
                          std::log2(static_cast<double>(field->q())));
    unsigned tests = options.fieldTests;
    if (tests == 0)
      tests = report.log2BoundPerTest < 0
                  ? static_cast<unsigned>(std::floor(
                        options.targetLog2Bound / report.log2BoundPerTest)) +
                        1
                  : 1;
    FailureOr<PairOutcome> outcome =
        testWithPair(run, *field, fragA, fragB, tests);
    if (failed(outcome))
      return failure();
    switch (*outcome) {
    case PairOutcome::Decided:
      report.fieldApplied = true;
      return success();
    case PairOutcome::GiveUp:
      return success();
    case PairOutcome::Redraw:
      continue;
    }
  }
  report.fieldAbandoned = llvm::formatv(
      "none of the {0} prime pairs drawn kept every constant non-zero and "
      "distinct",
      kMaxPrimeDraws);
  return success();
}
