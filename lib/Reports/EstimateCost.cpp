//===- EstimateCost.cpp - reports the cost model's estimate per kernel ----===//

#include "mirage/Dialect/MirageAttributes.h"
#include <map>
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Reports/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Remarks.h"
#include "llvm/Support/FormatVariadic.h"

namespace mirage {
#define GEN_PASS_DEF_ESTIMATECOST
#include "mirage/Reports/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

/// Numbers as remark metrics: times in µs to the nanosecond, counts (which
/// may exceed 64 bits) as integers.
static std::string microseconds(double us) {
  return llvm::formatv("{0:F3}", us).str();
}
static std::string count(double n) { return llvm::formatv("{0:F0}", n).str(); }

namespace {
struct EstimateCostPass
    : public mirage::impl::EstimateCostBase<EstimateCostPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Errors at the module's location, without printing the module.
    Location loc = module.getLoc();
    // Each function on `target`, else on the target it was searched for.
    std::map<std::string, GpuTarget> loaded;
    auto gpuFor = [&](func::FuncOp func) -> const GpuTarget * {
      std::string name = resolveLoweringTarget(func, target, "estimate-cost");
      if (auto it = loaded.find(name); it != loaded.end())
        return &it->second;
      llvm::Expected<GpuTarget> gpu = GpuTarget::get(name, calibration);
      if (!gpu) {
        // At the module when the option named it, else at the function.
        emitError(target.empty() ? func.getLoc() : loc)
            << "estimate-cost: " << llvm::toString(gpu.takeError());
        return nullptr;
      }
      return &loaded.emplace(name, std::move(*gpu)).first->second;
    };
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      const GpuTarget *gpu = gpuFor(func);
      if (!gpu)
        return signalPassFailure();
      ok &= succeeded(estimate(func, *gpu));
    }
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
      reportKernel(op, func, *cost, gpu);
    }
    if (!ok)
      return failure();
    func.emitRemark() << "@" << func.getSymName() << ": "
                      << llvm::formatv("{0:f2}", totalUs).str() << " us on "
                      << gpu.name << " in " << kernels << " kernel(s)";
    remark::analysis(func.getLoc(),
                     remark::RemarkOpts::name("FunctionCost")
                         .category("mirage-cost")
                         .subCategory("function")
                         .function(func.getSymName()))
        << remark::add("@{0}: {1:f2} us on {2} in {3} kernel(s)",
                       func.getSymName(), totalUs, gpu.name, kernels)
        << remark::metric("Target", StringRef(gpu.name))
        << remark::metric("TimeUs", microseconds(totalUs))
        << remark::metric("Kernels", kernels);
    return success();
  }

  /// One kernel's estimate: the text remark and the remark engine's.
  void reportKernel(Operation &op, func::FuncOp func, const KernelCost &cost,
                    const GpuTarget &gpu) {
    // "measured" is a calibrated time and "free" a view: neither is a
    // roofline limit.
    std::string bound = cost.bound == "measured" || cost.bound == "free"
                            ? cost.bound.str()
                            : (cost.bound + "-bound").str();
    InFlightDiagnostic text = op.emitRemark();
    text << op.getName() << ": "
         << llvm::formatv("{0:f2}", cost.timeUs).str() << " us on " << gpu.name
         << ", " << bound << "; device memory "
         << llvm::formatv("{0:f0}", cost.dramBytes).str() << " B, L2 "
         << llvm::formatv("{0:f0}", cost.l2Bytes).str() << " B, shared memory "
         << llvm::formatv("{0:f0}", cost.smemBytes).str() << " B, "
         << llvm::formatv("{0:f0}", cost.flops).str() << " FLOP";
    bool graphDefined = isa<kernel::GraphDefOp>(op);
    if (graphDefined)
      text << "; " << cost.blocks << " blocks in " << cost.waves
           << " wave(s), " << cost.smemFootprint
           << " B shared memory per block, " << cost.regsPerThread
           << " registers per thread";
    text.report();

    auto inFlight =
        remark::analysis(op.getLoc(), remark::RemarkOpts::name("KernelCost")
                                          .category("mirage-cost")
                                          .subCategory("kernel")
                                          .function(func.getSymName()));
    inFlight << remark::add("{0}: {1:f2} us on {2}, {3}",
                            op.getName().getStringRef(), cost.timeUs, gpu.name,
                            bound)
             << remark::metric("Op", op.getName().getStringRef())
             << remark::metric("Target", StringRef(gpu.name))
             << remark::metric("TimeUs", microseconds(cost.timeUs))
             << remark::metric("Bound", cost.bound)
             << remark::metric("DeviceMemoryBytes", count(cost.dramBytes))
             << remark::metric("L2Bytes", count(cost.l2Bytes))
             << remark::metric("SharedMemoryBytes", count(cost.smemBytes))
             << remark::metric("Flops", count(cost.flops));
    if (graphDefined)
      inFlight << remark::metric("Blocks", cost.blocks)
               << remark::metric("Waves", cost.waves)
               << remark::metric("SharedMemoryPerBlock", cost.smemFootprint)
               << remark::metric("RegistersPerThread", cost.regsPerThread);
  }
};
} // namespace
