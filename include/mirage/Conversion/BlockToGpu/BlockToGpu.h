//===- BlockToGpu.h - block -> gpu ------------------------------*- C++ -*-===//
//
// The code generator (--block-to-gpu): each graph-defined kernel becomes a
// gpu.func in @mirage_kernels that runs its block graph, with its shared
// memory, copies, reductions, online softmax and tensor-core matmuls.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_BLOCKTOGPU_BLOCKTOGPU_H
#define MIRAGE_CONVERSION_BLOCKTOGPU_BLOCKTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL_BLOCKTOGPU
#include "mirage/Conversion/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_CONVERSION_BLOCKTOGPU_BLOCKTOGPU_H
