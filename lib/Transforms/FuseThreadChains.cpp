//===- FuseThreadChains.cpp - rule-based thread-level fusion --------------===//
//
// Replaces each connected group of two or more elementwise block ops
// (block.unary, block.binary) of a block graph by one thread.fused op that
// computes the group element by element in registers. See Passes.td for the
// rule.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mirage/Transforms/FuseThreadChains.h"
#include "mirage/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mirage {
#define GEN_PASS_DEF_FUSETHREADCHAINS
#include "mirage/Transforms/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using mirage::block::TileType;

namespace {

/// Elementwise ops whose operands and result share one element type: a
/// unary or binary op that widens an f16 operand to f32 has no thread-level
/// form (a thread op computes in one type) and stays a block op.
bool isElementwise(Operation *op) {
  if (auto unary = dyn_cast<block::UnaryOp>(op))
    return unary.getInput().getType() == unary.getType();
  auto binary = dyn_cast<block::BinaryOp>(op);
  return binary && binary.getLhs().getType().getElementType() ==
                       binary.getRhs().getType().getElementType() &&
         binary.getLhs().getType().getElementType() ==
             binary.getType().getElementType();
}

ArrayRef<int64_t> tileShape(Value v) {
  return cast<TileType>(v.getType()).getShape();
}

/// Splits the elementwise ops of `body` into connected groups (def-use edges
/// between elementwise ops; with `sameShape`, only between ops whose results
/// have equal shapes), each group in block order, groups ordered by their
/// first op.
SmallVector<SmallVector<Operation *>>
connectedGroups(ArrayRef<Operation *> ops, bool sameShape) {
  llvm::EquivalenceClasses<Operation *> classes;
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
  for (Operation *op : ops) {
    classes.insert(op);
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !members.contains(def))
        continue;
      if (sameShape && tileShape(operand) != tileShape(op->getResult(0)))
        continue;
      classes.unionSets(def, op);
    }
  }
  llvm::MapVector<Operation *, SmallVector<Operation *>> byLeader;
  for (Operation *op : ops)
    byLeader[classes.getLeaderValue(op)].push_back(op);
  SmallVector<SmallVector<Operation *>> groups;
  for (auto &entry : byLeader)
    groups.push_back(std::move(entry.second));
  return groups;
}

/// Fuses `group` (in block order) into one thread.fused op if the rule allows
/// it; returns whether it did.
bool fuseGroup(ArrayRef<Operation *> group) {
  if (group.size() < 2)
    return false;
  llvm::SmallPtrSet<Operation *, 16> inGroup(group.begin(), group.end());
  Operation *last = group.back();

  // Outside operands (deduplicated, in order of first use) and the values
  // used outside the group (in op order).
  llvm::SetVector<Value> inputs;
  SmallVector<Value> exposed;
  for (Operation *op : group) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !inGroup.contains(def))
        inputs.insert(operand);
    }
    Value result = op->getResult(0);
    bool usedOutside = false;
    for (Operation *user : result.getUsers()) {
      if (inGroup.contains(user))
        continue;
      usedOutside = true;
      // The fused op replaces the group at its last op: every outside use
      // must come after it.
      Operation *ancestor = last->getBlock()->findAncestorOpInBlock(*user);
      if (!ancestor || !last->isBeforeInBlock(ancestor))
        return false;
    }
    if (usedOutside)
      exposed.push_back(result);
  }
  if (exposed.empty())
    return false;

  // The inputs broadcast to the common shape, which every result must have.
  Shape common(tileShape(inputs[0]));
  for (Value input : inputs.getArrayRef().drop_front()) {
    FailureOr<Shape> next =
        inferBroadcastShape(std::nullopt, common, tileShape(input));
    if (failed(next))
      return false;
    common = *next;
  }
  for (Value result : exposed)
    if (tileShape(result) != ArrayRef<int64_t>(common))
      return false;

  OpBuilder builder(last);
  SmallVector<Type> resultTypes;
  for (Value result : exposed)
    resultTypes.push_back(result.getType());
  auto fused = thread::FusedOp::create(builder, last->getLoc(), resultTypes,
                                       inputs.getArrayRef());
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (Value input : inputs) {
    argTypes.push_back(cast<TileType>(input.getType()).getElementType());
    argLocs.push_back(input.getLoc());
  }
  Block *body =
      builder.createBlock(&fused.getBody(), {}, argTypes, argLocs);
  IRMapping scalars;
  for (auto [input, arg] : llvm::zip(inputs, body->getArguments()))
    scalars.map(input, arg);
  for (Operation *op : group) {
    Type elem = cast<TileType>(op->getResult(0).getType()).getElementType();
    Value scalar;
    if (auto unary = dyn_cast<block::UnaryOp>(op))
      scalar = thread::UnaryOp::create(builder, op->getLoc(), elem,
                                       unary.getKindAttr(),
                                       scalars.lookup(unary.getInput()),
                                       unary.getParamsAttr());
    else {
      auto binary = cast<block::BinaryOp>(op);
      scalar = thread::BinaryOp::create(builder, op->getLoc(), elem,
                                        binary.getKindAttr(),
                                        scalars.lookup(binary.getLhs()),
                                        scalars.lookup(binary.getRhs()));
    }
    scalars.map(op->getResult(0), scalar);
  }
  SmallVector<Value> yielded;
  for (Value result : exposed)
    yielded.push_back(scalars.lookup(result));
  thread::YieldOp::create(builder, last->getLoc(), yielded);

  for (auto [result, replacement] : llvm::zip(exposed, fused.getResults()))
    result.replaceAllUsesWith(replacement);
  for (Operation *op : llvm::reverse(group))
    op->erase();
  return true;
}

} // namespace

