//===- Subprograms.cpp - a function cut into µGraph subprograms -----------===//

#include "Superopt/Search/Subprograms.h"
#include "Dialect/Graph/GraphOps.h"
#include "Dialect/Graph/ShapeRules.h"
#include "Superopt/Search/Superoptimizer.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

// A reshape that only inserts or drops size-1 dimensions keeps every
// element's index along each other dimension, so the search follows it
// through the index variables as it follows a transpose (SearchTarget.h).
// One that merges or splits dimensions does not: one index variable per
// dimension cannot describe a dimension of two (docs/Search.md, "Limits").
static bool isUnitDimReshapeOp(Operation *op) {
  auto reshape = dyn_cast<graph::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto in = cast<ShapedType>(reshape.getInput().getType());
  auto out = cast<ShapedType>(reshape.getResult().getType());
  return in.hasStaticShape() && out.hasStaticShape() &&
         isUnitDimReshape(in.getShape(), out.getShape());
}

// Data movement joins the subprograms around it, but a subprogram of
// nothing else has nothing to search.
bool mirage::superopt::isDataMovement(Operation *op) {
  return isa<graph::TransposeOp>(op) || isUnitDimReshapeOp(op);
}

/// Graph ops the search handles and data movement; the others keep the
/// default schedule.
static bool isSearchable(Operation *op) {
  return isDataMovement(op) || isSearchableGraphOp(op);
}

// A path leaving the set and coming back lies between the first and the
// last op of the set, so one walk over that range, carrying the outside
// ops that depend on the set, decides it.
bool mirage::superopt::isConvex(ArrayRef<Operation *> ops) {
  llvm::SmallPtrSet<Operation *, 16> inside(ops.begin(), ops.end());
  llvm::SmallPtrSet<Operation *, 16> tainted;
  for (Operation *op = ops.front(); op != ops.back()->getNextNode();
       op = op->getNextNode()) {
    bool fromInside = false, fromTainted = false;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      fromInside |= inside.contains(def);
      fromTainted |= tainted.contains(def);
    }
    if (inside.contains(op)) {
      if (fromTainted)
        return false;
    } else if (fromInside || fromTainted) {
      tainted.insert(op);
    }
  }
  return true;
}

// By data dependence, not program order: ops the search does not handle (a
// max, an rms_norm with eps) split only the subprograms whose dataflow runs
// through them, and an op and the ops it reads are searched together even
// when unrelated ops lie between them (QKNorm's rms_norm of Q and the
// attention, with K's norm and transposes in between).
SmallVector<Subprogram>
mirage::superopt::groupSubprograms(Block &block, unsigned maxOps,
                                   llvm::function_ref<bool(Operation *)> skip) {
  DenseMap<Operation *, unsigned> position, groupOf;
  for (auto [i, op] : llvm::enumerate(block.without_terminator()))
    position[&op] = i;
  SmallVector<SmallVector<Operation *>> groups;
  auto inOrder = [&](SmallVector<Operation *> ops) {
    llvm::sort(ops, [&](Operation *a, Operation *b) {
      return position.lookup(a) < position.lookup(b);
    });
    return ops;
  };
  for (Operation &op : block.without_terminator()) {
    if (!isSearchable(&op) || (skip && skip(&op)))
      continue;
    // The groups of the searchable producers of its operands, in operand
    // order.
    SmallVector<unsigned> producers;
    for (Value operand : op.getOperands()) {
      auto it = groupOf.find(operand.getDefiningOp());
      if (it != groupOf.end() && !llvm::is_contained(producers, it->second))
        producers.push_back(it->second);
    }
    // A reshape is a view (free, no kernel): one of a value computed
    // outside every subprogram (a CNN's per-channel weights reshaped to
    // [C, 1, 1]) stays outside, and the subprograms read the view; taken in,
    // it would only add a value to the kernel-level choice.
    if (producers.empty() && isa<graph::ReshapeOp>(op))
      continue;
    auto tryJoin = [&](ArrayRef<unsigned> ids) {
      SmallVector<Operation *> merged{&op};
      for (unsigned id : ids)
        merged.append(groups[id]);
      // Views (size-1 reshapes) are free and no choice of the kernel
      // level: they do not count, but the values of a subprogram do (at
      // most 64 in the search), so there are at most as many as ops.
      if (llvm::count_if(merged, [](Operation *member) {
            return !isa<graph::ReshapeOp>(member);
          }) > maxOps ||
          merged.size() > 2 * maxOps)
        return false;
      merged = inOrder(std::move(merged));
      if (!isConvex(merged))
        return false;
      // The merged group takes the place of the first (the smallest id, so
      // groups stay ordered by their first op); the others are emptied.
      unsigned into = *llvm::min_element(ids);
      for (unsigned id : ids)
        groups[id].clear();
      groups[into] = std::move(merged);
      for (Operation *member : groups[into])
        groupOf[member] = into;
      return true;
    };
    bool joined = producers.size() > 1 && tryJoin(producers);
    for (unsigned id : producers) {
      if (joined)
        break;
      joined = tryJoin({id});
    }
    if (!joined) {
      groupOf[&op] = groups.size();
      groups.push_back({&op});
    }
  }

  SmallVector<Subprogram> subs;
  for (SmallVector<Operation *> &ops : groups) {
    if (ops.empty() || llvm::all_of(ops, isDataMovement))
      continue;
    Subprogram sub;
    sub.ops = std::move(ops);
    subs.push_back(std::move(sub));
  }
  return subs;
}

