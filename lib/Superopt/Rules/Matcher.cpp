//===- Matcher.cpp - matching rules in a work graph and rewriting ---------===//

#include "mirage/Superopt/Rules/Matcher.h"
#include "mirage/Superopt/Rules/ShapeInference.h"
#include "llvm/ADT/SmallSet.h"

using namespace mirage::rules;

std::string RuleDirection::label() const {
  return forward ? rule->name : rule->name + " (reversed)";
}

/// Variables and bare scalar symbols a side reads, and the scalar symbols
/// its compound scalars use.
static void usage(const PatternSide &side, llvm::SmallSet<unsigned, 4> &vars,
                  unsigned &bare, unsigned &all) {
  for (const PatternOp &op : side.ops) {
    for (PatternRef r : op.operands)
      if (r.isVariable())
        vars.insert(r.index);
    if (op.scalar.kind == ScalarExpr::Kind::Symbol)
      bare |= 1u << op.scalar.a;
    else if (op.scalar.kind != ScalarExpr::Kind::None)
      all |= (1u << op.scalar.a) | (1u << op.scalar.b);
  }
  for (PatternRef r : side.outputs)
    if (r.isVariable())
      vars.insert(r.index);
  all |= bare;
}

static std::vector<MatchStep> planSteps(const PatternSide &src) {
  std::vector<MatchStep> steps;
  std::vector<int> stepOf(src.ops.size(), -1);
  auto push = [&](MatchStep s) {
    stepOf[s.op] = steps.size();
    steps.push_back(s);
  };
  unsigned first = src.outputs[0].isVariable() ? 0 : src.outputs[0].op;
  push({first, MatchStep::From::AnyOfKind, 0, 0, {}});
  while (steps.size() < src.ops.size()) {
    bool found = false;
    for (size_t s = 0; s < steps.size() && !found; ++s) {
      const PatternOp &op = src.ops[steps[s].op];
      for (unsigned j = 0; j < op.operands.size() && !found; ++j) {
        PatternRef r = op.operands[j];
        if (!r.isVariable() && stepOf[r.op] < 0) {
          push({static_cast<unsigned>(r.op), MatchStep::From::ProducerOf,
                static_cast<unsigned>(s), j, r});
          found = true;
        }
      }
    }
    if (found)
      continue;
    auto bound = [&](PatternRef r) {
      if (!r.isVariable())
        return stepOf[r.op] >= 0;
      for (const MatchStep &s : steps)
        for (PatternRef o : src.ops[s.op].operands)
          if (o == r)
            return true;
      return false;
    };
    for (unsigned q = 0; q < src.ops.size() && !found; ++q) {
      if (stepOf[q] >= 0)
        continue;
      for (PatternRef r : src.ops[q].operands)
        if (bound(r)) {
          push({q, MatchStep::From::UserOf, 0, 0, r});
          found = true;
          break;
        }
    }
    if (!found)
      for (unsigned q = 0; q < src.ops.size(); ++q)
        if (stepOf[q] < 0) {
          push({q, MatchStep::From::AnyOfKind, 0, 0, {}});
          break;
        }
  }
  return steps;
}

std::vector<RuleDirection>
mirage::rules::prepareDirections(llvm::ArrayRef<Rule> rules, bool reverse) {
  std::vector<RuleDirection> directions;
  for (const Rule &rule : rules)
    for (bool forward : {true, false}) {
      if (!forward && !reverse)
        continue;
      const PatternSide &src = rule.side(!forward), &tgt = rule.side(forward);
      if (src.ops.empty())
        continue;
      llvm::SmallSet<unsigned, 4> sv, tv;
      unsigned sBare = 0, sAll = 0, tBare = 0, tAll = 0;
      usage(src, sv, sBare, sAll);
      usage(tgt, tv, tBare, tAll);
      bool covered = llvm::all_of(tv, [&](unsigned v) { return sv.count(v); });
      // Every scalar the target needs, and every one a compound scalar of
      // the source checks, must be bound by a bare scalar of the source.
      if (!covered || (tAll & ~sBare) || (sAll & ~sBare))
        continue;
      // Every size the target needs, and every size of the source's
      // variables, must follow from what the source matches.
      llvm::SmallVector<bool, 8> known = determinedSymbols(rule, src);
      bool determined = true;
      auto need = [&](const DimExpr &e) {
        for (auto [s, c] : e.terms)
          determined &= known[s];
      };
      for (const PatternOp &op : tgt.ops)
        for (const DimExpr &e : op.shape)
          need(e);
      for (unsigned v : sv)
        for (const DimExpr &e : rule.variables[v].shape)
          need(e);
      if (!determined)
        continue;
      RuleDirection d;
      d.rule = &rule;
      d.forward = forward;
      d.steps = planSteps(src);
      directions.push_back(std::move(d));
    }
  return directions;
}

