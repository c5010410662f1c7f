//===- InitMirageOpt.cpp - everything mirage-opt registers ----------------===//

#include "mirage/Init/InitMirageOpt.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mirage/Conversion/Passes.h"
#include "mirage/Importers/Passes.h"
#include "mirage/Pipelines/MirageToPtx.h"
#include "mirage/Reports/Passes.h"
#include "mirage/Target/Cuda/Passes.h"
#include "mirage/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include <mutex>

void mirage::registerMirageOptDialects(mlir::DialectRegistry &registry) {
  registerMirageDialects(registry);
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
}

void mirage::registerMirageOptPasses() {
  // Pass registration is global; a host may ask more than once.
  static std::once_flag once;
  std::call_once(once, [] {
    registerMirageConversionPasses();
    registerMirageCudaTargetPasses();
    registerMirageReportsPasses();
    registerMirageTransformsPasses();
    registerMirageImportersPasses();
    registerMirageToPtxPipeline();
    // Generic upstream passes (canonicalize, cse, ...) for pipelines.
    mlir::registerTransformsPasses();
  });
}
