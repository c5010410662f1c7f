//===- UniformDimension.cpp - verify a pair on fewer slices ---------------===//
//
// The analysis follows the dimension forward through each function, op by
// op, from the arguments that have it; every rule below is one way an op
// maps slice i of its operands to slice i of its result by a function that
// does not depend on i. Anything else ends the analysis (the pair is then
// verified at full size): the rules must be sound, not complete.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Verification/UniformDimension.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <numeric>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

namespace {

constexpr int64_t kAbsent = -1;

/// What the analysis learned about one function.
struct Labels {
  /// The dimension each value has it at, kAbsent for values that do not
  /// depend on the arguments that have it.
  DenseMap<Value, int64_t> dim;
  /// The grid dimension of each graph-defined kernel that partitions it.
  DenseMap<Operation *, unsigned> gridDim;
  /// The slices one block computes together (lcm over the kernels).
  int64_t group = 1;
  /// How each kind of op keeps it, in order of first appearance.
  SmallVector<std::string> notes;
  void note(std::string s) {
    if (!llvm::is_contained(notes, s))
      notes.push_back(std::move(s));
  }
};

/// Follows the dimension through one function.
class Tracker {
public:
  Tracker(int64_t extent, Labels &labels, std::string &whyNot)
      : extent(extent), labels(labels), whyNot(whyNot) {}

  LogicalResult run(func::FuncOp f, ArrayRef<int64_t> argumentDims);

private:
  LogicalResult visit(Operation *op);
  LogicalResult visitGraphDef(kernel::GraphDefOp op);
  /// The result keeps the dimension where its single carrying operand has
  /// it (unary ops, reductions and normalizations over another dimension).
  LogicalResult keep(Operation *op, int64_t dim, StringRef note);
  LogicalResult elementwise(Operation *op, StringRef note);
  LogicalResult matmul(Operation *op);
  LogicalResult transpose(Operation *op, ArrayRef<int64_t> perm);
  LogicalResult unitDimReshape(Operation *op);

  int64_t of(Value v) const;
  LogicalResult label(Value v, int64_t d, Operation *at);
  LogicalResult fail(Operation *op, const Twine &why) {
    whyNot = (op->getName().getStringRef() + " " + why).str();
    return failure();
  }

  int64_t extent;
  Labels &labels;
  std::string &whyNot;
};

} // namespace

/// The label of `v`; kAbsent for a value not labeled (DenseMap::lookup
/// would give 0, a dimension).
static int64_t labelOf(const Labels &labels, Value v) {
  auto it = labels.dim.find(v);
  return it == labels.dim.end() ? kAbsent : it->second;
}

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

int64_t Tracker::of(Value v) const { return labelOf(labels, v); }

LogicalResult Tracker::label(Value v, int64_t d, Operation *at) {
  if (d != kAbsent &&
      (d >= int64_t(shapeOf(v).size()) || shapeOf(v)[d] != extent))
    return fail(at, "does not keep the dimension's extent");
  labels.dim[v] = d;
  return success();
}

LogicalResult Tracker::run(func::FuncOp f, ArrayRef<int64_t> argumentDims) {
  Block &body = f.getBody().front();
  for (auto [arg, d] : llvm::zip_equal(body.getArguments(), argumentDims))
    if (failed(label(arg, d, f)))
      return failure();
  for (Operation &op : body.without_terminator())
    if (failed(visit(&op)))
      return failure();
  return success();
}

