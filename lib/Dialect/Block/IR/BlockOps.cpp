//===- BlockOps.cpp - block dialect operations ----------------------------===//
//
// Per-op rules: how the maps determine tile and output shapes. The rules that
// relate ops to each other (the order of the block graph's parts) are in
// BlockGraphVerifier.cpp.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/ParamsFormat.h"
#include "mirage/Dialect/Graph/InferShapedType.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::block;


//===----------------------------------------------------------------------===//
// Placement in a block graph
//===----------------------------------------------------------------------===//

LogicalResult mirage::block::OpTrait::verifyInBlockGraph(Operation *op) {
  if (!isa_and_nonnull<BlockGraphOpInterface>(op->getParentOp()))
    return op->emitOpError("must be directly inside a block graph (the body "
                           "of a kernel.graph_def)");
  return success();
}

FailureOr<GridInfo> mirage::block::getGridInfo(Operation *op) {
  auto graph = dyn_cast_or_null<BlockGraphOpInterface>(op->getParentOp());
  if (!graph)
    return failure();
  GridInfo info{graph.getGridDims(), graph.getForloopRange()};
  if (info.grid.empty() || info.grid.size() > 3 || info.forloop < 1 ||
      llvm::any_of(info.grid, [](int64_t g) { return g < 1; }))
    return failure();
  return info;
}

/// Checks a grid map's length and entries against the grid and a rank, and
/// that no two grid dimensions map to the same tensor dimension.
static LogicalResult verifyGridMap(Operation *op, StringRef name,
                                   GridMapAttr map, ArrayRef<int64_t> grid,
                                   int64_t rank) {
  ArrayRef<int64_t> dims = map.getDims();
  if (dims.size() != grid.size())
    return op->emitOpError() << name << " has " << dims.size()
                             << " entries for a " << grid.size() << "-d grid";
  for (auto [g, d] : llvm::enumerate(dims)) {
    if (d >= rank)
      return op->emitOpError()
             << name << " maps grid dimension " << "xyz"[g]
             << " to dimension " << d << " of a rank-" << rank << " value";
    for (size_t h = 0; h < g; ++h)
      if (d != GridMapAttr::kReplicate && dims[h] == d)
        return op->emitOpError()
               << name << " maps grid dimensions " << "xyz"[h] << " and "
               << "xyz"[g] << " to the same dimension " << d;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// InputOp
//===----------------------------------------------------------------------===//

LogicalResult InputOp::verify() {
  auto source = dyn_cast<BlockArgument>(getSource());
  if (!source || source.getOwner() != getOperation()->getBlock())
    return emitOpError("reads ") << getSource()
                                 << ", which is not a device tensor taken by "
                                    "the kernel (an argument of the block "
                                    "graph)";
  FailureOr<GridInfo> info = getGridInfo(*this);
  if (failed(info))
    return success(); // The enclosing kernel reports its malformed grid.
  ArrayRef<int64_t> shape = getSource().getType().getShape();
  int64_t rank = shape.size();
  if (failed(verifyGridMap(*this, "imap", getImap(), info->grid, rank)))
    return failure();
  int64_t fdim = getFmap().getDim();
  if (fdim >= rank)
    return emitOpError("fmap maps the loop to dimension ")
           << fdim << " of a rank-" << rank << " tensor";

  Shape expected(shape);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t parts = 1;
    std::string by;
    for (auto [g, m] : llvm::enumerate(getImap().getDims()))
      if (m == d) {
        parts = llvm::checkedMul(parts, info->grid[g]).value_or(0);
        by += std::string("grid dimension ") + "xyz"[g] + " (" +
              std::to_string(info->grid[g]) + " blocks)";
      }
    if (fdim == d) {
      parts = llvm::checkedMul(parts, info->forloop).value_or(0);
      by += std::string(by.empty() ? "" : " and ") + "the for-loop (" +
            std::to_string(info->forloop) + " iterations)";
    }
    if (parts == 0)
      return emitOpError("the partition of tensor dimension ")
             << d << " overflows 64 bits";
    if (shape[d] % parts)
      return emitOpError("tensor dimension ")
             << d << " of size " << shape[d] << " is partitioned by " << by
             << " into " << parts << " parts, which does not divide it";
    expected[d] = shape[d] / parts;
  }
  TileType tile = getTile().getType();
  if (tile.getShape() != ArrayRef<int64_t>(expected) ||
      tile.getElementType() != getSource().getType().getElementType())
    return emitOpError("tile type ")
           << tile << " does not follow from the maps: expected "
           << TileType::get(expected, getSource().getType().getElementType());
  return success();
}

//===----------------------------------------------------------------------===//
// AccumOp
//===----------------------------------------------------------------------===//

LogicalResult AccumOp::verify() {
  TileType in = getInput().getType(), out = getResult().getType();
  if (getKind() == AccumKind::red_sum || getKind() == AccumKind::red_rms) {
    if (!getDim())
      return emitOpError("reducing accumulator needs `dim`");
    int64_t dim = *getDim();
    if (failed(verifyDim(getLoc(), in.getRank(), dim)))
      return failure();
    Shape expected(in.getShape());
    expected[dim] = 1;
    if (out.getShape() != ArrayRef<int64_t>(expected) ||
        !isAccumulatorType(in.getElementType(), out.getElementType()))
      return emitOpError("result type ")
             << out << " must be the tile type " << in << " with dimension "
             << dim << " reduced to 1 (f32 elements for f16 or bf16 ones)";
    if (getKind() == AccumKind::red_rms && !out.getElementType().isF32())
      return emitOpError("red_rms accumulates in f32: result type ")
             << out << " must have f32 elements";
    return success();
  }
  if (getKind() != AccumKind::concat) {
    if (getDim())
      return emitOpError("only concat accumulators take a dimension");
    if (in.getShape() != out.getShape() ||
        !isAccumulatorType(in.getElementType(), out.getElementType()))
      return emitOpError("result type ")
             << out << " must equal the accumulated tile type " << in
             << " (or have f32 elements for f16 or bf16 ones)";
    return success();
  }
  if (!getDim())
    return emitOpError("concat accumulator needs `dim`");
  int64_t dim = *getDim();
  if (failed(verifyDim(getLoc(), in.getRank(), dim)))
    return failure();
  FailureOr<GridInfo> info = getGridInfo(*this);
  if (failed(info))
    return success();
  Shape expected(in.getShape());
  std::optional<int64_t> grown = llvm::checkedMul(expected[dim], info->forloop);
  if (!grown)
    return emitOpError("concatenated dimension overflows 64 bits");
  expected[dim] = *grown;
  if (out != TileType::get(expected, in.getElementType()))
    return emitOpError("result type ")
           << out << " does not concatenate " << info->forloop
           << " iterations along dimension " << dim << ": expected "
           << TileType::get(expected, in.getElementType());
  return success();
}

//===----------------------------------------------------------------------===//
// SoftmaxAccumOp, SoftmaxMergeOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxAccumOp::verify() {
  TileType s = getScores().getType(), v = getValues().getType();
  TileType out = getOutput().getType(), stats = getStats().getType();
  int64_t rank = s.getRank();
  if (rank < 2 || v.getRank() != rank)
    return emitOpError("scores and values must have one rank, at least 2; got ")
           << s << " and " << v;
  ArrayRef<int64_t> ss = s.getShape(), vs = v.getShape();
  if (ss.drop_back(2) != vs.drop_back(2) || ss.back() != vs[rank - 2])
    return emitOpError("scores ")
           << s << " and values " << v
           << " do not match: [..., r, c] and [..., c, d] with the same "
              "leading dimensions";
  Shape outShape(ss.drop_back()), statsShape(ss.drop_back());
  outShape.push_back(vs.back());
  statsShape.push_back(2);
  Type f32 = Float32Type::get(getContext());
  if (out != TileType::get(outShape, f32))
    return emitOpError("output must be ") << TileType::get(outShape, f32);
  if (stats != TileType::get(statsShape, f32))
    return emitOpError("stats must be ") << TileType::get(statsShape, f32)
                                         << " (the maximum and the sum per row)";
  return success();
}

