//===- SplitMix64.h - the verifier's reproducible random numbers -*- C++ -*-===//
//
// SplitMix64 (Steele, Lea and Flood): a 64-bit generator whose output is
// fixed by its definition, unlike the std distributions, so that a seed
// gives the same inputs and primes on every platform, and fast enough for
// hundreds of millions of draws. The verifier draws its inputs and its
// primes from it; the field arithmetic keys its oracles with mix().
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_SPLITMIX64_H
#define MIRAGE_SUPEROPT_SPLITMIX64_H

#include <cstdint>

namespace mirage::superopt {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}

  /// The finalizer: a bijection of 64-bit words that mixes every bit.
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  uint64_t next() { return mix(state += 0x9e3779b97f4a7c15ULL); }

  /// Uniform in [0, m) (multiply-shift; the bias is below m / 2^64).
  uint64_t below(uint64_t m) {
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(next()) * m) >> 64);
  }

  /// Uniform in [-1, 1), on the grid of multiples of 2^-52.
  double symmetricUnit() {
    return static_cast<double>(next() >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  }

private:
  uint64_t state;
};

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_SPLITMIX64_H