LogicalResult Tracker::visit(Operation *op) {
  bool carried = llvm::any_of(op->getOperands(), [&](Value v) {
    return of(v) != kAbsent;
  });
  // An op of the arguments that do not have the dimension is the same for
  // every slice, whatever it computes.
  if (!carried) {
    for (Value r : op->getResults())
      labels.dim[r] = kAbsent;
    return success();
  }
  if (op->getNumResults() != 1 && !isa<kernel::GraphDefOp>(op))
    return fail(op, "is not analyzed for a uniform dimension");
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](kernel::GraphDefOp k) { return visitGraphDef(k); })
      .Case<graph::BinaryOpInterface, kernel::BinaryOp, graph::SelectOp,
            kernel::SelectOp>(
          [&](Operation *o) { return elementwise(o, "elementwise ops"); })
      .Case<graph::MatmulOp, kernel::MatmulOp>(
          [&](Operation *o) { return matmul(o); })
      .Case([&](graph::ReduceSumOp o) {
        return keep(o, o.getDim(), "reductions over another dimension");
      })
      .Case([&](graph::ReduceMaxOp o) {
        return keep(o, o.getDim(), "reductions over another dimension");
      })
      .Case([&](kernel::ReduceOp o) {
        return keep(o, o.getDim(), "reductions over another dimension");
      })
      .Case([&](graph::SoftmaxOp o) {
        return keep(o, o.getDim(), "softmax over another dimension");
      })
      .Case([&](kernel::SoftmaxOp o) {
        return keep(o, o.getDim(), "softmax over another dimension");
      })
      .Case<graph::RMSNormOp, kernel::RMSNormOp>([&](Operation *o) {
        return keep(o, shapeOf(o->getResult(0)).size() - 1,
                    "RMS norms over another dimension");
      })
      .Case([&](graph::TransposeOp o) { return transpose(o, o.getPerm()); })
      .Case([&](kernel::TransposeOp o) { return transpose(o, o.getPerm()); })
      .Case<graph::ReshapeOp, kernel::ReshapeOp>(
          [&](Operation *o) { return unitDimReshape(o); })
      .Default([&](Operation *o) -> LogicalResult {
        if (isa<graph::UnaryOpInterface, graph::CastOp, kernel::UnaryOp>(o))
          return keep(o, kAbsent, "elementwise ops");
        return fail(o, "is not analyzed for a uniform dimension");
      });
}

/// `reduced` is the dimension the op reduces or normalizes over (kAbsent:
/// none); the operand's slice i gives the result's slice i unless the
/// dimension is that one.
LogicalResult Tracker::keep(Operation *op, int64_t reduced, StringRef note) {
  int64_t d = of(op->getOperand(0));
  if (d == reduced)
    return fail(op, "reduces or normalizes over the dimension");
  labels.note(note.str());
  return label(op->getResult(0), d, op);
}

/// NumPy broadcasting: the operands' shapes align at the trailing
/// dimension. Every operand that has the dimension has it at the same
/// aligned place; an operand that does not must not vary there (size 1 or
/// no such dimension), else slice i would read part i of a tensor shared by
/// all slices.
LogicalResult Tracker::elementwise(Operation *op, StringRef note) {
  int64_t rank = shapeOf(op->getResult(0)).size();
  int64_t at = kAbsent;
  for (Value v : op->getOperands()) {
    int64_t d = of(v);
    if (d == kAbsent)
      continue;
    int64_t aligned = d + rank - int64_t(shapeOf(v).size());
    if (at != kAbsent && at != aligned)
      return fail(op, "combines different slices of the dimension");
    at = aligned;
  }
  for (Value v : op->getOperands()) {
    if (of(v) != kAbsent)
      continue;
    int64_t j = at - (rank - int64_t(shapeOf(v).size()));
    if (j >= 0 && shapeOf(v)[j] != 1)
      return fail(op, "reads a shared operand along the dimension");
  }
  labels.note(note.str());
  return label(op->getResult(0), at, op);
}

/// A batch dimension of both operands; or the rows of the left operand
/// when the right one does not have it (row i of A B is row i of A times
/// the shared B), or the columns of the right one when the left one does
/// not (column j is the shared A times column j of B). Never the
/// contracted dimension: every element of the result sums over all of it.
LogicalResult Tracker::matmul(Operation *op) {
  int64_t rank = shapeOf(op->getResult(0)).size();
  int64_t lhsRank = shapeOf(op->getOperand(0)).size();
  int64_t rhsRank = shapeOf(op->getOperand(1)).size();
  int64_t lhs = of(op->getOperand(0)), rhs = of(op->getOperand(1));
  if (lhs == lhsRank - 1 || rhs == rhsRank - 2)
    return fail(op, "contracts the dimension");
  if (lhs == lhsRank - 2 && rhs == kAbsent) {
    labels.note("matmul rows of a shared right operand");
    return label(op->getResult(0), rank - 2, op);
  }
  if (rhs == rhsRank - 1 && lhs == kAbsent) {
    labels.note("matmul columns of a shared left operand");
    return label(op->getResult(0), rank - 1, op);
  }
  if (lhs != rhs || lhs == kAbsent || lhs >= rank - 2 || lhsRank != rank ||
      rhsRank != rank)
    return fail(op, "does not take the dimension as a batch dimension of "
                    "both operands, the rows of the left one or the columns "
                    "of the right one alone");
  labels.note("matmul batch dimensions");
  return label(op->getResult(0), lhs, op);
}

