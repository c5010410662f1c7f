//===- SearchTarget.cpp - expressions, index variables and op menu --------===//

#include "SearchTarget.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

ExprId superopt::unaryExpr(AbstractExprContext &ctx, const UnaryChoice &op,
                           ExprId x) {
  switch (op.kind) {
  case UnaryKind::square:
    return ctx.mul(x, x);
  case UnaryKind::scale:
    return ctx.scale(op.params[0], x);
  default:
    break;
  }
  std::string name = stringifyUnaryKind(op.kind).str();
  for (double p : op.params)
    name += ":" + std::to_string(p);
  return ctx.apply(name, x);
}

ExprId superopt::binaryExpr(AbstractExprContext &ctx, BinaryKind kind,
                            ExprId lhs, ExprId rhs) {
  switch (kind) {
  case BinaryKind::add:
    return ctx.add(lhs, rhs);
  case BinaryKind::sub:
    return ctx.sub(lhs, rhs);
  case BinaryKind::mul:
    return ctx.mul(lhs, rhs);
  case BinaryKind::div:
    return ctx.div(lhs, rhs);
  // A comparison is an uninterpreted function of lhs - rhs, one per kind:
  // it reads both operands (each a subexpression of it), and
  // lt(a + c, b + c) = lt(a, b) holds in the reals as in this form.
  case BinaryKind::eq:
  case BinaryKind::ne:
  case BinaryKind::lt:
  case BinaryKind::le:
  case BinaryKind::gt:
  case BinaryKind::ge:
    return ctx.apply(("cmp_" + stringifyBinaryKind(kind)).str(),
                     ctx.sub(lhs, rhs));
  }
  llvm_unreachable("unknown binary kind");
}

ExprId superopt::rmsNormExpr(AbstractExprContext &ctx, int64_t size,
                             ExprId x) {
  ExprId meanSq = ctx.scale(1.0 / size, ctx.sum(size, ctx.mul(x, x)));
  return ctx.div(x, ctx.apply("sqrt", meanSq));
}

ExprId superopt::shiftedExp(AbstractExprContext &ctx, ExprId x) {
  return ctx.apply("sexp", x);
}

ExprId superopt::softmaxExpr(AbstractExprContext &ctx, int64_t size,
                             ExprId x) {
  ExprId e = shiftedExp(ctx, x);
  return ctx.div(e, ctx.sum(size, e));
}

bool superopt::sameUpToUnitDims(ArrayRef<int> a, ArrayRef<int> b) {
  auto hasVar = [](int v) { return v >= 0; };
  return llvm::equal(llvm::make_filter_range(a, hasVar),
                     llvm::make_filter_range(b, hasVar));
}

bool superopt::isUnitDimReshape(Operation *op) {
  auto reshape = dyn_cast_or_null<kernel::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto in = cast<ShapedType>(reshape.getInput().getType());
  auto out = cast<ShapedType>(reshape.getResult().getType());
  return in.hasStaticShape() && out.hasStaticShape() &&
         mirage::isUnitDimReshape(in.getShape(), out.getShape());
}

static UnaryChoice choiceOf(kernel::UnaryOp op) {
  UnaryChoice c{op.getKind(), {}};
  if (auto params = op.getParams())
    c.params.assign(params->begin(), params->end());
  return c;
}

namespace {
/// Union-find over (value, dim) slots.
struct DimSlots {
  llvm::EquivalenceClasses<unsigned> classes;
  static unsigned slot(unsigned value, unsigned dim) { return value * 8 + dim; }
  void join(unsigned a, unsigned da, unsigned b, unsigned db) {
    classes.unionSets(slot(a, da), slot(b, db));
  }
};
} // namespace

