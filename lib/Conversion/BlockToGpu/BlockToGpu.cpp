//===- BlockToGpu.cpp - graph-defined kernels to gpu.func -----------------===//
//
// The block level's code generator. A kernel.graph_def becomes one gpu.func
// whose thread block runs the block graph (semantics: BlockSemantics.cpp):
//
//   every tile           -> a view of dynamic shared memory (memory plan)
//   block.input/output   -> cooperative global<->shared copies, 16-byte
//                           vectors when the tile row allows
//   block.matmul (f16)   -> nvvm.mma.sync m16n8k16, f32 accumulators; when
//                           its only user is a sum accumulator the
//                           accumulators stay in registers for the loop
//   elementwise, fused   -> one element per thread per step, in f32
//   block.reduce         -> a warp per output row, gpu.shuffle xor
//   block.accum          -> updated in place by the thread owning the
//                           element (f32 tiles)
//   block.softmax_accum  -> a warp per row takes the running maximum, the
//                           rescale and exp(S - m) into a P buffer; then
//                           the output is rescaled and P V added (an mma
//                           whose accumulators start from the rescaled
//                           output); a / l after the loop
//   block.softmax_merge  -> a thread per element, over the parts
//   block.reshape        -> a copy
//   block.rms_norm       -> a warp per row: its largest magnitude, the squares
//                           of the row scaled by a power of two near it
//                           summed by shuffles (no overflow or underflow),
//                           then each lane divides its elements
//   block.accum red_*    -> a warp per row adds the row's sum (of squares)
//                           to the state; red_rms takes sqrt(sum / N) after
//                           the loop
//
// gpu.barrier goes only where a shared tile is read after another op wrote
// it, or written after another op read or wrote it, since the last barrier.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mirage/Target/GpuChip.h"
#include "mirage/Conversion/BlockToGpu/BlockToGpu.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include "BlockToGpuEmitter.h"

