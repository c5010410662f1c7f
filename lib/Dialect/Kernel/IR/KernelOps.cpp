//===- KernelOps.cpp - kernel dialect operations --------------------------===//

#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/ParamsFormat.h"
#include "mirage/Dialect/Graph/IndexingVerifiers.h"
#include "mirage/Dialect/Graph/InferShapedType.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::kernel;

#define TENSOR_INFER(OP, RULE) MIRAGE_INFER_RETURN_TYPES(OP, RULE, RankedTensorType)
TENSOR_INFER(MatmulOp, matmul)
TENSOR_INFER(BinaryOp, binary)
TENSOR_INFER(SelectOp, select)
TENSOR_INFER(ReduceOp, reduce)
TENSOR_INFER(TransposeOp, transpose)
TENSOR_INFER(RepeatOp, repeat)
TENSOR_INFER(ConcatOp, concat)
TENSOR_INFER(SplitOp, split)
TENSOR_INFER(Conv2DOp, conv2d)
TENSOR_INFER(Pool2DOp, pool2d)
#undef TENSOR_INFER

LogicalResult UnaryOp::verify() {
  // Only a cast changes the element type (issue 24).
  Type in = getInput().getType().getElementType();
  Type out = getType().getElementType();
  if (getKind() != UnaryKind::cast && in != out)
    return emitOpError("result element type ")
           << out << " must be the input's (" << in
           << "); only kind 'cast' converts";
  return verifyUnaryParams(getLoc(), getKind(),
                           getParams().value_or(ArrayRef<double>()));
}

// Indexing kernels (issue 24): the graph ops' verifiers.
LogicalResult GatherOp::verify() { return indexing::verifyGather(*this); }
LogicalResult GatherElementsOp::verify() {
  return indexing::verifyGatherElements(*this);
}
LogicalResult ScatterElementsOp::verify() {
  return indexing::verifyScatterElements(*this);
}
LogicalResult OneHotOp::verify() { return indexing::verifyOneHot(*this); }
LogicalResult TopKOp::verify() { return indexing::verifyTopK(*this); }

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
// GraphDefOp
//===----------------------------------------------------------------------===//

LogicalResult GraphDefOp::verify() {
  ArrayRef<int64_t> grid = getGrid();
  if (grid.empty() || grid.size() > 3)
    return emitOpError("grid must have 1 to 3 dimensions, got ")
           << grid.size();
  for (int64_t g : grid)
    if (g < 1)
      return emitOpError("grid dimensions must be >= 1, got ") << g;
  // I64Attr reads back as uint64_t; the range is signed in the IR.
  if (getForloopRange() < 1)
    return emitOpError("for-loop range must be >= 1, got ")
           << getForloopRange();
  return success();
}

ArrayRef<int64_t> GraphDefOp::getGridDims() { return getGrid(); }

int64_t GraphDefOp::getForloopRange() {
  return static_cast<int64_t>(getForloop());
}

Block &GraphDefOp::getBlockGraph() { return getBody().front(); }

#define GET_OP_CLASSES
#include "mirage/Dialect/Kernel/KernelOps.cpp.inc"

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  auto checkDims = [&](ArrayRef<int64_t> dims, StringRef what,
                       int64_t limit) -> LogicalResult {
    if (dims.size() != 3)
      return emitOpError() << what << " needs 3 dimensions, got "
                           << dims.size();
    for (int64_t d : dims)
      if (d < 1 || d > limit)
        return emitOpError() << what << " dimension " << d
                             << " is outside [1, " << limit << "]";
    return success();
  };
  if (failed(checkDims(getGrid(), "grid", (int64_t(1) << 31) - 1)) ||
      failed(checkDims(getBlock(), "block", 1024)))
    return failure();
  // Every CUDA GPU limits grid y and z to 65535 blocks, and block z to 64.
  if (getGrid()[1] > 65535 || getGrid()[2] > 65535)
    return emitOpError("grid [")
           << getGrid() << "] has more than 65535 blocks along y or z";
  if (getBlock()[2] > 64)
    return emitOpError("block [")
           << getBlock() << "] has more than 64 threads along z";
  if (getBlock()[0] * getBlock()[1] * getBlock()[2] > 1024)
    return emitOpError("block has more than 1024 threads");
  if (static_cast<int64_t>(getDynamicSharedMemory()) < 0)
    return emitOpError("dynamic_shared_memory is negative");
  return success();
}
