//===- FieldFragment.cpp - which programs the field verifier covers -------===//

#include "mirage/Superopt/Verification/FieldFragment.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

namespace {
/// How an op acts on the field: the classification both the degree count
/// and the exponent-part analysis follow.
enum class FieldRole {
  Linear,        // result degree = max of operand degrees (sums, movement)
  Product,       // result degree = sum of operand degrees (mul, div, matmul)
  Power,         // integer pow: |n| times the operand degree
  Exp,           // a fresh variable; reads the operand's exponent part
  Softmax,       // exp(x) / sum exp(x): degree 2; reads the exponent part
  Uninterpreted, // a fresh variable; reads only the operand's Z_p part
  RMSNorm,       // x / sqrt(...): degree of x plus a fresh variable
  Max,           // a fresh variable of the operands' multiset (uninterpreted)
  SoftmaxAccum,  // online softmax(S) V: exp and max inside; reads S's Z_q
  SoftmaxMerge,  // combination of partial softmaxes: reads the maxima's Z_q
  Plumbing,      // graph_def, thread.fused, yields: handled structurally
  Unordered,     // orders values (topk): outside the field test
};
} // namespace

static FieldRole unaryRole(UnaryKind kind, ArrayRef<double> params,
                           int64_t &power) {
  switch (kind) {
  case UnaryKind::exp:
    return FieldRole::Exp;
  case UnaryKind::square:
    power = 2;
    return FieldRole::Power;
  case UnaryKind::scale:
  case UnaryKind::offset:
  case UnaryKind::cast: // the identity in the field (docs/Verification.md)
    return FieldRole::Linear;
  case UnaryKind::pow:
    if (std::nearbyint(params[0]) == params[0] && std::fabs(params[0]) < 1e9) {
      power = static_cast<int64_t>(std::fabs(params[0]));
      return FieldRole::Power;
    }
    return FieldRole::Uninterpreted;
  case UnaryKind::sqrt:
  case UnaryKind::silu:
  case UnaryKind::gelu:
  case UnaryKind::relu:
  case UnaryKind::clamp:
  case UnaryKind::tanh:
  case UnaryKind::sigmoid:
  case UnaryKind::erf:
    return FieldRole::Uninterpreted;
  }
  llvm_unreachable("unknown unary kind");
}

static FieldRole binaryRole(BinaryKind kind) {
  if (isComparison(kind))
    return FieldRole::Uninterpreted; // a 0/1 mask: no algebraic image
  return kind == BinaryKind::mul || kind == BinaryKind::div
             ? FieldRole::Product
             : FieldRole::Linear;
}

