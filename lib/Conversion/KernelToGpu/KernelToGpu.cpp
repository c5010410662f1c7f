//===- KernelToGpu.cpp - kernel-level functions to host launch code -------===//
//
// After --block-to-gpu a kernel-level function is a list of kernel.launch
// and kernel.reshape ops on device tensors. This pass gives it buffers: the
// function takes one memref per argument and one per result (results are
// written in place by the kernels that produce them), intermediate tensors
// become memref.alloc / dealloc, reshapes become copy-free reinterpretations
// of their operand's buffer, and launches become gpu.launch_func. The
// manifest that --emit-gpu-artifacts writes is read off this form.
//
// A result that no launch writes into its buffer (an argument, a view, or
// a tensor returned a second time) is copied there by a copy kernel this
// pass adds to @mirage_kernels, launched after everything else: the
// manifest stays a list of launches, and every runner runs it unchanged.
// The indexing kernels that kernel-to-block leaves (gather, gather_elements,
// one_hot: no block graph reads where an index tensor says; topk) become
// kernels this pass writes too, launched where the op stood
// (DirectKernels.h).
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "DirectKernels.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Target/GpuChip.h"
#include "mirage/Conversion/KernelToGpu/KernelToGpu.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringSet.h"

namespace mirage {
#define GEN_PASS_DEF_KERNELTOGPU
#include "mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

static MemRefType bufferType(Type tensor) {
  auto t = cast<RankedTensorType>(tensor);
  return MemRefType::get(t.getShape(), t.getElementType());
}

/// Row-major strides of a static shape.
static SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

static LogicalResult lowerFunction(func::FuncOp func, DirectKernels &direct) {
  Block &body = func.getBody().front();
  for (Operation &op : body) {
    if (isa<kernel::LaunchOp, kernel::ReshapeOp, func::ReturnOp>(op) ||
        isDirectIndexingKernel(&op))
      continue;
    return op.emitOpError("cannot be launched from the host: run "
                          "--kernel-to-block and --block-to-gpu first");
  }
  // Buffer sizes and view strides are products of these shapes.
  auto checkSize = [](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    return verifyElementCountWithin(
        v.getLoc(), type.getShape(), kGpuMaxTensorElements,
        "device tensor", "(2^38), more than any GPU's memory holds");
  };
  for (BlockArgument arg : body.getArguments())
    if (failed(checkSize(arg)))
      return failure();
  for (Operation &op : body)
    for (Value result : op.getResults())
      if (failed(checkSize(result)))
        return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());

