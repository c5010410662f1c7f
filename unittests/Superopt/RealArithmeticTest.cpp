//===- RealArithmeticTest.cpp - fp64 and native-dtype arithmetic ----------===//
//
// roundToType against a reference that enumerates every value of the
// 16-bit formats, and the fp64 tensor primitives against plain loops.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"
#include <limits>
#include <algorithm>
#include <cstdio>
#include <cmath>
#include <random>

using namespace mirage;
using namespace mirage::superopt;

namespace {

using Shape = std::vector<int64_t>;

class RoundTest : public ::testing::Test {
protected:
  mlir::MLIRContext ctx;
  mlir::Type f16 = mlir::Float16Type::get(&ctx);
  mlir::Type bf16 = mlir::BFloat16Type::get(&ctx);
  mlir::Type f32 = mlir::Float32Type::get(&ctx);
  mlir::Type f64 = mlir::Float64Type::get(&ctx);
};

std::string hex(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

/// Same value and, for zeros, the same sign.
::testing::AssertionResult sameDouble(double got, double want) {
  if (std::isnan(want) ? std::isnan(got)
                       : got == want && std::signbit(got) == std::signbit(want))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got " << hex(got) << ", want " << hex(want);
}

TEST_F(RoundTest, F16ExactValues) {
  double u = std::ldexp(1.0, -11);
  // Half an ulp above 1: a tie, to the even significand 1.
  EXPECT_TRUE(sameDouble(roundToType(1 + u, f16), 1.0));
  // One and a half ulps: a tie between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
  EXPECT_TRUE(sameDouble(roundToType(1 + 3 * u, f16), 1 + std::ldexp(1.0, -9)));
  // Just above a tie rounds up.
  EXPECT_TRUE(sameDouble(roundToType(std::nextafter(1 + u, 2.0), f16),
                         1 + std::ldexp(1.0, -10)));
  EXPECT_TRUE(sameDouble(roundToType(65504.0, f16), 65504.0));
  EXPECT_TRUE(sameDouble(roundToType(65519.0, f16), 65504.0));
  EXPECT_TRUE(sameDouble(roundToType(65520.0, f16), INFINITY));
  EXPECT_TRUE(sameDouble(roundToType(-65520.0, f16), -INFINITY));
  EXPECT_TRUE(sameDouble(roundToType(1e10, f16), INFINITY));
  // The smallest subnormal stays; half of it is a tie to even, i.e. zero.
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(1.0, -24), f16),
                         std::ldexp(1.0, -24)));
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(1.0, -25), f16), 0.0));
  EXPECT_TRUE(sameDouble(roundToType(-std::ldexp(1.0, -25), f16), -0.0));
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(3.0, -26), f16),
                         std::ldexp(1.0, -24)));
  // 1.5 and 2.5 subnormal ulps: ties to 2 ulps both.
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(3.0, -25), f16),
                         std::ldexp(1.0, -23)));
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(5.0, -25), f16),
                         std::ldexp(1.0, -23)));
  // Just below the smallest normal rounds up to it.
  EXPECT_TRUE(sameDouble(
      roundToType(std::ldexp(1.0, -14) - std::ldexp(1.0, -25), f16),
      std::ldexp(1.0, -14)));
  // Negative values round symmetrically.
  EXPECT_TRUE(sameDouble(roundToType(-(1 + u), f16), -1.0));
  EXPECT_TRUE(sameDouble(roundToType(-(1 + 3 * u), f16),
                         -(1 + std::ldexp(1.0, -9))));
  EXPECT_TRUE(sameDouble(roundToType(0.1, f16), 0x1.998p-4));
  EXPECT_TRUE(sameDouble(roundToType(-0.0, f16), -0.0));
  EXPECT_TRUE(std::isnan(roundToType(NAN, f16)));
  EXPECT_TRUE(sameDouble(roundToType(INFINITY, f16), INFINITY));
}

