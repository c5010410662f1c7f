//===- VerifyEquivalence.cpp - checks candidate functions against originals ===//
//
// The pass around verifyEquivalence (docs/Verification.md): it pairs the
// functions, validates its options, and reports each pair's verdict as
// text (a remark, a warning, an error) and as a `mirage-verify` remark of
// MLIR's remark engine whose metrics a tool can read.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mirage/Reports/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Remarks.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

namespace mirage {
#define GEN_PASS_DEF_VERIFYEQUIVALENCE
#include "mirage/Reports/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

/// The attribute by which a candidate names its original.

/// The remark engine's category of every verification remark.
static constexpr llvm::StringLiteral kRemarkCategory = "mirage-verify";

namespace {
struct VerifyEquivalencePass
    : public mirage::impl::VerifyEquivalenceBase<VerifyEquivalencePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(validateOptions()))
      return signalPassFailure();
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> pairs;
    if (failed(collectPairs(module, pairs)))
      return signalPassFailure();

    VerifierOptions options;
    options.fieldBits = fieldBits;
    options.fieldTests = fieldTests;
    options.realTests = realTests;
    options.maxScales = scales;
    options.memoryLimitBytes = uint64_t(memoryLimit) << 20;
    options.seed = seed;
    options.realTestsFirst = floatFirst;
    options.reduceUniformDimension = reduceUniform;
    if (progress)
      options.progress = &llvm::errs();
    bool ok = true;
    for (auto [orig, cand] : pairs) {
      // Each pair gets the whole time limit.
      if (timeLimit > 0)
        options.shouldStop = stopAfterSeconds(timeLimit);
      ok &= succeeded(verifyPair(orig, cand, options));
    }
    if (!ok)
      signalPassFailure();
  }

  /// Each numeric option within its range, or a located error.
  LogicalResult validateOptions() {
    auto check = [&](bool inRange, StringRef name, StringRef range,
                     uint64_t value) -> LogicalResult {
      if (inRange)
        return success();
      return emitError(getOperation()->getLoc())
             << "verify-equivalence: " << name << " must be " << range
             << ", got " << value;
    };
    // Every bad option is reported, not only the first.
    bool ok = true;
    ok &= succeeded(check(fieldBits >= 31 && fieldBits <= 62, "field-bits",
                          "in [31, 62]", fieldBits));
    ok &= succeeded(check(fieldTests <= 1000, "field-tests",
                          "in [0, 1000] (0: enough for a 2^-60 bound)",
                          fieldTests));
    ok &= succeeded(
        check(realTests <= 1000, "real-tests", "in [0, 1000]", realTests));
    ok &= succeeded(
        check(scales >= 1 && scales <= 16, "scales", "in [1, 16]", scales));
    if (!(timeLimit >= 0 && timeLimit <= 1e6)) {
      emitError(getOperation()->getLoc())
          << "verify-equivalence: time-limit must be in [0, 10^6] seconds "
             "(0: no limit), got "
          << timeLimit;
      ok = false;
    }
    ok &= succeeded(check(memoryLimit <= (uint64_t(1) << 40), "memory-limit",
                          "in [0, 2^40] MiB (0: the machine's memory)",
                          memoryLimit));
    return success(ok);
  }

  LogicalResult
  collectPairs(ModuleOp module,
               SmallVectorImpl<std::pair<func::FuncOp, func::FuncOp>> &pairs) {
    auto lookup = [&](StringRef name, Location loc) -> func::FuncOp {
      auto f = module.lookupSymbol<func::FuncOp>(name);
      if (!f)
        emitError(loc) << "no function named @" << name << " to verify";
      return f;
    };
    if (!original.empty() || !candidate.empty()) {
      if (original.empty() || candidate.empty())
        return emitError(module.getLoc(),
                         "verify-equivalence needs both original= and "
                         "candidate=");
      func::FuncOp a = lookup(original, module.getLoc());
      func::FuncOp b = lookup(candidate, module.getLoc());
      if (!a || !b)
        return failure();
      pairs.push_back({a, b});
      return success();
    }
    for (auto f : module.getOps<func::FuncOp>()) {
      Attribute attr = f->getAttr(kEquivalentToAttrName);
      if (!attr)
        continue;
      auto ref = dyn_cast<FlatSymbolRefAttr>(attr);
      if (!ref)
        return f.emitError("'")
               << kEquivalentToAttrName << "' must name a function, like @original";
      func::FuncOp orig = lookup(ref.getValue(), f.getLoc());
      if (!orig)
        return failure();
      pairs.push_back({orig, f});
    }
    if (pairs.empty())
      return emitError(module.getLoc(),
                       "nothing to verify: mark a candidate function with {")
             << kEquivalentToAttrName
             << " = @original} or pass original= and candidate=";
    return success();
  }

  /// The warnings a verdict comes with: a weaker guarantee, a redrawn pair.
  void warn(func::FuncOp orig, func::FuncOp cand,
            const VerificationReport &report) {
    if (report.outsideFragment)
      mlir::emitWarning(report.outsideFragment->getLoc())
          << "'" << report.outsideFragment->getName()
          << "' is outside the LAX fragment of the finite-field verifier ("
          << report.outsideReason
          << "); equivalence is checked by floating point only, a weaker "
             "guarantee";
    for (const std::string &redraw : report.fieldRedraws)
      mlir::emitWarning(cand.getLoc())
          << "finite-field test of @" << cand.getSymName() << " against @"
          << orig.getSymName() << ": " << redraw;
    if (!report.fieldAbandoned.empty())
      mlir::emitWarning(cand.getLoc())
          << "finite-field test of @" << cand.getSymName() << " against @"
          << orig.getSymName() << " given up: " << report.fieldAbandoned
          << "; equivalence is checked by floating point only, a weaker "
             "guarantee";
  }

  /// The verdict as a `mirage-verify` remark with machine-readable metrics.
  void remarkVerdict(func::FuncOp orig, func::FuncOp cand,
                     const VerificationReport &report) {
    auto opts = remark::RemarkOpts::name(report.equivalent ? "Equivalent"
                                         : report.interrupted
                                             ? "Interrupted"
                                             : "NotEquivalent")
                    .category(kRemarkCategory)
                    .function(cand.getSymName());
    remark::detail::InFlightRemark r =
        report.equivalent ? remark::passed(cand.getLoc(), opts)
                          : remark::failed(cand.getLoc(), opts);
    if (!r)
      return;
    std::string scales;
    llvm::raw_string_ostream os(scales);
    // The scales are powers of 4 (at most 4^15): integers.
    llvm::interleaveComma(report.scales, os, [&](double s) {
      os << static_cast<int64_t>(s);
    });
    r << remark::metric("original", orig.getSymName().str())
      << remark::metric("method", report.fieldApplied
                                      ? "finite-field and floating point"
                                      : "floating point only");
    // The field test's numbers, when it ran (decided or was given up).
    if (report.p)
      r << remark::metric("fieldTests", report.fieldTests)
        << remark::metric("p", report.p) << remark::metric("q", report.q)
        << remark::metric("primeSeed", report.primeSeed)
        << remark::metric("primeDraws", report.primeDraws)
        << remark::metric("constants", report.constants)
        << remark::metric("degree", report.degree)
        << remark::metric("sites", report.applications)
        << remark::metric("log2Bound", report.log2Bound);
    r << remark::metric("realTests", report.realTests)
      << remark::metric("scales", scales)
      << remark::metric("fp64MaxRelError", report.fp64MaxRelError)
      << remark::metric("nativeMaxError", report.nativeMaxError);
    if (!report.reduction.empty())
      r << remark::metric("reducedInstance", report.reduction);
    if (!report.notReduced.empty())
      r << remark::metric("notReduced", report.notReduced);
    if (!report.fieldAbandoned.empty())
      r << remark::metric("fieldGivenUp", report.fieldAbandoned);
    if (report.outsideFragment)
      r << remark::metric("outsideFragment", report.outsideReason);
    if (report.mismatch) {
      const Mismatch &m = *report.mismatch;
      std::string position;
      llvm::raw_string_ostream ps(position);
      llvm::interleaveComma(m.position, ps);
      r << remark::metric("mismatchMethod", m.method)
        << remark::metric("mismatchOutput", m.output)
        << remark::metric("mismatchPosition", position)
        << remark::metric("mismatchScale", m.scale)
        << remark::metric("originalValue", m.originalValue)
        << remark::metric("candidateValue", m.candidateValue);
    }
    if (report.interrupted)
      r << remark::reason("{0}", *report.interrupted);
  }

  LogicalResult verifyPair(func::FuncOp orig, func::FuncOp cand,
                           const VerifierOptions &options) {
    FailureOr<VerificationReport> report =
        verifyEquivalence(orig, cand, options);
    if (failed(report))
      return failure();
    // Only the time limit asks the verifier to stop here.
    if (report->interrupted && options.shouldStop &&
        StringRef(*report->interrupted).starts_with("stopped"))
      report->interrupted =
          (llvm::Twine("the time limit of ") +
           llvm::formatv("{0}", llvm::format("%g", double(timeLimit))).str() +
           " s passed (time-limit)")
              .str();
    warn(orig, cand, *report);
    remarkVerdict(orig, cand, *report);
    if (report->equivalent) {
      mlir::emitRemark(cand.getLoc(), "@")
          << cand.getSymName() << " is equivalent to @" << orig.getSymName()
          << ": " << report->summary();
      return success();
    }
    if (report->interrupted)
      return mlir::emitError(cand.getLoc(), "verification of @")
             << cand.getSymName() << " against @" << orig.getSymName()
             << " did not finish: " << *report->interrupted;
    const Mismatch &m = *report->mismatch;
    InFlightDiagnostic diag = mlir::emitError(cand.getLoc(), "@")
                              << cand.getSymName() << " is not equivalent to @"
                              << orig.getSymName() << ": output #" << m.output
                              << " differs at [";
    llvm::interleaveComma(m.position, diag);
    diag << "] in the " << m.method << ": @" << orig.getSymName() << " gives "
         << m.originalValue << ", @" << cand.getSymName() << " gives "
         << m.candidateValue << " (" << m.detail << ")";
    if (!report->reduction.empty())
      diag << "; on a reduced instance, " << report->reduction;
    return failure();
  }
};
} // namespace
