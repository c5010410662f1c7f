//===- IndexingVerifiers.h - verifiers of the indexing ops ------*- C++ -*-===//
//
// The verify() bodies of gather, gather_elements, scatter_elements, one_hot
// and topk, shared by the graph ops and the kernel ops of the same name
// (their ODS accessors agree), on top of the shape rules of ShapeRules.h.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_GRAPH_INDEXINGVERIFIERS_H
#define MIRAGE_DIALECT_GRAPH_INDEXINGVERIFIERS_H

#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/OpDefinition.h"

namespace mirage::indexing {

inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
  return llvm::cast<mlir::ShapedType>(v.getType()).getShape();
}
inline mlir::Type elementOf(mlir::Value v) {
  return llvm::cast<mlir::ShapedType>(v.getType()).getElementType();
}

/// The result `v` must have shape `expected` and element type `elt`.
template <typename OpT>
mlir::LogicalResult verifyResult(OpT op, mlir::Value v,
                                 llvm::ArrayRef<int64_t> expected,
                                 mlir::Type elt, llvm::StringRef what) {
  if (shapeOf(v) != expected)
    return op.emitOpError() << what << " shape [" << shapeOf(v)
                            << "] must be [" << expected << "]";
  if (elementOf(v) != elt)
    return op.emitOpError() << what << " element type " << elementOf(v)
                            << " must be " << elt;
  return mlir::success();
}

template <typename OpT> mlir::LogicalResult verifyGather(OpT op) {
  auto shape = inferGatherShape(op.getLoc(), shapeOf(op.getData()),
                                shapeOf(op.getIndices()), op.getAxis());
  if (mlir::failed(shape))
    return mlir::failure();
  return verifyResult(op, op.getResult(), *shape, elementOf(op.getData()),
                      "result");
}

template <typename OpT> mlir::LogicalResult verifyGatherElements(OpT op) {
  if (mlir::failed(verifyElementsIndexShape(op.getLoc(), shapeOf(op.getData()),
                                            shapeOf(op.getIndices()),
                                            op.getAxis())))
    return mlir::failure();
  return verifyResult(op, op.getResult(), shapeOf(op.getIndices()),
                      elementOf(op.getData()), "result");
}

template <typename OpT> mlir::LogicalResult verifyScatterElements(OpT op) {
  if (mlir::failed(verifyElementsIndexShape(op.getLoc(), shapeOf(op.getData()),
                                            shapeOf(op.getIndices()),
                                            op.getAxis())))
    return mlir::failure();
  if (mlir::failed(verifyResult(op, op.getUpdates(), shapeOf(op.getIndices()),
                                elementOf(op.getData()), "updates")))
    return mlir::failure();
  return verifyResult(op, op.getResult(), shapeOf(op.getData()),
                      elementOf(op.getData()), "result");
}

template <typename OpT> mlir::LogicalResult verifyOneHot(OpT op) {
  return verifyOneHotShape(op.getLoc(), shapeOf(op.getIndices()),
                           shapeOf(op.getResult()));
}

template <typename OpT> mlir::LogicalResult verifyTopK(OpT op) {
  auto shape = inferTopKShape(op.getLoc(), shapeOf(op.getInput()), op.getK(),
                              op.getDim());
  if (mlir::failed(shape))
    return mlir::failure();
  if (mlir::failed(verifyResult(op, op.getValues(), *shape,
                                elementOf(op.getInput()), "values")))
    return mlir::failure();
  mlir::Type i64 = mlir::IntegerType::get(op.getContext(), 64);
  return verifyResult(op, op.getIndices(), *shape, i64, "indices");
}

} // namespace mirage::indexing

#endif // MIRAGE_DIALECT_GRAPH_INDEXINGVERIFIERS_H