TEST_F(RoundTest, BF16ExactValues) {
  EXPECT_TRUE(sameDouble(roundToType(1 + std::ldexp(1.0, -8), bf16), 1.0));
  EXPECT_TRUE(sameDouble(roundToType(1 + std::ldexp(3.0, -8), bf16),
                         1 + std::ldexp(1.0, -6)));
  EXPECT_TRUE(sameDouble(roundToType(-(1 + std::ldexp(1.0, -8)), bf16), -1.0));
  // 3.14159 -> 3.140625 (8 significant bits).
  EXPECT_TRUE(sameDouble(roundToType(3.14159, bf16), 3.140625));
  // The largest finite bf16 and the overflow tie above it.
  EXPECT_TRUE(sameDouble(roundToType(0x1.fep127, bf16), 0x1.fep127));
  EXPECT_TRUE(sameDouble(roundToType(0x1.ffp127, bf16), INFINITY));
  EXPECT_TRUE(sameDouble(roundToType(0x1.fefp127, bf16), 0x1.fep127));
  // Subnormals: the smallest is 2^-133.
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(1.0, -133), bf16),
                         std::ldexp(1.0, -133)));
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(1.0, -134), bf16), 0.0));
  EXPECT_TRUE(std::isnan(roundToType(NAN, bf16)));
}

TEST_F(RoundTest, F32AndF64ExactValues) {
  EXPECT_TRUE(sameDouble(roundToType(1 + std::ldexp(1.0, -24), f32), 1.0));
  EXPECT_TRUE(sameDouble(roundToType(1 + std::ldexp(3.0, -24), f32),
                         1 + std::ldexp(1.0, -22)));
  EXPECT_TRUE(sameDouble(roundToType(0x1.fffffep127, f32), 0x1.fffffep127));
  EXPECT_TRUE(sameDouble(roundToType(0x1.ffffffp127, f32), INFINITY));
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(1.0, -149), f32),
                         std::ldexp(1.0, -149)));
  EXPECT_TRUE(sameDouble(roundToType(std::ldexp(1.0, -150), f32), 0.0));
  EXPECT_TRUE(sameDouble(roundToType(-1 - std::ldexp(1.0, -24), f32), -1.0));
  EXPECT_TRUE(std::isnan(roundToType(NAN, f32)));
  // f64 is the identity.
  double odd = 1 + std::ldexp(1.0, -52);
  EXPECT_TRUE(sameDouble(roundToType(odd, f64), odd));
}

/// A 16-bit format given by decoding its bit patterns: the positive values,
/// in pattern order (which is increasing order), with the first infinite
/// pattern standing for the value 2^(emax+1) that overflowing ties round to.
struct Format16 {
  std::vector<double> values; // index = bit pattern, 0 .. infPattern
  unsigned infPattern;
};

Format16 f16Values() {
  Format16 f;
  f.infPattern = 0x7c00;
  for (unsigned h = 0; h <= f.infPattern; ++h) {
    unsigned e = h >> 10, m = h & 1023;
    f.values.push_back(e == 0 ? std::ldexp(double(m), -24)
                              : std::ldexp(double(1024 + m), int(e) - 25));
  }
  return f;
}

Format16 bf16Values() {
  Format16 f;
  f.infPattern = 0x7f80;
  for (unsigned h = 0; h <= f.infPattern; ++h) {
    unsigned e = h >> 7, m = h & 127;
    f.values.push_back(e == 0 ? std::ldexp(double(m), -133)
                              : std::ldexp(double(128 + m), int(e) - 134));
  }
  return f;
}

/// Round to nearest, ties to the even bit pattern, by search in the table.
double roundReference(const Format16 &f, double x) {
  if (std::isnan(x))
    return x;
  double a = std::fabs(x), r;
  if (a >= f.values.back()) {
    r = INFINITY;
  } else {
    size_t k = std::upper_bound(f.values.begin(), f.values.end(), a) -
               f.values.begin() - 1;
    double lo = f.values[k], hi = f.values[k + 1];
    // lo + hi and 2a are exact in double.
    size_t pick = 2 * a < lo + hi ? k : 2 * a > lo + hi ? k + 1
                                    : (k % 2 == 0 ? k : k + 1);
    r = pick == f.infPattern ? INFINITY : f.values[pick];
  }
  return std::copysign(r, x);
}

