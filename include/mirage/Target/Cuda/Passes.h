//===- Passes.h - the CUDA target steps -------------------------*- C++ -*-===//
//
// The steps that make a CUDA program of a gpu.module converted to NVVM:
// --extern-dynamic-shared-memory, --attach-gpu-target and
// --emit-gpu-artifacts (PTX, cubin and the launch manifest).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TARGET_CUDA_PASSES_H
#define MIRAGE_TARGET_CUDA_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL
#include "mirage/Target/Cuda/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mirage/Target/Cuda/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_TARGET_CUDA_PASSES_H