LogicalResult SoftmaxMergeOp::verify() {
  TileType p = getPartials().getType(), st = getStats().getType();
  int64_t rank = p.getRank(), dim = getDim();
  if (rank < 2 || st.getRank() != rank)
    return emitOpError("partials and stats must have one rank, at least 2");
  if (dim < 0 || dim >= rank - 2)
    return emitOpError("dim must be one of the leading dimensions [0, ")
           << rank - 2 << "), got " << dim;
  Shape statsShape(p.getShape().drop_back());
  statsShape.push_back(2);
  if (st.getShape() != ArrayRef<int64_t>(statsShape))
    return emitOpError("stats must have shape [")
           << ArrayRef<int64_t>(statsShape) << "] (the maximum and the sum per row)";
  if (!st.getElementType().isF32())
    return emitOpError("stats must have f32 elements");
  Shape outShape(p.getShape());
  outShape[dim] = 1;
  Type f32 = Float32Type::get(getContext());
  if (getType() != TileType::get(outShape, f32))
    return emitOpError("result must be ") << TileType::get(outShape, f32);
  return success();
}

//===----------------------------------------------------------------------===//
// OutputOp
//===----------------------------------------------------------------------===//

LogicalResult OutputOp::verify() {
  FailureOr<GridInfo> info = getGridInfo(*this);
  if (failed(info))
    return success();
  TileType tile = getTile().getType();
  if (failed(verifyGridMap(*this, "omap", getOmap(), info->grid,
                           tile.getRank())))
    return failure();
  Shape expected(tile.getShape());
  for (auto [g, d] : llvm::enumerate(getOmap().getDims())) {
    if (d == GridMapAttr::kReplicate) {
      if (info->grid[g] != 1)
        return emitOpError("omap maps grid dimension ")
               << "xyz"[g] << " (" << info->grid[g]
               << " blocks) to replicate: their tiles would overwrite each "
                  "other; map it to an output dimension";
      continue;
    }
    std::optional<int64_t> grown = llvm::checkedMul(expected[d], info->grid[g]);
    if (!grown)
      return emitOpError("output dimension ") << d << " overflows 64 bits";
    expected[d] = *grown;
  }
  auto result = getResult().getType();
  if (result.getShape() != ArrayRef<int64_t>(expected) ||
      !isAccumulatorType(result.getElementType(), tile.getElementType()))
    return emitOpError("output type ")
           << result << " does not follow from the omap: expected "
           << RankedTensorType::get(expected, tile.getElementType());
  return success();
}

