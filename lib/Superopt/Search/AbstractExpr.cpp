//===- AbstractExpr.cpp - abstract expressions in normal form -------------===//

#include "mirage/Superopt/Search/AbstractExpr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mirage::superopt;
using ExprId = AbstractExprContext::ExprId;

namespace {
enum OpCode : uint64_t { OpAdd = 1, OpMul, OpDiv, OpScale, OpSum, OpApply };

uint64_t pack(uint64_t op, uint64_t a) { return (op << 32) | a; }

uint64_t bitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// Merges two sorted multisets.
template <typename Vec> Vec merged(const Vec &a, const Vec &b) {
  Vec out;
  out.resize(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin());
  return out;
}

/// Whether reduction size `a` divides `b`. Sizes are positive: a zero
/// reduction makes the zero term, which has no monomials.
bool divides(const llvm::DynamicAPInt &a, const llvm::DynamicAPInt &b) {
  return a > 0 && b % a == 0;
}

/// Multiset inclusion of sorted vectors.
template <typename Vec> bool includes(const Vec &big, const Vec &small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}
} // namespace

AbstractExprContext::AbstractExprContext() {
  intern({}); // id 0: the zero term
}

std::string AbstractExprContext::key(const Poly &poly) {
  std::string out;
  auto put = [&](uint64_t v) {
    out.append(reinterpret_cast<const char *>(&v), sizeof v);
  };
  for (const Monomial &m : poly) {
    put(bitsOf(m.coef));
    // K as 8 bytes when it fits (it is positive), else a marker and its
    // decimal digits.
    if (m.reduction <= std::numeric_limits<int64_t>::max()) {
      put(static_cast<uint64_t>(static_cast<int64_t>(m.reduction)));
    } else {
      put(~uint64_t(0));
      llvm::raw_string_ostream(out) << m.reduction << ';';
    }
    put(m.num.size());
    for (AtomId a : m.num)
      put(a);
    put(m.den.size());
    for (AtomId a : m.den)
      put(a);
  }
  return out;
}

static bool sameShape(const AbstractExprContext::Monomial &a,
                      const AbstractExprContext::Monomial &b) {
  return a.reduction == b.reduction && a.num == b.num && a.den == b.den;
}

static bool shapeLess(const AbstractExprContext::Monomial &a,
                      const AbstractExprContext::Monomial &b) {
  if (a.reduction != b.reduction)
    return a.reduction < b.reduction;
  if (a.num != b.num)
    return std::lexicographical_compare(a.num.begin(), a.num.end(),
                                        b.num.begin(), b.num.end());
  return std::lexicographical_compare(a.den.begin(), a.den.end(),
                                      b.den.begin(), b.den.end());
}

ExprId AbstractExprContext::intern(Poly poly) {
  // Normal form: monomials sorted by shape, like terms merged, zeros dropped.
  llvm::sort(poly, [](const Monomial &a, const Monomial &b) {
    return shapeLess(a, b);
  });
  Poly normal;
  for (Monomial &m : poly) {
    if (!normal.empty() && sameShape(normal.back(), m))
      normal.back().coef += m.coef;
    else
      normal.push_back(std::move(m));
  }
  llvm::erase_if(normal, [](const Monomial &m) { return m.coef == 0; });

  std::string k = key(normal);
  auto [it, inserted] = polyIds.try_emplace(k, polys.size());
  if (inserted) {
    // The term, its key twice (the map's copy and its node) and the vector
    // slot; atoms take 4 bytes each.
    bytes += sizeof(Poly) + 2 * k.size() + 64;
    for (const Monomial &m : normal)
      bytes += sizeof(Monomial) + 4 * (m.num.size() + m.den.size());
    polys.push_back(std::move(normal));
  }
  return it->second;
}

AbstractExprContext::AtomId
AbstractExprContext::internAtom(AtomKind kind, uint32_t name, ExprId arg) {
  std::pair<uint64_t, uint64_t> k{pack(static_cast<uint64_t>(kind), name),
                                  arg};
  auto [it, inserted] = atomIds.try_emplace(k, atoms.size());
  if (inserted) {
    bytes += sizeof(Atom) + 2 * sizeof(k);
    atoms.push_back({kind, name, arg});
  }
  return it->second;
}

ExprId AbstractExprContext::atomExpr(AtomId atom) {
  Monomial m;
  m.num.push_back(atom);
  return intern({m});
}

ExprId AbstractExprContext::input(unsigned index) {
  return atomExpr(internAtom(AtomKind::Input, index, 0));
}

ExprId AbstractExprContext::add(ExprId lhs, ExprId rhs) {
  if (lhs > rhs)
    std::swap(lhs, rhs);
  auto [it, inserted] = opCache.try_emplace({pack(OpAdd, lhs), rhs}, 0);
  if (!inserted)
    return it->second;
  Poly sum = polys[lhs];
  sum.append(polys[rhs].begin(), polys[rhs].end());
  ExprId id = intern(std::move(sum));
  opCache[{pack(OpAdd, lhs), rhs}] = id;
  bytes += 2 * sizeof(std::pair<uint64_t, uint64_t>);
  return id;
}