/// result.shape[i] = input.shape[perm[i]]: the dimension moves, slice i
/// stays slice i.
LogicalResult Tracker::transpose(Operation *op, ArrayRef<int64_t> perm) {
  int64_t d = of(op->getOperand(0));
  auto it = llvm::find(perm, d);
  if (it == perm.end())
    return fail(op, "has no place for the dimension");
  labels.note("transposes");
  return label(op->getResult(0), it - perm.begin(), op);
}

/// A reshape that only inserts or drops size-1 dimensions moves no element
/// along the others: the dimension (of extent above 2, so not of size 1)
/// is the k-th dimension of size other than 1 in the input and in the
/// result. One that merges or splits dimensions ends the analysis.
LogicalResult Tracker::unitDimReshape(Operation *op) {
  ArrayRef<int64_t> in = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  if (!isUnitDimReshape(in, out))
    return fail(op, "merges or splits dimensions");
  int64_t d = of(op->getOperand(0));
  int64_t k = llvm::count_if(in.take_front(d),
                             [](int64_t e) { return e != 1; });
  for (auto [j, e] : llvm::enumerate(out)) {
    if (e == 1)
      continue;
    if (k-- == 0) {
      labels.note("reshapes of size-1 dimensions");
      return label(op->getResult(0), j, op);
    }
  }
  return fail(op, "has no place for the dimension");
}

LogicalResult Tracker::visitGraphDef(kernel::GraphDefOp op) {
  Block &body = op.getBody().front();
  ArrayRef<int64_t> grid = op.getGrid();
  std::optional<unsigned> g;
  // The grid dimension must be the same for every carrying input.
  auto settle = [&](unsigned gridDim) {
    if (g && *g != gridDim)
      return false;
    g = gridDim;
    return true;
  };
  for (auto [operand, arg] :
       llvm::zip_equal(op.getInputs(), body.getArguments())) {
    int64_t d = of(operand);
    labels.dim[arg] = d;
    if (d == kAbsent)
      continue;
    for (Operation *user : arg.getUsers()) {
      auto input = dyn_cast<block::InputOp>(user);
      if (!input)
        return fail(op, "reads a kernel argument other than by an input "
                        "iterator");
      if (input.getFmap().getDim() == d)
        return fail(op, "walks the dimension with its for-loop");
      ArrayRef<int64_t> imap = input.getImap().getDims();
      if (llvm::count(imap, d) != 1)
        return fail(op, "does not partition the dimension by exactly one "
                        "grid dimension");
      if (!settle(llvm::find(imap, d) - imap.begin()))
        return fail(op, "partitions the dimension by different grid "
                        "dimensions");
    }
  }
  if (!g)
    return fail(op, "reads the dimension without partitioning it");
  // Block j along g must see the same data along everything else: an input
  // that does not have the dimension is not partitioned by g.
  for (auto [operand, arg] :
       llvm::zip_equal(op.getInputs(), body.getArguments())) {
    if (of(operand) != kAbsent)
      continue;
    for (Operation *user : arg.getUsers())
      if (auto input = dyn_cast<block::InputOp>(user))
        if (!input.getImap().isReplicate(*g))
          return fail(op, "partitions a shared input by the grid dimension "
                          "of the uniform one");
  }
  if (extent % grid[*g])
    return fail(op, "does not divide the dimension evenly");
  int64_t tile = extent / grid[*g];
  auto yield = cast<block::YieldOp>(body.getTerminator());
  for (auto [result, saved] :
       llvm::zip_equal(op.getResults(), yield.getResults())) {
    auto output = saved.getDefiningOp<block::OutputOp>();
    if (!output)
      return fail(op, "yields a tensor no output saver wrote");
    ArrayRef<int64_t> omap = output.getOmap().getDims();
    int64_t d = omap[*g];
    if (d == block::GridMapAttr::kReplicate ||
        llvm::count(omap, d) != 1 ||
        cast<ShapedType>(output.getTile().getType()).getShape()[d] != tile)
      return fail(op, "does not save the grid dimension's tiles along one "
                      "output dimension");
    if (failed(label(result, d, op)) || failed(label(saved, d, op)))
      return failure();
  }
  labels.gridDim[op] = *g;
  labels.group = std::lcm(labels.group, tile);
  static const char *names[] = {"x", "y", "z"};
  labels.note(llvm::formatv("graph-defined kernels partition it by "
                                    "grid dimension {0} in tiles of {1}, "
                                    "no for-loop walks it",
                                    *g < 3 ? names[*g] : "?", tile)
                          .str());
  return success();
}

