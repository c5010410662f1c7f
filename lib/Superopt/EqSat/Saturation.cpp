//===- Saturation.cpp - equality saturation with the rule set -------------===//

#include "mirage/Superopt/EqSat/Saturation.h"
#include "mirage/Superopt/Rules/ShapeInference.h"
#include "llvm/ADT/DenseMap.h"
#include <chrono>

using namespace mirage::eqsat;
using namespace mirage::rules;

llvm::StringRef mirage::eqsat::stringify(StopReason reason) {
  switch (reason) {
  case StopReason::Saturated:
    return "saturated";
  case StopReason::NodeLimit:
    return "node limit";
  case StopReason::IterationLimit:
    return "iteration limit";
  case StopReason::TimeLimit:
    return "time limit";
  }
  return "";
}

//===----------------------------------------------------------------------===//
// E-matching
//===----------------------------------------------------------------------===//

namespace {

class EMatchSearch {
public:
  EMatchSearch(const EGraph &g, const RuleDirection &d,
               llvm::function_ref<bool(const EMatch &)> f)
      : g(g), d(d), src(d.source()), f(f) {
    const Rule &rule = *d.rule;
    ops.assign(src.ops.size(), -1);
    swapped.assign(src.ops.size(), false);
    vars.assign(rule.variables.size(), std::nullopt);
    scalars.assign(rule.numScalars, std::nullopt);
  }

  void run() { step(0); }

private:
  /// The class of result r of the op bound to e-node n.
  std::optional<ClassId> resultClass(int64_t n, unsigned r) const {
    return g.sibling(static_cast<NodeId>(n), r);
  }

  bool step(unsigned i) {
    if (i == d.steps.size())
      return finish();
    const MatchStep &s = d.steps[i];
    const PatternOp &p = src.ops[s.op];
    switch (s.from) {
    case MatchStep::From::AnyOfKind:
      for (NodeId n : g.nodesOfKind(p.kind))
        if (!tryNode(i, n))
          return false;
      return true;
    case MatchStep::From::ProducerOf: {
      unsigned producerOp = d.steps[s.step].op;
      const ENode &node = g.node(ops[producerOp]);
      unsigned j = swapped[producerOp] ? 1 - s.operand : s.operand;
      ClassId c = g.find(node.children[j]);
      for (NodeId n : g.classNodes(c))
        if (g.node(n).result == s.ref.index && !tryNode(i, n))
          return false;
      return true;
    }
    case MatchStep::From::UserOf: {
      std::optional<ClassId> v =
          s.ref.isVariable() ? vars[s.ref.index]
                             : resultClass(ops[s.ref.op], s.ref.index);
      if (!v)
        return true;
      for (NodeId user : g.parents(*v))
        if (!g.isDead(user) && g.node(user).result == 0 && !tryNode(i, user))
          return false;
      return true;
    }
    }
    return true;
  }

  bool tryNode(unsigned i, NodeId n) {
    unsigned pi = d.steps[i].op;
    const PatternOp &p = src.ops[pi];
    const ENode &node = g.node(n);
    const WNode *op = node.op;
    if (g.isDead(n) || !op->isRule() || op->kind != p.kind ||
        llvm::ArrayRef<int64_t>(op->ints) != llvm::ArrayRef<int64_t>(p.ints))
      return true;
    bool boundScalar = false;
    if (p.scalar.kind == ScalarExpr::Kind::Symbol) {
      auto &slot = scalars[p.scalar.a];
      if (slot && *slot != op->scalar)
        return true;
      if (!slot) {
        slot = op->scalar;
        boundScalar = true;
      }
    }
    bool keepGoing = true;
    for (bool swap : {false, true}) {
      if (swap && !(isCommutative(p.kind) && p.operands.size() == 2))
        break;
      llvm::SmallVector<unsigned, 2> newlyBound;
      bool ok = true;
      for (unsigned j = 0; j < p.operands.size() && ok; ++j) {
        PatternRef r = p.operands[j];
        ClassId c = g.find(node.children[swap ? 1 - j : j]);
        if (r.isVariable()) {
          if (vars[r.index]) {
            ok = *vars[r.index] == c;
          } else {
            vars[r.index] = c;
            newlyBound.push_back(r.index);
          }
        } else if (ops[r.op] >= 0) {
          std::optional<ClassId> rc = resultClass(ops[r.op], r.index);
          ok = rc && *rc == c;
        }
      }
      if (ok) {
        int64_t saved = ops[pi];
        ops[pi] = n;
        swapped[pi] = swap;
        keepGoing = step(i + 1);
        ops[pi] = saved;
      }
      for (unsigned v : newlyBound)
        vars[v] = std::nullopt;
      if (!keepGoing)
        break;
    }
    if (boundScalar)
      scalars[p.scalar.a] = std::nullopt;
    return keepGoing;
  }