static FieldRole classify(Operation *op, int64_t &power) {
  auto params = [](std::optional<ArrayRef<double>> p) {
    return p.value_or(ArrayRef<double>());
  };
  return TypeSwitch<Operation *, FieldRole>(op)
      .template Case<graph::UnaryOpInterface>([&](auto u) {
        return unaryRole(u.getUnaryKind(), u.getUnaryParams(), power);
      })
      .template Case<kernel::UnaryOp, block::UnaryOp, thread::UnaryOp>(
          [&](auto u) {
            return unaryRole(u.getKind(), params(u.getParams()), power);
          })
      .template Case<graph::CastOp>([](auto) { return FieldRole::Linear; })
      .template Case<graph::MatmulOp, kernel::MatmulOp, block::MatmulOp,
                     graph::Conv2DOp, kernel::Conv2DOp>(
          [](auto) { return FieldRole::Product; })
      .template Case<graph::BinaryOpInterface>(
          [](auto b) { return binaryRole(b.getBinaryKind()); })
      .template Case<kernel::BinaryOp, block::BinaryOp, thread::BinaryOp>(
          [](auto b) { return binaryRole(b.getKind()); })
      .template Case<graph::SelectOp, kernel::SelectOp, thread::SelectOp>(
          [](auto) { return FieldRole::Uninterpreted; })
      .template Case<graph::ReduceSumOp>([](auto) { return FieldRole::Linear; })
      .template Case<graph::ReduceMaxOp, graph::MaxPool2DOp>(
          [](auto) { return FieldRole::Max; })
      .template Case<kernel::ReduceOp, block::ReduceOp>([](auto r) {
        return r.getKind() == ReduceKind::sum ? FieldRole::Linear
                                              : FieldRole::Max;
      })
      .template Case<kernel::Pool2DOp>([](auto p) {
        return p.getKind() == PoolKind::avg ? FieldRole::Linear
                                            : FieldRole::Max;
      })
      .template Case<block::AccumOp>([](auto a) {
        switch (a.getKind()) {
        case block::AccumKind::max:
          return FieldRole::Max;
        case block::AccumKind::red_rms:
          return FieldRole::Uninterpreted; // sqrt of a mean of squares
        default:
          return FieldRole::Linear;
        }
      })
      .template Case<block::RMSNormOp>(
          [](auto) { return FieldRole::RMSNorm; })
      .template Case<graph::SoftmaxOp, kernel::SoftmaxOp>(
          [](auto) { return FieldRole::Softmax; })
      .template Case<block::SoftmaxAccumOp>(
          [](auto) { return FieldRole::SoftmaxAccum; })
      .template Case<block::SoftmaxMergeOp>(
          [](auto) { return FieldRole::SoftmaxMerge; })
      .template Case<graph::RMSNormOp, kernel::RMSNormOp>(
          [](auto) { return FieldRole::RMSNorm; })
      // Indexing (issue 24): the data moves (or is summed) at concrete
      // index positions, so the degree is the data's; one_hot's 0/1 values
      // are constants (degree 0, counted as the indices' for simplicity).
      .template Case<graph::GatherOp, kernel::GatherOp,
                     graph::GatherElementsOp, kernel::GatherElementsOp,
                     graph::ScatterElementsOp, kernel::ScatterElementsOp,
                     graph::OneHotOp, kernel::OneHotOp>(
          [](auto) { return FieldRole::Linear; })
      .template Case<graph::TopKOp, kernel::TopKOp>(
          [](auto) { return FieldRole::Unordered; })
      .template Case<kernel::GraphDefOp, thread::FusedOp, block::YieldOp,
                     thread::YieldOp, func::ReturnOp>(
          [](auto) { return FieldRole::Plumbing; })
      .template Default([](Operation *) { return FieldRole::Linear; });
}

namespace {
class Analysis {
public:
  Analysis(func::FuncOp func, FieldFragment &result)
      : func(func), result(result) {}

  void run() {
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return reject(func, "the function has no single-block body");
    Block &body = func.getBody().front();
    for (Value arg : body.getArguments())
      degree[arg] = 1;
    forward(body);
    if (auto ret = dyn_cast<func::ReturnOp>(body.getTerminator()))
      for (Value v : ret.getOperands())
        result.degree = std::max(result.degree, degree.lookup(v));
    if (result.isLax())
      backward();
  }

private:
  void reject(Operation *op, StringRef why) {
    if (!result.offender) {
      result.offender = op;
      result.reason = why.str();
    }
  }