std::string UniformDimension::describe() const {
  int64_t first = llvm::find_if(resultDims, [](int64_t d) {
                    return d != kAbsent;
                  }) - resultDims.begin();
  return llvm::formatv("{0} of {1} slices of result dimension {2}; {3}",
                       reducedExtent, extent,
                       first < int64_t(resultDims.size()) ? resultDims[first]
                                                          : 0,
                       why);
}

/// Runs the tracker on `f`; the result labels, or failure with whyNot.
static FailureOr<SmallVector<int64_t>>
track(func::FuncOp f, ArrayRef<int64_t> argumentDims, int64_t extent,
      Labels &labels, std::string &whyNot) {
  Tracker tracker(extent, labels, whyNot);
  if (failed(tracker.run(f, argumentDims))) {
    whyNot = "@" + f.getSymName().str() + ": " + whyNot;
    return failure();
  }
  SmallVector<int64_t> results;
  for (Value v : f.getBody().front().getTerminator()->getOperands())
    results.push_back(labelOf(labels, v));
  return results;
}

std::optional<UniformDimension>
mirage::superopt::findUniformDimension(func::FuncOp original,
                                       func::FuncOp candidate,
                                       std::string *whyNot) {
  // Why each dimension tried was refused, "result dimension k (N): why".
  SmallVector<std::string> refusals;
  auto fail = [&]() -> std::optional<UniformDimension> {
    if (whyNot)
      *whyNot = refusals.empty()
                    ? "no dimension of the first result has more than 2 "
                      "slices"
                    : llvm::join(refusals, "; ");
    return std::nullopt;
  };
  FunctionType type = original.getFunctionType();
  if (type != candidate.getFunctionType() || type.getNumResults() == 0 ||
      original.getBody().empty() || candidate.getBody().empty())
    return fail();
  auto result = dyn_cast<RankedTensorType>(type.getResult(0));
  if (!result)
    return fail();
  // Of the dimensions that qualify, the one that leaves the arguments
  // smallest (the first among equals): a matmul's 14336 weight rows save
  // more than its 16 token rows.
  std::optional<UniformDimension> best;
  uint64_t bestElements = 0;
  auto argumentElements = [&](const UniformDimension &dim) {
    uint64_t total = 0;
    for (auto [t, d] : llvm::zip(type.getInputs(), dim.argumentDims)) {
      auto shaped = dyn_cast<RankedTensorType>(t);
      if (!shaped || !shaped.hasStaticShape())
        continue;
      uint64_t n = 1;
      for (auto [i, e] : llvm::enumerate(shaped.getShape()))
        n *= int64_t(i) == d ? dim.reducedExtent : e;
      total += n;
    }
    return total;
  };
  for (auto [k, extent] : llvm::enumerate(result.getShape())) {
    if (extent < 3)
      continue;
    std::string why;
    auto refuse = [&] {
      refusals.push_back(
          llvm::formatv("result dimension {0} ({1}): {2}", k, extent, why));
    };
    // Each argument has it at its one dimension of this extent, or not at
    // all; an argument with two such dimensions is ambiguous.
    UniformDimension dim;
    dim.extent = extent;
    bool ambiguous = false;
    for (Type t : type.getInputs()) {
      auto shaped = dyn_cast<RankedTensorType>(t);
      int64_t count = shaped ? llvm::count(shaped.getShape(), extent) : 0;
      ambiguous |= count > 1;
      dim.argumentDims.push_back(
          count == 1 ? llvm::find(shaped.getShape(), extent) -
                           shaped.getShape().begin()
                     : kAbsent);
    }
    if (ambiguous) {
      why = "an argument has two dimensions of this extent";
      refuse();
      continue;
    }
    Labels a, b;
    FailureOr<SmallVector<int64_t>> ra =
        track(original, dim.argumentDims, extent, a, why);
    FailureOr<SmallVector<int64_t>> rb =
        succeeded(ra) ? track(candidate, dim.argumentDims, extent, b, why)
                      : FailureOr<SmallVector<int64_t>>(failure());
    if (failed(ra) || failed(rb)) {
      refuse();
      continue;
    }
    if (*ra != *rb || (*ra)[0] != int64_t(k)) {
      why = "the two functions place it in different result dimensions";
      refuse();
      continue;
    }
    dim.resultDims = *ra;
    dim.group = std::lcm(a.group, b.group);
    // Two groups where that is fewer than all (the second runs a block at a
    // non-zero index); else one, which the argument needs alone.
    dim.reducedExtent = 2 * dim.group < extent ? 2 * dim.group : dim.group;
    if (dim.reducedExtent >= extent) {
      why = llvm::formatv("a block's tile covers all {0} slices", extent);
      refuse();
      continue;
    }
    auto clause = [](func::FuncOp f, const Labels &l) {
      std::string s = "@" + f.getSymName().str() + ": ";
      s += l.notes.empty() ? std::string("no op reads it")
                           : llvm::join(l.notes, ", ");
      return s;
    };
    dim.why = "uniform in both programs (" + clause(original, a) + "; " +
              clause(candidate, b) + ")";
    uint64_t elements = argumentElements(dim);
    if (!best || elements < bestElements) {
      best = std::move(dim);
      bestElements = elements;
    }
  }
  if (best)
    return best;
  return fail();
}

