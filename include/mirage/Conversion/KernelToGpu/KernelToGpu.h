//===- KernelToGpu.h - kernel -> gpu (host side) ----------------*- C++ -*-===//
//
// The host side (--kernel-to-gpu): each kernel graph becomes buffers and
// gpu.launch_func ops, and the kernels without a block graph (copies,
// indexing, top-k) are written straight into @mirage_kernels.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_KERNELTOGPU_KERNELTOGPU_H
#define MIRAGE_CONVERSION_KERNELTOGPU_KERNELTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL_KERNELTOGPU
#include "mirage/Conversion/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_CONVERSION_KERNELTOGPU_KERNELTOGPU_H
