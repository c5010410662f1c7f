//===- VerifyEquivalence.cpp - checks candidate functions against originals
//===//

#include "Superopt/Verification/EquivalenceVerifier.h"
#include "Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mirage {
#define GEN_PASS_DEF_VERIFYEQUIVALENCE
#include "Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

/// The attribute by which a candidate names its original.
static constexpr llvm::StringLiteral kEquivalentTo = "mirage.equivalent_to";

namespace {
struct VerifyEquivalencePass
    : public mirage::impl::VerifyEquivalenceBase<VerifyEquivalencePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> pairs;
    if (failed(collectPairs(module, pairs)))
      return signalPassFailure();

    VerifierOptions options;
    options.fieldBits = fieldBits;
    options.fieldTests = fieldTests;
    options.realTests = realTests;
    options.seed = seed;
    if (progress)
      options.progress = &llvm::errs();
    if (fieldBits < 31 || fieldBits > 62) {
      module.emitError("field-bits must be in [31, 62], got ")
          << static_cast<uint64_t>(fieldBits);
      return signalPassFailure();
    }
    bool ok = true;
    for (auto [orig, cand] : pairs)
      ok &= succeeded(verifyPair(orig, cand, options));
    if (!ok)
      signalPassFailure();
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
        return module.emitError(
            "verify-equivalence needs both original= and candidate=");
      func::FuncOp a = lookup(original, module.getLoc());
      func::FuncOp b = lookup(candidate, module.getLoc());
      if (!a || !b)
        return failure();
      pairs.push_back({a, b});
      return success();
    }
    for (auto f : module.getOps<func::FuncOp>()) {
      Attribute attr = f->getAttr(kEquivalentTo);
      if (!attr)
        continue;
      auto ref = dyn_cast<FlatSymbolRefAttr>(attr);
      if (!ref)
        return f.emitError("'")
               << kEquivalentTo << "' must name a function, like @original";
      func::FuncOp orig = lookup(ref.getValue(), f.getLoc());
      if (!orig)
        return failure();
      pairs.push_back({orig, f});
    }
    if (pairs.empty())
      return module.emitError("nothing to verify: mark a candidate function "
                              "with {")
             << kEquivalentTo
             << " = @original} or pass original= and candidate=";
    return success();
  }

  LogicalResult verifyPair(func::FuncOp orig, func::FuncOp cand,
                           const VerifierOptions &options) {
    FailureOr<VerificationReport> report =
        verifyEquivalence(orig, cand, options);
    if (failed(report))
      return failure();
    if (report->outsideFragment)
      mlir::emitWarning(report->outsideFragment->getLoc())
          << "'" << report->outsideFragment->getName()
          << "' is outside the LAX fragment of the finite-field verifier ("
          << report->outsideReason
          << "); equivalence is checked by floating point only, a weaker "
             "guarantee";
    if (report->equivalent) {
      mlir::emitRemark(cand.getLoc(), "@")
          << cand.getSymName() << " is equivalent to @" << orig.getSymName()
          << ": " << report->summary();
      return success();
    }
    const Mismatch &m = *report->mismatch;
    InFlightDiagnostic diag = mlir::emitError(cand.getLoc(), "@")
                              << cand.getSymName() << " is not equivalent to @"
                              << orig.getSymName() << ": output #" << m.output
                              << " differs at [";
    llvm::interleaveComma(m.position, diag);
    diag << "] in the " << m.method << ": @" << orig.getSymName() << " gives "
         << m.originalValue << ", @" << cand.getSymName() << " gives "
         << m.candidateValue << " (" << m.detail << ")";
    return failure();
  }
};
} // namespace
