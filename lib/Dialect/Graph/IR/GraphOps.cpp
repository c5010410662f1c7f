//===- GraphOps.cpp - graph dialect operations ----------------------------===//
//
// Shape rules live in ShapeRules.cpp; the ops here only adapt them to their
// operands and attributes.
//
//===----------------------------------------------------------------------===//

#include "Dialect/Graph/GraphOps.h"
#include "Dialect/Graph/InferShapedType.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::graph;

#define TENSOR_INFER(OP, RULE) MIRAGE_INFER_RETURN_TYPES(OP, RULE, RankedTensorType)
TENSOR_INFER(MatmulOp, matmul)
TENSOR_INFER(AddOp, binary)
TENSOR_INFER(SubOp, binary)
TENSOR_INFER(MulOp, binary)
TENSOR_INFER(DivOp, binary)
TENSOR_INFER(EqOp, binary)
TENSOR_INFER(NeOp, binary)
TENSOR_INFER(LtOp, binary)
TENSOR_INFER(LeOp, binary)
TENSOR_INFER(GtOp, binary)
TENSOR_INFER(GeOp, binary)
TENSOR_INFER(SelectOp, select)
TENSOR_INFER(ReduceSumOp, reduce)
TENSOR_INFER(ReduceMaxOp, reduce)
TENSOR_INFER(TransposeOp, transpose)
TENSOR_INFER(RepeatOp, repeat)
TENSOR_INFER(ConcatOp, concat)
TENSOR_INFER(SplitOp, split)
TENSOR_INFER(Conv2DOp, conv2d)
TENSOR_INFER(MaxPool2DOp, pool2d)
TENSOR_INFER(AvgPool2DOp, pool2d)
#undef TENSOR_INFER

LogicalResult ClampOp::verify() {
  return verifyUnaryParams(getLoc(), getKind(), getKindParams());
}

LogicalResult SoftmaxOp::verify() {
  return verifyDim(getLoc(), getType().getRank(), getDim());
}

LogicalResult ReshapeOp::verify() {
  return verifyReshape(getLoc(), getInput().getType().getShape(),
                       getType().getShape());
}

LogicalResult BroadcastOp::verify() {
  return verifyBroadcastTo(getLoc(), getInput().getType().getShape(),
                           getType().getShape());
}

#include "Dialect/Graph/GraphInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "Dialect/Graph/GraphOps.cpp.inc"
