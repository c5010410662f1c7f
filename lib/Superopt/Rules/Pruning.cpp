//===- Pruning.cpp - candidate substitutions and TASO's pruning -----------===//

#include "mirage/Superopt/Rules/CanonicalForm.h"
#include "mirage/Superopt/Rules/Candidates.h"
#include "llvm/ADT/DenseSet.h"
#include <algorithm>
#include <set>

using namespace mirage::rules;

std::vector<TinyTensor>
mirage::rules::makeVariableValues(const Menu &menu,
                                  const FingerprintEvaluator &eval) {
  std::vector<TinyTensor> values(128);
  for (unsigned k = 0; k < menu.kinds.size(); ++k)
    for (unsigned i = 0; i < menu.kinds[k].count; ++i) {
      uint8_t code = variableCode(k, i);
      TinyTensor &t = values[code];
      const VariableKind &kind = menu.kinds[k];
      t.shape.dims.assign(kind.shape.begin(), kind.shape.end());
      t.shape.resetSplits();
      if (kind.splitDim >= 0)
        t.shape.splits[kind.splitDim].push_back(kind.shape[kind.splitDim] / 2);
      t.weight = kind.weight;
      eval.randomize(t, code);
    }
  return values;
}

bool mirage::rules::evaluateGraph(
    const Menu &menu, const FingerprintEvaluator &eval,
    llvm::ArrayRef<TinyTensor> variables, const EnumGraph &graph,
    std::vector<llvm::SmallVector<TinyTensor, 2>> &results) {
  results.assign(graph.numOps, {});
  auto tensor = [&](uint8_t code) -> const TinyTensor & {
    if (isVariableCode(code))
      return variables[code];
    return results[(code - kResultCodeBase) / 2][code % 2];
  };
  for (unsigned i = 0; i < graph.numOps; ++i) {
    const EnumOp &op = graph.ops[i];
    const OpTemplate &t = menu.templates[op.tmpl];
    llvm::SmallVector<const TinyTensor *, 2> operands;
    for (unsigned a = 0; a < getNumOperands(t.kind); ++a)
      operands.push_back(&tensor(op.operands[a]));
    ScalarExpr scalar = t.scalars.empty() ? ScalarExpr() : t.scalars[op.scalar];
    if (!eval.apply(t.kind, t.ints, scalar, operands, nullptr, results[i]))
      return false;
  }
  return true;
}

