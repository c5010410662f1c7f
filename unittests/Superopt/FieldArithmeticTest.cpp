//===- FieldArithmeticTest.cpp - finite-field fingerprints of tensors -----===//
//
// FieldArithmetic over FieldPair::create(31) (p < 2^32: the vectorized
// paths), create(61) (p close to 2^63: the 128-bit paths) and create(62)
// (p just below 2^64, the widest the header allows), against naive modular
// loops written with mulMod/powMod.
//
// Regression tests for two overflows (fixed in 0dd48ad): create(61) gives
// p = 4 q + 1 = 9223372036854774893 (about 2^63), where the 128-bit matmul
// accumulators wrapped when reduced only every 16 steps (MatmulBeyondTiles,
// MatmulLongAccumulation, MatmulLargestResidues); create(62) gives p just
// below 2^64, where a + b of two residues wrapped (AddOfLargestResidues).
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/FieldArithmetic.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace mirage;
using namespace mirage::superopt;

namespace {

using Shape = std::vector<int64_t>;
using u128 = unsigned __int128;

Tensor<uint64_t> randomResidues(const Shape &shape, uint64_t m,
                                std::mt19937_64 &rng) {
  std::uniform_int_distribution<uint64_t> dist(0, m - 1);
  Tensor<uint64_t> t(shape);
  for (uint64_t &v : t.data)
    v = dist(rng);
  return t;
}

uint64_t addRef(uint64_t a, uint64_t b, uint64_t m) {
  return static_cast<uint64_t>((u128(a) + b) % m);
}
uint64_t invRef(uint64_t a, uint64_t m) { return powMod(a, m - 2, m); }

/// Batched [B, M, K] x [B, K, N] modulo m, one product at a time.
std::vector<uint64_t> matmulRef(const Tensor<uint64_t> &a,
                                const Tensor<uint64_t> &b, int64_t batch,
                                int64_t m, int64_t k, int64_t n,
                                uint64_t mod) {
  std::vector<uint64_t> c(batch * m * n);
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        uint64_t s = 0;
        for (int64_t l = 0; l < k; ++l)
          s = addRef(s,
                     mulMod(a.data[(p * m + i) * k + l],
                            b.data[(p * k + l) * n + j], mod),
                     mod);
        c[(p * m + i) * n + j] = s;
      }
  return c;
}

/// Counts mismatches and reports the first few.
template <typename Want>
unsigned compare(const std::vector<uint64_t> &got, const Want &want,
                 const std::string &what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  unsigned failures = 0;
  for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
    if (got[i] != want[i] && ++failures <= 3)
      ADD_FAILURE() << what << " at " << i << ": got " << got[i] << ", want "
                    << want[i];
  return failures;
}

class FieldArithmeticTest : public ::testing::TestWithParam<unsigned> {
protected:
  void SetUp() override {
    auto created = FieldPair::create(GetParam());
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    field = std::make_unique<FieldPair>(*created);
  }
  uint64_t p() const { return field->p(); }
  uint64_t q() const { return field->q(); }

  FieldTensor random(const Shape &shape, std::mt19937_64 &rng,
                     bool withQ = true) {
    FieldTensor t;
    t.p = randomResidues(shape, p(), rng);
    if (withQ)
      t.q = randomResidues(shape, q(), rng);
    return t;
  }

  void checkMatmul(const Shape &batch, int64_t m, int64_t k, int64_t n) {
    std::mt19937_64 rng(m * 7919 + k * 31 + n);
    int64_t nb = 1;
    for (int64_t d : batch)
      nb *= d;
    Shape as = batch, bs = batch;
    as.insert(as.end(), {m, k});
    bs.insert(bs.end(), {k, n});
    FieldTensor a = random(as, rng), b = random(bs, rng);
    FieldArithmetic arith(*field, 1);
    FieldTensor c = arith.matmul(a, b);
    Shape cs = batch;
    cs.insert(cs.end(), {m, n});
    ASSERT_EQ(Shape(c.p.shape.begin(), c.p.shape.end()), cs);
    ASSERT_TRUE(c.hasQ());
    std::string size = std::to_string(m) + "x" + std::to_string(k) + "x" +
                       std::to_string(n);
    EXPECT_EQ(compare(c.p.data, matmulRef(a.p, b.p, nb, m, k, n, p()),
                      "Z_p matmul " + size),
              0u);
    EXPECT_EQ(compare(c.q.data, matmulRef(a.q, b.q, nb, m, k, n, q()),
                      "Z_q matmul " + size),
              0u);
  }

