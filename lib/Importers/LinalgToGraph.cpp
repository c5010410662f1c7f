//===- LinalgToGraph.cpp - --linalg-to-graph: linalg programs as graph ops -===//
//
// Imports linalg on tensors, with the tensor, arith and math ops around it,
// as torch-mlir and IREE write it, into the graph dialect. Named ops
// (matmul, convolutions, pooling, softmax) map to graph ops by kind; every
// other structured op (linalg.generic, the named elementwise ops,
// linalg.map/reduce/transpose/broadcast) is recognized from its indexing
// maps and body (BodyLowering). Each conversion is written once against a
// GraphEmitter (ImportCommon.h): the pass runs all of them in checking mode
// and reports every op without a graph form, then runs the dialect
// conversion. docs/Importers.md lists what converts and how.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Graph/GraphOps.h"
#include "ImportCommon.h"
#include "mirage/Importers/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/Transforms/DialectConversion.h"
#include <cmath>
#include <limits>
#include <numeric>

namespace mirage {
#define GEN_PASS_DEF_LINALGTOGRAPH
#include "mirage/Importers/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;
using namespace mirage::importers;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
using Results = SmallVectorImpl<Value>;

//===----------------------------------------------------------------------===//
// Scalar constants
//===----------------------------------------------------------------------===//

/// `value` rounded to the float type `type` (unchanged for other types).
double roundTo(double value, Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!floatType || std::isnan(value))
    return value;
  APFloat x(value);
  bool lost = false;
  x.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
            &lost);
  return x.convertToDouble();
}

bool hasTensorResult(Operation *op) {
  return llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<ShapedType>(t); });
}

std::optional<double> scalarOf(Value v, int depth = 0);

/// The value of every element of a tensor that is a splat constant: a splat
/// arith.constant or a linalg.fill of a constant.
std::optional<double> splatOf(Value v, int depth = 0) {
  Operation *op = v.getDefiningOp();
  if (!op || depth > 16)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (!dense || !dense.isSplat())
      return std::nullopt;
    if (isa<FloatType>(dense.getElementType()))
      return dense.getSplatValue<APFloat>().convertToDouble();
    if (dense.getElementType().isInteger())
      return static_cast<double>(dense.getSplatValue<APInt>().getSExtValue());
    return std::nullopt;
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return scalarOf(fill.getInputs()[0], depth + 1);
  if (auto cast = dyn_cast<tensor::CastOp>(op))
    return splatOf(cast.getSource(), depth + 1);
  return std::nullopt;
}

/// The value of a scalar that is a constant expression: an arith.constant,
/// float arithmetic of constants (rounded to its type, as the program
/// computes it), or, inside a structured op's body, the element of an input
/// that is a scalar constant or a splat tensor.
std::optional<double> scalarOf(Value v, int depth) {
  if (depth > 16 || isa<ShapedType>(v.getType()))
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto owner = dyn_cast_or_null<linalg::LinalgOp>(
        arg.getOwner()->getParentOp());
    if (!owner || arg.getArgNumber() >= owner.getNumDpsInputs())
      return std::nullopt;
    Value operand = owner.getDpsInputOperand(arg.getArgNumber())->get();
    return isa<ShapedType>(operand.getType()) ? splatOf(operand, depth + 1)
                                              : scalarOf(operand, depth + 1);
  }
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  Type type = v.getType();
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      return f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return static_cast<double>(i.getValue().getSExtValue());
    return std::nullopt;
  }
  auto operand = [&](unsigned i) {
    return scalarOf(op->getOperand(i), depth + 1);
  };
  auto binary = [&](auto f) -> std::optional<double> {
    std::optional<double> a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return roundTo(f(*a, *b), type);
  };
  auto unary = [&](auto f) -> std::optional<double> {
    std::optional<double> a = operand(0);
    if (!a)
      return std::nullopt;
    return roundTo(f(*a), type);
  };
  if (isa<arith::AddFOp>(op))
    return binary([](double a, double b) { return a + b; });
  if (isa<arith::SubFOp>(op))
    return binary([](double a, double b) { return a - b; });
  if (isa<arith::MulFOp>(op))
    return binary([](double a, double b) { return a * b; });
  if (isa<arith::DivFOp>(op))
    return binary([](double a, double b) { return a / b; });
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return binary([](double a, double b) { return std::max(a, b); });
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return binary([](double a, double b) { return std::min(a, b); });
  if (isa<arith::NegFOp>(op))
    return unary([](double a) { return -a; });
  if (isa<math::SqrtOp>(op))
    return unary([](double a) { return std::sqrt(a); });
  if (isa<math::RsqrtOp>(op))
    return unary([](double a) { return 1.0 / std::sqrt(a); });
  if (isa<math::ExpOp>(op))
    return unary([](double a) { return std::exp(a); });
  if (isa<math::TanhOp>(op))
    return unary([](double a) { return std::tanh(a); });
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(
          op))
    return unary([](double a) { return a; });
  return std::nullopt;
}

/// Whether `v` is the neutral element of a max: -inf, or the lowest finite
/// value of its type (torch-mlir writes either).
bool isMaxNeutral(std::optional<double> v, Type type) {
  if (!v)
    return false;
  if (std::isinf(*v) && *v < 0)
    return true;
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return floatType &&
         *v == APFloat::getLargest(floatType.getFloatSemantics(), true)
                   .convertToDouble();
}

/// The init of a named op that accumulates (matmul, conv, pooling) added to
/// its result `y`: nothing for a fill of `neutral`, a scalar_add for another
/// splat, a graph.add otherwise.
GTensor addInit(GraphEmitter &e, GTensor y, Value init, Value mappedInit) {
  if (e.failed())
    return {};
  if (init.getDefiningOp<tensor::EmptyOp>()) {
    (void)e.fail("accumulates into an uninitialized tensor.empty");
    return {};
  }
  if (std::optional<double> c = splatOf(init)) {
    if (*c == 0.0)
      return y;
    return e.scalarAdd(y, *c);
  }
  return e.binary(BinaryKind::add, y, e.operand(mappedInit, "the init"));
}

