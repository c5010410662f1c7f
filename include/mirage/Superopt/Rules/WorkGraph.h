//===- WorkGraph.h - a graph function as the search rewrites it -*- C++ -*-===//
//
// The search visits thousands of variants of a function of hundreds of
// ops, each one rewrite away from its parent, so it does not rewrite MLIR.
// A WorkGraph is a vector of pointers to immutable nodes (owned by a
// NodeArena for the whole search): a rewrite copies the vector, appends the
// nodes of the rule's other side, and replaces the users of the values it
// redirects with copies that read the new values. Node indices stay stable
// along a lineage; nodes no output reaches are dead and cost nothing.
//
// Nodes are the function's arguments, rule ops (OpKind, attributes,
// shapes) and opaque ops (any other op, kept as its MLIR op and cloned when
// the graph is written back). Each node knows its estimated time (the
// analytic cost model's time of its predefined kernel on the target, 0 for
// an op on weights only: TASO folds those before the run) and a structural
// hash, so that the same graph reached by two rewrite orders is seen once.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_WORKGRAPH_H
#define MIRAGE_SUPEROPT_RULES_WORKGRAPH_H

#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Superopt/Rules/RuleIR.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include <deque>

namespace mirage::rules {

struct WValue {
  uint32_t node = 0;
  uint32_t result = 0;
  friend bool operator==(WValue a, WValue b) {
    return a.node == b.node && a.result == b.result;
  }
  friend bool operator!=(WValue a, WValue b) { return !(a == b); }
};

struct WNode {
  enum class Type : uint8_t { Argument, Rule, Opaque };
  Type type = Type::Rule;
  OpKind kind = OpKind::Add;
  unsigned argument = 0;
  /// The op it was read from (opaque nodes are cloned from it; others use
  /// its location).
  mlir::Operation *origin = nullptr;
  llvm::SmallVector<WValue, 2> operands;
  IntAttrs ints;
  double scalar = 0;
  /// A split's sizes.
  llvm::SmallVector<int64_t, 2> sizes;
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 1> resultShapes;
  mlir::Type elementType;
  /// The estimated time of its kernel (0 for arguments and views).
  double costUs = 0;
  /// Kind, attributes and shapes, without the operands: with the operands'
  /// hashes it gives the structural hash (WorkGraph::finish).
  uint64_t localHash = 0;

  bool isRule() const { return type == Type::Rule; }
};

/// The hash of a node's kind, attributes and shapes, without its operands
/// (what NodeArena::add stores in `localHash`); the e-graph hashes its
/// e-nodes with it too.
uint64_t computeLocalHash(const WNode &n);

/// Owns every node of a search, and caches kernel costs by signature.
class NodeArena {
public:
  NodeArena(const superopt::GpuTarget &target, mlir::MLIRContext *ctx);
  ~NodeArena();

  /// Stores `node`, with its local hash and its cost computed (its
  /// operands' types read from `graph`).
  const WNode *add(WNode node, llvm::ArrayRef<const WNode *> graph);
  /// The same, with the operands' producers given by `nodeAt` (a rewrite
  /// costs its new nodes before the child graph exists).
  const WNode *add(WNode node,
                   llvm::function_ref<const WNode *(uint32_t)> nodeAt);
  size_t size() const { return nodes.size(); }

  const superopt::GpuTarget &getTarget() const { return target; }

private:
  double costOf(const WNode &node,
                llvm::function_ref<const WNode *(uint32_t)> nodeAt);

