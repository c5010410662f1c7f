//===- Emulator.cpp - running PTX kernels on the host ---------------------===//

#include "GpuEmulator/Emulator.h"
#include "Decoder.h"
#include "Executor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mirage::emulator;

static llvm::Error launchError(llvm::StringRef kernel, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "kernel '" + kernel.str() + "': " + why.str());
}

static llvm::Expected<detail::DecodedKernel>
decode(const PtxModule &module, llvm::StringRef kernelName) {
  for (const PtxKernel &kernel : module.kernels)
    if (kernel.name == kernelName)
      return detail::decodeKernel(module, kernel);
  return launchError(kernelName, "no such kernel in the module");
}

llvm::Error mirage::emulator::verifyKernel(const PtxModule &module,
                                           llvm::StringRef kernelName) {
  return decode(module, kernelName).takeError();
}

llvm::Expected<KernelReport> mirage::emulator::launchKernel(
    const PtxModule &module, llvm::StringRef kernelName,
    const LaunchConfig &config, llvm::ArrayRef<uint64_t> args,
    DeviceMemory &memory, const EmulatorOptions &options) {
  auto decoded = decode(module, kernelName);
  if (!decoded)
    return decoded.takeError();

  uint64_t threads =
      uint64_t(config.block[0]) * config.block[1] * config.block[2];
  // §5.2.1 / CUDA limits: at most 1024 threads per CTA.
  if (threads == 0 || threads > 1024)
    return launchError(kernelName,
                       llvm::formatv("block of {0} threads", threads));
  if (config.grid[0] == 0 || config.grid[1] == 0 || config.grid[2] == 0)
    return launchError(kernelName, "empty grid");
  if (args.size() != decoded->paramOffsets.size())
    return launchError(
        kernelName, llvm::formatv("{0} arguments for {1} parameters",
                                  args.size(), decoded->paramOffsets.size()));

  std::vector<uint8_t> params(decoded->paramBytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    uint64_t size = decoded->paramSizes[i];
    if (size > sizeof(uint64_t))
      return launchError(kernelName,
                         llvm::formatv("parameter {0} of {1} bytes is wider "
                                       "than an argument value",
                                       i, size));
    // Little-endian, like the device.
    for (uint64_t b = 0; b < size; ++b)
      params[decoded->paramOffsets[i] + b] = uint8_t(args[i] >> (8 * b));
  }

  KernelReport report;
  for (unsigned z = 0; z < config.grid[2]; ++z)
    for (unsigned y = 0; y < config.grid[1]; ++y)
      for (unsigned x = 0; x < config.grid[0]; ++x)
        if (llvm::Error err = detail::runCta(*decoded, config, {x, y, z},
                                             params, memory, options, report))
          return std::move(err);
  return report;
}