SmallVector<int64_t> intValues(DenseIntElementsAttr attr) {
  SmallVector<int64_t> values;
  for (const APInt &v : attr.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

//===----------------------------------------------------------------------===//
// tensor.pad in front of a window op
//===----------------------------------------------------------------------===//

/// The layout of a window op's input: which dimensions are H and W.
struct WindowOp {
  bool nhwc;
  double fill; // the padding value the op can absorb
  bool isMax;
};

std::optional<WindowOp> windowOpOf(Operation *op) {
  if (isa<linalg::Conv2DNchwFchwOp, linalg::PoolingNchwSumOp>(op))
    return WindowOp{false, 0.0, false};
  if (isa<linalg::Conv2DNhwcHwcfOp, linalg::PoolingNhwcSumOp>(op))
    return WindowOp{true, 0.0, false};
  if (isa<linalg::PoolingNchwMaxOp>(op))
    return WindowOp{false, -kInf, true};
  if (isa<linalg::PoolingNhwcMaxOp>(op))
    return WindowOp{true, -kInf, true};
  return std::nullopt;
}

/// The padding ([top, bottom, left, right]) a tensor.pad adds in front of
/// the window op `user`, or the reason it cannot fold into it.
FailureOr<SmallVector<int64_t>> padFor(tensor::PadOp pad, Operation *user,
                                       std::string &why) {
  std::optional<WindowOp> window = windowOpOf(user);
  if (!window || user->getOperand(0) != pad.getResult()) {
    why = ("graph has no pad op; a pad converts only when the convolution "
           "or pooling op that takes it as its input folds it into its "
           "padding, and " +
           user->getName().getStringRef() + " does not")
              .str();
    return failure();
  }
  auto reject = [&](const Twine &reason) {
    why = ("graph has no pad op, and this one cannot fold into the padding "
           "of " +
           user->getName().getStringRef() + ": " + reason)
              .str();
    return failure();
  };
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (low.size() != 4 || llvm::any_of(low, ShapedType::isDynamic) ||
      llvm::any_of(high, ShapedType::isDynamic))
    return reject("the padding is not static");
  Value padValue = pad.getBody()->getTerminator()->getOperand(0);
  std::optional<double> value = scalarOf(padValue);
  Type type = pad.getType().getElementType();
  bool fits = value && (window->isMax ? isMaxNeutral(value, type)
                                      : *value == window->fill);
  if (!fits)
    return reject("the padding value is " +
                  (value ? formatDouble(*value) : std::string("not constant")) +
                  ", not " + (window->isMax ? "-inf" : "0"));
  int64_t h = window->nhwc ? 1 : 2, w = window->nhwc ? 2 : 3;
  int64_t c = window->nhwc ? 3 : 1;
  if (low[0] || high[0] || low[c] || high[c])
    return reject("it pads the N or C dimension (low " + formatList(low) +
                  ", high " + formatList(high) + ")");
  return SmallVector<int64_t>{low[h], high[h], low[w], high[w]};
}

LogicalResult checkFoldablePad(tensor::PadOp pad, std::string &why) {
  for (Operation *user : pad->getUsers())
    if (failed(padFor(pad, user, why)))
      return failure();
  return success();
}

/// The window op's padding with a tensor.pad in front folded in, and its
/// input (the pad's source then); [pad_h, pad_w] when symmetric.
FailureOr<SmallVector<int64_t>> windowPadding(GraphEmitter &e, Operation *op,
                                              Value &input,
                                              StringRef graphOp) {
  SmallVector<int64_t> pad = {0, 0, 0, 0};
  if (auto padOp = op->getOperand(0).getDefiningOp<tensor::PadOp>()) {
    std::string why;
    FailureOr<SmallVector<int64_t>> folded = padFor(padOp, op, why);
    if (succeeded(folded)) {
      pad = *folded;
      input = e.lookup(padOp.getSource());
    }
  }
  if (pad[0] != pad[1] || pad[2] != pad[3]) {
    (void)e.fail("asymmetric padding " + formatList(pad) + " has no " +
                 graphOp + " form");
    return failure();
  }
  return SmallVector<int64_t>{pad[0], pad[2]};
}

//===----------------------------------------------------------------------===//
// Named ops
//===----------------------------------------------------------------------===//

/// linalg.matmul and linalg.batch_matmul, with their default indexing maps
/// or maps that transpose an operand.
template <typename MatmulOp>
LogicalResult convertMatmul(MatmulOp op, ValueRange operands, GraphEmitter &e,
                            Results &results) {
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  constexpr bool batched = std::is_same_v<MatmulOp, linalg::BatchMatmulOp>;
  // Loops (b,) m, n, k; the operands' dimensions in the order graph.matmul
  // takes them.
  SmallVector<SmallVector<unsigned>> expected =
      batched ? SmallVector<SmallVector<unsigned>>{{0, 1, 3}, {0, 3, 2},
                                                   {0, 1, 2}}
              : SmallVector<SmallVector<unsigned>>{{0, 2}, {2, 1}, {0, 1}};
  SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
  SmallVector<GTensor> inputs;
  for (unsigned i = 0; i < 3; ++i) {
    AffineMap map = maps[i];
    SmallVector<int64_t> perm;
    for (unsigned d : expected[i]) {
      std::optional<unsigned> pos = map.getResultPosition(
          getAffineDimExpr(d, op.getContext()));
      if (!pos || map.getNumResults() != expected[i].size())
        return e.fail("indexing map " +
                      [&] {
                        std::string s;
                        llvm::raw_string_ostream os(s);
                        os << map;
                        return s;
                      }() +
                      " of operand #" + Twine(i) +
                      " is not a permutation of the default one (broadcast "
                      "operands have no graph.matmul form)");
      perm.push_back(*pos);
    }
    if (i == 2) {
      if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
        return e.fail("a transposed result map has no graph.matmul form");
      break;
    }
    inputs.push_back(
        e.transpose(e.operand(operands[i], "operand #" + Twine(i)), perm));
  }
  GTensor y = e.matmul(inputs[0], inputs[1]);
  y = addInit(e, y, linalgOp.getDpsInits()[0], operands[2]);
  results.push_back(e.result(y, op->getResult(0).getType()));
  return success(!e.failed());
}

/// linalg.conv_2d_nchw_fchw and linalg.conv_2d_nhwc_hwcf.
template <typename ConvOp, bool nhwc>
LogicalResult convertConv(ConvOp op, ValueRange operands, GraphEmitter &e,
                          Results &results) {
  Value inputValue = operands[0];
  FailureOr<SmallVector<int64_t>> padding =
      windowPadding(e, op, inputValue, "graph.conv2d");
  if (failed(padding))
    return failure();
  GTensor x = e.operand(inputValue, "the input");
  GTensor w = e.operand(operands[1], "the filter");
  if (nhwc) {
    x = e.transpose(x, {0, 3, 1, 2});
    w = e.transpose(w, {3, 2, 0, 1}); // HWCF -> FCHW
  }
  GTensor y = e.conv2d(x, w, intValues(op.getStrides()), *padding,
                       intValues(op.getDilations()), 1);
  if (nhwc)
    y = e.transpose(y, {0, 2, 3, 1});
  y = addInit(e, y, op.getDpsInits()[0], operands[2]);
  results.push_back(e.result(y, op->getResult(0).getType()));
  return success(!e.failed());
}

/// linalg.pooling_{nchw,nhwc}_{max,sum}: max pooling, and average pooling
/// times the window size for sums.
template <typename PoolOp, bool nhwc, bool isMax>
LogicalResult convertPool(PoolOp op, ValueRange operands, GraphEmitter &e,
                          Results &results) {
  SmallVector<int64_t> dilations = intValues(op.getDilations());
  if (llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return e.fail("dilations " + formatList(dilations) +
                  " have no graph pooling form");
  auto window = cast<ShapedType>(op.getInputs()[1].getType());
  if (!window.hasStaticShape() || window.getRank() != 2)
    return e.fail("the window is not a static 2-d shape");
  SmallVector<int64_t> kernel(window.getShape());
  Value inputValue = operands[0];
  FailureOr<SmallVector<int64_t>> padding = windowPadding(
      e, op, inputValue, isMax ? "graph.max_pool2d" : "graph.avg_pool2d");
  if (failed(padding))
    return failure();
  GTensor x = e.operand(inputValue, "the input");
  if (nhwc)
    x = e.transpose(x, {0, 3, 1, 2});
  SmallVector<int64_t> strides = intValues(op.getStrides());
  GTensor y;
  if (isMax) {
    y = e.pool2d(PoolKind::max, x, kernel, strides, *padding);
  } else {
    y = e.scalarMul(e.pool2d(PoolKind::avg, x, kernel, strides, *padding),
                    static_cast<double>(kernel[0] * kernel[1]));
  }
  if (nhwc)
    y = e.transpose(y, {0, 2, 3, 1});
  Value init = op.getDpsInits()[0];
  if (isMax) {
    if (!isMaxNeutral(splatOf(init), getElementTypeOrSelf(init)))
      return e.fail("the init of a max pooling must be a fill of -inf (a max "
                    "of the window and another tensor has no graph form)");
  } else {
    y = addInit(e, y, init, operands[2]);
  }
  results.push_back(e.result(y, op->getResult(0).getType()));
  return success(!e.failed());
}

LogicalResult convertSoftmax(linalg::SoftmaxOp op, ValueRange operands,
                             GraphEmitter &e, Results &results) {
  results.push_back(
      e.result(e.softmax(e.operand(operands[0], "the input"),
                         op.getDimension()),
               op->getResult(0).getType()));
  return success(!e.failed());
}

/// tensor.expand_shape and tensor.collapse_shape.
template <typename ReshapeOp>
LogicalResult convertReshape(ReshapeOp op, ValueRange operands,
                             GraphEmitter &e, Results &results) {
  Type type = op.getResult().getType();
  if (failed(e.checkType(type, "the result")))
    return failure();
  GTensor x = e.operand(operands[0], "the source");
  results.push_back(
      e.result(e.reshape(x, cast<RankedTensorType>(type).getShape()), type));
  return success(!e.failed());
}

LogicalResult convertConcat(tensor::ConcatOp op, ValueRange operands,
                            GraphEmitter &e, Results &results) {
  SmallVector<GTensor> inputs;
  for (auto [i, v] : llvm::enumerate(operands))
    inputs.push_back(e.operand(v, "operand #" + Twine(i)));
  results.push_back(e.result(e.concat(inputs, op.getDim()), op.getType()));
  return success(!e.failed());
}

LogicalResult convertCast(tensor::CastOp op, ValueRange operands,
                          GraphEmitter &e, Results &results) {
  GTensor x = e.operand(operands[0], "the source");
  results.push_back(e.result(x, op.getType()));
  return success(!e.failed());
}

//===----------------------------------------------------------------------===//
// Structured ops recognized by maps and body
//===----------------------------------------------------------------------===//

std::string print(AffineMap map) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << map;
  return s;
}

/// A value of the body as the graph computes it: a scalar constant, or a
/// tensor over the iteration domain (rank = loops, every dimension full or
/// 1, broadcasting like NumPy).
struct Term {
  std::optional<double> scalar;
  GTensor tensor;
};

class BodyLowering {
public:
  BodyLowering(linalg::LinalgOp op, ValueRange operands, GraphEmitter &e)
      : op(op), operands(operands), e(e) {}

  LogicalResult run(Results &results);

private:
  LogicalResult fail(const Twine &message) {
    return e.fail(message);
  }
  FailureOr<Term> eval(Value v);
  FailureOr<Term> evalOp(Operation *bodyOp);
  FailureOr<GTensor> tensorOf(Value v);
  GTensor operandOnDomain(unsigned operandNumber, AffineMap map);
  GTensor toOutput(GTensor t, AffineMap map, Type resultType);
  GTensor fullDomain(GTensor t);
  std::optional<Value> sigmoidInput(Value v);
  std::optional<std::pair<Value, double>> clampBound(Value v, bool isMax);

  linalg::LinalgOp op;
  ValueRange operands;
  GraphEmitter &e;
  SmallVector<int64_t> domain;
  DenseMap<Value, Term> memo;
  /// The output block argument: data in an elementwise body, the running
  /// value in a reduction (where only the final combination may use it).
  Value outArg;
  bool reduction = false;
};

GTensor BodyLowering::operandOnDomain(unsigned operandNumber, AffineMap map) {
  if (op->getOperand(operandNumber).getDefiningOp<tensor::EmptyOp>()) {
    (void)fail("operand #" + Twine(operandNumber) +
               " is an uninitialized tensor.empty that the body reads");
    return {};
  }
  GTensor x = e.operand(operands[operandNumber],
                        "operand #" + Twine(operandNumber));
  if (e.failed())
    return {};
  // Constant-0 results index size-1 dimensions: drop them; the dimension
  // results are distinct loops, put in loop order and spread over the
  // domain with 1s elsewhere.
  SmallVector<int64_t> keptShape, loops;
  for (auto [j, expr] : llvm::enumerate(map.getResults())) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
      if (c.getValue() != 0 || x.shape[j] != 1) {
        (void)fail("indexing map " + print(map) + " of operand #" +
                   Twine(operandNumber) +
                   " is not a projected permutation (nor a 0 for a size-1 "
                   "dimension)");
        return {};
      }
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || llvm::is_contained(loops, dim.getPosition())) {
      (void)fail("indexing map " + print(map) + " of operand #" +
                 Twine(operandNumber) + " is not a projected permutation");
      return {};
    }
    loops.push_back(dim.getPosition());
    keptShape.push_back(x.shape[j]);
  }
  x = e.reshape(x, keptShape);
  // Trailing loops in order broadcast as they are (NumPy aligns trailing
  // dimensions): a bias [N] against [M, N] needs no reshape.
  if (llvm::equal(loops, llvm::seq<int64_t>(domain.size() - loops.size(),
                                            domain.size())))
    return x;
  SmallVector<int64_t> order(loops.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t a, int64_t b) { return loops[a] < loops[b]; });
  x = e.transpose(x, order);
  SmallVector<int64_t> shape(domain.size(), 1);
  for (int64_t i : order)
    shape[loops[i]] = keptShape[i];
  return e.reshape(x, shape);
}

