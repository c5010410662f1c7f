//===- FieldArithmetic.h - finite-field fingerprints of tensors -*- C++ -*-===//
//
// The arithmetic of Mirage's probabilistic verifier. A tensor element is a
// pair: its value in Z_p and, when it flows into an exp, its value in Z_q
// (q | p - 1). Multilinear ops and division are computed in both fields;
// exp(x) = w^(x mod q) mod p for w of order q, which is exact because
// w^(a + b) = w^a w^b. Finite constants (1/n of a mean, a scale) are dyadic
// rationals and so have exact images in both fields. Infinities and NaNs
// have none: each gets a keyed random non-zero image (different for +inf,
// -inf and each NaN, and unrelated to the finite ones), and the run records
// it, so that the verifier does not trust a field test of such a program.
//
// Every constant a run embeds is recorded with the fields it entered
// (constants()): a constant that vanishes (a non-zero multiple of p or q)
// or two that collide (equal images of unequal values) make the test blind
// to part of a program, and the verifier draws another prime pair.
//
// Unary functions without an algebraic image (sqrt, silu, gelu, relu, clamp,
// a non-integer pow) are uninterpreted: a keyed hash of the argument's Z_p
// value, the same for equal arguments, independent and uniform otherwise.
// Max has no field semantics at all; FieldFragment.h rejects programs with it.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_FIELDARITHMETIC_H
#define MIRAGE_SUPEROPT_FIELDARITHMETIC_H

#include "Dialect/Graph/GraphDialect.h"
#include "Superopt/Semantics/FiniteField.h"
#include "Superopt/Semantics/RunControl.h"
#include "Superopt/Semantics/Tensor.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"
#include <array>
#include <map>
#include <optional>

namespace mlir {
class Operation;
} // namespace mlir

namespace mirage::superopt {

/// Fingerprints of a tensor: its Z_p residues and, when computed, its Z_q
/// residues (an empty `q` means the exponent part is not tracked).
struct FieldTensor {
  Tensor<uint64_t> p, q;
  bool hasQ() const {
    return q.size() == p.size() && q.shape == p.shape && !q.data.empty();
  }
};

class FieldArithmetic : public RunControl {
public:
  using Value = FieldTensor;
  using Element = uint64_t;

  /// `oracleKey` keys the uninterpreted functions; a fresh key per test
  /// makes them fresh random functions.
  FieldArithmetic(const FieldPair &field, uint64_t oracleKey);
  static llvm::StringRef name() { return "finite-field"; }
  const FieldPair &getField() const { return field; }

  /// Restricts exponent parts to the values in `needQ` (from FieldFragment):
  /// only those flow into an exp. Without it every exponent part whose
  /// operands have one is computed.
  void setExponentValues(const llvm::DenseSet<mlir::Value> *needQ) {
    this->needQ = needQ;
  }
  /// Decides whether the op about to be evaluated computes exponent parts.
  void beginOp(mlir::Operation *op);
  void round(Value &, mlir::Type) const {}
  bool changesOnRounding(mlir::Type) const { return false; }

  /// Whether some division in the run had a zero divisor; the run is then
  /// inconclusive and should be repeated with other inputs.
  bool hitZeroDivisor() const { return zeroDivisor; }

  bool hasSemantics(ReduceKind kind) const { return kind == ReduceKind::sum; }

  Value matmul(const Value &a, const Value &b) const;
  Value unary(UnaryKind kind, llvm::ArrayRef<double> params, const Value &x);
  Value binary(BinaryKind kind, const Value &a, const Value &b);
  /// Only ReduceKind::sum.
  Value reduce(ReduceKind kind, const Value &x, int64_t dim) const;
  /// exp(x) / sum(exp(x)) along `dim`: the max subtraction of the real
  /// softmax cancels exactly.
  Value softmax(const Value &x, int64_t dim);
  Value constant(double c);
  Element zero() const { return 0; }
  Element lowest() const { return 0; }

  /// c as an element of Z_m: a finite c is a dyadic rational n / 2^e,
  /// mapped to n * (2^e)^-1. An infinity or a NaN has no image (nullopt).
  static std::optional<uint64_t> embed(double c, uint64_t m);

  /// What a run embedded: each constant (by its bit pattern) and whether it
  /// entered Z_p, Z_q or both.
  struct ConstantUse {
    double value = 0;
    bool inP = false, inQ = false;
  };
  const std::map<uint64_t, ConstantUse> &constants() const {
    return constantUses;
  }

  template <typename F> static Value apply(const Value &v, F &&f) {
    Value r;
    r.p = f(v.p);
    if (v.hasQ())
      r.q = f(v.q);
    return r;
  }
  template <typename F>
  static Value applyN(llvm::ArrayRef<const Value *> vs, F &&f) {
    llvm::SmallVector<const Tensor<uint64_t> *> ps, qs;
    bool allQ = true;
    for (const Value *v : vs) {
      ps.push_back(&v->p);
      qs.push_back(&v->q);
      allQ &= v->hasQ();
    }
    Value r;
    r.p = f(llvm::ArrayRef<const Tensor<uint64_t> *>(ps));
    if (allQ)
      r.q = f(llvm::ArrayRef<const Tensor<uint64_t> *>(qs));
    return r;
  }
  /// Calls f(dstPart, srcPart) for each part of `src`, giving `dst` an
  /// exponent part (zeros) first if it lacks one.
  template <typename F>
  static void update(Value &dst, const Value &src, F &&f) {
    f(dst.p, src.p);
    if (!src.hasQ())
      return;
    if (!dst.hasQ())
      dst.q = Tensor<uint64_t>(dst.p.shape, 0);
    f(dst.q, src.q);
  }
  static Value zeros(llvm::ArrayRef<int64_t> shape) {
    return Value{Tensor<uint64_t>(shape, 0), {}};
  }
  static llvm::ArrayRef<int64_t> shapeOf(const Value &v) { return v.p.shape; }

private:
  /// The image of constant c in Z_m (part 0: Z_p, 1: Z_q), recorded.
  uint64_t constantImage(double c, uint64_t m, unsigned part);
  uint64_t exp(uint64_t xq) const;
  uint64_t oracle(UnaryKind kind, llvm::ArrayRef<double> params, uint64_t x,
                  uint64_t modulus, unsigned part) const;

  FieldPair field;
  uint64_t oracleKey;
  const llvm::DenseSet<mlir::Value> *needQ = nullptr;
  bool wantQ = true;
  bool zeroDivisor = false;
  std::map<uint64_t, ConstantUse> constantUses;
  /// w^(j << 8i) for the four bytes of a 32-bit exponent (more for larger q).
  std::vector<std::array<uint64_t, 256>> expTable;
};

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_FIELDARITHMETIC_H
