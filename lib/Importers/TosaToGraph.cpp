//===- TosaToGraph.cpp - --tosa-to-graph: TOSA programs as graph ops ------===//
//
// Imports TOSA (MLIR 22: zero points and shift as operands, shapes as
// tosa.const_shape, transpose perms as an attribute) into the graph dialect.
// Each conversion below is written once against a GraphEmitter
// (ImportCommon.h): the pass first runs all of them in checking mode and
// reports every op without a graph form, then runs the dialect conversion.
// docs/Importers.md lists what converts and how.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Graph/GraphOps.h"
#include "ImportCommon.h"
#include "mirage/Importers/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include <cmath>
#include <limits>
#include <map>

namespace mirage {
#define GEN_PASS_DEF_TOSATOGRAPH
#include "mirage/Importers/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::importers;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

//===----------------------------------------------------------------------===//
// Reading constants
//===----------------------------------------------------------------------===//

/// The dense value of a tosa.const, seen through tosa.reshape and
/// tosa.identity (reshaped to the value's type), or null.
DenseElementsAttr constantOf(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return {};
  if (auto c = dyn_cast<tosa::ConstOp>(op))
    return dyn_cast<DenseElementsAttr>(c.getValues());
  if (isa<tosa::ReshapeOp, tosa::IdentityOp>(op)) {
    DenseElementsAttr inner = constantOf(op->getOperand(0));
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!inner || !type || !type.hasStaticShape())
      return {};
    return inner.reshape(type);
  }
  return {};
}