  /// Every operand of every bound op reads what the pattern says. An op
  /// whose result two bound ops read before it was bound (the split of
  /// concat(split_0(x), split_1(x))) is bound from the first reader only;
  /// the second is checked here.
  bool consistent() const {
    for (size_t q = 0; q < src.ops.size(); ++q) {
      const PatternOp &p = src.ops[q];
      const ENode &node = g.node(ops[q]);
      for (unsigned j = 0; j < p.operands.size(); ++j) {
        PatternRef r = p.operands[j];
        ClassId c = g.find(node.children[swapped[q] ? 1 - j : j]);
        std::optional<ClassId> expected =
            r.isVariable() ? vars[r.index] : resultClass(ops[r.op], r.index);
        if (!expected || g.find(*expected) != c)
          return false;
      }
    }
    return true;
  }

  bool finish() {
    const Rule &rule = *d.rule;
    if (!consistent())
      return true;
    if (llvm::all_of(ops, [&](int64_t n) {
          return g.isWeight(g.classOf(static_cast<NodeId>(n)));
        }))
      return true;
    std::vector<std::pair<const DimExpr *, int64_t>> facts;
    for (size_t v = 0; v < vars.size(); ++v) {
      if (!vars[v])
        continue;
      llvm::ArrayRef<int64_t> shape = g.shape(*vars[v]);
      const auto &exprs = rule.variables[v].shape;
      if (shape.size() != exprs.size())
        return true;
      for (size_t k = 0; k < exprs.size(); ++k)
        facts.push_back({&exprs[k], shape[k]});
    }
    for (size_t q = 0; q < src.ops.size(); ++q) {
      const PatternOp &p = src.ops[q];
      const WNode *op = g.node(ops[q]).op;
      if (p.kind == OpKind::Split) {
        if (op->sizes.size() != 2)
          return true;
        for (unsigned k = 0; k < 2; ++k)
          facts.push_back({&p.shape[k], op->sizes[k]});
      } else if (p.kind == OpKind::Reshape) {
        if (op->resultShapes[0].size() != p.shape.size())
          return true;
        for (size_t k = 0; k < p.shape.size(); ++k)
          facts.push_back({&p.shape[k], op->resultShapes[0][k]});
      }
    }
    llvm::SmallVector<std::optional<int64_t>, 8> sizes(rule.dimNames.size());
    if (!solveSizes(facts, sizes))
      return true;
    for (auto [e, value] : facts)
      if (e->evaluate(sizes) != std::optional<int64_t>(value))
        return true;
    for (auto &s : sizes)
      if (s && *s < 1)
        return true;
    for (size_t q = 0; q < src.ops.size(); ++q) {
      const PatternOp &p = src.ops[q];
      if (p.scalar.kind == ScalarExpr::Kind::Product ||
          p.scalar.kind == ScalarExpr::Kind::Sum) {
        llvm::SmallVector<double, 2> values;
        for (auto &s : scalars)
          values.push_back(s.value_or(0));
        if (p.scalar.evaluate(values) != g.node(ops[q]).op->scalar)
          return true;
      }
    }
    if (rule.evidence.assumesPositiveScalars)
      for (auto &s : scalars)
        if (s && !(*s > 0))
          return true;
    EMatch m;
    m.direction = &d;
    m.anchor = static_cast<NodeId>(ops[d.steps[0].op]);
    for (auto &v : vars)
      m.variables.push_back(v.value_or(~0u));
    for (auto &s : sizes)
      m.sizes.push_back(s.value_or(0));
    for (auto &s : scalars)
      m.scalars.push_back(s.value_or(0));
    for (PatternRef r : src.outputs) {
      std::optional<ClassId> c =
          r.isVariable() ? vars[r.index] : resultClass(ops[r.op], r.index);
      if (!c)
        return true;
      m.outputs.push_back(*c);
    }
    return f(m);
  }

  const EGraph &g;
  const RuleDirection &d;
  const PatternSide &src;
  llvm::function_ref<bool(const EMatch &)> f;
  llvm::SmallVector<int64_t, 4> ops;
  llvm::SmallVector<bool, 4> swapped;
  llvm::SmallVector<std::optional<ClassId>, 4> vars;
  llvm::SmallVector<std::optional<double>, 2> scalars;
};

} // namespace

void mirage::eqsat::forEachEMatch(const EGraph &g, const RuleDirection &d,
                                  llvm::function_ref<bool(const EMatch &)> f) {
  EMatchSearch(g, d, f).run();
}

