//===- SharingExtraction.cpp - greedy, then a local search on DAG cost ----===//
//
// Greedy extraction minimizes each e-class's tree cost, so a subterm that
// two users could share is paid once per user and a rewrite that pays off
// only through sharing (TASO's merge of two matmuls reading one input: the
// merged matmul is dearer than either, cheaper than both) is never picked.
// This local search starts from the greedy pick and improves its DAG cost
// (every picked e-node reached from the roots once) by moves:
//
//  - switch one reached e-class to another of its e-nodes;
//  - if that alone is no better, also switch e-classes whose other e-nodes
//    read an e-class the first switch brought in (the other output of the
//    merged matmul's split), one at a time while each lowers the cost, and
//    keep the bundle if the whole is cheaper than before.
//
// A move is kept only if the result is cycle-free and strictly cheaper, so
// the search ends; its budget is a number of cost evaluations, and the
// order (ascending e-class and e-node ids) is fixed: deterministic.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/EqSat/Extraction.h"

using namespace mirage::eqsat;

namespace {

/// The DAG cost of a choice, by an iterative depth-first walk that reuses
/// its arrays (stamps, not clears) from one evaluation to the next.
class DagCoster {
public:
  DagCoster(const EGraph &g, llvm::ArrayRef<ClassId> roots,
            llvm::ArrayRef<double> nodeCost)
      : nodeCost(nodeCost), stamp(g.numNodes(), 0) {
    for (ClassId r : roots)
      this->roots.push_back(g.find(r));
    // The e-graph does not change during extraction: its canonical
    // children, flattened once, spare the walks the union-find.
    childBegin.reserve(g.numNodes() + 1);
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      childBegin.push_back(children.size());
      for (ClassId c : g.node(n).children)
        children.push_back(g.find(c));
    }
    childBegin.push_back(children.size());
  }

  /// The cost, or nothing if the choice has a cycle or misses a pick;
  /// `reached` gets the e-classes reached, in the order they are finished.
  std::optional<double> evaluate(llvm::ArrayRef<int64_t> choice,
                                 std::vector<ClassId> &reached) {
    ++evaluations;
    epoch += 2; // stamp == epoch - 1: open; == epoch: done
    const uint64_t open = epoch - 1, done = epoch;
    reached.clear();
    double total = 0;
    for (ClassId r : roots) {
      if (stamp[r] == done)
        continue;
      if (free[r]) {
        stamp[r] = done;
        reached.push_back(r);
        continue;
      }
      if (!enter(r, choice, open))
        return std::nullopt;
      while (!stack.empty()) {
        auto &[c, next] = stack.back();
        NodeId n = static_cast<NodeId>(choice[c]);
        if (next < childBegin[n + 1] - childBegin[n]) {
          ClassId child = children[childBegin[n] + next++];
          if (stamp[child] == done)
            continue;
          if (free[child]) {
            stamp[child] = done;
            reached.push_back(child);
            continue;
          }
          if (stamp[child] == open || !enter(child, choice, open)) {
            stack.clear();
            return std::nullopt;
          }
          continue;
        }
        stamp[c] = done;
        total += nodeCost[choice[c]];
        reached.push_back(c);
        stack.pop_back();
      }
    }
    return total;
  }

  /// Marks the e-classes whose pick in `choice` (greedy's, cycle-free)
  /// costs nothing with all it reaches (arguments, ops on weights only):
  /// no other pick is cheaper, so the search never switches them, and
  /// what they reach is free too, so they close no cycle with the classes
  /// it does switch; the walks stop at them.
  void markFree(llvm::ArrayRef<int64_t> choice) {
    free.assign(stamp.size(), false);
    bool changed = true;
    while (changed) {
      changed = false;
      for (ClassId c = 0; c < choice.size(); ++c) {
        if (free[c] || choice[c] < 0 || nodeCost[choice[c]] != 0)
          continue;
        NodeId n = static_cast<NodeId>(choice[c]);
        bool all = true;
        for (uint32_t i = childBegin[n]; i < childBegin[n + 1] && all; ++i)
          all = free[children[i]];
        if (all) {
          free[c] = true;
          changed = true;
        }
      }
    }
  }
  bool isFree(ClassId c) const { return free[c]; }

  uint64_t evaluations = 0;

private:
  bool enter(ClassId c, llvm::ArrayRef<int64_t> choice, uint64_t open) {
    if (c >= choice.size() || choice[c] < 0)
      return false;
    stamp[c] = open;
    stack.push_back({c, 0});
    return true;
  }

  llvm::ArrayRef<double> nodeCost;
  std::vector<ClassId> roots;
  std::vector<uint32_t> childBegin;
  std::vector<ClassId> children;
  std::vector<uint64_t> stamp;
  std::vector<bool> free;
  uint64_t epoch = 0;
  std::vector<std::pair<ClassId, unsigned>> stack;
};

bool cheaper(double a, double b) { return a < b - 1e-9 * std::max(1.0, b); }

} // namespace

