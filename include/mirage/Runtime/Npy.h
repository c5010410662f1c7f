//===- Npy.h - read and write NumPy .npy files ------------------*- C++ -*-===//
//
// The subset of the .npy format (NumPy's format.py) that mirage-run needs to
// exchange tensors with NumPy without depending on it: C-order arrays of
// little-endian IEEE floats. Files of format version 1.0 and 2.0 with dtype
// '<f8', '<f4' or '<f2' are read (every element converts to double exactly);
// files are written as version 1.0 (2.0 only when the header needs it) with
// dtype '<f8', so no precision is lost on the way out either.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_NPY_H
#define MIRAGE_RUNTIME_NPY_H

#include "mirage/Superopt/Semantics/Tensor.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace mirage::npy {

using Array = superopt::Tensor<double>;

/// Decodes an IEEE 754 binary16 bit pattern; exact, as every half is a
/// double.
double halfToDouble(uint16_t bits);

/// Parses the contents of a .npy file. `name` only labels the error messages.
/// With `integers`, '<i8' and '<i4' data (an index tensor's) is read too,
/// exactly (below 2^53).
llvm::Expected<Array> parse(llvm::StringRef bytes, llvm::StringRef name,
                            bool integers = false);

/// Reads and parses the .npy file at `path`.
llvm::Expected<Array> read(llvm::StringRef path, bool integers = false);

/// The .npy encoding of `array` as '<f8', C order.
std::string serialize(const Array &array);

/// Writes `array` to `path` as '<f8'; the file is replaced atomically.
llvm::Error write(llvm::StringRef path, const Array &array);

} // namespace mirage::npy

#endif // MIRAGE_RUNTIME_NPY_H
