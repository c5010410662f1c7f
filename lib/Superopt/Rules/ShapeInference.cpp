//===- ShapeInference.cpp - unification of dimension expressions ----------===//

#include "mirage/Superopt/Rules/ShapeInference.h"
#include <numeric>

using namespace mirage::rules;

DimExpr Unifier::resolve(const DimExpr &e) const {
  DimExpr r = e;
  // Bindings are resolved when made, so one pass suffices.
  for (auto [s, c] : e.terms)
    if (s < bound.size() && bound[s])
      r = r.substitute(s, *bound[s]);
  return r;
}

bool Unifier::unify(const DimExpr &a, const DimExpr &b) {
  DimExpr d = resolve(a) - resolve(b);
  if (d.isConstant())
    return d.constant == 0;
  // 2a = 2b is a = b: divide by the common factor first.
  int64_t g = 0;
  for (auto [s, c] : d.terms)
    g = std::gcd(g, c < 0 ? -c : c);
  if (g > 1) {
    if (d.constant % g != 0)
      return false;
    DimExpr reduced = DimExpr::literal(d.constant / g);
    for (auto [s, c] : d.terms)
      reduced = reduced + DimExpr::symbol(s).scaled(c / g);
    d = reduced;
  }
  // Solve d = 0 for the newest symbol with a unit coefficient: the newest
  // is usually the fresh dim of a variable met later, so older symbols (and
  // the names a reader sees first) stay free.
  for (auto it = d.terms.rbegin(); it != d.terms.rend(); ++it) {
    auto [s, c] = *it;
    if (c != 1 && c != -1)
      continue;
    // c s + rest = 0  =>  s = -rest / c = -c rest.
    DimExpr rest = d - DimExpr::symbol(s).scaled(c);
    DimExpr value = rest.scaled(-c);
    bound[s] = value;
    for (auto &other : bound)
      if (other)
        *other = other->substitute(s, value);
    return true;
  }
  return false;
}
