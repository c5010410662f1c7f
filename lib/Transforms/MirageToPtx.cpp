//===- MirageToPtx.cpp - the --mirage-to-ptx pipeline ---------------------===//
//
// One flag from a graph- or kernel-level module to PTX, cubin and manifest:
// the default schedule (or the search), default block graphs for the
// remaining predefined kernels, the block and thread code generator, host
// launches, then upstream MLIR: scf to cf, nvgpu and gpu to NVVM (bare
// pointers, so a kernel parameter is one device pointer) with the dynamic
// shared memory made an extern array (our --extern-dynamic-shared-memory),
// the #nvvm.target with the chip's PTX ISA version, and the serialization
// through NVPTX and ptxas. Its options are checked when the pipeline is
// built, before any pass runs.
//
//===----------------------------------------------------------------------===//

#include "Superopt/CostModel/CostModel.h"
#include "Transforms/GpuChip.h"
#include "Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace mlir;

namespace {
struct MirageToPtxOptions : PassPipelineOptions<MirageToPtxOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU to compile for: one of the chip table's "
                     "(docs/GpuLowering.md, \"Chips\")"),
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

/// The options' errors, each naming the option; the chip's table entry
/// when there is none.
static FailureOr<const mirage::GpuChip *>
checkOptions(const MirageToPtxOptions &options,
             function_ref<LogicalResult(const Twine &)> error) {
  const mirage::GpuChip *chip = mirage::lookupGpuChip(options.chip);
  if (!chip)
    return error("mirage-to-ptx: " +
                 mirage::unsupportedGpuChipMessage(options.chip));
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
        mirage::superopt::GpuTarget::get(options.chip);
    if (!target) {
      llvm::consumeError(target.takeError());
      return error("mirage-to-ptx: search=true needs a chip the cost model "
                   "describes (docs/CostModel.md: sm_80, sm_90), got '" +
                   options.chip + "'; without search every supported chip "
                   "works");
    }
  }
  return chip;
}

static void buildMirageToPtx(OpPassManager &pm,
                             const MirageToPtxOptions &options,
                             const mirage::GpuChip &chip) {
  if (options.search) {
    mirage::SuperoptimizeOptions search;
    search.target = options.chip;
    search.timeBudget = options.timeBudget;
    pm.addPass(mirage::createSuperoptimize(search));
  } else {
    pm.addPass(mirage::createGraphToKernel());
  }
  pm.addPass(mirage::createKernelToBlock({options.chip}));
  pm.addPass(mirage::createThreadToArith());
  pm.addPass(mirage::createBlockToGpu({options.threads, options.chip}));
  pm.addPass(mirage::createKernelToGpu());

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // The dynamic shared memory as an `.extern .shared` array instead of the
  // 1-byte static `.shared` variable the conversion leaves, which the
  // kernels index far past (ptxas warns of out-of-bound accesses).
  kernels.addPass(mirage::createExternDynamicSharedMemory());
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuNVVMAttachTargetOptions target;
  target.moduleMatcher = "mirage_kernels";
  target.chip = options.chip;
  // Without it LLVM emits the chip's first PTX ISA version, which may lack
  // an instruction the kernels use (m16n8k8 on sm_75).
  target.features = "+ptx" + std::to_string(chip.ptxVersion);
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
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
  registerConvertNVGPUToNVVMPass();
  registerConvertGpuOpsToNVVMOps();
  registerReconcileUnrealizedCastsPass();
  registerGpuNVVMAttachTarget();

  registerPassPipeline(
      "mirage-to-ptx",
      "Lowers graph- or kernel-level functions to PTX, cubin and a launch "
      "manifest (docs/GpuLowering.md)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        MirageToPtxOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        FailureOr<const GpuChip *> chip = checkOptions(options, errorHandler);
        if (failed(chip))
          return failure();
        buildMirageToPtx(pm, options, **chip);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(MirageToPtxOptions());
      });
}
