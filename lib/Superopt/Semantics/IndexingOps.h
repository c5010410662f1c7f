//===- IndexingOps.h - gather, scatter, one_hot and topk ----------*- C++ -*-===//
//
// Private to lib/Superopt. The graph and kernel levels have the same
// indexing ops with the same accessors (issue 24); their semantics is
// written once here, over the op class, for every arithmetic.
//
// Index tensors hold integers: exact doubles in the real arithmetic, and in
// the finite field the integer itself as a Z_p residue. The field verifier
// draws index inputs as concrete in-range integers and rejects programs whose
// indices are computed from float data (topk), so an index read here is
// always a concrete integer; one that is not (or is out of range) is
// reported at the op, never clamped.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_INDEXINGOPS_H
#define MIRAGE_LIB_SUPEROPT_INDEXINGOPS_H

#include "MovementOps.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

namespace mirage::superopt {

/// Index values beyond this are not concrete integers: a real value that is
/// not integral, or a field residue that stands for a negative number or a
/// computed value.
constexpr int64_t kMaxConcreteIndex = int64_t(1) << 53;

inline bool readIndex(double v, int64_t &out) {
  if (!(std::fabs(v) < double(kMaxConcreteIndex)) || std::trunc(v) != v)
    return false;
  out = static_cast<int64_t>(v);
  return true;
}
inline bool readIndex(uint64_t v, int64_t &out) {
  if (v >= uint64_t(kMaxConcreteIndex))
    return false;
  out = static_cast<int64_t>(v);
  return true;
}

/// The elements of index tensor `v` (operand `operand` of `op`), each
/// checked to lie in [0, bound).
template <typename Arith>
mlir::FailureOr<std::vector<int64_t>>
readIndices(mlir::Operation *op, const typename Arith::Value &v,
            int64_t bound) {
  const auto &data = [&]() -> const auto & {
    if constexpr (std::is_same_v<Arith, FieldArithmetic>)
      return v.p.data;
    else
      return v.data;
  }();
  std::vector<int64_t> out(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    int64_t index = 0;
    bool integral = readIndex(data[i], index);
    if (!integral || index < 0 || index >= bound) {
      auto diag = op->emitOpError("index ");
      if (integral)
        diag << index;
      else if constexpr (std::is_same_v<Arith, FieldArithmetic>)
        diag << "(a Z_p residue) " << data[i];
      else
        diag << llvm::formatv("{0:g}", data[i]).str();
      diag << " at flat position " << i << " lies outside [0, " << bound
           << ")";
      return mlir::failure();
    }
    out[i] = index;
  }
  return out;
}

/// The flat offset in a tensor of shape `to` of each position of a tensor
/// of shape `from` (same rank), with the coordinate along `axis` replaced
/// by indices[i].
inline std::vector<int64_t>
elementTargets(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to,
               int64_t axis, llvm::ArrayRef<int64_t> indices) {
  TensorShape toStrides = rowMajorStrides(to);
  TensorShape fromStrides = rowMajorStrides(from);
  std::vector<int64_t> targets(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) {
    int64_t rest = static_cast<int64_t>(i), offset = 0;
    for (size_t d = 0; d < from.size(); ++d) {
      int64_t coord = rest / fromStrides[d];
      rest %= fromStrides[d];
      offset += (static_cast<int64_t>(d) == axis ? indices[i] : coord) *
                toStrides[d];
    }
    targets[i] = offset;
  }
  return targets;
}

template <typename Arith, typename GatherOp>
mlir::LogicalResult evalGather(GatherOp op, Arith &arith,
                               ValueEnv<Arith> &env) {
  llvm::ArrayRef<int64_t> data = staticShape(op.getData());
  int64_t axis = op.getAxis();
  auto indices = readIndices<Arith>(op, env.get(op.getIndices()), data[axis]);
  if (mlir::failed(indices))
    return mlir::failure();
  int64_t outer = numElements(data.take_front(axis));
  int64_t inner = numElements(data.drop_front(axis + 1));
  int64_t n = data[axis], m = static_cast<int64_t>(indices->size());
  llvm::ArrayRef<int64_t> out = staticShape(op.getResult());
  return bindResult(arith, env, op.getResult(),
                    Arith::apply(env.get(op.getData()), [&](const auto &t) {
                      std::decay_t<decltype(t)> r(out);
                      for (int64_t o = 0; o < outer; ++o)
                        for (int64_t j = 0; j < m; ++j)
                          std::copy_n(t.data.begin() +
                                          (o * n + (*indices)[j]) * inner,
                                      inner,
                                      r.data.begin() + (o * m + j) * inner);
                      return r;
                    }));
}

template <typename Arith, typename GatherElementsOp>
mlir::LogicalResult evalGatherElements(GatherElementsOp op, Arith &arith,
                                       ValueEnv<Arith> &env) {
  llvm::ArrayRef<int64_t> data = staticShape(op.getData());
  llvm::ArrayRef<int64_t> idxShape = staticShape(op.getIndices());
  int64_t axis = op.getAxis();
  auto indices = readIndices<Arith>(op, env.get(op.getIndices()), data[axis]);
  if (mlir::failed(indices))
    return mlir::failure();
  std::vector<int64_t> sources = elementTargets(idxShape, data, axis, *indices);
  return bindResult(arith, env, op.getResult(),
                    Arith::apply(env.get(op.getData()), [&](const auto &t) {
                      std::decay_t<decltype(t)> r(idxShape);
                      for (size_t i = 0; i < sources.size(); ++i)
                        r.data[i] = t.data[sources[i]];
                      return r;
                    }));
}

/// Places updates[i] for the i in `which` at targets[i] of `dst`.
template <typename Arith>
void placeUpdates(typename Arith::Value &dst,
                  const typename Arith::Value &updates,
                  llvm::ArrayRef<int64_t> targets,
                  llvm::ArrayRef<int64_t> which) {
  Arith::update(dst, updates, [&](auto &d, const auto &s) {
    for (int64_t i : which)
      d.data[targets[i]] = s.data[i];
  });
}

template <typename Arith, typename ScatterElementsOp>
mlir::LogicalResult evalScatterElements(ScatterElementsOp op, Arith &arith,
                                        ValueEnv<Arith> &env) {
  llvm::ArrayRef<int64_t> data = staticShape(op.getData());
  llvm::ArrayRef<int64_t> idxShape = staticShape(op.getIndices());
  int64_t axis = op.getAxis();
  auto indices = readIndices<Arith>(op, env.get(op.getIndices()), data[axis]);
  if (mlir::failed(indices))
    return mlir::failure();
  std::vector<int64_t> targets = elementTargets(idxShape, data, axis, *indices);
  // Layer k holds the k-th update of every element that has one: within a
  // layer no two updates meet, so each layer is a plain placement.
  std::vector<std::vector<int64_t>> layers;
  llvm::DenseMap<int64_t, unsigned> seen;
  for (size_t i = 0; i < targets.size(); ++i) {
    unsigned k = seen[targets[i]]++;
    if (k == layers.size())
      layers.emplace_back();
    layers[k].push_back(static_cast<int64_t>(i));
  }
  const typename Arith::Value &updates = env.get(op.getUpdates());
  if (op.getReduction() == ScatterReduction::none) {
    if (layers.size() > 1) {
      int64_t twice = targets[layers[1].front()];
      return op.emitOpError("writes two updates to the element at flat "
                            "offset ")
             << twice
             << " with reduction = none: the result is undefined (use "
                "reduction = add to sum them)";
    }
    typename Arith::Value r = env.get(op.getData());
    if (!layers.empty())
      placeUpdates<Arith>(r, updates, targets, layers.front());
    return bindResult(arith, env, op.getResult(), std::move(r));
  }
  // reduction = add: data + layer 1 + layer 2 + ..., each layer zero where
  // it has no update.
  typename Arith::Value acc = env.get(op.getData());
  for (const std::vector<int64_t> &layer : layers) {
    typename Arith::Value z = Arith::zeros(data);
    placeUpdates<Arith>(z, updates, targets, layer);
    acc = arith.binary(BinaryKind::add, acc, z);
  }
  return bindResult(arith, env, op.getResult(), std::move(acc));
}

template <typename Arith, typename OneHotOp>
mlir::LogicalResult evalOneHot(OneHotOp op, Arith &arith,
                               ValueEnv<Arith> &env) {
  llvm::ArrayRef<int64_t> out = staticShape(op.getResult());
  int64_t depth = out.back();
  auto indices = readIndices<Arith>(op, env.get(op.getIndices()), depth);
  if (mlir::failed(indices))
    return mlir::failure();
  // The ones come from the arithmetic's constant 1 (both field parts).
  typename Arith::Value one = arith.constant(1.0);
  typename Arith::Value ones = Arith::apply(
      one, [&](const auto &t) { return broadcastTo(t, {depth}); });
  std::vector<int64_t> targets(indices->size()), sources(indices->size());
  for (size_t i = 0; i < indices->size(); ++i) {
    targets[i] = static_cast<int64_t>(i) * depth + (*indices)[i];
    sources[i] = (*indices)[i];
  }
  typename Arith::Value r = Arith::zeros(out);
  Arith::update(r, ones, [&](auto &d, const auto &s) {
    for (size_t i = 0; i < targets.size(); ++i)
      d.data[targets[i]] = s.data[sources[i]];
  });
  return bindResult(arith, env, op.getResult(), std::move(r));
}

/// topk orders its input: the real arithmetic only (the field verifier
/// rejects programs with topk, FieldFragment.cpp).
template <typename Arith, typename TopKOp>
mlir::LogicalResult evalTopK(TopKOp op, Arith &arith, ValueEnv<Arith> &env) {
  if constexpr (!std::is_same_v<Arith, RealArithmetic>) {
    return op.emitOpError("has no finite-field semantics: it orders its "
                          "input, and Z_p has no order");
  } else {
    const RealTensor &x = env.get(op.getInput());
    llvm::ArrayRef<int64_t> in = staticShape(op.getInput());
    int64_t dim = op.getDim(), k = op.getK();
    bool largest = op.getLargest();
    int64_t outer = numElements(in.take_front(dim));
    int64_t inner = numElements(in.drop_front(dim + 1));
    int64_t n = in[dim];
    llvm::ArrayRef<int64_t> outShape = staticShape(op.getValues());
    RealTensor values(outShape), indices(outShape);
    // "a before b": NaN first (PyTorch counts it larger than every number,
    // and smallest-first still puts it last), then by value, then by
    // position (stable sort).
    auto before = [&](double a, double b) {
      if (std::isnan(a) || std::isnan(b))
        return largest ? std::isnan(a) && !std::isnan(b)
                       : !std::isnan(a) && std::isnan(b);
      return largest ? a > b : a < b;
    };
    std::vector<int64_t> order(n);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        auto at = [&](int64_t j) { return x.data[(o * n + j) * inner + i]; };
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) {
                           return before(at(a), at(b));
                         });
        for (int64_t j = 0; j < k; ++j) {
          values.data[(o * k + j) * inner + i] = at(order[j]);
          indices.data[(o * k + j) * inner + i] = double(order[j]);
        }
      }
    if (mlir::failed(bindResult(arith, env, op.getValues(), std::move(values))))
      return mlir::failure();
    return bindResult(arith, env, op.getIndices(), std::move(indices));
  }
}

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_INDEXINGOPS_H
