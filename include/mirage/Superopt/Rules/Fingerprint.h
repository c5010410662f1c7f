//===- Fingerprint.h - rule ops on tiny tensors, in two arithmetics -*- C++ -*-===//
//
// The enumeration evaluates millions of small graphs, so it does not go
// through MLIR: this evaluator runs a rule op on tensors of a few dozen
// elements, in four lanes at once:
//
//  - p: values in Z_p and q: exponent parts in Z_q, the finite field of
//    lib/Superopt (FieldPair, a random 31-bit q with p = 2q + 1): add, mul,
//    matmul, convolution, sums and average pooling are exact, exp(x) is
//    w^(x mod q); relu and max pooling have no image there and are
//    uninterpreted (a keyed hash of their argument, as the verifier's
//    field test treats them);
//  - r1, r2: fp64 on two draws of small integer inputs, where relu and max
//    are exact (and exp is rounded).
//
// Each result carries a 64-bit hash of its field lane and one of its real
// lanes, with its shape.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_FINGERPRINT_H
#define MIRAGE_SUPEROPT_RULES_FINGERPRINT_H

#include "mirage/Superopt/Rules/ShapeInference.h"
#include "mirage/Superopt/Semantics/FiniteField.h"
#include <vector>

namespace mirage::rules {

struct TinyTensor {
  TypedShape<int64_t> shape;
  std::vector<uint64_t> p, q;
  std::vector<double> r1, r2;
  uint64_t fieldHash = 0, realHash = 0;
  /// Depends on weights only.
  bool weight = false;

  int64_t numElements() const { return static_cast<int64_t>(p.size()); }
};

class FingerprintEvaluator {
public:
  /// Fields and scalar values drawn from `seed`.
  static llvm::Expected<FingerprintEvaluator> create(uint64_t seed,
                                                     unsigned numScalars);

  /// Fills `t` with random values of `shape` (its split points kept), from
  /// the stream `stream` of this evaluator's seed.
  void randomize(TinyTensor &t, uint64_t stream) const;

  /// Runs one op; false if its shapes do not fit (then `results` is
  /// unspecified). `explicitShape` as for inferShapes.
  bool apply(OpKind kind, llvm::ArrayRef<int64_t> ints, ScalarExpr scalar,
             llvm::ArrayRef<const TinyTensor *> operands,
             const llvm::SmallVector<int64_t, 4> *explicitShape,
             llvm::SmallVectorImpl<TinyTensor> &results) const;

  const superopt::FieldPair &field() const { return fieldPair; }

private:
  FingerprintEvaluator(superopt::FieldPair field, uint64_t seed)
      : fieldPair(field), seed(seed) {}
  void computeValues(OpKind kind, llvm::ArrayRef<int64_t> ints,
                     ScalarExpr scalar,
                     llvm::ArrayRef<const TinyTensor *> operands,
                     llvm::SmallVectorImpl<TinyTensor> &results) const;
  uint64_t oracle(unsigned what, uint64_t x, unsigned lane) const;

  superopt::FieldPair fieldPair;
  uint64_t seed;
  /// Scalar symbols: per symbol its image in Z_p, Z_q and its fp64 value.
  llvm::SmallVector<uint64_t, 2> scalarP, scalarQ;
  llvm::SmallVector<double, 2> scalarReal;
};

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_FINGERPRINT_H
