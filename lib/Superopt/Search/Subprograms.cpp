//===- Subprograms.cpp - a function cut into µGraph subprograms -----------===//

#include "mirage/Superopt/Search/Subprograms.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Superopt/Search/Superoptimizer.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
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

namespace {
/// The greedy grouping of one block (groupSubprograms): groups of ops in
/// program order, each op's group, and the limits a group must respect.
struct Grouping {
  DenseMap<Operation *, unsigned> position, groupOf;
  SmallVector<SmallVector<Operation *>> groups;
  unsigned maxOps;
  uint64_t memoryBudgetBytes;

  SmallVector<Operation *> inOrder(SmallVector<Operation *> ops) const {
    llvm::sort(ops, [&](Operation *a, Operation *b) {
      return position.lookup(a) < position.lookup(b);
    });
    return ops;
  }

  /// Whether the search can take `ops` as one subprogram. Views (size-1
  /// reshapes) are free and no choice of the kernel level: they do not
  /// count, but the values of a subprogram do (at most 64 in the search),
  /// so there are at most as many as ops. With `floored`, the memory its
  /// verification needs at the least must fit the budget too.
  bool fits(ArrayRef<Operation *> ops, bool floored) const {
    if (llvm::count_if(ops, [](Operation *member) {
          return !isa<graph::ReshapeOp>(member);
        }) > maxOps ||
        ops.size() > 2 * maxOps)
      return false;
    return !floored || !memoryBudgetBytes ||
           verificationFloorBytes(ops) <= memoryBudgetBytes;
  }

  /// Merges `op` (if any) and the groups `ids` into the first of them when
  /// the union fits and is convex; the others are emptied.
  bool tryMerge(Operation *op, ArrayRef<unsigned> ids, bool floored) {
    SmallVector<Operation *> merged;
    if (op)
      merged.push_back(op);
    for (unsigned id : ids)
      merged.append(groups[id]);
    if (!fits(merged, floored))
      return false;
    merged = inOrder(std::move(merged));
    if (!isConvex(merged))
      return false;
    // The merged group takes the place of the first (the smallest id, so
    // groups stay ordered by their first op).
    unsigned into = *llvm::min_element(ids);
    for (unsigned id : ids)
      groups[id].clear();
    groups[into] = std::move(merged);
    for (Operation *member : groups[into])
      groupOf[member] = into;
    return true;
  }

  /// The groups of the grouped producers of `op`'s operands, in operand
  /// order.
  SmallVector<unsigned> producersOf(Operation *op) const {
    SmallVector<unsigned> producers;
    for (Value operand : op->getOperands()) {
      auto it = groupOf.find(operand.getDefiningOp());
      if (it != groupOf.end() && !llvm::is_contained(producers, it->second))
        producers.push_back(it->second);
    }
    return producers;
  }
};
} // namespace

uint64_t mirage::superopt::verificationFloorBytes(ArrayRef<Operation *> ops) {
  auto elementsOf = [](Value v) -> uint64_t {
    auto type = dyn_cast<ShapedType>(v.getType());
    return type && type.hasStaticShape()
               ? static_cast<uint64_t>(type.getNumElements())
               : 0;
  };
  llvm::SmallPtrSet<Operation *, 16> inside(ops.begin(), ops.end());
  llvm::SmallPtrSet<Value, 16> read;
  uint64_t inputs = 0, largestResult = 0;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!inside.contains(operand.getDefiningOp()) &&
          read.insert(operand).second)
        inputs += elementsOf(operand);
    uint64_t results = 0;
    for (Value r : op->getResults())
      results += elementsOf(r);
    largestResult = std::max(largestResult, results);
  }
  // The finite-field test holds its inputs while it runs the default
  // schedule, whose estimated peak (estimatePeakBytes) counts each input
  // twice and, at each op, its results and two copies for temporaries.
  return 3 * (inputs + largestResult) * kFieldElementBytes;
}

