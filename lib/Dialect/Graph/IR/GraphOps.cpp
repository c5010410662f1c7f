//===- GraphOps.cpp - graph dialect operations ----------------------------===//
//
// Shape rules live in ShapeRules.cpp; the ops here only adapt them to their
// operands and attributes.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Graph/IndexingVerifiers.h"
#include "mirage/Dialect/Graph/InferShapedType.h"

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

//===----------------------------------------------------------------------===//
// CastOp (issue 24)
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  // Both element types are f32, f16 or bf16 by the operand and result
  // constraints; a cast changes nothing else.
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> out = getType().getShape();
  if (in != out)
    return emitOpError("result shape [")
           << out << "] must be the input's [" << in << "]";
  return success();
}

/// Whether every value of `from` is a value of `to`: f16 and bf16 to f32.
static bool isExactWidening(Type from, Type to) {
  return from == to || (to.isF32() && (from.isF16() || from.isBF16()));
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  Value input = getInput();
  if (input.getType() == getType())
    return input;
  // cast(cast(x)) where the inner cast is exact rounds x itself once: it is
  // x when the outer cast returns to x's type, else one cast of x.
  if (auto inner = input.getDefiningOp<CastOp>()) {
    Value x = inner.getInput();
    if (isExactWidening(llvm::cast<ShapedType>(x.getType()).getElementType(),
                        inner.getType().getElementType())) {
      if (x.getType() == getType())
        return x;
      getOperation()->setOperand(0, x);
      return getResult();
    }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Indexing ops (issue 24): IndexingVerifiers.h, shared with the kernel ops
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() { return indexing::verifyGather(*this); }
LogicalResult GatherElementsOp::verify() {
  return indexing::verifyGatherElements(*this);
}
LogicalResult ScatterElementsOp::verify() {
  return indexing::verifyScatterElements(*this);
}
LogicalResult OneHotOp::verify() { return indexing::verifyOneHot(*this); }
LogicalResult TopKOp::verify() { return indexing::verifyTopK(*this); }

#include "mirage/Dialect/Graph/GraphInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "mirage/Dialect/Graph/GraphOps.cpp.inc"