void mirage::fuseBlockGraph(Block &graph) {
  SmallVector<Operation *> elementwise;
  for (Operation &op : graph)
    if (isElementwise(&op))
      elementwise.push_back(&op);
  for (ArrayRef<Operation *> group :
       connectedGroups(elementwise, /*sameShape=*/false)) {
    if (group.size() < 2 || fuseGroup(group))
      continue;
    // The broadcasting group does not fuse as a whole: fuse its parts of
    // equal result shape instead.
    for (ArrayRef<Operation *> part :
         connectedGroups(group, /*sameShape=*/true))
      fuseGroup(part);
  }
}

namespace {
struct FuseThreadChainsPass
    : mirage::impl::FuseThreadChainsBase<FuseThreadChainsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> graphs;
    getOperation()->walk([&](block::BlockGraphOpInterface graph) {
      graphs.push_back(graph);
    });
    for (Operation *op : graphs) {
      fuseBlockGraph(cast<block::BlockGraphOpInterface>(op).getBlockGraph());
      if (failed(verify(op))) {
        op->emitError("fuse-thread-chains produced an invalid block graph");
        return signalPassFailure();
      }
    }
  }
};

} // namespace

LogicalResult mirage::fuseThreadChainsWithinTarget(func::FuncOp func,
                                                   const superopt::GpuTarget &gpu,
                                                   unsigned &unfused,
                                                   unsigned *invalid,
                                                   std::string *firstInvalid) {
  SmallVector<kernel::GraphDefOp> defs;
  func.walk([&](kernel::GraphDefOp def) { defs.push_back(def); });
  for (kernel::GraphDefOp def : defs) {
    Operation *unfusedCopy = def->clone();
    fuseBlockGraph(def.getBody().front());
    // A fused graph the verifiers reject is not emitted: the kernel stays as
    // the search built and costed it (and the whole µGraph is verified after
    // this), so one fusion rule's gap never fails the pass.
    std::string message;
    LogicalResult valid = success();
    {
      ScopedDiagnosticHandler capture(def->getContext(), [&](Diagnostic &d) {
        if (message.empty())
          message = d.str();
        return success();
      });
      valid = verify(def);
    }
    bool keepUnfused = failed(valid);
    if (!keepUnfused) {
      llvm::Expected<superopt::KernelCost> cost =
          superopt::estimateKernel(def, gpu);
      if (cost) {
        unfusedCopy->destroy();
        continue;
      }
      llvm::consumeError(cost.takeError());
      ++unfused;
    } else {
      if (invalid)
        ++*invalid;
      if (firstInvalid && firstInvalid->empty())
        *firstInvalid = message;
    }
    OpBuilder builder(def);
    builder.insert(unfusedCopy);
    def->replaceAllUsesWith(unfusedCopy);
    def->erase();
  }
  return success();
}