namespace {

/// The variable codes a graph reads.
void collectVariables(const Menu &menu, const EnumGraph &g,
                      llvm::SmallVectorImpl<uint8_t> &codes) {
  auto note = [&](uint8_t c) {
    if (isVariableCode(c) && !llvm::is_contained(codes, c))
      codes.push_back(c);
  };
  for (unsigned i = 0; i < g.numOps; ++i)
    for (unsigned a = 0; a < getNumOperands(menu.templates[g.ops[i].tmpl].kind);
         ++a)
      note(g.ops[i].operands[a]);
  for (unsigned i = 0; i < g.numOutputs; ++i)
    note(g.outputs[i]);
}

/// The least serialization of the pair over renamings of its variables
/// within their kinds (and over the order of its two sides).
std::vector<uint32_t> pairCanonicalForm(const Menu &menu, const Candidate &c) {
  llvm::SmallVector<uint8_t, 8> codes;
  collectVariables(menu, c.lhs, codes);
  collectVariables(menu, c.rhs, codes);
  llvm::sort(codes);
  // Group the codes by kind; permute within each group.
  llvm::SmallVector<llvm::SmallVector<uint8_t, 4>, 4> groups;
  for (uint8_t code : codes) {
    if (groups.empty() || groups.back().front() / 8 != code / 8)
      groups.emplace_back();
    groups.back().push_back(code);
  }
  // Renamed onto the first indices of each kind, in every order: two pairs
  // equal up to any injective renaming get the same form.
  llvm::SmallVector<llvm::SmallVector<uint8_t, 4>, 4> perms = groups;
  for (auto &p : perms)
    for (size_t i = 0; i < p.size(); ++i)
      p[i] = variableCode(p[i] / 8, i);
  std::vector<uint32_t> best;
  std::function<void(unsigned)> visit = [&](unsigned g) {
    if (g == perms.size()) {
      llvm::SmallVector<std::pair<uint8_t, uint8_t>, 8> rename;
      for (unsigned k = 0; k < groups.size(); ++k)
        for (unsigned i = 0; i < groups[k].size(); ++i)
          rename.push_back({groups[k][i], perms[k][i]});
      auto a = serializeGraph(menu, renameVariables(menu, c.lhs, rename));
      auto b = serializeGraph(menu, renameVariables(menu, c.rhs, rename));
      if (b < a)
        std::swap(a, b);
      std::vector<uint32_t> form(a.begin(), a.end());
      form.push_back(0xffffffffu);
      form.insert(form.end(), b.begin(), b.end());
      if (best.empty() || form < best)
        best = std::move(form);
      return;
    }
    llvm::sort(perms[g]);
    do
      visit(g + 1);
    while (std::next_permutation(perms[g].begin(), perms[g].end()));
  };
  visit(0);
  return best;
}

/// Whether a scalar symbol of the candidate occurs only inside a product or
/// sum of symbols.
bool onlyCompoundScalars(const Menu &menu, const Candidate &c) {
  unsigned alone = 0, inside = 0;
  for (const EnumGraph *g : {&c.lhs, &c.rhs})
    for (unsigned i = 0; i < g->numOps; ++i) {
      const OpTemplate &t = menu.templates[g->ops[i].tmpl];
      if (t.scalars.empty())
        continue;
      ScalarExpr e = t.scalars[g->ops[i].scalar];
      if (e.kind == ScalarExpr::Kind::Symbol)
        alone |= 1u << e.a;
      else
        inside |= (1u << e.a) | (1u << e.b);
    }
  return (inside & ~alone) != 0;
}

/// Evaluates `g` with op `k`'s results replaced by random tensors drawn
/// from `stream` (the same stream gives the same tensors).
bool evaluateWithOverride(const Menu &menu, const FingerprintEvaluator &eval,
                          llvm::ArrayRef<TinyTensor> variables,
                          const EnumGraph &g, unsigned k, uint64_t stream,
                          std::vector<llvm::SmallVector<TinyTensor, 2>> &values) {
  std::vector<llvm::SmallVector<TinyTensor, 2>> base;
  if (!evaluateGraph(menu, eval, variables, g, base))
    return false;
  values.assign(g.numOps, {});
  auto tensor = [&](uint8_t code) -> const TinyTensor & {
    if (isVariableCode(code))
      return variables[code];
    return values[(code - kResultCodeBase) / 2][code % 2];
  };
  for (unsigned i = 0; i < g.numOps; ++i) {
    if (i == k) {
      values[i] = base[i];
      for (unsigned r = 0; r < values[i].size(); ++r)
        eval.randomize(values[i][r], stream + r);
      continue;
    }
    const EnumOp &op = g.ops[i];
    const OpTemplate &t = menu.templates[op.tmpl];
    llvm::SmallVector<const TinyTensor *, 2> operands;
    for (unsigned a = 0; a < getNumOperands(t.kind); ++a)
      operands.push_back(&tensor(op.operands[a]));
    ScalarExpr scalar = t.scalars.empty() ? ScalarExpr() : t.scalars[op.scalar];
    if (!eval.apply(t.kind, t.ints, scalar, operands, nullptr, values[i]))
      return false;
  }
  return true;
}

const TinyTensor &outputOf(llvm::ArrayRef<TinyTensor> variables,
                           const std::vector<llvm::SmallVector<TinyTensor, 2>> &v,
                           uint8_t code) {
  if (isVariableCode(code))
    return variables[code];
  return v[(code - kResultCodeBase) / 2][code % 2];
}

/// Whether the outputs of `g` stay the same when op `k`'s results are
/// replaced by fresh random tensors (op k is not an output).
bool isIrrelevant(const Menu &menu, const FingerprintEvaluator &eval,
                  llvm::ArrayRef<TinyTensor> variables, const EnumGraph &g,
                  unsigned k) {
  for (unsigned o = 0; o < g.numOutputs; ++o)
    if (!isVariableCode(g.outputs[o]) &&
        (g.outputs[o] - kResultCodeBase) / 2u == k)
      return false;
  std::vector<llvm::SmallVector<TinyTensor, 2>> base, changed;
  if (!evaluateGraph(menu, eval, variables, g, base) ||
      !evaluateWithOverride(menu, eval, variables, g, k, 0xabcdef00ULL + 16 * k,
                            changed))
    return false;
  for (unsigned o = 0; o < g.numOutputs; ++o) {
    const TinyTensor &a = outputOf(variables, base, g.outputs[o]);
    const TinyTensor &b = outputOf(variables, changed, g.outputs[o]);
    if (a.fieldHash != b.fieldHash && a.realHash != b.realHash)
      return false;
  }
  return true;
}

/// Whether the two sides apply the same op to the same variables and the
/// candidate still holds with that op's result replaced by any tensor: then
/// the rule with a fresh variable in its place says more. (relu(relu(x)) =
/// relu(x) shares relu(x) but is not t = relu(t): it is kept.)
bool factorsOut(const Menu &menu, const FingerprintEvaluator &eval,
                llvm::ArrayRef<TinyTensor> variables, const Candidate &c) {
  for (unsigned i = 0; i < c.lhs.numOps; ++i) {
    const EnumOp &op = c.lhs.ops[i];
    unsigned arity = getNumOperands(menu.templates[op.tmpl].kind);
    bool onVariables = true;
    for (unsigned a = 0; a < arity; ++a)
      onVariables &= isVariableCode(op.operands[a]);
    if (!onVariables)
      continue;
    auto key = serializeOp(menu, op);
    for (unsigned j = 0; j < c.rhs.numOps; ++j) {
      if (serializeOp(menu, c.rhs.ops[j]) != key)
        continue;
      std::vector<llvm::SmallVector<TinyTensor, 2>> lv, rv;
      uint64_t stream = 0x5eed0000ULL + 16 * i;
      if (!evaluateWithOverride(menu, eval, variables, c.lhs, i, stream, lv) ||
          !evaluateWithOverride(menu, eval, variables, c.rhs, j, stream, rv))
        continue;
      // Outputs compared as multisets (the matching comes later).
      bool real = c.lhs.realKeyed;
      llvm::SmallVector<uint64_t, 4> a, b;
      for (unsigned o = 0; o < c.lhs.numOutputs; ++o) {
        const TinyTensor &t = outputOf(variables, lv, c.lhs.outputs[o]);
        a.push_back(real ? t.realHash : t.fieldHash);
      }
      for (unsigned o = 0; o < c.rhs.numOutputs; ++o) {
        const TinyTensor &t = outputOf(variables, rv, c.rhs.outputs[o]);
        b.push_back(real ? t.realHash : t.fieldHash);
      }
      llvm::sort(a);
      llvm::sort(b);
      if (a == b)
        return true;
    }
  }
  return false;
}

} // namespace