void sweep(const Format16 &f, mlir::Type type, double logLo, double logHi) {
  std::vector<double> xs;
  for (size_t k = 0; k + 1 < f.values.size(); ++k) {
    double mid = (f.values[k] + f.values[k + 1]) / 2;
    xs.push_back(f.values[k]);
    xs.push_back(mid);
    xs.push_back(std::nextafter(mid, 0.0));
    xs.push_back(std::nextafter(mid, INFINITY));
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> logs(logLo, logHi);
  for (int i = 0; i < 20000; ++i)
    xs.push_back(std::exp2(logs(rng)));
  unsigned failures = 0;
  for (double x : xs)
    for (double s : {x, -x}) {
      double want = roundReference(f, s), got = roundToType(s, type);
      auto same = sameDouble(got, want);
      if (!same && ++failures <= 5)
        ADD_FAILURE() << "x = " << hex(s) << ": "
                      << same.message();
    }
  EXPECT_EQ(failures, 0u);
}

TEST_F(RoundTest, F16EveryValueAndTie) {
  sweep(f16Values(), f16, -30, 17);
}

TEST_F(RoundTest, BF16EveryValueAndTie) {
  sweep(bf16Values(), bf16, -140, 129);
}

TEST_F(RoundTest, NativeModeRoundsTensors) {
  RealTensor t(Shape{3}, std::vector<double>{1 + std::ldexp(1.0, -11), 65520.0,
                                        std::ldexp(1.0, -25)});
  RealArithmetic native(RealMode::Native), fp64(RealMode::FP64);
  RealTensor a = t, b = t, c = t;
  native.round(a, f16);
  EXPECT_EQ(a.data, (std::vector<double>{1.0, INFINITY, 0.0}));
  fp64.round(b, f16); // fp64 mode never rounds
  EXPECT_EQ(b.data, t.data);
  native.round(c, f64);
  EXPECT_EQ(c.data, t.data);
  RealTensor d(Shape{1}, std::vector<double>{1 + std::ldexp(1.0, -30)});
  native.round(d, f32);
  EXPECT_EQ(d.data[0], 1.0);
}

//===----------------------------------------------------------------------===//
// Tensor primitives in fp64
//===----------------------------------------------------------------------===//


RealTensor randomTensor(const Shape &shape, std::mt19937_64 &rng,
                        double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> dist(lo, hi);
  RealTensor t(shape);
  for (double &v : t.data)
    v = dist(rng);
  return t;
}

Shape shapeOf(const RealTensor &t) { return Shape(t.shape.begin(), t.shape.end()); }

void expectNear(const RealTensor &got, const RealTensor &want, double tol,
                const char *what) {
  ASSERT_EQ(shapeOf(got), shapeOf(want)) << what;
  unsigned failures = 0;
  for (int64_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(got.data[i] - want.data[i]) <=
          tol * std::max(1.0, std::fabs(want.data[i]))) &&
        ++failures <= 5)
      ADD_FAILURE() << what << " at " << i << ": got " << got.data[i]
                    << ", want " << want.data[i];
  EXPECT_EQ(failures, 0u) << what;
}

