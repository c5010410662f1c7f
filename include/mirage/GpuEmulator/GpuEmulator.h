//===- GpuEmulator.h - the PTX emulator's entry header ----------*- C++ -*-===//
//
// The functional PTX emulator (docs/GpuEmulator.md): the PTX parser
// (PtxParser.h, PtxModule.h), the numeric semantics of PTX instructions
// (PtxArithmetic.h), the mma.sync m16n8k16 fragment layouts with a reference
// product (MmaFragments.h), the execution engine that runs kernels over
// device memory (Emulator.h) and the trace a timing model replays
// (Trace.h).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_GPUEMULATOR_H
#define MIRAGE_GPUEMULATOR_GPUEMULATOR_H

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/MmaFragments.h"
#include "mirage/GpuEmulator/PtxArithmetic.h"
#include "mirage/GpuEmulator/PtxModule.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "mirage/GpuEmulator/Trace.h"

#endif // MIRAGE_GPUEMULATOR_GPUEMULATOR_H
