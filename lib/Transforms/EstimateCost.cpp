//===- EstimateCost.cpp - reports the cost model's estimate per kernel ----===//

#include "Dialect/Kernel/KernelOps.h"
#include "Superopt/CostModel/CostModel.h"
#include "Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

namespace mirage {
#define GEN_PASS_DEF_ESTIMATECOST
#include "Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

namespace {
struct EstimateCostPass
    : public mirage::impl::EstimateCostBase<EstimateCostPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<GpuTarget> gpu = GpuTarget::get(target);
    if (!gpu) {
      module.emitError("estimate-cost: ") << llvm::toString(gpu.takeError());
      return signalPassFailure();
    }
    if (!calibration.empty()) {
      if (llvm::Error err = gpu->applyCalibration(calibration)) {
        module.emitError("estimate-cost: ") << llvm::toString(std::move(err));
        return signalPassFailure();
      }
    }
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        ok &= succeeded(estimate(func, *gpu));
    if (!ok)
      signalPassFailure();
  }

  LogicalResult estimate(func::FuncOp func, const GpuTarget &gpu) {
    // The per-kernel loop of superopt::estimateFunction, repeated here so
    // that each kernel gets its own remark and each failure its location.
    bool ok = true;
    double totalUs = 0;
    int64_t kernels = 0;
    for (Operation &op : func.getBody().front()) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      llvm::Expected<KernelCost> cost = estimateKernel(&op, gpu);
      if (!cost) {
        op.emitError("estimate-cost: ") << llvm::toString(cost.takeError());
        ok = false;
        continue;
      }
      totalUs += cost->timeUs;
      kernels += cost->bound != "free";
      InFlightDiagnostic remark = op.emitRemark();
      remark << op.getName() << ": "
             << llvm::formatv("{0:f2}", cost->timeUs).str() << " us on "
             << gpu.name << ", ";
      // "measured" is a calibrated time and "free" a view: neither is a
      // roofline limit.
      if (cost->bound == "measured" || cost->bound == "free")
        remark << cost->bound;
      else
        remark << cost->bound << "-bound";
      remark << "; device memory "
             << llvm::formatv("{0:f0}", cost->dramBytes).str() << " B, L2 "
             << llvm::formatv("{0:f0}", cost->l2Bytes).str()
             << " B, shared memory "
             << llvm::formatv("{0:f0}", cost->smemBytes).str() << " B, "
             << llvm::formatv("{0:f0}", cost->flops).str() << " FLOP";
      if (isa<kernel::GraphDefOp>(op))
        remark << "; " << cost->blocks << " blocks in " << cost->waves
               << " wave(s), " << cost->smemFootprint
               << " B shared memory per block, " << cost->regsPerThread
               << " registers per thread";
    }
    if (!ok)
      return failure();
    func.emitRemark() << "@" << func.getSymName() << ": "
                      << llvm::formatv("{0:f2}", totalUs).str() << " us on "
                      << gpu.name << " in " << kernels << " kernel(s)";
    return success();
  }
};
} // namespace