  // Each returned value is written by its launch straight into the output
  // buffer; a value returned a second time, or one that is no launch's
  // result (an argument or a view), is copied there at the end.
  DenseMap<Value, unsigned> outputOf;
  SmallVector<unsigned> copied;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Operation *def = v.getDefiningOp();
    if (!def || !(isa<kernel::LaunchOp>(def) || isDirectIndexingKernel(def)) ||
        !outputOf.try_emplace(v, i).second)
      copied.push_back(i);
  }

  OpBuilder b(func.getContext());
  unsigned numInputs = func.getNumArguments();
  SmallVector<Type> argTypes;
  for (Type t : func.getArgumentTypes())
    argTypes.push_back(bufferType(t));
  for (Type t : func.getResultTypes())
    argTypes.push_back(bufferType(t));

  // The new signature; old tensor arguments are replaced by memrefs.
  for (BlockArgument arg : body.getArguments())
    arg.setType(bufferType(arg.getType()));
  for (Type t : func.getResultTypes())
    body.addArgument(bufferType(t), func.getLoc());
  func.setType(b.getFunctionType(argTypes, {}));
  for (unsigned i = 0, e = argTypes.size() - numInputs; i < e; ++i)
    func.setArgAttr(numInputs + i, kOutputAttrName, b.getI64IntegerAttr(i));
  // Result attributes no longer apply.
  func.removeResAttrsAttr();

  SmallVector<Value> temps;
  SmallVector<Operation *> dead;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    b.setInsertionPoint(&op);
    Location loc = op.getLoc();
    if (auto reshape = dyn_cast<kernel::ReshapeOp>(op)) {
      auto type = bufferType(reshape.getType());
      Value view = memref::ReinterpretCastOp::create(
          b, loc, type, reshape.getInput(), 0, type.getShape(),
          rowMajorStrides(type.getShape()));
      reshape.getResult().replaceAllUsesWith(view);
      dead.push_back(&op);
      continue;
    }
    // The buffer of each result: the output argument it is returned in,
    // or a temporary.
    auto bufferFor = [&](Value result) -> Value {
      if (auto it = outputOf.find(result); it != outputOf.end())
        return body.getArgument(numInputs + it->second);
      Value buffer =
          memref::AllocOp::create(b, loc, bufferType(result.getType()));
      temps.push_back(buffer);
      return buffer;
    };
    if (isDirectIndexingKernel(&op)) {
      SmallVector<Value> operands(op.getOperands());
      SmallVector<Value> buffers;
      for (Value result : op.getResults())
        buffers.push_back(bufferFor(result));
      llvm::append_range(operands, buffers);
      DirectKernel kernel = direct.indexingKernel(&op);
      Value grid = arith::ConstantIndexOp::create(
          b, loc, directKernelBlocks(kernel.elements));
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value block =
          arith::ConstantIndexOp::create(b, loc, kDirectKernelThreads);
      Value smem = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
      gpu::LaunchFuncOp::create(b, loc, kernel.symbol,
                                gpu::KernelDim3{grid, one, one},
                                gpu::KernelDim3{block, one, one}, smem,
                                operands, Type());
      for (auto [result, buffer] : llvm::zip(op.getResults(), buffers))
        result.replaceAllUsesWith(buffer);
      dead.push_back(&op);
      continue;
    }
    auto launch = cast<kernel::LaunchOp>(op);
    SmallVector<Value> operands(launch.getInputs());
    for (Value result : launch.getOutputs())
      operands.push_back(bufferFor(result));
    auto dim3 = [&](ArrayRef<int64_t> d) {
      return gpu::KernelDim3{arith::ConstantIndexOp::create(b, loc, d[0]),
                             arith::ConstantIndexOp::create(b, loc, d[1]),
                             arith::ConstantIndexOp::create(b, loc, d[2])};
    };
    Value smem = arith::ConstantIntOp::create(
        b, loc, b.getI32Type(), launch.getDynamicSharedMemory());
    gpu::LaunchFuncOp::create(b, loc, launch.getKernel(),
                              dim3(launch.getGrid()), dim3(launch.getBlock()),
                              smem, operands, Type());
    for (auto [result, buffer] :
         llvm::zip(launch.getOutputs(),
                   ArrayRef<Value>(operands).drop_front(
                       launch.getInputs().size())))
      result.replaceAllUsesWith(buffer);
    dead.push_back(&op);
  }
  for (Operation *op : llvm::reverse(dead))
    op->erase();
  b.setInsertionPoint(ret);
  // The copies, after every launch (a copy of a result reads it written)
  // and before the temps they may read through a view are freed. The
  // return's operands are buffers by now.
  for (unsigned i : copied) {
    Location loc = ret.getOperand(i).getLoc();
    Value source = ret.getOperand(i);
    Value target = body.getArgument(numInputs + i);
    auto type = cast<MemRefType>(target.getType());
    SymbolRefAttr kernel = direct.copy(type, func.getLoc());
    int64_t blocks = directKernelBlocks(type.getNumElements());
    // Made one after the other: the order of the printed constants must
    // not depend on the compiler's order of argument evaluation.
    Value grid = arith::ConstantIndexOp::create(b, loc, blocks);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value block = arith::ConstantIndexOp::create(b, loc, kDirectKernelThreads);
    Value smem = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    gpu::LaunchFuncOp::create(b, loc, kernel, gpu::KernelDim3{grid, one, one},
                              gpu::KernelDim3{block, one, one}, smem,
                              ValueRange{source, target}, Type());
  }
  for (Value temp : temps)
    memref::DeallocOp::create(b, ret.getLoc(), temp);
  func::ReturnOp::create(b, ret.getLoc());
  ret->erase();
  return success();
}

/// Whether `func` is a kernel-level function without launches: kernel.reshape
/// ops, indexing kernels and a return of ranked tensors (at least one).
static bool isWithoutLaunches(func::FuncOp func) {
  if (func.getNumResults() == 0 ||
      !llvm::all_of(func.getArgumentTypes(), llvm::IsaPred<RankedTensorType>) ||
      !llvm::all_of(func.getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return false;
  return llvm::all_of(func.getBody().front(), [](Operation &op) {
    return isa<kernel::ReshapeOp, func::ReturnOp>(op) ||
           isDirectIndexingKernel(&op);
  });
}

namespace {
struct KernelToGpuPass : mirage::impl::KernelToGpuBase<KernelToGpuPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels");
    DirectKernels direct(module);
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      auto launches = func.getOps<kernel::LaunchOp>();
      if (launches.empty()) {
        // A function of views alone (a size-1 transpose or reshape), one
        // that returns an argument, or one of indexing kernels: host code
        // of direct kernels only. Others are not at the kernel level, and
        // stay as they are.
        if (!isWithoutLaunches(func))
          continue;
        recordReference(func);
        if (failed(lowerFunction(func, direct)))
          return signalPassFailure();
        continue;
      }
      for (kernel::LaunchOp launch : launches) {
        if (gpuModule &&
            SymbolTable::lookupNearestSymbolFrom(module, launch.getKernel()))
          continue;
        launch.emitOpError("launches ")
            << launch.getKernel() << ", which the module does not define";
        return signalPassFailure();
      }
      if (failed(lowerFunction(func, direct)))
        return signalPassFailure();
    }
  }
};
} // namespace
