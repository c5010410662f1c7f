//===- UniformDimension.h - verify a pair on fewer slices -------*- C++ -*-===//
//
// Verifying a large program at full size can take more memory and time
// than it is worth when it does the same thing to every slice of a
// parallel dimension (every head of an attention). This finds such a
// dimension, shared by two functions, and builds copies of both with the
// dimension shrunk, so that the pair is verified on a smaller instance with
// the same bound (docs/Verification.md, "Verification on fewer slices").
//
// A dimension of extent N is *uniform* in a function when every value
// that depends on the arguments' slices along it either carries it (a
// dimension of extent N in which slice i of the value is a function of
// slice i of the arguments that carry it and of the arguments that do not)
// or does not depend on those arguments at all; and that function is the
// same for every i. The analysis proves it op by op, conservatively: an op
// it does not know to keep the dimension (a reduction over it, a matmul
// contracting it, or taking it as rows or columns where the other operand
// has it too, a reshape that merges or splits dimensions, a broadcast, a
// concat)
// ends the analysis and the pair is verified at full size. A graph-defined
// kernel keeps it when one grid dimension partitions it in every input that
// carries it and in every output, no for-loop walks it, and no input that
// does not carry it is partitioned by that grid dimension: the block with
// index j along it then computes slices j t .. j t + t - 1 (t the tile's
// extent) from the same slices of its inputs, by a block graph that does
// not know j. Slices are therefore uniform in groups of t, and the reduced
// instance keeps whole groups: two of them (one when two are all), with the
// grid shrunk and the tiles unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_UNIFORMDIMENSION_H
#define MIRAGE_SUPEROPT_UNIFORMDIMENSION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace mirage::superopt {

/// A dimension along which both functions of a pair are uniform.
struct UniformDimension {
  /// Where each argument and each result has it (-1: the argument does not,
  /// and is read whole by every slice).
  llvm::SmallVector<int64_t> argumentDims, resultDims;
  /// N: its extent.
  int64_t extent = 0;
  /// t: the slices a block of a graph-defined kernel computes together (the
  /// least common multiple over both functions' kernels; 1 without any).
  int64_t group = 1;
  /// The extent of the reduced instance: two groups if that is less than
  /// `extent`, else one.
  int64_t reducedExtent = 0;
  /// Why both functions are uniform along it, one clause per function.
  std::string why;

  /// "2 of 32 slices of result dimension 0 (...why...)".
  std::string describe() const;
};

/// Finds a dimension of the first result along which `original` and
/// `candidate` are both uniform, with a reduced instance smaller than the
/// full one (of several, the one whose reduced arguments hold the fewest
/// elements); nothing, and why not in `whyNot`, otherwise.
std::optional<UniformDimension>
findUniformDimension(mlir::func::FuncOp original, mlir::func::FuncOp candidate,
                     std::string *whyNot = nullptr);

/// Copies of both functions, in a module of their own, with the dimension
/// shrunk to `dim.reducedExtent`: every value that carries it, and the grid
/// of every graph-defined kernel that partitions it (its tiles unchanged).
struct ReducedPair {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp original, candidate;
};

/// Fails, diagnosing nothing, when a copy does not pass the IR verifier
/// (then the pair is verified at full size).
mlir::FailureOr<ReducedPair> shrinkUniformDimension(
    mlir::func::FuncOp original, mlir::func::FuncOp candidate,
    const UniformDimension &dim);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_UNIFORMDIMENSION_H
