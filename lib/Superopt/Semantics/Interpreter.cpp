//===- Interpreter.cpp - runs a µGraph function on concrete inputs --------===//
//
// Walks the function body in order and hands each op to the semantics of
// its level. Tensors are freed after their last use, so that full-size
// benchmark programs fit in memory.
//
//===----------------------------------------------------------------------===//

#include "Superopt/Semantics/Interpreter.h"
#include "Semantics.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
  return s;
}

LogicalResult mirage::superopt::checkInterpretable(func::FuncOp func) {
  if (func.isExternal())
    return func.emitError("cannot interpret '")
           << func.getSymName() << "': it has no body";
  if (!func.getBody().hasOneBlock())
    return func.emitError("cannot interpret '")
           << func.getSymName() << "': a µGraph function has one block";
  auto isStaticTensor = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.hasStaticShape();
  };
  FunctionType type = func.getFunctionType();
  for (auto [i, t] : llvm::enumerate(type.getInputs()))
    if (!isStaticTensor(t))
      return func.emitError("argument #")
             << i << " of '" << func.getSymName()
             << "' is not a statically shaped tensor";
  for (auto [i, t] : llvm::enumerate(type.getResults()))
    if (!isStaticTensor(t))
      return func.emitError("result #")
             << i << " of '" << func.getSymName()
             << "' is not a statically shaped tensor";
  return success();
}

template <typename Arith>
static FailureOr<SmallVector<typename Arith::Value>>
run(func::FuncOp func, ArrayRef<typename Arith::Value> inputs, Arith &arith) {
  using V = typename Arith::Value;
  if (failed(checkInterpretable(func)))
    return failure();
  Block &body = func.getBody().front();
  if (inputs.size() != body.getNumArguments())
    return func.emitError("'")
           << func.getSymName() << "' takes " << body.getNumArguments()
           << " arguments but " << inputs.size() << " inputs were given";

  ValueEnv<Arith> env;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto type = cast<RankedTensorType>(arg.getType());
    if (Arith::shapeOf(inputs[i]) != type.getShape())
      return func.emitError("input #")
             << i << " has shape " << formatShape(Arith::shapeOf(inputs[i]))
             << " but argument #" << i << " of '" << func.getSymName()
             << "' has type " << type;
    if (!arith.changesOnRounding(type.getElementType())) {
      env.borrow(arg, inputs[i]);
      continue;
    }
    V value = inputs[i];
    arith.round(value, type.getElementType());
    env.set(arg, std::move(value));
  }

  // The values to free after each op.
  DenseMap<Value, Operation *> lastUse;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastUse[operand] = &op;
  DenseMap<Operation *, SmallVector<Value>> dying;
  for (auto [value, user] : lastUse)
    if (!isa<func::ReturnOp>(user))
      dying[user].push_back(value);

  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<V> results;
      for (Value v : ret.getOperands())
        results.push_back(env.get(v));
      return results;
    }
    Dialect *dialect = op.getDialect();
    StringRef ns = dialect ? dialect->getNamespace() : "";
    arith.beginOp(&op);
    LogicalResult ok = failure();
    if (ns == "graph")
      ok = evalGraphOp(&op, arith, env);
    else if (ns == "kernel")
      ok = evalKernelOp(&op, arith, env);
    else
      return op.emitOpError("is not a graph or kernel op; the interpreter "
                            "runs µGraph functions");
    if (failed(ok))
      return failure();
    for (Value v : dying.lookup(&op))
      env.erase(v);
  }
  return func.emitError("'") << func.getSymName() << "' has no func.return";
}

FailureOr<SmallVector<RealTensor>>
mirage::superopt::interpretReal(func::FuncOp func, ArrayRef<RealTensor> inputs,
                                RealMode mode) {
  RealArithmetic arith(mode);
  return run(func, inputs, arith);
}

FailureOr<SmallVector<FieldTensor>> mirage::superopt::interpretField(
    func::FuncOp func, ArrayRef<FieldTensor> inputs, FieldArithmetic &arith) {
  return run(func, inputs, arith);
}
