//===- CanonicalForm.cpp - canonical op orders of enumerated graphs -------===//

#include "mirage/Superopt/Rules/CanonicalForm.h"
#include <algorithm>

using namespace mirage::rules;

llvm::SmallVector<uint32_t, 3> mirage::rules::serializeOp(const Menu &menu,
                                                          const EnumOp &op) {
  const OpTemplate &t = menu.templates[op.tmpl];
  unsigned n = getNumOperands(t.kind);
  uint32_t a = op.operands[0], b = n > 1 ? op.operands[1] : 0xffff;
  if (n > 1 && isCommutative(t.kind) && b < a)
    std::swap(a, b);
  return {static_cast<uint32_t>(op.tmpl) << 8 | op.scalar, a, b};
}

/// The index of the op whose result `code` is (or -1 for a variable).
static int producer(uint8_t code) {
  return isVariableCode(code) ? -1 : (code - kResultCodeBase) / 2;
}

bool mirage::rules::extendsCanonically(const Menu &menu,
                                       llvm::ArrayRef<EnumOp> ops) {
  size_t k = ops.size() - 1;
  const EnumOp &last = ops[k];
  unsigned n = getNumOperands(menu.templates[last.tmpl].kind);
  int earliest = 0;
  for (unsigned i = 0; i < n; ++i)
    earliest = std::max(earliest, producer(last.operands[i]) + 1);
  auto key = serializeOp(menu, last);
  for (size_t j = earliest; j < k; ++j)
    if (!(serializeOp(menu, ops[j]) < key))
      return false;
  return true;
}

bool mirage::rules::isCanonical(const Menu &menu, llvm::ArrayRef<EnumOp> ops) {
  for (size_t i = 1; i <= ops.size(); ++i)
    if (!extendsCanonically(menu, ops.take_front(i)))
      return false;
  return true;
}

EnumGraph mirage::rules::canonicalize(const Menu &menu,
                                      const EnumGraph &graph) {
  unsigned n = graph.numOps;
  llvm::SmallVector<int, kMaxEnumOps> newPos(n, -1);
  auto remap = [&](uint8_t code) -> uint8_t {
    if (isVariableCode(code))
      return code;
    int p = producer(code);
    return resultCode(newPos[p], (code - kResultCodeBase) % 2);
  };
  EnumGraph out = graph;
  for (unsigned placed = 0; placed < n; ++placed) {
    int best = -1;
    EnumOp bestOp;
    llvm::SmallVector<uint32_t, 3> bestKey;
    for (unsigned i = 0; i < n; ++i) {
      if (newPos[i] >= 0)
        continue;
      const EnumOp &op = graph.ops[i];
      unsigned arity = getNumOperands(menu.templates[op.tmpl].kind);
      bool ready = true;
      for (unsigned a = 0; a < arity; ++a) {
        int p = producer(op.operands[a]);
        ready &= p < 0 || newPos[p] >= 0;
      }
      if (!ready)
        continue;
      EnumOp moved = op;
      for (unsigned a = 0; a < arity; ++a)
        moved.operands[a] = remap(op.operands[a]);
      if (arity == 2 && isCommutative(menu.templates[op.tmpl].kind) &&
          moved.operands[1] < moved.operands[0])
        std::swap(moved.operands[0], moved.operands[1]);
      auto key = serializeOp(menu, moved);
      if (best < 0 || key < bestKey) {
        best = i;
        bestOp = moved;
        bestKey = key;
      }
    }
    newPos[best] = placed;
    out.ops[placed] = bestOp;
  }
  for (unsigned i = 0; i < graph.numOutputs; ++i)
    out.outputs[i] = remap(graph.outputs[i]);
  std::sort(out.outputs, out.outputs + out.numOutputs);
  return out;
}

EnumGraph mirage::rules::renameVariables(
    const Menu &menu, const EnumGraph &graph,
    llvm::ArrayRef<std::pair<uint8_t, uint8_t>> rename) {
  auto map = [&](uint8_t code) -> uint8_t {
    if (!isVariableCode(code))
      return code;
    for (auto [from, to] : rename)
      if (from == code)
        return to;
    return code;
  };
  EnumGraph g = graph;
  for (unsigned i = 0; i < g.numOps; ++i) {
    unsigned arity = getNumOperands(menu.templates[g.ops[i].tmpl].kind);
    for (unsigned a = 0; a < arity; ++a)
      g.ops[i].operands[a] = map(g.ops[i].operands[a]);
  }
  for (unsigned i = 0; i < g.numOutputs; ++i)
    g.outputs[i] = map(g.outputs[i]);
  return canonicalize(menu, g);
}

llvm::SmallVector<uint32_t, 16>
mirage::rules::serializeGraph(const Menu &menu, const EnumGraph &graph) {
  llvm::SmallVector<uint32_t, 16> s;
  s.push_back(graph.numOps);
  for (unsigned i = 0; i < graph.numOps; ++i)
    s.append(serializeOp(menu, graph.ops[i]));
  s.push_back(graph.numOutputs);
  for (unsigned i = 0; i < graph.numOutputs; ++i)
    s.push_back(graph.outputs[i]);
  return s;
}

bool mirage::rules::graphLess(const Menu &menu, const EnumGraph &a,
                              const EnumGraph &b) {
  return serializeGraph(menu, a) < serializeGraph(menu, b);
}
