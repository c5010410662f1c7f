//===- Executor.h - running one CTA of a decoded kernel ---------*- C++ -*-===//

#ifndef MIRAGE_LIB_GPUEMULATOR_EXECUTOR_H
#define MIRAGE_LIB_GPUEMULATOR_EXECUTOR_H

#include "Decoder.h"
#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/Trace.h"
#include "llvm/ADT/DenseMap.h"

namespace mirage::emulator::detail {

/// The global bytes one CTA wrote during a launch (with initcheck), in
/// 8-byte words with a mask of their written bytes; launchKernel adds them
/// to the memory's shadow when the launch ends.
class GlobalWrites {
public:
  void add(uint64_t address, unsigned size) {
    for (uint64_t a = address; a < address + size; ++a)
      words[a / 8] |= uint8_t(1u << (a % 8));
  }
  bool contains(uint64_t address) const {
    auto it = words.find(address / 8);
    return it != words.end() && (it->second >> (address % 8) & 1);
  }
  const llvm::DenseMap<uint64_t, uint8_t> &byWord() const { return words; }
  void clear() { words.clear(); }

private:
  llvm::DenseMap<uint64_t, uint8_t> words;
};

/// Runs the CTA `ctaid` of `kernel` to completion, adding to `report` and
/// recording its global writes in `globalWrites` and, with a `tracer`, its
/// warp-level issues there. `params` is the parameter buffer laid out per
/// kernel.paramOffsets.
llvm::Error runCta(const DecodedKernel &kernel, const LaunchConfig &config,
                   std::array<unsigned, 3> ctaid,
                   llvm::ArrayRef<uint8_t> params, DeviceMemory &memory,
                   const EmulatorOptions &options, KernelReport &report,
                   GlobalWrites &globalWrites, CtaTracer *tracer = nullptr);

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_EXECUTOR_H
