//===- ShapeInference.h - shapes of rule ops, concrete and symbolic -*- C++ -*-===//
//
// One shape rule per rule op, written once over a dimension type so that
// three users agree:
//
//  - the enumeration (int64_t dims) decides which ops apply to which
//    tensors and where a split may cut;
//  - the generalization (SymDim: a concrete size paired with a symbolic
//    expression) replays the same decisions on the concrete sizes while
//    unifying the expressions, which yields the rule's shape constraints;
//  - matching and rewriting (int64_t) compute the shapes of a rule side
//    instantiated in a program.
//
// Besides its dims, a shape keeps, per dim, a stack of split points: a
// concat pushes the size of its first operand, a split pops it (the split
// of a rule always cuts where a concat joined, as in TASO, so that its
// sizes are expressions of the rule's symbols).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_SHAPEINFERENCE_H
#define MIRAGE_SUPEROPT_RULES_SHAPEINFERENCE_H

#include "mirage/Superopt/Rules/RuleIR.h"
#include "llvm/ADT/STLExtras.h"
#include <type_traits>

namespace mirage::rules {

/// Substitution of dimension symbols by linear forms, built by unifying
/// expressions that must be equal.
class Unifier {
public:
  unsigned fresh() {
    bound.emplace_back();
    return bound.size() - 1;
  }
  unsigned numSymbols() const { return bound.size(); }
  /// `e` with every bound symbol replaced (bindings are kept resolved).
  DimExpr resolve(const DimExpr &e) const;
  /// Makes a and b equal by binding one symbol; false if they differ by a
  /// non-zero constant or no symbol has a unit coefficient.
  bool unify(const DimExpr &a, const DimExpr &b);
  bool isBound(unsigned s) const { return bound[s].has_value(); }

private:
  std::vector<std::optional<DimExpr>> bound;
};

/// A dimension of the generalization: the size the enumeration used and
/// the symbolic expression it stands for.
struct SymDim {
  int64_t v = 0;
  DimExpr e;
};

/// The dimension algebra of a Dim type.
template <typename Dim> struct DimAlgebra;

template <> struct DimAlgebra<int64_t> {
  static int64_t value(int64_t d) { return d; }
  static int64_t literal(int64_t v) { return v; }
  static int64_t sum(int64_t a, int64_t b) { return a + b; }
  static int64_t offset(int64_t a, int64_t k) { return a + k; }
  static bool unify(void *, int64_t a, int64_t b) { return a == b; }
  static bool isLiteral(int64_t) { return true; }
};

template <> struct DimAlgebra<SymDim> {
  static int64_t value(const SymDim &d) { return d.v; }
  static SymDim literal(int64_t v) { return {v, DimExpr::literal(v)}; }
  static SymDim sum(const SymDim &a, const SymDim &b) {
    return {a.v + b.v, a.e + b.e};
  }
  static SymDim offset(const SymDim &a, int64_t k) {
    return {a.v + k, a.e + DimExpr::literal(k)};
  }
  static bool unify(void *unifier, const SymDim &a, const SymDim &b) {
    return a.v == b.v && static_cast<Unifier *>(unifier)->unify(a.e, b.e);
  }
  static bool isLiteral(const SymDim &d) { return d.e.isConstant(); }
};

template <typename Dim> struct TypedShape {
  llvm::SmallVector<Dim, 4> dims;
  /// Per dim, the split points a split may cut at (top = last).
  llvm::SmallVector<llvm::SmallVector<Dim, 1>, 4> splits;

  size_t rank() const { return dims.size(); }
  void resetSplits() { splits.assign(dims.size(), {}); }
};

/// Split stacks of two broadcast dims: the same stack if both have it (by
/// concrete value), else the one of the operand that has one.
template <typename Dim>
llvm::SmallVector<Dim, 1> mergeSplits(const llvm::SmallVector<Dim, 1> &a,
                                      const llvm::SmallVector<Dim, 1> &b) {
  using A = DimAlgebra<Dim>;
  if (a.empty())
    return b;
  if (b.empty())
    return a;
  if (a.size() != b.size())
    return {};
  for (size_t i = 0; i < a.size(); ++i)
    if (A::value(a[i]) != A::value(b[i]))
      return {};
  return a;
}

/// Infers the result shapes of `kind` (with `ints` laid out as RuleIR.h
/// says) on `operands`. `explicitShape` is a split's two sizes or a
/// reshape's target; for a split without it the top split point of the dim
/// is the cut. Dims that the op requires equal are unified through
/// `unifier` (ignored for int64_t). Returns false if the op does not apply.
template <typename Dim>
bool inferShapes(OpKind kind, llvm::ArrayRef<int64_t> ints,
                 llvm::ArrayRef<const TypedShape<Dim> *> operands,
                 const llvm::SmallVector<Dim, 4> *explicitShape,
                 llvm::SmallVectorImpl<TypedShape<Dim>> &results,
                 void *unifier = nullptr) {
  using A = DimAlgebra<Dim>;
  results.clear();
  auto same = [&](const Dim &a, const Dim &b) {
    return A::unify(unifier, a, b);
  };
  switch (kind) {
  case OpKind::Matmul: {
    const auto &l = *operands[0], &r = *operands[1];
    if (l.rank() != 2 || r.rank() != 2 || !same(l.dims[1], r.dims[0]))
      return false;
    TypedShape<Dim> s;
    s.dims = {l.dims[0], r.dims[1]};
    s.splits = {l.splits[0], r.splits[1]};
    results.push_back(std::move(s));
    return true;
  }
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul: {
    const auto &l = *operands[0], &r = *operands[1];
    size_t rank = std::max(l.rank(), r.rank());
    TypedShape<Dim> s;
    s.dims.resize(rank);
    s.splits.resize(rank);
    for (size_t i = 0; i < rank; ++i) {
      // Aligned at the trailing dim; a missing dim broadcasts like a 1.
      bool hasL = i + l.rank() >= rank, hasR = i + r.rank() >= rank;
      const Dim *a = hasL ? &l.dims[i + l.rank() - rank] : nullptr;
      const Dim *b = hasR ? &r.dims[i + r.rank() - rank] : nullptr;
      auto splitsOf = [&](bool left) {
        return left ? l.splits[i + l.rank() - rank]
                    : r.splits[i + r.rank() - rank];
      };
      if (!b || (a && A::value(*b) == 1 && A::value(*a) != 1)) {
        s.dims[i] = *a;
        s.splits[i] = splitsOf(true);
      } else if (!a || (A::value(*a) == 1 && A::value(*b) != 1)) {
        s.dims[i] = *b;
        s.splits[i] = splitsOf(false);
      } else {
        if (!same(*a, *b))
          return false;
        s.dims[i] = *a;
        s.splits[i] = mergeSplits(splitsOf(true), splitsOf(false));
      }
    }
    results.push_back(std::move(s));
    return true;
  }
  case OpKind::ScalarMul:
  case OpKind::ScalarAdd:
  case OpKind::Exp:
  case OpKind::Relu:
    results.push_back(*operands[0]);
    return true;
  case OpKind::Transpose: {
    const auto &x = *operands[0];
    if (ints.size() != x.rank())
      return false;
    TypedShape<Dim> s;
    llvm::SmallVector<bool, 4> seen(x.rank(), false);
    for (int64_t p : ints) {
      if (p < 0 || p >= static_cast<int64_t>(x.rank()) || seen[p])
        return false;
      seen[p] = true;
      s.dims.push_back(x.dims[p]);
      s.splits.push_back(x.splits[p]);
    }
    results.push_back(std::move(s));
    return true;
  }
  case OpKind::Concat: {
    const auto &l = *operands[0], &r = *operands[1];
    int64_t d = ints[0];
    if (l.rank() != r.rank() || d < 0 || d >= static_cast<int64_t>(l.rank()))
      return false;
    TypedShape<Dim> s = l;
    for (size_t i = 0; i < l.rank(); ++i) {
      if (static_cast<int64_t>(i) == d)
        continue;
      if (!same(l.dims[i], r.dims[i]))
        return false;
      s.splits[i] = mergeSplits(l.splits[i], r.splits[i]);
    }
    s.dims[d] = A::sum(l.dims[d], r.dims[d]);
    s.splits[d] = l.splits[d];
    s.splits[d].push_back(l.dims[d]);
    results.push_back(std::move(s));
    return true;
  }
  case OpKind::Split: {
    const auto &x = *operands[0];
    int64_t d = ints[0];
    if (d < 0 || d >= static_cast<int64_t>(x.rank()))
      return false;
    TypedShape<Dim> first = x, second = x;
    if (explicitShape) {
      const auto &sizes = *explicitShape;
      if (sizes.size() != 2 || A::value(sizes[0]) < 1 ||
          A::value(sizes[1]) < 1 ||
          !same(A::sum(sizes[0], sizes[1]), x.dims[d]))
        return false;
      first.dims[d] = sizes[0];
      second.dims[d] = sizes[1];
      first.splits[d].clear();
    } else {
      if (x.splits[d].empty())
        return false;
      Dim cut = x.splits[d].back();
      first.splits[d].pop_back();
      first.dims[d] = cut;
      // The second piece is the rest: dim - cut.
      if constexpr (std::is_same_v<Dim, SymDim>)
        second.dims[d] = SymDim{x.dims[d].v - cut.v, x.dims[d].e - cut.e};
      else
        second.dims[d] = x.dims[d] - cut;
    }
    second.splits[d].clear();
    results.push_back(std::move(first));
    results.push_back(std::move(second));
    return true;
  }
  case OpKind::ReduceSum: {
    const auto &x = *operands[0];
    int64_t d = ints[0];
    if (d < 0 || d >= static_cast<int64_t>(x.rank()))
      return false;
    TypedShape<Dim> s = x;
    s.dims[d] = A::literal(1);
    s.splits[d].clear();
    results.push_back(std::move(s));
    return true;
  }
  case OpKind::Conv2D: {
    const auto &x = *operands[0], &w = *operands[1];
    if (x.rank() != 4 || w.rank() != 4 || ints.size() != 7)
      return false;
    int64_t groups = ints[6];
    // Stride 1 keeps the output size linear in the input size.
    if (ints[0] != 1 || ints[1] != 1 || groups < 1)
      return false;
    if (!A::isLiteral(w.dims[2]) || !A::isLiteral(w.dims[3]))
      return false;
    if (groups == 1) {
      if (!same(x.dims[1], w.dims[1]))
        return false;
    } else if (A::value(x.dims[1]) != A::value(w.dims[1]) * groups ||
               !A::isLiteral(x.dims[1]) || !A::isLiteral(w.dims[1]) ||
               A::value(w.dims[0]) % groups != 0) {
      return false;
    }
    TypedShape<Dim> s;
    s.dims.push_back(x.dims[0]);
    s.dims.push_back(w.dims[0]);
    for (int i = 0; i < 2; ++i) {
      int64_t k = A::value(w.dims[2 + i]);
      int64_t shrink = ints[4 + i] * (k - 1) - 2 * ints[2 + i];
      Dim out = A::offset(x.dims[2 + i], -shrink);
      if (A::value(out) < 1)
        return false;
      s.dims.push_back(out);
    }
    s.splits = {x.splits[0], groups == 1 ? w.splits[0]
                                         : llvm::SmallVector<Dim, 1>{},
                {}, {}};
    results.push_back(std::move(s));
    return true;
  }
  case OpKind::AvgPool2D:
  case OpKind::MaxPool2D: {
    const auto &x = *operands[0];
    if (x.rank() != 4 || ints.size() != 6 || ints[2] != 1 || ints[3] != 1)
      return false;
    TypedShape<Dim> s = x;
    for (int i = 0; i < 2; ++i) {
      Dim out = A::offset(x.dims[2 + i], 2 * ints[4 + i] - ints[i] + 1);
      if (A::value(out) < 1)
        return false;
      s.dims[2 + i] = out;
      s.splits[2 + i].clear();
    }
    results.push_back(std::move(s));
    return true;
  }
  case OpKind::Reshape: {
    const auto &x = *operands[0];
    TypedShape<Dim> s;
    if (explicitShape) {
      s.dims.assign(explicitShape->begin(), explicitShape->end());
    } else {
      // The enumeration's reshape appends a unit dimension.
      s.dims = x.dims;
      s.dims.push_back(A::literal(1));
    }
    int64_t in = 1, out = 1;
    for (const Dim &d : x.dims)
      in *= A::value(d);
    for (const Dim &d : s.dims)
      out *= A::value(d);
    if (in != out)
      return false;
    s.resetSplits();
    // Appending unit dims keeps the leading dims and their split points.
    if (s.rank() >= x.rank()) {
      bool prefix = true;
      for (size_t i = 0; i < x.rank(); ++i)
        prefix &= A::value(s.dims[i]) == A::value(x.dims[i]);
      for (size_t i = x.rank(); i < s.rank(); ++i)
        prefix &= A::value(s.dims[i]) == 1;
      if (prefix)
        for (size_t i = 0; i < x.rank(); ++i) {
          if (!same(s.dims[i], x.dims[i]))
            return false;
          s.splits[i] = x.splits[i];
        }
    }
    results.push_back(std::move(s));
    return true;
  }
  }
  return false;
}

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_SHAPEINFERENCE_H
