//===- MirageToPtx.cpp - the --mirage-to-ptx pipeline ---------------------===//
//
// One flag from a graph- or kernel-level module to PTX, cubin and manifest:
// the default schedule (or the search), default block graphs for the
// remaining predefined kernels, the block and thread code generator, host
// launches, then upstream MLIR: scf to cf, nvgpu and gpu to NVVM (bare pointers, so a
// kernel parameter is one device pointer), the #nvvm.target, and the
// serialization through NVPTX and ptxas.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
struct MirageToPtxOptions : PassPipelineOptions<MirageToPtxOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("sm_80 or sm_90"),
                           llvm::cl::init("sm_90")};
  Option<std::string> output{
      *this, "output",
      llvm::cl::desc("Path prefix of the .ptx, .cubin and .json written")};
  Option<bool> search{*this, "search",
                      llvm::cl::desc("Superoptimize graph-level functions "
                                     "instead of the default schedule"),
                      llvm::cl::init(false)};
  Option<double> timeBudget{
      *this, "time-budget",
      llvm::cl::desc("With search: seconds per subprogram"),
      llvm::cl::init(60)};
  Option<int64_t> threads{*this, "threads",
                          llvm::cl::desc("Threads per block of every kernel"),
                          llvm::cl::init(128)};
  Option<bool> cubin{*this, "cubin",
                     llvm::cl::desc("Also assemble a cubin with ptxas"),
                     llvm::cl::init(true)};
  Option<std::string> toolkit{*this, "toolkit",
                              llvm::cl::desc("CUDA toolkit with bin/ptxas"),
                              llvm::cl::init("/usr/local/cuda")};
};
} // namespace

static void buildMirageToPtx(OpPassManager &pm,
                             const MirageToPtxOptions &options) {
  if (options.search) {
    mirage::SuperoptimizeOptions search;
    search.target = options.chip;
    search.timeBudget = options.timeBudget;
    pm.addPass(mirage::createSuperoptimize(search));
  } else {
    pm.addPass(mirage::createGraphToKernel());
  }
  pm.addPass(mirage::createKernelToBlock());
  pm.addPass(mirage::createThreadToArith());
  pm.addPass(mirage::createBlockToGpu({options.threads}));
  pm.addPass(mirage::createKernelToGpu());

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuNVVMAttachTargetOptions target;
  target.moduleMatcher = "mirage_kernels";
  target.chip = options.chip;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(mirage::createEmitGpuArtifacts(
      {options.output, options.cubin, options.toolkit}));
}

void mirage::registerMirageToPtxPipeline() {
  PassPipelineRegistration<MirageToPtxOptions>(
      "mirage-to-ptx",
      "Lowers graph- or kernel-level functions to PTX, cubin and a launch "
      "manifest (docs/GpuLowering.md)",
      buildMirageToPtx);
}