FailureOr<SearchTarget> SearchTarget::analyze(func::FuncOp func) {
  SearchTarget t;
  t.func = func;
  t.f32Type = Float32Type::get(func.getContext());
  Block &body = func.getBody().front();
  auto addValue = [&](Value v, Operation *producer) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getRank() > 8)
      return emitError(v.getLoc()) << "µGraph search: unsupported value type "
                                   << v.getType();
    TargetValue tv;
    tv.value = v;
    tv.producer = producer;
    tv.shape.assign(type.getShape().begin(), type.getShape().end());
    tv.elementType = type.getElementType();
    t.indexOf[v] = t.values.size();
    t.values.push_back(std::move(tv));
    return success();
  };
  for (BlockArgument arg : body.getArguments())
    if (failed(addValue(arg, nullptr)))
      return failure();
  t.numArguments = body.getNumArguments();

  DimSlots slots;
  llvm::DenseSet<unsigned> reducedSlots;
  auto idx = [&](Value v) { return t.indexOf.lookup(v); };
  // Dimensions of `a` and `r` aligned at the trailing end, joined where
  // the sizes agree (a size-1 operand dim broadcasts and stays apart).
  auto joinElementwise = [&](Value a, Value r) {
    unsigned ai = idx(a), ri = idx(r);
    auto as = t.values[ai].shape, rs = t.values[ri].shape;
    for (size_t k = 1; k <= as.size(); ++k)
      if (as[as.size() - k] == rs[rs.size() - k])
        slots.join(ai, as.size() - k, ri, rs.size() - k);
  };

  auto &menu = t;
  auto addUnary = [&](UnaryChoice c) {
    if (!llvm::is_contained(menu.unaryOps, c))
      menu.unaryOps.push_back(std::move(c));
  };
  auto addBinary = [&](BinaryKind k) {
    if (!llvm::is_contained(menu.binaryOps, k))
      menu.binaryOps.push_back(k);
  };

  for (Operation &op : body.without_terminator()) {
    if (op.getNumResults() != 1)
      return op.emitOpError("is not handled by the µGraph search");
    if (failed(addValue(op.getResult(0), &op)))
      return failure();
    unsigned r = idx(op.getResult(0));
    unsigned rank = t.values[r].shape.size();
    LogicalResult handled =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](kernel::UnaryOp u) {
              addUnary(choiceOf(u));
              joinElementwise(u.getInput(), u.getResult());
              return success();
            })
            .Case([&](kernel::BinaryOp b) {
              addBinary(b.getKind());
              joinElementwise(b.getLhs(), b.getResult());
              joinElementwise(b.getRhs(), b.getResult());
              return success();
            })
            .Case([&](kernel::ReduceOp red) -> LogicalResult {
              if (red.getKind() != ReduceKind::sum)
                return failure();
              menu.hasReduce = true;
              unsigned in = idx(red.getInput());
              for (unsigned d = 0; d < rank; ++d)
                if (d != red.getDim())
                  slots.join(in, d, r, d);
              reducedSlots.insert(DimSlots::slot(in, red.getDim()));
              return success();
            })
            .Case([&](kernel::MatmulOp mm) -> LogicalResult {
              menu.hasMatmul = true;
              unsigned a = idx(mm.getLhs()), b = idx(mm.getRhs());
              if (t.values[a].shape.size() != rank ||
                  t.values[b].shape.size() != rank)
                return failure();
              for (unsigned d = 0; d + 2 < rank; ++d) {
                slots.join(a, d, r, d);
                slots.join(b, d, r, d);
              }
              slots.join(a, rank - 2, r, rank - 2);
              slots.join(b, rank - 1, r, rank - 1);
              slots.join(a, rank - 1, b, rank - 2);
              reducedSlots.insert(DimSlots::slot(a, rank - 1));
              return success();
            })
            .Case([&](kernel::RMSNormOp n) -> LogicalResult {
              if (!n.getEps().isZero())
                return failure();
              // Block graphs compute it with the composites (block.rms_norm
              // of a whole row, or block.accum red_rms over the loop and a
              // division after it), which replace the fine-grained form
              // (square, reduce, scale, sqrt: four more ops on the same
              // values), so those are not in the menu on its account.
              addBinary(BinaryKind::div);
              joinElementwise(n.getInput(), n.getResult());
              reducedSlots.insert(DimSlots::slot(r, rank - 1));
              return success();
            })
            .Case([&](kernel::TransposeOp tr) {
              // Data movement: result dimension d is input dimension
              // perm[d], so both share its index variable. A block graph
              // holds a tile with its tensor's variables in their order, so
              // a consumer reading the input computes on the transposed
              // value through the variables alone (no block op moves data):
              // transposes are input and output maps, not ops.
              unsigned in = idx(tr.getInput());
              for (auto [d, p] : llvm::enumerate(tr.getPerm()))
                slots.join(in, p, r, d);
              return success();
            })
            .Case([&](kernel::ReshapeOp re) -> LogicalResult {
              // Data movement when it only inserts or drops size-1
              // dimensions: the k-th dimension of size other than 1 of the
              // result is the input's k-th, with its variable.
              if (!isUnitDimReshape(re))
                return failure();
              unsigned in = idx(re.getInput());
              auto nonUnit = [](ArrayRef<int64_t> shape) {
                SmallVector<unsigned> dims;
                for (auto [d, size] : llvm::enumerate(shape))
                  if (size != 1)
                    dims.push_back(d);
                return dims;
              };
              for (auto [a, b] : llvm::zip_equal(nonUnit(t.values[in].shape),
                                                 nonUnit(t.values[r].shape)))
                slots.join(in, a, r, b);
              return success();
            })
            .Case([&](kernel::SoftmaxOp s) {
              // Only its predefined kernel or an online softmax computes
              // it (see the file comment): no menu entries of its own.
              t.values[r].opaque = true;
              joinElementwise(s.getInput(), s.getResult());
              reducedSlots.insert(DimSlots::slot(r, s.getDim()));
              return success();
            })
            .Default([](Operation *) { return failure(); });
    if (failed(handled))
      return op.emitOpError("is not handled by the µGraph search");
  }
  for (Value v : body.getTerminator()->getOperands())
    t.values[idx(v)].isOutput = true;

  // Softmaxes that every user folds: matmuls contracting the softmax's
  // dimension, reading it as their left operand (softmax(S) V).
  for (TargetValue &tv : t.values) {
    auto sm = dyn_cast_or_null<kernel::SoftmaxOp>(tv.producer);
    if (!sm || tv.isOutput || tv.value.use_empty() ||
        sm.getDim() != tv.shape.size() - 1)
      continue;
    tv.foldable = llvm::all_of(tv.value.getUses(), [&](OpOperand &use) {
      auto mm = dyn_cast<kernel::MatmulOp>(use.getOwner());
      return mm && use.getOperandNumber() == 0;
    });
  }

  // Number the classes; size-1 dimensions get no variable.
  llvm::DenseMap<unsigned, int> varOfLeader;
  for (auto [i, tv] : llvm::enumerate(t.values)) {
    tv.vars.assign(tv.shape.size(), -1);
    for (auto [d, size] : llvm::enumerate(tv.shape)) {
      if (size == 1)
        continue;
      unsigned leader = slots.classes.getOrInsertLeaderValue(
          DimSlots::slot(i, d));
      auto [it, inserted] = varOfLeader.try_emplace(leader, t.varExtent.size());
      if (inserted) {
        t.varExtent.push_back(size);
        t.varReduced.push_back(false);
      }
      tv.vars[d] = it->second;
    }
  }
  for (unsigned s : reducedSlots) {
    const TargetValue &tv = t.values[s / 8];
    int v = tv.vars[s % 8];
    if (v >= 0)
      t.varReduced[v] = true;
  }
  for (const TargetValue &tv : t.values)
    if (isa_and_nonnull<kernel::RMSNormOp>(tv.producer)) {
      int v = tv.vars.back();
      if (v >= 0 && !llvm::is_contained(t.rmsVars, v))
        t.rmsVars.push_back(v);
    }
  for (const TargetValue &tv : t.values)
    if (tv.foldable) {
      int v = tv.vars.back();
      if (v >= 0 && !llvm::is_contained(t.softmaxVars, v))
        t.softmaxVars.push_back(v);
    }
  // The layouts a tile of each tensor may take: those its size-1 reshapes
  // are read in, through unary ops too (elementwise, so a tile computes
  // them in any layout: a per-channel sqrt(var + eps) reshaped to
  // [C, 1, 1] is computed on the [C, 1, 1] tile); its own if another op
  // reads it. Values are in program order, so a user's layouts are known
  // before its operand's.
  for (TargetValue &tv : llvm::reverse(t.values)) {
    bool readAsItself = false;
    SmallVector<SmallVector<int, 4>, 1> viaUsers;
    for (Operation *user : tv.value.getUsers()) {
      if (!isUnitDimReshape(user) && !isa<kernel::UnaryOp>(user)) {
        readAsItself = true;
        continue;
      }
      llvm::append_range(viaUsers, t.values[idx(user->getResult(0))].layouts);
    }
    // Its own first, if an op reads it as it is; each layout once.
    if (readAsItself || viaUsers.empty())
      tv.layouts.push_back(tv.vars);
    for (SmallVector<int, 4> &layout : viaUsers)
      if (!llvm::is_contained(tv.layouts, layout))
        tv.layouts.push_back(std::move(layout));
  }
  // A variable joined to dims of different sizes would mean broken IR.
  for (const TargetValue &tv : t.values)
    for (auto [d, v] : llvm::enumerate(tv.vars))
      if (v >= 0 && t.varExtent[v] != tv.shape[d])
        return emitError(tv.value.getLoc())
               << "µGraph search: inconsistent index sizes";

  return t;
}

