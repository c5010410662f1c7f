//===- EmulatorTestSupport.h - running PTX text in the emulator -*- C++ -*-===//
//
// What the emulator's tests share: a PTX header, a launch of kernel `k`
// from PTX text, a one-dimensional launch configuration, a launch's failure
// message, reading a device buffer back, and reading a file of Inputs/.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_UNITTESTS_GPUEMULATOR_EMULATORTESTSUPPORT_H
#define MIRAGE_UNITTESTS_GPUEMULATOR_EMULATORTESTSUPPORT_H

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

namespace mirage::emulator::testing {

inline const char *kHeader = ".version 7.0\n.target sm_80\n.address_size 64\n";

/// Parses `ptx` (after kHeader) and launches its kernel `k`.
inline llvm::Expected<KernelReport> run(llvm::StringRef ptx, LaunchConfig config,
                                        llvm::ArrayRef<uint64_t> args,
                                        DeviceMemory &memory,
                                        EmulatorOptions options = {}) {
  auto module = parsePtx(kHeader + ptx.str());
  if (!module)
    return module.takeError();
  return launchKernel(*module, "k", config, args, memory, options);
}

inline LaunchConfig threads(unsigned count, unsigned ctas = 1) {
  LaunchConfig config;
  config.block = {count, 1, 1};
  config.grid = {ctas, 1, 1};
  return config;
}

/// The message of a failing launch, or "" when it succeeds.
inline std::string failure(llvm::Expected<KernelReport> report) {
  if (report)
    return "";
  return llvm::toString(report.takeError());
}

inline void expectSuccess(llvm::Error err) {
  if (err)
    ADD_FAILURE() << llvm::toString(std::move(err));
}

template <typename T>
std::vector<T> readBack(DeviceMemory &memory, uint64_t address, size_t count) {
  auto values = memory.readArray<T>(address, count);
  if (!values) {
    ADD_FAILURE() << llvm::toString(values.takeError());
    return std::vector<T>(count);
  }
  return *values;
}

/// A file of unittests/GpuEmulator/Inputs (nvcc's PTX and its sources).
inline std::string readInput(llvm::StringRef name) {
  auto buffer = llvm::MemoryBuffer::getFile(
      MIRAGE_SOURCE_DIR "/unittests/GpuEmulator/Inputs/" + name.str());
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << name.str();
    return "";
  }
  return (*buffer)->getBuffer().str();
}

} // namespace mirage::emulator::testing

#endif // MIRAGE_UNITTESTS_GPUEMULATOR_EMULATORTESTSUPPORT_H
