//===- Fingerprint.cpp - rule ops on tiny tensors, in two arithmetics -----===//
//
// Each op is written once over a lane type (arithmetic mod p, mod q, or in
// doubles) and run for the four lanes; exp, relu and max pooling, whose
// lanes differ in kind, are special-cased.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Rules/Fingerprint.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include <cmath>
#include <cstring>

using namespace mirage::rules;
using mirage::superopt::SplitMix64;

namespace {

struct ModLane {
  using T = uint64_t;
  uint64_t m;
  T add(T a, T b) const {
    T s = a + b;
    return s >= m ? s - m : s;
  }
  T sub(T a, T b) const { return a >= b ? a - b : a + (m - b); }
  T mul(T a, T b) const {
    return static_cast<T>((static_cast<unsigned __int128>(a) * b) % m);
  }
  T zero() const { return 0; }
};

struct RealLane {
  using T = double;
  T add(T a, T b) const { return a + b; }
  T sub(T a, T b) const { return a - b; }
  T mul(T a, T b) const { return a * b; }
  T zero() const { return 0; }
};

using Shape4 = llvm::SmallVector<int64_t, 4>;

Shape4 strides(llvm::ArrayRef<int64_t> shape) {
  Shape4 s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

int64_t count(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Calls f(outIndex, multiIndex) for every element of `shape`.
template <typename F> void forEachIndex(llvm::ArrayRef<int64_t> shape, F f) {
  int64_t n = count(shape);
  Shape4 idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    f(i, idx);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

/// The flat index in `from` (NumPy-broadcast to the index's shape) of a
/// multi-index of the broadcast result.
int64_t broadcastIndex(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> idx) {
  int64_t flat = 0, stride = 1;
  size_t offset = idx.size() - from.size();
  for (int64_t d = static_cast<int64_t>(from.size()) - 1; d >= 0; --d) {
    if (from[d] != 1)
      flat += idx[offset + d] * stride;
    stride *= from[d];
  }
  return flat;
}

/// One lane of one op on the operands' values; `scalar` is the lane's value
/// of the op's scalar expression. Ops whose lanes differ in kind (exp,
/// relu, max pooling) are not handled here.
template <typename L>
void runLane(const L &lane, OpKind kind, llvm::ArrayRef<int64_t> ints,
             typename L::T scalar,
             llvm::ArrayRef<const std::vector<typename L::T> *> in,
             llvm::ArrayRef<const TypedShape<int64_t> *> inShapes,
             llvm::ArrayRef<TypedShape<int64_t>> outShapes,
             llvm::ArrayRef<std::vector<typename L::T> *> out,
             typename L::T inverseWindow) {
  using T = typename L::T;
  for (size_t i = 0; i < out.size(); ++i)
    out[i]->assign(count(outShapes[i].dims), lane.zero());
  const auto &x = *in[0];
  llvm::ArrayRef<int64_t> xs = inShapes[0]->dims;
  std::vector<T> &r = *out[0];
  llvm::ArrayRef<int64_t> rs = outShapes[0].dims;
  switch (kind) {
  case OpKind::Matmul: {
    const auto &y = *in[1];
    int64_t m = xs[0], k = xs[1], n = inShapes[1]->dims[1];
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T acc = lane.zero();
        for (int64_t t = 0; t < k; ++t)
          acc = lane.add(acc, lane.mul(x[i * k + t], y[t * n + j]));
        r[i * n + j] = acc;
      }
    return;
  }
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul: {
    const auto &y = *in[1];
    llvm::ArrayRef<int64_t> ys = inShapes[1]->dims;
    forEachIndex(rs, [&](int64_t o, llvm::ArrayRef<int64_t> idx) {
      T a = x[broadcastIndex(xs, idx)], b = y[broadcastIndex(ys, idx)];
      r[o] = kind == OpKind::Add   ? lane.add(a, b)
             : kind == OpKind::Sub ? lane.sub(a, b)
                                   : lane.mul(a, b);
    });
    return;
  }
  case OpKind::ScalarMul:
    for (size_t i = 0; i < x.size(); ++i)
      r[i] = lane.mul(x[i], scalar);
    return;
  case OpKind::ScalarAdd:
    for (size_t i = 0; i < x.size(); ++i)
      r[i] = lane.add(x[i], scalar);
    return;
  case OpKind::Transpose: {
    Shape4 xst = strides(xs);
    forEachIndex(rs, [&](int64_t o, llvm::ArrayRef<int64_t> idx) {
      int64_t src = 0;
      for (size_t d = 0; d < idx.size(); ++d)
        src += idx[d] * xst[ints[d]];
      r[o] = x[src];
    });
    return;
  }
  case OpKind::Concat: {
    const auto &y = *in[1];
    int64_t dim = ints[0], cut = xs[dim];
    Shape4 xst = strides(xs), yst = strides(inShapes[1]->dims);
    forEachIndex(rs, [&](int64_t o, llvm::ArrayRef<int64_t> idx) {
      int64_t src = 0;
      bool first = idx[dim] < cut;
      for (size_t d = 0; d < idx.size(); ++d) {
        int64_t v = static_cast<int64_t>(d) == dim && !first ? idx[d] - cut
                                                             : idx[d];
        src += v * (first ? xst[d] : yst[d]);
      }
      r[o] = first ? x[src] : y[src];
    });
    return;
  }
  case OpKind::Split: {
    int64_t dim = ints[0], cut = outShapes[0].dims[dim];
    Shape4 xst = strides(xs);
    for (int piece = 0; piece < 2; ++piece) {
      std::vector<T> &dst = *out[piece];
      forEachIndex(outShapes[piece].dims,
                   [&](int64_t o, llvm::ArrayRef<int64_t> idx) {
                     int64_t src = 0;
                     for (size_t d = 0; d < idx.size(); ++d)
                       src += (idx[d] + (static_cast<int64_t>(d) == dim &&
                                                 piece == 1
                                             ? cut
                                             : 0)) *
                              xst[d];
                     dst[o] = x[src];
                   });
    }
    return;
  }
  case OpKind::ReduceSum: {
    int64_t dim = ints[0];
    Shape4 xst = strides(xs);
    forEachIndex(rs, [&](int64_t o, llvm::ArrayRef<int64_t> idx) {
      int64_t base = 0;
      for (size_t d = 0; d < idx.size(); ++d)
        base += idx[d] * xst[d];
      T acc = lane.zero();
      for (int64_t t = 0; t < xs[dim]; ++t)
        acc = lane.add(acc, x[base + t * xst[dim]]);
      r[o] = acc;
    });
    return;
  }
  case OpKind::Conv2D: {
    const auto &w = *in[1];
    llvm::ArrayRef<int64_t> ws = inShapes[1]->dims;
    int64_t n = xs[0], c = xs[1], h = xs[2], wd = xs[3];
    int64_t o = ws[0], ci = ws[1], kh = ws[2], kw = ws[3];
    int64_t oh = rs[2], ow = rs[3], groups = ints[6];
    int64_t opg = o / groups;
    (void)c;
    for (int64_t b = 0; b < n; ++b)
      for (int64_t oc = 0; oc < o; ++oc) {
        int64_t g = oc / opg;
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t z = 0; z < ow; ++z) {
            T acc = lane.zero();
            for (int64_t ic = 0; ic < ci; ++ic)
              for (int64_t i = 0; i < kh; ++i) {
                int64_t iy = y * ints[0] - ints[2] + i * ints[4];
                if (iy < 0 || iy >= h)
                  continue;
                for (int64_t j = 0; j < kw; ++j) {
                  int64_t iz = z * ints[1] - ints[3] + j * ints[5];
                  if (iz < 0 || iz >= wd)
                    continue;
                  T a = x[((b * xs[1] + g * ci + ic) * h + iy) * wd + iz];
                  T v = w[((oc * ci + ic) * kh + i) * kw + j];
                  acc = lane.add(acc, lane.mul(a, v));
                }
              }
            r[((b * o + oc) * oh + y) * ow + z] = acc;
          }
      }
    return;
  }
  case OpKind::AvgPool2D: {
    int64_t h = xs[2], wd = xs[3], oh = rs[2], ow = rs[3];
    for (int64_t bc = 0; bc < xs[0] * xs[1]; ++bc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z) {
          T acc = lane.zero();
          for (int64_t i = 0; i < ints[0]; ++i) {
            int64_t iy = y * ints[2] - ints[4] + i;
            if (iy < 0 || iy >= h)
              continue;
            for (int64_t j = 0; j < ints[1]; ++j) {
              int64_t iz = z * ints[3] - ints[5] + j;
              if (iz >= 0 && iz < wd)
                acc = lane.add(acc, x[(bc * h + iy) * wd + iz]);
            }
          }
          // Padded positions count as zeros: the divisor is the window.
          r[(bc * oh + y) * ow + z] = lane.mul(acc, inverseWindow);
        }
    return;
  }
  case OpKind::Reshape:
    r = x;
    return;
  case OpKind::Exp:
  case OpKind::Relu:
  case OpKind::MaxPool2D:
    break;
  }
}

uint64_t hashValues(llvm::ArrayRef<int64_t> shape,
                    llvm::ArrayRef<uint64_t> a, llvm::ArrayRef<uint64_t> b) {
  uint64_t h = 0x6a09e667f3bcc909ULL ^ shape.size();
  for (int64_t d : shape)
    h = SplitMix64::mix(h ^ static_cast<uint64_t>(d));
  for (uint64_t v : a)
    h = SplitMix64::mix(h + v);
  for (uint64_t v : b)
    h = SplitMix64::mix(h ^ (v + 0x9e3779b97f4a7c15ULL));
  return h;
}

uint64_t bits(double d) {
  if (d == 0)
    d = 0; // +0 and -0 are the same value
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

} // namespace

llvm::Expected<FingerprintEvaluator>
FingerprintEvaluator::create(uint64_t seed, unsigned numScalars) {
  llvm::Expected<superopt::FieldPair> field =
      superopt::FieldPair::random(31, SplitMix64::mix(seed ^ 0x7a50ULL));
  if (!field)
    return field.takeError();
  FingerprintEvaluator e(*field, seed);
  SplitMix64 rng(SplitMix64::mix(seed + 17));
  for (unsigned i = 0; i < numScalars; ++i) {
    e.scalarP.push_back(1 + rng.below(field->p() - 1));
    e.scalarQ.push_back(1 + rng.below(field->q() - 1));
    // Positive (relu commutes with a positive scale), dyadic (the fp64
    // lanes stay exact) and not integers, so that no sum of inputs equals
    // a scaled input by accident (x + x is not c0 x).
    static const double kValues[] = {1.375, 0.8125, 1.0625, 0.6875};
    e.scalarReal.push_back(kValues[i % 4] + (i / 4));
  }
  return e;
}

void FingerprintEvaluator::randomize(TinyTensor &t, uint64_t stream) const {
  SplitMix64 rng(SplitMix64::mix(seed ^ SplitMix64::mix(stream + 1)));
  int64_t n = count(t.shape.dims);
  t.p.resize(n);
  t.q.resize(n);
  t.r1.resize(n);
  t.r2.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    t.p[i] = rng.below(fieldPair.p());
    t.q[i] = rng.below(fieldPair.q());
    // Small integers of both signs, so that relu and max see both: the
    // second draw mostly negative, so that windows where every value is
    // negative (max pooling of a relu differs there) are common.
    t.r1[i] = static_cast<double>(static_cast<int64_t>(rng.below(9)) - 4);
    t.r2[i] = static_cast<double>(static_cast<int64_t>(rng.below(12)) - 9);
  }
  t.fieldHash = hashValues(t.shape.dims, t.p, {});
  std::vector<uint64_t> r1(n), r2(n);
  for (int64_t i = 0; i < n; ++i) {
    r1[i] = bits(t.r1[i]);
    r2[i] = bits(t.r2[i]);
  }
  t.realHash = hashValues(t.shape.dims, r1, r2);
}

uint64_t FingerprintEvaluator::oracle(unsigned what, uint64_t x,
                                      unsigned lane) const {
  uint64_t m = lane == 0 ? fieldPair.p() : fieldPair.q();
  uint64_t h = SplitMix64::mix(seed ^ SplitMix64::mix(x + 0x51ed27ULL * what +
                                                      0x2545f491ULL * lane));
  return h % m;
}

void FingerprintEvaluator::computeValues(
    OpKind kind, llvm::ArrayRef<int64_t> ints, ScalarExpr scalar,
    llvm::ArrayRef<const TinyTensor *> operands,
    llvm::SmallVectorImpl<TinyTensor> &results) const {
  ModLane lp{fieldPair.p()}, lq{fieldPair.q()};
  RealLane lr;
  auto scalarMod = [&](const llvm::SmallVector<uint64_t, 2> &values,
                       const ModLane &lane) -> uint64_t {
    switch (scalar.kind) {
    case ScalarExpr::Kind::None:
      return 0;
    case ScalarExpr::Kind::Symbol:
      return values[scalar.a];
    case ScalarExpr::Kind::Product:
      return lane.mul(values[scalar.a], values[scalar.b]);
    case ScalarExpr::Kind::Sum:
      return lane.add(values[scalar.a], values[scalar.b]);
    }
    return 0;
  };
  double realScalar = scalar.evaluate(scalarReal);
  llvm::SmallVector<const TypedShape<int64_t> *, 2> inShapes;
  for (const TinyTensor *t : operands)
    inShapes.push_back(&t->shape);
  llvm::SmallVector<TypedShape<int64_t>, 2> outShapes;
  for (const TinyTensor &t : results)
    outShapes.push_back(t.shape);

  int64_t window = kind == OpKind::AvgPool2D ? ints[0] * ints[1] : 1;
  auto runAll = [&](auto member, const auto &lane, auto scalarValue,
                    auto inverse) {
    using T = typename std::decay_t<decltype(lane)>::T;
    llvm::SmallVector<const std::vector<T> *, 2> in;
    for (const TinyTensor *t : operands)
      in.push_back(&(t->*member));
    llvm::SmallVector<std::vector<T> *, 2> out;
    for (TinyTensor &t : results)
      out.push_back(&(t.*member));
    runLane(lane, kind, ints, scalarValue, in, inShapes, outShapes, out,
            inverse);
  };

  if (kind == OpKind::Exp || kind == OpKind::Relu ||
      kind == OpKind::MaxPool2D) {
    const TinyTensor &x = *operands[0];
    TinyTensor &r = results[0];
    int64_t n = count(r.shape.dims);
    r.p.resize(n);
    r.q.resize(n);
    r.r1.resize(n);
    r.r2.resize(n);
    if (kind == OpKind::Exp) {
      for (int64_t i = 0; i < n; ++i) {
        r.p[i] = fieldPair.exp(x.q[i]);
        // An exp of an exp is outside the field test: uninterpreted.
        r.q[i] = oracle(1, x.q[i], 1);
        r.r1[i] = std::exp(x.r1[i]);
        r.r2[i] = std::exp(x.r2[i]);
      }
      return;
    }
    if (kind == OpKind::Relu) {
      for (int64_t i = 0; i < n; ++i) {
        r.p[i] = oracle(2, x.p[i], 0);
        r.q[i] = oracle(2, x.q[i], 1);
        r.r1[i] = std::max(0.0, x.r1[i]);
        r.r2[i] = std::max(0.0, x.r2[i]);
      }
      return;
    }
    // Max pooling: exact in fp64; in the field, a keyed hash of the window
    // as a multiset (max does not depend on the order).
    llvm::ArrayRef<int64_t> xs = x.shape.dims;
    int64_t h = xs[2], wd = xs[3], oh = r.shape.dims[2], ow = r.shape.dims[3];
    llvm::SmallVector<uint64_t, 16> wp, wq;
    for (int64_t bc = 0; bc < xs[0] * xs[1]; ++bc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z) {
          wp.clear();
          wq.clear();
          double m1 = -INFINITY, m2 = -INFINITY;
          for (int64_t i = 0; i < ints[0]; ++i) {
            int64_t iy = y * ints[2] - ints[4] + i;
            if (iy < 0 || iy >= h)
              continue;
            for (int64_t j = 0; j < ints[1]; ++j) {
              int64_t iz = z * ints[3] - ints[5] + j;
              if (iz < 0 || iz >= wd)
                continue;
              int64_t s = (bc * h + iy) * wd + iz;
              wp.push_back(x.p[s]);
              wq.push_back(x.q[s]);
              m1 = std::max(m1, x.r1[s]);
              m2 = std::max(m2, x.r2[s]);
            }
          }
          llvm::sort(wp);
          llvm::sort(wq);
          uint64_t hp = 0, hq = 0;
          for (uint64_t v : wp)
            hp = SplitMix64::mix(hp + v);
          for (uint64_t v : wq)
            hq = SplitMix64::mix(hq + v);
          int64_t o = (bc * oh + y) * ow + z;
          r.p[o] = oracle(3, hp, 0);
          r.q[o] = oracle(3, hq, 1);
          r.r1[o] = m1;
          r.r2[o] = m2;
        }
    return;
  }
  uint64_t invP = fieldPair.inv(static_cast<uint64_t>(window) % fieldPair.p());
  uint64_t invQ =
      superopt::powMod(static_cast<uint64_t>(window), fieldPair.q() - 2,
                       fieldPair.q());
  runAll(&TinyTensor::p, lp, scalarMod(scalarP, lp), invP);
  runAll(&TinyTensor::q, lq, scalarMod(scalarQ, lq), invQ);
  runAll(&TinyTensor::r1, lr, realScalar, 1.0 / window);
  runAll(&TinyTensor::r2, lr, realScalar, 1.0 / window);
}

bool FingerprintEvaluator::apply(
    OpKind kind, llvm::ArrayRef<int64_t> ints, ScalarExpr scalar,
    llvm::ArrayRef<const TinyTensor *> operands,
    const llvm::SmallVector<int64_t, 4> *explicitShape,
    llvm::SmallVectorImpl<TinyTensor> &results) const {
  llvm::SmallVector<const TypedShape<int64_t> *, 2> shapes;
  for (const TinyTensor *t : operands)
    shapes.push_back(&t->shape);
  llvm::SmallVector<TypedShape<int64_t>, 2> outShapes;
  if (!inferShapes<int64_t>(kind, ints, shapes, explicitShape, outShapes))
    return false;
  results.resize(outShapes.size());
  bool weight = llvm::all_of(operands, [](const TinyTensor *t) {
    return t->weight;
  });
  for (size_t i = 0; i < outShapes.size(); ++i) {
    results[i].shape = std::move(outShapes[i]);
    results[i].weight = weight;
  }
  computeValues(kind, ints, scalar, operands, results);
  for (TinyTensor &t : results) {
    t.fieldHash = hashValues(t.shape.dims, t.p, {});
    int64_t n = t.numElements();
    llvm::SmallVector<uint64_t, 64> r1(n), r2(n);
    for (int64_t i = 0; i < n; ++i) {
      r1[i] = bits(t.r1[i]);
      r2[i] = bits(t.r2[i]);
    }
    t.realHash = hashValues(t.shape.dims, r1, r2);
  }
  return true;
}
