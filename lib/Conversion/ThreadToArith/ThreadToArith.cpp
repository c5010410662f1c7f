//===- ThreadToArith.cpp - thread ops to scalar arith/math ----------------===//
//
// The thread level computes one element at a time in registers. This pass
// gives each thread op its scalar code: f32 arith and math ops, whatever the
// tile's element type, because f16 arithmetic on every step of a chain
// would lose precision the reference interpreter's native check does not
// expect (it rounds once per op, from exact values), and the GPU's f32 units
// are as fast as its f16 ones for scalar code.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mirage/Conversion/ThreadToArith/ThreadToArith.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mirage {
#define GEN_PASS_DEF_THREADTOARITH
#include "mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

static Value f32Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

/// The logistic function without overflow: with t = exp(-|x|) in (0, 1],
/// 1 / (1 + t) for x >= 0 and t / (1 + t) for x < 0. The textbook
/// 1 / (1 + exp(-x)) overflows exp for x below about -88 and returns 0 where
/// the value is a subnormal down to x = -103 (and loses nothing elsewhere
/// that this form keeps).
static Value buildSigmoid(OpBuilder &b, Location loc, Value x) {
  Value t = math::ExpOp::create(
      b, loc, arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x)));
  Value one = f32Const(b, loc, 1.0);
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         f32Const(b, loc, 0.0));
  Value numerator = arith::SelectOp::create(b, loc, negative, t, one);
  return arith::DivFOp::create(b, loc, numerator,
                               arith::AddFOp::create(b, loc, one, t));
}

Value mirage::buildScalarUnary(OpBuilder &b, Location loc, UnaryKind kind,
                               ArrayRef<double> params, Value x) {
  switch (kind) {
  case UnaryKind::exp:
    return math::ExpOp::create(b, loc, x);
  case UnaryKind::sqrt:
    return math::SqrtOp::create(b, loc, x);
  case UnaryKind::square:
    return arith::MulFOp::create(b, loc, x, x);
  case UnaryKind::silu:
    // x / (1 + exp(-x)), the interpreter's definition, as x * sigmoid(x)
    // with the sigmoid that does not overflow.
    return arith::MulFOp::create(b, loc, x, buildSigmoid(b, loc, x));
  case UnaryKind::gelu: {
    // The exact GELU, 0.5 x (1 + erf(x / sqrt 2)), as 0.5 x erfc(-x / sqrt 2):
    // the same function, but 1 + erf cancels below x = -4 (all relative
    // precision is gone by x = -6), while erfc keeps it down to the
    // underflow.
    Value s = arith::MulFOp::create(b, loc, x, f32Const(b, loc, -M_SQRT1_2));
    Value c = math::ErfcOp::create(b, loc, s);
    Value h = arith::MulFOp::create(b, loc, x, f32Const(b, loc, 0.5));
    return arith::MulFOp::create(b, loc, h, c);
  }
  case UnaryKind::relu:
    return arith::MaximumFOp::create(b, loc, x, f32Const(b, loc, 0.0));
  case UnaryKind::clamp: {
    Value lo = arith::MaximumFOp::create(b, loc, x, f32Const(b, loc, params[0]));
    return arith::MinimumFOp::create(b, loc, lo, f32Const(b, loc, params[1]));
  }
  case UnaryKind::scale:
    return arith::MulFOp::create(b, loc, x, f32Const(b, loc, params[0]));
  case UnaryKind::offset:
    return arith::AddFOp::create(b, loc, x, f32Const(b, loc, params[0]));
  case UnaryKind::tanh:
    return math::TanhOp::create(b, loc, x);
  case UnaryKind::sigmoid:
    // 1 / (1 + exp(-x)), the interpreter's definition, without its overflow.
    return buildSigmoid(b, loc, x);
  case UnaryKind::erf:
    return math::ErfOp::create(b, loc, x);
  case UnaryKind::cast:
    // The scalar code computes in f32, which holds every f16 and bf16
    // value: the conversion is the store of the result in its own element
    // type (a thread op keeps one type, so a cast there is the identity).
    return x;
  case UnaryKind::pow: {
    double e = params[0];
    if (e == 2.0)
      return arith::MulFOp::create(b, loc, x, x);
    if (e == 0.5)
      return math::SqrtOp::create(b, loc, x);
    if (e == std::floor(e) && std::abs(e) <= 64.0) {
      // Integer powers stay exact for negative bases, as std::pow keeps them.
      Value n = arith::ConstantOp::create(
          b, loc, b.getI32IntegerAttr(static_cast<int32_t>(e)));
      return math::FPowIOp::create(b, loc, x, n);
    }
    return math::PowFOp::create(b, loc, x, f32Const(b, loc, e));
  }
  }
  llvm_unreachable("unknown unary kind");
}

