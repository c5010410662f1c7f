//===- Formulations.cpp - a subprogram's alternative kernel graphs --------===//

#include "Formulations.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

/// Whether two dimensions of a value share an index variable (a transpose
/// of x in x + transpose(x), x square): SearchTarget makes such a transpose
/// an atom of its own, which the enumeration's data-movement transpose
/// (its input's expression) never produces.
static bool sharesVariable(const TargetValue &tv) {
  ArrayRef<int> vars = tv.vars;
  for (auto [d, v] : llvm::enumerate(vars))
    if (v >= 0 && llvm::is_contained(vars.drop_front(d + 1), v))
      return true;
  return false;
}

std::string superopt::formulationsUnsupported(const SearchTarget &t) {
  for (const TargetValue &tv : t.values) {
    Operation *op = tv.producer;
    if (!op)
      continue;
    if (isa<kernel::TransposeOp>(op) && sharesVariable(tv))
      return "it has a kernel.transpose whose result has two dimensions on "
             "one index variable";
    if (isa<kernel::MatmulOp, kernel::UnaryOp, kernel::BinaryOp,
            kernel::ReduceOp, kernel::RMSNormOp, kernel::SoftmaxOp,
            kernel::TransposeOp>(op) ||
        isUnitDimReshape(op))
      continue;
    if (isa<kernel::ReshapeOp>(op))
      return "it has a kernel.reshape that merges or splits dimensions";
    return ("it has a " + op->getName().getStringRef() +
            " (not a kernel-graph op of the enumeration)")
        .str();
  }
  return "";
}

