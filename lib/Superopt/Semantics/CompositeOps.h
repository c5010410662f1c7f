//===- CompositeOps.h - ops defined by composing primitives -----*- C++ -*-===//
//
// Private to lib/Superopt. rms_norm, convolution and pooling exist at the
// graph and kernel levels; their semantics is written once here, as the
// composition of the arithmetic's primitives and data movement, so that it
// holds in every arithmetic (a convolution is a matmul over unfolded windows
// in a finite field as much as in fp64).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_COMPOSITEOPS_H
#define MIRAGE_LIB_SUPEROPT_COMPOSITEOPS_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "MovementOps.h"
#include "mirage/Superopt/Semantics/Tensor.h"

namespace mirage::superopt {

/// x / sqrt(mean(x^2 over `dim`) + eps); `dim` -1 is the last dimension.
template <typename Arith>
typename Arith::Value rmsNorm(Arith &arith, const typename Arith::Value &x,
                              double eps, int64_t dim = -1) {
  llvm::ArrayRef<int64_t> shape = Arith::shapeOf(x);
  int64_t last = dim < 0 ? shape.size() - 1 : dim;
  auto squares = arith.unary(UnaryKind::square, {}, x);
  auto mean = arith.unary(UnaryKind::scale, {1.0 / shape[last]},
                          arith.reduce(ReduceKind::sum, squares, last));
  if (eps != 0.0)
    mean = arith.binary(BinaryKind::add, mean, arith.constant(eps));
  return arith.binary(BinaryKind::div, x,
                      arith.unary(UnaryKind::sqrt, {}, mean));
}

/// NCHW convolution with weight [O, C/groups, KH, KW] into `resultShape`.
template <typename Arith>
typename Arith::Value
conv2d(Arith &arith, const typename Arith::Value &x,
       const typename Arith::Value &w, llvm::ArrayRef<int64_t> strides,
       llvm::ArrayRef<int64_t> padding, llvm::ArrayRef<int64_t> dilations,
       int64_t groups, llvm::ArrayRef<int64_t> resultShape) {
  llvm::ArrayRef<int64_t> xs = Arith::shapeOf(x), ws = Arith::shapeOf(w);
  int64_t n = xs[0], c = xs[1], o = ws[0], kh = ws[2], kw = ws[3];
  int64_t oh = resultShape[2], ow = resultShape[3];
  int64_t patch = (c / groups) * kh * kw;
  auto cols = Arith::apply(x, [&](const auto &t) {
    auto unfolded =
        im2col(t, {kh, kw}, strides, padding, dilations, oh, ow, arith.zero());
    return reshape(std::move(unfolded), {n, groups, patch, oh * ow});
  });
  auto weights = Arith::apply(w, [&](const auto &t) {
    return broadcastTo(reshape(t, {1, groups, o / groups, patch}),
                       {n, groups, o / groups, patch});
  });
  auto y = arith.matmul(weights, cols);
  return Arith::apply(y,
                      [&](const auto &t) { return reshape(t, resultShape); });
}

/// NCHW pooling into `resultShape`; padding is ignored by max and counts as
/// zero for avg.
template <typename Arith>
typename Arith::Value
pool2d(Arith &arith, PoolKind kind, const typename Arith::Value &x,
       llvm::ArrayRef<int64_t> kernel, llvm::ArrayRef<int64_t> strides,
       llvm::ArrayRef<int64_t> padding, llvm::ArrayRef<int64_t> resultShape) {
  int64_t oh = resultShape[2], ow = resultShape[3];
  auto pad = kind == PoolKind::max ? arith.lowest() : arith.zero();
  auto cols = Arith::apply(x, [&](const auto &t) {
    return im2col(t, kernel, strides, padding, {1, 1}, oh, ow, pad);
  });
  auto r = arith.reduce(
      kind == PoolKind::max ? ReduceKind::max : ReduceKind::sum, cols, 2);
  if (kind == PoolKind::avg)
    r = arith.unary(UnaryKind::scale, {1.0 / (kernel[0] * kernel[1])}, r);
  return Arith::apply(r,
                      [&](const auto &t) { return reshape(t, resultShape); });
}

/// The graph and kernel ops of the same name share these evaluators (their
/// accessors are the same).
template <typename Arith, typename RMSNormOp>
mlir::LogicalResult evalRMSNorm(RMSNormOp op, Arith &arith,
                                ValueEnv<Arith> &env) {
  return bindResult(
      arith, env, op.getResult(),
      rmsNorm(arith, env.get(op.getInput()), op.getEps().convertToDouble()));
}

template <typename Arith, typename SoftmaxOp>
mlir::LogicalResult evalSoftmax(SoftmaxOp op, Arith &arith,
                                ValueEnv<Arith> &env) {
  return bindResult(
      arith, env, op.getResult(),
      arith.softmax(env.get(op.getInput()), static_cast<int64_t>(op.getDim())));
}

template <typename Arith, typename Conv2DOp>
mlir::LogicalResult evalConv2D(Conv2DOp op, Arith &arith,
                               ValueEnv<Arith> &env) {
  return bindResult(arith, env, op.getResult(),
                    conv2d(arith, env.get(op.getInput()),
                           env.get(op.getWeight()), op.getStrides(),
                           op.getPadding(), op.getDilations(),
                           static_cast<int64_t>(op.getGroups()),
                           staticShape(op.getResult())));
}

template <typename Arith, typename PoolOp>
mlir::LogicalResult evalPool2D(PoolOp op, PoolKind kind, Arith &arith,
                               ValueEnv<Arith> &env) {
  return bindResult(arith, env, op.getResult(),
                    pool2d(arith, kind, env.get(op.getInput()), op.getKernel(),
                           op.getStrides(), op.getPadding(),
                           staticShape(op.getResult())));
}

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_COMPOSITEOPS_H