  std::unique_ptr<FieldPair> field;
};

TEST_P(FieldArithmeticTest, MatmulSmallBatched) { checkMatmul({2}, 3, 5, 7); }

TEST_P(FieldArithmeticTest, MatmulBeyondTiles) {
  // 18 rows and 270 columns: two row tiles of 16 and two column tiles of 256.
  checkMatmul({}, 18, 40, 270);
}

TEST_P(FieldArithmeticTest, MatmulLongAccumulation) {
  checkMatmul({}, 3, 3000, 5);
}

TEST_P(FieldArithmeticTest, MatmulLargestResidues) {
  // Every element m - 1 = -1: each entry of A B is k * (-1)^2 = k. The
  // largest products show any overflow of the accumulators.
  FieldArithmetic arith(*field, 1);
  for (int64_t k : {1, 2, 15, 16, 17, 33, 3000}) {
    FieldTensor a{Tensor<uint64_t>(Shape{2, k}, p() - 1),
                  Tensor<uint64_t>(Shape{2, k}, q() - 1)};
    FieldTensor b{Tensor<uint64_t>(Shape{k, 3}, p() - 1),
                  Tensor<uint64_t>(Shape{k, 3}, q() - 1)};
    FieldTensor c = arith.matmul(a, b);
    for (uint64_t v : c.p.data)
      EXPECT_EQ(v, uint64_t(k) % p()) << "Z_p, k = " << k;
    for (uint64_t v : c.q.data)
      EXPECT_EQ(v, uint64_t(k) % q()) << "Z_q, k = " << k;
  }
}

TEST_P(FieldArithmeticTest, MatmulWithoutExponentParts) {
  std::mt19937_64 rng(9);
  FieldTensor a = random({2, 3}, rng, /*withQ=*/false), b = random({3, 2}, rng);
  FieldArithmetic arith(*field, 1);
  FieldTensor c = arith.matmul(a, b);
  EXPECT_FALSE(c.hasQ());
  EXPECT_EQ(compare(c.p.data, matmulRef(a.p, b.p, 1, 2, 3, 2, p()), "Z_p"), 0u);
}

TEST_P(FieldArithmeticTest, BinaryAddSubMulBroadcast) {
  std::mt19937_64 rng(10);
  FieldTensor a = random({2, 1, 4}, rng), b = random({3, 1}, rng);
  FieldArithmetic arith(*field, 1);
  for (BinaryKind kind : {BinaryKind::add, BinaryKind::sub, BinaryKind::mul}) {
    FieldTensor r = arith.binary(kind, a, b);
    ASSERT_TRUE(r.hasQ());
    for (int part = 0; part < 2; ++part) {
      uint64_t m = part ? q() : p();
      const Tensor<uint64_t> &x = part ? a.q : a.p, &y = part ? b.q : b.p;
      std::vector<uint64_t> want;
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j)
          for (int64_t l = 0; l < 4; ++l) {
            uint64_t u = x.data[i * 4 + l], v = y.data[j];
            want.push_back(kind == BinaryKind::add   ? addRef(u, v, m)
                           : kind == BinaryKind::sub ? addRef(u, m - v, m)
                                                     : mulMod(u, v, m));
          }
      EXPECT_EQ(compare(part ? r.q.data : r.p.data, want,
                        part ? "Z_q binary" : "Z_p binary"),
                0u);
    }
  }
}

