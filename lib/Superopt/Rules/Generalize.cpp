//===- Generalize.cpp - from a candidate at fingerprint sizes to a rule ---===//
//
// The enumeration works at fixed sizes (every matrix 3x3); a rule must say
// for which shapes it holds. Each variable dim becomes a fresh symbol (a
// literal where its kind says so: a bias's 1s, a kernel's 3x3), both sides
// are replayed through the same shape rules with the same concrete sizes
// (ShapeInference.h), and every equality the rules demand is unified. What
// is left is the most general shapes under which both sides type-check the
// way they did; the rule file then checks the rule at distinct sizes
// (generic sizes), so that an identity that held only because two sizes
// were equal is caught.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Rules/Generalize.h"
#include "mirage/Superopt/Rules/ShapeInference.h"
#include "llvm/ADT/DenseMap.h"

using namespace mirage::rules;

/// A family for the rule's documentation and tests, by the most specific
/// op either side uses.
static std::string familyOf(const Menu &menu, const Candidate &c) {
  bool seen[kNumOpKinds] = {};
  for (const EnumGraph *g : {&c.lhs, &c.rhs})
    for (unsigned i = 0; i < g->numOps; ++i)
      seen[static_cast<unsigned>(menu.templates[g->ops[i].tmpl].kind)] = true;
  auto has = [&](OpKind k) { return seen[static_cast<unsigned>(k)]; };
  if (has(OpKind::Conv2D))
    return "conv";
  if (has(OpKind::Matmul))
    return "matmul";
  if (has(OpKind::AvgPool2D) || has(OpKind::MaxPool2D))
    return "pool";
  if (has(OpKind::ReduceSum))
    return "reduce";
  if (has(OpKind::Exp))
    return "exp";
  if (has(OpKind::Relu))
    return "relu";
  if (has(OpKind::Concat) || has(OpKind::Split))
    return "concat-split";
  if (has(OpKind::Transpose))
    return "transpose";
  return "elementwise";
}

/// Calls f on every dimension expression of the rule.
template <typename F> static void forEachDimExpr(Rule &rule, F f) {
  for (RuleVariable &v : rule.variables)
    for (DimExpr &e : v.shape)
      f(e);
  for (PatternSide *p : {&rule.lhs, &rule.rhs})
    for (PatternOp &op : p->ops)
      for (DimExpr &e : op.shape)
        f(e);
}

/// Two symbols that every expression uses with the same coefficient are
/// one size (a variable's two halves that no split separates): keep the
/// first, drop the second, and renumber the rest densely.
static void mergeInseparableSymbols(Rule &rule, unsigned &numSymbols) {
  for (unsigned s = 0; s < numSymbols; ++s)
    for (unsigned t = s + 1; t < numSymbols;) {
      bool together = true;
      forEachDimExpr(rule, [&](DimExpr &e) {
        together &= e.coefficient(s) == e.coefficient(t);
      });
      if (!together) {
        ++t;
        continue;
      }
      // Drop t, shift the symbols above it down by one.
      forEachDimExpr(rule, [&](DimExpr &e) {
        DimExpr r = DimExpr::literal(e.constant);
        for (auto [sym, c] : e.terms)
          if (sym != t)
            r = r + DimExpr::symbol(sym > t ? sym - 1 : sym).scaled(c);
        e = r;
      });
      --numSymbols;
    }
}

/// Whether matching one side or the other determines every symbol.
static bool symbolsDetermined(const Rule &rule) {
  for (const PatternSide *side : {&rule.lhs, &rule.rhs}) {
    llvm::SmallVector<bool, 8> known = determinedSymbols(rule, *side);
    if (llvm::all_of(known, [](bool k) { return k; }))
      return true;
  }
  return false;
}

