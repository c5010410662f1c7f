//===- DirectKernels.cpp - copy and indexing kernels as gpu.func ----------===//
//
// Every direct kernel has the same frame: thread i of the grid handles the
// output elements i, i + (all threads), ... in row-major order, computes
// each one's coordinates, and stores what the kernel's body gives there.
// The bodies differ in where they read.
//
//===----------------------------------------------------------------------===//

#include "DirectKernels.h"
#include "Dialect/Kernel/KernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"
#include <algorithm>

using namespace mlir;
using namespace mirage;

int64_t mirage::directKernelBlocks(int64_t elements) {
  return std::clamp<int64_t>(
      (elements + kDirectKernelThreads - 1) / kDirectKernelThreads, 1,
      kDirectKernelMaxBlocks);
}

bool mirage::isDirectIndexingKernel(Operation *op) {
  return isa<kernel::GatherOp, kernel::GatherElementsOp, kernel::OneHotOp>(op);
}

/// The buffer type of a tensor or of a buffer already (kernel-to-gpu
/// rewrites operands to buffers before their users).
static MemRefType bufferOf(Type type) {
  auto t = cast<ShapedType>(type);
  return MemRefType::get(t.getShape(), t.getElementType());
}

gpu::GPUModuleOp DirectKernels::kernelModule(Location loc) {
  if (gpuModule)
    return gpuModule;
  OpBuilder b(module.getContext());
  gpuModule = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels");
  if (!gpuModule) {
    // A module of views, returned arguments and indexing kernels alone:
    // --block-to-gpu made no kernel module.
    b.setInsertionPointToEnd(module.getBody());
    gpuModule = gpu::GPUModuleOp::create(b, loc, "mirage_kernels");
  }
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  b.getUnitAttr());
  for (Operation &symbol : gpuModule.getBody()->getOperations())
    if (auto name = symbol.getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName()))
      taken.insert(name.getValue());
  return gpuModule;
}

std::string DirectKernels::freshName(StringRef base) {
  std::string name = base.str();
  for (unsigned i = 1; !taken.insert(name).second; ++i)
    name = (base + "_" + std::to_string(i)).str();
  return name;
}

namespace {
/// What a kernel's body computes for the output element at `at`, from the
/// kernel's buffer arguments (the output's last).
using Body = llvm::function_ref<Value(OpBuilder &, Location,
                                      ArrayRef<BlockArgument>, ArrayRef<Value>)>;
} // namespace

/// Writes kernel `name` over `buffers` (the output last) into `target`.
static SymbolRefAttr buildKernel(gpu::GPUModuleOp target, StringRef name,
                                 ArrayRef<MemRefType> buffers, Location loc,
                                 Body body) {
  MLIRContext *ctx = target.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(target.getBody());
  SmallVector<Type> types(buffers.begin(), buffers.end());
  auto func = gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(types, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(kDirectKernelThreads), 1, 1}));
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  auto idx = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value blocks = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value first = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bid, idx(kDirectKernelThreads)),
      tid);
  Value step = arith::MulIOp::create(b, loc, blocks, idx(kDirectKernelThreads));
  MemRefType out = buffers.back();
  auto loop = scf::ForOp::create(b, loc, first, idx(out.getNumElements()), step);
  b.setInsertionPointToStart(loop.getBody());
  ArrayRef<int64_t> shape = out.getShape();
  SmallVector<Value> at(shape.size());
  Value rest = loop.getInductionVar();
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    at[d] = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, idx(shape[d]));
    if (d > 0)
      rest = arith::DivUIOp::create(b, loc, rest, idx(shape[d]));
  }
  SmallVector<BlockArgument> args(entry.getArguments());
  Value v = body(b, loc, args, at);
  memref::StoreOp::create(b, loc, v, args.back(), at);
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
  return SymbolRefAttr::get(ctx, "mirage_kernels",
                            {FlatSymbolRefAttr::get(ctx, name)});
}