TEST_P(FieldArithmeticTest, ComparisonsAndSelectAreUninterpreted) {
  // Keyed functions of the operands' Z_p values: equal arguments give equal
  // images (in both fields), another kind, another operand order, another
  // key or any other argument gives independent ones.
  std::mt19937_64 rng(12);
  FieldTensor a = random({2, 1, 4}, rng), b = random({3, 1}, rng);
  FieldArithmetic arith(*field, 1), other(*field, 2);
  FieldTensor lt = arith.binary(BinaryKind::lt, a, b);
  ASSERT_EQ(Shape(lt.p.shape.begin(), lt.p.shape.end()), (Shape{2, 3, 4}));
  ASSERT_TRUE(lt.hasQ());
  EXPECT_EQ(arith.binary(BinaryKind::lt, a, b).p.data, lt.p.data);
  EXPECT_EQ(arith.binary(BinaryKind::lt, a, b).q.data, lt.q.data);
  auto differsEverywhere = [](const FieldTensor &x, const FieldTensor &y) {
    for (size_t i = 0; i < x.p.data.size(); ++i)
      if (x.p.data[i] == y.p.data[i])
        return false;
    return true;
  };
  EXPECT_TRUE(differsEverywhere(lt, arith.binary(BinaryKind::le, a, b)));
  EXPECT_TRUE(differsEverywhere(lt, arith.binary(BinaryKind::gt, b, a)));
  EXPECT_TRUE(differsEverywhere(lt, other.binary(BinaryKind::lt, a, b)));
  // Positions with equal arguments agree, the others do not.
  FieldTensor u{Tensor<uint64_t>(Shape{3}, std::vector<uint64_t>{5, 5, 7}), {}};
  FieldTensor v{Tensor<uint64_t>(Shape{3}, std::vector<uint64_t>{9, 9, 9}), {}};
  FieldTensor ne = arith.binary(BinaryKind::ne, u, v);
  EXPECT_EQ(ne.p.data[0], ne.p.data[1]);
  EXPECT_NE(ne.p.data[0], ne.p.data[2]);
  EXPECT_FALSE(arith.hitZeroDivisor());

  FieldTensor c = random({2, 1, 1}, rng);
  FieldTensor s = arith.select(c, a, b);
  ASSERT_EQ(Shape(s.p.shape.begin(), s.p.shape.end()), (Shape{2, 3, 4}));
  EXPECT_EQ(arith.select(c, a, b).p.data, s.p.data);
  EXPECT_TRUE(differsEverywhere(s, arith.select(c, b, a)));
  EXPECT_TRUE(differsEverywhere(s, arith.select(a, c, b)));
}

TEST_P(FieldArithmeticTest, AddOfLargestResidues) {
  // (m - 1) + (m - 1) = m - 2: the sum of two residues must not wrap.
  FieldArithmetic arith(*field, 1);
  FieldTensor a{Tensor<uint64_t>(Shape{2}, p() - 1), Tensor<uint64_t>(Shape{2}, q() - 1)};
  FieldTensor r = arith.binary(BinaryKind::add, a, a);
  EXPECT_EQ(r.p.data[0], p() - 2);
  EXPECT_EQ(r.q.data[0], q() - 2);
  FieldTensor s = arith.reduce(ReduceKind::sum, a, 0);
  EXPECT_EQ(s.p.data[0], p() - 2);
}

TEST_P(FieldArithmeticTest, DivIsMulByInverse) {
  std::mt19937_64 rng(11);
  FieldTensor a = random({3, 4}, rng), b = random({3, 1}, rng);
  for (uint64_t &v : b.p.data)
    v = v ? v : 1;
  for (uint64_t &v : b.q.data)
    v = v ? v : 1;
  FieldArithmetic arith(*field, 1);
  FieldTensor r = arith.binary(BinaryKind::div, a, b);
  EXPECT_FALSE(arith.hitZeroDivisor());
  ASSERT_TRUE(r.hasQ());
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      EXPECT_EQ(r.p.data[i * 4 + j],
                mulMod(a.p.data[i * 4 + j], invRef(b.p.data[i], p()), p()));
      EXPECT_EQ(r.q.data[i * 4 + j],
                mulMod(a.q.data[i * 4 + j], invRef(b.q.data[i], q()), q()));
      // Multiplying back gives the dividend.
      EXPECT_EQ(mulMod(r.p.data[i * 4 + j], b.p.data[i], p()),
                a.p.data[i * 4 + j]);
    }
}