std::optional<Rule> mirage::rules::generalize(const Menu &menu,
                                              const Candidate &c,
                                              std::string &why) {
  Rule rule;
  rule.family = familyOf(menu, c);
  Unifier u;

  // Variables, in code order.
  llvm::SmallVector<uint8_t, 8> codes;
  auto note = [&](const EnumGraph &g) {
    auto add = [&](uint8_t code) {
      if (isVariableCode(code) && !llvm::is_contained(codes, code))
        codes.push_back(code);
    };
    for (unsigned i = 0; i < g.numOps; ++i)
      for (unsigned a = 0;
           a < getNumOperands(menu.templates[g.ops[i].tmpl].kind); ++a)
        add(g.ops[i].operands[a]);
    for (unsigned i = 0; i < g.numOutputs; ++i)
      add(g.outputs[i]);
  };
  note(c.lhs);
  note(c.rhs);
  llvm::sort(codes);
  llvm::DenseMap<uint8_t, unsigned> varIndex;
  llvm::SmallVector<TypedShape<SymDim>, 8> varShapes;
  for (uint8_t code : codes) {
    varIndex[code] = varIndex.size();
    const VariableKind &kind = menu.kinds[code / 8];
    TypedShape<SymDim> s;
    for (size_t d = 0; d < kind.shape.size(); ++d) {
      int64_t v = kind.shape[d];
      if (kind.literal[d]) {
        s.dims.push_back(DimAlgebra<SymDim>::literal(v));
      } else if (static_cast<int>(d) == kind.splitDim) {
        SymDim first{v / 2, DimExpr::symbol(u.fresh())};
        SymDim second{v - v / 2, DimExpr::symbol(u.fresh())};
        s.dims.push_back(DimAlgebra<SymDim>::sum(first, second));
        s.splits.resize(kind.shape.size());
        s.splits[d].push_back(first);
      } else {
        s.dims.push_back({v, DimExpr::symbol(u.fresh())});
      }
    }
    s.splits.resize(s.dims.size());
    varShapes.push_back(std::move(s));
  }

  // Replay each side.
  std::vector<llvm::SmallVector<TypedShape<SymDim>, 2>> results[2];
  for (int side = 0; side < 2; ++side) {
    const EnumGraph &g = side ? c.rhs : c.lhs;
    PatternSide &p = side ? rule.rhs : rule.lhs;
    results[side].resize(g.numOps);
    auto shapeOf = [&](uint8_t code) -> const TypedShape<SymDim> * {
      if (isVariableCode(code))
        return &varShapes[varIndex[code]];
      return &results[side][(code - kResultCodeBase) / 2][code % 2];
    };
    auto refOf = [&](uint8_t code) {
      if (isVariableCode(code))
        return PatternRef::variable(varIndex[code]);
      return PatternRef::result((code - kResultCodeBase) / 2, code % 2);
    };
    for (unsigned i = 0; i < g.numOps; ++i) {
      const EnumOp &e = g.ops[i];
      const OpTemplate &t = menu.templates[e.tmpl];
      llvm::SmallVector<const TypedShape<SymDim> *, 2> operands;
      PatternOp op;
      op.kind = t.kind;
      op.ints = t.ints;
      if (!t.scalars.empty())
        op.scalar = t.scalars[e.scalar];
      for (unsigned a = 0; a < getNumOperands(t.kind); ++a) {
        operands.push_back(shapeOf(e.operands[a]));
        op.operands.push_back(refOf(e.operands[a]));
      }
      if (!inferShapes<SymDim>(t.kind, t.ints, operands, nullptr,
                               results[side][i], &u)) {
        why = "its shapes do not generalize";
        return std::nullopt;
      }
      if (t.kind == OpKind::Split) {
        op.shape.push_back(results[side][i][0].dims[t.ints[0]].e);
        op.shape.push_back(results[side][i][1].dims[t.ints[0]].e);
      } else if (t.kind == OpKind::Reshape) {
        for (const SymDim &d : results[side][i][0].dims)
          op.shape.push_back(d.e);
      }
      p.ops.push_back(std::move(op));
    }
    for (unsigned o = 0; o < g.numOutputs; ++o) {
      unsigned src = side ? c.rhsOutput[o] : o;
      p.outputs.push_back(refOf(g.outputs[src]));
    }
  }
  // Matched outputs have the same shapes.
  for (unsigned o = 0; o < rule.lhs.outputs.size(); ++o) {
    auto shapeAt = [&](int side, PatternRef r) -> const TypedShape<SymDim> & {
      if (r.isVariable())
        return varShapes[r.index];
      return results[side][r.op][r.index];
    };
    const auto &a = shapeAt(0, rule.lhs.outputs[o]);
    const auto &b = shapeAt(1, rule.rhs.outputs[o]);
    if (a.rank() != b.rank()) {
      why = "its outputs differ in rank";
      return std::nullopt;
    }
    for (size_t d = 0; d < a.rank(); ++d)
      if (!DimAlgebra<SymDim>::unify(&u, a.dims[d], b.dims[d])) {
        why = "its outputs differ in shape";
        return std::nullopt;
      }
  }

  // Resolve and name the symbols in order of first use by the variables.
  llvm::DenseMap<unsigned, unsigned> rename;
  auto renameExpr = [&](const DimExpr &e, bool allowNew) -> std::optional<DimExpr> {
    DimExpr r = u.resolve(e), out = DimExpr::literal(r.constant);
    for (auto [s, k] : r.terms) {
      auto it = rename.find(s);
      if (it == rename.end()) {
        if (!allowNew)
          return std::nullopt;
        it = rename.insert({s, rename.size()}).first;
      }
      out = out + DimExpr::symbol(it->second).scaled(k);
    }
    return out;
  };
  for (const auto &s : varShapes) {
    RuleVariable v;
    for (const SymDim &d : s.dims)
      v.shape.push_back(*renameExpr(d.e, true));
    rule.variables.push_back(std::move(v));
  }
  for (PatternSide *p : {&rule.lhs, &rule.rhs})
    for (PatternOp &op : p->ops)
      for (DimExpr &e : op.shape) {
        std::optional<DimExpr> r = renameExpr(e, false);
        if (!r) {
          why = "an op's size is not determined by the variables' shapes";
          return std::nullopt;
        }
        e = *r;
      }
  unsigned numSymbols = rename.size();
  mergeInseparableSymbols(rule, numSymbols);
  for (unsigned i = 0; i < numSymbols; ++i)
    rule.dimNames.push_back(i < 26 ? std::string(1, char('a' + i))
                                   : "d" + std::to_string(i));
  if (!symbolsDetermined(rule)) {
    why = "its sizes are not determined by its variables' shapes";
    return std::nullopt;
  }
  for (PatternSide *p : {&rule.lhs, &rule.rhs})
    for (const PatternOp &op : p->ops)
      if (op.scalar.kind != ScalarExpr::Kind::None)
        rule.numScalars =
            std::max<unsigned>(rule.numScalars,
                               std::max(op.scalar.a, op.scalar.b) + 1);
  for (unsigned i = 0; i < rule.numScalars; ++i)
    rule.genericScalars.push_back(i == 0 ? 1.5 : i == 1 ? 0.75 : 1.25 + i);

  // Generic sizes: distinct per symbol, every shape positive and valid.
  for (int attempt = 0; attempt < 4; ++attempt) {
    llvm::SmallVector<int64_t, 8> sizes;
    for (unsigned i = 0; i < numSymbols; ++i)
      sizes.push_back(attempt == 3 ? 3 : 2 + attempt + i * (1 + attempt / 2));
    if (succeeded(checkRuleShapes(rule, sizes))) {
      rule.genericSizes = sizes;
      return rule;
    }
  }
  why = "no distinct sizes make both sides valid";
  return std::nullopt;
}