namespace {

/// The menu of a target, with the op of the program each entry rebuilds
/// (cloned with new operands: the kinds, constants and attributes are the
/// program's own).
struct TargetMenu {
  KernelGraphMenu menu;
  SmallVector<Operation *> elementwiseOps;
  Operation *matmul = nullptr, *reduce = nullptr, *rmsNorm = nullptr,
            *softmax = nullptr, *transpose = nullptr, *reshape = nullptr;
};

static bool sameUnary(kernel::UnaryOp a, kernel::UnaryOp b) {
  return a.getKind() == b.getKind() && a.getParams() == b.getParams();
}

static TargetMenu menuOf(const SearchTarget &t) {
  TargetMenu m;
  for (const TargetValue &tv : t.values) {
    Operation *op = tv.producer;
    if (!op)
      continue;
    if (auto u = dyn_cast<kernel::UnaryOp>(op)) {
      if (llvm::any_of(m.elementwiseOps, [&](Operation *o) {
            auto other = dyn_cast<kernel::UnaryOp>(o);
            return other && sameUnary(other, u);
          }))
        continue;
      UnaryChoice choice{u.getKind(), {}};
      if (auto params = u.getParams())
        choice.params.assign(params->begin(), params->end());
      KernelGraphMenu::Elementwise entry;
      entry.arity = 1;
      entry.expr = [choice](AbstractExprContext &ctx, ArrayRef<ExprId> x) {
        return unaryExpr(ctx, choice, x[0]);
      };
      m.menu.elementwise.push_back(std::move(entry));
      m.elementwiseOps.push_back(op);
    } else if (auto b = dyn_cast<kernel::BinaryOp>(op)) {
      BinaryKind kind = b.getKind();
      if (llvm::any_of(m.elementwiseOps, [&](Operation *o) {
            auto other = dyn_cast<kernel::BinaryOp>(o);
            return other && other.getKind() == kind;
          }))
        continue;
      KernelGraphMenu::Elementwise entry;
      entry.arity = 2;
      entry.commutative = kind == BinaryKind::add || kind == BinaryKind::mul;
      entry.expr = [kind](AbstractExprContext &ctx, ArrayRef<ExprId> x) {
        return binaryExpr(ctx, kind, x[0], x[1]);
      };
      m.menu.elementwise.push_back(std::move(entry));
      m.elementwiseOps.push_back(op);
    } else if (isa<kernel::MatmulOp>(op)) {
      m.menu.matmul = true;
      m.matmul = m.matmul ? m.matmul : op;
    } else if (auto r = dyn_cast<kernel::ReduceOp>(op)) {
      if (r.getKind() == ReduceKind::sum && !m.reduce) {
        m.menu.reduceSum = true;
        m.reduce = op;
      }
    } else if (auto n = dyn_cast<kernel::RMSNormOp>(op)) {
      if (n.getEps().isZero() && !m.rmsNorm) {
        m.rmsNorm = op;
        m.menu.rmsNorm = rmsNormExpr;
      }
    } else if (auto sm = dyn_cast<kernel::SoftmaxOp>(op)) {
      // Along the dimensions the program's softmaxes use: opaque (sexp
      // atoms), so no other op of the menu makes a part of one.
      m.softmax = m.softmax ? m.softmax : op;
      m.menu.softmax = softmaxExpr;
      unsigned dim = sm.getDim();
      if (!llvm::is_contained(m.menu.softmaxDims, dim))
        m.menu.softmaxDims.push_back(dim);
    } else if (auto tr = dyn_cast<kernel::TransposeOp>(op)) {
      // The program's permutations and their inverses (K^T of a K the
      // program transposes, or K of a K^T it is given), each once.
      m.transpose = m.transpose ? m.transpose : op;
      ArrayRef<int64_t> perm = tr.getPerm();
      SmallVector<int64_t, 4> inverse(perm.size());
      for (auto [d, p] : llvm::enumerate(perm))
        inverse[p] = d;
      for (ArrayRef<int64_t> p : {perm, ArrayRef<int64_t>(inverse)}) {
        bool identity = llvm::all_of(llvm::enumerate(p), [](auto e) {
          return e.value() == int64_t(e.index());
        });
        if (!identity && !llvm::is_contained(m.menu.transposes, p))
          m.menu.transposes.emplace_back(p.begin(), p.end());
      }
    } else if (auto re = dyn_cast<kernel::ReshapeOp>(op)) {
      // The program's size-1 reshapes (formulationsUnsupported let no
      // other in), each pair of shapes once, applied to any tensor of the
      // source shape. Not their inverses: a formulation's ops run in the
      // program's shapes, and its goals are met in them.
      m.reshape = m.reshape ? m.reshape : op;
      ArrayRef<int64_t> from = t.values[t.indexOf.lookup(re.getInput())].shape;
      ArrayRef<int64_t> to = tv.shape;
      if (!llvm::any_of(m.menu.reshapes, [&](const auto &r) {
            return ArrayRef<int64_t>(r.from) == from &&
                   ArrayRef<int64_t>(r.to) == to;
          }))
        m.menu.reshapes.push_back({SmallVector<int64_t, 4>(from),
                                   SmallVector<int64_t, 4>(to)});
    }
  }
  return m;
}

/// The sources of every value of the target (KernelGraphs.h), by the
/// enumeration's own rules, so that its goals are met in the program's
/// layouts.
static SmallVector<KernelGraphSources, 0> sourcesOf(const SearchTarget &t) {
  SmallVector<KernelGraphSources, 0> sources;
  for (unsigned v = 0; v < t.numArguments; ++v)
    sources.push_back(kernelGraphInputSources(v, t.values[v].shape));
  for (unsigned v = t.numArguments; v < t.values.size(); ++v) {
    Operation *op = t.values[v].producer;
    KernelGraphOpKind kind = KernelGraphOpKind::Elementwise;
    unsigned choice = 0;
    ArrayRef<int64_t> attr;
    if (isa<kernel::MatmulOp>(op)) {
      kind = KernelGraphOpKind::Matmul;
    } else if (auto r = dyn_cast<kernel::ReduceOp>(op)) {
      kind = KernelGraphOpKind::ReduceSum;
      choice = r.getDim();
    } else if (isa<kernel::RMSNormOp>(op)) {
      kind = KernelGraphOpKind::RMSNorm;
    } else if (auto sm = dyn_cast<kernel::SoftmaxOp>(op)) {
      kind = KernelGraphOpKind::Softmax;
      choice = sm.getDim();
    } else if (auto tr = dyn_cast<kernel::TransposeOp>(op)) {
      kind = KernelGraphOpKind::Transpose;
      attr = tr.getPerm();
    } else if (isa<kernel::ReshapeOp>(op)) {
      kind = KernelGraphOpKind::Reshape;
      attr = t.values[v].shape;
    }
    SmallVector<ArrayRef<int64_t>, 2> shapes;
    SmallVector<const KernelGraphSources *, 2> operands;
    for (Value operand : op->getOperands()) {
      unsigned o = t.indexOf.lookup(operand);
      shapes.push_back(t.values[o].shape);
      operands.push_back(&sources[o]);
    }
    KernelGraphSources s = kernelGraphSources(kind, choice, shapes, operands,
                                              t.values[v].shape, attr);
    sources.push_back(std::move(s));
  }
  return sources;
}

static std::string describe(const KernelGraph &g, const TargetMenu &m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  auto name = [&](unsigned i) {
    return (i < g.numInputs ? "%arg" : "%t") + std::to_string(i);
  };
  for (auto [i, op] : llvm::enumerate(g.ops)) {
    // Commas only: the remark separates its parts with semicolons.
    if (i)
      os << ", ";
    os << name(g.numInputs + i) << " = ";
    switch (op.kind) {
    case KernelGraphOpKind::Matmul:
      os << "matmul";
      break;
    case KernelGraphOpKind::Elementwise:
      if (auto u = dyn_cast<kernel::UnaryOp>(m.elementwiseOps[op.choice]))
        os << stringifyUnaryKind(u.getKind());
      else
        os << stringifyBinaryKind(
            cast<kernel::BinaryOp>(m.elementwiseOps[op.choice]).getKind());
      break;
    case KernelGraphOpKind::ReduceSum:
      os << "reduce_sum[" << op.choice << "]";
      break;
    case KernelGraphOpKind::RMSNorm:
      os << "rms_norm";
      break;
    case KernelGraphOpKind::Transpose:
      os << "transpose[";
      llvm::interleave(m.menu.transposes[op.choice], os, ",");
      os << "]";
      break;
    case KernelGraphOpKind::Softmax:
      os << "softmax[" << op.choice << "]";
      break;
    case KernelGraphOpKind::Reshape:
      os << "reshape[";
      llvm::interleave(m.menu.reshapes[op.choice].to, os, "x");
      os << "]";
      break;
    }
    os << "(";
    llvm::interleave(
        op.operands, os, [&](unsigned o) { os << name(o); }, ",");
    os << ")";
  }
  return out;
}

/// The kernel graph as a function of predefined kernels with the target's
/// signature; null if a result type differs from the signature's.
static func::FuncOp build(const SearchTarget &t, const TargetMenu &m,
                          const KernelGraph &g, ModuleOp scratch,
                          StringRef name) {
  OpBuilder builder(scratch.getContext());
  builder.setInsertionPointToEnd(scratch.getBody());
  func::FuncOp program = t.func;
  Location loc = program.getLoc();
  FunctionType type = program.getFunctionType();
  auto func = func::FuncOp::create(builder, loc, name, type);
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  SmallVector<Value> values(entry->getArguments());
  for (auto [i, op] : llvm::enumerate(g.ops)) {
    Operation *like = nullptr;
    switch (op.kind) {
    case KernelGraphOpKind::Matmul:
      like = m.matmul;
      break;
    case KernelGraphOpKind::Elementwise:
      like = m.elementwiseOps[op.choice];
      break;
    case KernelGraphOpKind::ReduceSum:
      like = m.reduce;
      break;
    case KernelGraphOpKind::RMSNorm:
      like = m.rmsNorm;
      break;
    case KernelGraphOpKind::Transpose:
      like = m.transpose;
      break;
    case KernelGraphOpKind::Softmax:
      like = m.softmax;
      break;
    case KernelGraphOpKind::Reshape:
      // No attributes: the view's shape is its result type, set below.
      like = m.reshape;
      break;
    }
    Operation *made = builder.clone(*like);
    SmallVector<Value> operands;
    for (unsigned o : op.operands)
      operands.push_back(values[o]);
    made->setOperands(operands);
    if (op.kind == KernelGraphOpKind::ReduceSum)
      cast<kernel::ReduceOp>(made).setDim(op.choice);
    if (op.kind == KernelGraphOpKind::Softmax)
      cast<kernel::SoftmaxOp>(made).setDim(op.choice);
    if (op.kind == KernelGraphOpKind::Transpose)
      cast<kernel::TransposeOp>(made).setPerm(m.menu.transposes[op.choice]);
    const KernelGraphTensor &result = g.tensors[g.numInputs + i];
    Type element = cast<RankedTensorType>(operands[0].getType()).getElementType();
    made->getResult(0).setType(RankedTensorType::get(result.shape, element));
    values.push_back(made->getResult(0));
  }
  SmallVector<Value> results;
  for (auto [goal, tensor] : llvm::enumerate(g.outputs)) {
    if (values[tensor].getType() != type.getResult(goal)) {
      func.erase();
      return nullptr;
    }
    results.push_back(values[tensor]);
  }
  func::ReturnOp::create(builder, loc, results);
  return func;
}

} // namespace