TEST_P(FieldArithmeticTest, DivByZeroIsFlagged) {
  std::mt19937_64 rng(12);
  FieldTensor a = random({4}, rng), b = random({4}, rng);
  for (uint64_t &v : b.p.data)
    v = v ? v : 1;
  for (uint64_t &v : b.q.data)
    v = v ? v : 1;
  b.p.data[2] = 0;
  FieldArithmetic arith(*field, 1);
  FieldTensor r = arith.binary(BinaryKind::div, a, b);
  EXPECT_TRUE(arith.hitZeroDivisor());
  // The other elements are still right.
  EXPECT_EQ(r.p.data[1], mulMod(a.p.data[1], invRef(b.p.data[1], p()), p()));
  EXPECT_EQ(r.p.data[3], mulMod(a.p.data[3], invRef(b.p.data[3], p()), p()));

  // A zero only in the exponent part is a zero divisor too.
  FieldTensor c = random({4}, rng);
  for (uint64_t &v : c.p.data)
    v = v ? v : 1;
  c.q.data = {0, 1, 2, 3};
  FieldArithmetic other(*field, 1);
  other.binary(BinaryKind::div, a, c);
  EXPECT_TRUE(other.hitZeroDivisor());

  // A negative integer power of zero as well.
  FieldArithmetic third(*field, 1);
  FieldTensor z{Tensor<uint64_t>(Shape{2}, std::vector<uint64_t>{0, 5}), {}};
  FieldTensor inv = third.unary(UnaryKind::pow, {-1.0}, z);
  EXPECT_TRUE(third.hitZeroDivisor());
  EXPECT_EQ(mulMod(inv.p.data[1], 5, p()), 1u);
}

TEST_P(FieldArithmeticTest, ExpIsAHomomorphism) {
  std::mt19937_64 rng(13);
  FieldTensor a = random({3, 5}, rng), b = random({3, 5}, rng);
  a.q.data[0] = 0;
  a.q.data[1] = q() - 1;
  FieldArithmetic arith(*field, 1);
  FieldTensor sum = arith.binary(BinaryKind::add, a, b);
  ASSERT_TRUE(sum.hasQ());
  FieldTensor lhs = arith.unary(UnaryKind::exp, {}, sum);
  FieldTensor ea = arith.unary(UnaryKind::exp, {}, a);
  FieldTensor eb = arith.unary(UnaryKind::exp, {}, b);
  FieldTensor rhs = arith.binary(BinaryKind::mul, ea, eb);
  EXPECT_EQ(lhs.p.data, rhs.p.data);
  for (int64_t i = 0; i < a.p.size(); ++i) {
    // exp reads the exponent part: w^(x mod q) mod p.
    EXPECT_EQ(ea.p.data[i], powMod(field->w(), a.q.data[i], p())) << i;
    EXPECT_EQ(lhs.p.data[i],
              powMod(field->w(), addRef(a.q.data[i], b.q.data[i], q()), p()));
  }
  EXPECT_EQ(ea.p.data[0], 1u);
  EXPECT_EQ(mulMod(ea.p.data[1], field->w(), p()), 1u); // w^(q-1) = w^-1
  // exp(x) is not fed to another exp: it has no exponent part.
  EXPECT_FALSE(lhs.hasQ());
}

TEST_P(FieldArithmeticTest, SoftmaxRowsSumToOne) {
  std::mt19937_64 rng(14);
  FieldTensor x = random({3, 6}, rng);
  FieldArithmetic arith(*field, 1);
  FieldTensor s = arith.softmax(x, 1);
  EXPECT_FALSE(arith.hitZeroDivisor());
  for (int64_t i = 0; i < 3; ++i) {
    uint64_t total = 0, denom = 0;
    for (int64_t j = 0; j < 6; ++j) {
      total = addRef(total, s.p.data[i * 6 + j], p());
      denom = addRef(denom, powMod(field->w(), x.q.data[i * 6 + j], p()), p());
    }
    EXPECT_EQ(total, 1u) << "row " << i;
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(s.p.data[i * 6 + j],
                mulMod(powMod(field->w(), x.q.data[i * 6 + j], p()),
                       invRef(denom, p()), p()));
  }
}

TEST_P(FieldArithmeticTest, ReduceSum) {
  std::mt19937_64 rng(15);
  FieldTensor x = random({3, 4, 5}, rng);
  FieldArithmetic arith(*field, 1);
  for (int64_t dim = 0; dim < 3; ++dim) {
    FieldTensor r = arith.reduce(ReduceKind::sum, x, dim);
    Shape rs{3, 4, 5};
    rs[dim] = 1;
    ASSERT_EQ(Shape(r.p.shape.begin(), r.p.shape.end()), rs);
    ASSERT_TRUE(r.hasQ());
    for (int64_t i = 0; i < rs[0]; ++i)
      for (int64_t j = 0; j < rs[1]; ++j)
        for (int64_t l = 0; l < rs[2]; ++l) {
          uint64_t sp = 0, sq = 0;
          for (int64_t t = 0; t < (dim == 0 ? 3 : dim == 1 ? 4 : 5); ++t) {
            int64_t I[3] = {i, j, l};
            I[dim] = t;
            int64_t at = (I[0] * 4 + I[1]) * 5 + I[2];
            sp = addRef(sp, x.p.data[at], p());
            sq = addRef(sq, x.q.data[at], q());
          }
          int64_t out = (i * rs[1] + j) * rs[2] + l;
          EXPECT_EQ(r.p.data[out], sp);
          EXPECT_EQ(r.q.data[out], sq);
        }
  }
}