GTensor BodyLowering::fullDomain(GTensor t) {
  if (e.failed() || ArrayRef<int64_t>(t.shape) == ArrayRef<int64_t>(domain))
    return t;
  return e.broadcast(t, domain);
}

GTensor BodyLowering::toOutput(GTensor t, AffineMap map, Type resultType) {
  if (e.failed())
    return {};
  SmallVector<int64_t> used;
  for (AffineExpr expr : map.getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr); c && c.getValue() == 0)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || llvm::is_contained(used, dim.getPosition())) {
      (void)fail("the output's indexing map " + print(map) +
                 " is not a projected permutation");
      return {};
    }
    used.push_back(dim.getPosition());
  }
  for (int64_t d = 0; d < t.rank(); ++d)
    if (!llvm::is_contained(used, d) && t.shape[d] != 1) {
      (void)fail("the output's indexing map " + print(map) + " drops loop d" +
                 Twine(d) + ", which is not reduced");
      return {};
    }
  SmallVector<int64_t> sorted(used);
  llvm::sort(sorted);
  SmallVector<int64_t> shape, perm;
  for (int64_t d : sorted)
    shape.push_back(t.shape[d]);
  for (int64_t d : used)
    perm.push_back(llvm::find(sorted, d) - sorted.begin());
  t = e.transpose(e.reshape(t, shape), perm);
  if (failed(e.checkType(resultType, "the result")))
    return {};
  return e.reshape(t, cast<RankedTensorType>(resultType).getShape());
}

