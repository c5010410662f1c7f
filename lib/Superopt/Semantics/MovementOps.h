//===- MovementOps.h - data-movement ops of the graph and kernel levels -*- C++
//-*-===//
//
// Private to lib/Superopt. The graph and kernel levels have the same
// data-movement ops with the same accessors (graph.transpose and
// kernel.transpose, ...); their semantics is written once here, over the op
// class, for every arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_MOVEMENTOPS_H
#define MIRAGE_LIB_SUPEROPT_MOVEMENTOPS_H

#include "Semantics.h"

namespace mirage::superopt {

inline llvm::ArrayRef<int64_t> staticShape(mlir::Value v) {
  return llvm::cast<mlir::ShapedType>(v.getType()).getShape();
}

/// An op with one input whose result is `move` applied to each part of it.
template <typename Arith, typename OpT, typename Move>
mlir::LogicalResult evalMove(OpT op, Arith &arith, ValueEnv<Arith> &env,
                             Move &&move) {
  return bindResult(arith, env, op.getResult(),
                    Arith::apply(env.get(op.getInput()), move));
}

template <typename Arith, typename TransposeOp>
mlir::LogicalResult evalTranspose(TransposeOp op, Arith &arith,
                                  ValueEnv<Arith> &env) {
  return evalMove(op, arith, env,
                  [&](const auto &x) { return transpose(x, op.getPerm()); });
}

/// Reshape and broadcast: the result type says what to do.
template <typename Arith, typename OpT>
mlir::LogicalResult evalReshape(OpT op, Arith &arith, ValueEnv<Arith> &env,
                                bool isBroadcast) {
  llvm::ArrayRef<int64_t> to = staticShape(op.getResult());
  return evalMove(op, arith, env, [&](const auto &x) {
    return isBroadcast ? broadcastTo(x, to) : reshape(x, to);
  });
}

template <typename Arith, typename RepeatOp>
mlir::LogicalResult evalRepeat(RepeatOp op, Arith &arith,
                               ValueEnv<Arith> &env) {
  return evalMove(op, arith, env,
                  [&](const auto &x) { return repeat(x, op.getRepeats()); });
}

template <typename Arith, typename ConcatOp>
mlir::LogicalResult evalConcat(ConcatOp op, Arith &arith,
                               ValueEnv<Arith> &env) {
  llvm::SmallVector<const typename Arith::Value *> parts;
  for (mlir::Value v : op.getInputs())
    parts.push_back(&env.get(v));
  int64_t dim = op.getDim();
  return bindResult(
      arith, env, op.getResult(),
      Arith::applyN(parts, [&](auto ts) { return concat(ts, dim); }));
}

template <typename Arith, typename SplitOp>
mlir::LogicalResult evalSplit(SplitOp op, Arith &arith, ValueEnv<Arith> &env) {
  // Every piece is sliced before any is bound: binding inserts into the
  // environment, whose storage may move, and `x` points into it.
  const typename Arith::Value &x = env.get(op.getInput());
  int64_t dim = op.getDim();
  llvm::SmallVector<int64_t> offsets(staticShape(op.getInput()).size(), 0);
  std::vector<typename Arith::Value> parts;
  for (mlir::Value piece : op.getResults()) {
    llvm::ArrayRef<int64_t> sizes = staticShape(piece);
    parts.push_back(Arith::apply(
        x, [&](const auto &t) { return slice(t, offsets, sizes); }));
    offsets[dim] += sizes[dim];
  }
  for (auto [piece, part] : llvm::zip(op.getResults(), parts))
    if (mlir::failed(bindResult(arith, env, piece, std::move(part))))
      return mlir::failure();
  return mlir::success();
}

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_MOVEMENTOPS_H