mlir::LogicalResult
mirage::rules::checkRuleShapes(const Rule &rule,
                               llvm::ArrayRef<int64_t> sizes) {
  llvm::SmallVector<TypedShape<int64_t>, 8> vars;
  for (const RuleVariable &v : rule.variables) {
    TypedShape<int64_t> s;
    for (const DimExpr &d : v.shape) {
      std::optional<int64_t> x = d.evaluate(sizes);
      if (!x || *x < 1)
        return mlir::failure();
      s.dims.push_back(*x);
    }
    s.resetSplits();
    vars.push_back(std::move(s));
  }
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 4> outputs[2];
  for (int side = 0; side < 2; ++side) {
    const PatternSide &p = rule.side(side);
    std::vector<llvm::SmallVector<TypedShape<int64_t>, 2>> results(
        p.ops.size());
    auto shapeOf = [&](PatternRef r) -> const TypedShape<int64_t> * {
      return r.isVariable() ? &vars[r.index] : &results[r.op][r.index];
    };
    for (size_t i = 0; i < p.ops.size(); ++i) {
      const PatternOp &op = p.ops[i];
      llvm::SmallVector<const TypedShape<int64_t> *, 2> operands;
      for (PatternRef r : op.operands)
        operands.push_back(shapeOf(r));
      llvm::SmallVector<int64_t, 4> shape;
      for (const DimExpr &d : op.shape) {
        std::optional<int64_t> x = d.evaluate(sizes);
        if (!x || *x < 1)
          return mlir::failure();
        shape.push_back(*x);
      }
      if (!inferShapes<int64_t>(op.kind, op.ints, operands,
                                op.shape.empty() ? nullptr : &shape,
                                results[i]))
        return mlir::failure();
      for (const auto &r : results[i])
        for (int64_t d : r.dims)
          if (d < 1)
            return mlir::failure();
    }
    for (PatternRef r : p.outputs)
      outputs[side].push_back(shapeOf(r)->dims);
  }
  return mlir::success(outputs[0] == outputs[1]);
}