namespace mirage {
#define GEN_PASS_DEF_BLOCKTOGPU
#include "mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::blocktogpu;


//===----------------------------------------------------------------------===//
// Memory plan
//===----------------------------------------------------------------------===//

Type KernelEmitter::storageType(Value tile) const {
  return block::tileStorageType(tile);
}

LogicalResult KernelEmitter::plan() {
  // A fused chain's scalar code comes from --thread-to-arith, the one place
  // the thread level's semantics turn into arith and math.
  WalkResult unlowered = body.walk([](Operation *op) {
    if (isa<thread::UnaryOp, thread::BinaryOp, thread::SelectOp>(op)) {
      op->emitOpError("has no scalar code yet: run --thread-to-arith before "
                      "--block-to-gpu");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unlowered.wasInterrupted())
    return failure();

  // The launch must fit the chip's grid.
  ArrayRef<int64_t> grid = op.getGrid();
  for (auto [g, size] : llvm::enumerate(grid))
    if (size > (g == 0 ? kGpuMaxGridX : kGpuMaxGridYZ))
      return op.emitOpError("has a grid [")
             << grid << "] that no GPU launches: at most " << kGpuMaxGridX
             << " blocks along x and " << kGpuMaxGridYZ << " along y and z";
  // Every size below is computed from these shapes: the tiles must fit the
  // chip's shared memory and the tensors its device memory, so their
  // element counts are bounded first.
  WalkResult tooBig = body.walk([&](Operation *inner) {
    for (Value v : inner->getResults()) {
      auto tile = dyn_cast<block::TileType>(v.getType());
      if (tile && failed(verifyElementCountWithin(
                      inner->getLoc(), tile.getShape(),
                      chip.maxSharedMemoryPerBlock,
                      (inner->getName().getStringRef() + " tile").str(),
                      "(the shared memory per block of " + chip.name +
                          ", in bytes)")))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (tooBig.wasInterrupted())
    return failure();
  for (Type t : llvm::concat<const Type>(op.getInputs().getTypes(),
                                         op.getResultTypes())) {
    auto tensor = cast<ShapedType>(t);
    if (failed(verifyElementCountWithin(
            op.getLoc(), tensor.getShape(), kGpuMaxTensorElements,
            "kernel.graph_def tensor",
            "(2^38) of a GPU kernel's tensor, more than any GPU's memory "
            "holds")))
      return failure();
  }

  // Where every tile lives: the plan kernel-to-block and the cost model
  // read too (Dialect/Block/Analysis/SharedMemoryPlan.h).
  block::SharedMemoryPlan memory =
      block::planSharedMemory(body, chip.mma != GpuMma::None);
  loopBody = std::move(memory.loopBody);
  postLoop = std::move(memory.postLoop);
  accums = std::move(memory.accums);
  softmaxAccums = std::move(memory.softmaxAccums);
  savers = std::move(memory.savers);
  registerMatmuls = std::move(memory.registerMatmuls);
  offsets = std::move(memory.offsets);
  rowPitch = std::move(memory.rowPitch);
  scratchOffsets = std::move(memory.softmaxScratch);
  planBytes = memory.bytes;
  if (planBytes > chip.maxSharedMemoryPerBlock)
    return op.emitOpError("needs ")
           << planBytes << " bytes of shared memory per block; "
           << chip.name << " gives a block at most "
           << chip.maxSharedMemoryPerBlock;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value KernelEmitter::castFloat(Value v, Type to) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == to)
    return v;
  Type target = to;
  if (auto vec = dyn_cast<VectorType>(v.getType()))
    target = vec.clone(to);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, target, v);
  return arith::TruncFOp::create(b, loc, target, v);
}

SmallVector<Value> KernelEmitter::delinearize(Value linear,
                                              ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  Value rest = linear;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    if (d == 0) {
      coords[d] = rest;
      break;
    }
    coords[d] = arith::RemUIOp::create(b, loc, rest, idx(shape[d]));
    rest = arith::DivUIOp::create(b, loc, rest, idx(shape[d]));
  }
  return coords;
}

void KernelEmitter::forEachElement(int64_t count,
                                   function_ref<void(Value)> fn) {
  auto loop = scf::ForOp::create(b, loc, tid, idx(count), idx(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  fn(loop.getInductionVar());
}

Value KernelEmitter::loadBroadcast(Value tile, ArrayRef<Value> coords) {
  ArrayRef<int64_t> shape = cast<ShapedType>(tile.getType()).getShape();
  size_t lead = coords.size() - shape.size();
  SmallVector<Value> at;
  for (auto [d, size] : llvm::enumerate(shape))
    at.push_back(size == 1 ? idx(0) : coords[lead + d]);
  return toF32(memref::LoadOp::create(b, loc, views.lookup(tile), at));
}

void KernelEmitter::barrier() {
  if (asyncCopiesPending) {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0));
    asyncCopiesPending = false;
  }
  gpu::BarrierOp::create(b, loc);
  readSinceBarrier.clear();
  writtenSinceBarrier.clear();
}

void KernelEmitter::access(ArrayRef<Value> reads, ArrayRef<Value> writes) {
  bool hazard = llvm::any_of(reads, [&](Value v) {
    return writtenSinceBarrier.contains(v);
  }) || llvm::any_of(writes, [&](Value v) {
    return writtenSinceBarrier.contains(v) || readSinceBarrier.contains(v);
  });
  if (hazard)
    barrier();
  readSinceBarrier.insert(reads.begin(), reads.end());
  writtenSinceBarrier.insert(writes.begin(), writes.end());
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitOp(Operation *inner, Value iter) {
  loc = inner->getLoc();
  if (auto in = dyn_cast<block::InputOp>(inner)) {
    emitInput(in, iter);
  } else if (auto mm = dyn_cast<block::MatmulOp>(inner)) {
    access({mm.getLhs(), mm.getRhs()}, {mm.getResult()});
    if (usesTensorCores(mm)) {
      MmaOperands o = mmaOperands(mm);
      SmallVector<Value> zero(4 * o.shape.perWarp, f32(0.0));
      storeFragments(o.shape, emitMmaLoop(o, zero),
                     views.lookup(mm.getResult()),
                     storageType(mm.getResult()), o.cRank);
    } else {
      emitMatmulCudaCores(mm);
    }
  } else if (isa<block::UnaryOp, block::BinaryOp, thread::FusedOp>(inner)) {
    emitElementwise(inner);
  } else if (auto red = dyn_cast<block::ReduceOp>(inner)) {
    emitReduce(red);
  } else if (auto cat = dyn_cast<block::ConcatOp>(inner)) {
    emitConcat(cat);
  } else if (auto merge = dyn_cast<block::SoftmaxMergeOp>(inner)) {
    emitSoftmaxMerge(merge);
  } else if (auto reshape = dyn_cast<block::ReshapeOp>(inner)) {
    emitReshape(reshape);
  } else if (auto norm = dyn_cast<block::RMSNormOp>(inner)) {
    emitRMSNorm(norm);
  } else if (auto slice = dyn_cast<block::SliceOp>(inner)) {
    emitSlice(slice);
  } else {
    return inner->emitOpError("has no GPU code generation");
  }
  return success();
}

LogicalResult KernelEmitter::emit(gpu::GPUModuleOp gpuModule, StringRef name) {
  if (failed(plan()))
    return failure();

  // Signature: one global memref per input, then per output.
  SmallVector<Type> argTypes;
  auto memrefOf = [](Type t) {
    auto tensor = cast<RankedTensorType>(t);
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  };
  for (Type t : op.getInputs().getTypes())
    argTypes.push_back(memrefOf(t));
  for (Type t : op.getResultTypes())
    argTypes.push_back(memrefOf(t));
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, op.getLoc(), name,
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  loc = op.getLoc();

  for (auto [arg, memref] :
       llvm::zip(body.getArguments(), entry.getArguments().take_front(
                                          op.getInputs().size())))
    globals[arg] = memref;
  // Output i is block.yield's operand i, whatever order the savers have.
  auto yield = cast<block::YieldOp>(body.getTerminator());
  for (auto [v, memref] :
       llvm::zip(yield.getResults(),
                 entry.getArguments().drop_front(op.getInputs().size())))
    globals[v] = memref;

  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = arith::RemUIOp::create(b, loc, tid, idx(32));
  warp = arith::DivUIOp::create(b, loc, tid, idx(32));
  for (gpu::Dimension d :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    blockIds.push_back(gpu::BlockIdOp::create(b, loc, d));

  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface{}, workgroup));
  for (auto [tile, offset] : offsets) {
    ArrayRef<int64_t> shape = cast<ShapedType>(tile.getType()).getShape();
    auto pitch = rowPitch.find(tile);
    SmallVector<int64_t> stored(shape);
    if (pitch != rowPitch.end())
      stored.back() = pitch->second;
    auto type = MemRefType::get(stored, storageType(tile),
                                MemRefLayoutAttrInterface{}, workgroup);
    Value view = memref::ViewOp::create(b, loc, type, smem, idx(offset),
                                        ValueRange{});
    if (pitch != rowPitch.end()) {
      // The tile is the first columns of its padded rows.
      SmallVector<OpFoldResult> zeros(shape.size(), b.getIndexAttr(0)),
          ones(shape.size(), b.getIndexAttr(1)), sizes;
      for (int64_t d : shape)
        sizes.push_back(b.getIndexAttr(d));
      view = memref::SubViewOp::create(b, loc, view, zeros, sizes, ones);
    }
    views[tile] = view;
  }

  for (auto [sm, off] : scratchOffsets) {
    auto smOp = cast<block::SoftmaxAccumOp>(sm);
    ArrayRef<int64_t> shape = smOp.getScores().getType().getShape();
    auto pType = MemRefType::get(shape, storageType(smOp.getValues()),
                                 MemRefLayoutAttrInterface{}, workgroup);
    auto alphaType =
        MemRefType::get({product(shape.drop_back())}, b.getF32Type(),
                        MemRefLayoutAttrInterface{}, workgroup);
    scratch[sm] = {
        memref::ViewOp::create(b, loc, pType, smem, idx(off.first),
                               ValueRange{}),
        memref::ViewOp::create(b, loc, alphaType, smem, idx(off.second),
                               ValueRange{})};
  }

  // Accumulators start at 0 (sum) or -inf (max); register ones as values.
  for (block::SoftmaxAccumOp sm : softmaxAccums) {
    loc = sm.getLoc();
    emitSoftmaxInit(sm);
  }
  for (block::AccumOp acc : accums)
    if (!llvm::any_of(registerMatmuls,
                      [&](auto &entry) { return entry.second == acc; }))
      emitAccumInit(acc);
  SmallVector<Value> registers;
  for (auto &entry : registerMatmuls)
    registers.append(
        4 * mmaOperands(cast<block::MatmulOp>(entry.first)).shape.perWarp,
        f32(0.0));

  // The for-loop; one iteration needs no loop (and no barrier at its end).
  int64_t forloop = op.getForloop();
  auto emitIteration = [&](Value iter, ValueRange regs) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> out;
    size_t next = 0;
    for (Operation *inner : loopBody) {
      if (auto it = registerMatmuls.find(inner); it != registerMatmuls.end()) {
        auto mm = cast<block::MatmulOp>(inner);
        loc = mm.getLoc();
        access({mm.getLhs(), mm.getRhs()}, {});
        MmaOperands o = mmaOperands(mm);
        int64_t n = 4 * o.shape.perWarp;
        llvm::append_range(out, emitMmaLoop(o, regs.slice(next, n)));
        next += n;
        continue;
      }
      if (failed(emitOp(inner, iter)))
        return failure();
    }
    for (block::AccumOp acc : accums) {
      loc = acc.getLoc();
      if (Value in = acc.getInput(); !registerMatmuls.count(in.getDefiningOp()))
        emitAccumUpdate(acc, iter);
    }
    for (block::SoftmaxAccumOp sm : softmaxAccums) {
      loc = sm.getLoc();
      emitSoftmaxUpdate(sm);
    }
    return out;
  };
  SmallVector<Value> finalRegs;
  if (forloop == 1) {
    FailureOr<SmallVector<Value>> out = emitIteration(idx(0), registers);
    if (failed(out))
      return failure();
    finalRegs = *out;
  } else {
    auto loop = scf::ForOp::create(b, loc, idx(0), idx(forloop), idx(1),
                                   registers);
    {
      OpBuilder::InsertionGuard guard(b);
      if (!registers.empty() || loop.getBody()->empty())
        b.setInsertionPointToEnd(loop.getBody());
      else
        b.setInsertionPoint(loop.getBody()->getTerminator());
      FailureOr<SmallVector<Value>> out =
          emitIteration(loop.getInductionVar(), loop.getRegionIterArgs());
      if (failed(out))
        return failure();
      // The next iteration overwrites the loop-body tiles.
      if (!readSinceBarrier.empty() || !writtenSinceBarrier.empty())
        barrier();
      if (!registers.empty())
        scf::YieldOp::create(b, loc, *out);
    }
    finalRegs = SmallVector<Value>(loop.getResults());
  }

  // Register accumulators land in their tiles.
  size_t next = 0;
  for (auto &[inner, acc] : registerMatmuls) {
    MmaOperands o = mmaOperands(cast<block::MatmulOp>(inner));
    int64_t n = 4 * o.shape.perWarp;
    loc = acc.getLoc();
    access({}, {acc.getResult()});
    storeFragments(o.shape, ValueRange(finalRegs).slice(next, n),
                   views.lookup(acc.getResult()), storageType(acc.getResult()),
                   o.cRank);
    next += n;
  }
  for (block::SoftmaxAccumOp sm : softmaxAccums) {
    loc = sm.getLoc();
    emitSoftmaxFinish(sm);
  }
  // red_rms: the root mean square of what was summed.
  for (block::AccumOp acc : accums) {
    if (acc.getKind() != block::AccumKind::red_rms)
      continue;
    loc = acc.getLoc();
    access({acc.getResult()}, {acc.getResult()});
    int64_t dim = *acc.getDim();
    double n = double(acc.getInput().getType().getShape()[dim]) *
               double(forloop);
    ArrayRef<int64_t> shape = acc.getType().getShape();
    Value state = views.lookup(acc.getResult());
    forEachElement(product(shape), [&](Value linear) {
      SmallVector<Value> at = delinearize(linear, shape);
      Value v = memref::LoadOp::create(b, loc, state, at);
      memref::StoreOp::create(
          b, loc,
          buildScalarUnary(b, loc, UnaryKind::sqrt, {},
                           arith::MulFOp::create(b, loc, v, f32(1.0 / n))),
          state, at);
    });
  }
  for (Operation *inner : postLoop)
    if (failed(emitOp(inner, idx(0))))
      return failure();
  for (block::OutputOp saver : savers) {
    loc = saver.getLoc();
    emitOutput(saver);
  }
  gpu::ReturnOp::create(b, op.getLoc());
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// `name` with every character that may not appear in a PTX identifier
/// replaced by '_' (LLVM's NVPTX printer aborts on other symbol names), and
/// "k" in front unless it starts with a letter: names starting with '_'
/// belong to the toolchain (convert-gpu-to-nvvm's __dynamic_shmem__0,
/// libdevice's __nv_expf), which would clash with a kernel of that name.
static std::string kernelNameBase(StringRef name) {
  std::string base;
  for (char c : name)
    base += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (base.empty() || !llvm::isAlpha(base.front()))
    base.insert(0, "k");
  return base;
}

namespace {
struct BlockToGpuPass : mirage::impl::BlockToGpuBase<BlockToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (threads < 32 || threads > kGpuMaxThreadsPerBlock || threads % 32) {
      emitError(module.getLoc())
          << "block-to-gpu: threads must be a multiple of 32 in [32, "
          << kGpuMaxThreadsPerBlock << "], got "
          << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    // One chip for the module: its kernels share one gpu.module.
    FailureOr<std::string> targetName =
        resolveModuleLoweringTarget(module, target, "block-to-gpu");
    if (failed(targetName))
      return signalPassFailure();
    const GpuChip *gpu = lookupGpuChipOfTarget(*targetName);
    if (!gpu) {
      emitError(module.getLoc())
          << "block-to-gpu: " << unsupportedGpuChipMessage(*targetName);
      return signalPassFailure();
    }
    SmallVector<kernel::GraphDefOp> kernels;
    module.walk([&](kernel::GraphDefOp op) { kernels.push_back(op); });
    if (kernels.empty())
      return;

    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels");
    if (!gpuModule) {
      b.setInsertionPointToEnd(module.getBody());
      gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), "mirage_kernels");
    }
    // The chip the kernels are generated for: attach-gpu-target gives the
    // gpu.module its #nvvm.target from it.
    if (StringRef earlier = getSearchedTarget(gpuModule);
        !earlier.empty() && earlier != gpu->name) {
      emitError(gpuModule.getLoc())
          << "block-to-gpu: @mirage_kernels holds kernels for " << earlier
          << "; the new ones would be for " << gpu->name;
      return signalPassFailure();
    }
    setSearchedTarget(gpuModule, gpu->name);
    // The names taken in the kernel module, kept current as kernels are
    // added (a SymbolTable would not see them).
    llvm::StringSet<> taken;
    for (Operation &symbol : gpuModule.getBody()->getOperations())
      if (auto name = symbol.getAttrOfType<StringAttr>(
              SymbolTable::getSymbolAttrName()))
        taken.insert(name.getValue());
    DenseMap<Operation *, int64_t> counters;
    for (kernel::GraphDefOp op : kernels)
      if (auto func = op->getParentOfType<func::FuncOp>())
        recordReference(func);
    for (kernel::GraphDefOp op : kernels) {
      auto func = op->getParentOfType<func::FuncOp>();
      // Two functions may share a base ("a b" and "a_b"): the counter runs
      // on until the name is new in the kernel module.
      std::string base =
          kernelNameBase(func ? func.getSymName() : StringRef("kernel"));
      std::string name;
      do
        name = base + "_" + std::to_string(counters[func]++);
      while (!taken.insert(name).second);

      KernelEmitter emitter(op, threads, *gpu);
      if (failed(emitter.emit(gpuModule, name)))
        return signalPassFailure();

      ArrayRef<int64_t> grid = op.getGrid();
      SmallVector<int64_t> grid3(grid);
      grid3.resize(3, 1);
      b.setInsertionPoint(op);
      auto launch = kernel::LaunchOp::create(
          b, op.getLoc(), op.getResultTypes(), op.getInputs(),
          SymbolRefAttr::get(b.getContext(), "mirage_kernels",
                             {FlatSymbolRefAttr::get(b.getContext(), name)}),
          b.getDenseI64ArrayAttr(grid3),
          b.getDenseI64ArrayAttr({int64_t(threads), 1, 1}),
          b.getI64IntegerAttr(emitter.sharedBytes()));
      op->replaceAllUsesWith(launch);
      op->erase();
    }
  }
};
} // namespace