SmallVector<ExprId> SearchTarget::buildExprs(AbstractExprContext &ctx,
                                             uint64_t inputs) const {
  const auto &vals = values;
  SmallVector<ExprId> exprs;
  for (unsigned i = 0; i < numArguments; ++i)
    exprs.push_back(ctx.input(i));
  auto e = [&](Value v) { return exprs[indexOf.lookup(v)]; };
  for (unsigned i = numArguments; i < vals.size(); ++i) {
    if (i < 64 && (inputs >> i & 1)) {
      exprs.push_back(ctx.input(i));
      continue;
    }
    Operation *op = vals[i].producer;
    ExprId x =
        llvm::TypeSwitch<Operation *, ExprId>(op)
            .Case([&](kernel::UnaryOp u) {
              return unaryExpr(ctx, choiceOf(u), e(u.getInput()));
            })
            .Case([&](kernel::BinaryOp b) {
              return binaryExpr(ctx, b.getKind(), e(b.getLhs()), e(b.getRhs()));
            })
            .Case([&](kernel::ReduceOp red) {
              int64_t n = vals[indexOf.lookup(red.getInput())].shape[red.getDim()];
              return ctx.sum(n, e(red.getInput()));
            })
            .Case([&](kernel::MatmulOp mm) {
              int64_t k = vals[indexOf.lookup(mm.getLhs())].shape.back();
              return ctx.sum(k, ctx.mul(e(mm.getLhs()), e(mm.getRhs())));
            })
            .Case([&](kernel::RMSNormOp n) {
              return rmsNormExpr(ctx, vals[i].shape.back(), e(n.getInput()));
            })
            .Case([&](kernel::TransposeOp tr) {
              // The input's expression: abstract expressions do not see
              // layout. Unless two dimensions of the result share a
              // variable (x + transpose(x) of a square x): then the
              // variables cannot tell the layouts apart, and the transpose
              // is an atom that only its predefined kernel computes.
              ArrayRef<int> vars = vals[i].vars;
              for (auto [d, v] : llvm::enumerate(vars))
                if (v >= 0 && llvm::is_contained(vars.drop_front(d + 1), v))
                  return ctx.apply("transpose", e(tr.getInput()));
              return e(tr.getInput());
            })
            .Case([&](kernel::ReshapeOp re) {
              // Size-1 dimensions only (analyze): the same elements along
              // the same variables.
              return e(re.getInput());
            })
            .Case([&](kernel::SoftmaxOp s) {
              return softmaxExpr(ctx, vals[i].shape[s.getDim()],
                                 e(s.getInput()));
            });
    exprs.push_back(x);
  }
  return exprs;
}