/// Max is a function of the multiset it ranges over: the order of the
/// elements and how the reduction is split do not matter, anything else
/// does.
TEST_P(FieldArithmeticTest, MaxOfAMultiset) {
  std::mt19937_64 rng(21);
  FieldTensor x = random({2, 8}, rng);
  FieldArithmetic arith(*field, 5);
  FieldTensor whole = arith.reduce(ReduceKind::max, x, 1);
  ASSERT_EQ(Shape(whole.p.shape.begin(), whole.p.shape.end()), Shape({2, 1}));
  ASSERT_TRUE(whole.hasQ());
  ASSERT_TRUE(whole.hasMaxKey());
  EXPECT_NE(whole.p.data[0], whole.p.data[1]);

  // The same row reversed, and split in halves whose maxima are combined.
  FieldTensor reversed = x;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 8; ++j) {
      reversed.p.data[i * 8 + j] = x.p.data[i * 8 + 7 - j];
      reversed.q.data[i * 8 + j] = x.q.data[i * 8 + 7 - j];
    }
  FieldTensor r = arith.reduce(ReduceKind::max, reversed, 1);
  EXPECT_EQ(r.p.data, whole.p.data);
  EXPECT_EQ(r.q.data, whole.q.data);

  FieldTensor halves = FieldArithmetic::apply(
      x, [](const Tensor<uint64_t> &t) { return reshape(t, {2, 2, 4}); });
  FieldTensor partial = arith.reduce(ReduceKind::max, halves, 2); // [2,2,1]
  FieldTensor nested = arith.reduce(ReduceKind::max, partial, 1); // [2,1,1]
  EXPECT_EQ(nested.p.data, whole.p.data);
  EXPECT_EQ(nested.q.data, whole.q.data);
  EXPECT_NE(partial.p.data[0], whole.p.data[0]);

  // One element changed: another image.
  FieldTensor changed = x;
  changed.p.data[3] = (changed.p.data[3] + 1) % p();
  FieldTensor c = arith.reduce(ReduceKind::max, changed, 1);
  EXPECT_NE(c.p.data[0], whole.p.data[0]);
  EXPECT_EQ(c.p.data[1], whole.p.data[1]);

  // Another key: another function.
  FieldArithmetic other(*field, 6);
  EXPECT_NE(other.reduce(ReduceKind::max, x, 1).p.data, whole.p.data);

  // A max over one element is that element; padding (lowest()) is ignored.
  FieldTensor one = arith.reduce(ReduceKind::max, whole, 1);
  EXPECT_EQ(one.p.data, whole.p.data);
  FieldTensor padded = x;
  padded.p = Tensor<uint64_t>({2, 9}, FieldArithmetic::kAbsent);
  padded.q = Tensor<uint64_t>({2, 9}, 0);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 8; ++j) {
      padded.p.data[i * 9 + j + 1] = x.p.data[i * 8 + j];
      padded.q.data[i * 9 + j + 1] = x.q.data[i * 8 + j];
    }
  EXPECT_EQ(arith.reduce(ReduceKind::max, padded, 1).p.data, whole.p.data);
}

