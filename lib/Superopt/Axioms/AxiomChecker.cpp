//===- AxiomChecker.cpp - run axiom instances with the interpreter --------===//

#include "mirage/Superopt/Axioms/AxiomChecker.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <random>

using namespace mirage::superopt;

/// The function's operations in generic form. With a local scope the value
/// numbering restarts in each function, so two functions computing the same
/// thing the same way print the same text.
static std::string bodyText(mlir::func::FuncOp func) {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  flags.printGenericOpForm().useLocalScope();
  for (mlir::Operation &op : func.getBody().front()) {
    op.print(os, flags);
    os << '\n';
  }
  return text;
}

static llvm::SmallVector<RealTensor>
randomInputs(mlir::FunctionType type, double low, double high, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(low, high);
  llvm::SmallVector<RealTensor> inputs;
  for (mlir::Type input : type.getInputs()) {
    RealTensor t(llvm::cast<mlir::RankedTensorType>(input).getShape());
    for (double &x : t.data)
      x = uniform(rng);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

llvm::Expected<AxiomCheckResult>
mirage::superopt::checkAxiomInstance(llvm::StringRef source, double inputLow,
                                     double inputHigh, mlir::MLIRContext &ctx,
                                     const AxiomCheckOptions &options) {
  mlir::DialectRegistry registry;
  mirage::registerMirageDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();

  // Parser and interpreter report through diagnostics; keep their text for
  // the error.
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(what + (diagnostics.empty() ? "" : ": ") +
                                   diagnostics);
  };

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &ctx);
  if (!module)
    return fail("the instance does not parse");
  auto lhs = module->lookupSymbol<mlir::func::FuncOp>("lhs");
  auto rhs = module->lookupSymbol<mlir::func::FuncOp>("rhs");
  if (!lhs || !rhs)
    return fail("the instance needs functions @lhs and @rhs");
  if (lhs.getFunctionType() != rhs.getFunctionType())
    return fail("@lhs and @rhs have different types");
  for (mlir::Type t : lhs.getFunctionType().getInputs())
    if (!llvm::isa<mlir::RankedTensorType>(t))
      return fail("instance arguments must be ranked tensors");
  if (bodyText(lhs) == bodyText(rhs))
    return fail("@lhs and @rhs have identical bodies");

  AxiomCheckResult result;
  for (unsigned trial = 0; trial < options.trials; ++trial) {
    llvm::SmallVector<RealTensor> inputs = randomInputs(
        lhs.getFunctionType(), inputLow, inputHigh, options.seed + trial);
    auto a = interpretReal(lhs, inputs, RealMode::FP64);
    if (mlir::failed(a))
      return fail("interpreting @lhs failed");
    auto b = interpretReal(rhs, inputs, RealMode::FP64);
    if (mlir::failed(b))
      return fail("interpreting @rhs failed");
    for (size_t r = 0; r < a->size(); ++r) {
      const RealTensor &x = (*a)[r], &y = (*b)[r];
      if (x.shape != y.shape || x.data.size() != y.data.size())
        return fail(llvm::formatv("result {0} has different shapes", r).str());
      for (size_t i = 0; i < x.data.size(); ++i) {
        double error =
            std::fabs(x.data[i] - y.data[i]) / (1 + std::fabs(y.data[i]));
        // NaN compares false, so test for agreement rather than mismatch.
        bool agrees = error <= options.tolerance;
        if (!(error <= result.worstError) && !std::isnan(result.worstError))
          result.worstError = error;
        if (!agrees && result.mismatch.empty())
          result.mismatch =
              llvm::formatv("trial {0}, result {1}, element {2}: lhs {3} vs "
                            "rhs {4}",
                            trial, r, i, llvm::format("%.17g", x.data[i]),
                            llvm::format("%.17g", y.data[i]))
                  .str();
      }
    }
  }
  result.holds = result.mismatch.empty();
  return result;
}

llvm::Expected<AxiomCheckResult>
mirage::superopt::checkAxiom(const OperatorAxiom &axiom, mlir::MLIRContext &ctx,
                             const AxiomCheckOptions &options) {
  llvm::Expected<AxiomCheckResult> result = checkAxiomInstance(
      axiom.instance, axiom.inputLow, axiom.inputHigh, ctx, options);
  if (!result)
    return llvm::createStringError("axiom '" + axiom.name +
                                   "': " + llvm::toString(result.takeError()));
  return result;
}