Value mirage::buildScalarBinary(OpBuilder &b, Location loc, BinaryKind kind,
                                Value lhs, Value rhs) {
  switch (kind) {
  case BinaryKind::add:
    return arith::AddFOp::create(b, loc, lhs, rhs);
  case BinaryKind::sub:
    return arith::SubFOp::create(b, loc, lhs, rhs);
  case BinaryKind::mul:
    return arith::MulFOp::create(b, loc, lhs, rhs);
  case BinaryKind::div:
    return arith::DivFOp::create(b, loc, lhs, rhs);
  // --- comparisons (selectop) ---
  // Ordered predicates (false on NaN), but ne unordered (true on NaN), as
  // the interpreter's ==, <, ... and != on doubles; the i1 becomes the
  // mask's 1.0 or 0.0.
  case BinaryKind::eq:
  case BinaryKind::ne:
  case BinaryKind::lt:
  case BinaryKind::le:
  case BinaryKind::gt:
  case BinaryKind::ge: {
    arith::CmpFPredicate predicate =
        kind == BinaryKind::eq   ? arith::CmpFPredicate::OEQ
        : kind == BinaryKind::ne ? arith::CmpFPredicate::UNE
        : kind == BinaryKind::lt ? arith::CmpFPredicate::OLT
        : kind == BinaryKind::le ? arith::CmpFPredicate::OLE
        : kind == BinaryKind::gt ? arith::CmpFPredicate::OGT
                                 : arith::CmpFPredicate::OGE;
    Value holds = arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
    Type type = lhs.getType();
    Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 1.0));
    Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
    return arith::SelectOp::create(b, loc, holds, one, zero);
  }
    // --- end comparisons ---
  }
  llvm_unreachable("unknown binary kind");
}

Value mirage::buildScalarSelect(OpBuilder &b, Location loc, Value cond,
                                Value onTrue, Value onFalse) {
  // cond != 0, unordered: a NaN condition takes on_true, as in the
  // interpreter.
  Value zero = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(cond.getType(), 0.0));
  Value taken = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, cond,
                                      zero);
  return arith::SelectOp::create(b, loc, taken, onTrue, onFalse);
}

/// `v` widened to f32 (or narrowed back to `type`).
static Value convertFloat(OpBuilder &b, Location loc, Value v, Type type) {
  unsigned from = v.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (v.getType() == type)
    return v;
  if (from < to)
    return arith::ExtFOp::create(b, loc, type, v);
  return arith::TruncFOp::create(b, loc, type, v);
}

namespace {
struct ThreadToArithPass
    : mirage::impl::ThreadToArithBase<ThreadToArithPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk([](thread::FusedOp fused) { lower(fused); });
  }

  /// Widens each body argument to f32 once, computes the chain in f32 and
  /// narrows each yielded value to its result tile's element type.
  static void lower(thread::FusedOp fused) {
    Block &body = fused.getBody().front();
    OpBuilder b(fused.getContext());
    Type f32 = b.getF32Type();
    b.setInsertionPointToStart(&body);
    DenseMap<Value, Value> wide;
    for (BlockArgument arg : body.getArguments())
      wide[arg] = convertFloat(b, arg.getLoc(), arg, f32);
    SmallVector<Operation *> threadOps;
    for (Operation &op : body)
      if (isa<thread::UnaryOp, thread::BinaryOp, thread::SelectOp,
              thread::YieldOp>(op))
        threadOps.push_back(&op);
    for (Operation *op : threadOps) {
      b.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto u = dyn_cast<thread::UnaryOp>(op)) {
        wide[u.getResult()] =
            buildScalarUnary(b, loc, u.getKind(),
                             u.getParams().value_or(ArrayRef<double>()),
                             wide.lookup(u.getInput()));
      } else if (auto bin = dyn_cast<thread::BinaryOp>(op)) {
        wide[bin.getResult()] =
            buildScalarBinary(b, loc, bin.getKind(), wide.lookup(bin.getLhs()),
                              wide.lookup(bin.getRhs()));
      } else if (auto sel = dyn_cast<thread::SelectOp>(op)) {
        wide[sel.getResult()] = buildScalarSelect(
            b, loc, wide.lookup(sel.getCond()), wide.lookup(sel.getOnTrue()),
            wide.lookup(sel.getOnFalse()));
      } else {
        for (OpOperand &operand : op->getOpOperands())
          operand.set(convertFloat(b, loc, wide.lookup(operand.get()),
                                   operand.get().getType()));
      }
    }
    // The thread ops are dead now (the yield reads the converted values);
    // erase users first.
    for (Operation *op : llvm::reverse(threadOps))
      if (!isa<thread::YieldOp>(op))
        op->erase();
  }
};
} // namespace