SymbolRefAttr DirectKernels::copy(MemRefType type, Location loc) {
  if (SymbolRefAttr known = copies.lookup(type))
    return known;
  std::string base = "copy_";
  llvm::raw_string_ostream os(base);
  os << type.getElementType();
  for (int64_t d : type.getShape())
    os << "_" << d;
  SymbolRefAttr symbol = buildKernel(
      kernelModule(loc), freshName(base), {type, type}, loc,
      [](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args,
         ArrayRef<Value> at) -> Value {
        return memref::LoadOp::create(b, loc, args[0], at);
      });
  copies[type] = symbol;
  return symbol;
}

/// The index at `at` of `indices`, as an index value in [0, bound): one
/// outside traps (a negative index is a huge unsigned one).
static Value loadIndex(OpBuilder &b, Location loc, Value indices,
                       ArrayRef<Value> at, int64_t bound) {
  Value raw = memref::LoadOp::create(b, loc, indices, at);
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
  Value limit = arith::ConstantIndexOp::create(b, loc, bound);
  Value outside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                        index, limit);
  auto check = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(check.thenBlock()->getTerminator());
  LLVM::Trap::create(b, loc);
  return index;
}

SymbolRefAttr DirectKernels::indexingKernel(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<MemRefType> buffers;
  for (Value v : op->getOperands())
    buffers.push_back(bufferOf(v.getType()));
  buffers.push_back(bufferOf(op->getResult(0).getType()));
  gpu::GPUModuleOp target = kernelModule(loc);
  return TypeSwitch<Operation *, SymbolRefAttr>(op)
      .Case([&](kernel::GatherOp g) {
        // result[a..., i..., b...] = data[a..., indices[i...], b...]
        int64_t axis = g.getAxis();
        int64_t q = cast<ShapedType>(g.getIndices().getType()).getRank();
        int64_t bound =
            cast<ShapedType>(g.getData().getType()).getDimSize(axis);
        return buildKernel(
            target, freshName("gather"), buffers, loc,
            [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args,
                ArrayRef<Value> at) -> Value {
              Value index = loadIndex(b, loc, args[1],
                                      at.slice(axis, q), bound);
              SmallVector<Value> from(at.take_front(axis));
              from.push_back(index);
              llvm::append_range(from, at.drop_front(axis + q));
              return memref::LoadOp::create(b, loc, args[0], from);
            });
      })
      .Case([&](kernel::GatherElementsOp g) {
        // result[c] = data[c with c[axis] = indices[c]]
        int64_t axis = g.getAxis();
        int64_t bound =
            cast<ShapedType>(g.getData().getType()).getDimSize(axis);
        return buildKernel(
            target, freshName("gather_elements"), buffers, loc,
            [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args,
                ArrayRef<Value> at) -> Value {
              SmallVector<Value> from(at);
              from[axis] = loadIndex(b, loc, args[1], at, bound);
              return memref::LoadOp::create(b, loc, args[0], from);
            });
      })
      .Case([&](kernel::OneHotOp h) {
        // result[i..., d] = indices[i...] == d
        auto type = cast<RankedTensorType>(h.getResult().getType());
        int64_t q = type.getRank() - 1;
        int64_t depth = type.getDimSize(q);
        Type element = type.getElementType();
        return buildKernel(
            target, freshName("one_hot"), buffers, loc,
            [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args,
                ArrayRef<Value> at) -> Value {
              Value index = loadIndex(b, loc, args[0], at.take_front(q), depth);
              Value hit = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq, index, at[q]);
              Value one = arith::ConstantOp::create(
                  b, loc, element, b.getFloatAttr(element, 1.0));
              Value zero = arith::ConstantOp::create(
                  b, loc, element, b.getFloatAttr(element, 0.0));
              return arith::SelectOp::create(b, loc, hit, one, zero);
            });
      })
      .Default([](Operation *) -> SymbolRefAttr {
        llvm_unreachable("not a direct indexing kernel");
      });
}