void checkMatmul(const Shape &batch, int64_t m, int64_t k, int64_t n) {
  std::mt19937_64 rng(m * 1000 + k * 10 + n);
  Shape as = batch, bs = batch;
  as.insert(as.end(), {m, k});
  bs.insert(bs.end(), {k, n});
  RealTensor a = randomTensor(as, rng), b = randomTensor(bs, rng);
  int64_t nb = 1;
  for (int64_t d : batch)
    nb *= d;
  Shape cs = batch;
  cs.insert(cs.end(), {m, n});
  RealTensor want(cs);
  for (int64_t p = 0; p < nb; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t l = 0; l < k; ++l)
          s += a.data[(p * m + i) * k + l] * b.data[(p * k + l) * n + j];
        want.data[(p * m + i) * n + j] = s;
      }
  RealArithmetic arith(RealMode::FP64);
  expectNear(arith.matmul(a, b), want, 1e-12, "matmul");
}

TEST(RealArithmeticTest, MatmulOddSizesBatched) { checkMatmul({2}, 3, 5, 7); }
TEST(RealArithmeticTest, MatmulRank4Batch) { checkMatmul({2, 3}, 4, 6, 5); }
TEST(RealArithmeticTest, MatmulBeyondTiles) { checkMatmul({}, 20, 33, 530); }
TEST(RealArithmeticTest, MatmulBatchBeyondTiles) { checkMatmul({2}, 17, 9, 513); }

TEST(RealArithmeticTest, MatmulExactSmall) {
  // [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]].
  RealArithmetic arith(RealMode::FP64);
  RealTensor a(Shape{2, 2}, std::vector<double>{1, 2, 3, 4});
  RealTensor b(Shape{2, 2}, std::vector<double>{5, 6, 7, 8});
  EXPECT_EQ(arith.matmul(a, b).data, (std::vector<double>{19, 22, 43, 50}));
}

TEST(RealArithmeticTest, BinaryBroadcasting) {
  std::mt19937_64 rng(3);
  RealTensor a = randomTensor({2, 1, 4}, rng), b = randomTensor({3, 1}, rng, 0.5, 2);
  RealArithmetic arith(RealMode::FP64);
  for (BinaryKind kind :
       {BinaryKind::add, BinaryKind::sub, BinaryKind::mul, BinaryKind::div}) {
    RealTensor want(Shape{2, 3, 4});
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t l = 0; l < 4; ++l) {
          double x = a.data[i * 4 + l], y = b.data[j];
          double r = kind == BinaryKind::add   ? x + y
                     : kind == BinaryKind::sub ? x - y
                     : kind == BinaryKind::mul ? x * y
                                               : x / y;
          want.data[(i * 3 + j) * 4 + l] = r;
        }
    expectNear(arith.binary(kind, a, b), want, 0, "binary");
    // Operand order matters for sub and div: b op a broadcasts too.
    RealTensor swapped = arith.binary(kind, b, a);
    ASSERT_EQ(shapeOf(swapped), (Shape{2, 3, 4}));
    for (int64_t i = 0; i < want.size(); ++i) {
      if (kind == BinaryKind::sub) {
        EXPECT_EQ(swapped.data[i], -want.data[i]);
      } else if (kind == BinaryKind::div) {
        EXPECT_NEAR(swapped.data[i] * want.data[i], 1.0, 1e-15);
      } else {
        EXPECT_EQ(swapped.data[i], want.data[i]);
      }
    }
  }
  // A rank-0 constant broadcasts to anything.
  RealTensor c = arith.binary(BinaryKind::mul, a, arith.constant(3.0));
  for (int64_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(c.data[i], a.data[i] * 3.0);
}

