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
// Comparisons and select are uninterpreted functions of their operands' Z_p
// values in the same way.
//
// Max (reduce_max, max accumulators, max pooling) is uninterpreted too, as a
// function of the *multiset* of values it ranges over: its image in Z_p and
// in Z_q is a keyed hash of a 122-bit fingerprint of that multiset, the sum
// of a keyed random value per element. An operand that is itself the result
// of a max contributes its own multiset (its fingerprint rides along with
// it, `FieldTensor::maxKey`), so max(max(a, b), c) = max(a, b, c) holds
// exactly: a reduction split over a for-loop, a grid or kernels gets the
// image of the unsplit one. Nothing else about max is known to the test
// (which can only make it reject, never accept, a pair wrongly); a program
// whose output does not depend on the maximum it subtracts (a softmax,
// online rescaling by exp(m_old - m_new)) gives the same fingerprint
// whatever value the hash picks. docs/Verification.md states the argument.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_FIELDARITHMETIC_H
#define MIRAGE_SUPEROPT_FIELDARITHMETIC_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Semantics/FiniteField.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mirage/Superopt/Semantics/Tensor.h"
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
/// residues (an empty `q` means the exponent part is not tracked). Elements
/// that are the result of a max also carry the fingerprint of the multiset
/// they are the max of, two 61-bit halves (zero for other elements; both
/// empty when no element is one): data movement keeps it, arithmetic drops
/// it.
struct FieldTensor {
  Tensor<uint64_t> p, q;
  /// Empty, or the two halves (kept out of line: most tensors have none).
  std::vector<Tensor<uint64_t>> maxKey;
  bool hasQ() const {
    return q.size() == p.size() && q.shape == p.shape && !q.data.empty();
  }
  bool hasMaxKey() const { return !maxKey.empty(); }
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
  /// Makes the rest of the current op compute exponent parts: an op that
  /// takes exps of its own intermediate values (the online softmax
  /// subtracts running maxima) needs them whatever its results need.
  void requireExponentParts() { wantQ = true; }
  /// Gives `v` an exponent part of zeros if it has none: a value whose
  /// exponent part nothing reads (a softmax's sum), packed beside one that
  /// has one (its maximum) so that the pack keeps both.
  static void giveExponentPart(Value &v) {
    if (!v.hasQ())
      v.q = Tensor<uint64_t>(v.p.shape, 0);
  }
  void round(Value &, mlir::Type) const {}
  bool changesOnRounding(mlir::Type) const { return false; }

  /// Whether some division in the run had a zero divisor; the run is then
  /// inconclusive and should be repeated with other inputs.
  bool hitZeroDivisor() const { return zeroDivisor; }

  Value matmul(const Value &a, const Value &b) const;
  Value unary(UnaryKind kind, llvm::ArrayRef<double> params, const Value &x);
  Value binary(BinaryKind kind, const Value &a, const Value &b);
  /// Uninterpreted, like the comparisons: a keyed hash of the three
  /// operands' Z_p values (docs/Verification.md, "Comparisons and select").
  Value select(const Value &cond, const Value &onTrue, const Value &onFalse);
  /// sum: in both fields; max: the keyed image of each reduced multiset
  /// (the file comment). Elements equal to lowest() (max pooling's padding)
  /// are left out of a max.
  Value reduce(ReduceKind kind, const Value &x, int64_t dim) const;
  /// exp(x) / sum(exp(x)) along `dim`: the max subtraction of the real
  /// softmax cancels exactly.
  Value softmax(const Value &x, int64_t dim);
  Value constant(double c);
  Element zero() const { return 0; }
  /// Max pooling's padding: no residue (p < 2^63), so max can skip it.
  Element lowest() const { return kAbsent; }
  static constexpr uint64_t kAbsent = ~uint64_t(0);

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

  /// Data movement: f applied to every part (max fingerprints included).
  template <typename F> static Value apply(const Value &v, F &&f) {
    Value r;
    r.p = f(v.p);
    if (v.hasQ())
      r.q = f(v.q);
    if (v.hasMaxKey())
      for (unsigned h = 0; h < 2; ++h)
        r.maxKey.push_back(f(v.maxKey[h]));
    return r;
  }
  template <typename F>
  static Value applyN(llvm::ArrayRef<const Value *> vs, F &&f) {
    llvm::SmallVector<const Tensor<uint64_t> *> ps, qs;
    bool allQ = true, anyKey = false;
    for (const Value *v : vs) {
      ps.push_back(&v->p);
      qs.push_back(&v->q);
      allQ &= v->hasQ();
      anyKey |= v->hasMaxKey();
    }
    Value r;
    r.p = f(llvm::ArrayRef<const Tensor<uint64_t> *>(ps));
    if (allQ)
      r.q = f(llvm::ArrayRef<const Tensor<uint64_t> *>(qs));
    if (anyKey) {
      // Parts without fingerprints are plain values: zero keys.
      std::vector<Tensor<uint64_t>> zeros;
      zeros.reserve(2 * vs.size()); // no reallocation: `keys` points in
      for (unsigned h = 0; h < 2; ++h) {
        llvm::SmallVector<const Tensor<uint64_t> *> keys;
        for (const Value *v : vs) {
          if (v->hasMaxKey()) {
            keys.push_back(&v->maxKey[h]);
            continue;
          }
          zeros.emplace_back(v->p.shape, 0);
          keys.push_back(&zeros.back());
        }
        r.maxKey.push_back(
            f(llvm::ArrayRef<const Tensor<uint64_t> *>(keys)));
      }
    }
    return r;
  }
  /// Calls f(dstPart, srcPart) for each part of `src`, giving `dst` an
  /// exponent part (zeros) first if it lacks one; fingerprints follow the
  /// values they belong to.
  template <typename F>
  static void update(Value &dst, const Value &src, F &&f) {
    f(dst.p, src.p);
    if (src.hasMaxKey() || dst.hasMaxKey()) {
      if (!dst.hasMaxKey())
        dst.maxKey.assign(2, Tensor<uint64_t>(dst.p.shape, 0));
      for (unsigned h = 0; h < 2; ++h) {
        if (src.hasMaxKey())
          f(dst.maxKey[h], src.maxKey[h]);
        else
          f(dst.maxKey[h], Tensor<uint64_t>(src.p.shape, 0));
      }
    }
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
  /// The uninterpreted function `site` (a comparison kind or select) of
  /// the operands' Z_p values, in Z_m.
  uint64_t oracleOf(uint64_t site, llvm::ArrayRef<uint64_t> args,
                    uint64_t modulus, unsigned part) const;
  /// Elementwise `site`(args...) after broadcasting, both parts.
  Value uninterpretedN(uint64_t site, llvm::ArrayRef<const Value *> args);
  Value reduceMax(const Value &x, int64_t dim) const;

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
