//===- Dtype.h - the element types of GPU buffers ---------------*- C++ -*-===//
//
// The dtypes a manifest's buffers may have (docs/GpuLowering.md): f16, bf16
// and f32, and the index tensors' i32 and i64. The runner works in double
// on the host and converts at the boundary: to the buffer's bits, rounding
// to nearest even, before an upload, and back to double (exactly) after a
// download. Index values are integers below 2^53, exact in a double.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_DTYPE_H
#define MIRAGE_RUNTIME_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace mlir {
class Type;
} // namespace mlir

namespace mirage::gpurun {

enum class Dtype { F16, BF16, F32, I32, I64 };

/// i32 or i64: an index tensor's, drawn as positions and compared exactly.
bool isIndexDtype(Dtype dtype);

/// The manifest's spelling: "f16", "bf16", "f32", "i32", "i64".
llvm::StringRef dtypeName(Dtype dtype);
std::optional<Dtype> parseDtype(llvm::StringRef name);

/// Bytes per element.
unsigned dtypeSize(Dtype dtype);

/// The significand precision in bits (11, 8, 24; 53 for the index dtypes,
/// whose draws become positions), which the random input generator needs.
int dtypePrecision(Dtype dtype);

/// The largest finite value of `dtype`.
double dtypeLargest(Dtype dtype);

/// The spacing of `dtype`'s values at `x` (finite): the unit in the last
/// place of the binade that holds |x|, 2^(e - p + 1), with e at least the
/// smallest normal exponent (so the subnormals' spacing below it) and at
/// most the largest; 1 for the index dtypes.
double dtypeUlp(Dtype dtype, double x);

/// Whether `type` (an MLIR element type) is `dtype`.
/// The dtype of an element type, if it has one (f16, bf16, f32, i32, i64).
std::optional<Dtype> dtypeOf(mlir::Type type);

bool isDtype(mlir::Type type, Dtype dtype);

/// `values` in `dtype`, little-endian, each rounded to nearest even
/// (overflow gives infinity, NaN stays NaN); for an index dtype, rounded to
/// the nearest integer and saturated to its range (NaN gives 0).
std::vector<char> encode(Dtype dtype, llvm::ArrayRef<double> values);

/// The values of `bytes` (a whole number of `dtype` elements), exactly.
std::vector<double> decode(Dtype dtype, llvm::ArrayRef<char> bytes);

/// `x` rounded to `dtype` as encode does, as a double.
double roundTo(Dtype dtype, double x);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_DTYPE_H
