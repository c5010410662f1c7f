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

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Runtime/Manifest.h"
#include "mirage/Target/GpuChip.h"
#include "mirage/Target/Cuda/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mirage {
#define GEN_PASS_DEF_EMITGPUARTIFACTS
#include "mirage/Target/Cuda/Passes.h.inc"
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

/// Whether `name` is a PTX identifier: [A-Za-z][A-Za-z0-9_$]* or
/// [_$%][A-Za-z0-9_$]+. LLVM's NVPTX printer aborts on other symbol names.
static bool isPtxIdentifier(StringRef name) {
  if (name.empty())
    return false;
  auto inBody = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  char first = name.front();
  if (llvm::isAlpha(first))
    return llvm::all_of(name.drop_front(), inBody);
  return (first == '_' || first == '$' || first == '%') && name.size() > 1 &&
         llvm::all_of(name.drop_front(), inBody);
}

/// The PTX ISA version the target asks for ("+ptx78" in its features), or
/// the one LLVM's NVPTX backend picks without: the chip's first.
static unsigned targetPtxVersion(NVVM::NVVMTargetAttr target,
                                 const GpuChip &chip) {
  unsigned version = 0;
  SmallVector<StringRef> features;
  target.getFeatures().split(features, ',', -1, /*KeepEmpty=*/false);
  for (StringRef feature : features) {
    feature = feature.trim();
    if (feature.consume_front("+ptx") && feature.getAsInteger(10, version))
      version = 0;
  }
  return version ? version : chip.minPtxVersion;
}