TEST(RealArithmeticTest, ComparisonsAreMasksAndSelectBroadcasts) {
  RealArithmetic arith(RealMode::FP64);
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  RealTensor a(Shape{5}, std::vector<double>{1, 2, 3, nan, -inf});
  RealTensor b(Shape{5}, std::vector<double>{2, 2, 2, nan, -inf});
  auto mask = [&](BinaryKind kind) { return arith.binary(kind, a, b).data; };
  using V = std::vector<double>;
  // NaN is unequal to everything, itself included.
  EXPECT_EQ(mask(BinaryKind::eq), (V{0, 1, 0, 0, 1}));
  EXPECT_EQ(mask(BinaryKind::ne), (V{1, 0, 1, 1, 0}));
  EXPECT_EQ(mask(BinaryKind::lt), (V{1, 0, 0, 0, 0}));
  EXPECT_EQ(mask(BinaryKind::le), (V{1, 1, 0, 0, 1}));
  EXPECT_EQ(mask(BinaryKind::gt), (V{0, 0, 1, 0, 0}));
  EXPECT_EQ(mask(BinaryKind::ge), (V{0, 1, 1, 0, 1}));
  // [2, 1] condition, [1, 3] values, a rank-0 fill: a [2, 3] result; the
  // fill's NaN never reaches a position the condition takes from on_true,
  // and a NaN condition counts as true.
  RealTensor cond(Shape{2, 1}, std::vector<double>{0, nan});
  RealTensor x(Shape{1, 3}, std::vector<double>{4, 5, 6});
  RealTensor y = arith.select(cond, x, arith.constant(nan));
  ASSERT_EQ(shapeOf(y), (Shape{2, 3}));
  for (int64_t j = 0; j < 3; ++j) {
    EXPECT_TRUE(std::isnan(y.data[j]));
    EXPECT_EQ(y.data[3 + j], x.data[j]);
  }
}

TEST(RealArithmeticTest, ReduceSumAndMaxAlongEachDim) {
  std::mt19937_64 rng(4);
  Shape xs{3, 4, 5};
  RealTensor x = randomTensor(xs, rng, -5, -1); // all negative: max > 0 bugs show
  RealArithmetic arith(RealMode::FP64);
  for (int64_t dim = 0; dim < 3; ++dim)
    for (ReduceKind kind : {ReduceKind::sum, ReduceKind::max}) {
      Shape rs = xs;
      rs[dim] = 1;
      RealTensor want(rs);
      for (int64_t i = 0; i < rs[0]; ++i)
        for (int64_t j = 0; j < rs[1]; ++j)
          for (int64_t l = 0; l < rs[2]; ++l) {
            double acc = kind == ReduceKind::sum ? 0 : -INFINITY;
            for (int64_t t = 0; t < xs[dim]; ++t) {
              int64_t I[3] = {i, j, l};
              I[dim] = t;
              double v = x.data[(I[0] * 4 + I[1]) * 5 + I[2]];
              acc = kind == ReduceKind::sum ? acc + v : std::max(acc, v);
            }
            want.data[(i * rs[1] + j) * rs[2] + l] = acc;
          }
      expectNear(arith.reduce(kind, x, dim), want, 1e-14,
                 kind == ReduceKind::sum ? "reduce sum" : "reduce max");
    }
}

TEST(RealArithmeticTest, ReluClampAndReduceMaxPropagateNan) {
  // PyTorch's relu, clamp and amax keep a NaN, and so do the kernels
  // (max.NaN); an interpreter that dropped it would call a kernel that
  // keeps it wrong, or accept a rewrite that hides one.
  RealArithmetic arith(RealMode::FP64);
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  RealTensor x(Shape{2, 3}, std::vector<double>{-1, nan, 2, nan, -inf, -3});
  RealTensor r = arith.unary(UnaryKind::relu, {}, x);
  EXPECT_EQ(r.data[0], 0.0);
  EXPECT_TRUE(std::isnan(r.data[1]));
  EXPECT_EQ(r.data[2], 2.0);
  EXPECT_TRUE(std::isnan(r.data[3]));
  EXPECT_EQ(r.data[4], 0.0);
  RealTensor c = arith.unary(UnaryKind::clamp, {-2.0, 1.0}, x);
  EXPECT_TRUE(std::isnan(c.data[1]));
  EXPECT_EQ(c.data[4], -2.0);
  // NaN first, in the middle, or last in a row: the row's max is NaN.
  for (int64_t dim : {0, 1}) {
    RealTensor m = arith.reduce(ReduceKind::max, x, dim);
    for (double v : m.data)
      if (dim == 1)
        EXPECT_TRUE(std::isnan(v)) << dim;
    if (dim == 0) {
      ASSERT_EQ(m.data.size(), 3u);
      EXPECT_TRUE(std::isnan(m.data[0]));
      EXPECT_TRUE(std::isnan(m.data[1]));
      EXPECT_EQ(m.data[2], 2.0);
    }
  }
  RealTensor tail(Shape{3}, std::vector<double>{1, 2, nan});
  EXPECT_TRUE(std::isnan(arith.reduce(ReduceKind::max, tail, 0).data[0]));
}

