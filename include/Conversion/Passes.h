//===- Passes.h - the conversions from graph to GPU -------------*- C++ -*-===//
//
// Every conversion's header, and the registration of all of them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_PASSES_H
#define MIRAGE_CONVERSION_PASSES_H

#include "Conversion/BlockToGpu/BlockToGpu.h"
#include "Conversion/GraphToKernel/GraphToKernel.h"
#include "Conversion/KernelToBlock/KernelToBlock.h"
#include "Conversion/KernelToGpu/KernelToGpu.h"
#include "Conversion/ThreadToArith/ThreadToArith.h"

namespace mirage {

#define GEN_PASS_REGISTRATION
#include "Conversion/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_CONVERSION_PASSES_H