ExprId AbstractExprContext::sub(ExprId lhs, ExprId rhs) {
  return add(lhs, scale(-1.0, rhs));
}

ExprId AbstractExprContext::mul(ExprId lhs, ExprId rhs) {
  if (lhs > rhs)
    std::swap(lhs, rhs);
  auto [it, inserted] = opCache.try_emplace({pack(OpMul, lhs), rhs}, 0);
  if (!inserted)
    return it->second;
  Poly product;
  for (const Monomial &a : polys[lhs])
    for (const Monomial &b : polys[rhs]) {
      Monomial m;
      m.coef = a.coef * b.coef;
      m.reduction = a.reduction * b.reduction;
      m.num = merged(a.num, b.num);
      m.den = merged(a.den, b.den);
      product.push_back(std::move(m));
    }
  ExprId id = intern(std::move(product));
  opCache[{pack(OpMul, lhs), rhs}] = id;
  bytes += 2 * sizeof(std::pair<uint64_t, uint64_t>);
  return id;
}

ExprId AbstractExprContext::div(ExprId lhs, ExprId rhs) {
  auto [it, inserted] = opCache.try_emplace({pack(OpDiv, lhs), rhs}, 0);
  if (!inserted)
    return it->second;
  const Poly &divisor = polys[rhs];
  Poly quotient;
  if (divisor.size() == 1 && divisor[0].reduction == 1) {
    // x / (c a / b) = (1/c) x b / a: atoms move across the fraction bar.
    const Monomial &d = divisor[0];
    for (const Monomial &a : polys[lhs]) {
      Monomial m;
      m.coef = a.coef / d.coef;
      m.reduction = a.reduction;
      m.num = merged(a.num, d.den);
      m.den = merged(a.den, d.num);
      quotient.push_back(std::move(m));
    }
  } else {
    // A sum or a reduction divides as one opaque atom.
    AtomId inverse = internAtom(AtomKind::Inverse, 0, rhs);
    for (const Monomial &a : polys[lhs]) {
      Monomial m = a;
      m.den = merged(a.den, llvm::SmallVector<AtomId, 4>{inverse});
      quotient.push_back(std::move(m));
    }
  }
  ExprId id = intern(std::move(quotient));
  opCache[{pack(OpDiv, lhs), rhs}] = id;
  bytes += 2 * sizeof(std::pair<uint64_t, uint64_t>);
  return id;
}

ExprId AbstractExprContext::scale(double factor, ExprId operand) {
  Poly scaled = polys[operand];
  for (Monomial &m : scaled)
    m.coef *= factor;
  return intern(std::move(scaled));
}

ExprId AbstractExprContext::sum(int64_t size, ExprId operand) {
  assert(size >= 0 && "a reduction size is an element count");
  if (size == 1)
    return operand;
  if (size == 0)
    return intern({}); // a sum over no elements
  Poly summed = polys[operand];
  for (Monomial &m : summed)
    m.reduction *= size;
  return intern(std::move(summed));
}

ExprId AbstractExprContext::apply(llvm::StringRef function, ExprId operand) {
  auto [it, inserted] =
      functionIds.try_emplace(function, functionNames.size());
  if (inserted)
    functionNames.push_back(function.str());
  return atomExpr(internAtom(AtomKind::Function, it->second, operand));
}

/// Whether monomial `e` can be part of monomial `t`: its reduction divides
/// t's (the rest of the sum can still be taken) and its atoms are among t's,
/// on the same side of the fraction bar or both flipped (x is an argument of
/// y / x). A scalar of e other than +-1 must be t's (or its inverse): no
/// later scale could fix it otherwise.
bool AbstractExprContext::monomialFitsIn(const Monomial &e,
                                         const Monomial &t) const {
  if (!divides(e.reduction, t.reduction))
    return false;
  double c = std::fabs(e.coef), tc = std::fabs(t.coef);
  if (c != 1.0 && c != tc && c * tc != 1.0)
    return false;
  return (includes(t.num, e.num) && includes(t.den, e.den)) ||
         (includes(t.den, e.num) && includes(t.num, e.den));
}

/// What t has beyond e: t = cofactor * e (same side of the fraction bar).
static std::optional<AbstractExprContext::Monomial>
cofactor(const AbstractExprContext::Monomial &e,
         const AbstractExprContext::Monomial &t) {
  if (!divides(e.reduction, t.reduction) || !includes(t.num, e.num) ||
      !includes(t.den, e.den))
    return std::nullopt;
  AbstractExprContext::Monomial c;
  c.coef = t.coef / e.coef;
  c.reduction = t.reduction / e.reduction;
  std::set_difference(t.num.begin(), t.num.end(), e.num.begin(), e.num.end(),
                      std::back_inserter(c.num));
  std::set_difference(t.den.begin(), t.den.end(), e.den.begin(), e.den.end(),
                      std::back_inserter(c.den));
  return c;
}

