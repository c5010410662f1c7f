//===- mirage-opt.cpp - the mirage-opt driver -----------------------------===//
//
// MlirOptMain with the four µGraph dialects, every upstream dialect the
// pipeline reads or lowers to (so that the output of each lowering stage
// parses back), and mirage-opt's passes.
//
//===----------------------------------------------------------------------===//

#include "mirage/Init/InitMirageOpt.h"
#include "mirage/Version.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mirage::registerMirageOptDialects(registry);
  mirage::registerMirageOptPasses();

  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << MIRAGE_PROJECT_NAME " " MIRAGE_VERSION_STRING
          " (LLVM and MLIR " LLVM_VERSION_STRING ")\n";
  });
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "mirage-opt: multi-level superoptimizer for tensor programs\n",
      registry));
}