FailureOr<GTensor> BodyLowering::tensorOf(Value v) {
  FailureOr<Term> t = eval(v);
  if (failed(t))
    return failure();
  if (t->scalar) {
    (void)fail("a constant where a tensor is needed");
    return failure();
  }
  return t->tensor;
}

/// 1 / (1 + exp(-x)), the sum either way round: x.
std::optional<Value> BodyLowering::sigmoidInput(Value v) {
  auto div = v.getDefiningOp<arith::DivFOp>();
  if (!div)
    return std::nullopt;
  std::optional<double> one = scalarOf(div.getLhs());
  auto sum = div.getRhs().getDefiningOp<arith::AddFOp>();
  if (!one || *one != 1.0 || !sum || !sum->hasOneUse())
    return std::nullopt;
  Value expValue = sum.getLhs();
  std::optional<double> c = scalarOf(sum.getRhs());
  if (!c) {
    expValue = sum.getRhs();
    c = scalarOf(sum.getLhs());
  }
  auto exp = expValue.getDefiningOp<math::ExpOp>();
  if (!c || *c != 1.0 || !exp || !exp->hasOneUse())
    return std::nullopt;
  auto neg = exp.getOperand().getDefiningOp<arith::NegFOp>();
  if (!neg || !neg->hasOneUse())
    return std::nullopt;
  return neg.getOperand();
}

