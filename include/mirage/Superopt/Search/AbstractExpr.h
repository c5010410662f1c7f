//===- AbstractExpr.h - abstract expressions for search pruning -*- C++ -*-===//
//
// Mirage's abstract expressions (OSDI'25, §4.3; docs/Search.md): each
// tensor of a µGraph is abstracted to a term over add, mul, div, sum(k, .)
// and uninterpreted functions (exp, sqrt, silu, ...) that forgets indices but
// keeps reduction sizes. A search prefix is dropped when one of its tensors
// cannot be a subexpression of the target's.
//
// Mirage decides both relations with Z3 over its axioms. Here terms are kept
// in a normal form that already quotients by the equivalence axioms, so
// equality is identity of interned ids and the subexpression test is a
// structural walk of microseconds, cached per pair; the search makes
// millions of these queries (docs/Search.md):
//
//   a term is a sum of monomials  c * sum(K, a1 * ... * an / (b1 * ... * bm))
//
// with c a scalar, K the product of all reduction sizes (sum(i, sum(j, x)) =
// sum(i*j, x); sum distributes over add and pulls out of mul and of a
// numerator), and the a's and b's atoms: inputs, f(term) for uninterpreted
// f, and inv(term) for a divisor that is not a single unreduced monomial.
// Products distribute over sums; add and mul are commutative and
// associative. There are no cancellation rules (x * y / y stays as it is):
// with them everything would be a subexpression of everything.
//
// Scalars are kept (so that the search cannot drop a scale by 1/n), but the
// subexpression test ignores them where a scale could still be applied.
//
// K is an arbitrary-precision integer: nested reductions multiply their
// sizes (1024^7 is 2^70), and a wrapped 64-bit product would turn the
// divisibility test into a division by zero. A reduction over 0 elements is
// the zero term.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_ABSTRACTEXPR_H
#define MIRAGE_SUPEROPT_ABSTRACTEXPR_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DynamicAPInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mirage::superopt {

/// Interned abstract expressions. Not thread-safe: each search thread owns
/// its own context.
class AbstractExprContext {
public:
  using ExprId = uint32_t;

  AbstractExprContext();

  /// The k-th program input.
  ExprId input(unsigned index);
  ExprId add(ExprId lhs, ExprId rhs);
  ExprId sub(ExprId lhs, ExprId rhs);
  ExprId mul(ExprId lhs, ExprId rhs);
  ExprId div(ExprId lhs, ExprId rhs);
  ExprId scale(double factor, ExprId operand);
  /// sum(size, operand): a reduction over `size` >= 0 elements (0 gives the
  /// zero term).
  ExprId sum(int64_t size, ExprId operand);
  /// An uninterpreted function application, e.g. "exp", "sqrt", "pow:2.5".
  ExprId apply(llvm::StringRef function, ExprId operand);

  /// Whether `expr` can be a subexpression of `target` under the axioms.
  /// Answers are cached.
  bool isSubexpression(ExprId expr, ExprId target);

  /// Whether the input atom `index` occurs in `expr`, in any monomial or
  /// inside any function's or inverse's argument. No rule removes an input
  /// atom that an operand has other than cancellation to zero, so a term
  /// that mentions an input can only be built from terms that do.
  bool mentionsInput(ExprId expr, unsigned index) const;

  /// Whether `expr` can be the expression of a tile after a for-loop of
  /// `iterations` steps. Such a tile is built from accumulators only (the
  /// block dialect's phase rule), and every accumulator multiplies its
  /// operand's reduction sizes K by `iterations`; the ops after the loop
  /// (add, scale and block reductions keep the property of a monomial, mul
  /// multiplies Ks, a function or an inverse makes an atom of its argument)
  /// only ever make monomials whose K `iterations` divides or whose atoms
  /// are all such functions or inverses of expressions with the property.
  /// So a goal with a monomial of neither kind (x + sum_j(x - y_j): the
  /// lone x) cannot come out of that loop, however many ops it may use.
  bool computableAfterLoop(ExprId expr, int64_t iterations) const;

  std::string str(ExprId expr) const;
  size_t size() const { return polys.size(); }
  /// An estimate of the bytes this context holds (terms, atoms and cached
  /// answers), counted as they are added: the same for the same queries on
  /// every machine, so a memory budget based on it is deterministic.
  uint64_t approximateBytes() const { return bytes; }

  using AtomId = uint32_t;
  enum class AtomKind : uint8_t { Input, Function, Inverse };
  struct Atom {
    AtomKind kind;
    uint32_t name; // input index or function name id
    ExprId arg;    // Function, Inverse
  };
  struct Monomial {
    double coef = 1;
    llvm::DynamicAPInt reduction{1}; // K, the product of reduction sizes
    llvm::SmallVector<AtomId, 4> num, den; // sorted multisets
  };
  using Poly = llvm::SmallVector<Monomial, 2>; // sorted, like terms merged

private:

  ExprId intern(Poly poly);
  AtomId internAtom(AtomKind kind, uint32_t name, ExprId arg);
  ExprId atomExpr(AtomId atom);
  bool monomialFitsIn(const Monomial &e, const Monomial &t) const;
  bool termsFitIn(const Poly &e, const Poly &t, size_t from,
                  llvm::SmallVectorImpl<bool> &used,
                  std::optional<Monomial> &common) const;
  void print(ExprId expr, std::string &out) const;
  void printAtom(AtomId atom, std::string &out) const;
  static std::string key(const Poly &poly);

  std::vector<Poly> polys;
  std::unordered_map<std::string, ExprId> polyIds;
  std::vector<Atom> atoms;
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, AtomId> atomIds;
  std::vector<std::string> functionNames;
  llvm::StringMap<uint32_t> functionIds;
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, ExprId> opCache;
  llvm::DenseMap<std::pair<ExprId, ExprId>, bool> subCache;
  uint64_t bytes = 0;
};

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_ABSTRACTEXPR_H
