//===- EGraph.cpp - an e-graph over graph-dialect terms -------------------===//

#include "mirage/Superopt/EqSat/EGraph.h"
#include "mirage/Superopt/Rules/WorkGraph.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include <cstring>

using namespace mirage::eqsat;
using mirage::rules::WNode;
using mirage::superopt::SplitMix64;

static uint64_t mixIn(uint64_t h, uint64_t v) {
  return SplitMix64::mix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6)));
}

bool mirage::eqsat::sameOp(const WNode &a, const WNode &b) {
  if (a.type != b.type)
    return false;
  switch (a.type) {
  case WNode::Type::Argument:
    return a.argument == b.argument;
  case WNode::Type::Opaque:
    return a.origin == b.origin;
  case WNode::Type::Rule:
    break;
  }
  return a.kind == b.kind && a.ints == b.ints &&
         std::memcmp(&a.scalar, &b.scalar, sizeof a.scalar) == 0 &&
         a.sizes == b.sizes && a.resultShapes == b.resultShapes &&
         a.elementType == b.elementType;
}

size_t EGraph::KeyHash::operator()(const Key &k) const {
  uint64_t h = mixIn(mirage::rules::computeLocalHash(*k.op), k.result);
  for (ClassId c : k.children)
    h = mixIn(h, c);
  return h;
}

bool EGraph::KeyEq::operator()(const Key &a, const Key &b) const {
  return a.result == b.result && a.children == b.children &&
         sameOp(*a.op, *b.op);
}

ClassId EGraph::find(ClassId c) const {
  ClassId root = c;
  while (parent[root] != root)
    root = parent[root];
  while (parent[c] != root) {
    ClassId next = parent[c];
    parent[c] = root;
    c = next;
  }
  return root;
}

EGraph::Key EGraph::canonicalKey(const WNode *op, unsigned result,
                                 llvm::ArrayRef<ClassId> children) const {
  Key k{op, result, {}};
  for (ClassId c : children)
    k.children.push_back(find(c));
  return k;
}

std::optional<ClassId> EGraph::lookup(const WNode &op, unsigned result,
                                      llvm::ArrayRef<ClassId> children) const {
  auto it = memo.find(canonicalKey(&op, result, children));
  if (it == memo.end())
    return std::nullopt;
  return find(nodeClass[it->second]);
}

ClassId EGraph::add(const WNode &op, unsigned result,
                    llvm::ArrayRef<ClassId> children, bool weightArgument) {
  Key k = canonicalKey(&op, result, children);
  auto it = memo.find(k);
  if (it != memo.end())
    return find(nodeClass[it->second]);
  WNode w = op;
  w.operands.clear();
  for (ClassId c : k.children)
    w.operands.push_back({c, 0});
  const WNode *stored = arena.add(std::move(w), carrierPtrs);
  k.op = stored;
  NodeId n = nodes.size();
  ENode e;
  e.op = stored;
  e.result = result;
  e.children = k.children;
  e.cost = stored->costUs / std::max<size_t>(1, stored->resultShapes.size());
  nodes.push_back(std::move(e));
  ClassId c = classes.size();
  nodeClass.push_back(c);
  parent.push_back(c);
  EClass cls;
  cls.nodes.push_back(n);
  cls.shape = stored->resultShapes[result];
  cls.elementType = stored->elementType;
  bool allWeights = !k.children.empty();
  for (ClassId child : k.children)
    allWeights &= classes[child].weight;
  cls.weight = weightArgument || (op.type != WNode::Type::Argument && allWeights);
  classes.push_back(std::move(cls));
  weightArgs.push_back(weightArgument);
  dead.push_back(false);
  for (ClassId child : k.children)
    classes[child].parents.push_back(n);
  WNode carrier;
  carrier.type = WNode::Type::Argument;
  carrier.resultShapes.push_back(classes[c].shape);
  carrier.elementType = classes[c].elementType;
  carriers.push_back(std::move(carrier));
  carrierPtrs.push_back(&carriers.back());
  memo.emplace(std::move(k), n);
  return c;
}