/// The value of a splat constant (float or integer), or nothing.
std::optional<double> splatValue(Value v) {
  DenseElementsAttr attr = constantOf(v);
  if (!attr || !attr.isSplat())
    return std::nullopt;
  Type element = attr.getElementType();
  if (isa<FloatType>(element))
    return attr.getSplatValue<APFloat>().convertToDouble();
  if (element.isInteger())
    return static_cast<double>(attr.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

/// The values of a tosa.const_shape operand, or nothing.
std::optional<SmallVector<int64_t>> constShape(Value v) {
  auto op = v.getDefiningOp<tosa::ConstShapeOp>();
  if (!op)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &x : op.getValues().getValues<APInt>())
    values.push_back(x.getSExtValue());
  return values;
}

/// A tosa.reshape of a constant: it stays until the constants are lifted,
/// and is lifted as the reshaped constant.
bool isConstantReshape(Operation *op) {
  return isa<tosa::ReshapeOp>(op) && constantOf(op->getResult(0));
}

/// Fails unless `zp` is a zero constant.
LogicalResult requireZero(GraphEmitter &e, Value zp, StringRef what,
                          StringRef op) {
  std::optional<double> v = splatValue(zp);
  if (v && *v == 0.0)
    return success();
  return e.fail(Twine(what) + " is " +
                (v ? "the constant " + formatDouble(*v) : "not a constant") +
                ", not 0; a quantized " + op + " has no graph form");
}

SmallVector<int64_t> toI64(ArrayRef<int32_t> values) {
  return SmallVector<int64_t>(values.begin(), values.end());
}

//===----------------------------------------------------------------------===//
// Padding in front of a window op
//===----------------------------------------------------------------------===//

/// The padding a tosa.pad adds to H and W of an NHWC tensor
/// ([top, bottom, left, right]) when it pads nothing else and its padding
/// value is `fill`; otherwise the reason why not.
FailureOr<SmallVector<int64_t>> padOfNHWC(tosa::PadOp pad, double fill,
                                          std::string &why) {
  auto type = dyn_cast<RankedTensorType>(pad.getInput1().getType());
  std::optional<SmallVector<int64_t>> padding = constShape(pad.getPadding());
  std::optional<double> value = splatValue(pad.getPadConst());
  auto reject = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  if (!type || type.getRank() != 4 || !padding || padding->size() != 8)
    return reject("the pad is not a constant padding of a rank-4 tensor");
  if (!value || !(*value == fill || (std::isinf(fill) && std::isinf(*value) &&
                                     (*value < 0) == (fill < 0))))
    return reject("the padding value is " +
                  (value ? formatDouble(*value) : std::string("not a splat")) +
                  ", not " + formatDouble(fill));
  const SmallVector<int64_t> &p = *padding;
  if (p[0] || p[1] || p[6] || p[7])
    return reject("the pad " + formatList(p) +
                  " pads the N or C dimension of the NHWC tensor");
  return SmallVector<int64_t>{p[2], p[3], p[4], p[5]};
}

/// The value a window op fills padding with: 0 for convolutions and
/// average pooling, -inf for max pooling (which graph ignores).
std::optional<double> padFillFor(Operation *user, Value padded) {
  if (user->getNumOperands() == 0 || user->getOperand(0) != padded)
    return std::nullopt;
  if (isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::AvgPool2dOp>(user))
    return 0.0;
  if (isa<tosa::MaxPool2dOp>(user))
    return -kInf;
  return std::nullopt;
}

/// Whether every user of `pad` folds it into its own padding.
LogicalResult checkFoldablePad(tosa::PadOp pad, std::string &why) {
  if (pad->use_empty())
    return success();
  for (Operation *user : pad->getUsers()) {
    std::optional<double> fill = padFillFor(user, pad.getResult());
    if (!fill) {
      why = ("graph has no pad op; a pad converts only when the conv2d, "
             "depthwise_conv2d or pooling op that takes it as its input "
             "folds it into its padding, and " +
             user->getName().getStringRef() + " does not")
                .str();
      return failure();
    }
    std::string reason;
    if (failed(padOfNHWC(pad, *fill, reason))) {
      why = ("graph has no pad op, and this one cannot fold into the "
             "padding of " +
             user->getName().getStringRef() + ": " + reason)
                .str();
      return failure();
    }
  }
  return success();
}

/// The padding of a window op ([top, bottom, left, right]) with that of a
/// tosa.pad in front of it folded in; `input` becomes the pad's input.
SmallVector<int64_t> foldPadding(GraphEmitter &e, Operation *op,
                                 ArrayRef<int64_t> own, Value &input) {
  SmallVector<int64_t> total(own.begin(), own.end());
  auto pad = op->getOperand(0).getDefiningOp<tosa::PadOp>();
  std::optional<double> fill = padFillFor(op, op->getOperand(0));
  std::string why;
  if (!pad || !fill)
    return total;
  FailureOr<SmallVector<int64_t>> extra = padOfNHWC(pad, *fill, why);
  if (failed(extra))
    return total;
  for (int i = 0; i < 4; ++i)
    total[i] += (*extra)[i];
  input = e.lookup(pad.getInput1());
  return total;
}

/// [pad_h, pad_w] from [top, bottom, left, right], or failure.
FailureOr<SmallVector<int64_t>> symmetric(GraphEmitter &e,
                                          ArrayRef<int64_t> pad,
                                          StringRef graphOp) {
  if (pad[0] != pad[1] || pad[2] != pad[3]) {
    (void)e.fail("asymmetric padding " + formatList(pad) + " has no " + graphOp +
           " form");
    return failure();
  }
  return SmallVector<int64_t>{pad[0], pad[2]};
}

const SmallVector<int64_t> kToNCHW = {0, 3, 1, 2};
const SmallVector<int64_t> kToNHWC = {0, 2, 3, 1};

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

using Results = SmallVectorImpl<Value>;

LogicalResult convertMatmul(tosa::MatMulOp op, ValueRange operands,
                            GraphEmitter &e, Results &results) {
  if (failed(requireZero(e, op.getAZp(), "the A zero point", "matmul")) ||
      failed(requireZero(e, op.getBZp(), "the B zero point", "matmul")))
    return failure();
  GTensor a = e.operand(operands[0], "operand A");
  GTensor b = e.operand(operands[1], "operand B");
  results.push_back(e.result(e.matmul(a, b), op.getType()));
  return success(!e.failed());
}

/// tosa.conv2d and tosa.depthwise_conv2d: NHWC input, weight OHWI (conv)
/// or HWCM (depthwise, groups = C).
template <typename ConvOp>
LogicalResult convertConv(ConvOp op, ValueRange operands, GraphEmitter &e,
                          Results &results) {
  constexpr bool depthwise = std::is_same_v<ConvOp, tosa::DepthwiseConv2DOp>;
  StringRef name = depthwise ? "depthwise_conv2d" : "conv2d";
  if (failed(requireZero(e, op.getInputZp(), "the input zero point", name)) ||
      failed(requireZero(e, op.getWeightZp(), "the weight zero point", name)))
    return failure();
  Value inputValue = operands[0];
  SmallVector<int64_t> pad = foldPadding(e, op, op.getPad(), inputValue);
  FailureOr<SmallVector<int64_t>> padding =
      symmetric(e, pad, "graph.conv2d");
  if (failed(padding))
    return failure();
  GTensor input = e.operand(inputValue, "the input");
  GTensor weight = e.operand(operands[1], "the weight");
  if (e.failed())
    return failure();
  if (input.rank() != 4 || weight.rank() != 4)
    return e.fail("expects rank-4 input and weight");
  GTensor x = e.transpose(input, kToNCHW);
  GTensor w;
  int64_t groups = 1;
  if constexpr (depthwise) {
    // [KH, KW, C, M] -> [C, M, KH, KW] -> [C*M, 1, KH, KW]; output channel
    // c*M + m reads input channel c, as graph's groups = C do.
    const SmallVector<int64_t> &s = weight.shape;
    groups = s[2];
    w = e.reshape(e.transpose(weight, {2, 3, 0, 1}), {s[2] * s[3], 1, s[0], s[1]});
  } else {
    w = e.transpose(weight, kToNCHW);
  }
  GTensor y = e.transpose(
      e.conv2d(x, w, op.getStride(), *padding, op.getDilation(), groups),
      kToNHWC);
  // The bias (one per output channel, or one for all) broadcasts over the
  // NHWC result's last dimension.
  if (std::optional<double> c = splatValue(op.getBias())) {
    if (*c != 0.0)
      y = e.scalarAdd(y, *c);
  } else {
    y = e.binary(BinaryKind::add, y, e.operand(operands[2], "the bias"));
  }
  results.push_back(e.result(y, op.getType()));
  return success(!e.failed());
}

template <typename PoolOp>
LogicalResult convertPool(PoolOp op, ValueRange operands, GraphEmitter &e,
                          Results &results) {
  constexpr bool isAvg = std::is_same_v<PoolOp, tosa::AvgPool2dOp>;
  if constexpr (isAvg) {
    if (failed(requireZero(e, op.getInputZp(), "the input zero point",
                           "avg_pool2d")) ||
        failed(requireZero(e, op.getOutputZp(), "the output zero point",
                           "avg_pool2d")))
      return failure();
    if (llvm::any_of(op.getPad(), [](int64_t p) { return p != 0; }))
      return e.fail("padding " + formatList(op.getPad()) +
                    " is left out of the average by TOSA, but "
                    "graph.avg_pool2d counts padded zeros; only a tosa.pad "
                    "of zeros in front (torch-mlir's count_include_pad) "
                    "converts");
  }
  Value inputValue = operands[0];
  SmallVector<int64_t> pad = foldPadding(e, op, op.getPad(), inputValue);
  FailureOr<SmallVector<int64_t>> padding = symmetric(
      e, pad, isAvg ? "graph.avg_pool2d" : "graph.max_pool2d");
  if (failed(padding))
    return failure();
  GTensor input = e.operand(inputValue, "the input");
  if (!e.failed() && input.rank() != 4)
    return e.fail("expects a rank-4 input");
  GTensor y = e.transpose(
      e.pool2d(isAvg ? PoolKind::avg : PoolKind::max,
               e.transpose(input, kToNCHW), op.getKernel(), op.getStride(),
               *padding),
      kToNHWC);
  results.push_back(e.result(y, op.getType()));
  return success(!e.failed());
}

/// add, sub, mul: broadcasting graph ops, or the scalar forms when one side
/// is a splat constant and the other has the result's type.
template <typename TosaOp, BinaryKind kind>
LogicalResult convertBinary(TosaOp op, ValueRange operands, GraphEmitter &e,
                            Results &results) {
  if constexpr (std::is_same_v<TosaOp, tosa::MulOp>) {
    std::optional<double> shift = splatValue(op.getShift());
    if (!shift || *shift != 0.0)
      return e.fail("the shift is " +
                    (shift ? formatDouble(*shift)
                           : std::string("not a constant")) +
                    ", not 0; a shifted (integer) multiplication has no "
                    "graph form");
  }
  Type type = op.getType();
  if (failed(e.checkType(type, "the result")))
    return failure();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  std::optional<double> lc = splatValue(lhs), rc = splatValue(rhs);
  GTensor y;
  if (rc && lhs.getType() == type) {
    GTensor x = e.operand(operands[0], "operand #0");
    if (kind == BinaryKind::add)
      y = e.scalarAdd(x, *rc);
    else if (kind == BinaryKind::sub)
      y = e.scalarAdd(x, -*rc);
    else
      y = e.scalarMul(x, *rc);
  } else if (lc && rhs.getType() == type) {
    GTensor x = e.operand(operands[1], "operand #1");
    if (kind == BinaryKind::add)
      y = e.scalarAdd(x, *lc);
    else if (kind == BinaryKind::sub)
      y = e.scalarAdd(e.scalarMul(x, -1.0), *lc);
    else
      y = e.scalarMul(x, *lc);
  } else if (kind == BinaryKind::mul && lhs == rhs) {
    y = e.unary(UnaryKind::square, e.operand(operands[0], "operand #0"));
  } else {
    y = e.binary(kind, e.operand(operands[0], "operand #0"),
                 e.operand(operands[1], "operand #1"));
  }
  results.push_back(e.result(y, type));
  return success(!e.failed());
}

/// maximum / minimum against a splat constant: relu or clamp.
template <typename TosaOp, bool isMax>
LogicalResult convertMinMax(TosaOp op, ValueRange operands, GraphEmitter &e,
                            Results &results) {
  Type type = op.getType();
  if (failed(e.checkType(type, "the result")))
    return failure();
  std::optional<double> c;
  GTensor x;
  if ((c = splatValue(op->getOperand(1))) &&
      op->getOperand(0).getType() == type)
    x = e.operand(operands[0], "operand #0");
  else if ((c = splatValue(op->getOperand(0))) &&
           op->getOperand(1).getType() == type)
    x = e.operand(operands[1], "operand #1");
  else
    return e.fail(Twine(isMax ? "maximum" : "minimum") +
                  " of two tensors has no graph form (only against a splat "
                  "constant: relu or clamp)");
  GTensor y;
  if (isMax && *c == 0.0)
    y = e.unary(UnaryKind::relu, x);
  else if (isMax)
    y = e.clamp(x, *c, kInf);
  else
    y = e.clamp(x, -kInf, *c);
  results.push_back(e.result(y, type));
  return success(!e.failed());
}

LogicalResult convertPow(tosa::PowOp op, ValueRange operands, GraphEmitter &e,
                         Results &results) {
  std::optional<double> c = splatValue(op.getInput2());
  if (!c || op.getInput1().getType() != op.getType())
    return e.fail("only a splat constant exponent has a graph form "
                  "(graph.pow)");
  results.push_back(
      e.result(e.pow(e.operand(operands[0], "the base"), *c), op.getType()));
  return success(!e.failed());
}

template <typename TosaOp, UnaryKind kind>
LogicalResult convertUnary(TosaOp op, ValueRange operands, GraphEmitter &e,
                           Results &results) {
  results.push_back(
      e.result(e.unary(kind, e.operand(operands[0], "the input")),
               op->getResult(0).getType()));
  return success(!e.failed());
}

/// reciprocal (pow -1) and rsqrt (pow -0.5).
template <typename TosaOp, int exponentTimes2>
LogicalResult convertPowOf(TosaOp op, ValueRange operands, GraphEmitter &e,
                           Results &results) {
  results.push_back(e.result(
      e.pow(e.operand(operands[0], "the input"), exponentTimes2 / 2.0),
      op.getType()));
  return success(!e.failed());
}

LogicalResult convertNegate(tosa::NegateOp op, ValueRange operands,
                            GraphEmitter &e, Results &results) {
  if (failed(requireZero(e, op.getInput1Zp(), "the input zero point",
                         "negate")) ||
      failed(requireZero(e, op.getOutputZp(), "the output zero point",
                         "negate")))
    return failure();
  results.push_back(e.result(
      e.scalarMul(e.operand(operands[0], "the input"), -1.0), op.getType()));
  return success(!e.failed());
}

LogicalResult convertClamp(tosa::ClampOp op, ValueRange operands,
                           GraphEmitter &e, Results &results) {
  auto lo = dyn_cast<FloatAttr>(op.getMinValAttr());
  auto hi = dyn_cast<FloatAttr>(op.getMaxValAttr());
  if (!lo || !hi)
    return e.fail("integer bounds have no graph form");
  double min = lo.getValueAsDouble(), max = hi.getValueAsDouble();
  GTensor x = e.operand(operands[0], "the input");
  if (e.failed())
    return failure();
  // torch-mlir writes relu as a clamp to [0, the largest finite value]:
  // relu for every input but +inf.
  double largest =
      APFloat::getLargest(cast<FloatType>(x.elementType).getFloatSemantics())
          .convertToDouble();
  GTensor y = min == 0.0 && max >= largest ? e.unary(UnaryKind::relu, x)
                                           : e.clamp(x, min, max);
  results.push_back(e.result(y, op.getType()));
  return success(!e.failed());
}

template <typename TosaOp, ReduceKind kind>
LogicalResult convertReduce(TosaOp op, ValueRange operands, GraphEmitter &e,
                            Results &results) {
  results.push_back(e.result(
      e.reduce(kind, e.operand(operands[0], "the input"), op.getAxis()),
      op.getType()));
  return success(!e.failed());
}

LogicalResult convertTranspose(tosa::TransposeOp op, ValueRange operands,
                               GraphEmitter &e, Results &results) {
  results.push_back(e.result(
      e.transpose(e.operand(operands[0], "the input"), toI64(op.getPerms())),
      op.getType()));
  return success(!e.failed());
}

LogicalResult convertReshape(tosa::ReshapeOp op, ValueRange operands,
                             GraphEmitter &e, Results &results) {
  if (failed(e.checkType(op.getType(), "the result")))
    return failure();
  GTensor x = e.operand(operands[0], "the input");
  results.push_back(
      e.result(e.reshape(x, op.getType().getShape()), op.getType()));
  return success(!e.failed());
}

LogicalResult convertConcat(tosa::ConcatOp op, ValueRange operands,
                            GraphEmitter &e, Results &results) {
  SmallVector<GTensor> inputs;
  for (auto [i, v] : llvm::enumerate(operands))
    inputs.push_back(e.operand(v, "operand #" + Twine(i)));
  results.push_back(e.result(e.concat(inputs, op.getAxis()), op.getType()));
  return success(!e.failed());
}

LogicalResult convertTile(tosa::TileOp op, ValueRange operands,
                          GraphEmitter &e, Results &results) {
  std::optional<SmallVector<int64_t>> multiples = constShape(op.getMultiples());
  if (!multiples)
    return e.fail("the multiples are not a tosa.const_shape");
  results.push_back(e.result(
      e.repeat(e.operand(operands[0], "the input"), *multiples),
      op.getType()));
  return success(!e.failed());
}

LogicalResult convertIdentity(tosa::IdentityOp op, ValueRange operands,
                              GraphEmitter &e, Results &results) {
  GTensor x = e.operand(operands[0], "the input");
  results.push_back(e.result(x, op.getType()));
  return success(!e.failed());
}

LogicalResult convertCast(tosa::CastOp op, ValueRange operands,
                          GraphEmitter &e, Results &results) {
  // Among f32, f16 and bf16 in any direction (graph.cast rounds to nearest
  // even, as tosa.cast does); integer and boolean casts have no graph form
  // (a cast of a comparison's i1 mask became the mask in convertMasks).
  GTensor x = e.operand(operands[0], "the input");
  Type to = getElementTypeOrSelf(op.getType());
  results.push_back(e.result(e.castTo(x, to), op.getType()));
  return success(!e.failed());
}

/// One slice as a piece of a split: the dimension it cuts and its interval.
struct SlicePiece {
  std::optional<int64_t> dim;
  int64_t start = 0, size = 0;
};

/// The piece `slice` cuts from its input, or the reason it is not one.
FailureOr<SlicePiece> pieceOf(tosa::SliceOp slice, std::string &why) {
  auto type = dyn_cast<RankedTensorType>(slice.getInput1().getType());
  std::optional<SmallVector<int64_t>> start = constShape(slice.getStart());
  std::optional<SmallVector<int64_t>> size = constShape(slice.getSize());
  if (!type || !type.hasStaticShape() || !start || !size) {
    why = "the start and size are not tosa.const_shape ops on a static "
          "tensor";
    return failure();
  }
  SlicePiece piece;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t extent = (*size)[d] == -1 ? type.getDimSize(d) - (*start)[d]
                                      : (*size)[d];
    if ((*start)[d] == 0 && extent == type.getDimSize(d))
      continue;
    if (piece.dim) {
      why = "slice " + formatList(*start) + " + " + formatList(*size) +
            " cuts more than one dimension; graph.split cuts one";
      return failure();
    }
    piece.dim = d;
    piece.start = (*start)[d];
    piece.size = extent;
  }
  return piece;
}

