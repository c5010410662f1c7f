//===- GpuEmulator.h - the PTX emulator's entry header ----------*- C++ -*-===//
//
// The pieces of the functional PTX emulator (docs/GpuEmulator.md) that exist
// so far: the PTX parser (PtxParser.h, PtxModule.h), the numeric semantics
// of PTX instructions (PtxArithmetic.h) and the mma.sync m16n8k16 fragment
// layouts with a reference product (MmaFragments.h). The execution engine
// that runs kernels on them is not written yet.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_GPUEMULATOR_H
#define MIRAGE_GPUEMULATOR_GPUEMULATOR_H

#include "GpuEmulator/MmaFragments.h"
#include "GpuEmulator/PtxArithmetic.h"
#include "GpuEmulator/PtxModule.h"
#include "GpuEmulator/PtxParser.h"

#endif // MIRAGE_GPUEMULATOR_GPUEMULATOR_H
