//===- RealArithmetic.cpp - fp64 and native-dtype tensor arithmetic -------===//

#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mlir/IR/BuiltinTypes.h"
#include <cmath>
#include <cstring>

using namespace mirage;
using namespace mirage::superopt;

/// Rounds to a binary format with `precision` significand bits, minimum
/// normal exponent `minExp` and largest finite value `maxFinite`.
static inline double roundToFormat(double x, int precision, int minExp,
                                   double maxFinite) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0x7ff || x == 0.0) // inf, NaN, zero
    return x;
  if (biased - 1023 >= minExp) {
    // Normal range: round the significand bits directly, ties to even. A
    // carry out of the significand correctly bumps the exponent.
    unsigned drop = 52 - (precision - 1);
    uint64_t half = (uint64_t(1) << (drop - 1)) - 1;
    bits += half + ((bits >> drop) & 1);
    bits &= ~((uint64_t(1) << drop) - 1);
    double r;
    std::memcpy(&r, &bits, sizeof r);
    return std::fabs(r) > maxFinite ? std::copysign(INFINITY, x) : r;
  }
  // Subnormal: the unit in the last place is fixed at 2^(minExp -
  // precision + 1); scaling by it is exact and nearbyint rounds ties to even.
  double ulp = std::ldexp(1.0, minExp - precision + 1);
  return std::nearbyint(x / ulp) * ulp;
}

double mirage::superopt::roundToType(double x, mlir::Type floatType) {
  if (floatType.isF16())
    return roundToFormat(x, 11, -14, 65504.0);
  if (floatType.isBF16())
    return roundToFormat(x, 8, -126, 0x1.fep127);
  if (floatType.isF32())
    return static_cast<double>(static_cast<float>(x));
  return x;
}

void RealArithmetic::round(Value &v, mlir::Type elementType) const {
  // Index tensors (i32, i64) hold exact integers.
  if (mode != RealMode::Native || elementType.isF64() ||
      !llvm::isa<mlir::FloatType>(elementType))
    return;
  if (elementType.isF32()) {
    for (double &x : v.data)
      x = static_cast<float>(x);
    return;
  }
  // Decide the format once, not per element.
  bool f16 = elementType.isF16();
  int precision = f16 ? 11 : 8, minExp = f16 ? -14 : -126;
  double maxFinite = f16 ? 65504.0 : 0x1.fep127;
  for (double &x : v.data)
    x = roundToFormat(x, precision, minExp, maxFinite);
}

RealTensor RealArithmetic::matmul(const Value &a, const Value &b) const {
  int64_t rank = a.rank();
  int64_t m = a.shape[rank - 2], k = a.shape[rank - 1], n = b.shape[rank - 1];
  TensorShape shape(a.shape.begin(), a.shape.end() - 2);
  int64_t batch = numElements(shape);
  shape.append({m, n});
  Value c(shape);
  // Tiles of 16 rows x 512 columns of C stay in cache while B streams by
  // once per row tile; the inner loop vectorizes.
  constexpr int64_t kRows = 16, kCols = 512;
  for (int64_t bi = 0; bi < batch; ++bi) {
    const double *A = a.data.data() + bi * m * k;
    const double *B = b.data.data() + bi * k * n;
    double *C = c.data.data() + bi * m * n;
    for (int64_t i0 = 0; i0 < m; i0 += kRows)
      for (int64_t j0 = 0; j0 < n; j0 += kCols) {
        int64_t i1 = std::min(m, i0 + kRows), j1 = std::min(n, j0 + kCols);
        for (int64_t kk = 0; kk < k; ++kk) {
          const double *brow = B + kk * n;
          for (int64_t i = i0; i < i1; ++i) {
            double aik = A[i * k + kk];
            double *crow = C + i * n;
            for (int64_t j = j0; j < j1; ++j)
              crow[j] += aik * brow[j];
          }
        }
      }
  }
  return c;
}

/// 0.5 x (1 + erf(x / sqrt 2)) as 0.5 x erfc(-x / sqrt 2): 1 + erf cancels
/// for negative x (in fp64 all of it is gone below x = -8, where the value is
/// still a normal f32 number).
static double gelu(double x) {
  return 0.5 * x * std::erfc(-x * M_SQRT1_2);
}

RealTensor RealArithmetic::unary(UnaryKind kind, llvm::ArrayRef<double> params,
                                 const Value &x) const {
  Value r = x;
  auto map = [&](auto f) {
    for (double &v : r.data)
      v = f(v);
  };
  switch (kind) {
  case UnaryKind::exp:
    map([](double v) { return std::exp(v); });
    break;
  case UnaryKind::sqrt:
    map([](double v) { return std::sqrt(v); });
    break;
  case UnaryKind::square:
    map([](double v) { return v * v; });
    break;
  case UnaryKind::silu:
    map([](double v) { return v / (1.0 + std::exp(-v)); });
    break;
  case UnaryKind::gelu:
    map(gelu);
    break;
  case UnaryKind::relu:
    // NaN stays NaN, as in PyTorch and in the kernels (max.NaN).
    map([](double v) { return std::isnan(v) || v > 0.0 ? v : 0.0; });
    break;
  case UnaryKind::clamp: {
    double lo = params[0], hi = params[1];
    map([&](double v) { return std::min(std::max(v, lo), hi); });
    break;
  }
  case UnaryKind::scale: {
    double s = params[0];
    map([&](double v) { return v * s; });
    break;
  }
  case UnaryKind::pow: {
    double e = params[0];
    map([&](double v) { return std::pow(v, e); });
    break;
  }
  case UnaryKind::offset: {
    double c = params[0];
    map([&](double v) { return v + c; });
    break;
  }
  case UnaryKind::tanh:
    map([](double v) { return std::tanh(v); });
    break;
  case UnaryKind::sigmoid:
    map([](double v) { return 1.0 / (1.0 + std::exp(-v)); });
    break;
  case UnaryKind::erf:
    map([](double v) { return std::erf(v); });
    break;
  case UnaryKind::cast:
    // The value itself: the rounding to the result's element type is the
    // caller's, as for every op (bindResult; none in fp64).
    break;
  }
  return r;
}

