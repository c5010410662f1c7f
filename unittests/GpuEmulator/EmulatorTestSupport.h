//===- EmulatorTestSupport.h - running PTX text in the emulator -*- C++ -*-===//
//
// What the emulator's tests share: a PTX header, a launch of kernel `k`
// from PTX text, a one-dimensional launch configuration, a launch's failure
// message, reading a device buffer back, binary16 conversions on the host,
// and reading a file of Inputs/.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_UNITTESTS_GPUEMULATOR_EMULATORTESTSUPPORT_H
#define MIRAGE_UNITTESTS_GPUEMULATOR_EMULATORTESTSUPPORT_H

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>

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

/// IEEE binary16 to float, every encoding, computed on the host without
/// the emulator's arithmetic (the tests' references stay independent).
inline float hostFloatOfHalf(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude =
      exponent == 0    ? std::ldexp(float(mantissa), -24)
      : exponent == 31 ? (mantissa ? NAN : INFINITY)
                       : std::ldexp(float(mantissa | 0x400), exponent - 25);
  return sign ? -magnitude : magnitude;
}

/// Float to binary16 rounded to nearest even (normal range and zero; the
/// tests stay there).
inline uint16_t hostHalfOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = (bits >> 16) & 0x8000;
  float magnitude = std::fabs(value);
  if (magnitude == 0)
    return sign;
  int exponent;
  float fraction = std::frexp(magnitude, &exponent); // [0.5, 1)
  // 11 significant bits, rounded to nearest even by the host.
  float scaled = std::nearbyint(std::ldexp(fraction, 11));
  if (scaled == 2048) {
    scaled = 1024;
    ++exponent;
  }
  return sign | uint16_t((exponent + 14) << 10) |
         uint16_t(uint32_t(scaled) & 0x3ff);
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
