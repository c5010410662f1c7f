//===- ImportCommon.h - what the importers share ----------------*- C++ -*-===//
//
// The importers (TosaToGraph.cpp, LinalgToGraph.cpp) write each source op's
// conversion once, against a GraphEmitter. The emitter runs in two modes:
// checking (no builder: it only computes the shapes every graph op would
// have, with the graph dialect's own shape rules) and building (it creates
// the graph ops). The passes first run every conversion in checking mode and
// report each op that has no graph form, with the reason, at its location;
// then the dialect conversion runs the same code in building mode. So the
// check and the rewrite cannot disagree.
//
// After the conversion, finishImport removes the source ops left dead
// (constants, shape operands, inits, folded pads) and lifts the constants
// still used as tensors to function arguments.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_IMPORTERS_IMPORTCOMMON_H
#define MIRAGE_LIB_IMPORTERS_IMPORTCOMMON_H

#include "mirage/Dialect/Graph/GraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <optional>
#include <string>

namespace mirage::importers {

/// "[1, 2, 3]".
std::string formatList(llvm::ArrayRef<int64_t> values);
/// A type as MLIR prints it.
std::string formatType(mlir::Type type);
/// A double in its shortest round-tripping form.
std::string formatDouble(double value);

/// Whether `value` equals `target` as the constant of a program in element
/// type `type` would: exactly, or as `target` rounded to `type`.
bool isConstantNear(double value, double target, mlir::Type type);

/// A tensor a conversion works with: its shape and element type, and, when
/// the emitter builds, its value.
struct GTensor {
  mlir::Value value;
  llvm::SmallVector<int64_t> shape;
  mlir::Type elementType;
  int64_t rank() const { return shape.size(); }
  mlir::RankedTensorType type() const {
    return mlir::RankedTensorType::get(shape, elementType);
  }
};

/// Builds graph ops (with a builder) or only computes their shapes (without
/// one). The first failure records its reason; every later call is a no-op,
/// so a conversion is written as straight-line code and asks `failed()` or
/// `finish` at the end.
class GraphEmitter {
public:
  GraphEmitter(mlir::OpBuilder *builder, mlir::Location loc, std::string &why)
      : builder(builder), loc(loc), why(why) {}

  /// In building mode inside a dialect conversion: values of ops the
  /// conversion replaced are looked up through `rewriter`.
  void setConversion(mlir::ConversionPatternRewriter *rewriter) {
    conversion = rewriter;
  }
  /// The value that stands for `original` (an operand of some op other than
  /// the one being converted): its replacement when already converted.
  mlir::Value lookup(mlir::Value original) const {
    if (!conversion)
      return original;
    mlir::Value mapped = conversion->getRemappedValue(original);
    return mapped ? mapped : original;
  }

  bool building() const { return builder != nullptr; }
  bool failed() const { return hasFailed; }
  mlir::Location getLoc() const { return loc; }
  mlir::MLIRContext *getContext() const { return loc.getContext(); }

  /// Records `message` as the reason (the first one wins); returns failure.
  mlir::LogicalResult fail(const llvm::Twine &message);

  /// An existing value: it must be a statically shaped f16/bf16/f32 tensor
  /// (`what` names it in the message: "operand #0").
  GTensor operand(mlir::Value value, const llvm::Twine &what);
  /// Same for a type (checking the result type of the source op).
  mlir::LogicalResult checkType(mlir::Type type, const llvm::Twine &what);

