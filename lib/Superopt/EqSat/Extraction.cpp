//===- Extraction.cpp - choosing one graph from an e-graph ----------------===//
//
// The one file of the library that includes z3++.h: built with exceptions,
// and every Z3 exception is caught here.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/EqSat/Extraction.h"
#include "llvm/ADT/DenseSet.h"
#include <chrono>
#include <cmath>
#include <limits>
#include <z3++.h>

using namespace mirage::eqsat;

std::optional<double> mirage::eqsat::dagCost(const EGraph &g,
                                             llvm::ArrayRef<ClassId> roots,
                                             llvm::ArrayRef<int64_t> choice,
                                             llvm::ArrayRef<double> nodeCost) {
  // 0 unseen, 1 open, 2 done.
  std::vector<uint8_t> state(choice.size(), 0);
  double total = 0;
  bool ok = true;
  std::function<void(ClassId)> visit = [&](ClassId c) {
    c = g.find(c);
    if (!ok)
      return;
    if (c >= choice.size() || choice[c] < 0 || state[c] == 1) {
      ok = false;
      return;
    }
    if (state[c] == 2)
      return;
    state[c] = 1;
    NodeId n = static_cast<NodeId>(choice[c]);
    for (ClassId child : g.node(n).children)
      visit(child);
    state[c] = 2;
    total += nodeCost[n];
  };
  for (ClassId r : roots)
    visit(r);
  if (!ok)
    return std::nullopt;
  return total;
}

/// Per e-class, the least tree cost and the e-node that has it; among
/// equal costs, the tree with fewer ops (so that a free class, on weights
/// only, is not extracted as a detour).
static void treeCosts(const EGraph &g, llvm::ArrayRef<double> nodeCost,
                      std::vector<double> &best, std::vector<int64_t> &choice) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  size_t numIds = g.numNodes();
  best.assign(numIds, inf);
  choice.assign(numIds, -1);
  std::vector<double> size(numIds, inf);
  bool changed = true;
  while (changed) {
    changed = false;
    for (NodeId n = 0; n < g.numNodes(); ++n) {
      if (g.isDead(n))
        continue;
      const ENode &e = g.node(n);
      ClassId c = g.classOf(n);
      double v = nodeCost[n];
      double z = e.op->type != mirage::rules::WNode::Type::Argument;
      for (ClassId child : e.children) {
        v += best[g.find(child)];
        z += size[g.find(child)];
      }
      if (v < best[c] || (v == best[c] && z < size[c])) {
        best[c] = v;
        size[c] = z;
        choice[c] = n;
        changed = true;
      }
    }
  }
}

std::optional<Extraction>
mirage::eqsat::extractGreedy(const EGraph &g, llvm::ArrayRef<ClassId> roots,
                             llvm::ArrayRef<double> nodeCost) {
  std::vector<double> best;
  Extraction x;
  treeCosts(g, nodeCost, best, x.choice);
  std::optional<double> cost = dagCost(g, roots, x.choice, nodeCost);
  if (!cost)
    return std::nullopt;
  x.cost = *cost;
  return x;
}