/// For max(v, c) inside a min (or min(v, c) inside a max): (v's other
/// operand, c) when v has no other use.
std::optional<std::pair<Value, double>>
BodyLowering::clampBound(Value v, bool isMax) {
  Operation *def = v.getDefiningOp();
  if (!def || !v.hasOneUse() ||
      !(isMax ? isa<arith::MaximumFOp, arith::MaxNumFOp>(def)
              : isa<arith::MinimumFOp, arith::MinNumFOp>(def)))
    return std::nullopt;
  if (std::optional<double> c = scalarOf(def->getOperand(1)))
    return std::make_pair(def->getOperand(0), *c);
  if (std::optional<double> c = scalarOf(def->getOperand(0)))
    return std::make_pair(def->getOperand(1), *c);
  return std::nullopt;
}

FailureOr<Term> BodyLowering::eval(Value v) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  Term term;
  if (std::optional<double> c = scalarOf(v)) {
    term.scalar = *c;
  } else if (auto arg = dyn_cast<BlockArgument>(v);
             arg && arg.getOwner() == op.getBlock()) {
    unsigned number = arg.getArgNumber();
    if (number < op.getNumDpsInputs()) {
      OpOperand *operand = op.getDpsInputOperand(number);
      term.tensor = operandOnDomain(operand->getOperandNumber(),
                                    op.getMatchingIndexingMap(operand));
    } else {
      OpOperand *init = op.getDpsInitOperand(0);
      if (reduction)
        return fail("the body uses the running value other than in its "
                    "final combination");
      if (init->get().getDefiningOp<tensor::EmptyOp>())
        return fail("the body reads the output, an uninitialized "
                    "tensor.empty");
      term.tensor = operandOnDomain(init->getOperandNumber(),
                                    op.getMatchingIndexingMap(init));
    }
  } else if (Operation *def = v.getDefiningOp();
             def && def->getBlock() == op.getBlock()) {
    FailureOr<Term> result = evalOp(def);
    if (failed(result))
      return failure();
    term = *result;
  } else {
    return fail("the body uses a value defined outside it that is not a "
                "constant");
  }
  if (e.failed())
    return failure();
  memo[v] = term;
  return term;
}

