//===- FieldArithmetic.cpp - finite-field fingerprints of tensors ---------===//
//
// Speed matters here: one verifier test of a full-size benchmark runs
// hundreds of millions of modular multiply-adds. Moduli below 2^32 (the
// default field) take vectorizable paths: a product of two residues fits in
// 64 bits, and a matmul accumulates the low and high 32-bit halves of the
// products in separate 64-bit lanes, reducing once per output element.
// Larger moduli use 128-bit products with lazy reduction.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/FieldArithmetic.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mlir/IR/Operation.h"
#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mirage;
using namespace mirage::superopt;

static constexpr uint64_t kSmallModulus = uint64_t(1) << 32;

static inline uint64_t mulm(uint64_t a, uint64_t b, uint64_t m) {
  return m <= kSmallModulus ? a * b % m : mulMod(a, b, m);
}
static inline uint64_t addm(uint64_t a, uint64_t b, uint64_t m) {
  return a >= m - b ? a - (m - b) : a + b; // no overflow even near 2^64
}
static inline uint64_t subm(uint64_t a, uint64_t b, uint64_t m) {
  return a >= b ? a - b : a + (m - b);
}

FieldArithmetic::FieldArithmetic(const FieldPair &field, uint64_t oracleKey)
    : field(field), oracleKey(oracleKey) {
  // exp(x) = prod_i w^(byte_i(x) << 8i): a few table lookups instead of a
  // square-and-multiply chain per element.
  uint64_t p = field.p(), base = field.w();
  for (uint64_t bits = field.q(); bits; bits >>= 8) {
    std::array<uint64_t, 256> row;
    uint64_t x = 1;
    for (unsigned j = 0; j < 256; ++j, x = mulm(x, base, p))
      row[j] = x;
    expTable.push_back(row);
    base = x; // base^256
  }
}

void FieldArithmetic::beginOp(mlir::Operation *op) {
  if (!needQ) {
    wantQ = true;
    return;
  }
  wantQ = llvm::any_of(op->getResults(),
                       [&](mlir::Value v) { return needQ->contains(v); });
}

uint64_t FieldArithmetic::exp(uint64_t xq) const {
  uint64_t p = field.p(), r = 1;
  for (const auto &row : expTable) {
    r = mulm(r, row[xq & 255], p);
    xq >>= 8;
  }
  return r;
}

std::optional<uint64_t> FieldArithmetic::embed(double c, uint64_t m) {
  if (!std::isfinite(c))
    return std::nullopt;
  int e;
  double frac = std::frexp(c, &e); // c = frac * 2^e, 0.5 <= |frac| < 1
  // c = n * 2^(e - 53) with |n| < 2^53: the conversion is exact.
  int64_t n = static_cast<int64_t>(std::ldexp(frac, 53));
  e -= 53;
  uint64_t r = static_cast<uint64_t>(n < 0 ? -n : n) % m;
  uint64_t two = e >= 0 ? 2 % m : powMod(2, m - 2, m);
  r = mulm(r, powMod(two, static_cast<uint64_t>(e >= 0 ? e : -e), m), m);
  return n < 0 && r ? m - r : r;
}

uint64_t FieldArithmetic::constantImage(double c, uint64_t m, unsigned part) {
  uint64_t bits;
  std::memcpy(&bits, &c, sizeof bits);
  ConstantUse &use = constantUses[bits];
  use.value = c;
  (part == 0 ? use.inP : use.inQ) = true;
  if (std::optional<uint64_t> r = embed(c, m))
    return *r;
  // No image: a keyed random non-zero residue per bit pattern, so that
  // +inf, -inf and NaN differ from each other and (but for chance) from
  // every finite constant.
  uint64_t h = SplitMix64::mix(oracleKey ^ 0x636f6e7374ULL ^ part);
  h = SplitMix64::mix(h ^ bits);
  return 1 + static_cast<uint64_t>(
                 (static_cast<unsigned __int128>(h) * (m - 1)) >> 64);
}