/// Data movement keeps a max's fingerprint, arithmetic drops it.
TEST_P(FieldArithmeticTest, MaxFingerprintsFollowTheirValues) {
  std::mt19937_64 rng(22);
  FieldTensor x = random({4, 6}, rng);
  FieldArithmetic arith(*field, 7);
  FieldTensor m = arith.reduce(ReduceKind::max, x, 1); // [4, 1]
  FieldTensor plain = random({4, 1}, rng);
  FieldTensor both = FieldArithmetic::applyN(
      {&m, &plain}, [](auto ts) { return concat(ts, 1); }); // [4, 2]
  ASSERT_TRUE(both.hasMaxKey());
  // max(max(row), y) is the max of the row with y added.
  FieldTensor combined = arith.reduce(ReduceKind::max, both, 1);
  FieldTensor withY = FieldArithmetic::applyN(
      {&x, &plain}, [](auto ts) { return concat(ts, 1); }); // [4, 7]
  EXPECT_EQ(combined.p.data, arith.reduce(ReduceKind::max, withY, 1).p.data);
  EXPECT_FALSE(arith.binary(BinaryKind::add, m, plain).hasMaxKey());

  // A slice written into a larger tensor keeps its fingerprints there.
  FieldTensor dst = FieldArithmetic::zeros({8, 1});
  FieldArithmetic::update(dst, m, [](auto &d, const auto &part) {
    insertSlice(d, part, {4, 0});
  });
  ASSERT_TRUE(dst.hasMaxKey());
  FieldTensor back = FieldArithmetic::apply(
      dst, [](const auto &t) { return slice(t, {4, 0}, {4, 1}); });
  FieldTensor again = FieldArithmetic::applyN(
      {&back, &plain}, [](auto ts) { return concat(ts, 1); });
  EXPECT_EQ(arith.reduce(ReduceKind::max, again, 1).p.data,
            combined.p.data);
}

TEST_P(FieldArithmeticTest, AlgebraicUnaries) {
  std::mt19937_64 rng(16);
  FieldTensor x = random({8}, rng);
  for (uint64_t &v : x.p.data)
    v = v ? v : 1;
  FieldArithmetic arith(*field, 1);
  FieldTensor sq = arith.unary(UnaryKind::square, {}, x);
  FieldTensor cube = arith.unary(UnaryKind::pow, {3.0}, x);
  FieldTensor invSq = arith.unary(UnaryKind::pow, {-2.0}, x);
  FieldTensor half = arith.unary(UnaryKind::scale, {0.5}, x);
  FieldTensor neg = arith.unary(UnaryKind::scale, {-3.0}, x);
  FieldTensor shifted = arith.unary(UnaryKind::offset, {-0.25}, x);
  for (int64_t i = 0; i < 8; ++i) {
    uint64_t v = x.p.data[i];
    // x - 1/4: adding 1/4 back (4^-1 in each field) gives x.
    EXPECT_EQ(addRef(shifted.p.data[i], invRef(4, p()), p()), v);
    EXPECT_EQ(addRef(shifted.q.data[i], invRef(4, q()), q()), x.q.data[i]);
    EXPECT_EQ(sq.p.data[i], mulMod(v, v, p()));
    EXPECT_EQ(sq.q.data[i], mulMod(x.q.data[i], x.q.data[i], q()));
    EXPECT_EQ(cube.p.data[i], mulMod(mulMod(v, v, p()), v, p()));
    EXPECT_EQ(mulMod(invSq.p.data[i], mulMod(v, v, p()), p()), 1u);
    EXPECT_EQ(addRef(half.p.data[i], half.p.data[i], p()), v);
    EXPECT_EQ(addRef(half.q.data[i], half.q.data[i], q()), x.q.data[i]);
    EXPECT_EQ(addRef(neg.p.data[i], mulMod(3, v, p()), p()), 0u);
    EXPECT_EQ(addRef(neg.q.data[i], mulMod(3, x.q.data[i], q()), q()), 0u);
    EXPECT_EQ(cube.q.data[i],
              mulMod(mulMod(x.q.data[i], x.q.data[i], q()), x.q.data[i], q()));
  }
  FieldTensor c = arith.constant(0.5);
  EXPECT_EQ(c.p.data[0], invRef(2, p()));
  EXPECT_EQ(c.q.data[0], invRef(2, q()));
  EXPECT_TRUE(c.p.shape.empty());
}

