//===- EmitGpuArtifacts.cpp - PTX, cubin and the launch manifest ----------===//
//
// The last step of --mirage-to-ptx. The kernels (gpu.module, already in
// the NVVM and LLVM dialects with an #nvvm.target) are serialized with
// MLIR's own NVVM target: PTX from LLVM's NVPTX backend, cubin from ptxas.
// The host functions (gpu.launch_func on memrefs, from --kernel-to-gpu)
// become the JSON manifest a runner needs to allocate, launch and check
// them (format: docs/GpuLowering.md).
//
//===----------------------------------------------------------------------===//

#include "Superopt/CostModel/CostModel.h"
#include "Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mirage {
#define GEN_PASS_DEF_EMITGPUARTIFACTS
#include "Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

static LogicalResult writeFile(Location loc, StringRef path,
                               StringRef contents) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitError(loc) << "cannot write " << path << ": " << error;
  file->os() << contents;
  file->keep();
  return success();
}

static std::string dtypeName(Type t) {
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isF32())
    return "f32";
  return "";
}

/// The manifest entry of one host function, or failure with a diagnostic.
/// `maxShared`: the chip's opt-in dynamic shared memory per block, when the
/// cost model knows the chip (0 otherwise).
static FailureOr<llvm::json::Object> describeFunction(func::FuncOp func,
                                                      StringRef chip,
                                                      int64_t maxShared) {
  DenseMap<Value, std::string> names;
  llvm::json::Array buffers, launches;
  auto buffer = [&](Value v, StringRef name, StringRef role,
                    std::optional<int64_t> index,
                    StringRef viewOf) -> LogicalResult {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.hasStaticShape() || dtypeName(type.getElementType()).empty())
      return emitError(v.getLoc())
             << "buffer " << name << " has type " << v.getType()
             << "; the manifest holds static f16, bf16 or f32 memrefs";
    // json::Value keeps a StringRef as a reference: give it owned strings.
    llvm::json::Object entry{{"name", name.str()}, {"role", role.str()}};
    if (index)
      entry["index"] = *index;
    if (!viewOf.empty())
      entry["view_of"] = viewOf.str();
    entry["shape"] = llvm::json::Array(type.getShape());
    entry["dtype"] = dtypeName(type.getElementType());
    entry["bytes"] = type.getNumElements() *
                     (type.getElementTypeBitWidth() / 8);
    buffers.push_back(std::move(entry));
    names[v] = name.str();
    return success();
  };

  int64_t output = 0, input = 0;
  for (BlockArgument arg : func.getArguments()) {
    bool isOutput = static_cast<bool>(
        func.getArgAttr(arg.getArgNumber(), "mirage.output"));
    std::string name = isOutput ? "result" + std::to_string(output)
                                : "arg" + std::to_string(input);
    if (failed(buffer(arg, name, isOutput ? "output" : "input",
                      isOutput ? output++ : input++, "")))
      return failure();
  }
  int64_t temps = 0, views = 0;
  auto constant = [](Value v) -> std::optional<int64_t> {
    llvm::APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  };
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      return WalkResult(buffer(alloc, "tmp" + std::to_string(temps++), "temp",
                               std::nullopt, ""));
    if (auto cast = dyn_cast<memref::ReinterpretCastOp>(op)) {
      // A view of a view is a view of the first buffer.
      Value base = cast.getSource();
      while (auto inner = base.getDefiningOp<memref::ReinterpretCastOp>())
        base = inner.getSource();
      return WalkResult(buffer(cast, "view" + std::to_string(views++), "view",
                               std::nullopt, names.lookup(base)));
    }
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch)
      return WalkResult::advance();
    SmallVector<int64_t> grid, block;
    gpu::KernelDim3 g = launch.getGridSizeOperandValues(),
                    t = launch.getBlockSizeOperandValues();
    for (Value v : {g.x, g.y, g.z, t.x, t.y, t.z}) {
      std::optional<int64_t> c = constant(v);
      if (!c)
        return launch.emitOpError("has a grid or block size that is not a "
                                  "constant; the manifest needs fixed sizes");
      (grid.size() < 3 ? grid : block).push_back(*c);
    }
    int64_t smem = 0;
    if (Value s = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> c = constant(s);
      if (!c)
        return launch.emitOpError("has a dynamic shared memory size that is "
                                  "not a constant");
      smem = *c;
    }
    if (maxShared && smem > maxShared)
      return launch.emitOpError("needs ")
             << smem << " bytes of dynamic shared memory per block; " << chip
             << " allows " << maxShared;
    llvm::json::Array args;
    for (Value v : launch.getKernelOperands()) {
      auto it = names.find(v);
      if (it == names.end())
        return launch.emitOpError("takes an operand that is no argument, "
                                  "memref.alloc or reshape view");
      args.push_back(it->second);
    }
    launches.push_back(llvm::json::Object{
        {"kernel", launch.getKernelName().getValue().str()},
        {"grid", llvm::json::Array(grid)},
        {"block", llvm::json::Array(block)},
        {"dynamic_shared_memory", smem},
        {"args", std::move(args)}});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  llvm::json::Object entry{{"name", func.getSymName().str()}};
  if (auto ref = func->getAttrOfType<StringAttr>("mirage.reference"))
    entry["reference"] = ref.getValue().str();
  entry["buffers"] = std::move(buffers);
  entry["launches"] = std::move(launches);
  return entry;
}

