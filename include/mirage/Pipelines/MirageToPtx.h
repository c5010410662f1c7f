//===- MirageToPtx.h - the --mirage-to-ptx pipeline ------------*- C++ -*-===//
//
// The pipeline from a graph- or kernel-level module to PTX, cubin and launch
// manifest, with its options public so that a host compiler can build it
// into its own pass manager (as upstream's GPUToNVVMPipeline.h does).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_PIPELINES_MIRAGETOPTX_H
#define MIRAGE_PIPELINES_MIRAGETOPTX_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace mirage {

/// The options of --mirage-to-ptx.
struct MirageToPtxOptions
    : mlir::PassPipelineOptions<MirageToPtxOptions> {
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("GPU to compile (and search) for: an arch or product "
                     "of the target database (default: the target the "
                     "program was searched for, mirage.target, else sm_90)"),
      llvm::cl::init("")};
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

/// Checks `options`, each error naming its option (an unknown target, no
/// output, a block size that is not a multiple of 32, a search for a chip
/// without a cost model); run before building.
mlir::LogicalResult checkMirageToPtxOptions(
    const MirageToPtxOptions &options,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> error);

/// Adds the pipeline's passes to `pm` (a module pass manager).
void buildMirageToPtxPipeline(mlir::OpPassManager &pm,
                              const MirageToPtxOptions &options);

/// Registers `mirage-to-ptx` and the upstream passes it is made of.
void registerMirageToPtxPipeline();

} // namespace mirage

#endif // MIRAGE_PIPELINES_MIRAGETOPTX_H
