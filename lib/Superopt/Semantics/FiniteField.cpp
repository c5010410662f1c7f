//===- FiniteField.cpp - the field pair of the probabilistic verifier -----===//

#include "Superopt/Semantics/FiniteField.h"

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