namespace {
struct EmitGpuArtifactsPass
    : mirage::impl::EmitGpuArtifactsBase<EmitGpuArtifactsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (output.empty()) {
      module.emitError("emit-gpu-artifacts needs output=<path prefix>");
      return signalPassFailure();
    }
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels");
    if (!gpuModule) {
      module.emitError("the module has no gpu.module @mirage_kernels; run "
                       "--block-to-gpu first");
      return signalPassFailure();
    }
    ArrayAttr targets = gpuModule.getTargetsAttr();
    auto nvvm = targets && targets.size() == 1
                    ? dyn_cast<NVVM::NVVMTargetAttr>(targets[0])
                    : NVVM::NVVMTargetAttr();
    if (!nvvm) {
      gpuModule.emitError("needs exactly one #nvvm.target; run "
                          "--nvvm-attach-target first");
      return signalPassFailure();
    }
    auto target = dyn_cast<gpu::TargetAttrInterface>(Attribute(nvvm));
    if (!target) {
      gpuModule.emitError("#nvvm.target cannot serialize in this tool: its "
                          "NVVM target interface is not registered "
                          "(NVVM::registerNVVMTargetInterfaceExternalModels)");
      return signalPassFailure();
    }

    // Host functions first: a malformed one should fail before ptxas runs.
    int64_t maxShared = 0;
    if (auto known = superopt::GpuTarget::get(nvvm.getChip()))
      maxShared = known->smemPerBlockBytes;
    else
      llvm::consumeError(known.takeError());
    llvm::json::Array functions;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || func.getOps<gpu::LaunchFuncOp>().empty())
        continue;
      FailureOr<llvm::json::Object> entry =
          describeFunction(func, nvvm.getChip(), maxShared);
      if (failed(entry))
        return signalPassFailure();
      functions.push_back(std::move(*entry));
    }

    // One serialization: NVPTX runs once and its PTX reaches us through the
    // target's ISA callback; with a cubin, ptxas then assembles that PTX.
    std::string ptx;
    auto keepPtx = [&](StringRef isa) { ptx = isa.str(); };
    gpu::TargetOptions options(
        toolkit, {}, "", "",
        cubin ? gpu::CompilationTarget::Binary
              : gpu::CompilationTarget::Assembly,
        {}, {}, {}, {}, keepPtx);
    std::optional<SmallVector<char, 0>> object =
        target.serializeToObject(gpuModule, options);
    // The serializer notes its timings on the module; they would make the
    // printed IR differ from run to run.
    gpuModule->removeAttr("LLVMIRToISATimeInMs");
    gpuModule->removeAttr("ISAToBinaryTimeInMs");
    if (ptx.empty()) {
      gpuModule.emitError("NVPTX code generation failed");
      return signalPassFailure();
    }
    if (!object) {
      gpuModule.emitError("ptxas failed for ")
          << nvvm.getChip() << " (toolkit " << toolkit << ")";
      return signalPassFailure();
    }
    std::string prefix = output;
    StringRef stem = llvm::sys::path::filename(prefix);
    llvm::json::Object manifest{{"format", "mirage-gpu-manifest"},
                                {"version", 1},
                                {"chip", nvvm.getChip().str()},
                                {"ptx", (stem + ".ptx").str()}};
    if (failed(writeFile(module.getLoc(), prefix + ".ptx", ptx)))
      return signalPassFailure();
    if (cubin) {
      if (failed(writeFile(module.getLoc(), prefix + ".cubin",
                           StringRef(object->data(), object->size()))))
        return signalPassFailure();
      manifest["cubin"] = (stem + ".cubin").str();
    }
    manifest["functions"] = std::move(functions);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
    if (failed(writeFile(module.getLoc(), prefix + ".json", text)))
      return signalPassFailure();
  }
};
} // namespace