std::optional<Extraction>
mirage::eqsat::extractSharing(const EGraph &g, llvm::ArrayRef<ClassId> roots,
                              llvm::ArrayRef<double> nodeCost,
                              const SharingOptions &options,
                              SharingStats *stats) {
  std::optional<Extraction> x = extractGreedy(g, roots, nodeCost);
  if (!x)
    return std::nullopt;
  SharingStats local;
  SharingStats &s = stats ? *stats : local;
  s = SharingStats();
  s.greedyCost = x->cost;
  std::vector<int64_t> &choice = x->choice;
  DagCoster coster(g, roots, nodeCost);
  coster.markFree(choice);
  std::vector<ClassId> reached, tried, inner;
  std::optional<double> start = coster.evaluate(choice, reached);
  if (!start)
    return std::nullopt; // greedy is cycle-free and complete; never here
  double current = *start;
  std::vector<bool> inUse(g.numNodes(), false);
  // Per e-class, the stamp of the last tentative pick that reached it.
  std::vector<uint64_t> usedNow(g.numNodes(), 0);
  uint64_t usedEpoch = 0;
  auto markInUse = [&](llvm::ArrayRef<ClassId> classes) {
    std::fill(inUse.begin(), inUse.end(), false);
    for (ClassId c : classes)
      inUse[c] = true;
  };
  markInUse(reached);
  auto overBudget = [&] {
    if (coster.evaluations < options.maxEvaluations)
      return false;
    s.budgetReached = true;
    return true;
  };

  auto sameChildren = [&](NodeId a, NodeId b) {
    llvm::SmallVector<ClassId, 4> x, y;
    for (ClassId k : g.node(a).children)
      x.push_back(g.find(k));
    for (ClassId k : g.node(b).children)
      y.push_back(g.find(k));
    llvm::sort(x);
    llvm::sort(y);
    x.erase(std::unique(x.begin(), x.end()), x.end());
    y.erase(std::unique(y.begin(), y.end()), y.end());
    return x == y;
  };

  bool improved = true;
  llvm::SmallVector<ClassId, 0> order;
  while (improved && !overBudget()) {
    improved = false;
    ++s.passes;
    order.assign(reached.begin(), reached.end());
    llvm::sort(order);
    for (ClassId c : order) {
      if (!inUse[c] || coster.isFree(c))
        continue; // an earlier move of this pass left it unused, or free
      for (NodeId n : g.classNodes(c)) {
        if (static_cast<int64_t>(n) == choice[c])
          continue;
        // An e-node that reads the same e-classes as the pick (add(b, a)
        // for add(a, b)) reaches the same graph: it changes the cost by
        // its own cost only and brings nothing in for a bundle.
        if (sameChildren(n, static_cast<NodeId>(choice[c]))) {
          if (cheaper(current - nodeCost[choice[c]] + nodeCost[n], current)) {
            current = current - nodeCost[choice[c]] + nodeCost[n];
            choice[c] = n;
            ++s.moves;
            improved = true;
          }
          continue;
        }
        if (overBudget())
          break;
        int64_t old = choice[c];
        choice[c] = n;
        std::optional<double> cost = coster.evaluate(choice, tried);
        if (!cost) {
          choice[c] = old;
          continue;
        }
        if (cheaper(*cost, current)) {
          current = *cost;
          reached.swap(tried);
          markInUse(reached);
          ++s.moves;
          improved = true;
          break;
        }
        // The e-classes the switch brought in: their other users may now
        // be cheap, since what they read is paid for.
        llvm::SmallVector<NodeId, 16> candidates;
        for (ClassId k : tried)
          if (!inUse[k])
            for (NodeId p : g.parents(k))
              if (!g.isDead(p) && g.classOf(p) != c &&
                  static_cast<int64_t>(p) != choice[g.classOf(p)])
                candidates.push_back(p);
        llvm::sort(candidates);
        candidates.erase(std::unique(candidates.begin(), candidates.end()),
                         candidates.end());
        if (candidates.empty()) {
          choice[c] = old;
          continue;
        }
        double bundle = *cost;
        llvm::SmallVector<std::pair<ClassId, int64_t>, 4> undo;
        auto markUsedNow = [&](llvm::ArrayRef<ClassId> classes) {
          ++usedEpoch;
          for (ClassId k : classes)
            usedNow[k] = usedEpoch;
        };
        markUsedNow(tried);
        for (NodeId p : candidates) {
          ClassId d = g.classOf(p);
          if (usedNow[d] != usedEpoch || coster.isFree(d) ||
              static_cast<int64_t>(p) == choice[d])
            continue;
          if (overBudget())
            break;
          int64_t before = choice[d];
          choice[d] = p;
          std::optional<double> c2 = coster.evaluate(choice, inner);
          if (c2 && cheaper(*c2, bundle)) {
            bundle = *c2;
            undo.push_back({d, before});
            markUsedNow(inner);
            tried.swap(inner);
          } else {
            choice[d] = before;
          }
        }
        if (!undo.empty() && cheaper(bundle, current)) {
          current = bundle;
          reached.swap(tried);
          markInUse(reached);
          s.moves += 1 + undo.size();
          ++s.bundles;
          improved = true;
          break;
        }
        for (auto it = undo.rbegin(); it != undo.rend(); ++it)
          choice[it->first] = it->second;
        choice[c] = old;
      }
    }
  }
  s.evaluations = coster.evaluations;
  x->cost = current;
  return x;
}