void mirage::superopt::computeBoundary(Subprogram &sub) {
  llvm::SmallPtrSet<Operation *, 8> inside(sub.ops.begin(), sub.ops.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : sub.ops)
    for (Value operand : op->getOperands())
      if (!inside.contains(operand.getDefiningOp()))
        inputs.insert(operand);
  sub.inputs = inputs.takeVector();
  sub.outputs.clear();
  for (Operation *op : sub.ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inside.contains(user);
          }))
        sub.outputs.push_back(result);
}

void mirage::superopt::spliceSubprogram(Subprogram &sub, func::FuncOp muGraph,
                                        Location loc) {
  // Earlier splices may have moved some of its ops: the first and last are
  // looked up in the block as it is now.
  Operation *first = sub.ops.front(), *last = sub.ops.front();
  for (Operation *op : sub.ops) {
    if (op->isBeforeInBlock(first))
      first = op;
    if (last->isBeforeInBlock(op))
      last = op;
  }
  // The ops in between that depend on it do not feed it (it is convex):
  // they can follow the µGraph.
  {
    llvm::SmallPtrSet<Operation *, 16> dependent(sub.ops.begin(),
                                                 sub.ops.end());
    SmallVector<Operation *> moved;
    for (Operation *op = first; op != last; op = op->getNextNode()) {
      if (dependent.contains(op))
        continue;
      if (llvm::any_of(op->getOperands(), [&](Value operand) {
            return dependent.contains(operand.getDefiningOp());
          })) {
        dependent.insert(op);
        moved.push_back(op);
      }
    }
    for (Operation *op : llvm::reverse(moved))
      op->moveAfter(last);
  }
  OpBuilder builder(last);
  IRMapping map;
  Block &body = muGraph.getBody().front();
  for (auto [arg, v] : llvm::zip(body.getArguments(), sub.inputs))
    map.map(arg, v);
  for (Operation &op : body.without_terminator())
    builder.clone(op, map)->setLoc(loc);
  for (auto [v, result] :
       llvm::zip(sub.outputs, body.getTerminator()->getOperands()))
    v.replaceAllUsesWith(map.lookupOrDefault(result));
  for (Operation *op : llvm::reverse(sub.ops))
    op->erase();
}
