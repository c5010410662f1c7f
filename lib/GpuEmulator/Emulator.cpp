//===- Emulator.cpp - running PTX kernels on the host ---------------------===//

#include "mirage/GpuEmulator/Emulator.h"
#include "Decoder.h"
#include "Executor.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

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

/// Runs the CTAs of the grid on worker threads that take them in grid order.
/// Reports are sums, so they do not depend on which worker ran which CTA;
/// after a fault no CTA later in grid order starts, and the fault of the
/// first faulting CTA is the one returned.
static llvm::Expected<KernelReport>
runGrid(const detail::DecodedKernel &kernel, const LaunchConfig &config,
        llvm::ArrayRef<uint8_t> params, DeviceMemory &memory,
        const EmulatorOptions &options) {
  uint64_t numCtas = uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
  unsigned workers = options.threads ? options.threads
                                     : std::thread::hardware_concurrency();
  workers = unsigned(std::clamp<uint64_t>(workers, 1, numCtas));
  // Global atomics make CTAs see each other's writes: in grid order, one
  // after another (an order the hardware may choose), the result does not
  // depend on the host's threads.
  if (kernel.hasGlobalAtomics)
    workers = 1;

  std::atomic<uint64_t> nextCta{0};
  std::atomic<uint64_t> firstFault{numCtas};
  std::mutex faultMutex;
  std::optional<llvm::Error> fault;
  std::vector<KernelReport> reports(workers);
  std::vector<std::vector<detail::GlobalWrites>> writes(workers);

  auto work = [&](unsigned worker) {
    // Counted on this thread's stack: workers' counters side by side in
    // `reports` would share cache lines at every instruction.
    KernelReport local;
    detail::GlobalWrites ctaWrites;
    for (;;) {
      uint64_t index = nextCta.fetch_add(1);
      if (index >= firstFault.load()) {
        reports[worker] = local;
        return;
      }
      std::array<unsigned, 3> ctaid = {
          unsigned(index % config.grid[0]),
          unsigned(index / config.grid[0] % config.grid[1]),
          unsigned(index / (uint64_t(config.grid[0]) * config.grid[1]))};
      std::unique_ptr<CtaTracer> tracer =
          options.tracer ? options.tracer->beginCta(index) : nullptr;
      llvm::Error err = detail::runCta(kernel, config, ctaid, params, memory,
                                       options, local, ctaWrites, tracer.get());
      if (tracer && !err)
        options.tracer->endCta(index, std::move(tracer));
      if (err) {
        std::lock_guard<std::mutex> lock(faultMutex);
        if (index < firstFault.load()) {
          if (fault)
            llvm::consumeError(std::move(*fault));
          fault.emplace(std::move(err));
          firstFault.store(index);
        } else {
          llvm::consumeError(std::move(err));
        }
      }
      if (!ctaWrites.byWord().empty()) {
        writes[worker].push_back(std::move(ctaWrites));
        ctaWrites.clear();
      }
    }
  };
  if (workers == 1) {
    work(0);
  } else {
    std::vector<std::thread> threads;
    for (unsigned w = 1; w < workers; ++w)
      threads.emplace_back(work, w);
    work(0);
    for (std::thread &thread : threads)
      thread.join();
  }
  if (fault)
    return std::move(*fault);

  // The launch is over: its writes become visible to the next ones.
  KernelReport report;
  for (unsigned w = 0; w < workers; ++w) {
    report += reports[w];
    for (const detail::GlobalWrites &cta : writes[w])
      for (auto [word, mask] : cta.byWord())
        for (unsigned b = 0; b < 8; ++b)
          if (mask >> b & 1)
            memory.markWritten(word * 8 + b, 1);
  }
  return report;
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

  return runGrid(*decoded, config, params, memory, options);
}
