//===- MirageToPtx.cpp - the --mirage-to-ptx pipeline ---------------------===//
//
// One flag from a graph- or kernel-level module to PTX, cubin and manifest:
// the default schedule (or the search), default block graphs for the
// remaining predefined kernels, the block and thread code generator, host
// launches, then upstream MLIR: scf to cf, nvgpu and gpu to NVVM (bare
// pointers, so a kernel parameter is one device pointer) with the dynamic
// shared memory made an extern array (our --extern-dynamic-shared-memory),
// the #nvvm.target of the chip the kernels were generated for (the
// program's searched-for target unless `target` says otherwise), and the
// serialization through NVPTX and ptxas. Its options are checked when the pipeline is
// built, before any pass runs.
//
//===----------------------------------------------------------------------===//

#include "mirage/Pipelines/MirageToPtx.h"
#include "mirage/Conversion/Passes.h"
#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Target/Cuda/Passes.h"
#include "mirage/Target/GpuChip.h"
#include "mirage/Target/KnownTargets.h"
#include "mirage/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;


/// The target the search ranks for: the option, else the default (a
/// program that is searched records no target before).
static std::string searchTarget(const mirage::MirageToPtxOptions &options) {
  return options.target.empty() ? mirage::target::kDefaultTarget.str()
                                : std::string(options.target);
}

/// The options' errors, each naming the option.
LogicalResult mirage::checkMirageToPtxOptions(
    const MirageToPtxOptions &options,
             function_ref<LogicalResult(const Twine &)> error) {
  if (!options.target.empty() &&
      !mirage::lookupGpuChipOfTarget(options.target))
    return error("mirage-to-ptx: " +
                 mirage::unsupportedGpuChipMessage(options.target));
  if (options.output.empty())
    return error("mirage-to-ptx: output must name the path prefix of the "
                 ".ptx, .cubin and .json files");
  int64_t threads = options.threads;
  if (threads < 32 || threads > mirage::kGpuMaxThreadsPerBlock || threads % 32)
    return error("mirage-to-ptx: threads must be a multiple of 32 in [32, " +
                 Twine(mirage::kGpuMaxThreadsPerBlock) + "], got " +
                 Twine(threads));
  double budget = options.timeBudget;
  if (!std::isfinite(budget) || budget <= 0)
    return error("mirage-to-ptx: time-budget must be a finite number of "
                 "seconds > 0, got " +
                 llvm::formatv("{0}", llvm::format("%g", budget)).str());
  if (options.search) {
    // The search ranks µGraphs with the cost model, which knows fewer chips.
    llvm::Expected<mirage::superopt::GpuTarget> target =
        mirage::superopt::GpuTarget::get(searchTarget(options));
    if (!target)
      return error("mirage-to-ptx: search=true: " +
                   llvm::toString(target.takeError()) +
                   "; without search every supported chip works");
  }
  return success();
}

void mirage::buildMirageToPtxPipeline(OpPassManager &pm,
                                      const MirageToPtxOptions &options) {
  if (options.search) {
    mirage::SuperoptimizeOptions search;
    search.target = searchTarget(options);
    search.timeBudget = options.timeBudget;
    pm.addPass(mirage::createSuperoptimize(search));
  } else {
    pm.addPass(mirage::createGraphToKernel());
  }
  // The lowering's target stays as given: when empty, each pass takes the
  // target the search recorded on the program (mirage.target).
  pm.addPass(mirage::createKernelToBlock({options.target}));
  pm.addPass(mirage::createThreadToArith());
  pm.addPass(mirage::createBlockToGpu({options.threads, options.target}));
  pm.addPass(mirage::createKernelToGpu());

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createSCFToControlFlowPass());
  // Padded tiles are subviews of their rows (block-to-gpu): their strided
  // layouts become plain address arithmetic before the LLVM conversion.
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // The dynamic shared memory as an `.extern .shared` array instead of the
  // 1-byte static `.shared` variable the conversion leaves, which the
  // kernels index far past (ptxas warns of out-of-bound accesses).
  kernels.addPass(mirage::createExternDynamicSharedMemory());
  pm.addPass(createReconcileUnrealizedCastsPass());

  // The #nvvm.target of the chip block-to-gpu generated the kernels for.
  pm.addPass(mirage::createAttachGpuTarget({options.target}));
  pm.addPass(mirage::createEmitGpuArtifacts(
      {options.output, options.cubin, options.toolkit}));
}

void mirage::registerMirageToPtxPipeline() {
  // Every pass the pipeline is made of, by name: a crash reproducer of the
  // pipeline (--mlir-pass-pipeline-crash-reproducer) states the passes
  // one by one, and --run-reproducer must find each of them.
  registerCanonicalizerPass();
  registerCSEPass();
  registerSCFToControlFlowPass();
  memref::registerExpandStridedMetadataPass();
  registerLowerAffinePass();
  registerConvertNVGPUToNVVMPass();
  registerConvertGpuOpsToNVVMOps();
  registerReconcileUnrealizedCastsPass();

  registerPassPipeline(
      "mirage-to-ptx",
      "Lowers graph- or kernel-level functions to PTX, cubin and a launch "
      "manifest (docs/GpuLowering.md)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        MirageToPtxOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (failed(checkMirageToPtxOptions(options, errorHandler)))
          return failure();
        buildMirageToPtxPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(MirageToPtxOptions());
      });
}
