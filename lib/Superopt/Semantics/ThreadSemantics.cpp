//===- ThreadSemantics.cpp - what a thread.fused chain computes -----------===//
//
// The thread level. A thread.fused op computes its scalar body once per
// element of the common (broadcast) shape of its input tiles; every thread
// holds its elements in registers of the body's element types. Evaluating
// the body's ops on whole tiles, each operand broadcast to the result
// shape, computes exactly that, and rounds at each scalar op as registers
// of that type would.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Thread/ThreadOps.h"
#include "Semantics.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;
namespace thread = mirage::thread;

template <typename Arith>
LogicalResult mirage::superopt::evalThreadFused(thread::FusedOp op,
                                                Arith &arith,
                                                ValueEnv<Arith> &env) {
  using V = typename Arith::Value;
  Block &body = op.getBody().front();
  ArrayRef<int64_t> shape =
      cast<ShapedType>(op.getResult(0).getType()).getShape();

  // Body values, each a whole tile of the result shape.
  ValueEnv<Arith> lanes;
  auto set = [&](Value v, V value) {
    arith.round(value, v.getType());
    lanes.set(v, std::move(value));
  };
  for (auto [arg, input] : llvm::zip(body.getArguments(), op.getInputs()))
    set(arg, Arith::apply(env.get(input), [&](const auto &t) {
          return broadcastTo(t, shape);
        }));

  for (Operation &inner : body) {
    arith.beginOp(&inner);
    auto in = [&](Value v) -> const V & { return lanes.get(v); };
    LogicalResult ok =
        TypeSwitch<Operation *, LogicalResult>(&inner)
            .template Case<thread::UnaryOp>([&](auto u) {
              set(u.getResult(),
                  arith.unary(u.getKind(),
                              u.getParams().value_or(ArrayRef<double>()),
                              in(u.getInput())));
              return success();
            })
            .template Case<thread::BinaryOp>([&](auto b) {
              set(b.getResult(),
                  arith.binary(b.getKind(), in(b.getLhs()), in(b.getRhs())));
              return success();
            })
            .template Case<thread::YieldOp>([&](auto yield) {
              arith.beginOp(op);
              for (auto [result, v] :
                   llvm::zip(op.getResults(), yield.getResults()))
                if (failed(bindResult(arith, env, result, in(v))))
                  return failure();
              return success();
            })
            .template Default([&](Operation *) {
              return inner.emitOpError("has no semantics in the interpreter");
            });
    if (failed(ok))
      return failure();
  }
  return success();
}

template LogicalResult
mirage::superopt::evalThreadFused(thread::FusedOp, RealArithmetic &,
                                  ValueEnv<RealArithmetic> &);
template LogicalResult
mirage::superopt::evalThreadFused(thread::FusedOp, FieldArithmetic &,
                                  ValueEnv<FieldArithmetic> &);