FailureOr<Term> BodyLowering::evalOp(Operation *bodyOp) {
  Value result = bodyOp->getResult(0);
  Type type = result.getType();
  std::string name = bodyOp->getName().getStringRef().str();
  auto tensorTerm = [](GTensor t) {
    Term term;
    term.tensor = t;
    return term;
  };
  auto scalarTerm = [&](double c) {
    Term term;
    term.scalar = roundTo(c, type);
    return term;
  };

  // GELU (erf form), SiLU and sigmoid, recognized whole.
  if (isa<arith::MulFOp>(bodyOp)) {
    GeluOps ops;
    auto operandsOf = [](auto tag) {
      using OpT = decltype(tag);
      return [](Value v) -> std::optional<std::pair<Value, Value>> {
        if (auto def = v.getDefiningOp<OpT>())
          return std::make_pair(def->getOperand(0), def->getOperand(1));
        return std::nullopt;
      };
    };
    ops.mul = operandsOf(arith::MulFOp());
    ops.add = operandsOf(arith::AddFOp());
    ops.sub = operandsOf(arith::SubFOp());
    ops.div = operandsOf(arith::DivFOp());
    ops.erf = [](Value v) -> std::optional<Value> {
      if (auto erf = v.getDefiningOp<math::ErfOp>())
        return erf.getOperand();
      return std::nullopt;
    };
    ops.splat = [](Value v) { return scalarOf(v); };
    ops.singleUse = [](Value v) { return v.hasOneUse(); };
    if (std::optional<GeluMatch> gelu = matchGelu(result, ops)) {
      FailureOr<GTensor> x = tensorOf(gelu->x);
      if (failed(x))
        return failure();
      return tensorTerm(e.unary(UnaryKind::gelu, *x));
    }
    for (auto [a, b] : {std::make_pair(bodyOp->getOperand(0),
                                       bodyOp->getOperand(1)),
                        std::make_pair(bodyOp->getOperand(1),
                                       bodyOp->getOperand(0))}) {
      if (std::optional<Value> x = sigmoidInput(b); x && *x == a &&
                                                     b.hasOneUse()) {
        FailureOr<GTensor> t = tensorOf(a);
        if (failed(t))
          return failure();
        return tensorTerm(e.unary(UnaryKind::silu, *t));
      }
    }
  }
  if (std::optional<Value> x = sigmoidInput(result)) {
    FailureOr<GTensor> t = tensorOf(*x);
    if (failed(t))
      return failure();
    return tensorTerm(e.unary(UnaryKind::sigmoid, *t));
  }

  // max(x, 0) written as select(x > 0, x, 0).
  if (auto select = dyn_cast<arith::SelectOp>(bodyOp)) {
    auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
    using P = arith::CmpFPredicate;
    if (cmp) {
      std::optional<double> zero = scalarOf(cmp.getRhs());
      P p = cmp.getPredicate();
      Value x = cmp.getLhs();
      std::optional<double> t = scalarOf(select.getTrueValue());
      std::optional<double> f = scalarOf(select.getFalseValue());
      bool greater = p == P::OGT || p == P::UGT || p == P::OGE || p == P::UGE;
      bool less = p == P::OLT || p == P::ULT || p == P::OLE || p == P::ULE;
      if (zero && *zero == 0.0 &&
          ((greater && select.getTrueValue() == x && f && *f == 0.0) ||
           (less && select.getFalseValue() == x && t && *t == 0.0))) {
        FailureOr<GTensor> tx = tensorOf(x);
        if (failed(tx))
          return failure();
        return tensorTerm(e.unary(UnaryKind::relu, *tx));
      }
    }
    // Any other select of an ordered comparison (masked_fill, where):
    // graph.select of the comparison's 0/1 mask, constants as [1] tensors.
    if (!cmp)
      return fail("the body's arith.select reads a condition that is no "
                  "arith.cmpf of the body");
    std::optional<BinaryKind> kind;
    switch (cmp.getPredicate()) {
    case P::OEQ: kind = BinaryKind::eq; break;
    case P::UNE: kind = BinaryKind::ne; break;
    case P::OLT: kind = BinaryKind::lt; break;
    case P::OLE: kind = BinaryKind::le; break;
    case P::OGT: kind = BinaryKind::gt; break;
    case P::OGE: kind = BinaryKind::ge; break;
    default: break;
    }
    if (!kind)
      return fail("the body's arith.cmpf " +
                  arith::stringifyCmpFPredicate(cmp.getPredicate()) +
                  " has no graph comparison (graph compares as the ordered "
                  "oeq, olt, ole, ogt, oge and the unordered une do)");
    Type cmpType = cmp.getLhs().getType();
    auto asTensor = [&](Value v, Type t) -> FailureOr<GTensor> {
      FailureOr<Term> term = eval(v);
      if (failed(term))
        return failure();
      if (term->scalar)
        return e.splat(*term->scalar, t);
      return term->tensor;
    };
    FailureOr<GTensor> a = asTensor(cmp.getLhs(), cmpType);
    FailureOr<GTensor> b = failed(a) ? a : asTensor(cmp.getRhs(), cmpType);
    FailureOr<GTensor> t =
        failed(b) ? b : asTensor(select.getTrueValue(), type);
    FailureOr<GTensor> f =
        failed(t) ? t : asTensor(select.getFalseValue(), type);
    if (failed(f))
      return failure();
    GTensor mask = e.castTo(e.binary(*kind, *a, *b), type);
    return tensorTerm(e.select(mask, *t, *f));
  }

  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(
          bodyOp)) {
    FailureOr<Term> a = eval(bodyOp->getOperand(0));
    if (failed(a))
      return failure();
    FailureOr<Term> b = eval(bodyOp->getOperand(1));
    if (failed(b))
      return failure();
    bool add = isa<arith::AddFOp>(bodyOp), sub = isa<arith::SubFOp>(bodyOp);
    bool mul = isa<arith::MulFOp>(bodyOp);
    if (a->scalar && b->scalar) {
      double x = *a->scalar, y = *b->scalar;
      return scalarTerm(add ? x + y : sub ? x - y : mul ? x * y : x / y);
    }
    if (b->scalar) { // tensor op constant
      double c = *b->scalar;
      if (add)
        return tensorTerm(e.scalarAdd(a->tensor, c));
      if (sub)
        return tensorTerm(e.scalarAdd(a->tensor, -c));
      if (mul)
        return tensorTerm(e.scalarMul(a->tensor, c));
      return tensorTerm(e.scalarMul(a->tensor, 1.0 / c));
    }
    if (a->scalar) { // constant op tensor
      double c = *a->scalar;
      if (add)
        return tensorTerm(e.scalarAdd(b->tensor, c));
      if (sub)
        return tensorTerm(e.scalarAdd(e.scalarMul(b->tensor, -1.0), c));
      if (mul)
        return tensorTerm(e.scalarMul(b->tensor, c));
      GTensor inverse = e.pow(b->tensor, -1.0);
      return tensorTerm(c == 1.0 ? inverse : e.scalarMul(inverse, c));
    }
    if (mul && bodyOp->getOperand(0) == bodyOp->getOperand(1))
      return tensorTerm(e.unary(UnaryKind::square, a->tensor));
    BinaryKind kind = add   ? BinaryKind::add
                      : sub ? BinaryKind::sub
                      : mul ? BinaryKind::mul
                            : BinaryKind::div;
    return tensorTerm(e.binary(kind, a->tensor, b->tensor));
  }

  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
          arith::MinNumFOp>(bodyOp)) {
    bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(bodyOp);
    Value x = bodyOp->getOperand(0);
    std::optional<double> c = scalarOf(bodyOp->getOperand(1));
    if (!c) {
      x = bodyOp->getOperand(1);
      c = scalarOf(bodyOp->getOperand(0));
    }
    if (!c)
      return fail("the body's " + name +
                  " of two tensors has no graph form (only against a "
                  "constant: relu or clamp)");
    double lo = isMax ? *c : -kInf, hi = isMax ? kInf : *c;
    // min(max(x, lo), hi) and max(min(x, hi), lo) are one clamp.
    if (auto inner = clampBound(x, !isMax)) {
      x = inner->first;
      (isMax ? hi : lo) = inner->second;
    }
    FailureOr<GTensor> t = tensorOf(x);
    if (failed(t))
      return failure();
    double largest =
        APFloat::getLargest(cast<FloatType>(t->elementType).getFloatSemantics())
            .convertToDouble();
    if (lo == 0.0 && hi >= largest)
      return tensorTerm(e.unary(UnaryKind::relu, *t));
    return tensorTerm(e.clamp(*t, lo, hi));
  }

  if (isa<arith::NegFOp, math::ExpOp, math::TanhOp, math::SqrtOp,
          math::RsqrtOp>(bodyOp)) {
    FailureOr<GTensor> x = tensorOf(bodyOp->getOperand(0));
    if (failed(x))
      return failure();
    if (isa<arith::NegFOp>(bodyOp))
      return tensorTerm(e.scalarMul(*x, -1.0));
    if (isa<math::RsqrtOp>(bodyOp))
      return tensorTerm(e.pow(*x, -0.5));
    UnaryKind kind = isa<math::ExpOp>(bodyOp)    ? UnaryKind::exp
                     : isa<math::TanhOp>(bodyOp) ? UnaryKind::tanh
                                                 : UnaryKind::sqrt;
    return tensorTerm(e.unary(kind, *x));
  }

  if (isa<math::PowFOp, math::FPowIOp>(bodyOp)) {
    std::optional<double> c = scalarOf(bodyOp->getOperand(1));
    if (!c)
      return fail("the body's " + name +
                  " has no graph form unless its exponent is a constant");
    FailureOr<GTensor> x = tensorOf(bodyOp->getOperand(0));
    if (failed(x))
      return failure();
    return tensorTerm(e.pow(*x, *c));
  }

  // A lone erf (the GELU pattern was matched whole above).
  if (isa<math::ErfOp>(bodyOp)) {
    FailureOr<GTensor> x = tensorOf(bodyOp->getOperand(0));
    if (failed(x))
      return failure();
    return tensorTerm(e.unary(UnaryKind::erf, *x));
  }
  // Precision changes among f32, f16 and bf16: graph.cast.
  if (isa<arith::ExtFOp, arith::TruncFOp>(bodyOp)) {
    FailureOr<Term> x = eval(bodyOp->getOperand(0));
    if (failed(x))
      return failure();
    if (x->scalar)
      return scalarTerm(*x->scalar);
    return tensorTerm(e.castTo(x->tensor, type));
  }
  return fail("the body's " + name + " has no graph form");
}