  /// Degrees, in dataflow order, through nested block graphs and chains.
  void forward(Block &block) {
    for (Operation &op : block) {
      int64_t power = 1;
      FieldRole role = classify(&op, power);
      auto operandDegree = [&](unsigned i) {
        return degree.lookup(op.getOperand(i));
      };
      uint64_t maxDeg = 0, sumDeg = 0;
      for (unsigned i = 0; i < op.getNumOperands(); ++i) {
        maxDeg = std::max(maxDeg, operandDegree(i));
        sumDeg += operandDegree(i);
      }
      uint64_t d = maxDeg;
      switch (role) {
      case FieldRole::Linear:
        break;
      case FieldRole::Product:
        d = sumDeg;
        break;
      case FieldRole::Power:
        d = maxDeg * static_cast<uint64_t>(power);
        break;
      case FieldRole::Exp:
      case FieldRole::Uninterpreted:
      case FieldRole::Max:
        ++result.applications;
        d = 1;
        break;
      case FieldRole::Softmax:
        ++result.applications;
        d = 2;
        break;
      case FieldRole::RMSNorm:
        ++result.applications;
        d = maxDeg + 1;
        break;
      case FieldRole::SoftmaxAccum:
        // output = sum E V / sum E, E = exp(S - m) a fresh variable (and m
        // one): deg V + 1 over 1; stats (m, l) have degree 1.
        result.applications += 2;
        degree[op.getResult(0)] = operandDegree(1) + 2;
        degree[op.getResult(1)] = 1;
        continue;
      case FieldRole::SoftmaxMerge:
        // sum w o / sum w, w = exp(m - M) l: deg o + 2 over 2.
        result.applications += 2;
        d = operandDegree(0) + 4;
        break;
      case FieldRole::Plumbing:
        plumbForward(op);
        continue;
      case FieldRole::Unordered:
        reject(&op, "topk orders its input, and Z_p has no order (its "
                    "indices would be no concrete positions)");
        break;
      }
      for (Value r : op.getResults())
        degree[r] = d;
    }
  }

  void plumbForward(Operation &op) {
    if (op.getNumRegions() == 0)
      return;
    Block &inner = op.getRegion(0).front();
    for (auto [arg, operand] :
         llvm::zip(inner.getArguments(), op.getOperands()))
      degree[arg] = degree.lookup(operand);
    forward(inner);
    Operation *yield = inner.getTerminator();
    for (auto [r, y] : llvm::zip(op.getResults(), yield->getOperands()))
      degree[r] = degree.lookup(y);
  }

  /// Marks the values on a path into an exp, from the exps backwards.
  void backward() {
    SmallVector<Value> worklist;
    auto need = [&](Value v) {
      if (result.needExponent.insert(v).second)
        worklist.push_back(v);
    };
    func->walk([&](Operation *op) {
      int64_t power = 1;
      FieldRole role = classify(op, power);
      if (role == FieldRole::Exp || role == FieldRole::Softmax ||
          role == FieldRole::SoftmaxAccum)
        need(op->getOperand(0));
      else if (role == FieldRole::SoftmaxMerge)
        need(op->getOperand(1));
    });
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        Operation *holder = arg.getOwner()->getParentOp();
        if (isa<kernel::GraphDefOp, thread::FusedOp>(holder))
          need(holder->getOperand(arg.getArgNumber()));
        continue;
      }
      Operation *def = v.getDefiningOp();
      int64_t power = 1;
      switch (classify(def, power)) {
      case FieldRole::Exp:
      case FieldRole::Softmax:
      case FieldRole::SoftmaxMerge:
        reject(def, "two exps on one input-to-output path");
        return;
      case FieldRole::SoftmaxAccum:
        // The stats' maxima have exponent parts of their own (keyed
        // images); the output is a quotient of exps.
        if (cast<OpResult>(v).getResultNumber() == 0) {
          reject(def, "two exps on one input-to-output path");
          return;
        }
        break;
      case FieldRole::Uninterpreted:
      case FieldRole::Max:
        // Both parts of the result hash the operands' Z_p parts.
        break;
      case FieldRole::Plumbing: {
        unsigned index = cast<OpResult>(v).getResultNumber();
        need(def->getRegion(0).front().getTerminator()->getOperand(index));
        break;
      }
      default:
        for (Value operand : def->getOperands())
          need(operand);
      }
    }
  }

  func::FuncOp func;
  FieldFragment &result;
  DenseMap<Value, uint64_t> degree;
};
} // namespace

FieldFragment mirage::superopt::analyzeFieldFragment(func::FuncOp func) {
  FieldFragment result;
  Analysis(func, result).run();
  return result;
}