RealTensor RealArithmetic::binary(BinaryKind kind, const Value &a,
                                  const Value &b) const {
  auto shape = inferBroadcastShape(std::nullopt, a.shape, b.shape);
  assert(succeeded(shape) && "operands verified to broadcast");
  Value r = broadcastTo(a, *shape);
  Value rhs = broadcastTo(b, *shape);
  double *x = r.data.data();
  const double *y = rhs.data.data();
  int64_t n = r.size();
  switch (kind) {
  case BinaryKind::add:
    for (int64_t i = 0; i < n; ++i)
      x[i] += y[i];
    break;
  case BinaryKind::sub:
    for (int64_t i = 0; i < n; ++i)
      x[i] -= y[i];
    break;
  case BinaryKind::mul:
    for (int64_t i = 0; i < n; ++i)
      x[i] *= y[i];
    break;
  case BinaryKind::div:
    for (int64_t i = 0; i < n; ++i)
      x[i] /= y[i];
    break;
  // --- comparisons (selectop): a 0/1 mask; NaN is unequal to everything.
  case BinaryKind::eq:
    for (int64_t i = 0; i < n; ++i)
      x[i] = x[i] == y[i] ? 1.0 : 0.0;
    break;
  case BinaryKind::ne:
    for (int64_t i = 0; i < n; ++i)
      x[i] = x[i] != y[i] ? 1.0 : 0.0;
    break;
  case BinaryKind::lt:
    for (int64_t i = 0; i < n; ++i)
      x[i] = x[i] < y[i] ? 1.0 : 0.0;
    break;
  case BinaryKind::le:
    for (int64_t i = 0; i < n; ++i)
      x[i] = x[i] <= y[i] ? 1.0 : 0.0;
    break;
  case BinaryKind::gt:
    for (int64_t i = 0; i < n; ++i)
      x[i] = x[i] > y[i] ? 1.0 : 0.0;
    break;
  case BinaryKind::ge:
    for (int64_t i = 0; i < n; ++i)
      x[i] = x[i] >= y[i] ? 1.0 : 0.0;
    break;
  }
  return r;
}

RealTensor RealArithmetic::select(const Value &cond, const Value &onTrue,
                                  const Value &onFalse) const {
  auto pair = inferBroadcastShape(std::nullopt, cond.shape, onTrue.shape);
  assert(succeeded(pair) && "operands verified to broadcast");
  auto shape = inferBroadcastShape(std::nullopt, *pair, onFalse.shape);
  assert(succeeded(shape) && "operands verified to broadcast");
  Value c = broadcastTo(cond, *shape);
  Value t = broadcastTo(onTrue, *shape);
  Value r = broadcastTo(onFalse, *shape);
  for (int64_t i = 0, n = r.size(); i < n; ++i)
    if (c.data[i] != 0.0) // a NaN condition takes on_true
      r.data[i] = t.data[i];
  return r;
}

RealTensor RealArithmetic::reduce(ReduceKind kind, const Value &x,
                                  int64_t dim) const {
  int64_t outer = numElements(llvm::ArrayRef(x.shape).take_front(dim));
  int64_t len = x.shape[dim];
  int64_t inner = numElements(llvm::ArrayRef(x.shape).drop_front(dim + 1));
  TensorShape shape = x.shape;
  shape[dim] = 1;
  // -0 is the identity of IEEE addition: a sum of -0 terms is -0.
  Value r(shape, kind == ReduceKind::sum ? -0.0 : -INFINITY);
  for (int64_t o = 0; o < outer; ++o) {
    double *out = r.data.data() + o * inner;
    for (int64_t j = 0; j < len; ++j) {
      const double *in = x.data.data() + (o * len + j) * inner;
      if (kind == ReduceKind::sum)
        for (int64_t i = 0; i < inner; ++i)
          out[i] += in[i];
      else // a NaN anywhere in the row is the row's max (torch.amax, max.NaN)
        for (int64_t i = 0; i < inner; ++i)
          out[i] = std::isnan(in[i]) || out[i] < in[i] ? in[i] : out[i];
    }
  }
  return r;
}

RealTensor RealArithmetic::softmax(const Value &x, int64_t dim) const {
  Value shifted = binary(BinaryKind::sub, x, reduce(ReduceKind::max, x, dim));
  Value e = unary(UnaryKind::exp, {}, shifted);
  return binary(BinaryKind::div, e, reduce(ReduceKind::sum, e, dim));
}
