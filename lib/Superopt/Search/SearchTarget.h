//===- SearchTarget.h - what the µGraph search must compute -----*- C++ -*-===//
//
// The search target is a subprogram in its default schedule (one predefined
// kernel per graph op). For each of its values this analysis records:
//
//  - its abstract expression (AbstractExpr.h), the pruning criterion;
//  - an index variable per dimension: dimensions that the ops index
//    together (an elementwise operand and its result, a matmul's contracted
//    pair, ...) share a variable. Input iterators and output savers follow
//    the variables: a grid dimension partitions one variable in every tensor
//    that has it, the for-loop walks one reduced variable. Maps that disagree
//    with the program's indexing are never generated.
//
// A transpose is data movement, not an op of any block graph: its result
// has its input's abstract expression and the same index variables in the
// permuted order. Since input iterators and output savers follow the
// variables, a kernel that reads K computes with K^T's values where the
// program transposes (QKNorm's norm of K along its dimension 1 is a
// block.rms_norm of the K tile along that dimension); a transposed value
// whose variable order no block graph produces is materialized by its
// predefined kernel.
//
// A reshape that only inserts or drops size-1 dimensions is data movement
// too: its dimensions other than size 1 share the input's variables in
// order, and its size-1 dimensions have none (as every size-1 dimension).
// A kernel that reads a tensor may hold its tile in the layout such a
// reshape of it, or of a unary op's result, is read in (a per-channel [C]
// tensor as the [C, 1, 1] an [N, C, H, W] operand broadcasts against), and
// may save a tile whose variables are the goal's up to size-1 dimensions:
// a block.reshape of the tile, which changes no element's place in
// row-major order, does either. A reshape that merges or splits
// dimensions is not handled (one variable per dimension cannot describe a
// dimension of two).
//
// and, for the whole subprogram, the menu of block ops the search may use:
// the unary kinds (with their constants), binary kinds, reductions and
// matmuls the program itself contains.
//
// Softmax is never computed from exp, sum and div: without the max
// subtraction exp / sum(exp) overflows f16 at logits of about 11 and f32 at
// about 89 where softmax itself is exact. Its abstract expression is
// sexp(x) / sum(sexp(x)), where sexp, the shifted exp exp(x - max), is an
// atom of its own that no block unary op produces (a program's own exp is
// another atom). A softmax value comes from its predefined kernel, or, when
// every user is a matmul contracting the softmax's dimension
// (softmax(S) V), it need not be materialized: the consumer's block graph
// folds it into an online softmax (block.softmax_accum), whose result has
// the expression sum(sexp(S) V) / sum(sexp(S)) -- the same normal form.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_SEARCHTARGET_H
#define MIRAGE_LIB_SUPEROPT_SEARCHTARGET_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Search/AbstractExpr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mirage::superopt {

using ExprId = AbstractExprContext::ExprId;

/// A unary block op the search may apply.
struct UnaryChoice {
  UnaryKind kind;
  llvm::SmallVector<double, 2> params;
  bool operator==(const UnaryChoice &o) const {
    return kind == o.kind && params == o.params;
  }
};

/// Abstract expression of a unary op.
ExprId unaryExpr(AbstractExprContext &ctx, const UnaryChoice &op, ExprId x);
ExprId binaryExpr(AbstractExprContext &ctx, BinaryKind kind, ExprId lhs,
                  ExprId rhs);

struct TargetValue {
  mlir::Value value;
  mlir::Operation *producer = nullptr; // null for function arguments
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<int, 4> vars; // index variable per dim, -1 for size 1
  /// The variable orders a block graph may hold a tile of this tensor in,
  /// read from memory: those of its size-1 reshapes, through unary ops and
  /// further such reshapes, and its own if another op reads it (or nothing
  /// does). They differ only in size-1 dimensions.
  llvm::SmallVector<llvm::SmallVector<int, 4>, 1> layouts;
  mlir::Type elementType;
  bool isOutput = false;
  /// Computed only by its predefined kernel (softmax): never the goal of a
  /// block graph; materialized unless `foldable`.
  bool opaque = false;
  /// A softmax whose every user is a matmul contracting its dimension: a
  /// consumer's block graph may fold it (an online softmax), so it need not
  /// be materialized.
  bool foldable = false;
};

class SearchTarget {
public:
  /// Analyses a kernel-level function of predefined kernels. Fails with a
  /// diagnostic on an op the search does not handle.
  static mlir::FailureOr<SearchTarget> analyze(mlir::func::FuncOp func);

  /// Builds every value's abstract expression in `ctx`. Ids are the same in
  /// every fresh context, so each search thread can own one. The values in
  /// `inputs` (a bit set of value indices, besides the arguments) are atoms
  /// of their own: the tensors a kernel reads are opaque to its block graph,
  /// so its goal is expressed in them (sharper pruning than their
  /// expansion: h = x + r read as a tensor is not a sum to the kernel).
  llvm::SmallVector<ExprId> buildExprs(AbstractExprContext &ctx,
                                       uint64_t inputs = 0) const;

  mlir::func::FuncOp func;
  /// Arguments first, then op results in program order.
  llvm::SmallVector<TargetValue> values;
  unsigned numArguments = 0;
  llvm::DenseMap<mlir::Value, unsigned> indexOf;

  /// Index variables: extent and whether some op reduces over it.
  llvm::SmallVector<int64_t> varExtent;
  llvm::SmallVector<bool> varReduced;

  /// f32, the type of sums of f16/bf16 data in block graphs.
  mlir::Type f32Type;

  // The block-op menu.
  llvm::SmallVector<UnaryChoice> unaryOps;
  llvm::SmallVector<BinaryKind> binaryOps;
  bool hasReduce = false, hasMatmul = false;
  /// Index variables along which a foldable softmax runs: block graphs may
  /// use block.softmax_accum over them.
  llvm::SmallVector<int> softmaxVars;
  /// Index variables an rms_norm normalizes along: block graphs may use
  /// block.rms_norm and the block.accum red_rms composite over them.
  llvm::SmallVector<int> rmsVars;
};

/// Whether two variable orders are one tile's up to size-1 dimensions (the
/// same variables in the same order once the -1 entries are dropped): a
/// row-major block.reshape turns one into the other.
bool sameUpToUnitDims(llvm::ArrayRef<int> a, llvm::ArrayRef<int> b);

/// Whether `op` is a kernel.reshape that only inserts or drops size-1
/// dimensions.
bool isUnitDimReshape(mlir::Operation *op);

/// The abstract expression of softmax(x) along a dimension of `size`:
/// sexp(x) / sum(size, sexp(x)).
ExprId softmaxExpr(AbstractExprContext &ctx, int64_t size, ExprId x);
/// The abstract expression of rms_norm(x) (no epsilon) over a last
/// dimension of `size`: x / sqrt(sum(size, x * x) / size).
ExprId rmsNormExpr(AbstractExprContext &ctx, int64_t size, ExprId x);
/// The shifted exp exp(x - max): the atom only softmaxes produce.
ExprId shiftedExp(AbstractExprContext &ctx, ExprId x);

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_SEARCHTARGET_H