/// Matches e's monomials [from, end) to distinct unused monomials of t, all
/// with the same cofactor: t holds c * e as one factored subterm
/// (distributivity), not just monomials that look alike.
bool AbstractExprContext::termsFitIn(const Poly &e, const Poly &t, size_t from,
                                     llvm::SmallVectorImpl<bool> &used,
                                     std::optional<Monomial> &common) const {
  if (from == e.size())
    return true;
  for (size_t j = 0; j < t.size(); ++j) {
    if (used[j])
      continue;
    std::optional<Monomial> c = cofactor(e[from], t[j]);
    if (!c)
      continue;
    bool first = !common;
    if (!first && !(c->coef == common->coef &&
                    c->reduction == common->reduction &&
                    c->num == common->num && c->den == common->den))
      continue;
    if (first)
      common = c;
    used[j] = true;
    if (termsFitIn(e, t, from + 1, used, common))
      return true;
    used[j] = false;
    if (first)
      common.reset();
  }
  return false;
}

bool AbstractExprContext::isSubexpression(ExprId expr, ExprId target) {
  if (expr == target)
    return true;
  if (auto it = subCache.find({expr, target}); it != subCache.end())
    return it->second;
  const Poly &e = polys[expr];
  const Poly &t = polys[target];
  bool result = false;
  if (e.size() == 1) {
    result = llvm::any_of(
        t, [&](const Monomial &m) { return monomialFitsIn(e[0], m); });
  } else if (!e.empty() && e.size() <= t.size()) {
    llvm::SmallVector<bool> used(t.size(), false);
    std::optional<Monomial> common;
    result = termsFitIn(e, t, 0, used, common);
  }
  // Otherwise it may sit inside an atom's argument.
  for (size_t i = 0; i < t.size() && !result; ++i)
    for (const auto *side : {&t[i].num, &t[i].den})
      for (AtomId a : *side)
        if (!result && atoms[a].kind != AtomKind::Input)
          result = isSubexpression(expr, atoms[a].arg);
  subCache[{expr, target}] = result;
  bytes += 2 * sizeof(std::pair<ExprId, ExprId>);
  return result;
}

bool AbstractExprContext::mentionsInput(ExprId expr, unsigned index) const {
  for (const Monomial &m : polys[expr])
    for (const auto *side : {&m.num, &m.den})
      for (AtomId a : *side) {
        const Atom &atom = atoms[a];
        if (atom.kind == AtomKind::Input ? atom.name == index
                                         : mentionsInput(atom.arg, index))
          return true;
      }
  return false;
}

bool AbstractExprContext::computableAfterLoop(ExprId expr,
                                              int64_t iterations) const {
  if (iterations <= 1)
    return true;
  llvm::DynamicAPInt steps(iterations);
  return llvm::all_of(polys[expr], [&](const Monomial &m) {
    if (m.reduction % steps == 0)
      return true;
    for (const auto *side : {&m.num, &m.den})
      for (AtomId a : *side)
        if (atoms[a].kind == AtomKind::Input ||
            !computableAfterLoop(atoms[a].arg, iterations))
          return false;
    return true;
  });
}

void AbstractExprContext::printAtom(AtomId atom, std::string &out) const {
  const Atom &a = atoms[atom];
  switch (a.kind) {
  case AtomKind::Input:
    out += "in" + std::to_string(a.name);
    return;
  case AtomKind::Function:
    out += functionNames[a.name];
    break;
  case AtomKind::Inverse:
    out += "inv";
    break;
  }
  out += "(";
  print(a.arg, out);
  out += ")";
}

void AbstractExprContext::print(ExprId expr, std::string &out) const {
  const Poly &p = polys[expr];
  if (p.empty()) {
    out += "0";
    return;
  }
  for (const auto &[i, m] : llvm::enumerate(p)) {
    if (i)
      out += " + ";
    if (m.coef != 1.0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g*", m.coef);
      out += buf;
    }
    if (m.reduction != 1) {
      out += "sum(";
      llvm::raw_string_ostream(out) << m.reduction;
      out += ", ";
    }
    for (const auto &[j, a] : llvm::enumerate(m.num)) {
      if (j)
        out += "*";
      printAtom(a, out);
    }
    if (m.num.empty())
      out += "1";
    for (AtomId a : m.den) {
      out += "/";
      printAtom(a, out);
    }
    if (m.reduction != 1)
      out += ")";
  }
}

std::string AbstractExprContext::str(ExprId expr) const {
  std::string out;
  print(expr, out);
  return out;
}