/// tosa.slice: the slices of one tensor that cut the same dimension into
/// pieces (each interval once or more, together exactly the dimension)
/// are the results of one graph.split.
LogicalResult convertSlice(tosa::SliceOp op, ValueRange operands,
                           GraphEmitter &e, Results &results) {
  std::string why;
  FailureOr<SlicePiece> piece = pieceOf(op, why);
  if (failed(piece))
    return e.fail(why);
  GTensor input = e.operand(operands[0], "the input");
  if (e.failed())
    return failure();
  if (!piece->dim) {
    results.push_back(e.result(input, op.getType()));
    return success(!e.failed());
  }
  int64_t dim = *piece->dim;
  std::map<int64_t, int64_t> intervals; // start -> size
  for (Operation *user : op.getInput1().getUsers()) {
    auto sibling = dyn_cast<tosa::SliceOp>(user);
    if (!sibling || sibling.getInput1() != op.getInput1())
      continue;
    std::string ignored;
    FailureOr<SlicePiece> p = pieceOf(sibling, ignored);
    if (failed(p) || !p->dim || *p->dim != dim)
      continue;
    if (sibling->getBlock() != op->getBlock())
      return e.fail("the slices of this tensor are in different blocks");
    auto [it, inserted] = intervals.insert({p->start, p->size});
    if (!inserted && it->second != p->size)
      return e.fail("slices [" + Twine(p->start) + ", " +
                    Twine(p->start + p->size) + ") and [" + Twine(it->first) +
                    ", " + Twine(it->first + it->second) + ") along dim " +
                    Twine(dim) + " overlap; graph.split cuts disjoint pieces");
  }
  std::string listed;
  for (auto [start, size] : intervals)
    listed += (listed.empty() ? "[" : ", [") + std::to_string(start) + ", " +
              std::to_string(start + size) + ")";
  std::string notAPiece = "this slice [" + std::to_string(piece->start) +
                          ", " + std::to_string(piece->start + piece->size) +
                          ") along dim " + std::to_string(dim) +
                          " is not one piece of a split: the slices of this "
                          "tensor along that dim are " +
                          listed + ", which do not cut [0, " +
                          std::to_string(input.shape[dim]) + ") into pieces";
  SmallVector<int64_t> sizes;
  int64_t covered = 0;
  std::optional<size_t> index;
  for (auto [start, size] : intervals) {
    if (start != covered)
      return e.fail(notAPiece);
    if (start == piece->start)
      index = sizes.size();
    sizes.push_back(size);
    covered = start + size;
  }
  if (covered != input.shape[dim])
    return e.fail(notAPiece);
  // The first slice of the group to convert builds the split; the others
  // find it among the users of the input.
  if (e.building()) {
    for (Operation *user : input.value.getUsers()) {
      auto split = dyn_cast<graph::SplitOp>(user);
      if (split && split.getInput() == input.value && static_cast<int64_t>(split.getDim()) == dim &&
          split.getSizes() == ArrayRef<int64_t>(sizes)) {
        results.push_back(split.getResult(*index));
        return success();
      }
    }
  }
  SmallVector<GTensor> pieces = e.split(input, dim, sizes);
  if (e.failed())
    return failure();
  results.push_back(e.result(pieces[*index], op.getType()));
  return success(!e.failed());
}