/// Fails with an error at the first op of `gpuModule` that LLVM could not
/// compile for `chip` in PTX ISA `ptx`, instead of letting instruction
/// selection abort: symbol names that are no PTX identifiers, cp.async
/// before sm_80, mma.sync shapes the chip lacks.
static LogicalResult checkKernelsFitChip(gpu::GPUModuleOp gpuModule,
                                         const GpuChip &chip, unsigned ptx) {
  auto version = [](unsigned v) {
    return std::to_string(v / 10) + "." + std::to_string(v % 10);
  };
  auto require = [&](Operation *op, StringRef what, bool onChip,
                     StringRef chips, unsigned needPtx) -> LogicalResult {
    if (!onChip)
      return op->emitOpError("uses ")
             << what << ", which " << chip.name << " does not have ("
             << chips << "); generate the kernels for " << chip.name
             << " (block-to-gpu target=" << chip.name << ")";
    if (ptx < needPtx)
      return op->emitOpError("uses ")
             << what << ", which needs PTX ISA " << version(needPtx)
             << "; the #nvvm.target asks for " << version(ptx)
             << " (give it features = \"+ptx" << needPtx << "\" or later)";
    return success();
  };
  WalkResult walk = gpuModule.walk([&](Operation *op) -> WalkResult {
    if (auto name = op->getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName());
        name && op != gpuModule && !isPtxIdentifier(name.getValue()))
      return op->emitOpError("is named ")
             << name << ", which is no PTX identifier (letters, digits, "
             << "'_' and '$'); LLVM's NVPTX backend cannot emit it";
    if (isa<NVVM::CpAsyncOp, NVVM::CpAsyncCommitGroupOp,
            NVVM::CpAsyncWaitGroupOp>(op))
      return WalkResult(require(op, "cp.async", chip.hasCpAsync,
                                "sm_80 and later", kPtxVersionOfCpAsync));
    if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
      NVVM::MMAShapeAttr shape = mma.getShape();
      if (shape.getM() == 16 && shape.getN() == 8 && shape.getK() == 16)
        return WalkResult(require(op, "mma.sync m16n8k16",
                                  chip.mma == GpuMma::M16N8K16,
                                  "sm_80 and later", kPtxVersionOfMmaM16N8K16));
      if (shape.getM() == 16 && shape.getN() == 8 && shape.getK() == 8)
        return WalkResult(require(op, "mma.sync m16n8k8",
                                  chip.mma != GpuMma::None, "sm_75 and later",
                                  kPtxVersionOfMmaM16N8K8));
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// The manifest entry of one host function (Runtime/Manifest.h, the
/// schema the launchers read), or failure with a diagnostic (a launch
/// beyond the limits of `chip`).
static FailureOr<gpurun::Function> describeFunction(func::FuncOp func,
                                                    const GpuChip &chip) {
  gpurun::Function function;
  function.name = func.getSymName().str();
  if (auto ref = func->getAttrOfType<StringAttr>(kReferenceAttrName))
    function.reference = ref.getValue().str();
  // Each buffer's position in function.buffers.
  DenseMap<Value, unsigned> positions;
  auto buffer = [&](Value v, StringRef name, gpurun::Role role,
                    unsigned index, Value viewOf) -> LogicalResult {
    auto type = dyn_cast<MemRefType>(v.getType());
    std::optional<gpurun::Dtype> dtype =
        type ? gpurun::dtypeOf(type.getElementType()) : std::nullopt;
    if (!type || !type.hasStaticShape() || !dtype)
      return emitError(v.getLoc())
             << "buffer " << name << " has type " << v.getType()
             << "; the manifest holds static f16, bf16, f32, i32 or i64 memrefs";
    if (failed(verifyElementCountWithin(
            v.getLoc(), type.getShape(), kGpuMaxTensorElements,
            ("buffer " + name).str(),
            "(2^38), more than any GPU's memory holds")))
      return failure();
    gpurun::Buffer entry;
    entry.name = name.str();
    entry.role = role;
    entry.index = index;
    entry.shape.assign(type.getShape().begin(), type.getShape().end());
    entry.dtype = *dtype;
    entry.bytes = type.getNumElements() * gpurun::dtypeSize(*dtype);
    unsigned position = function.buffers.size();
    entry.storage = viewOf ? positions.lookup(viewOf) : position;
    function.buffers.push_back(std::move(entry));
    positions[v] = position;
    if (role == gpurun::Role::Input)
      function.inputs.push_back(position);
    if (role == gpurun::Role::Output)
      function.outputs.push_back(position);
    return success();
  };

  unsigned output = 0, input = 0;
  for (BlockArgument arg : func.getArguments()) {
    bool isOutput = static_cast<bool>(
        func.getArgAttr(arg.getArgNumber(), kOutputAttrName));
    std::string name = isOutput ? "result" + std::to_string(output)
                                : "arg" + std::to_string(input);
    if (failed(buffer(arg, name,
                      isOutput ? gpurun::Role::Output : gpurun::Role::Input,
                      isOutput ? output++ : input++, Value())))
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
      return WalkResult(buffer(alloc, "tmp" + std::to_string(temps++),
                               gpurun::Role::Temp, 0, Value()));
    if (auto cast = dyn_cast<memref::ReinterpretCastOp>(op)) {
      // A view of a view is a view of the first buffer.
      Value base = cast.getSource();
      while (auto inner = base.getDefiningOp<memref::ReinterpretCastOp>())
        base = inner.getSource();
      if (!positions.count(base))
        return WalkResult(cast.emitOpError(
            "views a memref that is no argument or memref.alloc"));
      return WalkResult(buffer(cast, "view" + std::to_string(views++),
                               gpurun::Role::View, 0, base));
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
    if (grid[0] < 1 || grid[0] > kGpuMaxGridX || grid[1] < 1 ||
        grid[1] > kGpuMaxGridYZ || grid[2] < 1 || grid[2] > kGpuMaxGridYZ)
      return launch.emitOpError("has a grid [")
             << grid << "] that no GPU launches: 1 to " << kGpuMaxGridX
             << " blocks along x, 1 to " << kGpuMaxGridYZ
             << " along y and z";
    if (llvm::any_of(block, [](int64_t b) { return b < 1; }) ||
        block[0] * block[1] * block[2] > kGpuMaxThreadsPerBlock)
      return launch.emitOpError("has a block [")
             << block << "] that no GPU launches: 1 to "
             << kGpuMaxThreadsPerBlock << " threads";
    int64_t smem = 0;
    if (Value s = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> c = constant(s);
      if (!c)
        return launch.emitOpError("has a dynamic shared memory size that is "
                                  "not a constant");
      smem = *c;
    }
    if (smem < 0 || smem > chip.maxSharedMemoryPerBlock)
      return launch.emitOpError("needs ")
             << smem << " bytes of dynamic shared memory per block; "
             << chip.name << " allows " << chip.maxSharedMemoryPerBlock;
    gpurun::Launch entry;
    entry.kernel = launch.getKernelName().getValue().str();
    for (unsigned d = 0; d < 3; ++d) {
      entry.grid[d] = grid[d];
      entry.block[d] = block[d];
    }
    entry.dynamicSharedMemory = smem;
    for (Value v : launch.getKernelOperands()) {
      auto it = positions.find(v);
      if (it == positions.end())
        return launch.emitOpError("takes an operand that is no argument, "
                                  "memref.alloc or reshape view");
      entry.args.push_back(it->second);
    }
    function.launches.push_back(std::move(entry));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  return function;
}

namespace {
struct EmitGpuArtifactsPass
    : mirage::impl::EmitGpuArtifactsBase<EmitGpuArtifactsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (output.empty()) {
      emitError(module.getLoc(),
                "emit-gpu-artifacts: output must name a path prefix");
      return signalPassFailure();
    }
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels");
    if (!gpuModule) {
      // At the first function: the implicit module of a parsed file has no
      // location of its own (file:0:0).
      for (auto func : module.getOps<func::FuncOp>())
        if (!func.isExternal()) {
          emitError(func.getLoc(), "the module has no gpu.module "
                                   "@mirage_kernels; run --block-to-gpu "
                                   "first");
          return signalPassFailure();
        }
      Location loc = module.getLoc();
      if (auto file = dyn_cast<FileLineColLoc>(loc); file && !file.getLine())
        loc = FileLineColLoc::get(file.getFilename(), 1, 1);
      emitError(loc, "the module defines no function to lower; a manifest "
                     "describes at least one");
      return signalPassFailure();
    }
    ArrayAttr targets = gpuModule.getTargetsAttr();
    auto nvvm = targets && targets.size() == 1
                    ? dyn_cast<NVVM::NVVMTargetAttr>(targets[0])
                    : NVVM::NVVMTargetAttr();
    if (!nvvm) {
      emitError(gpuModule.getLoc(),
                "needs exactly one #nvvm.target; run --nvvm-attach-target "
                "first");
      return signalPassFailure();
    }
    auto target = dyn_cast<gpu::TargetAttrInterface>(Attribute(nvvm));
    if (!target) {
      emitError(gpuModule.getLoc(),
                "#nvvm.target cannot serialize in this tool: its NVVM target "
                "interface is not registered "
                "(NVVM::registerNVVMTargetInterfaceExternalModels)");
      return signalPassFailure();
    }

    const GpuChip *chip = lookupGpuChip(nvvm.getChip());
    if (!chip) {
      emitError(gpuModule.getLoc(), "emit-gpu-artifacts: the #nvvm.target's ")
          << unsupportedGpuChipMessage(nvvm.getChip());
      return signalPassFailure();
    }
    // What LLVM would abort on fails here, at the op.
    if (failed(checkKernelsFitChip(gpuModule, *chip,
                                   targetPtxVersion(nvvm, *chip))))
      return signalPassFailure();
    // Host functions first: a malformed one should fail before ptxas runs.
    gpurun::Manifest manifest;
    manifest.chip = nvvm.getChip().str();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || func.getOps<gpu::LaunchFuncOp>().empty())
        continue;
      FailureOr<gpurun::Function> entry = describeFunction(func, *chip);
      if (failed(entry))
        return signalPassFailure();
      manifest.functions.push_back(std::move(*entry));
    }

    // The serializer links libdevice (exp, erf, sqrt, ... are calls to it)
    // from the toolkit into every module; without it, it reports an error
    // yet goes on, and the PTX calls functions nobody defines.
    SmallString<128> libdevice{StringRef(toolkit)};
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (!llvm::sys::fs::is_regular_file(libdevice)) {
      emitError(gpuModule.getLoc())
          << "emit-gpu-artifacts: the CUDA toolkit '" << toolkit
          << "' has no " << libdevice
          << ", which the NVVM serializer links into the kernels; set "
             "toolkit=<the toolkit's folder>";
      return signalPassFailure();
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
      emitError(gpuModule.getLoc(), "NVPTX code generation failed");
      return signalPassFailure();
    }
    if (!object) {
      emitError(gpuModule.getLoc(), "ptxas failed for ")
          << nvvm.getChip() << " (toolkit " << toolkit << ")";
      return signalPassFailure();
    }
    std::string prefix = output;
    manifest.path = prefix + ".json";
    manifest.ptxPath = prefix + ".ptx";
    if (failed(writeFile(module.getLoc(), prefix + ".ptx", ptx)))
      return signalPassFailure();
    if (cubin) {
      if (failed(writeFile(module.getLoc(), prefix + ".cubin",
                           StringRef(object->data(), object->size()))))
        return signalPassFailure();
      manifest.cubinPath = prefix + ".cubin";
    }
    if (failed(writeFile(module.getLoc(), manifest.path,
                         gpurun::printManifest(manifest))))
      return signalPassFailure();
  }
};
} // namespace