bool mirage::eqsat::applyEMatch(EGraph &g, const EMatch &m, bool &refused) {
  refused = false;
  const RuleDirection &d = *m.direction;
  const PatternSide &tgt = d.target();
  std::vector<llvm::SmallVector<ClassId, 2>> built(tgt.ops.size());
  auto valueOf = [&](PatternRef r) -> ClassId {
    return r.isVariable() ? m.variables[r.index] : built[r.op][r.index];
  };
  size_t nodesBefore = g.numNodes();
  for (size_t i = 0; i < tgt.ops.size(); ++i) {
    const PatternOp &p = tgt.ops[i];
    WNode n;
    n.type = WNode::Type::Rule;
    n.kind = p.kind;
    n.ints = p.ints;
    n.scalar = p.scalar.evaluate(m.scalars);
    n.origin = g.node(m.anchor).op->origin;
    llvm::SmallVector<ClassId, 2> children;
    llvm::SmallVector<TypedShape<int64_t>, 2> operandShapes;
    for (PatternRef r : p.operands) {
      ClassId c = valueOf(r);
      if (c == ~0u) {
        refused = true;
        return g.numNodes() != nodesBefore;
      }
      children.push_back(c);
      if (!n.elementType)
        n.elementType = g.elementType(c);
      else if (n.elementType != g.elementType(c)) {
        refused = true;
        return g.numNodes() != nodesBefore;
      }
      TypedShape<int64_t> s;
      s.dims.assign(g.shape(c).begin(), g.shape(c).end());
      s.resetSplits();
      operandShapes.push_back(std::move(s));
    }
    llvm::SmallVector<int64_t, 4> explicitShape;
    for (const DimExpr &e : p.shape)
      explicitShape.push_back(e.evaluate(m.sizes).value_or(-1));
    if (p.kind == OpKind::Split)
      n.sizes.assign(explicitShape.begin(), explicitShape.end());
    llvm::SmallVector<const TypedShape<int64_t> *, 2> ptrs;
    for (auto &s : operandShapes)
      ptrs.push_back(&s);
    llvm::SmallVector<TypedShape<int64_t>, 2> results;
    if (!inferShapes<int64_t>(p.kind, p.ints, ptrs,
                              p.shape.empty() ? nullptr : &explicitShape,
                              results)) {
      refused = true;
      return g.numNodes() != nodesBefore;
    }
    for (auto &r : results)
      n.resultShapes.push_back(r.dims);
    for (unsigned r = 0; r < n.resultShapes.size(); ++r)
      built[i].push_back(g.add(n, r, children));
  }
  bool changed = g.numNodes() != nodesBefore;
  for (size_t o = 0; o < m.outputs.size(); ++o) {
    ClassId from = g.find(m.outputs[o]), to = g.find(valueOf(tgt.outputs[o]));
    if (from == to)
      continue;
    if (!g.merge(from, to)) {
      refused = true;
      continue;
    }
    changed = true;
  }
  return changed;
}

//===----------------------------------------------------------------------===//
// Saturation
//===----------------------------------------------------------------------===//

SaturationResult
mirage::eqsat::saturate(EGraph &g, llvm::ArrayRef<RuleDirection> directions,
                        const SaturationOptions &options) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0 = Clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  SaturationResult result;
  g.rebuild();
  std::vector<unsigned> bannedUntil(directions.size(), 0);
  std::vector<unsigned> timesBanned(directions.size(), 0);
  bool stopped = false;
  while (!stopped) {
    if (result.iterations >= options.iterationLimit) {
      result.stop = StopReason::IterationLimit;
      break;
    }
    if (g.numNodes() >= options.nodeLimit) {
      result.stop = StopReason::NodeLimit;
      break;
    }
    if (options.timeLimit > 0 && elapsed() > options.timeLimit) {
      result.stop = StopReason::TimeLimit;
      break;
    }
    unsigned iteration = result.iterations++;
    // Search: every match of every direction not banned, on the e-graph
    // as it is at the start of the iteration.
    std::vector<EMatch> matches;
    bool anyBanned = false;
    for (size_t k = 0; k < directions.size(); ++k) {
      if (bannedUntil[k] > iteration) {
        anyBanned = true;
        continue;
      }
      if (options.multiOutputIterationLimit &&
          iteration >= options.multiOutputIterationLimit &&
          directions[k].source().outputs.size() > 1) {
        result.multiOutputLimited = true;
        continue;
      }
      uint64_t threshold = options.matchLimit << timesBanned[k];
      size_t first = matches.size();
      bool over = false;
      forEachEMatch(g, directions[k], [&](const EMatch &m) {
        if (matches.size() - first >= threshold) {
          over = true;
          return false;
        }
        matches.push_back(m);
        return true;
      });
      if (over) {
        matches.resize(first);
        bannedUntil[k] = iteration + 1 + (options.banLength << timesBanned[k]);
        ++timesBanned[k];
        ++result.bans;
        anyBanned = true;
      }
    }
    result.matches += matches.size();
    // Apply.
    uint64_t unionsBefore = g.numUnions();
    size_t nodesBefore = g.numNodes();
    for (const EMatch &m : matches) {
      if (g.numNodes() >= options.nodeLimit) {
        result.stop = StopReason::NodeLimit;
        stopped = true;
        break;
      }
      if (options.timeLimit > 0 && elapsed() > options.timeLimit) {
        result.stop = StopReason::TimeLimit;
        stopped = true;
        break;
      }
      bool refused = false;
      if (applyEMatch(g, m, refused)) {
        ++result.applied;
        result.rulesApplied.insert(m.direction->rule->name);
      }
      result.refused += refused;
    }
    g.rebuild();
    bool changed =
        g.numUnions() != unionsBefore || g.numNodes() != nodesBefore;
    if (!stopped && !changed) {
      if (!anyBanned) {
        result.stop = StopReason::Saturated;
        break;
      }
      // Nothing left but banned directions: lift the bans (egg does too).
      std::fill(bannedUntil.begin(), bannedUntil.end(), 0);
    }
  }
  result.seconds = elapsed();
  return result;
}

