//===- KernelSemantics.cpp - what kernel launches compute -----------------===//
//
// The kernel level: each op is one launch. A predefined kernel computes what
// the graph op of the same name does (GraphSemantics.cpp), with its
// elementwise or reduction kind given by an attribute; a graph-defined
// kernel runs its block graph (BlockSemantics.cpp).
//
//===----------------------------------------------------------------------===//

#include "CompositeOps.h"
#include "IndexingOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;
namespace kernel = mirage::kernel;

template <typename Arith>
LogicalResult mirage::superopt::evalKernelOp(Operation *op, Arith &arith,
                                             ValueEnv<Arith> &env) {
  using V = typename Arith::Value;
  auto in = [&](Value v) -> const V & { return env.get(v); };
  auto result = [&](V value) {
    return bindResult(arith, env, op->getResult(0), std::move(value));
  };

  return TypeSwitch<Operation *, LogicalResult>(op)
      .template Case<kernel::GraphDefOp>(
          [&](auto def) { return evalBlockGraph(def, arith, env); })
      .template Case<kernel::MatmulOp>([&](auto mm) {
        return result(arith.matmul(in(mm.getLhs()), in(mm.getRhs())));
      })
      .template Case<kernel::UnaryOp>([&](auto u) {
        return result(arith.unary(u.getKind(),
                                  u.getParams().value_or(ArrayRef<double>()),
                                  in(u.getInput())));
      })
      .template Case<kernel::BinaryOp>([&](auto b) {
        return result(
            arith.binary(b.getKind(), in(b.getLhs()), in(b.getRhs())));
      })
      .template Case<kernel::SelectOp>([&](auto s) {
        return result(arith.select(in(s.getCond()), in(s.getOnTrue()),
                                   in(s.getOnFalse())));
      })
      .template Case<kernel::ReduceOp>([&](auto r) {
        return result(arith.reduce(r.getKind(), in(r.getInput()),
                                   static_cast<int64_t>(r.getDim())));
      })
      .template Case<kernel::RMSNormOp>(
          [&](auto n) { return evalRMSNorm(n, arith, env); })
      .template Case<kernel::SoftmaxOp>(
          [&](auto s) { return evalSoftmax(s, arith, env); })
      .template Case<kernel::TransposeOp>(
          [&](auto t) { return evalTranspose(t, arith, env); })
      .template Case<kernel::ReshapeOp, kernel::BroadcastOp>([&](auto r) {
        return evalReshape(r, arith, env, isa<kernel::BroadcastOp>(op));
      })
      .template Case<kernel::RepeatOp>(
          [&](auto r) { return evalRepeat(r, arith, env); })
      .template Case<kernel::ConcatOp>(
          [&](auto c) { return evalConcat(c, arith, env); })
      .template Case<kernel::SplitOp>(
          [&](auto s) { return evalSplit(s, arith, env); })
      .template Case<kernel::Conv2DOp>(
          [&](auto c) { return evalConv2D(c, arith, env); })
      .template Case<kernel::Pool2DOp>(
          [&](auto p) { return evalPool2D(p, p.getKind(), arith, env); })
      .template Case<kernel::GatherOp>(
          [&](auto g) { return evalGather(g, arith, env); })
      .template Case<kernel::GatherElementsOp>(
          [&](auto g) { return evalGatherElements(g, arith, env); })
      .template Case<kernel::ScatterElementsOp>(
          [&](auto s) { return evalScatterElements(s, arith, env); })
      .template Case<kernel::OneHotOp>(
          [&](auto o) { return evalOneHot(o, arith, env); })
      .template Case<kernel::TopKOp>(
          [&](auto t) { return evalTopK(t, arith, env); })
      .template Default([&](Operation *) {
        return op->emitOpError("has no semantics in the interpreter");
      });
}

template LogicalResult
mirage::superopt::evalKernelOp(Operation *, RealArithmetic &,
                               ValueEnv<RealArithmetic> &);
template LogicalResult
mirage::superopt::evalKernelOp(Operation *, FieldArithmetic &,
                               ValueEnv<FieldArithmetic> &);
