//===- EGraph.h - an e-graph over graph-dialect terms -----------*- C++ -*-===//
//
// An e-graph (egg, POPL'21; Tensat, MLSys'21) holds many equivalent graphs
// at once: e-classes of equal tensors, each a set of e-nodes, an e-node
// being an op applied to e-classes. Its parts:
//
//  - e-nodes: an op of the rule language (OpKind with its attributes), an
//    opaque op of the program (any other graph op, equal only to itself)
//    or a function argument, each with the result it yields (split has
//    two), the e-classes of its operands and its cost (the analytic cost
//    model's time of its predefined kernel, from rules::NodeArena);
//  - hash-consing: adding an e-node that exists returns its e-class;
//  - union-find over e-class ids, with congruence closure by deferred
//    rebuilding (egg, section 3): merge() only records the union and
//    queues the merged class; rebuild() re-canonicalizes the e-nodes of
//    their parents and merges those that became equal (f(a), f(b) after
//    a = b), until nothing changes;
//  - an e-class analysis: every e-class has one tensor type (shape and
//    element type, which the rules' shape constraints read; merging two
//    classes of different types is refused) and whether it can be
//    computed from weights only (such ops are folded before the run, as
//    TASO and part 1's search do, so they cost nothing).
//
// Ids are dense and assigned in insertion order: everything is
// deterministic.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_EQSAT_EGRAPH_H
#define MIRAGE_SUPEROPT_EQSAT_EGRAPH_H

#include "mirage/Superopt/Rules/WorkGraph.h"
#include "llvm/ADT/DenseMap.h"
#include <unordered_map>

namespace mirage::eqsat {

using ClassId = uint32_t;
using NodeId = uint32_t;

struct ENode {
  /// The op (kind, attributes, result shapes, argument number or the
  /// opaque op), owned by the NodeArena; its operands are not used.
  const rules::WNode *op = nullptr;
  /// The result of `op` this e-node yields.
  uint32_t result = 0;
  /// Operand e-classes (canonical after rebuild()).
  llvm::SmallVector<ClassId, 2> children;
  /// The op's estimated time (us), divided among its results.
  double cost = 0;
};

/// Whether two ops are the same op (same kind, attributes, scalar, sizes,
/// types; arguments by number, opaque ops by identity).
bool sameOp(const rules::WNode &a, const rules::WNode &b);

class EGraph {
public:
  /// `arena` costs the e-nodes (on its target) and owns their ops.
  explicit EGraph(rules::NodeArena &arena) : arena(arena) {}

  /// Adds an e-node: `op`'s operands are ignored, `children` are its
  /// operand classes, and the class of result `result` is returned (new
  /// or, by hash-consing, an existing one). The op is costed with the
  /// children's types. `weightArgument`: an argument that is a weight.
  ClassId add(const rules::WNode &op, unsigned result,
              llvm::ArrayRef<ClassId> children, bool weightArgument = false);
  /// The class of an e-node if it exists (children canonicalized first).
  std::optional<ClassId> lookup(const rules::WNode &op, unsigned result,
                                llvm::ArrayRef<ClassId> children) const;

  /// Union-find.
  ClassId find(ClassId c) const;
  /// Records that a and b are equal. Returns false (and merges nothing) if
  /// their types differ; true otherwise. Congruence is restored by
  /// rebuild().
  bool merge(ClassId a, ClassId b);
  /// Restores the invariants: canonical hash-cons, congruence closure,
  /// analysis. Returns the number of unions it made.
  unsigned rebuild();
  bool isClean() const { return pending.empty(); }

  /// E-nodes ever added, and those that are not congruent duplicates of
  /// another (what the e-graph holds).
  size_t numNodes() const { return nodes.size(); }
  size_t numLiveNodes() const;
  /// Whether n was found congruent to an earlier e-node (it is dropped from
  /// its class).
  bool isDead(NodeId n) const { return dead[n]; }
  /// Canonical classes (after rebuild()).
  size_t numClasses() const;
  /// Unions made so far (merge() and rebuild()).
  uint64_t numUnions() const { return unions; }

  const ENode &node(NodeId n) const { return nodes[n]; }
  /// The e-nodes of a canonical class, in insertion order.
  llvm::ArrayRef<NodeId> classNodes(ClassId c) const {
    return classes[find(c)].nodes;
  }
  /// Every canonical class id, ascending.
  std::vector<ClassId> canonicalClasses() const;
  /// Every e-node id whose class is c's and whose op yields `result` of
  /// the same op as `n` with the same children (a sibling of a split).
  std::optional<ClassId> sibling(NodeId n, unsigned result) const;
  /// Users of class c: e-nodes that read it (may hold duplicates and stale
  /// entries; check children).
  llvm::ArrayRef<NodeId> parents(ClassId c) const {
    return classes[find(c)].parents;
  }
  /// Live e-nodes yielding result 0 of a rule op of the kind, ascending
  /// (as of the last rebuild()).
  llvm::ArrayRef<NodeId> nodesOfKind(rules::OpKind kind) const {
    return byKind[static_cast<unsigned>(kind)];
  }
  ClassId classOf(NodeId n) const { return find(nodeClass[n]); }

  /// The analysis.
  llvm::ArrayRef<int64_t> shape(ClassId c) const {
    return classes[find(c)].shape;
  }
  mlir::Type elementType(ClassId c) const {
    return classes[find(c)].elementType;
  }
  bool isWeight(ClassId c) const { return classes[find(c)].weight; }
  /// The e-node's cost counting ops on weights only as 0 (folded).
  double foldedCost(NodeId n) const;

  rules::NodeArena &getArena() { return arena; }

private:
  struct Key {
    const rules::WNode *op;
    uint32_t result;
    llvm::SmallVector<ClassId, 2> children;
  };
  struct KeyHash {
    size_t operator()(const Key &k) const;
  };
  struct KeyEq {
    bool operator()(const Key &a, const Key &b) const;
  };
  struct EClass {
    llvm::SmallVector<NodeId, 2> nodes;
    llvm::SmallVector<NodeId, 4> parents;
    llvm::SmallVector<int64_t, 4> shape;
    mlir::Type elementType;
    bool weight = false;
  };

  Key canonicalKey(const rules::WNode *op, unsigned result,
                   llvm::ArrayRef<ClassId> children) const;
  ClassId unite(ClassId a, ClassId b);
  void recomputeWeights();

  rules::NodeArena &arena;
  std::vector<ENode> nodes;
  std::vector<ClassId> nodeClass;
  std::vector<bool> weightArgs, dead;
  std::vector<std::vector<NodeId>> byKind =
      std::vector<std::vector<NodeId>>(rules::kNumOpKinds);
  mutable std::vector<ClassId> parent; // union-find
  std::vector<EClass> classes;
  std::unordered_map<Key, NodeId, KeyHash, KeyEq> memo;
  std::vector<ClassId> pending;
  uint64_t unions = 0;
  /// Per class, a node of its type, for costing new e-nodes.
  std::deque<rules::WNode> carriers;
  std::vector<const rules::WNode *> carrierPtrs;
};

} // namespace mirage::eqsat

#endif // MIRAGE_SUPEROPT_EQSAT_EGRAPH_H
