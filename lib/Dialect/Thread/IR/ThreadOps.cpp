//===- ThreadOps.cpp - thread dialect operations --------------------------===//

#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mirage/Dialect/Graph/ParamsFormat.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::thread;
using mirage::block::TileType;

LogicalResult FusedOp::verifyRegions() {
  Block &body = getBody().front();
  if (getInputs().empty() || getNumResults() == 0)
    return emitOpError("must take and produce at least one tile");
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body takes ")
           << body.getNumArguments() << " elements for " << getInputs().size()
           << " input tiles";

  // Inputs broadcast to one common shape, which every result has.
  Shape common;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto tile = cast<TileType>(input.getType());
    if (body.getArgument(i).getType() != tile.getElementType())
      return emitOpError("body argument #")
             << i << " has type " << body.getArgument(i).getType()
             << " but input tile #" << i << " holds "
             << tile.getElementType();
    FailureOr<Shape> next =
        i == 0 ? FailureOr<Shape>(Shape(tile.getShape()))
               : inferBroadcastShape(getLoc(), common, tile.getShape());
    if (failed(next))
      return failure();
    common = *next;
  }
  // Scalar arith and math ops appear after --thread-to-arith has given the
  // thread ops their code.
  for (Operation &op : body) {
    StringRef ns = op.getDialect() ? op.getDialect()->getNamespace() : "";
    if (!isa_and_nonnull<ThreadDialect>(op.getDialect()) && ns != "arith" &&
        ns != "math")
      return op.emitOpError("is not allowed in a thread.fused body, which "
                            "holds only thread ops (or, lowered, scalar arith "
                            "and math ops)");
  }
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end with thread.yield");
  if (yield->getNumOperands() != getNumResults())
    return yield.emitOpError("yields ")
           << yield->getNumOperands() << " elements for " << getNumResults()
           << " result tiles";
  for (auto [i, result] : llvm::enumerate(getResults())) {
    auto tile = cast<TileType>(result.getType());
    if (tile.getShape() != ArrayRef<int64_t>(common))
      return emitOpError("result tile #")
             << i << " has type " << tile
             << " but the inputs broadcast to shape "
             << TileType::get(common, tile.getElementType());
    if (yield->getOperand(i).getType() != tile.getElementType())
      return yield.emitOpError("operand #")
             << i << " has type " << yield->getOperand(i).getType()
             << " but result tile #" << i << " holds "
             << tile.getElementType();
  }
  return success();
}

LogicalResult UnaryOp::verify() {
  return verifyUnaryParams(getLoc(), getKind(),
                           getParams().value_or(ArrayRef<double>()));
}

#define GET_OP_CLASSES
#include "mirage/Dialect/Thread/ThreadOps.cpp.inc"