/// Shrinks every value `labels` gives the dimension, and the grids that
/// partition it, in `f` (a copy).
static void shrink(func::FuncOp f, const Labels &labels,
                   const UniformDimension &dim) {
  auto resize = [&](Value v) {
    int64_t d = labelOf(labels, v);
    if (d == kAbsent)
      return;
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[d] = dim.reducedExtent;
    v.setType(type.clone(shape));
  };
  f.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          resize(arg);
    for (Value r : op->getResults())
      resize(r);
    if (auto kernel = dyn_cast<kernel::GraphDefOp>(op)) {
      auto it = labels.gridDim.find(op);
      if (it == labels.gridDim.end())
        return;
      SmallVector<int64_t> grid(kernel.getGrid());
      grid[it->second] = grid[it->second] * dim.reducedExtent / dim.extent;
      kernel.setGrid(grid);
    }
  });
  Block &entry = f.getBody().front();
  f.setFunctionType(FunctionType::get(
      f.getContext(), entry.getArgumentTypes(),
      entry.getTerminator()->getOperandTypes()));
}

FailureOr<ReducedPair>
mirage::superopt::shrinkUniformDimension(func::FuncOp original,
                                         func::FuncOp candidate,
                                         const UniformDimension &dim) {
  ReducedPair pair;
  pair.module = ModuleOp::create(original.getLoc());
  OpBuilder builder(original.getContext());
  builder.setInsertionPointToEnd(pair.module->getBody());
  pair.original = cast<func::FuncOp>(builder.clone(*original));
  pair.candidate = cast<func::FuncOp>(builder.clone(*candidate));
  for (func::FuncOp f : {pair.original, pair.candidate}) {
    // The copies are labeled afresh: the same analysis, the same answer.
    Labels labels;
    std::string whyNot;
    if (failed(track(f, dim.argumentDims, dim.extent, labels, whyNot)))
      return failure();
    shrink(f, labels, dim);
  }
  // The ops' own verifiers check every shape the shrinking touched (the
  // tiles of the input iterators and output savers against the grid).
  ScopedDiagnosticHandler quiet(original.getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(verify(*pair.module)))
    return failure();
  return pair;
}