bool EGraph::merge(ClassId a, ClassId b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return true;
  if (classes[a].shape != classes[b].shape ||
      classes[a].elementType != classes[b].elementType)
    return false;
  ClassId root = std::min(a, b), other = std::max(a, b);
  parent[other] = root;
  EClass &r = classes[root], &o = classes[other];
  r.nodes.append(o.nodes.begin(), o.nodes.end());
  r.parents.append(o.parents.begin(), o.parents.end());
  r.weight |= o.weight;
  o.nodes.clear();
  o.parents.clear();
  pending.push_back(root);
  ++unions;
  return true;
}

unsigned EGraph::rebuild() {
  uint64_t before = unions;
  while (!pending.empty()) {
    std::vector<ClassId> todo;
    for (ClassId c : pending)
      todo.push_back(find(c));
    pending.clear();
    llvm::sort(todo);
    todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
    for (ClassId c : todo) {
      c = find(c);
      // Re-canonicalize the users of c; congruent ones are merged.
      llvm::SmallVector<NodeId, 4> users(classes[c].parents.begin(),
                                         classes[c].parents.end());
      llvm::sort(users);
      users.erase(std::unique(users.begin(), users.end()), users.end());
      for (NodeId p : users) {
        ENode &e = nodes[p];
        Key old{e.op, e.result, e.children};
        auto it = memo.find(old);
        bool owner = it != memo.end() && it->second == p;
        if (owner)
          memo.erase(it);
        for (ClassId &child : e.children)
          child = find(child);
        if (!owner && dead[p])
          continue;
        Key fresh{e.op, e.result, e.children};
        auto [pos, inserted] = memo.emplace(fresh, p);
        if (!inserted && pos->second != p) {
          dead[p] = true;
          merge(nodeClass[p], nodeClass[pos->second]);
        }
      }
      // Keep each user once.
      c = find(c);
      users.assign(classes[c].parents.begin(), classes[c].parents.end());
      llvm::sort(users);
      users.erase(std::unique(users.begin(), users.end()), users.end());
      classes[c].parents.assign(users.begin(), users.end());
    }
  }
  // Drop congruent duplicates from the class lists.
  for (ClassId c = 0; c < classes.size(); ++c) {
    if (find(c) != c)
      continue;
    auto &list = classes[c].nodes;
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](NodeId n) { return dead[n]; }),
               list.end());
    llvm::sort(list);
  }
  recomputeWeights();
  for (auto &list : byKind)
    list.clear();
  for (NodeId n = 0; n < nodes.size(); ++n)
    if (!dead[n] && nodes[n].op->isRule() && nodes[n].result == 0)
      byKind[static_cast<unsigned>(nodes[n].op->kind)].push_back(n);
  return unions - before;
}

void EGraph::recomputeWeights() {
  bool changed = true;
  while (changed) {
    changed = false;
    for (NodeId n = 0; n < nodes.size(); ++n) {
      if (dead[n])
        continue;
      ClassId c = find(nodeClass[n]);
      if (classes[c].weight)
        continue;
      const ENode &e = nodes[n];
      bool w = weightArgs[n];
      if (!w && e.op->type != WNode::Type::Argument && !e.children.empty()) {
        w = true;
        for (ClassId child : e.children)
          w &= classes[find(child)].weight;
      }
      if (w) {
        classes[c].weight = true;
        changed = true;
      }
    }
  }
}

size_t EGraph::numClasses() const {
  size_t n = 0;
  for (ClassId c = 0; c < classes.size(); ++c)
    n += find(c) == c;
  return n;
}

std::vector<ClassId> EGraph::canonicalClasses() const {
  std::vector<ClassId> out;
  for (ClassId c = 0; c < classes.size(); ++c)
    if (find(c) == c)
      out.push_back(c);
  return out;
}

size_t EGraph::numLiveNodes() const {
  size_t n = 0;
  for (NodeId i = 0; i < nodes.size(); ++i)
    n += !dead[i];
  return n;
}

std::optional<ClassId> EGraph::sibling(NodeId n, unsigned result) const {
  const ENode &e = nodes[n];
  if (result == e.result)
    return classOf(n);
  return lookup(*e.op, result, e.children);
}

double EGraph::foldedCost(NodeId n) const {
  const ENode &e = nodes[n];
  if (e.op->type == WNode::Type::Argument)
    return 0;
  if (!e.children.empty() &&
      llvm::all_of(e.children, [&](ClassId c) { return isWeight(c); }))
    return 0;
  return e.cost;
}