GraphIndex::GraphIndex(const WorkGraph &g) {
  size_t n = g.getNodes().size();
  users.resize(n);
  byKind.resize(kNumOpKinds);
  live.assign(n, false);
  position.assign(n, UINT32_MAX);
  bool cyclic = false;
  std::vector<uint32_t> order = g.liveOrder(&cyclic);
  topological = !cyclic;
  for (uint32_t k = 0; k < order.size(); ++k) {
    uint32_t i = order[k];
    position[i] = k;
    live[i] = true;
    const WNode *node = g.node(i);
    for (unsigned k = 0; k < node->operands.size(); ++k)
      users[node->operands[k].node].push_back({i, k});
    if (node->isRule())
      byKind[static_cast<unsigned>(node->kind)].push_back(i);
  }
}

/// Whether one of `values` is computed (through operands) from one of the
/// nodes `ops`. In a topological order a node reads only nodes placed
/// before it, so the walk up from the values stops at nodes placed before
/// the first of `ops`: a few nodes around a match, not everything upstream.
template <typename Ops>
static bool readsAnyOf(const WorkGraph &g, const GraphIndex &index,
                       llvm::ArrayRef<WValue> values, const Ops &ops) {
  uint32_t first = UINT32_MAX;
  if (index.topological)
    for (auto n : ops)
      first = std::min(first, index.position[n]);
  else
    first = 0;
  llvm::SmallVector<uint32_t, 16> stack;
  llvm::SmallDenseSet<uint32_t, 16> seen;
  for (WValue v : values)
    stack.push_back(v.node);
  while (!stack.empty()) {
    uint32_t n = stack.pop_back_val();
    if (index.topological && index.position[n] < first)
      continue;
    if (!seen.insert(n).second)
      continue;
    for (auto o : ops)
      if (static_cast<uint32_t>(o) == n)
        return true;
    for (WValue w : g.node(n)->operands)
      stack.push_back(w.node);
  }
  return false;
}

namespace {

class MatchSearch {
public:
  MatchSearch(const WorkGraph &g, const GraphIndex &index,
              const RuleDirection &d,
              llvm::function_ref<bool(const Match &)> f,
              std::vector<std::pair<uint32_t, const WNode *>> *reads = nullptr,
              std::vector<std::pair<uint32_t, UserList>> *usersRead = nullptr)
      : g(g), index(index), d(d), src(d.source()), f(f), reads(reads),
        usersRead(usersRead) {
    const Rule &rule = *d.rule;
    ops.assign(src.ops.size(), -1);
    swapped.assign(src.ops.size(), false);
    vars.assign(rule.variables.size(), std::nullopt);
    scalars.assign(rule.numScalars, std::nullopt);
  }

  void run() { step(0); }
  /// Only the matches whose first op is `root`, without the filters that
  /// read beyond the nodes matched (weights only, cycles): those are
  /// applied by the caller (passesGraphFilters), and every node read is
  /// noted in `reads`.
  void runFrom(uint32_t root) {
    unfiltered = true;
    tryNode(0, root);
  }

private:
  bool step(unsigned i) {
    if (i == d.steps.size())
      return finish();
    const MatchStep &s = d.steps[i];
    const PatternOp &p = src.ops[s.op];
    switch (s.from) {
    case MatchStep::From::AnyOfKind:
      for (uint32_t n : index.byKind[static_cast<unsigned>(p.kind)])
        if (!tryNode(i, n))
          return false;
      return true;
    case MatchStep::From::ProducerOf: {
      unsigned producerOp = d.steps[s.step].op;
      const WNode *node = g.node(ops[producerOp]);
      unsigned j = swapped[producerOp] ? 1 - s.operand : s.operand;
      WValue v = node->operands[j];
      if (v.result != s.ref.index)
        return true;
      return tryNode(i, v.node);
    }
    case MatchStep::From::UserOf: {
      WValue v = s.ref.isVariable()
                     ? *vars[s.ref.index]
                     : WValue{static_cast<uint32_t>(ops[s.ref.op]),
                              s.ref.index};
      if (usersRead) {
        // The users found depend on the whole list, and on each user's
        // operands.
        usersRead->push_back({v.node, index.users[v.node]});
        for (auto [user, k] : index.users[v.node])
          reads->push_back({user, g.node(user)});
      }
      uint32_t last = UINT32_MAX;
      for (auto [user, k] : index.users[v.node]) {
        if (g.node(user)->operands[k] != v || user == last)
          continue;
        last = user;
        if (!tryNode(i, user))
          return false;
      }
      return true;
    }
    }
    return true;
  }

