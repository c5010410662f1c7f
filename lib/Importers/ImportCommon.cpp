//===- ImportCommon.cpp - what the importers share ------------------------===//

#include "ImportCommon.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Importers/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include <charconv>
#include <cmath>

using namespace mlir;

namespace mirage::importers {

std::string formatList(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(values, os);
  os << ']';
  return s;
}

std::string formatType(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

std::string formatDouble(double value) {
  char buffer[32];
  std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, r.ptr);
}

bool isConstantNear(double value, double target, Type type) {
  if (value == target || std::abs(value - target) <= 1e-7 * std::abs(target))
    return true;
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!floatType)
    return false;
  llvm::APFloat rounded(target);
  bool lost = false;
  rounded.convert(floatType.getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
  return rounded.convertToDouble() == value;
}

//===----------------------------------------------------------------------===//
// GraphEmitter
//===----------------------------------------------------------------------===//

LogicalResult GraphEmitter::fail(const Twine &message) {
  if (!hasFailed) {
    hasFailed = true;
    why = message.str();
  }
  return failure();
}

template <typename Rule> auto GraphEmitter::runRule(StringRef op, Rule rule) {
  std::string captured;
  decltype(rule(OptLoc(loc))) result = failure();
  {
    ScopedDiagnosticHandler handler(getContext(), [&](Diagnostic &diag) {
      if (captured.empty())
        captured = diag.str();
      return success();
    });
    result = rule(OptLoc(loc));
  }
  if (mlir::failed(result))
    (void)fail(Twine("no ") + op + " form: " + captured);
  return result;
}

GTensor GraphEmitter::make(ArrayRef<int64_t> shape, Type elementType) const {
  GTensor t;
  t.shape.assign(shape.begin(), shape.end());
  t.elementType = elementType;
  return t;
}

LogicalResult GraphEmitter::checkType(Type type, const Twine &what) {
  if (hasFailed)
    return failure();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return fail(what + " has type " + formatType(type) +
                ", not a ranked tensor");
  if (!tensor.hasStaticShape())
    return fail(what + " has the dynamic shape " + formatType(type) +
                "; graph tensors have static shapes");
  Type element = tensor.getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32())
    return fail(what + " has element type " + formatType(element) +
                "; graph tensors are f16, bf16 or f32");
  return success();
}

GTensor GraphEmitter::operand(Value value, const Twine &what) {
  if (hasFailed || mlir::failed(checkType(value.getType(), what)))
    return {};
  auto type = cast<RankedTensorType>(value.getType());
  GTensor t = make(type.getShape(), type.getElementType());
  t.value = value;
  return t;
}

bool GraphEmitter::sameElementType(const GTensor &a, const GTensor &b,
                                   StringRef op) {
  if (hasFailed)
    return false;
  if (a.elementType == b.elementType)
    return true;
  (void)fail(Twine("mixed element types ") + formatType(a.elementType) + " and " +
       formatType(b.elementType) + " have no " + op +
       " form (graph ops keep their operands' element type)");
  return false;
}

