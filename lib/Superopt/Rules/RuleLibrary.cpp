//===- RuleLibrary.cpp - the rule file that ships with mirage-opt ---------===//

#include "mirage/Superopt/Rules/RuleLibrary.h"
#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Rules/Discovery.h"
#include "mirage/Superopt/Rules/RuleFile.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mirage::rules;

llvm::StringRef mirage::rules::getDefaultRuleFileText() {
  static const char kText[] =
#include "DefaultRules.inc"
      ;
  return llvm::StringRef(kText, sizeof(kText) - 1);
}

mlir::FailureOr<std::vector<Rule>>
mirage::rules::loadRules(mlir::MLIRContext &ctx, mlir::Location loc,
                         llvm::StringRef path, bool acceptedOnly,
                         unsigned *skipped) {
  ctx.loadDialect<mlir::func::FuncDialect, mirage::graph::GraphDialect>();
  llvm::SourceMgr sources;
  if (path.empty() || path == "default") {
    sources.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(getDefaultRuleFileText(),
                                         "rules/graph-rules.mlir"),
        llvm::SMLoc());
  } else {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer)
      return mlir::emitError(loc) << "cannot read the rule file '" << path
                                  << "': " << buffer.getError().message();
    sources.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  }
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sources, config);
  if (!module)
    return mlir::emitError(loc) << "the rule file '"
                                << (path.empty() ? "default" : path)
                                << "' does not parse";
  mlir::FailureOr<std::vector<Rule>> rules = readRules(*module);
  if (failed(rules))
    return mlir::failure();
  if (skipped)
    *skipped = 0;
  if (!acceptedOnly)
    return rules;
  std::vector<Rule> accepted;
  for (Rule &r : *rules) {
    if (isAccepted(r))
      accepted.push_back(std::move(r));
    else if (skipped)
      ++*skipped;
  }
  return accepted;
}