std::optional<Extraction>
mirage::eqsat::extractOptimal(const EGraph &g, llvm::ArrayRef<ClassId> roots,
                              llvm::ArrayRef<double> nodeCost,
                              const IlpOptions &options, std::string &why) {
  // E-classes of tree cost 0 (ops on weights only, views of them) are
  // leaves of the ILP: their greedy pick costs nothing and reaches only
  // classes of tree cost 0, so it can neither be improved on nor close a
  // cycle with the ILP's picks.
  std::vector<double> tree;
  std::vector<int64_t> greedyChoice;
  treeCosts(g, nodeCost, tree, greedyChoice);
  auto isLeaf = [&](ClassId c) { return tree[c] == 0; };
  // The other e-classes reached from the roots through any e-node.
  std::vector<ClassId> reached;
  llvm::DenseSet<ClassId> seen;
  for (ClassId r : roots)
    if (!isLeaf(g.find(r)) && seen.insert(g.find(r)).second)
      reached.push_back(g.find(r));
  uint64_t numNodes = 0;
  for (size_t i = 0; i < reached.size(); ++i)
    for (NodeId n : g.classNodes(reached[i])) {
      ++numNodes;
      for (ClassId child : g.node(n).children)
        if (!isLeaf(g.find(child)) && seen.insert(g.find(child)).second)
          reached.push_back(g.find(child));
    }
  if (numNodes > options.maxNodes) {
    why = "the ILP would have " + std::to_string(numNodes) +
          " e-nodes, over its budget of " + std::to_string(options.maxNodes);
    return std::nullopt;
  }
  llvm::sort(reached);
  try {
    z3::context ctx;
    z3::optimize opt(ctx);
    using Clock = std::chrono::steady_clock;
    Clock::time_point t0 = Clock::now();
    llvm::DenseMap<ClassId, unsigned> classIndex;
    std::vector<z3::expr> picked;
    for (ClassId c : reached) {
      classIndex[c] = picked.size();
      picked.push_back(ctx.bool_const(("c" + std::to_string(c)).c_str()));
    }
    llvm::DenseMap<NodeId, unsigned> nodeIndex;
    std::vector<std::pair<NodeId, z3::expr>> nodeVars;
    for (ClassId c : reached) {
      unsigned ci = classIndex[c];
      z3::expr_vector alternatives(ctx);
      for (NodeId n : g.classNodes(c)) {
        z3::expr x = ctx.bool_const(("n" + std::to_string(n)).c_str());
        nodeIndex[n] = nodeVars.size();
        nodeVars.push_back({n, x});
        alternatives.push_back(x);
        for (ClassId child : g.node(n).children) {
          ClassId cc = g.find(child);
          if (cc == c) { // a self-loop is never picked
            opt.add(!x);
            continue;
          }
          if (isLeaf(cc))
            continue;
          opt.add(z3::implies(x, picked[classIndex[cc]]));
        }
        // Costs in units of 0.1 ns, and one unit per op, so that among
        // equally costly picks the one with fewer ops wins (a free view or
        // an op on weights only is not picked for nothing).
        int64_t weight = std::llround(nodeCost[n] * 1e4) +
                         (g.node(n).op->type != mirage::rules::WNode::Type::Argument);
        if (weight > 0)
          opt.add_soft(!x, std::to_string(weight).c_str());
      }
      opt.add(z3::implies(picked[ci], z3::mk_or(alternatives)));
    }
    for (ClassId r : roots)
      if (!isLeaf(g.find(r)))
        opt.add(picked[classIndex[g.find(r)]]);
    // Cycles of two e-nodes (a split and its concat, a transpose and its
    // inverse) are most of them: cut up front.
    for (auto &[n, xn] : nodeVars) {
      ClassId a = g.classOf(n);
      for (ClassId child : g.node(n).children) {
        ClassId b = g.find(child);
        if (b == a || isLeaf(b))
          continue;
        for (NodeId m : g.classNodes(b))
          if (m > n && llvm::any_of(g.node(m).children, [&](ClassId cc) {
                return g.find(cc) == a;
              }))
            opt.add(!xn || !nodeVars[nodeIndex[m]].second);
      }
    }
    // Cycles are excluded lazily (a cut per cycle found): the pick without
    // them is solved, and each cycle its e-nodes form is forbidden, until
    // the pick has none. Every e-node costs at least a unit, so an optimum
    // picks one e-node per needed e-class, and no cycle-free optimum
    // violates a cut: the last solution is a cycle-free optimum.
    // Z3's resource count so far (its "rlimit count" statistic): the
    // deterministic budget is shared by every round.
    auto resourcesUsed = [&]() -> uint64_t {
      z3::stats st = opt.statistics();
      for (unsigned i = 0; i < st.size(); ++i)
        if (st.key(i) == "rlimit count")
          return st.is_uint(i) ? st.uint_value(i)
                               : static_cast<uint64_t>(st.double_value(i));
      return 0;
    };
    const uint64_t resourcesAtStart = resourcesUsed();
    for (unsigned round = 0;; ++round) {
      // Z3's default MaxSAT engine (maxres): Debian's Z3 4.8.12 has no
      // other core-guided one (it warns and uses maxres for "rc2").
      z3::params p(ctx);
      if (options.resourceLimit) {
        uint64_t used = resourcesUsed() - resourcesAtStart;
        if (used >= options.resourceLimit) {
          why = "Z3 gave no optimum within its resource limit of " +
                std::to_string(options.resourceLimit);
          return std::nullopt;
        }
        // Z3 takes the limit relative to the count at the check, as an
        // unsigned int.
        p.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(
                            options.resourceLimit - used, UINT32_MAX)));
      }
      // The wall-clock safety cut covers every round.
      if (options.timeoutMs) {
        double used =
            std::chrono::duration<double, std::milli>(Clock::now() - t0)
                .count();
        if (used >= options.timeoutMs) {
          why = "Z3 gave no optimum within the time limit of " +
                std::to_string(options.timeoutMs) + " ms";
          return std::nullopt;
        }
        p.set("timeout", static_cast<unsigned>(options.timeoutMs - used));
      }
      opt.set(p);
      z3::check_result res = opt.check();
      if (res != z3::sat) {
        bool outOfResources =
            res == z3::unknown && options.resourceLimit &&
            resourcesUsed() - resourcesAtStart >= options.resourceLimit;
        why = outOfResources
                  ? "Z3 gave no optimum within its resource limit of " +
                        std::to_string(options.resourceLimit)
              : res == z3::unknown
                  ? "Z3 gave no optimum (" +
                        std::string(Z3_optimize_get_reason_unknown(ctx, opt)) +
                        ")"
                  : std::string("Z3 found the ILP infeasible");
        return std::nullopt;
      }
      z3::model model = opt.get_model();
      Extraction x;
      x.choice.assign(g.numNodes(), -1);
      for (ClassId c = 0; c < g.numNodes(); ++c)
        if (c < tree.size() && g.find(c) == c && isLeaf(c))
          x.choice[c] = greedyChoice[c];
      for (auto &[n, var] : nodeVars) {
        ClassId c = g.classOf(n);
        if (x.choice[c] < 0 &&
            model.eval(var, true).bool_value() == Z3_L_TRUE &&
            model.eval(picked[classIndex[c]], true).bool_value() == Z3_L_TRUE)
          x.choice[c] = n;
      }
      // The cycles of the pick, from the roots (each back edge gives one).
      std::vector<uint8_t> state(g.numNodes(), 0);
      std::vector<NodeId> path;
      std::vector<std::vector<NodeId>> cycles;
      std::function<void(ClassId)> visit = [&](ClassId c) {
        c = g.find(c);
        if (x.choice[c] < 0 || isLeaf(c) || state[c] == 2)
          return;
        if (state[c] == 1) {
          auto it = std::find_if(path.begin(), path.end(), [&](NodeId m) {
            return g.classOf(m) == c;
          });
          cycles.emplace_back(it, path.end());
          return;
        }
        NodeId n = static_cast<NodeId>(x.choice[c]);
        state[c] = 1;
        path.push_back(n);
        for (ClassId child : g.node(n).children)
          visit(child);
        path.pop_back();
        state[c] = 2;
      };
      for (ClassId r : roots)
        visit(r);
      if (cycles.empty()) {
        std::optional<double> cost = dagCost(g, roots, x.choice, nodeCost);
        if (!cost) {
          why = "the ILP's solution is not a complete extraction";
          return std::nullopt;
        }
        x.cost = *cost;
        return x;
      }
      if (round >= options.maxCycleCuts) {
        why = "more than " + std::to_string(options.maxCycleCuts) +
              " rounds of cycle cuts";
        return std::nullopt;
      }
      for (const std::vector<NodeId> &cycle : cycles) {
        z3::expr_vector cut(ctx);
        for (NodeId n : cycle)
          cut.push_back(!nodeVars[nodeIndex[n]].second);
        opt.add(z3::mk_or(cut));
      }
    }
  } catch (const z3::exception &e) {
    why = std::string("Z3: ") + e.msg();
    return std::nullopt;
  }
}
