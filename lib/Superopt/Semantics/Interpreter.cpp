//===- Interpreter.cpp - runs a µGraph function on concrete inputs --------===//
//
// Walks the function body in order and hands each op to the semantics of
// its level. Tensors are freed after their last use, so that full-size
// benchmark programs fit in memory.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "Semantics.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <unistd.h>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
  return s;
}

uint64_t mirage::superopt::physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(16) << 30; // unknown: assume a modest 16 GiB
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
}

std::string mirage::superopt::formatByteCount(uint64_t bytes) {
  if (bytes >= (uint64_t(1) << 30))
    return llvm::formatv("{0:f1} GiB", bytes / double(uint64_t(1) << 30));
  if (bytes >= (uint64_t(1) << 20))
    return llvm::formatv("{0:f1} MiB", bytes / double(uint64_t(1) << 20));
  if (bytes >= (uint64_t(1) << 10))
    return llvm::formatv("{0:f1} KiB", bytes / double(uint64_t(1) << 10));
  return llvm::formatv("{0} bytes", bytes);
}

/// The dimensions [N, C, KH, KW, OH, OW] of the windows a convolution or
/// pooling unfolds (CompositeOps.h, im2col), whose element count can exceed
/// every value's; empty for other ops.
static SmallVector<int64_t> unfoldedWindowDims(Operation *op) {
  auto dims = [](Value input, ArrayRef<int64_t> kernel, Value result) {
    auto in = cast<ShapedType>(input.getType()).getShape();
    auto out = cast<ShapedType>(result.getType()).getShape();
    return SmallVector<int64_t>{in[0],     in[1],  kernel[0],
                                kernel[1], out[2], out[3]};
  };
  return TypeSwitch<Operation *, SmallVector<int64_t>>(op)
      .Case<graph::Conv2DOp, kernel::Conv2DOp>([&](auto c) {
        auto w = cast<ShapedType>(c.getWeight().getType()).getShape();
        return dims(c.getInput(), w.take_back(2), c.getResult());
      })
      .Case<graph::MaxPool2DOp, graph::AvgPool2DOp, kernel::Pool2DOp>(
          [&](auto p) {
            return dims(p.getInput(), p.getKernel(), p.getResult());
          })
      .Default([](Operation *) { return SmallVector<int64_t>(); });
}

static constexpr llvm::StringLiteral kElementLimitWhy =
    "that the reference interpreter holds in one value (16 GiB as doubles)";