TEST_P(FieldArithmeticTest, EmbedDyadicConstants) {
  for (uint64_t m : {p(), q()}) {
    auto embed = [](double c, uint64_t m) {
      std::optional<uint64_t> image = FieldArithmetic::embed(c, m);
      EXPECT_TRUE(image.has_value()) << c;
      return image.value_or(0);
    };
    auto times = [&](double c, uint64_t k) {
      return mulMod(embed(c, m), k % m, m);
    };
    EXPECT_EQ(embed(0.0, m), 0u);
    EXPECT_EQ(embed(1.0, m), 1u);
    EXPECT_EQ(embed(7.0, m), 7u);
    EXPECT_EQ(times(0.5, 2), 1u);
    EXPECT_EQ(times(-0.5, 2), m - 1);
    EXPECT_EQ(embed(-3.0, m), m - 3);
    EXPECT_EQ(times(0.25, 4), 1u);
    EXPECT_EQ(times(std::ldexp(1.0, -12), 4096), 1u);
    EXPECT_EQ(embed(std::ldexp(1.0, -12), m),
              powMod(invRef(2, m), 12, m));
    EXPECT_EQ(times(3.5, 2), 7u);
    EXPECT_EQ(times(-0.375, 8), m - 3);
    // embed(x) embed(1/x) = 1 where both are exact.
    for (double x : {0.25, 8.0, -0.125, 1024.0, std::ldexp(1.0, -40)})
      EXPECT_EQ(mulMod(embed(x, m),
                       embed(1 / x, m), m),
                1u)
          << x;
    // The double nearest 1/3 is (2^54 - 1) / (3 * 2^54): three of it is
    // 1 - 2^-54, not 1.
    uint64_t third = embed(1.0 / 3.0, m);
    uint64_t twoTo54 = powMod(2, 54, m);
    EXPECT_EQ(mulMod(third, 3, m),
              mulMod(addRef(twoTo54, m - 1, m), invRef(twoTo54, m), m));
    EXPECT_NE(mulMod(third, 3, m), 1u);
    // Large integers reduce modulo m.
    EXPECT_EQ(embed(1e18, m), 1000000000000000000ull % m);
    EXPECT_EQ(embed(std::ldexp(1.0, 80), m),
              powMod(2, 80, m));
  }
}

TEST_P(FieldArithmeticTest, NonFiniteConstantsHaveNoImage) {
  // The root of a crash: frexp(inf) gave no integer significand, and its
  // conversion negated INT64_MIN. Infinities and NaNs have no field image.
  for (uint64_t m : {p(), q()})
    for (double c : {HUGE_VAL, -HUGE_VAL, std::nan("")})
      EXPECT_FALSE(FieldArithmetic::embed(c, m).has_value()) << c;

  // In a run they get keyed random non-zero images, different from each
  // other and from the finite constants, and are recorded.
  FieldArithmetic arith(*field, 7);
  llvm::SmallVector<uint64_t> images;
  const double inf = std::numeric_limits<double>::infinity();
  for (double c : {inf, -inf, std::nan(""), 0.0, 1.0, -1.0, 0.5}) {
    FieldTensor t = arith.constant(c);
    images.push_back(t.p.data[0]);
  }
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_NE(images[i], 0u) << i;
    for (unsigned j = 0; j < images.size(); ++j) {
      if (i != j) {
        EXPECT_NE(images[i], images[j]) << i << " vs " << j;
      }
    }
  }
  EXPECT_EQ(arith.constants().size(), 7u);
  unsigned nonFinite = 0;
  for (const auto &[bits, use] : arith.constants()) {
    nonFinite += !std::isfinite(use.value);
    EXPECT_TRUE(use.inP);
    EXPECT_TRUE(use.inQ); // constant() computes both parts by default
  }
  EXPECT_EQ(nonFinite, 3u);

  // x * inf and x * -inf differ in the field: the test cannot call them
  // equal (the verifier gives it up for such programs anyway).
  FieldTensor x{Tensor<uint64_t>(Shape{3}, std::vector<uint64_t>{1, 2, 3}), {}};
  FieldTensor pos = arith.unary(UnaryKind::scale, {inf}, x);
  FieldTensor neg = arith.unary(UnaryKind::scale, {-inf}, x);
  for (int i = 0; i < 3; ++i)
    EXPECT_NE(pos.p.data[i], neg.p.data[i]) << i;
}

TEST_P(FieldArithmeticTest, ConstantsAreRecordedPerField) {
  // A scale on a value without an exponent part enters Z_p only.
  FieldArithmetic arith(*field, 3);
  FieldTensor x{Tensor<uint64_t>(Shape{2}, std::vector<uint64_t>{4, 5}), {}};
  (void)arith.unary(UnaryKind::scale, {0.25}, x);
  ASSERT_EQ(arith.constants().size(), 1u);
  const auto &use = arith.constants().begin()->second;
  EXPECT_EQ(use.value, 0.25);
  EXPECT_TRUE(use.inP);
  EXPECT_FALSE(use.inQ);
}

