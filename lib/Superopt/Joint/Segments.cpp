//===- Segments.cpp - a rewritten graph cut into µGraph subprograms -------===//

#include "mirage/Superopt/Joint/Joint.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::joint;

SmallVector<Operation *>
mirage::joint::hoistWeightOps(func::FuncOp func,
                              llvm::function_ref<bool(unsigned)> isWeightArgument) {
  Block &body = func.getBody().front();
  // As WorkGraph::finish: an op is on weights only when it has operands and
  // each is a weight argument or such an op's result.
  llvm::DenseSet<Value> weights;
  for (BlockArgument arg : body.getArguments())
    if (isWeightArgument(arg.getArgNumber()))
      weights.insert(arg);
  SmallVector<Operation *> hoisted;
  Operation *firstOther = nullptr;
  for (Operation &op : body.without_terminator()) {
    bool onWeights = op.getNumOperands() > 0 &&
                     llvm::all_of(op.getOperands(), [&](Value v) {
                       return weights.contains(v);
                     });
    if (!onWeights) {
      if (!firstOther)
        firstOther = &op;
      continue;
    }
    for (Value r : op.getResults())
      weights.insert(r);
    hoisted.push_back(&op);
  }
  // Each reads arguments or earlier hoisted ops only: moving them, in
  // order, before the first other op keeps every use after its definition.
  if (firstOther)
    for (Operation *op : hoisted)
      if (!op->isBeforeInBlock(firstOther))
        op->moveBefore(firstOther);
  return hoisted;
}

SmallVector<Segment>
mirage::joint::cutSegments(func::FuncOp func, unsigned maxOps,
                           const llvm::SmallPtrSetImpl<Operation *> &skip,
                           uint64_t memoryBudgetBytes) {
  SmallVector<Segment> segments = superopt::groupSubprograms(
      func.getBody().front(), maxOps,
      [&](Operation *op) { return skip.contains(op); }, memoryBudgetBytes);
  for (Segment &s : segments)
    superopt::computeBoundary(s);
  return segments;
}