  GTensor matmul(const GTensor &lhs, const GTensor &rhs);
  GTensor binary(mirage::BinaryKind kind, const GTensor &lhs,
                 const GTensor &rhs);
  /// exp, sqrt, square, silu, gelu, relu, tanh, sigmoid.
  GTensor unary(mirage::UnaryKind kind, const GTensor &x);
  /// x rounded to `elementType` (f32, f16, bf16): graph.cast; x itself
  /// when it has that type.
  GTensor castTo(const GTensor &x, mlir::Type elementType);
  /// A [1] tensor of `c` (a select's fill value): an arith.constant, which
  /// finishImport lifts to an argument like every constant a graph op reads.
  GTensor splat(double c, mlir::Type elementType);
  /// cond != 0 ? onTrue : onFalse, NumPy broadcasting, one element type.
  GTensor select(const GTensor &cond, const GTensor &onTrue,
                 const GTensor &onFalse);
  GTensor scalarMul(const GTensor &x, double c);
  GTensor scalarAdd(const GTensor &x, double c);
  GTensor pow(const GTensor &x, double exponent);
  GTensor clamp(const GTensor &x, double lo, double hi);
  GTensor reduce(mirage::ReduceKind kind, const GTensor &x, int64_t dim);
  GTensor softmax(const GTensor &x, int64_t dim);
  GTensor transpose(const GTensor &x, llvm::ArrayRef<int64_t> perm);
  GTensor reshape(const GTensor &x, llvm::ArrayRef<int64_t> shape);
  GTensor broadcast(const GTensor &x, llvm::ArrayRef<int64_t> shape);
  GTensor repeat(const GTensor &x, llvm::ArrayRef<int64_t> repeats);
  GTensor concat(llvm::ArrayRef<GTensor> inputs, int64_t dim);
  llvm::SmallVector<GTensor> split(const GTensor &x, int64_t dim,
                                   llvm::ArrayRef<int64_t> sizes);
  /// NCHW input, OIHW weight.
  GTensor conv2d(const GTensor &input, const GTensor &weight,
                 llvm::ArrayRef<int64_t> strides,
                 llvm::ArrayRef<int64_t> padding,
                 llvm::ArrayRef<int64_t> dilations, int64_t groups);
  /// NCHW input.
  GTensor pool2d(mirage::PoolKind kind, const GTensor &input,
                 llvm::ArrayRef<int64_t> kernel,
                 llvm::ArrayRef<int64_t> strides,
                 llvm::ArrayRef<int64_t> padding);

  /// Checks that `t` has the shape and element type of `expected` (the
  /// source op's result type) and, when building, returns its value.
  mlir::Value result(const GTensor &t, mlir::Type expected,
                     const llvm::Twine &what = "the result");

private:
  /// Runs a shape rule with `loc`, turning its diagnostic into the reason.
  template <typename Rule> auto runRule(llvm::StringRef op, Rule rule);
  GTensor make(llvm::ArrayRef<int64_t> shape, mlir::Type elementType) const;
  bool sameElementType(const GTensor &a, const GTensor &b,
                       llvm::StringRef op);

  mlir::OpBuilder *builder;
  mlir::ConversionPatternRewriter *conversion = nullptr;
  mlir::Location loc;
  std::string &why;
  bool hasFailed = false;
};

/// The conversion of one source op kind, written once for both modes:
/// `Convert(op, operands, emitter, results)` reads the op's attributes from
/// `op` and its operands from `operands` (the op's own in checking mode, the
/// converted ones in building mode) and pushes one value per result.
template <typename SourceOp>
using ConvertFn = mlir::LogicalResult (*)(SourceOp op,
                                          mlir::ValueRange operands,
                                          GraphEmitter &emitter,
                                          llvm::SmallVectorImpl<mlir::Value>
                                              &results);

/// Runs a ConvertFn in building mode as a conversion pattern.
template <typename SourceOp>
struct EmitterPattern : mlir::OpConversionPattern<SourceOp> {
  EmitterPattern(mlir::MLIRContext *context, ConvertFn<SourceOp> convert)
      : mlir::OpConversionPattern<SourceOp>(context), convert(convert) {}

  mlir::LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    std::string why;
    GraphEmitter emitter(&rewriter, op.getLoc(), why);
    emitter.setConversion(&rewriter);
    llvm::SmallVector<mlir::Value> results;
    if (mlir::failed(convert(op, adaptor.getOperands(), emitter, results)) ||
        emitter.failed())
      return rewriter.notifyMatchFailure(op, why);
    rewriter.replaceOp(op, results);
    return mlir::success();
  }

  ConvertFn<SourceOp> convert;
};

