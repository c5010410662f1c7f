//===- AttachGpuTarget.cpp - #nvvm.target for the kernels' chip -----------===//
//
// Upstream's --nvvm-attach-target takes its chip from the pipeline text,
// fixed before any IR is seen. The chip of our kernels is known only from
// the program: the target it was searched for, which --block-to-gpu
// records on @mirage_kernels. This pass reads it there, so that a searched
// program is lowered for the chip its µGraphs were ranked for.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Target/GpuChip.h"
#include "mirage/Target/Cuda/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mirage {
#define GEN_PASS_DEF_ATTACHGPUTARGET
#include "mirage/Target/Cuda/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

namespace {
struct AttachGpuTargetPass
    : mirage::impl::AttachGpuTargetBase<AttachGpuTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto kernels = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels");
    if (!kernels)
      return;
    StringRef generatedFor = getSearchedTarget(kernels);
    std::string name = !target.empty()         ? std::string(target)
                       : !generatedFor.empty() ? generatedFor.str()
                                              : target::kDefaultTarget.str();
    const GpuChip *chip = lookupGpuChipOfTarget(name);
    if (!chip) {
      emitError(kernels.getLoc())
          << "attach-gpu-target: " << unsupportedGpuChipMessage(name);
      return signalPassFailure();
    }
    if (!generatedFor.empty() && generatedFor != chip->name) {
      emitError(kernels.getLoc())
          << "attach-gpu-target: the kernels were generated for "
          << generatedFor << ", not for " << chip->name << " (target="
          << name << "); lower again with block-to-gpu target=" << name;
      return signalPassFailure();
    }
    auto attr = NVVM::NVVMTargetAttr::get(
        &getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda", chip->name,
        "+ptx" + std::to_string(chip->ptxVersion));
    kernels.setTargetsAttr(ArrayAttr::get(&getContext(), {attr}));
  }
};
} // namespace
