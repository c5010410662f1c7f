//===- ShapeRules.h - shape rules shared by all levels ----------*- C++ -*-===//
//
// The shape and parameter rules of each tensor operation, written once. The
// graph, kernel and block ops of the same computation verify and infer their
// result shapes with these functions, so the levels cannot drift apart.
// Each function reports a violation at `loc` (when given) and fails.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_GRAPH_SHAPERULES_H
#define MIRAGE_DIALECT_GRAPH_SHAPERULES_H

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mirage {

using Shape = llvm::SmallVector<int64_t>;
using OptLoc = std::optional<mlir::Location>;

//===----------------------------------------------------------------------===//
// Checked sizes. Every size computed from a shape (element counts, bytes,
// tile products, FLOPs) goes through these, so that none wraps around:
// a consumer that allocates, divides or loops by a size first checks it
// here against a limit it states, and reports the excess at `loc`.
//===----------------------------------------------------------------------===//

/// The product of `dims` (1 for none), or std::nullopt if a dimension is
/// negative (dynamic) or the product overflows int64_t.
std::optional<int64_t> checkedElementCount(llvm::ArrayRef<int64_t> dims);

/// a * b for non-negative a and b, or std::nullopt on overflow.
std::optional<int64_t> checkedProduct(int64_t a, int64_t b);

/// Fails with "<what> has N elements, more than the limit of L <why>" (or
/// "... too many elements to count in 64 bits") at `loc` unless
/// checkedElementCount(dims) is at most `limit`. Callers state their limit
/// and its reason (the memory an interpreter run may take, say).
mlir::LogicalResult verifyElementCountWithin(OptLoc loc,
                                             llvm::ArrayRef<int64_t> dims,
                                             int64_t limit,
                                             llvm::StringRef what,
                                             llvm::StringRef why);

/// [B..., M, K] x [B..., K, N] -> [B..., M, N].
mlir::FailureOr<Shape> inferMatmulShape(OptLoc loc, llvm::ArrayRef<int64_t> lhs,
                                        llvm::ArrayRef<int64_t> rhs);

/// NumPy broadcast of two shapes.
mlir::FailureOr<Shape> inferBroadcastShape(OptLoc loc,
                                           llvm::ArrayRef<int64_t> lhs,
                                           llvm::ArrayRef<int64_t> rhs);

/// Whether `from` NumPy-broadcasts to exactly `to`.
mlir::LogicalResult verifyBroadcastTo(OptLoc loc, llvm::ArrayRef<int64_t> from,
                                      llvm::ArrayRef<int64_t> to);

/// Checks 0 <= dim < rank.
mlir::LogicalResult verifyDim(OptLoc loc, int64_t rank, int64_t dim);

/// The input shape with `dim` reduced to size 1.
mlir::FailureOr<Shape> inferReduceShape(OptLoc loc,
                                        llvm::ArrayRef<int64_t> input,
                                        int64_t dim);

/// result[i] = input[perm[i]]; perm must be a permutation of [0, rank).
mlir::FailureOr<Shape> inferTransposeShape(OptLoc loc,
                                           llvm::ArrayRef<int64_t> input,
                                           llvm::ArrayRef<int64_t> perm);

/// result[i] = input[i] * repeats[i].
mlir::FailureOr<Shape> inferRepeatShape(OptLoc loc,
                                        llvm::ArrayRef<int64_t> input,
                                        llvm::ArrayRef<int64_t> repeats);

/// Same element count.
mlir::LogicalResult verifyReshape(OptLoc loc, llvm::ArrayRef<int64_t> input,
                                  llvm::ArrayRef<int64_t> result);

/// Whether a reshape from `input` to `result` only inserts or drops size-1
/// dimensions: the sizes other than 1 are the same, in the same order (so
/// every element keeps its index along each of them).
bool isUnitDimReshape(llvm::ArrayRef<int64_t> input,
                      llvm::ArrayRef<int64_t> result);

/// Equal ranks, equal sizes except along `dim`, which is summed.
mlir::FailureOr<Shape>
inferConcatShape(OptLoc loc, llvm::ArrayRef<llvm::SmallVector<int64_t>> inputs,
                 int64_t dim);

/// One shape per size in `sizes`; the sizes must add up to input[dim].
mlir::FailureOr<llvm::SmallVector<Shape>>
inferSplitShapes(OptLoc loc, llvm::ArrayRef<int64_t> input, int64_t dim,
                 llvm::ArrayRef<int64_t> sizes);

/// NCHW input, [O, C/groups, KH, KW] weight -> [N, O, OH, OW].
mlir::FailureOr<Shape>
inferConv2DShape(OptLoc loc, llvm::ArrayRef<int64_t> input,
                 llvm::ArrayRef<int64_t> weight, llvm::ArrayRef<int64_t> strides,
                 llvm::ArrayRef<int64_t> padding,
                 llvm::ArrayRef<int64_t> dilations, int64_t groups);

/// NCHW input -> [N, C, OH, OW].
mlir::FailureOr<Shape> inferPool2DShape(OptLoc loc,
                                        llvm::ArrayRef<int64_t> input,
                                        llvm::ArrayRef<int64_t> kernel,
                                        llvm::ArrayRef<int64_t> strides,
                                        llvm::ArrayRef<int64_t> padding);

//===----------------------------------------------------------------------===//
// Indexing (issue 24)
//===----------------------------------------------------------------------===//

/// gather: data's dimension `axis` replaced by the dimensions of `indices`.
mlir::FailureOr<Shape> inferGatherShape(OptLoc loc,
                                        llvm::ArrayRef<int64_t> data,
                                        llvm::ArrayRef<int64_t> indices,
                                        int64_t axis);

/// gather_elements and scatter_elements: `indices` of data's rank, at most
/// as long as `data` along every axis but `axis` (and at least 1 long
/// there); the result of gather_elements has the shape of `indices`.
mlir::LogicalResult verifyElementsIndexShape(OptLoc loc,
                                             llvm::ArrayRef<int64_t> data,
                                             llvm::ArrayRef<int64_t> indices,
                                             int64_t axis);

/// one_hot: the indices' shape and one more dimension, the depth (>= 1).
mlir::LogicalResult verifyOneHotShape(OptLoc loc,
                                      llvm::ArrayRef<int64_t> indices,
                                      llvm::ArrayRef<int64_t> result);

/// topk: the input with `dim` of size k, 1 <= k <= input[dim].
mlir::FailureOr<Shape> inferTopKShape(OptLoc loc,
                                      llvm::ArrayRef<int64_t> input,
                                      int64_t k, int64_t dim);

/// The number of scalar parameters each unary kind takes, and their rules
/// (clamp: min <= max).
mlir::LogicalResult verifyUnaryParams(OptLoc loc, UnaryKind kind,
                                      llvm::ArrayRef<double> params);

} // namespace mirage

#endif // MIRAGE_DIALECT_GRAPH_SHAPERULES_H