// By data dependence, not program order: ops the search does not handle (a
// max, an rms_norm with eps) split only the subprograms whose dataflow runs
// through them, and an op and the ops it reads are searched together even
// when unrelated ops lie between them (QKNorm's rms_norm of Q and the
// attention, with K's norm and transposes in between).
//
// Size-1 reshapes join in a second pass, and only whole groups of the
// first: they never move a cut of the grouping without them. Taking them
// in the greedy walk did: in a transformer layer the output projection's
// matmul, joined through its reshape to the residual add, pushed the
// 8-op cut into the layer norm, and one subprogram then ran to the state
// budget;
// the Llama MLP's three 4096 x 14336 matmuls met in one subprogram whose
// verification exceeded the memory budget. A union of whole groups has in
// its space every µGraph of its parts (the kernel level may materialize
// the values between them), so the joins lose nothing the parts had
// unless a budget binds; the memory floor keeps out the unions whose
// verification cannot fit. (The first pass is the grouping as it was
// before the reshapes joined, without the floor: a group over the budget
// there keeps its default schedule, and the remark says why.)
SmallVector<Subprogram>
mirage::superopt::groupSubprograms(Block &block, unsigned maxOps,
                                   llvm::function_ref<bool(Operation *)> skip,
                                   uint64_t memoryBudgetBytes) {
  Grouping g;
  g.maxOps = maxOps;
  g.memoryBudgetBytes = memoryBudgetBytes;
  for (auto [i, op] : llvm::enumerate(block.without_terminator()))
    g.position[&op] = i;
  auto taken = [&](Operation *op) {
    return isSearchable(op) && !(skip && skip(op));
  };
  for (Operation &op : block.without_terminator()) {
    if (!taken(&op) || isUnitDimReshapeOp(&op))
      continue;
    SmallVector<unsigned> producers = g.producersOf(&op);
    bool joined =
        producers.size() > 1 && g.tryMerge(&op, producers, /*floored=*/false);
    for (unsigned id : producers) {
      if (joined)
        break;
      joined = g.tryMerge(&op, {id}, /*floored=*/false);
    }
    if (!joined) {
      g.groupOf[&op] = g.groups.size();
      g.groups.push_back({&op});
    }
  }
  // A reshape joins its producer's group and, with it, the groups of the
  // ops that read it, each when the union fits and is convex. One of a
  // value computed outside every subprogram (a CNN's per-channel weights
  // reshaped to [C, 1, 1]) stays outside, a free view the subprograms
  // read; taken in, it would only add a value to the kernel-level choice.
  for (Operation &op : block.without_terminator()) {
    if (!taken(&op) || !isUnitDimReshapeOp(&op))
      continue;
    SmallVector<unsigned> producers = g.producersOf(&op);
    if (producers.empty() || !g.tryMerge(&op, producers, /*floored=*/true))
      continue;
    for (Operation *user : op.getUsers()) {
      auto it = g.groupOf.find(user);
      unsigned own = g.groupOf.lookup(&op);
      if (it != g.groupOf.end() && it->second != own)
        (void)g.tryMerge(nullptr, {own, it->second}, /*floored=*/true);
    }
  }

  SmallVector<Subprogram> subs;
  for (SmallVector<Operation *> &ops : g.groups) {
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

func::FuncOp mirage::superopt::outlineSubprogram(const Subprogram &sub,
                                                StringRef name,
                                                ModuleOp scratch,
                                                Location loc) {
  OpBuilder builder(scratch.getContext());
  builder.setInsertionPointToEnd(scratch.getBody());
  SmallVector<Type> inTypes, outTypes;
  for (Value v : sub.inputs)
    inTypes.push_back(v.getType());
  for (Value v : sub.outputs)
    outTypes.push_back(v.getType());
  auto func = func::FuncOp::create(builder, loc, name,
                                   builder.getFunctionType(inTypes, outTypes));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  IRMapping map;
  for (auto [v, arg] : llvm::zip(sub.inputs, entry->getArguments()))
    map.map(v, arg);
  for (Operation *op : sub.ops)
    builder.clone(*op, map);
  SmallVector<Value> results;
  for (Value v : sub.outputs)
    results.push_back(map.lookup(v));
  func::ReturnOp::create(builder, loc, results);
  return func;
}

bool mirage::superopt::hasEmptyTensor(const Subprogram &sub) {
  auto isEmpty = [](Value v) {
    auto type = dyn_cast<ShapedType>(v.getType());
    return type && type.hasStaticShape() && type.getNumElements() == 0;
  };
  return llvm::any_of(sub.ops, [&](Operation *op) {
    return llvm::any_of(op->getOperands(), isEmpty) ||
           llvm::any_of(op->getResults(), isEmpty);
  });
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
