//===- RandomInputs.h - seeded, platform-independent inputs -----*- C++ -*-===//
//
// The random inputs of mirage-run and mirage-gpu-run (docs/mirage-run.md,
// "Random inputs"): one std::mt19937_64 stream seeded by the caller, tensors
// in order, elements in row-major order, one 64-bit draw per element, each
// value on the grid {-1, -1 + 2^-p, ..., 1 - 2^-p} of the tensor's element
// type with its p-bit significand, times a power-of-two scale (1 unless the
// caller asks for larger inputs), which keeps it exact. Both tools share this code so that a GPU
// run and an interpreter run with the same seed see the same inputs.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_RANDOMINPUTS_H
#define MIRAGE_RUNTIME_RANDOMINPUTS_H

#include "mirage/Superopt/Semantics/Tensor.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace mirage {

/// What a random tensor needs: its shape and the significand precision p of
/// its element type (11 for f16, 8 for bf16, 24 for f32, 53 for f64).
struct RandomTensorSpec {
  llvm::ArrayRef<int64_t> shape;
  int precision;
};

/// The significand precision of a float type, capped at 53 (a double holds
/// every generated value exactly).
int significandPrecision(mlir::Type floatType);

/// Draws the tensors of `specs`, in order, from one stream seeded with
/// `seed`, each value times `scale` (a power of two).
llvm::SmallVector<superopt::Tensor<double>>
generateRandomInputs(llvm::ArrayRef<RandomTensorSpec> specs, uint64_t seed,
                     double scale = 1.0);

/// The same for a function's argument types, each a statically shaped tensor
/// of a float type.
llvm::SmallVector<superopt::Tensor<double>>
generateRandomInputs(mlir::TypeRange tensorTypes, uint64_t seed,
                     double scale = 1.0);

} // namespace mirage

#endif // MIRAGE_RUNTIME_RANDOMINPUTS_H