//===----------------------------------------------------------------------===//
// Work graphs in and out
//===----------------------------------------------------------------------===//

std::vector<ClassId> mirage::eqsat::addWorkGraph(EGraph &g,
                                                 const WorkGraph &wg) {
  llvm::DenseMap<uint32_t, llvm::SmallVector<ClassId, 2>> classOf;
  for (uint32_t i : wg.liveOrder()) {
    const WNode *n = wg.node(i);
    llvm::SmallVector<ClassId, 2> children;
    for (WValue v : n->operands)
      children.push_back(classOf[v.node][v.result]);
    bool weightArg = n->type == WNode::Type::Argument &&
                     wg.isWeightArgument(n->argument);
    auto &out = classOf[i];
    for (unsigned r = 0; r < n->resultShapes.size(); ++r)
      out.push_back(g.add(*n, r, children, weightArg));
  }
  std::vector<ClassId> roots;
  for (WValue v : wg.getOutputs())
    roots.push_back(classOf[v.node][v.result]);
  g.rebuild();
  return roots;
}

std::optional<WorkGraph>
mirage::eqsat::buildWorkGraph(const EGraph &g, const WorkGraph &start,
                              llvm::ArrayRef<ClassId> roots,
                              llvm::ArrayRef<int64_t> choice, NodeArena &arena,
                              std::string &why) {
  WorkGraph out = start;
  llvm::DenseMap<unsigned, uint32_t> argumentNode;
  for (uint32_t i = 0; i < start.getNodes().size(); ++i)
    if (start.node(i) && start.node(i)->type == WNode::Type::Argument)
      argumentNode[start.node(i)->argument] = i;
  llvm::DenseMap<ClassId, WValue> value;
  llvm::DenseMap<ClassId, bool> open;
  // Built ops by (op, operands), so that the two results of a split are
  // one node.
  std::vector<std::pair<const WNode *, uint32_t>> builtOps;
  std::function<std::optional<WValue>(ClassId)> build =
      [&](ClassId c) -> std::optional<WValue> {
    c = g.find(c);
    if (auto it = value.find(c); it != value.end())
      return it->second;
    if (open[c]) {
      why = "the extraction has a cycle";
      return std::nullopt;
    }
    if (c >= choice.size() || choice[c] < 0) {
      why = "the extraction picks no e-node for a needed e-class";
      return std::nullopt;
    }
    open[c] = true;
    const ENode &e = g.node(static_cast<NodeId>(choice[c]));
    WValue v;
    if (e.op->type == WNode::Type::Argument) {
      auto it = argumentNode.find(e.op->argument);
      if (it == argumentNode.end()) {
        why = "an argument the function does not have";
        return std::nullopt;
      }
      v = {it->second, 0};
    } else {
      WNode n = *e.op;
      n.operands.clear();
      for (ClassId child : e.children) {
        std::optional<WValue> cv = build(child);
        if (!cv)
          return std::nullopt;
        n.operands.push_back(*cv);
      }
      uint32_t index = UINT32_MAX;
      for (auto [op, i] : builtOps)
        if (sameOp(*op, n) && op->operands == n.operands) {
          index = i;
          break;
        }
      if (index == UINT32_MAX) {
        index = out.append(arena.add(std::move(n), out.getNodes()));
        builtOps.push_back({out.node(index), index});
      }
      v = {index, e.result};
    }
    open[c] = false;
    value[c] = v;
    return v;
  };
  for (unsigned i = 0; i < roots.size(); ++i) {
    std::optional<WValue> v = build(roots[i]);
    if (!v)
      return std::nullopt;
    out.setOutput(i, *v);
  }
  out.finish();
  if (out.isCyclic()) {
    why = "the extracted graph has a cycle";
    return std::nullopt;
  }
  return out;
}
