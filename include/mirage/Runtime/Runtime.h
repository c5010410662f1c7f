//===- Runtime.h - running lowered programs: the entry header ---*- C++ -*-===//
//
// What running a program that --mirage-to-ptx lowered takes, apart from any
// tool's main(): the manifest (Manifest.h, read and written: the one
// schema emit-gpu-artifacts writes with) and its buffers' dtypes
// (Dtype.h), .npy files (Npy.h), seeded random inputs (RandomInputs.h),
// the PTX entry points checked against the manifest (PtxEntries.h), the
// CUDA driver API loaded at run time (CudaDriver.h) and a program on it
// (GpuProgram.h), the fp64 reference check (Reference.h), the `.approx`
// instructions' error bounds (ApproxInstructions.h), occupancy from ptxas
// (Occupancy.h) and the emulator's profile against the cost model
// (EmulatorProfile.h). mirage-gpu-run and mirage-run are mains over it.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_RUNTIME_H
#define MIRAGE_RUNTIME_RUNTIME_H

#include "mirage/Runtime/ApproxInstructions.h"
#include "mirage/Runtime/CudaDriver.h"
#include "mirage/Runtime/Dtype.h"
#include "mirage/Runtime/EmulatorProfile.h"
#include "mirage/Runtime/GpuProgram.h"
#include "mirage/Runtime/Manifest.h"
#include "mirage/Runtime/Npy.h"
#include "mirage/Runtime/Occupancy.h"
#include "mirage/Runtime/PtxEntries.h"
#include "mirage/Runtime/RandomInputs.h"
#include "mirage/Runtime/Reference.h"

#endif // MIRAGE_RUNTIME_RUNTIME_H