/// The conversions of a pass, by source op name: the patterns for the
/// dialect conversion and the checks for the report before it.
class ConversionTable {
public:
  explicit ConversionTable(mlir::MLIRContext *context) : patterns(context) {}

  template <typename SourceOp> void add(ConvertFn<SourceOp> convert) {
    patterns.add<EmitterPattern<SourceOp>>(patterns.getContext(), convert);
    checks[SourceOp::getOperationName()] = [convert](mlir::Operation *op,
                                                     std::string &why) {
      GraphEmitter emitter(nullptr, op->getLoc(), why);
      llvm::SmallVector<mlir::Value> results;
      if (mlir::failed(convert(llvm::cast<SourceOp>(op), op->getOperands(),
                               emitter, results)) ||
          emitter.failed()) {
        if (why.empty())
          why = "has no graph form";
        return mlir::failure();
      }
      return mlir::success();
    };
  }

  /// The check of `op`'s kind, or null when no conversion handles it.
  const std::function<mlir::LogicalResult(mlir::Operation *, std::string &)> *
  lookup(mlir::Operation *op) const {
    auto it = checks.find(op->getName().getStringRef());
    return it == checks.end() ? nullptr : &it->second;
  }

  mlir::RewritePatternSet patterns;

private:
  llvm::StringMap<
      std::function<mlir::LogicalResult(mlir::Operation *, std::string &)>>
      checks;
};

/// Emits "<op name>: <why>" as an error at `op`.
void emitImportError(mlir::Operation *op, const llvm::Twine &why);

/// What finishImport needs to know about the source dialects.
struct ImportPolicy {
  /// Whether `op` belongs to the dialects being imported (dead ones are
  /// removed; live ones must be constants).
  std::function<bool(mlir::Operation *)> isSourceOp;
  /// The value of a constant tensor op (tosa.const, arith.constant, a fill
  /// of a constant, ...), or null.
  std::function<mlir::ElementsAttr(mlir::Operation *)> constantValue;
  /// Why a live source op that is not a constant could not stay.
  std::function<std::string(mlir::Operation *)> leftoverReason;
  bool liftConstants = true;
};

/// Removes the dead source ops of every function, then lifts every constant
/// still in use to a new trailing argument carrying kLiftedConstantAttr (or
/// reports it when lifting is off), and passes the new arguments along at
/// every func.call in `module`. Reports every problem; fails if any.
mlir::LogicalResult finishImport(mlir::ModuleOp module,
                                 const ImportPolicy &policy);

/// Erases the ops of `root` (not `root` itself) that are trivially dead and
/// satisfy `filter`, until none is left.
void eraseDeadOps(mlir::Operation *root,
                  llvm::function_ref<bool(mlir::Operation *)> filter);

//===----------------------------------------------------------------------===//
// GELU, erf form: 0.5 * x * (1 + erf(x * 0.70710678...)), the three factors
// in any order and association, erf's argument also as x / 1.41421356...
// and x as x - 0 or x + 0 there (torch-mlir writes it so). The source
// dialect supplies how to read its ops.
//===----------------------------------------------------------------------===//

struct GeluOps {
  /// The two operands of a multiplication, an addition, a subtraction or a
  /// division (empty if `v` is not one).
  std::function<std::optional<std::pair<mlir::Value, mlir::Value>>(mlir::Value)>
      mul, add, sub, div;
  /// The operand of an erf.
  std::function<std::optional<mlir::Value>(mlir::Value)> erf;
  /// The value of a splat constant operand.
  std::function<std::optional<double>(mlir::Value)> splat;
  /// Whether the pattern may absorb the op defining `v` (it has no other
  /// use than the pattern's).
  std::function<bool(mlir::Value)> singleUse;
};

struct GeluMatch {
  mlir::Value x;
  /// The ops that make up the pattern, root last.
  llvm::SmallVector<mlir::Value> values;
};

/// Matches the erf-form GELU rooted at `root`.
std::optional<GeluMatch> matchGelu(mlir::Value root, const GeluOps &ops);

} // namespace mirage::importers

#endif // MIRAGE_LIB_IMPORTERS_IMPORTCOMMON_H
