//===- ThreadSemantics.cpp - what a thread.fused chain computes -----------===//
//
// The thread level. A thread.fused op computes its scalar body once per
// element of the common (broadcast) shape of its input tiles. Evaluating
// the body's ops on whole tiles, each operand broadcast to the result
// shape, computes exactly that. As in the GPU code (--thread-to-arith,
// docs/GpuLowering.md), the chain runs in f32 registers whatever the body's
// element types say: the native arithmetic rounds each scalar op to f32,
// and each yielded value to its result tile's type.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mlir/IR/BuiltinTypes.h"
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

  // Body values, each a whole tile of the result shape, in f32 registers.
  ValueEnv<Arith> lanes;
  Type registers = Float32Type::get(op.getContext());
  auto set = [&](Value v, V value) {
    arith.round(value, registers);
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
            .template Case<thread::SelectOp>([&](auto sel) {
              set(sel.getResult(),
                  arith.select(in(sel.getCond()), in(sel.getOnTrue()),
                               in(sel.getOnFalse())));
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