std::vector<Candidate>
mirage::rules::formCandidates(const Menu &menu,
                              const FingerprintEvaluator &eval,
                              llvm::ArrayRef<EnumGraph> graphs,
                              PruningStats &stats,
                              std::function<bool()> shouldStop) {
  uint64_t asked = 0;
  // Every 1024 calls, asks shouldStop; once it said yes, stays stopped.
  auto stop = [&] {
    if (stats.stopped)
      return true;
    if (shouldStop && (++asked & 1023) == 0 && shouldStop())
      stats.stopped = true;
    return stats.stopped;
  };
  std::vector<TinyTensor> variables = makeVariableValues(menu, eval);
  std::vector<Candidate> all;
  for (size_t i = 0; i < graphs.size();) {
    size_t j = i;
    while (j < graphs.size() && graphs[j].key == graphs[i].key)
      ++j;
    for (size_t k = i + 1; k < j; ++k)
      all.push_back({graphs[i], graphs[k], {}});
    i = j;
  }
  stats.candidates = all.size();

  // 1. Renaming of variables, and of scalars: a candidate that scales by
  // c0*c1 where c0 and c1 never appear alone says what the candidate with a
  // single scalar in its place says.
  std::set<std::vector<uint32_t>> seen;
  std::vector<Candidate> renamed;
  for (Candidate &c : all)
    if (!stop() && !onlyCompoundScalars(menu, c) &&
        seen.insert(pairCanonicalForm(menu, c)).second)
      renamed.push_back(std::move(c));
  stats.afterRenaming = renamed.size();

  // 2. Common subgraph on the inputs.
  std::vector<Candidate> factored;
  for (Candidate &c : renamed)
    if (!stop() && !factorsOut(menu, eval, variables, c))
      factored.push_back(std::move(c));
  stats.afterCommonSubgraph = factored.size();

  // 3. Common context at the outputs; the outputs are matched on the way.
  std::vector<Candidate> kept;
  std::vector<llvm::SmallVector<TinyTensor, 2>> lv, rv;
  for (Candidate &c : factored) {
    if (stop())
      break;
    if (!evaluateGraph(menu, eval, variables, c.lhs, lv) ||
        !evaluateGraph(menu, eval, variables, c.rhs, rv))
      continue;
    bool real = c.lhs.realKeyed;
    auto tensorOf = [&](const EnumGraph &g,
                        std::vector<llvm::SmallVector<TinyTensor, 2>> &v,
                        uint8_t code) -> const TinyTensor & {
      if (isVariableCode(code))
        return variables[code];
      return v[(code - kResultCodeBase) / 2][code % 2];
    };
    auto hashOf = [&](const TinyTensor &t) {
      return real ? t.realHash : t.fieldHash;
    };
    llvm::SmallVector<bool, 4> taken(c.rhs.numOutputs, false);
    bool matched = true;
    for (unsigned o = 0; o < c.lhs.numOutputs; ++o) {
      uint64_t h = hashOf(tensorOf(c.lhs, lv, c.lhs.outputs[o]));
      unsigned found = c.rhs.numOutputs;
      for (unsigned r = 0; r < c.rhs.numOutputs && found == c.rhs.numOutputs;
           ++r)
        if (!taken[r] && hashOf(tensorOf(c.rhs, rv, c.rhs.outputs[r])) == h)
          found = r;
      if (found == c.rhs.numOutputs) {
        matched = false;
        break;
      }
      taken[found] = true;
      c.rhsOutput.push_back(found);
    }
    if (!matched)
      continue;
    bool allImplied = true;
    for (unsigned o = 0; o < c.lhs.numOutputs && allImplied; ++o) {
      uint8_t lc = c.lhs.outputs[o], rc = c.rhs.outputs[c.rhsOutput[o]];
      if (isVariableCode(lc) || isVariableCode(rc)) {
        allImplied = false;
        break;
      }
      const EnumOp &lo = c.lhs.ops[(lc - kResultCodeBase) / 2];
      const EnumOp &ro = c.rhs.ops[(rc - kResultCodeBase) / 2];
      if (lo.tmpl != ro.tmpl || lo.scalar != ro.scalar || lc % 2 != rc % 2) {
        allImplied = false;
        break;
      }
      OpKind kind = menu.templates[lo.tmpl].kind;
      unsigned arity = getNumOperands(kind);
      auto operandsEqual = [&](bool swapped) {
        for (unsigned a = 0; a < arity; ++a) {
          unsigned b = swapped ? arity - 1 - a : a;
          if (hashOf(tensorOf(c.lhs, lv, lo.operands[a])) !=
              hashOf(tensorOf(c.rhs, rv, ro.operands[b])))
            return false;
        }
        return true;
      };
      allImplied = operandsEqual(false) ||
                   (isCommutative(kind) && operandsEqual(true));
    }
    if (!allImplied)
      kept.push_back(std::move(c));
  }
  stats.afterCommonContext = kept.size();

  // 4. Irrelevant subterms.
  std::vector<Candidate> relevant;
  for (Candidate &c : kept) {
    if (stop())
      break;
    bool irrelevant = false;
    for (const EnumGraph *g : {&c.lhs, &c.rhs})
      for (unsigned k = 0; k < g->numOps && !irrelevant; ++k)
        irrelevant = isIrrelevant(menu, eval, variables, *g, k);
    if (!irrelevant)
      relevant.push_back(std::move(c));
  }
  stats.afterIrrelevantSubterm = relevant.size();

  // 5. Conjunctions of single-output rules.
  std::vector<Candidate> result;
  auto hasSplit = [&](const EnumGraph &g) {
    for (unsigned i = 0; i < g.numOps; ++i)
      if (menu.templates[g.ops[i].tmpl].kind == OpKind::Split)
        return true;
    return false;
  };
  for (Candidate &c : relevant)
    if (c.lhs.numOutputs == 1 || hasSplit(c.lhs) || hasSplit(c.rhs))
      result.push_back(std::move(c));
  stats.afterConjunctions = result.size();
  return result;
}