TEST(RealArithmeticTest, Softmax) {
  std::mt19937_64 rng(5);
  RealTensor x = randomTensor({3, 6}, rng, -3, 3);
  x.data[0] = 800; // exp(800) overflows: only a max-shifted softmax survives
  RealArithmetic arith(RealMode::FP64);
  for (int64_t dim = 0; dim < 2; ++dim) {
    RealTensor r = arith.softmax(x, dim);
    ASSERT_EQ(shapeOf(r), (Shape{3, 6}));
    int64_t rows = dim == 1 ? 3 : 6, len = dim == 1 ? 6 : 3;
    auto at = [&](int64_t row, int64_t t) {
      return dim == 1 ? row * 6 + t : t * 6 + row;
    };
    for (int64_t row = 0; row < rows; ++row) {
      double mx = -INFINITY, sum = 0, total = 0;
      for (int64_t t = 0; t < len; ++t)
        mx = std::max(mx, x.data[at(row, t)]);
      for (int64_t t = 0; t < len; ++t)
        sum += std::exp(x.data[at(row, t)] - mx);
      for (int64_t t = 0; t < len; ++t) {
        double want = std::exp(x.data[at(row, t)] - mx) / sum;
        EXPECT_NEAR(r.data[at(row, t)], want, 1e-15) << dim << " " << row;
        total += r.data[at(row, t)];
      }
      EXPECT_NEAR(total, 1.0, 1e-14);
    }
  }
  EXPECT_NEAR(arith.softmax(x, 1).data[0], 1.0, 1e-15);
}

