// Parses a graph-level function, lowers it with --graph-to-kernel through
// the pass manager and runs it in the interpreter, using only installed
// headers and libraries.
#include "mirage/Dialect/MirageDialects.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Conversion/GraphToKernel/GraphToKernel.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  mirage::registerMirageDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    func.func @f(%x: tensor<2x2xf32>, %w: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = graph.matmul %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
      %z = graph.exp %y : tensor<2x2xf32>
      return %z : tensor<2x2xf32>
    })mlir",
                                                        &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  pm.addPass(mirage::createGraphToKernel());
  if (mlir::failed(pm.run(*module)))
    return 1;
  auto f = module->lookupSymbol<mlir::func::FuncOp>("f");
  const int64_t shape[] = {2, 2};
  mirage::superopt::RealTensor x(shape), w(shape);
  x.data = {1, 2, 3, 4};
  w.data = {0, 0.5, -0.5, 0};
  auto out = mirage::superopt::interpretReal(f, {x, w},
                                             mirage::superopt::RealMode::FP64);
  if (mlir::failed(out))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\nresult:";
  for (double v : (*out)[0].data)
    llvm::outs() << " " << llvm::format("%.6f", v);
  llvm::outs() << "\n";
  return 0;
}