GTensor GraphEmitter::matmul(const GTensor &lhs, const GTensor &rhs) {
  if (!sameElementType(lhs, rhs, "graph.matmul"))
    return {};
  auto shape = runRule("graph.matmul", [&](OptLoc l) {
    return inferMatmulShape(l, lhs.shape, rhs.shape);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, lhs.elementType);
  if (building())
    r.value = graph::MatmulOp::create(*builder, loc, r.type(), lhs.value,
                                      rhs.value);
  return r;
}

GTensor GraphEmitter::binary(BinaryKind kind, const GTensor &lhs,
                             const GTensor &rhs) {
  std::string name = ("graph." + stringifyBinaryKind(kind)).str();
  if (!sameElementType(lhs, rhs, name))
    return {};
  auto shape = runRule(name, [&](OptLoc l) {
    return inferBroadcastShape(l, lhs.shape, rhs.shape);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, lhs.elementType);
  if (!building())
    return r;
  switch (kind) {
  case BinaryKind::add:
    r.value = graph::AddOp::create(*builder, loc, r.type(), lhs.value,
                                   rhs.value);
    break;
  case BinaryKind::sub:
    r.value = graph::SubOp::create(*builder, loc, r.type(), lhs.value,
                                   rhs.value);
    break;
  case BinaryKind::mul:
    r.value = graph::MulOp::create(*builder, loc, r.type(), lhs.value,
                                   rhs.value);
    break;
  case BinaryKind::div:
    r.value = graph::DivOp::create(*builder, loc, r.type(), lhs.value,
                                   rhs.value);
    break;
  // --- comparisons (selectop)
  case BinaryKind::eq:
    r.value = graph::EqOp::create(*builder, loc, r.type(), lhs.value, rhs.value);
    break;
  case BinaryKind::ne:
    r.value = graph::NeOp::create(*builder, loc, r.type(), lhs.value, rhs.value);
    break;
  case BinaryKind::lt:
    r.value = graph::LtOp::create(*builder, loc, r.type(), lhs.value, rhs.value);
    break;
  case BinaryKind::le:
    r.value = graph::LeOp::create(*builder, loc, r.type(), lhs.value, rhs.value);
    break;
  case BinaryKind::gt:
    r.value = graph::GtOp::create(*builder, loc, r.type(), lhs.value, rhs.value);
    break;
  case BinaryKind::ge:
    r.value = graph::GeOp::create(*builder, loc, r.type(), lhs.value, rhs.value);
    break;
  }
  return r;
}

GTensor GraphEmitter::castTo(const GTensor &x, Type elementType) {
  if (hasFailed)
    return {};
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32()) {
    (void)fail("a cast to " + formatType(elementType) +
               " has no graph form (graph.cast converts among f32, f16 and "
               "bf16)");
    return {};
  }
  if (x.elementType == elementType)
    return x;
  GTensor r = make(x.shape, elementType);
  if (building())
    r.value = graph::CastOp::create(*builder, loc, r.type(), x.value);
  return r;
}

GTensor GraphEmitter::splat(double c, Type elementType) {
  if (hasFailed)
    return {};
  GTensor r = make({1}, elementType);
  if (building()) {
    auto value = DenseElementsAttr::get(
        r.type(), FloatAttr::get(elementType, c).getValue());
    r.value = arith::ConstantOp::create(*builder, loc, value);
  }
  return r;
}

GTensor GraphEmitter::select(const GTensor &cond, const GTensor &onTrue,
                             const GTensor &onFalse) {
  if (!sameElementType(cond, onTrue, "graph.select") ||
      !sameElementType(onTrue, onFalse, "graph.select"))
    return {};
  auto shape = runRule("graph.select", [&](OptLoc l) -> FailureOr<Shape> {
    auto inner = inferBroadcastShape(l, cond.shape, onTrue.shape);
    if (mlir::failed(inner))
      return failure();
    return inferBroadcastShape(l, *inner, onFalse.shape);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, onTrue.elementType);
  if (building())
    r.value = graph::SelectOp::create(*builder, loc, r.type(), cond.value,
                                      onTrue.value, onFalse.value);
  return r;
}

GTensor GraphEmitter::unary(UnaryKind kind, const GTensor &x) {
  if (hasFailed)
    return {};
  GTensor r = make(x.shape, x.elementType);
  if (!building())
    return r;
  Type type = r.type();
  switch (kind) {
  case UnaryKind::exp:
    r.value = graph::ExpOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::sqrt:
    r.value = graph::SqrtOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::square:
    r.value = graph::SquareOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::silu:
    r.value = graph::SiluOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::gelu:
    r.value = graph::GeluOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::relu:
    r.value = graph::ReluOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::tanh:
    r.value = graph::TanhOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::sigmoid:
    r.value = graph::SigmoidOp::create(*builder, loc, type, x.value);
    break;
  case UnaryKind::erf:
    r.value = graph::ErfOp::create(*builder, loc, type, x.value);
    break;
  default:
    llvm_unreachable("unary kinds with parameters have their own methods");
  }
  return r;
}

GTensor GraphEmitter::scalarMul(const GTensor &x, double c) {
  if (hasFailed)
    return {};
  GTensor r = make(x.shape, x.elementType);
  if (building())
    r.value = graph::ScalarMulOp::create(*builder, loc, r.type(), x.value,
                                         builder->getF64FloatAttr(c));
  return r;
}

GTensor GraphEmitter::scalarAdd(const GTensor &x, double c) {
  if (hasFailed)
    return {};
  GTensor r = make(x.shape, x.elementType);
  if (building())
    r.value = graph::ScalarAddOp::create(*builder, loc, r.type(), x.value,
                                         builder->getF64FloatAttr(c));
  return r;
}

GTensor GraphEmitter::pow(const GTensor &x, double exponent) {
  if (hasFailed)
    return {};
  GTensor r = make(x.shape, x.elementType);
  if (building())
    r.value = graph::PowOp::create(*builder, loc, r.type(), x.value,
                                   builder->getF64FloatAttr(exponent));
  return r;
}

GTensor GraphEmitter::clamp(const GTensor &x, double lo, double hi) {
  if (hasFailed)
    return {};
  if (mlir::failed(runRule("graph.clamp", [&](OptLoc l) {
        return verifyUnaryParams(l, UnaryKind::clamp, {lo, hi});
      })))
    return {};
  GTensor r = make(x.shape, x.elementType);
  if (building())
    r.value = graph::ClampOp::create(*builder, loc, r.type(), x.value,
                                     builder->getF64FloatAttr(lo),
                                     builder->getF64FloatAttr(hi));
  return r;
}

GTensor GraphEmitter::reduce(ReduceKind kind, const GTensor &x, int64_t dim) {
  if (hasFailed)
    return {};
  StringRef name =
      kind == ReduceKind::sum ? "graph.reduce_sum" : "graph.reduce_max";
  auto shape = runRule(
      name, [&](OptLoc l) { return inferReduceShape(l, x.shape, dim); });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, x.elementType);
  if (!building())
    return r;
  if (kind == ReduceKind::sum)
    r.value = graph::ReduceSumOp::create(*builder, loc, r.type(), x.value,
                                         builder->getI64IntegerAttr(dim));
  else
    r.value = graph::ReduceMaxOp::create(*builder, loc, r.type(), x.value,
                                         builder->getI64IntegerAttr(dim));
  return r;
}

GTensor GraphEmitter::softmax(const GTensor &x, int64_t dim) {
  if (hasFailed)
    return {};
  if (mlir::failed(runRule("graph.softmax", [&](OptLoc l) {
        return verifyDim(l, x.rank(), dim);
      })))
    return {};
  GTensor r = make(x.shape, x.elementType);
  if (building())
    r.value = graph::SoftmaxOp::create(*builder, loc, r.type(), x.value,
                                       builder->getI64IntegerAttr(dim));
  return r;
}

GTensor GraphEmitter::transpose(const GTensor &x, ArrayRef<int64_t> perm) {
  if (hasFailed)
    return {};
  auto shape = runRule("graph.transpose", [&](OptLoc l) {
    return inferTransposeShape(l, x.shape, perm);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, x.elementType);
  if (!building())
    return r;
  // A transpose of a transpose is one transpose, or none: the NHWC <-> NCHW
  // pairs around consecutive window ops cancel.
  Value input = x.value;
  SmallVector<int64_t> composed(perm.begin(), perm.end());
  if (auto inner = input.getDefiningOp<graph::TransposeOp>()) {
    for (int64_t &p : composed)
      p = inner.getPerm()[p];
    input = inner.getInput();
  }
  if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
    r.value = input;
  else
    r.value = graph::TransposeOp::create(
        *builder, loc, r.type(), input,
        builder->getDenseI64ArrayAttr(composed));
  return r;
}

GTensor GraphEmitter::reshape(const GTensor &x, ArrayRef<int64_t> shape) {
  if (hasFailed)
    return {};
  if (mlir::failed(runRule("graph.reshape", [&](OptLoc l) {
        return verifyReshape(l, x.shape, shape);
      })))
    return {};
  GTensor r = make(shape, x.elementType);
  if (!building())
    return r;
  // Reshapes of reshapes collapse; a reshape to the same shape vanishes.
  Value input = x.value;
  if (auto inner = input.getDefiningOp<graph::ReshapeOp>())
    input = inner.getInput();
  if (input.getType() == r.type())
    r.value = input;
  else
    r.value = graph::ReshapeOp::create(*builder, loc, r.type(), input);
  return r;
}

GTensor GraphEmitter::broadcast(const GTensor &x, ArrayRef<int64_t> shape) {
  if (hasFailed)
    return {};
  if (mlir::failed(runRule("graph.broadcast", [&](OptLoc l) {
        return verifyBroadcastTo(l, x.shape, shape);
      })))
    return {};
  GTensor r = make(shape, x.elementType);
  if (building())
    r.value = graph::BroadcastOp::create(*builder, loc, r.type(), x.value);
  return r;
}

GTensor GraphEmitter::repeat(const GTensor &x, ArrayRef<int64_t> repeats) {
  if (hasFailed)
    return {};
  auto shape = runRule("graph.repeat", [&](OptLoc l) {
    return inferRepeatShape(l, x.shape, repeats);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, x.elementType);
  if (building())
    r.value = graph::RepeatOp::create(*builder, loc, r.type(), x.value,
                                      builder->getDenseI64ArrayAttr(repeats));
  return r;
}

GTensor GraphEmitter::concat(ArrayRef<GTensor> inputs, int64_t dim) {
  if (hasFailed)
    return {};
  if (inputs.empty()) {
    (void)fail("no inputs to concatenate");
    return {};
  }
  SmallVector<SmallVector<int64_t>> shapes;
  SmallVector<Value> values;
  for (const GTensor &t : inputs) {
    if (!sameElementType(inputs.front(), t, "graph.concat"))
      return {};
    shapes.push_back(t.shape);
    values.push_back(t.value);
  }
  auto shape = runRule("graph.concat", [&](OptLoc l) {
    return inferConcatShape(l, shapes, dim);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, inputs.front().elementType);
  if (building())
    r.value = graph::ConcatOp::create(*builder, loc, r.type(), values,
                                      builder->getI64IntegerAttr(dim));
  return r;
}

SmallVector<GTensor> GraphEmitter::split(const GTensor &x, int64_t dim,
                                         ArrayRef<int64_t> sizes) {
  if (hasFailed)
    return {};
  auto shapes = runRule("graph.split", [&](OptLoc l) {
    return inferSplitShapes(l, x.shape, dim, sizes);
  });
  if (mlir::failed(shapes))
    return {};
  SmallVector<GTensor> pieces;
  SmallVector<Type> types;
  for (const Shape &s : *shapes) {
    pieces.push_back(make(s, x.elementType));
    types.push_back(pieces.back().type());
  }
  if (building()) {
    auto op = graph::SplitOp::create(*builder, loc, types, x.value,
                                     builder->getI64IntegerAttr(dim),
                                     builder->getDenseI64ArrayAttr(sizes));
    for (auto [piece, value] : llvm::zip_equal(pieces, op.getResults()))
      piece.value = value;
  }
  return pieces;
}

GTensor GraphEmitter::conv2d(const GTensor &input, const GTensor &weight,
                             ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> padding,
                             ArrayRef<int64_t> dilations, int64_t groups) {
  if (!sameElementType(input, weight, "graph.conv2d"))
    return {};
  auto shape = runRule("graph.conv2d", [&](OptLoc l) {
    return inferConv2DShape(l, input.shape, weight.shape, strides, padding,
                            dilations, groups);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, input.elementType);
  if (building())
    r.value = graph::Conv2DOp::create(
        *builder, loc, r.type(), input.value, weight.value,
        builder->getDenseI64ArrayAttr(strides),
        builder->getDenseI64ArrayAttr(padding),
        builder->getDenseI64ArrayAttr(dilations),
        builder->getI64IntegerAttr(groups));
  return r;
}

GTensor GraphEmitter::pool2d(PoolKind kind, const GTensor &input,
                             ArrayRef<int64_t> kernel,
                             ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> padding) {
  if (hasFailed)
    return {};
  StringRef name =
      kind == PoolKind::max ? "graph.max_pool2d" : "graph.avg_pool2d";
  auto shape = runRule(name, [&](OptLoc l) {
    return inferPool2DShape(l, input.shape, kernel, strides, padding);
  });
  if (mlir::failed(shape))
    return {};
  GTensor r = make(*shape, input.elementType);
  if (!building())
    return r;
  auto kernelAttr = builder->getDenseI64ArrayAttr(kernel);
  auto stridesAttr = builder->getDenseI64ArrayAttr(strides);
  auto paddingAttr = builder->getDenseI64ArrayAttr(padding);
  if (kind == PoolKind::max)
    r.value = graph::MaxPool2DOp::create(*builder, loc, r.type(), input.value,
                                         kernelAttr, stridesAttr, paddingAttr);
  else
    r.value = graph::AvgPool2DOp::create(*builder, loc, r.type(), input.value,
                                         kernelAttr, stridesAttr, paddingAttr);
  return r;
}

Value GraphEmitter::result(const GTensor &t, Type expected,
                           const Twine &what) {
  if (hasFailed || mlir::failed(checkType(expected, what)))
    return {};
  auto type = cast<RankedTensorType>(expected);
  if (type.getShape() != ArrayRef<int64_t>(t.shape) ||
      type.getElementType() != t.elementType) {
    (void)fail("the graph form computes " + formatType(t.type()) + " but " + what +
         " is " + formatType(expected));
    return {};
  }
  return t.value;
}

//===----------------------------------------------------------------------===//
// Reports, dead code and constants
//===----------------------------------------------------------------------===//

void emitImportError(Operation *op, const Twine &why) {
  op->emitError() << op->getName() << ": " << why;
}

void eraseDeadOps(Operation *root, function_ref<bool(Operation *)> filter) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> ops;
    root->walk([&](Operation *op) {
      if (op != root)
        ops.push_back(op);
    });
    for (Operation *op : llvm::reverse(ops)) {
      if (filter(op) && isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
    }
  }
}

namespace {
/// One lifted constant among a function's arguments: `id` names the
/// constant module-wide, so that callers forward the same argument.
struct LiftedArg {
  unsigned id;
  unsigned argIndex;
};
} // namespace

static std::string describeUsers(Operation *op) {
  llvm::SetVector<StringRef> names;
  for (Operation *user : op->getUsers())
    names.insert(user->getName().getStringRef());
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(names, os);
  return s;
}

LogicalResult finishImport(ModuleOp module, const ImportPolicy &policy) {
  MLIRContext *context = module.getContext();
  bool ok = true;
  DenseMap<Operation *, SmallVector<LiftedArg>> lifted;
  unsigned nextId = 0;

  // Dead source ops, and the graph ops a fold above left without users.
  auto removable = [&](Operation *op) {
    return policy.isSourceOp(op) || isa<graph::GraphDialect>(op->getDialect());
  };
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    eraseDeadOps(func, removable);

    // The live source ops. A constant used only by other constants (the
    // operand of a reshaped constant) goes with them.
    SmallVector<Operation *> live;
    func.walk([&](Operation *op) {
      if (op != func && policy.isSourceOp(op) && !op->use_empty())
        live.push_back(op);
    });
    for (Operation *op : live) {
      if (op->use_empty())
        continue;
      if (llvm::all_of(op->getUsers(), [&](Operation *user) {
            return policy.isSourceOp(user) && policy.constantValue(user);
          }))
        continue;
      ElementsAttr value = policy.constantValue(op);
      if (!value) {
        emitImportError(op, policy.leftoverReason(op));
        ok = false;
        continue;
      }
      Type type = op->getResult(0).getType();
      auto tensor = dyn_cast<RankedTensorType>(type);
      Type element = tensor ? tensor.getElementType() : type;
      if (!tensor || !tensor.hasStaticShape() ||
          !(element.isF16() || element.isBF16() || element.isF32())) {
        emitImportError(op, "constant of type " + formatType(type) +
                                " is used as a tensor by " +
                                describeUsers(op) +
                                "; graph tensors are f16, bf16 or f32");
        ok = false;
        continue;
      }
      if (!policy.liftConstants) {
        emitImportError(op, "constant " + formatType(type) +
                                " is used as a tensor by " +
                                describeUsers(op) +
                                "; the graph dialect has no tensor constants "
                                "(lift-constants=true makes it an argument)");
        ok = false;
        continue;
      }
      unsigned index = func.getNumArguments();
      auto attrs = DictionaryAttr::get(
          context, {NamedAttribute(StringAttr::get(context, kLiftedConstantAttr),
                                   cast<Attribute>(value))});
      if (failed(func.insertArgument(index, type, attrs, op->getLoc()))) {
        emitImportError(op, "cannot add an argument to @" + func.getSymName());
        ok = false;
        continue;
      }
      op->getResult(0).replaceAllUsesWith(func.getArgument(index));
      lifted[func].push_back({nextId++, index});
    }
    eraseDeadOps(func, policy.isSourceOp);
  }
  if (!ok)
    return failure();

  // Calls inside the module pass the callee's new arguments, which the
  // caller takes as new arguments of its own (until nothing changes: the
  // constant ids are finite, so recursion ends too).
  bool changed = true;
  while (changed) {
    changed = false;
    module.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      auto caller = call->getParentOfType<func::FuncOp>();
      if (!callee || !caller ||
          callee.getNumArguments() <= call.getNumOperands())
        return;
      SmallVector<Value> extra;
      for (unsigned i = call.getNumOperands(); i < callee.getNumArguments();
           ++i) {
        std::optional<unsigned> id;
        for (const LiftedArg &a : lifted[callee])
          if (a.argIndex == i)
            id = a.id;
        if (!id)
          return;
        std::optional<unsigned> callerIndex;
        for (const LiftedArg &a : lifted[caller])
          if (a.id == *id)
            callerIndex = a.argIndex;
        if (!callerIndex) {
          unsigned index = caller.getNumArguments();
          if (failed(caller.insertArgument(index,
                                           callee.getArgument(i).getType(),
                                           callee.getArgAttrDict(i),
                                           callee.getArgument(i).getLoc())))
            return;
          lifted[caller].push_back({*id, index});
          callerIndex = index;
        }
        extra.push_back(caller.getArgument(*callerIndex));
        changed = true;
      }
      call.getOperandsMutable().append(extra);
    });
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GELU
//===----------------------------------------------------------------------===//

std::optional<GeluMatch> matchGelu(Value root, const GeluOps &ops) {
  constexpr double kInvSqrt2 = 0.70710678118654752440;
  constexpr double kSqrt2 = 1.41421356237309504880;
  Type type = root.getType();

  // The product's factors, through multiplications used only inside it.
  SmallVector<Value> factors, muls;
  std::function<bool(Value, bool)> flatten = [&](Value v, bool isRoot) {
    if (auto m = ops.mul(v); m && (isRoot || ops.singleUse(v))) {
      muls.push_back(v);
      return flatten(m->first, false) && flatten(m->second, false);
    }
    factors.push_back(v);
    return factors.size() <= 3;
  };
  if (!ops.mul(root) || !flatten(root, true) || factors.size() != 3)
    return std::nullopt;

  GeluMatch match;
  std::optional<Value> half, sum;
  for (Value f : factors) {
    if (!half)
      if (std::optional<double> c = ops.splat(f); c && *c == 0.5) {
        half = f;
        continue;
      }
    if (!sum)
      if (auto a = ops.add(f); a && ops.singleUse(f)) {
        std::optional<double> c0 = ops.splat(a->first);
        std::optional<double> c1 = ops.splat(a->second);
        if ((c0 && *c0 == 1.0 && ops.erf(a->second)) ||
            (c1 && *c1 == 1.0 && ops.erf(a->first))) {
          sum = f;
          continue;
        }
      }
    if (match.x)
      return std::nullopt;
    match.x = f;
  }
  if (!half || !sum || !match.x)
    return std::nullopt;

  auto a = ops.add(*sum);
  Value erfValue = ops.erf(a->second) ? a->second : a->first;
  if (!ops.singleUse(erfValue))
    return std::nullopt;
  Value arg = *ops.erf(erfValue);
  if (!ops.singleUse(arg))
    return std::nullopt;

  // erf's argument: x' * (1/sqrt 2) or x' / sqrt 2, x' being x, x - 0 or
  // x + 0.
  std::optional<Value> scaled;
  if (auto m = ops.mul(arg)) {
    if (auto c = ops.splat(m->second); c && isConstantNear(*c, kInvSqrt2, type))
      scaled = m->first;
    else if (auto c = ops.splat(m->first);
             c && isConstantNear(*c, kInvSqrt2, type))
      scaled = m->second;
  } else if (auto d = ops.div(arg)) {
    if (auto c = ops.splat(d->second); c && isConstantNear(*c, kSqrt2, type))
      scaled = d->first;
  }
  if (!scaled)
    return std::nullopt;
  SmallVector<Value> extra;
  if (*scaled != match.x) {
    std::optional<std::pair<Value, Value>> z = ops.sub(*scaled);
    if (!z)
      z = ops.add(*scaled);
    std::optional<double> c = z ? ops.splat(z->second) : std::nullopt;
    if (!z || z->first != match.x || !c || *c != 0.0 ||
        !ops.singleUse(*scaled))
      return std::nullopt;
    extra.push_back(*scaled);
  }

  match.values = extra;
  match.values.push_back(arg);
  match.values.push_back(erfValue);
  match.values.push_back(*sum);
  for (Value m : llvm::reverse(muls))
    match.values.push_back(m);
  return match;
}

} // namespace mirage::importers