/// A keyed hash of (kind, params, x, part) to [0, m): splitmix64 rounds, then
/// a multiply-shift onto the range.
uint64_t FieldArithmetic::oracle(UnaryKind kind, llvm::ArrayRef<double> params,
                                 uint64_t x, uint64_t m, unsigned part) const {
  auto mix = [](uint64_t z) {
    return SplitMix64::mix(z + 0x9e3779b97f4a7c15ULL);
  };
  uint64_t h = mix(oracleKey ^ (static_cast<uint64_t>(kind) << 8 | part));
  for (double v : params) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    h = mix(h ^ bits);
  }
  h = mix(h ^ x);
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * m) >> 64);
}

uint64_t FieldArithmetic::oracleOf(uint64_t site, llvm::ArrayRef<uint64_t> args,
                                   uint64_t m, unsigned part) const {
  auto mix = [](uint64_t z) {
    return SplitMix64::mix(z + 0x9e3779b97f4a7c15ULL);
  };
  // A domain of its own: the unary oracle's seeds are below 2^16.
  uint64_t h = mix(oracleKey ^ mix(site ^ 0x636d7073656cULL) ^ part);
  for (uint64_t x : args)
    h = mix(h ^ x);
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * m) >> 64);
}

FieldTensor
FieldArithmetic::uninterpretedN(uint64_t site,
                                llvm::ArrayRef<const Value *> args) {
  TensorShape shape(args[0]->p.shape.begin(), args[0]->p.shape.end());
  for (const Value *a : args.drop_front()) {
    auto next = inferBroadcastShape(std::nullopt, shape, a->p.shape);
    assert(succeeded(next) && "operands verified to broadcast");
    shape.assign(next->begin(), next->end());
  }
  llvm::SmallVector<Tensor<uint64_t>, 3> parts;
  for (const Value *a : args)
    parts.push_back(broadcastTo(a->p, shape));
  FieldTensor r;
  r.p = Tensor<uint64_t>(shape);
  if (wantQ)
    r.q = Tensor<uint64_t>(shape);
  llvm::SmallVector<uint64_t, 3> xs(args.size());
  for (int64_t i = 0, n = r.p.size(); i < n; ++i) {
    for (size_t k = 0; k < parts.size(); ++k)
      xs[k] = parts[k].data[i];
    r.p.data[i] = oracleOf(site, xs, field.p(), 0);
    if (wantQ)
      r.q.data[i] = oracleOf(site, xs, field.q(), 1);
  }
  return r;
}

FieldTensor FieldArithmetic::select(const Value &cond, const Value &onTrue,
                                    const Value &onFalse) {
  return uninterpretedN(/*site=*/0x100, {&cond, &onTrue, &onFalse});
}

FieldTensor FieldArithmetic::constant(double c) {
  FieldTensor r;
  r.p = Tensor<uint64_t>({}, {constantImage(c, field.p(), 0)});
  if (wantQ)
    r.q = Tensor<uint64_t>({}, {constantImage(c, field.q(), 1)});
  return r;
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

namespace {
constexpr int64_t kRows = 16, kCols = 256;
} // namespace

/// C = A B mod m for m <= 2^32, on a tile of at most kRows x kCols of C.
/// Each product of residues is below 2^64; its 32-bit halves accumulate
/// separately, so up to 2^32 terms never overflow. B comes packed as 32-bit
/// residues: half the memory traffic, and the compiler uses the 32 x 32 ->
/// 64-bit vector multiply.
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3",
                             "default"))) static void
matmulTileSmall(const uint64_t *A, const uint32_t *B, uint64_t *C, int64_t k,
                int64_t n, int64_t rows, int64_t cols, uint64_t m) {
  uint64_t lo[kRows][kCols], hi[kRows][kCols];
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      lo[i][j] = hi[i][j] = 0;
  for (int64_t kk = 0; kk < k; ++kk) {
    const uint32_t *brow = B + kk * n;
    for (int64_t i = 0; i < rows; ++i) {
      uint64_t a = A[i * k + kk];
      uint64_t *l = lo[i], *h = hi[i];
      for (int64_t j = 0; j < cols; ++j) {
        uint64_t prod = a * brow[j];
        l[j] += static_cast<uint32_t>(prod);
        h[j] += prod >> 32;
      }
    }
  }
  uint64_t shift = (uint64_t(1) << 32) % m;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      C[i * n + j] = ((hi[i][j] % m) * shift + lo[i][j] % m) % m;
}