//===----------------------------------------------------------------------===//
// GELU
//===----------------------------------------------------------------------===//

/// Replaces each erf-form GELU built of tosa ops by graph.gelu, before the
/// conversion (whose patterns see one op at a time).
void fuseGelu(ModuleOp module) {
  GeluOps ops;
  auto operandsOf = [](auto opTag) {
    using OpT = decltype(opTag);
    return [](Value v) -> std::optional<std::pair<Value, Value>> {
      auto op = v.getDefiningOp<OpT>();
      if (!op)
        return std::nullopt;
      if constexpr (std::is_same_v<OpT, tosa::MulOp>) {
        std::optional<double> shift = splatValue(op.getShift());
        if (!shift || *shift != 0.0)
          return std::nullopt;
      }
      return std::make_pair(op->getOperand(0), op->getOperand(1));
    };
  };
  ops.mul = operandsOf(tosa::MulOp());
  ops.add = operandsOf(tosa::AddOp());
  ops.sub = operandsOf(tosa::SubOp());
  ops.div = [](Value) -> std::optional<std::pair<Value, Value>> {
    return std::nullopt;
  };
  ops.erf = [](Value v) -> std::optional<Value> {
    if (auto erf = v.getDefiningOp<tosa::ErfOp>())
      return erf.getInput();
    return std::nullopt;
  };
  ops.splat = splatValue;
  ops.singleUse = [](Value v) { return v.hasOneUse(); };

  SmallVector<tosa::MulOp> candidates;
  module.walk([&](tosa::MulOp op) { candidates.push_back(op); });
  DenseSet<Operation *> erased;
  for (tosa::MulOp root : candidates) {
    if (erased.contains(root))
      continue;
    std::optional<GeluMatch> match = matchGelu(root.getResult(), ops);
    if (!match || match->x.getType() != root.getType())
      continue;
    OpBuilder b(root);
    Value gelu =
        graph::GeluOp::create(b, root.getLoc(), root.getType(), match->x);
    root.getResult().replaceAllUsesWith(gelu);
    for (Value v : llvm::reverse(match->values)) {
      Operation *op = v.getDefiningOp();
      if (op->use_empty()) {
        erased.insert(op);
        op->erase();
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Comparison masks
//===----------------------------------------------------------------------===//

/// Comparisons (tosa.greater, greater_equal, equal) give i1 tensors, which
/// graph has not: a comparison becomes the graph comparison of the same
/// operands, a 0/1 mask in their float type, where every reader takes it as
/// a mask: tosa.select (graph.select, the mask cast to the branches' type
/// when it differs) and tosa.cast to a float type (the mask itself). A
/// tosa.logical_not of a comparison read by selects swaps their branches.
/// Comparisons read otherwise stay, and the conversion reports them.
void convertMasks(ModuleOp module) {
  SmallVector<Operation *> compares;
  module.walk([&](Operation *op) {
    if (isa<tosa::GreaterOp, tosa::GreaterEqualOp, tosa::EqualOp>(op))
      compares.push_back(op);
  });
  for (Operation *cmp : compares) {
    Value lhs = cmp->getOperand(0), rhs = cmp->getOperand(1);
    auto lt = dyn_cast<RankedTensorType>(lhs.getType());
    auto rt = dyn_cast<RankedTensorType>(rhs.getType());
    auto result = dyn_cast<RankedTensorType>(cmp->getResult(0).getType());
    if (!lt || !rt || !result || !lt.hasStaticShape() ||
        !rt.hasStaticShape() || !result.hasStaticShape())
      continue;
    Type elt = lt.getElementType();
    if (!(elt.isF32() || elt.isF16() || elt.isBF16()) ||
        rt.getElementType() != elt)
      continue;
    // Which readers take the mask; a logical_not counts if its own readers
    // are all selects.
    auto isSelectOf = [](Operation *user, Value v) {
      auto sel = dyn_cast<tosa::SelectOp>(user);
      return sel && sel.getPred() == v && sel.getOnTrue() != v &&
             sel.getOnFalse() != v;
    };
    auto isFloatCast = [](Operation *user) {
      auto c = dyn_cast<tosa::CastOp>(user);
      Type to = c ? getElementTypeOrSelf(c.getType()) : Type();
      return c && (to.isF32() || to.isF16() || to.isBF16());
    };
    Value v = cmp->getResult(0);
    bool readable = !v.use_empty() && llvm::all_of(v.getUsers(), [&](Operation *u) {
      if (auto n = dyn_cast<tosa::LogicalNotOp>(u))
        return !n->use_empty() && llvm::all_of(n->getUsers(), [&](Operation *w) {
          return isSelectOf(w, n.getResult());
        });
      return isSelectOf(u, v) || isFloatCast(u);
    });
    if (!readable)
      continue;
    OpBuilder b(cmp);
    auto maskType = RankedTensorType::get(result.getShape(), elt);
    Value mask;
    if (isa<tosa::GreaterOp>(cmp))
      mask = graph::GtOp::create(b, cmp->getLoc(), maskType, lhs, rhs);
    else if (isa<tosa::GreaterEqualOp>(cmp))
      mask = graph::GeOp::create(b, cmp->getLoc(), maskType, lhs, rhs);
    else
      mask = graph::EqOp::create(b, cmp->getLoc(), maskType, lhs, rhs);
    auto maskAs = [&](OpBuilder &at, Location loc, Type to) -> Value {
      if (to == elt)
        return mask;
      return graph::CastOp::create(at, loc,
                                   RankedTensorType::get(result.getShape(), to),
                                   mask);
    };
    auto replaceSelect = [&](tosa::SelectOp sel, bool swapped) {
      OpBuilder at(sel);
      Type to = getElementTypeOrSelf(sel.getType());
      Value onTrue = swapped ? sel.getOnFalse() : sel.getOnTrue();
      Value onFalse = swapped ? sel.getOnTrue() : sel.getOnFalse();
      Value g = graph::SelectOp::create(at, sel.getLoc(), sel.getType(),
                                        maskAs(at, sel.getLoc(), to), onTrue,
                                        onFalse);
      sel.getResult().replaceAllUsesWith(g);
      sel.erase();
    };
    for (Operation *u : llvm::make_early_inc_range(v.getUsers())) {
      if (auto n = dyn_cast<tosa::LogicalNotOp>(u)) {
        for (Operation *w : llvm::make_early_inc_range(n->getUsers()))
          replaceSelect(cast<tosa::SelectOp>(w), /*swapped=*/true);
        n.erase();
      } else if (auto sel = dyn_cast<tosa::SelectOp>(u)) {
        replaceSelect(sel, /*swapped=*/false);
      } else {
        auto c = cast<tosa::CastOp>(u);
        OpBuilder at(c);
        c.getResult().replaceAllUsesWith(
            maskAs(at, c.getLoc(), getElementTypeOrSelf(c.getType())));
        c.erase();
      }
    }
    cmp->erase();
  }
}

//===----------------------------------------------------------------------===//
// f32 accumulation
//===----------------------------------------------------------------------===//

/// torch-mlir writes an f16 (bf16) matmul as a tosa.matmul with an f32
/// result, reshapes, and a tosa.cast back to f16. graph.matmul of f16 sums
/// in f32 and rounds once, to f16: the same values. So when a cast from f32
/// narrows the f32 result of a matmul (or of a convolution without bias)
/// of such inputs, through single-use reshapes, transposes and identities,
/// the chain is retyped to the narrow type and the cast dropped.
void absorbAccumulatorCasts(ModuleOp module) {
  SmallVector<tosa::CastOp> casts;
  module.walk([&](tosa::CastOp op) { casts.push_back(op); });
  for (tosa::CastOp castOp : casts) {
    auto inType = dyn_cast<RankedTensorType>(castOp.getInput().getType());
    auto outType = dyn_cast<RankedTensorType>(castOp.getType());
    if (!inType || !outType || !inType.getElementType().isF32())
      continue;
    Type narrow = outType.getElementType();
    if (!narrow.isF16() && !narrow.isBF16())
      continue;
    SmallVector<Operation *> chain;
    Value v = castOp.getInput();
    Operation *producer = nullptr;
    while (Operation *def = v.getDefiningOp()) {
      if (!v.hasOneUse())
        break;
      if (isa<tosa::ReshapeOp, tosa::TransposeOp, tosa::IdentityOp>(def)) {
        chain.push_back(def);
        v = def->getOperand(0);
        continue;
      }
      bool zeroBias = true;
      if (isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(def)) {
        std::optional<double> bias = splatValue(def->getOperand(2));
        zeroBias = bias && *bias == 0.0;
      }
      if (isa<tosa::MatMulOp, tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(def) &&
          zeroBias && getElementTypeOrSelf(def->getOperand(0)) == narrow &&
          getElementTypeOrSelf(def->getOperand(1)) == narrow)
        producer = def;
      break;
    }
    if (!producer)
      continue;
    chain.push_back(producer);
    for (Operation *op : chain) {
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      op->getResult(0).setType(type.clone(narrow));
    }
    castOp.getResult().replaceAllUsesWith(castOp.getInput());
    castOp.erase();
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

std::string noGraphForm(Operation *op) {
  if (isa<tosa::GreaterOp, tosa::GreaterEqualOp, tosa::EqualOp>(op))
    return "a comparison converts where every reader takes its i1 result as "
           "a mask (tosa.select, a tosa.cast to a float type, a "
           "tosa.logical_not read by selects); graph tensors are float";
  if (isa<tosa::IntDivOp>(op))
    return "integer division has no graph form (graph tensors are f16, bf16 "
           "or f32)";
  if (isa<tosa::ReduceMinOp, tosa::ReduceProductOp, tosa::ReduceAllOp,
          tosa::ReduceAnyOp>(op))
    return "no graph op computes this (graph reduces with sum and max only)";
  if (isa<tosa::TransposeConv2DOp>(op))
    return "transposed convolution has no graph form";
  return "no graph op computes this (docs/Importers.md lists the TOSA ops "
         "that convert)";
}

void populateTosaConversions(ConversionTable &table) {
  table.add<tosa::MatMulOp>(convertMatmul);
  table.add<tosa::Conv2DOp>(convertConv<tosa::Conv2DOp>);
  table.add<tosa::DepthwiseConv2DOp>(convertConv<tosa::DepthwiseConv2DOp>);
  table.add<tosa::AvgPool2dOp>(convertPool<tosa::AvgPool2dOp>);
  table.add<tosa::MaxPool2dOp>(convertPool<tosa::MaxPool2dOp>);
  table.add<tosa::AddOp>(convertBinary<tosa::AddOp, BinaryKind::add>);
  table.add<tosa::SubOp>(convertBinary<tosa::SubOp, BinaryKind::sub>);
  table.add<tosa::MulOp>(convertBinary<tosa::MulOp, BinaryKind::mul>);
  table.add<tosa::MaximumOp>(convertMinMax<tosa::MaximumOp, true>);
  table.add<tosa::MinimumOp>(convertMinMax<tosa::MinimumOp, false>);
  table.add<tosa::PowOp>(convertPow);
  table.add<tosa::ExpOp>(convertUnary<tosa::ExpOp, UnaryKind::exp>);
  table.add<tosa::TanhOp>(convertUnary<tosa::TanhOp, UnaryKind::tanh>);
  // A lone erf (the GELU pattern became graph.gelu first, in fuseGelu).
  table.add<tosa::ErfOp>(convertUnary<tosa::ErfOp, UnaryKind::erf>);
  table.add<tosa::SigmoidOp>(
      convertUnary<tosa::SigmoidOp, UnaryKind::sigmoid>);
  table.add<tosa::ReciprocalOp>(convertPowOf<tosa::ReciprocalOp, -2>);
  table.add<tosa::RsqrtOp>(convertPowOf<tosa::RsqrtOp, -1>);
  table.add<tosa::NegateOp>(convertNegate);
  table.add<tosa::ClampOp>(convertClamp);
  table.add<tosa::ReduceSumOp>(
      convertReduce<tosa::ReduceSumOp, ReduceKind::sum>);
  table.add<tosa::ReduceMaxOp>(
      convertReduce<tosa::ReduceMaxOp, ReduceKind::max>);
  table.add<tosa::TransposeOp>(convertTranspose);
  table.add<tosa::ReshapeOp>(convertReshape);
  table.add<tosa::ConcatOp>(convertConcat);
  table.add<tosa::TileOp>(convertTile);
  table.add<tosa::SliceOp>(convertSlice);
  table.add<tosa::IdentityOp>(convertIdentity);
  table.add<tosa::CastOp>(convertCast);
}

struct TosaToGraphPass : mirage::impl::TosaToGraphBase<TosaToGraphPass> {
  using TosaToGraphBase::TosaToGraphBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    fuseGelu(module);
    convertMasks(module);
    absorbAccumulatorCasts(module);

    ConversionTable table(context);
    populateTosaConversions(table);

    // Check every op first, so that each one without a graph form is
    // reported before anything changes.
    DenseSet<Operation *> foldablePads;
    bool ok = true;
    module.walk([&](Operation *op) {
      if (!isa<tosa::TosaDialect>(op->getDialect()) ||
          isa<tosa::ConstOp, tosa::ConstShapeOp>(op) || isConstantReshape(op))
        return;
      std::string why;
      if (auto pad = dyn_cast<tosa::PadOp>(op)) {
        if (succeeded(checkFoldablePad(pad, why))) {
          foldablePads.insert(op);
          return;
        }
      } else if (auto *check = table.lookup(op)) {
        if (succeeded((*check)(op, why)))
          return;
      } else {
        why = noGraphForm(op);
      }
      emitImportError(op, why);
      ok = false;
    });
    if (!ok)
      return signalPassFailure();

    ConversionTarget target(*context);
    target.addLegalDialect<graph::GraphDialect, func::FuncDialect>();
    target.addIllegalDialect<tosa::TosaDialect>();
    // Constants and shapes stay until finishImport lifts or erases them;
    // so do the pads the window ops fold in.
    target.addLegalOp<tosa::ConstOp, tosa::ConstShapeOp>();
    target.addDynamicallyLegalOp<tosa::PadOp>(
        [&](Operation *op) { return foldablePads.contains(op); });
    target.addDynamicallyLegalOp<tosa::ReshapeOp>(isConstantReshape);
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(module, target,
                                      std::move(table.patterns), config)))
      return signalPassFailure();

    ImportPolicy policy;
    policy.isSourceOp = [](Operation *op) {
      return isa<tosa::TosaDialect>(op->getDialect());
    };
    policy.constantValue = [](Operation *op) -> ElementsAttr {
      if (auto c = dyn_cast<tosa::ConstOp>(op))
        return c.getValues();
      if (isConstantReshape(op))
        return constantOf(op->getResult(0));
      return {};
    };
    policy.leftoverReason = [](Operation *op) {
      return "is still used after the conversion (by " +
             (*op->getUsers().begin())->getName().getStringRef().str() + ")";
    };
    policy.liftConstants = liftConstants;
    if (failed(finishImport(module, policy)))
      signalPassFailure();
  }
};

} // namespace
