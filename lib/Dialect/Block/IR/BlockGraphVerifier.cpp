//===- BlockGraphVerifier.cpp - structure of a block graph ----------------===//
//
// A block graph is straight-line code in four consecutive parts: the for-loop
// body (input iterators and shared-memory ops), the for-loop accumulators,
// the post-loop ops and the output savers, then block.yield. Every tile is
// either a loop-body value (it changes each iteration) or a post-loop value;
// only an accumulator turns the former into the latter. These rules make the
// flat op list an unambiguous loop nest, which the interpreter, the search
// and the lowering all rely on.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Block/BlockOps.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mirage::block;

namespace {
enum class Phase { LoopBody, PostLoop };
} // namespace

/// The phase of a compute op's results: that of its tile operands, which must
/// agree.
static FailureOr<Phase> computePhase(Operation &op,
                                     const DenseMap<Value, Phase> &phases) {
  std::optional<Phase> phase;
  for (OpOperand &use : op.getOpOperands()) {
    auto it = phases.find(use.get());
    Operation *def = use.get().getDefiningOp();
    if (it == phases.end() && def && def->getBlock() == op.getBlock())
      return op.emitOpError("operand #")
                 .append(use.getOperandNumber(),
                         " is defined after its use: a block graph is "
                         "acyclic and in dataflow order")
                 .attachNote(def->getLoc())
             << "defined here";
    if (it == phases.end())
      return op.emitOpError("operand #")
             << use.getOperandNumber()
             << " is not a tile of this block graph; read device tensors "
                "through block.input";
    if (phase && *phase != it->second)
      return op.emitOpError("mixes tiles of the for-loop body with tiles "
                            "computed after the loop; pass the body tile "
                            "through a block.accum first");
    phase = it->second;
  }
  if (!phase)
    return op.emitOpError("has no tile operands");
  return *phase;
}

LogicalResult mirage::block::verifyBlockGraph(Operation *op) {
  auto graph = cast<BlockGraphOpInterface>(op);
  Block &body = graph.getBlockGraph();

  if (body.getNumArguments() != op->getNumOperands())
    return op->emitOpError("block graph takes ")
           << body.getNumArguments() << " device tensors but the kernel has "
           << op->getNumOperands() << " operands";
  for (auto [arg, operand] : llvm::zip(body.getArguments(), op->getOperands()))
    if (arg.getType() != operand.getType())
      return op->emitOpError("block graph argument #")
             << arg.getArgNumber() << " has type " << arg.getType()
             << " but the kernel operand has type " << operand.getType();

  DenseMap<Value, Phase> phases;
  Operation *firstAccum = nullptr, *firstSaver = nullptr;
  for (Operation &inner : body) {
    Dialect *dialect = inner.getDialect();
    StringRef ns = dialect ? dialect->getNamespace() : "";
    if (ns != "block" && ns != "thread")
      return inner.emitOpError("is not allowed in a block graph, which holds "
                               "only block and thread ops");
    if (isa<YieldOp>(inner))
      break;
    if (firstSaver && !isa<OutputOp>(inner))
      return inner.emitOpError("follows an output saver; the savers end the "
                               "block graph")
                 .attachNote(firstSaver->getLoc())
             << "first saver here";

    if (auto input = dyn_cast<InputOp>(inner)) {
      if (firstAccum)
        return input
                   .emitOpError("input iterator follows a for-loop "
                                "accumulator: the loop body must end before "
                                "the first accumulator")
                   .attachNote(firstAccum->getLoc())
               << "first accumulator here";
      phases[input.getTile()] = Phase::LoopBody;
      continue;
    }
    if (isLoopAccumulator(&inner)) {
      for (Value operand : inner.getOperands()) {
        auto it = phases.find(operand);
        if (it == phases.end() || it->second != Phase::LoopBody)
          return inner.emitOpError("accumulates a tile that is not computed "
                                   "in the for-loop body");
      }
      if (!firstAccum)
        firstAccum = &inner;
      for (Value result : inner.getResults())
        phases[result] = Phase::PostLoop;
      continue;
    }
    if (auto saver = dyn_cast<OutputOp>(inner)) {
      auto it = phases.find(saver.getTile());
      if (it == phases.end() || it->second != Phase::PostLoop)
        return saver.emitOpError("saves a tile of the for-loop body; "
                                 "accumulate it with block.accum first");
      if (!firstSaver)
        firstSaver = saver;
      continue;
    }

    FailureOr<Phase> phase = computePhase(inner, phases);
    if (failed(phase))
      return failure();
    if (*phase == Phase::LoopBody && firstAccum)
      return inner
                 .emitOpError("belongs to the for-loop body but follows an "
                              "accumulator: the loop body must end before the "
                              "first accumulator")
                 .attachNote(firstAccum->getLoc())
             << "first accumulator here";
    for (Value result : inner.getResults())
      phases[result] = *phase;
  }

  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return op->emitOpError("block graph must end with block.yield");
  if (yield->getNumOperands() != op->getNumResults())
    return yield.emitOpError("yields ")
           << yield->getNumOperands() << " tensors but the kernel has "
           << op->getNumResults() << " results";
  for (auto [i, value] : llvm::enumerate(yield->getOperands())) {
    auto saver = value.getDefiningOp<OutputOp>();
    if (!saver || saver->getBlock() != &body)
      return yield.emitOpError("operand #")
             << i << " is not produced by an output saver (block.output)";
    if (!saver->hasOneUse())
      return saver.emitOpError("result must be yielded exactly once");
    if (value.getType() != op->getResult(i).getType())
      return yield.emitOpError("operand #")
             << i << " has type " << value.getType()
             << " but kernel result #" << i << " has type "
             << op->getResult(i).getType();
  }
  for (auto saver : body.getOps<OutputOp>())
    if (saver->use_empty())
      return saver.emitOpError("result is never yielded: every saver must "
                               "produce one kernel result");
  return success();
}
