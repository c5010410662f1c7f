//===- DirectKernels.cpp - copy and indexing kernels as gpu.func ----------===//
//
// Every direct kernel has the same frame: thread i of the grid handles the
// output elements i, i + (all threads), ... in row-major order, computes
// each one's coordinates, and stores what the kernel's body gives there.
// The bodies differ in where they read.
//
//===----------------------------------------------------------------------===//

#include "DirectKernels.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
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
  return isa<kernel::GatherOp, kernel::GatherElementsOp, kernel::OneHotOp,
             kernel::TopKOp>(op);
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
/// What a kernel's body does for the element at `at` of its domain, with
/// the kernel's buffer arguments.
using Step = llvm::function_ref<void(OpBuilder &, Location,
                                     ArrayRef<BlockArgument>, ArrayRef<Value>)>;
/// What a kernel's body computes for the output element at `at` (the
/// output is the last buffer).
using Body = llvm::function_ref<Value(OpBuilder &, Location,
                                      ArrayRef<BlockArgument>, ArrayRef<Value>)>;
} // namespace

/// Writes kernel `name` over `buffers` into `target`: one step per element
/// of `domain`, in row-major order.
static SymbolRefAttr buildKernelOver(gpu::GPUModuleOp target, StringRef name,
                                     ArrayRef<MemRefType> buffers,
                                     ArrayRef<int64_t> domain, Location loc,
                                     Step step) {
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
  Value stride =
      arith::MulIOp::create(b, loc, blocks, idx(kDirectKernelThreads));
  int64_t count = 1;
  for (int64_t d : domain)
    count *= d;
  auto loop = scf::ForOp::create(b, loc, first, idx(count), stride);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> at(domain.size());
  Value rest = loop.getInductionVar();
  for (int64_t d = int64_t(domain.size()) - 1; d >= 0; --d) {
    at[d] =
        d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, idx(domain[d]));
    if (d > 0)
      rest = arith::DivUIOp::create(b, loc, rest, idx(domain[d]));
  }
  SmallVector<BlockArgument> args(entry.getArguments());
  step(b, loc, args, at);
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
  return SymbolRefAttr::get(ctx, "mirage_kernels",
                            {FlatSymbolRefAttr::get(ctx, name)});
}

/// A kernel over the elements of its output, the last buffer, storing what
/// `body` computes at each.
static SymbolRefAttr buildKernel(gpu::GPUModuleOp target, StringRef name,
                                 ArrayRef<MemRefType> buffers, Location loc,
                                 Body body) {
  return buildKernelOver(
      target, name, buffers, buffers.back().getShape(), loc,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args,
          ArrayRef<Value> at) {
        Value v = body(b, loc, args, at);
        memref::StoreOp::create(b, loc, v, args.back(), at);
      });
}

