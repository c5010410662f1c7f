//===- GraphSemantics.cpp - what graph ops compute ------------------------===//
//
// The graph level: value-semantics tensor ops. Each op maps onto the
// arithmetic's primitives (matmul, unary, binary, reduce, softmax), a
// composite of them (CompositeOps.h) or data movement (Tensor.h).
//
//===----------------------------------------------------------------------===//

#include "CompositeOps.h"
#include "IndexingOps.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;
namespace graph = mirage::graph;

template <typename Arith>
LogicalResult mirage::superopt::evalGraphOp(Operation *op, Arith &arith,
                                            ValueEnv<Arith> &env) {
  using V = typename Arith::Value;
  auto in = [&](Value v) -> const V & { return env.get(v); };
  auto result = [&](V value) {
    return bindResult(arith, env, op->getResult(0), std::move(value));
  };
  auto unary = [&](UnaryKind kind, ArrayRef<double> params, Value x) {
    return result(arith.unary(kind, params, in(x)));
  };

  return TypeSwitch<Operation *, LogicalResult>(op)
      .template Case<graph::MatmulOp>([&](auto mm) {
        return result(arith.matmul(in(mm.getLhs()), in(mm.getRhs())));
      })
      .template Case<graph::UnaryOpInterface>([&](auto u) {
        return unary(u.getUnaryKind(), u.getUnaryParams(), u.getUnaryInput());
      })
      .template Case<graph::CastOp>([&](auto c) {
        // Rounded to the result's element type by bindResult (native mode).
        return unary(UnaryKind::cast, {}, c.getInput());
      })
      .template Case<graph::BinaryOpInterface>([&](auto b) {
        return result(arith.binary(b.getBinaryKind(), in(op->getOperand(0)),
                                   in(op->getOperand(1))));
      })
      .template Case<graph::SelectOp>([&](auto s) {
        return result(arith.select(in(s.getCond()), in(s.getOnTrue()),
                                   in(s.getOnFalse())));
      })
      .template Case<graph::ReduceSumOp, graph::ReduceMaxOp>([&](auto r) {
        ReduceKind kind =
            isa<graph::ReduceSumOp>(op) ? ReduceKind::sum : ReduceKind::max;
        return result(arith.reduce(kind, in(r.getInput()),
                                   static_cast<int64_t>(r.getDim())));
      })
      .template Case<graph::RMSNormOp>(
          [&](auto n) { return evalRMSNorm(n, arith, env); })
      .template Case<graph::SoftmaxOp>(
          [&](auto s) { return evalSoftmax(s, arith, env); })
      .template Case<graph::TransposeOp>(
          [&](auto t) { return evalTranspose(t, arith, env); })
      .template Case<graph::ReshapeOp, graph::BroadcastOp>([&](auto r) {
        return evalReshape(r, arith, env, isa<graph::BroadcastOp>(op));
      })
      .template Case<graph::RepeatOp>(
          [&](auto r) { return evalRepeat(r, arith, env); })
      .template Case<graph::ConcatOp>(
          [&](auto c) { return evalConcat(c, arith, env); })
      .template Case<graph::SplitOp>(
          [&](auto s) { return evalSplit(s, arith, env); })
      .template Case<graph::Conv2DOp>(
          [&](auto c) { return evalConv2D(c, arith, env); })
      .template Case<graph::MaxPool2DOp, graph::AvgPool2DOp>(
          [&](auto p) { return evalPool2D(p, p.getKind(), arith, env); })
      .template Case<graph::GatherOp>(
          [&](auto g) { return evalGather(g, arith, env); })
      .template Case<graph::GatherElementsOp>(
          [&](auto g) { return evalGatherElements(g, arith, env); })
      .template Case<graph::ScatterElementsOp>(
          [&](auto s) { return evalScatterElements(s, arith, env); })
      .template Case<graph::OneHotOp>(
          [&](auto o) { return evalOneHot(o, arith, env); })
      .template Case<graph::TopKOp>(
          [&](auto t) { return evalTopK(t, arith, env); })
      .template Default([&](Operation *) {
        return op->emitOpError("has no semantics in the interpreter");
      });
}

template LogicalResult
mirage::superopt::evalGraphOp(Operation *, RealArithmetic &,
                              ValueEnv<RealArithmetic> &);
template LogicalResult
mirage::superopt::evalGraphOp(Operation *, FieldArithmetic &,
                              ValueEnv<FieldArithmetic> &);