/// The same for any m < 2^64 with 128-bit accumulators, reduced often
/// enough that they cannot overflow: after a reduction the sum is below m,
/// and each product is below (m - 1)^2 < 2^(2 bits(m)), so 2^(128 - 2
/// bits(m)) - 1 more products always fit (3 for a 63-bit p, 15 for 62
/// bits); one always fits, since (m - 1) + (m - 1)^2 < m^2.
static void matmulTileLarge(const uint64_t *A, const uint64_t *B, uint64_t *C,
                            int64_t k, int64_t n, int64_t rows, int64_t cols,
                            uint64_t m) {
  using u128 = unsigned __int128;
  unsigned bits = 64 - __builtin_clzll(m);
  int64_t interval =
      bits <= 60
          ? 16
          : std::clamp<int64_t>((int64_t(1) << (128 - 2 * bits)) - 1, 1, 16);
  std::vector<u128> acc(rows * cols, 0);
  for (int64_t kk = 0; kk < k; ++kk) {
    const uint64_t *brow = B + kk * n;
    bool reduce = kk % interval == interval - 1;
    for (int64_t i = 0; i < rows; ++i) {
      u128 a = A[i * k + kk];
      u128 *row = acc.data() + i * cols;
      for (int64_t j = 0; j < cols; ++j) {
        row[j] += a * brow[j];
        if (reduce)
          row[j] %= m;
      }
    }
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      C[i * n + j] = static_cast<uint64_t>(acc[i * cols + j] % m);
}

static Tensor<uint64_t> matmulMod(const Tensor<uint64_t> &a,
                                  const Tensor<uint64_t> &b, uint64_t m) {
  int64_t rank = a.rank();
  int64_t rows = a.shape[rank - 2], k = a.shape[rank - 1],
          n = b.shape[rank - 1];
  TensorShape shape(a.shape.begin(), a.shape.end() - 2);
  int64_t batch = numElements(shape);
  shape.append({rows, n});
  Tensor<uint64_t> c(shape);
  bool small = m <= kSmallModulus;
  std::vector<uint32_t> packed;
  for (int64_t bi = 0; bi < batch; ++bi) {
    const uint64_t *A = a.data.data() + bi * rows * k;
    const uint64_t *B = b.data.data() + bi * k * n;
    uint64_t *C = c.data.data() + bi * rows * n;
    if (small)
      packed.assign(B, B + k * n);
    for (int64_t i0 = 0; i0 < rows; i0 += kRows)
      for (int64_t j0 = 0; j0 < n; j0 += kCols) {
        int64_t r = std::min(kRows, rows - i0), cl = std::min(kCols, n - j0);
        if (small)
          matmulTileSmall(A + i0 * k, packed.data() + j0, C + i0 * n + j0, k, n,
                          r, cl, m);
        else
          matmulTileLarge(A + i0 * k, B + j0, C + i0 * n + j0, k, n, r, cl, m);
      }
  }
  return c;
}

FieldTensor FieldArithmetic::matmul(const Value &a, const Value &b) const {
  FieldTensor r;
  r.p = matmulMod(a.p, b.p, field.p());
  if (wantQ && a.hasQ() && b.hasQ())
    r.q = matmulMod(a.q, b.q, field.q());
  return r;
}

//===----------------------------------------------------------------------===//
// Elementwise ops and reductions
//===----------------------------------------------------------------------===//

/// Whether `e` is an integer exponent that the field can raise to exactly.
static bool isIntegerExponent(double e) {
  return std::nearbyint(e) == e && std::fabs(e) < 1e9;
}

FieldTensor FieldArithmetic::unary(UnaryKind kind,
                                   llvm::ArrayRef<double> params,
                                   const Value &x) {
  FieldTensor r;
  uint64_t p = field.p(), q = field.q();
  bool withQ = wantQ && x.hasQ();
  auto map = [&](auto f) {
    r.p = x.p;
    for (uint64_t &v : r.p.data)
      v = f(v, p);
    if (withQ) {
      r.q = x.q;
      for (uint64_t &v : r.q.data)
        v = f(v, q);
    }
  };
  switch (kind) {
  case UnaryKind::exp: {
    // The exponent part of the argument gives the value; exp's own exponent
    // part is undefined (a second exp on the path leaves the LAX fragment).
    assert(x.hasQ() && "exp of a value without its exponent part");
    r.p = Tensor<uint64_t>(x.q.shape);
    for (int64_t i = 0, e = x.q.size(); i < e; ++i)
      r.p.data[i] = exp(x.q.data[i]);
    return r;
  }
  case UnaryKind::square:
    map([](uint64_t v, uint64_t m) { return mulm(v, v, m); });
    return r;
  case UnaryKind::scale: {
    uint64_t sp = constantImage(params[0], p, 0);
    uint64_t sq = withQ ? constantImage(params[0], q, 1) : 0;
    map([&](uint64_t v, uint64_t m) { return mulm(v, m == p ? sp : sq, m); });
    return r;
  }
  case UnaryKind::offset: {
    // x + c: the constant's image is added in Z_p; in the exponent part
    // (exp(x + c) = exp(x) exp(c)) it is added likewise, in Z_q.
    uint64_t cp = constantImage(params[0], p, 0);
    uint64_t cq = withQ ? constantImage(params[0], q, 1) : 0;
    map([&](uint64_t v, uint64_t m) { return addm(v, m == p ? cp : cq, m); });
    return r;
  }
  case UnaryKind::cast:
    // The identity of the real-number algebra, both parts kept: a cast only
    // rounds, which the floating-point checks judge (docs/Verification.md,
    // "Casts").
    return x;
  case UnaryKind::pow:
    if (isIntegerExponent(params[0])) {
      int64_t e = static_cast<int64_t>(params[0]);
      uint64_t mag = static_cast<uint64_t>(e < 0 ? -e : e);
      map([&](uint64_t v, uint64_t m) {
        if (e < 0 && v == 0) {
          zeroDivisor = true;
          return uint64_t(0);
        }
        uint64_t base = e < 0 ? powMod(v, m - 2, m) : v;
        return powMod(base, mag, m);
      });
      return r;
    }
    [[fallthrough]];
  case UnaryKind::sqrt:
  case UnaryKind::silu:
  case UnaryKind::gelu:
  case UnaryKind::relu:
  case UnaryKind::clamp:
  case UnaryKind::tanh:
  case UnaryKind::sigmoid:
  case UnaryKind::erf: {
    // Uninterpreted: both parts are functions of the argument's Z_p value.
    r.p = x.p;
    for (uint64_t &v : r.p.data)
      v = oracle(kind, params, v, p, 0);
    if (wantQ) {
      r.q = x.p;
      for (uint64_t &v : r.q.data)
        v = oracle(kind, params, v, q, 1);
    }
    return r;
  }
  }
  llvm_unreachable("unknown unary kind");
}

/// Inverts every element of v in place with one exponentiation (Montgomery's
/// batch inversion); zeros stay zero and set `zeroDivisor`.
static void invertAll(std::vector<uint64_t> &v, uint64_t m, bool &zeroDivisor) {
  std::vector<uint64_t> prefix(v.size());
  uint64_t acc = 1;
  for (size_t i = 0; i < v.size(); ++i) {
    prefix[i] = acc;
    if (v[i] == 0)
      zeroDivisor = true;
    else
      acc = mulm(acc, v[i], m);
  }
  uint64_t inv = powMod(acc, m - 2, m);
  for (size_t i = v.size(); i-- > 0;) {
    if (v[i] == 0)
      continue;
    uint64_t vi = v[i];
    v[i] = mulm(inv, prefix[i], m);
    inv = mulm(inv, vi, m);
  }
}

static Tensor<uint64_t> binaryMod(BinaryKind kind, const Tensor<uint64_t> &a,
                                  const Tensor<uint64_t> &b, uint64_t m) {
  auto shape = inferBroadcastShape(std::nullopt, a.shape, b.shape);
  assert(succeeded(shape) && "operands verified to broadcast");
  Tensor<uint64_t> r = broadcastTo(a, *shape);
  Tensor<uint64_t> rhs = broadcastTo(b, *shape);
  uint64_t *x = r.data.data();
  const uint64_t *y = rhs.data.data();
  int64_t n = r.size();
  switch (kind) {
  case BinaryKind::add:
    for (int64_t i = 0; i < n; ++i)
      x[i] = addm(x[i], y[i], m);
    break;
  case BinaryKind::sub:
    for (int64_t i = 0; i < n; ++i)
      x[i] = subm(x[i], y[i], m);
    break;
  case BinaryKind::mul:
  case BinaryKind::div: // the divisor was inverted already
    for (int64_t i = 0; i < n; ++i)
      x[i] = mulm(x[i], y[i], m);
    break;
  case BinaryKind::eq:
  case BinaryKind::ne:
  case BinaryKind::lt:
  case BinaryKind::le:
  case BinaryKind::gt:
  case BinaryKind::ge:
    llvm_unreachable("comparisons are uninterpreted (FieldArithmetic::binary)");
  }
  return r;
}

FieldTensor FieldArithmetic::binary(BinaryKind kind, const Value &a,
                                    const Value &b) {
  // A comparison has no algebraic image: an uninterpreted function of both
  // operands, one per kind (lt(a, b) and gt(b, a) are not known equal),
  // except on the diagonal: of a value with itself the real relation holds
  // for eq, le and ge and fails for ne, lt and gt (PET's zero bands are
  // gt(x, x)). Equal residues of different expressions are the
  // Schwartz-Zippel event the test's bound already counts.
  if (isComparison(kind)) {
    FieldTensor r = uninterpretedN(static_cast<uint64_t>(kind), {&a, &b});
    bool holds = kind == BinaryKind::eq || kind == BinaryKind::le ||
                 kind == BinaryKind::ge;
    bool withQ = wantQ && a.hasQ() && b.hasQ();
    Tensor<uint64_t> ap = broadcastTo(a.p, r.p.shape);
    Tensor<uint64_t> bp = broadcastTo(b.p, r.p.shape);
    Tensor<uint64_t> aq, bq;
    if (withQ) {
      aq = broadcastTo(a.q, r.p.shape);
      bq = broadcastTo(b.q, r.p.shape);
    }
    for (int64_t i = 0, n = r.p.size(); i < n; ++i) {
      if (ap.data[i] != bp.data[i] || (withQ && aq.data[i] != bq.data[i]))
        continue;
      r.p.data[i] = holds;
      if (wantQ)
        r.q.data[i] = holds;
    }
    return r;
  }
  FieldTensor r;
  bool withQ = wantQ && a.hasQ() && b.hasQ();
  if (kind != BinaryKind::div) {
    r.p = binaryMod(kind, a.p, b.p, field.p());
    if (withQ)
      r.q = binaryMod(kind, a.q, b.q, field.q());
    return r;
  }
  // Invert the divisor before broadcasting it: often far fewer elements.
  Tensor<uint64_t> inv = b.p;
  invertAll(inv.data, field.p(), zeroDivisor);
  r.p = binaryMod(kind, a.p, inv, field.p());
  if (withQ) {
    inv = b.q;
    invertAll(inv.data, field.q(), zeroDivisor);
    r.q = binaryMod(kind, a.q, inv, field.q());
  }
  return r;
}

static Tensor<uint64_t> reduceSumMod(const Tensor<uint64_t> &x, int64_t dim,
                                     uint64_t m) {
  int64_t outer = numElements(llvm::ArrayRef(x.shape).take_front(dim));
  int64_t len = x.shape[dim];
  int64_t inner = numElements(llvm::ArrayRef(x.shape).drop_front(dim + 1));
  TensorShape shape = x.shape;
  shape[dim] = 1;
  Tensor<uint64_t> r(shape, 0);
  for (int64_t o = 0; o < outer; ++o) {
    uint64_t *out = r.data.data() + o * inner;
    for (int64_t j = 0; j < len; ++j) {
      const uint64_t *in = x.data.data() + (o * len + j) * inner;
      for (int64_t i = 0; i < inner; ++i)
        out[i] = addm(out[i], in[i], m);
    }
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Max
//===----------------------------------------------------------------------===//

namespace {
/// The fingerprint modulus: 2^61 - 1, a prime.
constexpr uint64_t kM61 = (uint64_t(1) << 61) - 1;
uint64_t addM61(uint64_t a, uint64_t b) {
  uint64_t s = a + b; // a, b < 2^61: no overflow
  return s >= kM61 ? s - kM61 : s;
}
uint64_t mixKey(uint64_t h, uint64_t x) {
  return SplitMix64::mix(h ^ SplitMix64::mix(x + 0x9e3779b97f4a7c15ULL));
}
} // namespace

/// max over `dim`. Each output element is the max of a multiset S of leaf
/// values: the input elements along `dim`, where an element that is itself
/// a max result stands for its own multiset (its fingerprint). The
/// fingerprint of S is (sum of R_1(a), sum of R_2(a)) mod 2^61 - 1 over its
/// leaves a, R_h a keyed random function of a's Z_p residue: a sum, so
/// nested maxima add up to the flat one. The image, in Z_p and in Z_q, is a
/// keyed hash of the fingerprint. Two multisets collide with probability
/// 2^-122 (docs/Verification.md). A max over one element is that element.
FieldTensor FieldArithmetic::reduceMax(const Value &x, int64_t dim) const {
  // (Without the exponent part a value cannot stand for itself where one
  // is wanted: then it is hashed like any one-element multiset.)
  if (x.p.shape[dim] == 1 && (!wantQ || x.hasQ()))
    return x;
  int64_t outer = numElements(llvm::ArrayRef(x.p.shape).take_front(dim));
  int64_t len = x.p.shape[dim];
  int64_t inner = numElements(llvm::ArrayRef(x.p.shape).drop_front(dim + 1));
  TensorShape shape = x.p.shape;
  shape[dim] = 1;
  FieldTensor r;
  r.p = Tensor<uint64_t>(shape, 0);
  if (wantQ)
    r.q = Tensor<uint64_t>(shape, 0);
  r.maxKey.assign(2, Tensor<uint64_t>(shape, 0));
  bool keyed = x.hasMaxKey();
  uint64_t leafKey[2] = {mixKey(oracleKey, 0x6d61786c656166ULL),
                         mixKey(oracleKey, 0x6d61786c656167ULL)};
  uint64_t imageKey = mixKey(oracleKey, 0x6d6178696d67ULL);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      uint64_t key[2] = {0, 0};
      for (int64_t j = 0; j < len; ++j) {
        int64_t e = (o * len + j) * inner + i;
        uint64_t v = x.p.data[e];
        if (v == kAbsent)
          continue; // max pooling's padding
        if (keyed && (x.maxKey[0].data[e] | x.maxKey[1].data[e])) {
          for (unsigned h = 0; h < 2; ++h)
            key[h] = addM61(key[h], x.maxKey[h].data[e]);
          continue;
        }
        for (unsigned h = 0; h < 2; ++h)
          key[h] = addM61(key[h], mixKey(leafKey[h], v) % kM61);
      }
      if (!(key[0] | key[1]))
        key[0] = 1; // a fingerprint is never "no fingerprint"
      int64_t out = o * inner + i;
      r.maxKey[0].data[out] = key[0];
      r.maxKey[1].data[out] = key[1];
      uint64_t image = mixKey(mixKey(imageKey, key[0]), key[1]);
      r.p.data[out] = static_cast<uint64_t>(
          (static_cast<unsigned __int128>(mixKey(image, 0)) * field.p()) >>
          64);
      if (wantQ)
        r.q.data[out] = static_cast<uint64_t>(
            (static_cast<unsigned __int128>(mixKey(image, 1)) * field.q()) >>
            64);
    }
  return r;
}

FieldTensor FieldArithmetic::reduce(ReduceKind kind, const Value &x,
                                    int64_t dim) const {
  if (kind == ReduceKind::max)
    return reduceMax(x, dim);
  FieldTensor r;
  r.p = reduceSumMod(x.p, dim, field.p());
  if (wantQ && x.hasQ())
    r.q = reduceSumMod(x.q, dim, field.q());
  return r;
}

FieldTensor FieldArithmetic::softmax(const Value &x, int64_t dim) {
  FieldTensor e = unary(UnaryKind::exp, {}, x);
  return binary(BinaryKind::div, e, reduce(ReduceKind::sum, e, dim));
}