/// Whether `a` comes before `b` in topk's order (f32 values): NaN first
/// when largest (PyTorch counts it larger than every number) and last when
/// smallest, then by value; equal values (and two NaNs) are neither.
static Value topkBefore(OpBuilder &b, Location loc, Value a, Value bv,
                        bool largest) {
  using P = arith::CmpFPredicate;
  Value aNan = arith::CmpFOp::create(b, loc, P::UNO, a, a);
  Value bNan = arith::CmpFOp::create(b, loc, P::UNO, bv, bv);
  Value notANan = arith::XOrIOp::create(
      b, loc, aNan, arith::ConstantIntOp::create(b, loc, 1, 1));
  Value notBNan = arith::XOrIOp::create(
      b, loc, bNan, arith::ConstantIntOp::create(b, loc, 1, 1));
  // Ordered comparisons are false when either is NaN.
  Value byValue = arith::CmpFOp::create(b, loc, largest ? P::OGT : P::OLT, a, bv);
  Value byNan = largest ? arith::AndIOp::create(b, loc, aNan, notBNan)
                        : arith::AndIOp::create(b, loc, notANan, bNan);
  return arith::OrIOp::create(b, loc, byValue, byNan);
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

// topk: one thread per input element x_i of a row finds its place in the
// row's stable order, rank = #{j : x_j before x_i} + #{j < i : x_j ties
// x_i}; an element whose rank is below k writes itself and its position
// there. Ranks are a permutation, so every output is written once. O(n)
// per element: for the short rows of a router (n experts), not for a
// top-k over a vocabulary.
SymbolRefAttr DirectKernels::topkKernel(gpu::GPUModuleOp target,
                                        kernel::TopKOp op,
                                        ArrayRef<MemRefType> buffers) {
  Location loc = op.getLoc();
  int64_t dim = op.getDim(), k = op.getK();
  bool largest = op.getLargest();
  ArrayRef<int64_t> shape = buffers.front().getShape();
  int64_t n = shape[dim];
  Type indexElement = buffers.back().getElementType();
  return buildKernelOver(
      target, freshName("topk"), buffers, shape, loc,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> args,
          ArrayRef<Value> at) {
        auto idx = [&](int64_t v) {
          return arith::ConstantIndexOp::create(b, loc, v).getResult();
        };
        Type f32 = b.getF32Type();
        auto wide = [&](Value v) -> Value {
          return v.getType() == f32 ? v
                                    : arith::ExtFOp::create(b, loc, f32, v);
        };
        Value raw = memref::LoadOp::create(b, loc, args[0], at);
        Value x = wide(raw);
        Value i = at[dim];
        auto loop = scf::ForOp::create(b, loc, idx(0), idx(n), idx(1),
                                       ValueRange{idx(0)});
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(loop.getBody());
          Value j = loop.getInductionVar();
          SmallVector<Value> other(at);
          other[dim] = j;
          Value y = wide(memref::LoadOp::create(b, loc, args[0], other));
          Value yFirst = topkBefore(b, loc, y, x, largest);
          Value xFirst = topkBefore(b, loc, x, y, largest);
          Value tie = arith::AndIOp::create(
              b, loc,
              arith::XOrIOp::create(b, loc, xFirst,
                                    arith::ConstantIntOp::create(b, loc, 1, 1)),
              arith::XOrIOp::create(b, loc, yFirst,
                                    arith::ConstantIntOp::create(b, loc, 1, 1)));
          Value earlier = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, j, i);
          Value ahead = arith::OrIOp::create(
              b, loc, yFirst, arith::AndIOp::create(b, loc, tie, earlier));
          Value rank = loop.getRegionIterArgs()[0];
          scf::YieldOp::create(
              b, loc,
              ValueRange{arith::SelectOp::create(
                  b, loc, ahead, arith::AddIOp::create(b, loc, rank, idx(1)),
                  rank)});
        }
        Value rank = loop.getResult(0);
        Value kept =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rank, idx(k));
        auto store = scf::IfOp::create(b, loc, kept, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(store.thenBlock()->getTerminator());
        SmallVector<Value> to(at);
        to[dim] = rank;
        memref::StoreOp::create(b, loc, raw, args[1], to);
        Value position = arith::IndexCastOp::create(b, loc, indexElement, i);
        memref::StoreOp::create(b, loc, position, args[2], to);
      });
}

DirectKernel DirectKernels::indexingKernel(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<MemRefType> buffers;
  for (Value v : op->getOperands())
    buffers.push_back(bufferOf(v.getType()));
  for (Value v : op->getResults())
    buffers.push_back(bufferOf(v.getType()));
  gpu::GPUModuleOp target = kernelModule(loc);
  if (auto topk = dyn_cast<kernel::TopKOp>(op))
    return {topkKernel(target, topk, buffers),
            buffers.front().getNumElements()};
  int64_t elements = buffers.back().getNumElements();
  SymbolRefAttr symbol = TypeSwitch<Operation *, SymbolRefAttr>(op)
      .Case([&](kernel::GatherOp g) {
        // result[a..., i..., b...] = data[a..., indices[i...], b...]
        int64_t axis = g.getAxis(), q = buffers[1].getRank();
        int64_t bound = buffers[0].getDimSize(axis);
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
        int64_t bound = buffers[0].getDimSize(axis);
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
  return {symbol, elements};
}
