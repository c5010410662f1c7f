//===- FiniteFieldTest.cpp - field pair of the probabilistic verifier -----===//

#include "mirage/Superopt/Semantics/FiniteField.h"
#include "gtest/gtest.h"
#include <cmath>
#include <random>
#include <set>

using namespace mirage::superopt;

namespace {

TEST(FiniteFieldTest, PrimalityIsExact) {
  for (uint64_t p : {2ull, 3ull, 5ull, 83ull, 167ull, 2147483647ull,
                     2305843009213693951ull /* 2^61 - 1 */,
                     18446744073709551557ull /* largest 64-bit prime */})
    EXPECT_TRUE(isPrime(p)) << p;
  for (uint64_t n :
       {0ull, 1ull, 4ull, 561ull /* Carmichael */, 3215031751ull,
        /* strong pseudoprime to bases 2, 3, 5, 7 */
        3825123056546413051ull,
        /* strong pseudoprime to bases 2..23 */
        4611686014132420609ull /* (2^31 - 1)^2 */,
        18446744073709551615ull})
    EXPECT_FALSE(isPrime(n)) << n;
}

TEST(FiniteFieldTest, MiragePrimes) {
  auto field = FieldPair::fromPrimes(167, 83);
  ASSERT_TRUE(bool(field)) << llvm::toString(field.takeError());
  EXPECT_NE(field->w(), 1u);
  EXPECT_EQ(powMod(field->w(), 83, 167), 1u);
}

TEST(FiniteFieldTest, RejectsBadPairs) {
  auto notPrime = FieldPair::fromPrimes(168, 83);
  ASSERT_FALSE(bool(notPrime));
  EXPECT_NE(llvm::toString(notPrime.takeError()).find("needs primes"),
            std::string::npos);
  auto notDividing = FieldPair::fromPrimes(167, 13);
  ASSERT_FALSE(bool(notDividing));
  EXPECT_NE(llvm::toString(notDividing.takeError()).find("does not divide"),
            std::string::npos);
  auto tooWide = FieldPair::create(63);
  ASSERT_FALSE(bool(tooWide));
  llvm::consumeError(tooWide.takeError());
}

class FieldPairTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(FieldPairTest, StructureAndArithmetic) {
  unsigned bits = GetParam();
  auto created = FieldPair::create(bits);
  ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
  const FieldPair &f = *created;

  // q has exactly `bits` bits, both are prime and q | p - 1.
  EXPECT_EQ(64 - __builtin_clzll(f.q()), (int)bits);
  EXPECT_TRUE(isPrime(f.p()));
  EXPECT_TRUE(isPrime(f.q()));
  EXPECT_EQ((f.p() - 1) % f.q(), 0u);

  // w has order exactly q (q is prime, so w != 1 and w^q = 1 suffice).
  EXPECT_NE(f.w(), 1u);
  EXPECT_EQ(powMod(f.w(), f.q(), f.p()), 1u);

  std::mt19937_64 rng(bits);
  for (int i = 0; i < 1000; ++i) {
    uint64_t a = rng() % f.p(), b = rng() % f.p();
    uint64_t x = rng() % f.q(), y = rng() % f.q();
    // Inverses in both fields.
    if (a) {
      EXPECT_EQ(f.mul(a, f.inv(a)), 1u);
    }
    if (x) {
      EXPECT_EQ(f.mulQ(x, f.invQ(x)), 1u);
    }
    // Ring laws that the verifier relies on.
    EXPECT_EQ(f.sub(f.add(a, b), b), a);
    EXPECT_EQ(f.mul(a, f.add(b, 1)), f.add(f.mul(a, b), a));
    // exp is a homomorphism from (Z_q, +) to (Z_p^*, *).
    EXPECT_EQ(f.exp(f.addQ(x, y)), f.mul(f.exp(x), f.exp(y)));
    EXPECT_EQ(f.mul(f.exp(x), f.exp((f.q() - x) % f.q())), 1u);
  }
}

INSTANTIATE_TEST_SUITE_P(QBits, FieldPairTest,
                         ::testing::Values(7u, 31u, 48u, 61u, 62u));

} // namespace

namespace {

class RandomFieldPairTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(RandomFieldPairTest, DrawsASafePrimePairOfTheFullBitRange) {
  unsigned bits = GetParam();
  std::set<uint64_t> seen;
  uint64_t below = 0, above = 0, middle = uint64_t(3) << (bits - 2);
  for (uint64_t seed = 0; seed < 40; ++seed) {
    auto pair = FieldPair::random(bits, seed);
    ASSERT_TRUE(bool(pair)) << llvm::toString(pair.takeError());
    uint64_t p = pair->p(), q = pair->q();
    // q has exactly `bits` bits; p = 2q + 1; both prime; w of order q.
    EXPECT_EQ(64 - __builtin_clzll(q), (int)bits) << seed;
    EXPECT_EQ(p, 2 * q + 1);
    EXPECT_TRUE(isPrime(p));
    EXPECT_TRUE(isPrime(q));
    EXPECT_NE(pair->w(), 1u);
    EXPECT_EQ(powMod(pair->w(), q, p), 1u);
    if (bits <= 31) {
      EXPECT_LT(p, uint64_t(1) << 32) << "the field's fast path";
    }
    // The same seed gives the same pair.
    auto again = FieldPair::random(bits, seed);
    ASSERT_TRUE(bool(again));
    EXPECT_EQ(again->q(), q);
    seen.insert(q);
    (q < middle ? below : above)++;
  }
  // Different seeds give different pairs, from both halves of the range
  // (not only the largest primes, as FieldPair::create picks).
  EXPECT_GE(seen.size(), 38u);
  EXPECT_GE(below, 8u);
  EXPECT_GE(above, 8u);
}

INSTANTIATE_TEST_SUITE_P(QBits, RandomFieldPairTest,
                         ::testing::Values(31u, 40u, 61u, 62u));

TEST(FiniteFieldTest, RandomPairRejectsBadWidths) {
  for (unsigned bits : {0u, 2u, 63u, 64u}) {
    auto pair = FieldPair::random(bits, 1);
    ASSERT_FALSE(bool(pair)) << bits;
    llvm::consumeError(pair.takeError());
  }
}

TEST(FiniteFieldTest, RandomPairCount) {
  // The Hardy-Littlewood estimate, against a count of the 12-bit q for
  // which q and 2q + 1 are prime (the estimate is within a factor of 2 at
  // this small size, and its relative error shrinks as q grows).
  unsigned exact = 0;
  for (uint64_t q = 1 << 11; q < (1 << 12); ++q)
    exact += isPrime(q) && isPrime(2 * q + 1);
  double estimate = std::exp2(FieldPair::log2RandomPairCount(12));
  EXPECT_GT(estimate, exact / 2.0);
  EXPECT_LT(estimate, exact * 2.0);
  EXPECT_NEAR(FieldPair::log2RandomPairCount(31), 21.5, 0.1);
}

} // namespace