LogicalResult mirage::superopt::checkInterpretable(func::FuncOp func) {
  if (func.isExternal())
    return func.emitError("cannot interpret '")
           << func.getSymName() << "': it has no body";
  if (!func.getBody().hasOneBlock())
    return func.emitError("cannot interpret '")
           << func.getSymName() << "': a µGraph function has one block";
  auto isStaticTensor = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.hasStaticShape();
  };
  FunctionType type = func.getFunctionType();
  for (auto [i, t] : llvm::enumerate(type.getInputs()))
    if (!isStaticTensor(t))
      return func.emitError("argument #")
             << i << " of '" << func.getSymName()
             << "' is not a statically shaped tensor";
  for (auto [i, t] : llvm::enumerate(type.getResults()))
    if (!isStaticTensor(t))
      return func.emitError("result #")
             << i << " of '" << func.getSymName()
             << "' is not a statically shaped tensor";
  // Every size, before anything is allocated: a count that overflows would
  // allocate a wrong size, one too large would abort.
  for (auto [i, t] : llvm::enumerate(type.getInputs()))
    if (failed(verifyElementCountWithin(
            func.getLoc(), cast<ShapedType>(t).getShape(),
            kMaxInterpreterElements,
            llvm::formatv("argument #{0} of '{1}'", i, func.getSymName()).str(),
            kElementLimitWhy)))
      return failure();
  WalkResult walk = func.walk([&](Operation *op) {
    for (OpResult r : op->getResults()) {
      auto shaped = dyn_cast<ShapedType>(r.getType());
      if (!shaped || !shaped.hasRank())
        continue;
      if (failed(verifyElementCountWithin(
              op->getLoc(), shaped.getShape(), kMaxInterpreterElements,
              llvm::formatv("result #{0} of '{1}'", r.getResultNumber(),
                            op->getName())
                  .str(),
              kElementLimitWhy)))
        return WalkResult::interrupt();
    }
    SmallVector<int64_t> windows = unfoldedWindowDims(op);
    if (!windows.empty() &&
        failed(verifyElementCountWithin(
            op->getLoc(), windows, kMaxInterpreterElements,
            llvm::formatv("the unfolded windows [N, C, KH, KW, OH, OW] of "
                          "'{0}'",
                          op->getName())
                .str(),
            kElementLimitWhy)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Elements of a value of shaped type (0 for others). Only called on
/// functions whose sizes checkInterpretable checked, so nothing overflows.
static uint64_t elementsOf(Value v) {
  auto shaped = dyn_cast<ShapedType>(v.getType());
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  return static_cast<uint64_t>(*checkedElementCount(shaped.getShape()));
}

/// The temporaries of one top-level op, in elements, beyond its results.
static uint64_t temporaryElements(Operation &op) {
  uint64_t results = 0;
  for (Value r : op.getResults())
    results += elementsOf(r);
  // Broadcast copies of the operands, a packed matmul operand, the
  // intermediate tensors of a composite op: at most about two more copies.
  uint64_t extra = 2 * results;
  SmallVector<int64_t> windows = unfoldedWindowDims(&op);
  if (!windows.empty())
    extra += 2 * static_cast<uint64_t>(*checkedElementCount(windows));
  // A graph-defined kernel holds one block's tiles (and its accumulators)
  // at a time, besides the outputs it fills.
  if (op.getNumRegions())
    op.walk([&](Operation *inner) {
      if (inner != &op)
        for (Value r : inner->getResults())
          extra += 2 * elementsOf(r);
    });
  return extra;
}

uint64_t mirage::superopt::estimatePeakBytes(func::FuncOp func,
                                             uint64_t elementBytes) {
  Block &body = func.getBody().front();
  DenseMap<Value, Operation *> lastUse;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastUse[operand] = &op;
  // The caller's inputs stay for the whole run, and a native run holds a
  // copy of each rounded to its dtype.
  uint64_t live = 0, peak = 0;
  for (BlockArgument arg : body.getArguments())
    live += 2 * elementsOf(arg);
  peak = live;
  for (Operation &op : body) {
    for (Value r : op.getResults())
      live += elementsOf(r);
    peak = std::max(peak, live + temporaryElements(op));
    if (isa<func::ReturnOp>(op))
      continue;
    llvm::SmallDenseSet<Value, 4> dead;
    for (Value operand : op.getOperands())
      if (lastUse.lookup(operand) == &op && !isa<BlockArgument>(operand) &&
          dead.insert(operand).second)
        live -= elementsOf(operand);
  }
  return peak * elementBytes;
}

template <typename Arith>
static FailureOr<SmallVector<typename Arith::Value>>
run(func::FuncOp func, ArrayRef<typename Arith::Value> inputs, Arith &arith,
    uint64_t elementBytes, const InterpreterLimits &limits,
    RunInterruption *interruption) {
  using V = typename Arith::Value;
  if (failed(checkInterpretable(func)))
    return failure();
  // A limit that binds: the caller's to report, or an error here.
  auto interrupted = [&](RunInterruption::Kind kind,
                         std::string reason) -> LogicalResult {
    if (interruption) {
      interruption->kind = kind;
      interruption->reason = std::move(reason);
      return failure();
    }
    return func.emitError(reason);
  };
  uint64_t limit = limits.memoryBytes ? limits.memoryBytes
                                      : physicalMemoryBytes();
  uint64_t peak = estimatePeakBytes(func, elementBytes);
  if (peak > limit) {
    (void)interrupted(
        RunInterruption::Kind::OverMemory,
        llvm::formatv("running '{0}' needs about {1} at its peak, more than "
                      "the memory limit of {2}",
                      func.getSymName(), formatByteCount(peak), formatByteCount(limit))
            .str());
    return failure();
  }
  arith.setStopRequest(&limits.shouldStop);
  auto stopped = [&]() {
    (void)interrupted(RunInterruption::Kind::Stopped,
                      llvm::formatv("the run of '{0}' was stopped by its "
                                    "caller",
                                    func.getSymName())
                          .str());
    return failure();
  };
  Block &body = func.getBody().front();
  if (inputs.size() != body.getNumArguments())
    return func.emitError("'")
           << func.getSymName() << "' takes " << body.getNumArguments()
           << " arguments but " << inputs.size() << " inputs were given";

  ValueEnv<Arith> env;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto type = cast<RankedTensorType>(arg.getType());
    if (Arith::shapeOf(inputs[i]) != type.getShape())
      return func.emitError("input #")
             << i << " has shape " << formatShape(Arith::shapeOf(inputs[i]))
             << " but argument #" << i << " of '" << func.getSymName()
             << "' has type " << type;
    if (!arith.changesOnRounding(type.getElementType())) {
      env.borrow(arg, inputs[i]);
      continue;
    }
    V value = inputs[i];
    arith.round(value, type.getElementType());
    env.set(arg, std::move(value));
  }

  // The values to free after each op.
  DenseMap<Value, Operation *> lastUse;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastUse[operand] = &op;
  DenseMap<Operation *, SmallVector<Value>> dying;
  for (auto [value, user] : lastUse)
    if (!isa<func::ReturnOp>(user))
      dying[user].push_back(value);

  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<V> results;
      for (Value v : ret.getOperands())
        results.push_back(env.get(v));
      return results;
    }
    if (arith.shouldStop())
      return stopped();
    Dialect *dialect = op.getDialect();
    StringRef ns = dialect ? dialect->getNamespace() : "";
    arith.beginOp(&op);
    LogicalResult ok = failure();
    if (ns == "graph")
      ok = evalGraphOp(&op, arith, env);
    else if (ns == "kernel")
      ok = evalKernelOp(&op, arith, env);
    else
      return op.emitOpError("is not a graph or kernel op; the interpreter "
                            "runs µGraph functions");
    if (failed(ok))
      return arith.wasStopped() ? stopped() : failure();
    for (Value v : dying.lookup(&op))
      env.erase(v);
  }
  return func.emitError("'") << func.getSymName() << "' has no func.return";
}

FailureOr<SmallVector<RealTensor>> mirage::superopt::interpretReal(
    func::FuncOp func, ArrayRef<RealTensor> inputs, RealMode mode,
    const InterpreterLimits &limits, RunInterruption *interruption) {
  RealArithmetic arith(mode);
  return run(func, inputs, arith, kRealElementBytes, limits, interruption);
}

FailureOr<SmallVector<FieldTensor>> mirage::superopt::interpretField(
    func::FuncOp func, ArrayRef<FieldTensor> inputs, FieldArithmetic &arith,
    const InterpreterLimits &limits, RunInterruption *interruption) {
  return run(func, inputs, arith, kFieldElementBytes, limits, interruption);
}
