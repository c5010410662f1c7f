//===- InferShapedType.h - result types from ShapeRules ---------*- C++ -*-===//
//
// The inferReturnTypes bodies shared by the graph, kernel and block ops of the
// same computation. `ResultT` is the shaped type built (RankedTensorType for
// graph and kernel, block::TileType for block); `Adaptor` is the op's ODS
// adaptor, so the same accessor names (getLhs, getDim, ...) apply at every
// level.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_GRAPH_INFERSHAPEDTYPE_H
#define MIRAGE_DIALECT_GRAPH_INFERSHAPEDTYPE_H

#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Diagnostics.h"

namespace mirage::infer {

inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
  return llvm::cast<mlir::ShapedType>(v.getType()).getShape();
}
inline mlir::Type elementOf(mlir::Value v) {
  return llvm::cast<mlir::ShapedType>(v.getType()).getElementType();
}

template <typename ResultT>
mlir::LogicalResult push(mlir::FailureOr<Shape> shape, mlir::Type elt,
                         llvm::SmallVectorImpl<mlir::Type> &types) {
  if (mlir::failed(shape))
    return mlir::failure();
  types.push_back(ResultT::get(*shape, elt));
  return mlir::success();
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult matmul(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  return push<ResultT>(
      inferMatmulShape(loc, shapeOf(a.getLhs()), shapeOf(a.getRhs())),
      elementOf(a.getLhs()), types);
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult binary(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  return push<ResultT>(
      inferBroadcastShape(loc, shapeOf(a.getLhs()), shapeOf(a.getRhs())),
      elementOf(a.getLhs()), types);
}

/// select(cond, on_true, on_false): all three broadcast together (selectop).
template <typename ResultT, typename Adaptor>
mlir::LogicalResult select(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  mlir::FailureOr<Shape> pair =
      inferBroadcastShape(loc, shapeOf(a.getCond()), shapeOf(a.getOnTrue()));
  if (mlir::failed(pair))
    return mlir::failure();
  return push<ResultT>(inferBroadcastShape(loc, *pair, shapeOf(a.getOnFalse())),
                       elementOf(a.getOnTrue()), types);
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult reduce(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  return push<ResultT>(inferReduceShape(loc, shapeOf(a.getInput()), a.getDim()),
                       elementOf(a.getInput()), types);
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult transpose(OptLoc loc, Adaptor a,
                              llvm::SmallVectorImpl<mlir::Type> &types) {
  return push<ResultT>(
      inferTransposeShape(loc, shapeOf(a.getInput()), a.getPerm()),
      elementOf(a.getInput()), types);
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult repeat(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  return push<ResultT>(
      inferRepeatShape(loc, shapeOf(a.getInput()), a.getRepeats()),
      elementOf(a.getInput()), types);
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult concat(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  llvm::SmallVector<llvm::SmallVector<int64_t>> shapes;
  for (mlir::Value v : a.getInputs())
    shapes.emplace_back(shapeOf(v));
  if (shapes.empty())
    return mlir::emitOptionalError(loc, "concat needs at least one input");
  return push<ResultT>(inferConcatShape(loc, shapes, a.getDim()),
                       elementOf(a.getInputs().front()), types);
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult split(OptLoc loc, Adaptor a,
                          llvm::SmallVectorImpl<mlir::Type> &types) {
  auto shapes =
      inferSplitShapes(loc, shapeOf(a.getInput()), a.getDim(), a.getSizes());
  if (mlir::failed(shapes))
    return mlir::failure();
  for (const Shape &s : *shapes)
    types.push_back(ResultT::get(s, elementOf(a.getInput())));
  return mlir::success();
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult conv2d(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  return push<ResultT>(inferConv2DShape(loc, shapeOf(a.getInput()),
                                        shapeOf(a.getWeight()), a.getStrides(),
                                        a.getPadding(), a.getDilations(),
                                        a.getGroups()),
                       elementOf(a.getInput()), types);
}

template <typename ResultT, typename Adaptor>
mlir::LogicalResult pool2d(OptLoc loc, Adaptor a,
                           llvm::SmallVectorImpl<mlir::Type> &types) {
  return push<ResultT>(inferPool2DShape(loc, shapeOf(a.getInput()),
                                        a.getKernel(), a.getStrides(),
                                        a.getPadding()),
                       elementOf(a.getInput()), types);
}

} // namespace mirage::infer

/// Defines OP::inferReturnTypes by forwarding to mirage::infer::RULE.
#define MIRAGE_INFER_RETURN_TYPES(OP, RULE, RESULT_T)                          \
  ::mlir::LogicalResult OP::inferReturnTypes(                                  \
      ::mlir::MLIRContext *, std::optional<::mlir::Location> loc, Adaptor a,   \
      ::llvm::SmallVectorImpl<::mlir::Type> &types) {                          \
    return ::mirage::infer::RULE<RESULT_T>(loc, a, types);                     \
  }

#endif // MIRAGE_DIALECT_GRAPH_INFERSHAPEDTYPE_H
