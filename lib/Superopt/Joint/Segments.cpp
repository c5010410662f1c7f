//===- Segments.cpp - a rewritten graph cut into µGraph subprograms -------===//

#include "Superopt/Joint/Joint.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

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

void mirage::joint::computeBoundary(Segment &segment) {
  llvm::SmallPtrSet<Operation *, 8> inside(segment.ops.begin(),
                                           segment.ops.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : segment.ops)
    for (Value operand : op->getOperands())
      if (!inside.contains(operand.getDefiningOp()))
        inputs.insert(operand);
  segment.inputs = inputs.takeVector();
  segment.outputs.clear();
  for (Operation *op : segment.ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inside.contains(user);
          }))
        segment.outputs.push_back(result);
}

SmallVector<Segment>
mirage::joint::cutSegments(func::FuncOp func, unsigned maxOps,
                           const llvm::SmallPtrSetImpl<Operation *> &skip) {
  SmallVector<Segment> segments;
  Segment current;
  auto flush = [&] {
    if (!current.ops.empty())
      segments.push_back(std::move(current));
    current = Segment();
  };
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (skip.contains(&op))
      continue;
    if (!superopt::isSearchableGraphOp(&op)) {
      flush();
      continue;
    }
    if (current.ops.size() == maxOps)
      flush();
    current.ops.push_back(&op);
  }
  flush();
  for (Segment &s : segments)
    computeBoundary(s);
  return segments;
}