  std::deque<WNode> nodes;
  const superopt::GpuTarget &target;
  mlir::MLIRContext *ctx;
  /// A scratch module where rule nodes are built to be costed.
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
  /// Rule nodes' costs by signature (kind, attributes, operand and result
  /// types, as raw bytes: the search costs every child's new nodes, so the
  /// key is not printed), and opaque nodes' by op.
  llvm::StringMap<double> costCache;
  llvm::DenseMap<mlir::Operation *, double> opaqueCosts;
};

class WorkGraph;
struct GraphIndex;

/// A rewrite as a change of its parent graph: the nodes appended (indices
/// from the parent's size on, in order), the nodes replaced (each index
/// once, with its final node) and the outputs redirected (final values).
/// The search keeps a child as its parent and this edit until it takes the
/// child from the queue (GraphSearch.h).
struct GraphEdit {
  llvm::SmallVector<const WNode *, 2> appended;
  llvm::SmallVector<std::pair<uint32_t, const WNode *>, 2> replaced;
  llvm::SmallVector<std::pair<unsigned, WValue>, 1> outputs;
};

/// What finish() computes, except the structural hash.
struct GraphTotals {
  int64_t totalCost = 0, unfoldedCost = 0;
  unsigned liveOps = 0;
  bool cyclic = false;
  double cost() const { return totalCost * 1e-9; }
  double costWithWeightOps() const { return unfoldedCost * 1e-9; }
  friend bool operator==(const GraphTotals &a, const GraphTotals &b) {
    return a.totalCost == b.totalCost && a.unfoldedCost == b.unfoldedCost &&
           a.liveOps == b.liveOps && a.cyclic == b.cyclic;
  }
  friend bool operator!=(const GraphTotals &a, const GraphTotals &b) {
    return !(a == b);
  }
};

/// Costs the edits of one finished graph without building the children,
/// in time proportional to what an edit changes (the search costs every
/// child this way and builds only the ones it takes from its queue). It
/// keeps the parent's live uses of each node (operand slots of live nodes
/// and outputs), with its GraphIndex (users, liveness, topological
/// positions). evaluate() gives exactly the totals, liveness and cycle flag
/// that applying the edit and finish() give (check-incremental compares
/// them on every child).
class EditEvaluator {
public:
  EditEvaluator(const WorkGraph &g, const GraphIndex &index);
  GraphTotals evaluate(const GraphEdit &edit) const;

private:
  const WorkGraph &graph;
  const GraphIndex &index;
  std::vector<uint32_t> uses;
};

class WorkGraph {
public:
  /// Reads a graph function: one block, graph ops and func.return.
  /// `isWeight(i)` says whether argument i is a weight. Identical pure ops
  /// are merged (common subexpressions). Fails with a diagnostic on an op
  /// that is not a graph op.
  static mlir::FailureOr<WorkGraph>
  fromFunction(mlir::func::FuncOp func, NodeArena &arena,
               llvm::function_ref<bool(unsigned)> isWeight);

  llvm::ArrayRef<const WNode *> getNodes() const { return nodes; }
  const WNode *node(uint32_t i) const { return nodes[i]; }
  llvm::ArrayRef<WValue> getOutputs() const { return outputs; }

  /// Live nodes (reached from the outputs), operands first, in a
  /// deterministic order. `cyclic`, if given, is set when a live node
  /// reaches itself (then the order is not topological).
  std::vector<uint32_t> liveOrder(bool *cyclic = nullptr) const;
  /// Whether a live node reaches itself (valid after finish()): a rewrite
  /// that redirects the uses of a value into a node computed from one of
  /// those uses makes such a graph, which is not a program.
  bool isCyclic() const { return cyclic; }
  /// Sum of the live nodes' costs (ops on weights only count 0), the same
  /// with them counted, and the number of live ops.
  /// (Summed in fixed point, units of 1e-9 us, so that the same graph has
  /// the same cost however it was computed.)
  double cost() const { return totalCost * 1e-9; }
  double costWithWeightOps() const { return unfoldedCost * 1e-9; }
  unsigned numLiveOps() const { return liveOps; }
  uint64_t hash() const { return graphHash; }
  /// Whether node i computes from weights only (valid after finish()).
  bool isWeight(uint32_t i) const { return weight[i]; }
  /// Whether argument i is a weight.
  bool isWeightArgument(unsigned i) const { return weightArgs[i]; }

  /// For rewriting: append a node, replace a node, redirect every use of
  /// a value (operands and outputs) to another, then finish() to recompute
  /// the totals.
  uint32_t append(const WNode *n) {
    nodes.push_back(n);
    return nodes.size() - 1;
  }
  void replace(uint32_t i, const WNode *n) { nodes[i] = n; }
  void setOutput(unsigned i, WValue v) { outputs[i] = v; }
  void finish();
  /// This graph with `edit` applied, not finished.
  WorkGraph withEdit(const GraphEdit &edit) const;
  /// What finish() computed: costs, live ops, cycle flag.
  GraphTotals totals() const {
    return {totalCost, unfoldedCost, liveOps, cyclic};
  }

  /// Writes the graph into `func`'s body (replacing it): arguments map to
  /// its arguments, opaque nodes are cloned, rule nodes built.
  mlir::LogicalResult writeInto(mlir::func::FuncOp func) const;

private:
  std::vector<const WNode *> nodes;
  std::vector<WValue> outputs;
  std::vector<bool> weightArgs;
  std::vector<bool> weight;
  friend class EditEvaluator;
  int64_t totalCost = 0, unfoldedCost = 0;
  unsigned liveOps = 0;
  uint64_t graphHash = 0;
  bool cyclic = false;
};

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_WORKGRAPH_H
