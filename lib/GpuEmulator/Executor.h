//===- Executor.h - running one CTA of a decoded kernel ---------*- C++ -*-===//

#ifndef MIRAGE_LIB_GPUEMULATOR_EXECUTOR_H
#define MIRAGE_LIB_GPUEMULATOR_EXECUTOR_H

#include "Decoder.h"
#include "GpuEmulator/Emulator.h"

namespace mirage::emulator::detail {

/// Runs the CTA `ctaid` of `kernel` to completion, adding to `report`.
/// `params` is the parameter buffer laid out per kernel.paramOffsets.
llvm::Error runCta(const DecodedKernel &kernel, const LaunchConfig &config,
                   std::array<unsigned, 3> ctaid,
                   llvm::ArrayRef<uint8_t> params, DeviceMemory &memory,
                   const EmulatorOptions &options, KernelReport &report);

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_EXECUTOR_H
