//===- Manifest.h - the GPU program manifest --------------------*- C++ -*-===//
//
// Reads and validates the JSON manifest that emit-gpu-artifacts writes next
// to the PTX and cubin (docs/GpuLowering.md, "The manifest"). Everything a
// launcher relies on is checked here, before any CUDA call, so that a bad
// manifest is reported the same way on a machine without a GPU: required
// fields and their types, dtypes, byte sizes against shapes, input and
// output indices, views, and the buffer names that launches pass.
// printManifest writes the same structures: the manifest has one schema,
// shared by the writer (emit-gpu-artifacts) and the readers.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_MANIFEST_H
#define MIRAGE_RUNTIME_MANIFEST_H

#include "mirage/Runtime/Dtype.h"
#include "mirage/Superopt/Semantics/Tensor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mirage::gpurun {

/// The manifest's "format" and the one "version" this schema reads and
/// writes.
inline constexpr const char *kManifestFormat = "mirage-gpu-manifest";
inline constexpr int64_t kManifestVersion = 1;

enum class Role { Input, Output, Temp, View };

llvm::StringRef roleName(Role role);

struct Buffer {
  std::string name;
  Role role;
  /// The argument (input) or result (output) index; 0 for the others.
  unsigned index = 0;
  superopt::TensorShape shape;
  Dtype dtype;
  uint64_t bytes;
  /// The position in Function::buffers of the buffer whose device memory
  /// this one uses: its own for all but views, view_of's for a view.
  unsigned storage;
};

struct Launch {
  std::string kernel;
  std::array<unsigned, 3> grid;
  std::array<unsigned, 3> block;
  unsigned dynamicSharedMemory;
  /// Positions in Function::buffers, one per kernel argument.
  llvm::SmallVector<unsigned> args;
};

struct Function {
  std::string name;
  /// The kernel-level function before lowering, as MLIR text.
  std::string reference;
  std::vector<Buffer> buffers;
  std::vector<Launch> launches;
  /// Positions in `buffers` of the inputs by argument index, and of the
  /// outputs by result index.
  llvm::SmallVector<unsigned> inputs;
  llvm::SmallVector<unsigned> outputs;
  /// Where the function is in the manifest, for messages: "functions[0]".
  std::string where;
};

struct Manifest {
  /// The manifest file, as given.
  std::string path;
  std::string chip;
  /// The PTX and cubin files, resolved against the manifest's folder; the
  /// cubin's is empty when the manifest names none.
  std::string ptxPath;
  std::string cubinPath;
  std::vector<Function> functions;
};

/// Parses and validates manifest `text`; `path` labels the messages and
/// anchors the relative file names.
llvm::Expected<Manifest> parseManifest(llvm::StringRef text,
                                       llvm::StringRef path);

/// Reads, parses and validates the manifest at `path`.
llvm::Expected<Manifest> loadManifest(llvm::StringRef path);

/// The manifest as JSON text, version 1: what emit-gpu-artifacts writes.
/// The PTX and cubin are named relative to `manifest.path`'s folder when
/// they lie in it; a function without a reference omits it; a view names
/// the buffer of its `storage`. parseManifest reads back what this writes.
std::string printManifest(const Manifest &manifest);

/// "[2, 4096]".
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_MANIFEST_H
