//===- FiniteField.cpp - the field pair of the probabilistic verifier -----===//

#include "mirage/Superopt/Semantics/FiniteField.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include <cmath>

using namespace mirage::superopt;

uint64_t mirage::superopt::mulMod(uint64_t a, uint64_t b, uint64_t m) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b % m);
}

uint64_t mirage::superopt::powMod(uint64_t base, uint64_t exp, uint64_t m) {
  uint64_t result = 1 % m;
  base %= m;
  for (; exp; exp >>= 1) {
    if (exp & 1)
      result = mulMod(result, base, m);
    base = mulMod(base, base, m);
  }
  return result;
}

bool mirage::superopt::isPrime(uint64_t n) {
  if (n < 2)
    return false;
  // These witnesses decide primality for every n < 2^64.
  static constexpr uint64_t kWitnesses[] = {2,  3,  5,  7,  11, 13,
                                            17, 19, 23, 29, 31, 37};
  for (uint64_t a : kWitnesses)
    if (n % a == 0)
      return n == a;
  uint64_t d = n - 1;
  unsigned s = 0;
  for (; (d & 1) == 0; d >>= 1)
    ++s;
  for (uint64_t a : kWitnesses) {
    uint64_t x = powMod(a, d, n);
    if (x == 1 || x == n - 1)
      continue;
    bool composite = true;
    for (unsigned r = 1; r < s && composite; ++r) {
      x = mulMod(x, x, n);
      composite = x != n - 1;
    }
    if (composite)
      return false;
  }
  return true;
}

/// g^((p-1)/q) for the smallest g >= 2 that does not give 1: since q is prime,
/// that element has order exactly q.
static uint64_t subgroupGenerator(uint64_t p, uint64_t q) {
  for (uint64_t g = 2;; ++g) {
    uint64_t w = powMod(g, (p - 1) / q, p);
    if (w != 1)
      return w;
  }
}

llvm::Expected<FieldPair> FieldPair::fromPrimes(uint64_t p, uint64_t q) {
  if (!isPrime(p) || !isPrime(q))
    return llvm::createStringError("field pair needs primes, got p = " +
                                   std::to_string(p) +
                                   ", q = " + std::to_string(q));
  if ((p - 1) % q != 0)
    return llvm::createStringError("q = " + std::to_string(q) +
                                   " does not divide p - 1 = " +
                                   std::to_string(p - 1));
  return FieldPair(p, q, subgroupGenerator(p, q));
}

llvm::Expected<FieldPair> FieldPair::create(unsigned qBits) {
  if (qBits < 2 || qBits > 62)
    return llvm::createStringError("q must have 2 to 62 bits, got " +
                                   std::to_string(qBits));
  // p = k q + 1 < 2^64 for q < 2^62 and k <= 4; k = 6 may fit for smaller q.
  for (uint64_t q = (uint64_t(1) << qBits) - 1; q >= 3; --q) {
    if (!isPrime(q))
      continue;
    for (uint64_t k = 2; k <= 6; k += 2) {
      if (q > (UINT64_MAX - 1) / k)
        break;
      if (isPrime(k * q + 1))
        return fromPrimes(k * q + 1, q);
    }
  }
  return llvm::createStringError("no field pair with a " +
                                 std::to_string(qBits) + "-bit q");
}

/// Whether n has a prime factor below 64 other than itself: a cheap filter
/// before Miller-Rabin, which most random candidates fail.
static bool hasSmallFactor(uint64_t n) {
  static constexpr uint64_t kSmallPrimes[] = {3,  5,  7,  11, 13, 17, 19, 23,
                                              29, 31, 37, 41, 43, 47, 53, 59,
                                              61};
  for (uint64_t s : kSmallPrimes)
    if (n % s == 0)
      return n != s;
  return false;
}

llvm::Expected<FieldPair> FieldPair::random(unsigned qBits, uint64_t seed) {
  if (qBits < 3 || qBits > 62)
    return llvm::createStringError("a random q must have 3 to 62 bits, got " +
                                   std::to_string(qBits));
  SplitMix64 gen(seed);
  uint64_t low = uint64_t(1) << (qBits - 1);
  // Odd candidates uniform in [2^(b-1), 2^b); rejection keeps q uniform
  // among the qualifying primes. About ln(2^b)^2 / 2.6 draws on average
  // (350 for 31 bits), each mostly a few divisions.
  for (unsigned attempt = 0; attempt < (1u << 24); ++attempt) {
    uint64_t q = (low + gen.below(low)) | 1;
    if (q < low || q >= 2 * low)
      continue;
    uint64_t p = 2 * q + 1;
    if (hasSmallFactor(q) || hasSmallFactor(p) || !isPrime(q) || !isPrime(p))
      continue;
    return fromPrimes(p, q);
  }
  return llvm::createStringError("no prime pair with a " +
                                 std::to_string(qBits) +
                                 "-bit q found in 2^24 draws");
}

double FieldPair::log2RandomPairCount(unsigned qBits) {
  // Hardy-Littlewood: q and 2q + 1 are both prime near x with density
  // 2 C2 / (ln x ln 2x); integrated over [2^(b-1), 2^b) at its midpoint.
  constexpr double kTwinConstant = 0.6601618158468696;
  double low = std::ldexp(1.0, qBits - 1), mid = 1.5 * low;
  double count =
      2 * kTwinConstant * low / (std::log(mid) * std::log(2 * mid + 1));
  return std::log2(count);
}
