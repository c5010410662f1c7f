//===- RealArithmetic.h - fp64 and native-dtype tensor arithmetic -*- C++
//-*-===//
//
// The real-number arithmetic of the interpreter. Every op is computed in
// double precision; in RealMode::Native the interpreter then rounds the op's
// result to the op's element type (round()), so that f16, bf16 and f32
// programs lose precision where the real program would (reductions and
// matmuls are rounded once, at their result, as with an fp32 accumulator).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_REALARITHMETIC_H
#define MIRAGE_SUPEROPT_REALARITHMETIC_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Semantics/RunControl.h"
#include "mirage/Superopt/Semantics/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include <limits>

namespace mlir {
class Operation;
} // namespace mlir

namespace mirage::superopt {

using RealTensor = Tensor<double>;

enum class RealMode { FP64, Native };

/// x rounded to the nearest value of `floatType` (f16, bf16, f32 or f64),
/// ties to even, with subnormals and overflow to infinity.
double roundToType(double x, mlir::Type floatType);

class RealArithmetic : public RunControl {
public:
  using Value = RealTensor;
  using Element = double;

  explicit RealArithmetic(RealMode mode) : mode(mode) {}
  RealMode getMode() const { return mode; }
  static llvm::StringRef name() { return "real"; }

  /// Called before each op is evaluated (the field arithmetic uses it).
  void beginOp(mlir::Operation *) {}
  /// The field arithmetic's exponent parts; nothing to do here.
  void requireExponentParts() {}
  static void giveExponentPart(Value &) {}
  /// Rounds an op's result to its element type in native mode.
  void round(Value &v, mlir::Type elementType) const;
  /// Whether round() may change values of this element type.
  bool changesOnRounding(mlir::Type elementType) const {
    return mode == RealMode::Native && !elementType.isF64() &&
           llvm::isa<mlir::FloatType>(elementType);
  }

  /// [B..., M, K] x [B..., K, N] -> [B..., M, N].
  Value matmul(const Value &a, const Value &b) const;
  Value unary(UnaryKind kind, llvm::ArrayRef<double> params,
              const Value &x) const;
  /// NumPy broadcasting.
  Value binary(BinaryKind kind, const Value &a, const Value &b) const;
  /// cond != 0 ? onTrue : onFalse, the three broadcast together.
  Value select(const Value &cond, const Value &onTrue,
               const Value &onFalse) const;
  /// Reduces `dim`, keeping it with size 1.
  Value reduce(ReduceKind kind, const Value &x, int64_t dim) const;
  /// exp(x - max) / sum(exp(x - max)) along `dim`.
  Value softmax(const Value &x, int64_t dim) const;
  /// A rank-0 tensor, broadcastable to any shape.
  Value constant(double c) const { return Value({}, {c}); }
  /// The element that pads convolutions and average pools.
  Element zero() const { return 0.0; }
  /// The element that pads max pools (ignored by max).
  Element lowest() const { return -std::numeric_limits<double>::infinity(); }

  template <typename F> static Value apply(const Value &v, F &&f) {
    return f(v);
  }
  template <typename F>
  static Value applyN(llvm::ArrayRef<const Value *> vs, F &&f) {
    return f(vs);
  }
  /// Calls f(dstPart, srcPart) to update `dst` from `src`.
  template <typename F>
  static void update(Value &dst, const Value &src, F &&f) {
    f(dst, src);
  }
  static Value zeros(llvm::ArrayRef<int64_t> shape) {
    return Value(shape, 0.0);
  }
  static llvm::ArrayRef<int64_t> shapeOf(const Value &v) { return v.shape; }

private:
  RealMode mode;
};

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_REALARITHMETIC_H
