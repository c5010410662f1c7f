//===- Passes.h - the conversions from graph to GPU -------------*- C++ -*-===//
//
// Every conversion's header, and the registration of all of them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_PASSES_H
#define MIRAGE_CONVERSION_PASSES_H

#include "mirage/Conversion/BlockToGpu/BlockToGpu.h"
#include "mirage/Conversion/GraphToKernel/GraphToKernel.h"
#include "mirage/Conversion/KernelToBlock/KernelToBlock.h"
#include "mirage/Conversion/KernelToGpu/KernelToGpu.h"
#include "mirage/Conversion/ThreadToArith/ThreadToArith.h"

namespace mirage {

#define GEN_PASS_REGISTRATION
#include "mirage/Conversion/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_CONVERSION_PASSES_H
