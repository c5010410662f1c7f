//===- DirectKernels.h - kernels kernel-to-gpu writes itself ----*- C++ -*-===//
//
// Kernels with no block graph that --kernel-to-gpu writes straight into
// @mirage_kernels as gpu.func: the copy of a buffer to another (a result
// that no launch writes) and the indexing kernels (kernel.gather,
// kernel.gather_elements, kernel.one_hot), whose reads go where an index
// tensor says, which input iterators cannot express, and kernel.topk,
// which orders a row. Each is one thread per element of its output (topk:
// of its input), in a grid-stride loop; an index out of range traps (PTX
// `trap`: the launch fails, as a CUDA device-side assert does), never
// clamps.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_KERNELTOGPU_DIRECTKERNELS_H
#define MIRAGE_LIB_CONVERSION_KERNELTOGPU_DIRECTKERNELS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

namespace mirage {
namespace kernel {
class TopKOp;
} // namespace kernel

/// Threads per block of a direct kernel, and its largest grid: a
/// grid-stride loop covers the rest.
constexpr int64_t kDirectKernelThreads = 128;
constexpr int64_t kDirectKernelMaxBlocks = 65535;

/// Blocks for a direct kernel over `elements` outputs.
int64_t directKernelBlocks(int64_t elements);

/// Whether `op` is an indexing kernel that indexingKernel() writes.
bool isDirectIndexingKernel(mlir::Operation *op);

/// A direct kernel and how many elements its threads cover (the launch
/// takes directKernelBlocks of them).
struct DirectKernel {
  mlir::SymbolRefAttr symbol;
  int64_t elements;
};

/// The direct kernels of a module, made on first use in its
/// @mirage_kernels (created if the module has none).
class DirectKernels {
public:
  explicit DirectKernels(mlir::ModuleOp module) : module(module) {}

  /// The kernel that copies a `type` buffer to another: (src, dst).
  mlir::SymbolRefAttr copy(mlir::MemRefType type, mlir::Location loc);

  /// The kernel of an indexing op (isDirectIndexingKernel): its operands'
  /// buffers, then its results'.
  DirectKernel indexingKernel(mlir::Operation *op);

private:
  mlir::gpu::GPUModuleOp kernelModule(mlir::Location loc);
  mlir::SymbolRefAttr topkKernel(mlir::gpu::GPUModuleOp target,
                                 kernel::TopKOp op,
                                 llvm::ArrayRef<mlir::MemRefType> buffers);
  std::string freshName(llvm::StringRef base);

  mlir::ModuleOp module;
  mlir::gpu::GPUModuleOp gpuModule;
  llvm::StringSet<> taken;
  llvm::DenseMap<mlir::Type, mlir::SymbolRefAttr> copies;
};

} // namespace mirage

#endif // MIRAGE_LIB_CONVERSION_KERNELTOGPU_DIRECTKERNELS_H
