//===- KernelToBlock.h - kernel -> block ------------------------*- C++ -*-===//
//
// Default block graphs for the predefined kernels the search left
// (--kernel-to-block): a grid, a for-loop and the block ops that compute
// each kernel, sized for the target's shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_KERNELTOBLOCK_KERNELTOBLOCK_H
#define MIRAGE_CONVERSION_KERNELTOBLOCK_KERNELTOBLOCK_H

#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL_KERNELTOBLOCK
#include "mirage/Conversion/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_CONVERSION_KERNELTOBLOCK_KERNELTOBLOCK_H