TEST_P(FieldArithmeticTest, UninterpretedFunctions) {
  // Equal Z_p arguments give equal results; different ones different
  // results (with probability about 1 - n^2 / p for this fixed key).
  FieldTensor x{Tensor<uint64_t>(Shape{6}, std::vector<uint64_t>{5, 7, 5, 9, 7, 123456}),
                Tensor<uint64_t>(Shape{6}, std::vector<uint64_t>{1, 2, 3, 4, 5, 6})};
  FieldArithmetic arith(*field, 42);
  FieldTensor r = arith.unary(UnaryKind::sqrt, {}, x);
  ASSERT_TRUE(r.hasQ());
  EXPECT_EQ(r.p.data[0], r.p.data[2]);
  EXPECT_EQ(r.p.data[1], r.p.data[4]);
  EXPECT_EQ(r.q.data[0], r.q.data[2]); // the q part hashes the p value too
  std::set<uint64_t> distinct(r.p.data.begin(), r.p.data.end());
  EXPECT_EQ(distinct.size(), 4u);
  for (uint64_t v : r.p.data)
    EXPECT_LT(v, p());
  for (uint64_t v : r.q.data)
    EXPECT_LT(v, q());
  // Not the identity on small values.
  EXPECT_NE(r.p.data[0], 5u);

  // Deterministic for a key, different for another key.
  FieldArithmetic same(*field, 42), other(*field, 43);
  EXPECT_EQ(same.unary(UnaryKind::sqrt, {}, x).p.data, r.p.data);
  FieldTensor o = other.unary(UnaryKind::sqrt, {}, x);
  for (int i : {0, 1, 3, 5})
    EXPECT_NE(o.p.data[i], r.p.data[i]) << i;

  // Different functions and parameters are different oracles.
  FieldTensor silu = arith.unary(UnaryKind::silu, {}, x);
  FieldTensor pow1 = arith.unary(UnaryKind::pow, {0.5}, x);
  FieldTensor pow2 = arith.unary(UnaryKind::pow, {1.5}, x);
  FieldTensor clamp1 = arith.unary(UnaryKind::clamp, {0.0, 1.0}, x);
  FieldTensor clamp2 = arith.unary(UnaryKind::clamp, {0.0, 2.0}, x);
  EXPECT_NE(silu.p.data[0], r.p.data[0]);
  EXPECT_NE(pow1.p.data[0], pow2.p.data[0]);
  EXPECT_NE(clamp1.p.data[0], clamp2.p.data[0]);

  // Many distinct arguments: no collisions among 1000 outputs.
  FieldTensor many{Tensor<uint64_t>(Shape{1000}), {}};
  for (int64_t i = 0; i < 1000; ++i)
    many.p.data[i] = i * 1000003 % p();
  FieldTensor h = arith.unary(UnaryKind::gelu, {}, many);
  EXPECT_EQ(std::set<uint64_t>(h.p.data.begin(), h.p.data.end()).size(),
            1000u);
}

// erf is an oracle of its own; a cast is the identity in both parts
// (issue 24: the field checks the real-number algebra, where a cast is x).
TEST_P(FieldArithmeticTest, ErfAndCast) {
  FieldTensor x{Tensor<uint64_t>(Shape{3}, std::vector<uint64_t>{5, 7, 5}),
                Tensor<uint64_t>(Shape{3}, std::vector<uint64_t>{1, 2, 3})};
  FieldArithmetic arith(*field, 42);
  FieldTensor erf = arith.unary(UnaryKind::erf, {}, x);
  FieldTensor gelu = arith.unary(UnaryKind::gelu, {}, x);
  EXPECT_EQ(erf.p.data[0], erf.p.data[2]);
  EXPECT_NE(erf.p.data[0], erf.p.data[1]);
  EXPECT_NE(erf.p.data[0], gelu.p.data[0]);
  EXPECT_NE(erf.p.data[0], 5u);
  FieldTensor c = arith.unary(UnaryKind::cast, {}, x);
  EXPECT_EQ(c.p.data, x.p.data);
  ASSERT_TRUE(c.hasQ());
  EXPECT_EQ(c.q.data, x.q.data); // exp(cast(x)) = exp(x)
}

INSTANTIATE_TEST_SUITE_P(Fields, FieldArithmeticTest, ::testing::Values(31u, 61u, 62u),
                         [](const auto &info) {
                           return "q" + std::to_string(info.param) + "bits";
                         });

} // namespace