Formulations superopt::enumerateFormulations(const SearchTarget &t,
                                             ModuleOp scratch,
                                             const KernelGraphLimits &limits) {
  Formulations out;
  TargetMenu m = menuOf(t);
  AbstractExprContext ctx;
  SmallVector<ExprId> exprs = t.buildExprs(ctx);
  SmallVector<KernelGraphSources, 0> sources = sourcesOf(t);
  DenseMap<Type, unsigned> typeIds;
  auto tensorOf = [&](unsigned v) {
    const TargetValue &tv = t.values[v];
    KernelGraphTensor k;
    k.shape = tv.shape;
    k.elementType = typeIds.try_emplace(tv.elementType, typeIds.size())
                        .first->second;
    k.expr = exprs[v];
    k.sources = sources[v];
    return k;
  };
  SmallVector<KernelGraphTensor> inputs, goals;
  for (unsigned v = 0; v < t.numArguments; ++v)
    inputs.push_back(tensorOf(v));
  func::FuncOp program = t.func;
  for (Value result : program.getBody().front().getTerminator()->getOperands())
    goals.push_back(tensorOf(t.indexOf.lookup(result)));

  // The program's own set of expressions: a graph that makes the same set
  // (the program itself, or it with other transposes: data movement, which
  // the block level follows through index variables) computes what the
  // program's block-level search already covers.
  SmallVector<ExprId> programSet(
      ArrayRef<ExprId>(exprs).drop_front(t.numArguments));
  llvm::sort(programSet);
  programSet.erase(std::unique(programSet.begin(), programSet.end()),
                   programSet.end());
  SmallVector<KernelGraph> graphs;
  enumerateKernelGraphs(ctx, inputs, goals, m.menu, limits, graphs,
                        out.counts, programSet);

  for (const KernelGraph &g : graphs) {
    std::string name = (program.getSymName() + "_formulation" +
                        Twine(out.functions.size()))
                           .str();
    if (func::FuncOp f = build(t, m, g, scratch, name)) {
      out.functions.push_back(f);
      out.descriptions.push_back(describe(g, m));
    }
  }
  return out;
}