TEST(RealArithmeticTest, UnaryKinds) {
  RealArithmetic arith(RealMode::FP64);
  RealTensor x(Shape{6}, std::vector<double>{-2, -1, 0, 0.5, 1, 4});
  auto run = [&](UnaryKind kind, std::vector<double> params = {}) {
    return arith.unary(kind, params, x).data;
  };
  // Reference values: Phi(1) = 0.841344746068543, Phi(2) = 0.977249868051821.
  std::vector<double> gelu = run(UnaryKind::gelu);
  EXPECT_NEAR(gelu[4], 0.8413447460685429, 1e-15);
  EXPECT_NEAR(gelu[1], -(1 - 0.8413447460685429), 1e-15);
  EXPECT_NEAR(gelu[0], -2 * (1 - 0.9772498680518208), 1e-15);
  EXPECT_EQ(gelu[2], 0.0);
  // gelu with erf, not the tanh approximation: they differ by ~1e-4 at 1.
  double tanhApprox = 0.5 * (1 + std::tanh(std::sqrt(2 / M_PI) * (1 + 0.044715)));
  EXPECT_GT(std::fabs(gelu[4] - tanhApprox), 1e-5);

  std::vector<double> silu = run(UnaryKind::silu);
  for (size_t i = 0; i < x.data.size(); ++i) {
    double v = x.data[i];
    EXPECT_NEAR(silu[i], v * (1 / (1 + std::exp(-v))), 1e-15) << v;
  }
  EXPECT_NEAR(silu[4], 0.7310585786300049, 1e-15);

  EXPECT_EQ(run(UnaryKind::clamp, {-1.5, 0.75}),
            (std::vector<double>{-1.5, -1, 0, 0.5, 0.75, 0.75}));
  EXPECT_EQ(run(UnaryKind::relu), (std::vector<double>{0, 0, 0, 0.5, 1, 4}));
  EXPECT_EQ(run(UnaryKind::square), (std::vector<double>{4, 1, 0, 0.25, 1, 16}));
  EXPECT_EQ(run(UnaryKind::scale, {-0.5}),
            (std::vector<double>{1, 0.5, -0.0, -0.25, -0.5, -2}));

  // tanh(1) = 0.7615941559557649, sigmoid(1) = 0.7310585786300049 (as
  // silu(1) above); tanh(x) = 2 sigmoid(2x) - 1 everywhere.
  std::vector<double> th = run(UnaryKind::tanh), sg = run(UnaryKind::sigmoid);
  EXPECT_NEAR(th[4], 0.7615941559557649, 1e-15);
  EXPECT_EQ(th[2], 0.0);
  EXPECT_NEAR(sg[4], 0.7310585786300049, 1e-15);
  EXPECT_EQ(sg[2], 0.5);
  for (size_t i = 0; i < x.data.size(); ++i)
    EXPECT_NEAR(th[i], 2 / (1 + std::exp(-2 * x.data[i])) - 1, 1e-15);
  EXPECT_EQ(run(UnaryKind::offset, {0.25}),
            (std::vector<double>{-1.75, -0.75, 0.25, 0.75, 1.25, 4.25}));

  std::vector<double> pw = run(UnaryKind::pow, {2.5});
  EXPECT_TRUE(std::isnan(pw[0])); // negative base, non-integer exponent
  EXPECT_EQ(pw[2], 0.0);
  EXPECT_NEAR(pw[3], std::sqrt(0.5) * 0.25, 1e-16);
  EXPECT_EQ(pw[4], 1.0);
  EXPECT_EQ(pw[5], 32.0);
  std::vector<double> cube = run(UnaryKind::pow, {3.0});
  EXPECT_EQ(cube[0], -8.0);

  std::vector<double> e = run(UnaryKind::exp);
  EXPECT_NEAR(e[4], 2.718281828459045, 1e-15);
  EXPECT_EQ(e[2], 1.0);
  RealTensor pos(Shape{3}, std::vector<double>{0, 2.25, 16});
  EXPECT_EQ(arith.unary(UnaryKind::sqrt, {}, pos).data,
            (std::vector<double>{0, 1.5, 4}));
}

// erf and cast (issue 24): erf(1) = 0.8427007929497149, odd; a cast is the
// identity on values, its rounding that of the result's type (round()).
TEST(RealArithmeticTest, ErfAndCast) {
  RealArithmetic arith(RealMode::FP64);
  RealTensor x(Shape{4}, std::vector<double>{-1, 0, 1, 1.0 / 3});
  std::vector<double> erf = arith.unary(UnaryKind::erf, {}, x).data;
  EXPECT_NEAR(erf[2], 0.8427007929497149, 1e-15);
  EXPECT_EQ(erf[0], -erf[2]);
  EXPECT_EQ(erf[1], 0.0);
  EXPECT_EQ(arith.unary(UnaryKind::cast, {}, x).data, x.data);

  mlir::MLIRContext ctx;
  RealArithmetic native(RealMode::Native);
  RealTensor c = native.unary(UnaryKind::cast, {}, x);
  native.round(c, mlir::BFloat16Type::get(&ctx));
  // 1/3 in bf16 (8 significant bits): 0.333984375.
  EXPECT_EQ(c.data[3], 0.333984375);
  RealTensor h = native.unary(UnaryKind::cast, {}, x);
  native.round(h, mlir::Float16Type::get(&ctx));
  EXPECT_EQ(h.data[3], 0.333251953125); // 1/3 in f16 (11 bits)
  RealTensor f = arith.unary(UnaryKind::cast, {}, x);
  arith.round(f, mlir::BFloat16Type::get(&ctx));
  EXPECT_EQ(f.data[3], 1.0 / 3); // fp64 mode never rounds
}

} // namespace
