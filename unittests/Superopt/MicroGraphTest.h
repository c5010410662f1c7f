//===- MicroGraphTest.h - fixture that parses µGraph modules ----*- C++ -*-===//
//
// The GoogleTest fixture shared by the tests that parse µGraph functions from
// MLIR text: a context with the four dialects and func loaded, and the
// module last parsed.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_UNITTESTS_SUPEROPT_MICROGRAPHTEST_H
#define MIRAGE_UNITTESTS_SUPEROPT_MICROGRAPHTEST_H

#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

namespace mirage::testing {

class MicroGraphTest : public ::testing::Test {
protected:
  MicroGraphTest() {
    mlir::DialectRegistry registry;
    registerMirageDialects(registry);
    registry.insert<mlir::func::FuncDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Parses (and verifies) `src` into `module`; false on failure.
  bool parse(llvm::StringRef src) {
    module = mlir::parseSourceString<mlir::ModuleOp>(src, &ctx);
    return bool(module);
  }
  mlir::func::FuncOp fn(llvm::StringRef name) {
    return module->lookupSymbol<mlir::func::FuncOp>(name);
  }

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace mirage::testing

#endif // MIRAGE_UNITTESTS_SUPEROPT_MICROGRAPHTEST_H
