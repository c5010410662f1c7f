//===- GraphOps.cpp - rule ops as graph-dialect ops and back --------------===//

#include "mirage/Superopt/Rules/GraphOps.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mirage::rules;
namespace graph = mirage::graph;

std::optional<GraphOpInfo> mirage::rules::readGraphOp(mlir::Operation *op,
                                                      std::string &why) {
  if (!llvm::isa<graph::GraphDialect>(op->getDialect())) {
    why = "'" + op->getName().getStringRef().str() + "' is not a graph op";
    return std::nullopt;
  }
  std::optional<OpKind> kind = lookupOpKind(op->getName().stripDialect());
  if (!kind) {
    why = "'" + op->getName().getStringRef().str() +
          "' is not in the rule language";
    return std::nullopt;
  }
  GraphOpInfo info{*kind, {}, 0, {}};
  bool ok = llvm::TypeSwitch<mlir::Operation *, bool>(op)
                .Case([&](graph::ScalarMulOp o) {
                  info.scalar = o.getScalar().convertToDouble();
                  return true;
                })
                .Case([&](graph::ScalarAddOp o) {
                  info.scalar = o.getScalar().convertToDouble();
                  return true;
                })
                .Case([&](graph::TransposeOp o) {
                  info.ints.assign(o.getPerm().begin(), o.getPerm().end());
                  return true;
                })
                .Case([&](graph::ConcatOp o) {
                  if (o.getInputs().size() != 2) {
                    why = "rules concatenate two tensors";
                    return false;
                  }
                  info.ints = {static_cast<int64_t>(o.getDim())};
                  return true;
                })
                .Case([&](graph::SplitOp o) {
                  if (o->getNumResults() != 2) {
                    why = "rules split into two pieces";
                    return false;
                  }
                  info.ints = {static_cast<int64_t>(o.getDim())};
                  info.shape.assign(o.getSizes().begin(), o.getSizes().end());
                  return true;
                })
                .Case([&](graph::ReduceSumOp o) {
                  info.ints = {static_cast<int64_t>(o.getDim())};
                  return true;
                })
                .Case([&](graph::Conv2DOp o) {
                  llvm::ArrayRef<int64_t> s = o.getStrides(),
                                          p = o.getPadding(),
                                          d = o.getDilations();
                  info.ints = {s[0], s[1], p[0], p[1], d[0], d[1],
                               static_cast<int64_t>(o.getGroups())};
                  return true;
                })
                .Case<graph::AvgPool2DOp, graph::MaxPool2DOp>([&](auto o) {
                  llvm::ArrayRef<int64_t> k = o.getKernel(),
                                          s = o.getStrides(),
                                          p = o.getPadding();
                  info.ints = {k[0], k[1], s[0], s[1], p[0], p[1]};
                  return true;
                })
                .Case([&](graph::ReshapeOp o) {
                  auto t = llvm::cast<mlir::ShapedType>(o.getType());
                  info.shape.assign(t.getShape().begin(), t.getShape().end());
                  return true;
                })
                .Default([](mlir::Operation *) { return true; });
  if (!ok)
    return std::nullopt;
  return info;
}

mlir::Operation *mirage::rules::buildGraphOp(
    mlir::OpBuilder &b, mlir::Location loc, OpKind kind,
    llvm::ArrayRef<int64_t> ints, double scalar, llvm::ArrayRef<int64_t> shape,
    mlir::ValueRange operands, mlir::TypeRange resultTypes) {
  mlir::OperationState state(loc, ("graph." + getMnemonic(kind)).str());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  auto array = [&](llvm::ArrayRef<int64_t> v) {
    return b.getDenseI64ArrayAttr(v);
  };
  switch (kind) {
  case OpKind::ScalarMul:
  case OpKind::ScalarAdd:
    state.addAttribute("scalar", b.getF64FloatAttr(scalar));
    break;
  case OpKind::Transpose:
    state.addAttribute("perm", array(ints));
    break;
  case OpKind::Concat:
  case OpKind::ReduceSum:
    state.addAttribute("dim", i64(ints[0]));
    break;
  case OpKind::Split:
    state.addAttribute("dim", i64(ints[0]));
    state.addAttribute("sizes", array(shape));
    break;
  case OpKind::Conv2D:
    state.addAttribute("strides", array(ints.slice(0, 2)));
    state.addAttribute("padding", array(ints.slice(2, 2)));
    state.addAttribute("dilations", array(ints.slice(4, 2)));
    state.addAttribute("groups", i64(ints[6]));
    break;
  case OpKind::AvgPool2D:
  case OpKind::MaxPool2D:
    state.addAttribute("kernel", array(ints.slice(0, 2)));
    state.addAttribute("strides", array(ints.slice(2, 2)));
    state.addAttribute("padding", array(ints.slice(4, 2)));
    break;
  default:
    break;
  }
  return b.create(state);
}
