//===- mirage-opt.cpp - the mirage-opt driver -----------------------------===//
//
// MlirOptMain with the four µGraph dialects, every upstream dialect the
// pipeline reads or lowers to (so that the output of each lowering stage
// parses back), and mirage-opt's passes, the importers among them.
//
//===----------------------------------------------------------------------===//

#include "Dialect/MirageDialects.h"
#include "Importers/Passes.h"
#include "Transforms/Passes.h"
#include "Version.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mirage::registerMirageDialects(registry);
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::tensor::TensorDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::linalg::LinalgDialect, mlir::tosa::TosaDialect,
                  mlir::gpu::GPUDialect, mlir::NVVM::NVVMDialect,
                  mlir::LLVM::LLVMDialect, mlir::cf::ControlFlowDialect,
                  mlir::vector::VectorDialect, mlir::nvgpu::NVGPUDialect>();
  // The lowering to PTX: conversions to LLVM, the NVVM target's
  // serialization and LLVM IR translation.
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);

  mirage::registerMiragePasses();
  mirage::registerMirageImportersPasses();
  mirage::registerMirageToPtxPipeline();
  // Generic upstream passes (canonicalize, cse, ...) for pipelines.
  mlir::registerTransformsPasses();

  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << MIRAGE_PROJECT_NAME " " MIRAGE_VERSION_STRING
          " (LLVM and MLIR " LLVM_VERSION_STRING ")\n";
  });
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "mirage-opt: multi-level superoptimizer for tensor programs\n",
      registry));
}