LogicalResult BodyLowering::run(Results &results) {
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return fail("has " + Twine(op->getNumResults()) +
                " results; only single-result ops convert");
  Type resultType = op->getResult(0).getType();
  if (failed(e.checkType(resultType, "the result")))
    return failure();
  domain = op.getStaticLoopRanges();
  if (llvm::any_of(domain, ShapedType::isDynamic))
    return fail("has dynamic loop ranges");
  Block *body = op.getBlock();
  if (!body->getOps<linalg::IndexOp>().empty())
    return fail("the body reads loop indices (linalg.index), which no graph "
                "op does");
  if (body->getNumArguments() == op.getNumDpsInputs() + 1)
    outArg = body->getArgument(op.getNumDpsInputs());
  Value yielded = body->getTerminator()->getOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));

  SmallVector<int64_t> reduced;
  for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    if (kind == utils::IteratorType::reduction)
      reduced.push_back(d);

  if (reduced.empty()) {
    if (scalarOf(yielded))
      return fail("the body yields a constant: a fill, not a graph op");
    FailureOr<GTensor> t = tensorOf(yielded);
    if (failed(t))
      return failure();
    results.push_back(
        e.result(toOutput(fullDomain(*t), outMap, resultType), resultType));
    return success(!e.failed());
  }

  // A reduction: yield combine(value, running value).
  reduction = true;
  Operation *combine = yielded.getDefiningOp();
  bool isSum = combine && isa<arith::AddFOp>(combine);
  bool isMax = combine && isa<arith::MaximumFOp, arith::MaxNumFOp>(combine);
  if ((!isSum && !isMax) || !outArg ||
      (combine->getOperand(0) != outArg && combine->getOperand(1) != outArg))
    return fail("the body of a reduction must yield arith.addf or "
                "arith.maximumf of a value and the running value");
  Value element = combine->getOperand(0) == outArg ? combine->getOperand(1)
                                                   : combine->getOperand(0);
  FailureOr<GTensor> t = tensorOf(element);
  if (failed(t))
    return failure();
  GTensor y = fullDomain(*t);
  for (int64_t d : reduced)
    y = e.reduce(isSum ? ReduceKind::sum : ReduceKind::max, y, d);
  y = toOutput(y, outMap, resultType);

  Value init = op.getDpsInits()[0];
  std::optional<double> c = splatOf(init);
  if (isMax) {
    if (!isMaxNeutral(c, resultType))
      return fail("the init of a max reduction must be a fill of -inf (a max "
                  "with another tensor has no graph form)");
  } else {
    y = addInit(e, y, init, operands[op.getDpsInitOperand(0)->getOperandNumber()]);
  }
  results.push_back(e.result(y, resultType));
  return success(!e.failed());
}

