//===- Semantics.h - the per-level evaluators of the interpreter -*- C++
//-*-===//
//
// Private to lib/Superopt. Each level's semantics is one file, templated over
// the arithmetic (RealArithmetic or FieldArithmetic) and explicitly
// instantiated for both:
//
//   GraphSemantics.cpp   graph ops on tensors
//   KernelSemantics.cpp  predefined kernels; graph-defined ones run their
//                        block graph
//   BlockSemantics.cpp   block graphs: grid, for-loop, iterators, accumulators
//   ThreadSemantics.cpp  thread.fused chains
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_SEMANTICS_H
#define MIRAGE_LIB_SUPEROPT_SEMANTICS_H

#include "mirage/Superopt/Semantics/FieldArithmetic.h"
#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"

namespace mirage::kernel {
class GraphDefOp;
} // namespace mirage::kernel
namespace mirage::thread {
class FusedOp;
} // namespace mirage::thread

namespace mirage::superopt {

/// The value of every SSA value evaluated so far. Function arguments are
/// borrowed from the caller's inputs rather than copied: a full-size weight
/// is hundreds of megabytes.
template <typename Arith> class ValueEnv {
public:
  using V = typename Arith::Value;
  const V &get(mlir::Value v) const {
    auto it = owned.find(v);
    return it != owned.end() ? it->second : *borrowed.find(v)->second;
  }
  void set(mlir::Value v, V value) { owned[v] = std::move(value); }
  void borrow(mlir::Value v, const V &value) { borrowed[v] = &value; }
  void erase(mlir::Value v) {
    owned.erase(v);
    borrowed.erase(v);
  }

private:
  llvm::DenseMap<mlir::Value, V> owned;
  llvm::DenseMap<mlir::Value, const V *> borrowed;
};

/// Each returns failure, with a diagnostic at `op`, when `op` has no
/// semantics in `Arith`; `op` must belong to the evaluator's level.
template <typename Arith>
mlir::LogicalResult evalGraphOp(mlir::Operation *op, Arith &arith,
                                ValueEnv<Arith> &env);
template <typename Arith>
mlir::LogicalResult evalKernelOp(mlir::Operation *op, Arith &arith,
                                 ValueEnv<Arith> &env);
template <typename Arith>
mlir::LogicalResult evalBlockGraph(kernel::GraphDefOp op, Arith &arith,
                                   ValueEnv<Arith> &env);
template <typename Arith>
mlir::LogicalResult evalThreadFused(thread::FusedOp op, Arith &arith,
                                    ValueEnv<Arith> &env);

/// Records `value` as the value of `v`, rounded to `storage` (v's element
/// type, unless the GPU code stores v wider: accumulators) by the
/// arithmetic. Fails, with a diagnostic at v's op, if the computed shape is
/// not v's static shape: a bug in the interpreter, never silently ignored.
template <typename Arith>
mlir::LogicalResult bindResultAs(Arith &arith, ValueEnv<Arith> &env,
                                 mlir::Value v, typename Arith::Value value,
                                 mlir::Type storage) {
  mlir::Type type = v.getType();
  llvm::ArrayRef<int64_t> expected;
  if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(type))
    expected = shaped.getShape();
  if (Arith::shapeOf(value) != expected) {
    mlir::Operation *owner = v.getDefiningOp();
    mlir::Location loc = owner ? owner->getLoc() : v.getLoc();
    return mlir::emitError(loc)
           << "interpreter computed a value of shape [" << Arith::shapeOf(value)
           << "] for type " << type;
  }
  arith.round(value, storage);
  env.set(v, std::move(value));
  return mlir::success();
}

/// bindResult with v's own element type.
template <typename Arith>
mlir::LogicalResult bindResult(Arith &arith, ValueEnv<Arith> &env,
                               mlir::Value v, typename Arith::Value value) {
  return bindResultAs(arith, env, v, std::move(value),
                      mlir::getElementTypeOrSelf(v.getType()));
}

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_SEMANTICS_H