  /// Binds the op of step i to node n (in each operand order), recursing.
  bool tryNode(unsigned i, uint32_t n) {
    unsigned pi = d.steps[i].op;
    const PatternOp &p = src.ops[pi];
    const WNode *node = g.node(n);
    if (reads)
      reads->push_back({n, node});
    if (!node || !index.live[n] || !node->isRule() || node->kind != p.kind ||
        llvm::ArrayRef<int64_t>(node->ints) != llvm::ArrayRef<int64_t>(p.ints))
      return true;
    for (int64_t bound : ops)
      if (bound == static_cast<int64_t>(n))
        return true;
    std::optional<double> savedScalar;
    bool boundScalar = false;
    if (p.scalar.kind == ScalarExpr::Kind::Symbol) {
      auto &slot = scalars[p.scalar.a];
      if (slot && *slot != node->scalar)
        return true;
      if (!slot) {
        slot = node->scalar;
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
        WValue v = node->operands[swap ? 1 - j : j];
        if (r.isVariable()) {
          if (vars[r.index]) {
            ok = *vars[r.index] == v;
          } else {
            vars[r.index] = v;
            newlyBound.push_back(r.index);
          }
        } else if (ops[r.op] >= 0) {
          ok = v == WValue{static_cast<uint32_t>(ops[r.op]), r.index};
        } else {
          ok = v.result == r.index; // bound later, as a producer
        }
      }
      if (ok) {
        ops[pi] = n;
        swapped[pi] = swap;
        keepGoing = step(i + 1);
        ops[pi] = -1;
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

  const llvm::SmallVector<int64_t, 4> &shapeOf(WValue v) const {
    return g.node(v.node)->resultShapes[v.result];
  }

  /// Every binding made: check the shape constraints, the sizes of splits
  /// and reshapes, compound scalars, positivity, cycles; then report.
  bool finish() {
    const Rule &rule = *d.rule;
    // Every operand that names an op of the source must read that op's
    // node. An op is bound through one reader (ProducerOf), so a second
    // reader (the concat of both results of one split) is checked here.
    for (size_t q = 0; q < src.ops.size(); ++q) {
      const PatternOp &p = src.ops[q];
      const WNode *node = g.node(ops[q]);
      for (unsigned j = 0; j < p.operands.size(); ++j) {
        PatternRef r = p.operands[j];
        if (r.isVariable())
          continue;
        WValue v = node->operands[swapped[q] ? 1 - j : j];
        if (ops[r.op] < 0 ||
            v != WValue{static_cast<uint32_t>(ops[r.op]), r.index})
          return true;
      }
    }
    // All source ops on weights only: folded anyway.
    if (!unfiltered &&
        llvm::all_of(ops, [&](int64_t n) { return g.isWeight(n); }))
      return true;
    // Sizes from the variables' shapes and the source's splits and
    // reshapes; then every variable's shape must be what the rule says.
    llvm::SmallVector<std::pair<const DimExpr *, int64_t>, 16> facts;
    for (size_t v = 0; v < vars.size(); ++v) {
      if (!vars[v])
        continue;
      if (reads)
        reads->push_back({vars[v]->node, g.node(vars[v]->node)});
      const auto &shape = shapeOf(*vars[v]);
      const auto &exprs = rule.variables[v].shape;
      if (shape.size() != exprs.size())
        return true;
      for (size_t k = 0; k < exprs.size(); ++k)
        facts.push_back({&exprs[k], shape[k]});
    }
    for (size_t q = 0; q < src.ops.size(); ++q) {
      const PatternOp &p = src.ops[q];
      const WNode *node = g.node(ops[q]);
      if (p.kind == OpKind::Split)
        for (unsigned k = 0; k < 2; ++k)
          facts.push_back({&p.shape[k], node->sizes[k]});
      else if (p.kind == OpKind::Reshape) {
        if (node->resultShapes[0].size() != p.shape.size())
          return true;
        for (size_t k = 0; k < p.shape.size(); ++k)
          facts.push_back({&p.shape[k], node->resultShapes[0][k]});
      }
    }
    llvm::SmallVector<std::optional<int64_t>, 8> sizes(rule.dimNames.size());
    if (!solveSizes(facts, sizes))
      return true;
    for (auto [e, value] : facts)
      if (e->evaluate(sizes) != std::optional<int64_t>(value))
        return true;
    for (size_t s = 0; s < sizes.size(); ++s)
      if (sizes[s] && *sizes[s] < 1)
        return true;
    // Compound scalars of the source: the constant the rule says.
    for (size_t q = 0; q < src.ops.size(); ++q) {
      const PatternOp &p = src.ops[q];
      const WNode *node = g.node(ops[q]);
      if (p.scalar.kind == ScalarExpr::Kind::Product ||
          p.scalar.kind == ScalarExpr::Kind::Sum) {
        llvm::SmallVector<double, 2> values;
        for (auto &s : scalars)
          values.push_back(s.value_or(0));
        if (p.scalar.evaluate(values) != node->scalar)
          return true;
      }
    }
    if (rule.evidence.assumesPositiveScalars)
      for (auto &s : scalars)
        if (s && !(*s > 0))
          return true;
    if (!unfiltered && src.outputs.size() > 1 && createsCycle())
      return true;
    Match m;
    m.direction = &d;
    for (int64_t n : ops)
      m.ops.push_back(n);
    for (auto &v : vars)
      m.variables.push_back(v.value_or(WValue{UINT32_MAX, 0}));
    for (auto &s : sizes)
      m.sizes.push_back(s.value_or(0));
    for (auto &s : scalars)
      m.scalars.push_back(s.value_or(0));
    return f(m);
  }

  /// Whether a variable binding depends on a matched source op: the target
  /// would read what it replaces.
  bool createsCycle() const {
    llvm::SmallVector<WValue, 4> bound;
    for (const auto &v : vars)
      if (v)
        bound.push_back(*v);
    return readsAnyOf(g, index, bound, ops);
  }

  const WorkGraph &g;
  const GraphIndex &index;
  const RuleDirection &d;
  const PatternSide &src;
  llvm::function_ref<bool(const Match &)> f;
  llvm::SmallVector<int64_t, 4> ops;
  llvm::SmallVector<bool, 4> swapped;
  llvm::SmallVector<std::optional<WValue>, 4> vars;
  llvm::SmallVector<std::optional<double>, 2> scalars;
  std::vector<std::pair<uint32_t, const WNode *>> *reads;
  std::vector<std::pair<uint32_t, UserList>> *usersRead;
  bool unfiltered = false;
};

} // namespace

/// The filters of MatchSearch::finish that read beyond the matched nodes:
/// not all source ops on weights only, and (several source outputs) no
/// variable computed from a matched op.
static bool passesGraphFilters(const WorkGraph &g, const GraphIndex &index,
                               const Match &m) {
  if (llvm::all_of(m.ops, [&](uint32_t n) { return g.isWeight(n); }))
    return false;
  if (m.direction->source().outputs.size() <= 1)
    return true;
  llvm::SmallVector<WValue, 4> bound;
  for (WValue v : m.variables)
    if (v.node != UINT32_MAX)
      bound.push_back(v);
  return !readsAnyOf(g, index, bound, m.ops);
}

IncrementalMatcher::IncrementalMatcher(llvm::ArrayRef<RuleDirection> directions)
    : directions(directions), tree(directions.size(), false),
      treeByKind(kNumOpKinds), buckets(directions.size()) {
  for (unsigned i = 0; i < directions.size(); ++i) {
    const RuleDirection &d = directions[i];
    bool isTree = !d.steps.empty() &&
                  d.steps[0].from == MatchStep::From::AnyOfKind;
    for (size_t s = 1; s < d.steps.size(); ++s)
      isTree &= d.steps[s].from != MatchStep::From::AnyOfKind;
    tree[i] = isTree;
    if (isTree)
      treeByKind[static_cast<unsigned>(d.source().ops[d.steps[0].op].kind)]
          .push_back(i);
  }
}

const IncrementalMatcher::Entry &
IncrementalMatcher::entryFor(const WorkGraph &g, const GraphIndex &index,
                             uint32_t root) {
  auto &entries = cache[root];
  llvm::ArrayRef<const WNode *> nodes = g.getNodes();
  for (size_t e = 0; e < entries.size(); ++e) {
    bool valid =
        llvm::all_of(entries[e].reads,
                     [&](const auto &r) {
                       return r.first < nodes.size() &&
                              nodes[r.first] == r.second;
                     }) &&
        llvm::all_of(entries[e].users, [&](const auto &r) {
          return r.first < index.users.size() &&
                 index.users[r.first] == r.second;
        });
    if (!valid)
      continue;
    ++rootsReused;
    // Most recently used first.
    if (e != 0)
      std::swap(entries[e], entries[0]);
    return entries[0];
  }
  ++rootsMatched;
  Entry entry;
  entry.reads.push_back({root, nodes[root]});
  for (unsigned d : treeByKind[static_cast<unsigned>(nodes[root]->kind)])
    MatchSearch(
        g, index, directions[d],
        [&](const Match &m) {
          entry.matches.push_back({d, m});
          return true;
        },
        &entry.reads, &entry.users)
        .runFrom(root);
  llvm::sort(entry.reads, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  entry.reads.erase(std::unique(entry.reads.begin(), entry.reads.end()),
                    entry.reads.end());
  // Keep the two most recent lineages' results.
  if (entries.size() >= 2)
    entries.pop_back();
  entries.insert(entries.begin(), std::move(entry));
  return entries[0];
}

void IncrementalMatcher::forEachMatch(
    const WorkGraph &g, const GraphIndex &index,
    llvm::function_ref<bool(const Match &)> f) {
  for (auto &b : buckets)
    b.clear();
  // Sized before any match is pointed to: growing the cache may copy it.
  if (cache.size() < g.getNodes().size())
    cache.resize(g.getNodes().size());
  for (unsigned k = 0; k < kNumOpKinds; ++k) {
    if (treeByKind[k].empty())
      continue;
    for (uint32_t root : index.byKind[k])
      for (const auto &[d, m] : entryFor(g, index, root).matches)
        buckets[d].push_back(&m);
  }
  for (unsigned d = 0; d < directions.size(); ++d) {
    if (!tree[d]) {
      bool stop = false;
      mirage::rules::forEachMatch(g, index, directions[d],
                                  [&](const Match &m) {
                                    stop = !f(m);
                                    return !stop;
                                  });
      if (stop)
        return;
      continue;
    }
    for (const Match *m : buckets[d])
      if (passesGraphFilters(g, index, *m) && !f(*m))
        return;
  }
}

void mirage::rules::forEachMatch(const WorkGraph &g, const GraphIndex &index,
                                 const RuleDirection &d,
                                 llvm::function_ref<bool(const Match &)> f) {
  MatchSearch(g, index, d, f).run();
}

std::optional<GraphEdit> mirage::rules::planRewrite(const WorkGraph &g,
                                                    const GraphIndex &index,
                                                    const Match &m,
                                                    NodeArena &arena) {
  const RuleDirection &d = *m.direction;
  const PatternSide &src = d.source(), &tgt = d.target();
  const uint32_t pn = g.getNodes().size();
  GraphEdit edit;
  // The child as the edit has made it so far.
  auto nodeAt = [&](uint32_t i) -> const WNode * {
    if (i >= pn)
      return edit.appended[i - pn];
    for (auto [j, n] : edit.replaced)
      if (j == i)
        return n;
    return g.node(i);
  };
  auto outputAt = [&](unsigned k) {
    for (auto [j, v] : edit.outputs)
      if (j == k)
        return v;
    return g.getOutputs()[k];
  };
  llvm::SmallVector<llvm::SmallVector<WValue, 2>, 4> built(tgt.ops.size());
  auto valueOf = [&](PatternRef r) -> WValue {
    return r.isVariable() ? m.variables[r.index] : built[r.op][r.index];
  };
  for (size_t i = 0; i < tgt.ops.size(); ++i) {
    const PatternOp &p = tgt.ops[i];
    WNode n;
    n.type = WNode::Type::Rule;
    n.kind = p.kind;
    n.ints = p.ints;
    n.scalar = p.scalar.evaluate(m.scalars);
    llvm::SmallVector<TypedShape<int64_t>, 2> operandShapes;
    for (PatternRef r : p.operands) {
      WValue v = valueOf(r);
      n.operands.push_back(v);
      const WNode *producer = nodeAt(v.node);
      if (!n.elementType)
        n.elementType = producer->elementType;
      else if (n.elementType != producer->elementType)
        return std::nullopt;
      TypedShape<int64_t> s;
      s.dims = producer->resultShapes[v.result];
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
                              results))
      return std::nullopt;
    for (auto &r : results)
      n.resultShapes.push_back(r.dims);
    // Reuse an identical live node of the graph, or one built just now.
    uint32_t reuse = UINT32_MAX;
    if (!n.operands.empty()) {
      WValue first = n.operands[0];
      if (first.node < index.users.size())
        for (auto [user, k] : index.users[first.node]) {
          const WNode *u = nodeAt(user);
          if (u && u->isRule() && u->kind == n.kind && u->ints == n.ints &&
              u->scalar == n.scalar && u->operands == n.operands &&
              u->sizes == n.sizes && u->resultShapes == n.resultShapes) {
            reuse = user;
            break;
          }
        }
    }
    if (reuse == UINT32_MAX) {
      if (!src.ops.empty() && m.ops[0] < pn)
        n.origin = g.node(m.ops[0])->origin;
      edit.appended.push_back(arena.add(std::move(n), nodeAt));
      reuse = pn + edit.appended.size() - 1;
    }
    for (unsigned r = 0; r < getNumResults(p.kind); ++r)
      built[i].push_back({reuse, r});
  }

  // Redirect every use of each source output.
  for (size_t o = 0; o < src.outputs.size(); ++o) {
    PatternRef sr = src.outputs[o];
    WValue from = sr.isVariable()
                      ? m.variables[sr.index]
                      : WValue{m.ops[sr.op], sr.index};
    WValue to = valueOf(tgt.outputs[o]);
    if (from == to)
      continue;
    if (nodeAt(from.node)->resultShapes[from.result] !=
        nodeAt(to.node)->resultShapes[to.result])
      return std::nullopt;
    if (from.node < index.users.size())
      for (auto [user, k] : index.users[from.node]) {
        const WNode *u = nodeAt(user);
        if (u->operands[k] != from)
          continue;
        WNode copy = *u;
        for (WValue &v : copy.operands)
          if (v == from)
            v = to;
        const WNode *added = arena.add(std::move(copy), nodeAt);
        auto it = llvm::find_if(edit.replaced,
                                [&](const auto &r) { return r.first == user; });
        if (it == edit.replaced.end())
          edit.replaced.push_back({user, added});
        else
          it->second = added;
      }
    for (unsigned k = 0; k < g.getOutputs().size(); ++k) {
      if (outputAt(k) != from)
        continue;
      auto it = llvm::find_if(edit.outputs,
                              [&](const auto &r) { return r.first == k; });
      if (it == edit.outputs.end())
        edit.outputs.push_back({k, to});
      else
        it->second = to;
    }
  }
  return edit;
}

std::optional<WorkGraph> mirage::rules::applyMatch(const WorkGraph &g,
                                                   const GraphIndex &index,
                                                   const Match &m,
                                                   NodeArena &arena) {
  std::optional<GraphEdit> edit = planRewrite(g, index, m, arena);
  if (!edit)
    return std::nullopt;
  WorkGraph out = g.withEdit(*edit);
  out.finish();
  // Redirecting the uses of a source output into a target that reuses one
  // of those users makes a cycle: not a program.
  if (out.isCyclic())
    return std::nullopt;
  return out;
}
