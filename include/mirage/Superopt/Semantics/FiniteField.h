//===- FiniteField.h - the field pair of the probabilistic verifier -*- C++ -*-===//
//
// Mirage's finite-field equivalence test evaluates programs over two prime
// fields: values live in Z_p, exponents in Z_q with q | p - 1, and
// exp(x) = w^x mod p for a w of multiplicative order q, so that
// exp(a + b) = exp(a) * exp(b) holds exactly. A false positive on one random
// test has probability about 8 d k^4 / q (docs/Verification.md), so q should
// be large: this class supports q of up to 62 bits (Mirage itself uses
// q = 83). The verifier draws a fresh pair at random for every verification
// (random()), so that no constant of a program can be chosen to vanish in a
// field known in advance.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_FINITEFIELD_H
#define MIRAGE_SUPEROPT_FINITEFIELD_H

#include "llvm/Support/Error.h"
#include <cstdint>

namespace mirage::superopt {

/// Deterministic Miller-Rabin primality test, exact for every 64-bit n.
bool isPrime(uint64_t n);

/// (a * b) mod m and base^exp mod m, for any m < 2^64.
uint64_t mulMod(uint64_t a, uint64_t b, uint64_t m);
uint64_t powMod(uint64_t base, uint64_t exp, uint64_t m);

class FieldPair {
public:
  /// The pair with the largest prime q below 2^qBits for which p = k q + 1 is
  /// prime for some even k (the smallest such k), and the generator w of the
  /// order-q subgroup of Z_p^* derived from the smallest g >= 2. qBits must
  /// be in [2, 62]; the result is deterministic.
  static llvm::Expected<FieldPair> create(unsigned qBits);

  /// A pair drawn at random: q uniform among the primes of exactly qBits
  /// bits (in [2^(qBits-1), 2^qBits)) for which p = 2 q + 1 is prime too,
  /// drawn by rejection from `seed`'s SplitMix64 stream (the same seed gives
  /// the same pair everywhere). qBits must be in [3, 62]: p < 2^63, and for
  /// qBits <= 31, p < 2^32 (the field's fast path).
  static llvm::Expected<FieldPair> random(unsigned qBits, uint64_t seed);

  /// About how many pairs random() chooses from, as log2: the Hardy-
  /// Littlewood estimate of the number of such q (2^21.5 for 31 bits, 2^49.6
  /// for 61). A fixed non-zero integer below 2^n is divisible by at most
  /// n / (qBits - 1) of them.
  static double log2RandomPairCount(unsigned qBits);

  /// A pair from given primes (e.g. Mirage's p = 167, q = 83); fails unless
  /// both are prime and q divides p - 1.
  static llvm::Expected<FieldPair> fromPrimes(uint64_t p, uint64_t q);

  uint64_t p() const { return p_; }
  uint64_t q() const { return q_; }
  /// Generator of the subgroup of order q: w != 1 and w^q = 1 (mod p).
  uint64_t w() const { return w_; }

  // Arithmetic in Z_p.
  uint64_t add(uint64_t a, uint64_t b) const { return addMod(a, b, p_); }
  uint64_t sub(uint64_t a, uint64_t b) const { return addMod(a, p_ - b, p_); }
  uint64_t mul(uint64_t a, uint64_t b) const { return mulMod(a, b, p_); }
  /// Multiplicative inverse in Z_p; a must be non-zero.
  uint64_t inv(uint64_t a) const { return powMod(a, p_ - 2, p_); }

  // Arithmetic in Z_q, where exponents live.
  uint64_t addQ(uint64_t a, uint64_t b) const { return addMod(a, b, q_); }
  uint64_t mulQ(uint64_t a, uint64_t b) const { return mulMod(a, b, q_); }
  uint64_t invQ(uint64_t a) const { return powMod(a, q_ - 2, q_); }

  /// exp: Z_q -> Z_p^*, x |-> w^x, a group homomorphism from (Z_q, +) to
  /// (Z_p^*, *).
  uint64_t exp(uint64_t xInZq) const { return powMod(w_, xInZq, p_); }

private:
  FieldPair(uint64_t p, uint64_t q, uint64_t w) : p_(p), q_(q), w_(w) {}
  static uint64_t addMod(uint64_t a, uint64_t b, uint64_t m) {
    // a, b < m; written to avoid overflow for m close to 2^64.
    return a >= m - b ? a - (m - b) : a + b;
  }

  uint64_t p_, q_, w_;
};

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_FINITEFIELD_H