//===----------------------------------------------------------------------===//
// Shared-memory ops
//===----------------------------------------------------------------------===//

MIRAGE_INFER_RETURN_TYPES(MatmulOp, matmul, TileType)

/// The broadcast shape, in the operands' element type or, for an f16/bf16
/// tile combined with an f32 one, in f32.
LogicalResult BinaryOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor a,
                                         SmallVectorImpl<Type> &types) {
  Type lhs = infer::elementOf(a.getLhs()), rhs = infer::elementOf(a.getRhs());
  Type element = lhs;
  if (lhs != rhs) {
    if (isAccumulatorType(lhs, rhs))
      element = rhs;
    else if (!isAccumulatorType(rhs, lhs))
      return emitOptionalError(loc, "operand element types ", lhs, " and ",
                               rhs, " do not combine (one type, or f16/bf16 "
                                    "with f32)");
  }
  return infer::push<TileType>(
      inferBroadcastShape(loc, infer::shapeOf(a.getLhs()),
                          infer::shapeOf(a.getRhs())),
      element, types);
}
MIRAGE_INFER_RETURN_TYPES(ReduceOp, reduce, TileType)

bool mirage::block::isAccumulatorType(Type elementType, Type accumulator) {
  return accumulator == elementType ||
         (accumulator.isF32() && (elementType.isF16() || elementType.isBF16()));
}

/// The inferred type (the operands' element type) or its f32 accumulator.
static bool isInferredOrWidened(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto a = dyn_cast<TileType>(inferred.front());
  auto b = dyn_cast<TileType>(actual.front());
  return a && b && a.getShape() == b.getShape() &&
         isAccumulatorType(a.getElementType(), b.getElementType());
}

bool MatmulOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return isInferredOrWidened(l, r);
}

bool ReduceOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return isInferredOrWidened(l, r);
}

bool BinaryOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return isInferredOrWidened(l, r);
}
MIRAGE_INFER_RETURN_TYPES(ConcatOp, concat, TileType)

LogicalResult RMSNormOp::verify() {
  if (failed(verifyDim(getLoc(), getInput().getType().getRank(), getDim())))
    return failure();
  Type in = getInput().getType().getElementType();
  Type out = getType().getElementType();
  if (!isAccumulatorType(in, out))
    return emitOpError("result element type ")
           << out << " must be the input's (" << in
           << ") or f32 for an f16 or bf16 input";
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (getInput().getType().getNumElements() != getType().getNumElements())
    return emitOpError("reshapes ")
           << getInput().getType() << " into " << getType()
           << ", which has another number of elements";
  return success();
}

LogicalResult SliceOp::verify() {
  ArrayRef<int64_t> input = getInput().getType().getShape();
  ArrayRef<int64_t> offsets = getOffsets(), sizes = getSizes();
  if (offsets.size() != input.size() || sizes.size() != input.size())
    return emitOpError("needs one offset and one size per dimension of the ")
           << input.size() << "-d input, got " << offsets.size()
           << " offsets and " << sizes.size() << " sizes";
  for (auto [d, o, s] : llvm::enumerate(offsets, sizes))
    if (o < 0 || s < 1 || s > input[d] || o > input[d] - s)
      return emitOpError("box [")
             << o << ", " << o << " + " << s << ") of dimension " << d
             << " is not within the input's " << input[d];
  if (getType().getShape() != sizes)
    return emitOpError("result type ")
           << getType() << " must have the shape of the sizes";
  return success();
}

LogicalResult UnaryOp::verify() {
  Type in = getInput().getType().getElementType();
  Type out = getType().getElementType();
  // A cast converts between any two of f32, f16 and bf16 (issue 24).
  if (getKind() != UnaryKind::cast && !isAccumulatorType(in, out))
    return emitOpError("result element type ")
           << out << " must be the input's (" << in
           << ") or f32 for an f16 or bf16 input";
  return verifyUnaryParams(getLoc(), getKind(),
                           getParams().value_or(ArrayRef<double>()));
}

#define GET_OP_CLASSES
#include "mirage/Dialect/Block/BlockOps.cpp.inc"