template <typename StructuredOp>
LogicalResult convertStructured(StructuredOp op, ValueRange operands,
                                GraphEmitter &e, Results &results) {
  BodyLowering lowering(cast<linalg::LinalgOp>(op.getOperation()), operands,
                        e);
  return lowering.run(results);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

bool isSourceDialect(Operation *op) {
  return isa<linalg::LinalgDialect, tensor::TensorDialect,
             arith::ArithDialect, math::MathDialect>(op->getDialect());
}

/// Ops left in place for finishImport: constants and inits (removed when
/// dead, lifted when used), scalar arithmetic outside bodies (constants for
/// the bodies).
bool isKeptForFinish(Operation *op) {
  if (isa<arith::ConstantOp, tensor::EmptyOp, linalg::FillOp>(op))
    return true;
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         !hasTensorResult(op);
}

std::string noGraphForm(Operation *op) {
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return "elementwise arithmetic on tensors outside a linalg op has no "
           "graph form";
  if (isa<linalg::LinalgOp>(op))
    return "no graph op computes this named op (docs/Importers.md lists the "
           "linalg ops that convert)";
  return "no graph op computes this (docs/Importers.md lists the ops that "
         "convert)";
}

void populateLinalgConversions(ConversionTable &table) {
  table.add<linalg::MatmulOp>(convertMatmul<linalg::MatmulOp>);
  table.add<linalg::BatchMatmulOp>(convertMatmul<linalg::BatchMatmulOp>);
  table.add<linalg::Conv2DNchwFchwOp>(
      convertConv<linalg::Conv2DNchwFchwOp, false>);
  table.add<linalg::Conv2DNhwcHwcfOp>(
      convertConv<linalg::Conv2DNhwcHwcfOp, true>);
  table.add<linalg::PoolingNchwMaxOp>(
      convertPool<linalg::PoolingNchwMaxOp, false, true>);
  table.add<linalg::PoolingNchwSumOp>(
      convertPool<linalg::PoolingNchwSumOp, false, false>);
  table.add<linalg::PoolingNhwcMaxOp>(
      convertPool<linalg::PoolingNhwcMaxOp, true, true>);
  table.add<linalg::PoolingNhwcSumOp>(
      convertPool<linalg::PoolingNhwcSumOp, true, false>);
  table.add<linalg::SoftmaxOp>(convertSoftmax);
  table.add<tensor::ExpandShapeOp>(convertReshape<tensor::ExpandShapeOp>);
  table.add<tensor::CollapseShapeOp>(convertReshape<tensor::CollapseShapeOp>);
  table.add<tensor::ConcatOp>(convertConcat);
  table.add<tensor::CastOp>(convertCast);
#define STRUCTURED(OP) table.add<linalg::OP>(convertStructured<linalg::OP>)
  STRUCTURED(GenericOp);
  STRUCTURED(MapOp);
  STRUCTURED(ReduceOp);
  STRUCTURED(TransposeOp);
  STRUCTURED(BroadcastOp);
  STRUCTURED(ElementwiseOp);
  STRUCTURED(CopyOp);
  STRUCTURED(ExpOp);
  STRUCTURED(LogOp);
  STRUCTURED(AbsOp);
  STRUCTURED(CeilOp);
  STRUCTURED(FloorOp);
  STRUCTURED(NegFOp);
  STRUCTURED(ReciprocalOp);
  STRUCTURED(RoundOp);
  STRUCTURED(SqrtOp);
  STRUCTURED(RsqrtOp);
  STRUCTURED(SquareOp);
  STRUCTURED(TanhOp);
  STRUCTURED(ErfOp);
  STRUCTURED(AddOp);
  STRUCTURED(SubOp);
  STRUCTURED(MulOp);
  STRUCTURED(DivOp);
  STRUCTURED(MaxOp);
  STRUCTURED(MinOp);
  STRUCTURED(PowFOp);
  STRUCTURED(SelectOp);
#undef STRUCTURED
}

struct LinalgToGraphPass
    : mirage::impl::LinalgToGraphBase<LinalgToGraphPass> {
  using LinalgToGraphBase::LinalgToGraphBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    ConversionTable table(context);
    populateLinalgConversions(table);

    // Check every op first (a structured op as a whole, with its body), so
    // that each one without a graph form is reported before anything
    // changes.
    DenseSet<Operation *> foldablePads;
    bool ok = true;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isSourceDialect(op))
        return WalkResult::advance();
      auto next = isa<linalg::LinalgOp, tensor::PadOp>(op)
                      ? WalkResult::skip()
                      : WalkResult::advance();
      if (isKeptForFinish(op))
        return next;
      std::string why;
      if (auto pad = dyn_cast<tensor::PadOp>(op)) {
        if (succeeded(checkFoldablePad(pad, why))) {
          foldablePads.insert(op);
          return next;
        }
      } else if (auto *check = table.lookup(op)) {
        if (succeeded((*check)(op, why)))
          return next;
      } else {
        why = noGraphForm(op);
      }
      emitImportError(op, why);
      ok = false;
      return next;
    });
    if (!ok)
      return signalPassFailure();

    ConversionTarget target(*context);
    target.addLegalDialect<graph::GraphDialect, func::FuncDialect>();
    target.addIllegalDialect<linalg::LinalgDialect, tensor::TensorDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [](Operation *op) { return isKeptForFinish(op); });
    target.addLegalOp<tensor::EmptyOp, linalg::FillOp, linalg::YieldOp,
                      tensor::YieldOp>();
    target.addDynamicallyLegalOp<tensor::PadOp>(
        [&](Operation *op) { return foldablePads.contains(op); });
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(module, target,
                                      std::move(table.patterns), config)))
      return signalPassFailure();

    ImportPolicy policy;
    policy.isSourceOp = isSourceDialect;
    policy.constantValue = [](Operation *op) -> ElementsAttr {
      if (auto c = dyn_cast<arith::ConstantOp>(op))
        return dyn_cast<ElementsAttr>(c.getValue());
      if (auto fill = dyn_cast<linalg::FillOp>(op)) {
        auto type = dyn_cast<RankedTensorType>(fill.getResult(0).getType());
        std::optional<double> value = scalarOf(fill.getInputs()[0]);
        auto element =
            type ? dyn_cast<FloatType>(type.getElementType()) : FloatType();
        if (!value || !element || !type.hasStaticShape())
          return {};
        APFloat x(*value);
        bool lost = false;
        x.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
        return DenseElementsAttr::get(type, x);
      }
      return {};
    };
    policy.leftoverReason = [](Operation *op) -> std::string {
      std::string user =
          (*op->getUsers().begin())->getName().getStringRef().str();
      if (isa<tensor::EmptyOp>(op))
        return "an uninitialized tensor is used as data by " + user;
      if (isa<linalg::FillOp>(op))
        return "fills with a value that is not a constant (used by " + user +
               ")";
      return "computes a scalar that " + user +
             " uses; graph values are tensors";
    };
    policy.liftConstants = liftConstants;
    if (failed(finishImport(module, policy)))
      signalPassFailure();
  }
};

} // namespace
