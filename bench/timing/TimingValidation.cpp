//===- TimingValidation.cpp - the timing model against published figures -===//
//
// mirage-timing-validation (docs/TimingModel.md, "Validation"): runs
// kernels whose hardware figures are published (STREAM, pointer chases,
// shared-memory latency and bank-conflict strides, mma.sync latency and
// throughput, a CUTLASS GEMM and Triton's fused softmax) in the PTX
// emulator under the timing model, at the published sizes, and prints
// model vs publication with each source. bench/run-timing-validation.sh
// runs it.
//
//   mirage-timing-validation [--chips=sm_80,sm_90] [--quick] [--json=F]
//   mirage-timing-validation --device=gpu [--calibration=F] [--json=F]
//
// --quick shrinks the sizes (STREAM 16x, GEMM 4096 to 1024) for a smoke
// run; the published comparison is for the full sizes. --device=gpu runs
// the same kernels on the GPU present through the CUDA driver API, timed
// with CUDA events (bench/gpu/run.sh), and --calibration then writes what
// they measured as a calibration file of the timing model.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/GpuEmulator.h"
#include "mirage/GpuTiming/TimingModel.h"
#include "mirage/Runtime/CudaDriver.h"
#include "mirage/Runtime/Occupancy.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <optional>
#include <map>
#include <random>

using namespace llvm;
using namespace mirage;
using namespace mirage::timing;

static cl::opt<std::string> chipList("chips",
                                     cl::desc("Chips to model (default "
                                              "sm_80,sm_90)"),
                                     cl::init("sm_80,sm_90"));
static cl::opt<bool> quick("quick",
                           cl::desc("Smaller sizes: a smoke run, not the "
                                    "published comparison"));
static cl::list<std::string>
    only("only", cl::desc("Run only these experiments: stream, latency, "
                          "shared, mma, cutlass, softmax, matmul"),
         cl::CommaSeparated);
static cl::opt<std::string>
    deviceKind("device",
               cl::desc("emulator (the timing model, default) or gpu (CUDA "
                        "events on the GPU present, for bench/gpu)"),
               cl::init("emulator"));
static cl::opt<std::string>
    cudaLibrary("cuda-library",
                cl::desc("With --device=gpu: the CUDA driver library "
                         "(default libcuda.so.1)"),
                cl::init("libcuda.so.1"));
static cl::opt<std::string> calibrationPath(
    "calibration",
    cl::desc("With --device=gpu: write the measured latencies, mma.sync "
             "fraction and achievable DRAM fraction as a calibration file "
             "for mirage-gpu-run --timing-calibration"),
    cl::value_desc("file.json"));
static cl::opt<std::string>
    sourceDir("source-dir",
              cl::desc("The repository root holding bench/timing and "
                       "unittests/GpuEmulator/Inputs (default: the one this "
                       "was built from; bench/gpu/run.sh passes its own)"),
              cl::init(MIRAGE_SOURCE_DIR));
static cl::opt<std::string> jsonPath("json",
                                     cl::desc("Also write the rows as JSON "
                                              "here"),
                                     cl::value_desc("file"));

namespace {

/// One row of the table.
struct Row {
  std::string chip, experiment, metric;
  double simulated = 0;
  /// The published figure (NaN when only a range or none is given), its
  /// text and source.
  double published = NAN;
  std::string publishedText, source;
};

std::vector<Row> rows;

[[noreturn]] void die(const Twine &message) {
  errs() << "mirage-timing-validation: " << message << "\n";
  exit(1);
}

template <typename T> T check(Expected<T> value, StringRef what) {
  if (!value)
    die(what + ": " + toString(value.takeError()));
  return std::move(*value);
}

/// Registers per thread of each kernel, from ptxas when it is there.
StringMap<gpurun::KernelResources> registersOf(StringRef ptxPath,
                                               StringRef arch) {
  Expected<std::string> ptxas = gpurun::findPtxas();
  if (!ptxas) {
    consumeError(ptxas.takeError());
    return {};
  }
  auto resources = gpurun::readKernelResources(*ptxas, ptxPath, arch);
  if (!resources) {
    errs() << "note: no registers for " << ptxPath << ": "
           << toString(resources.takeError()) << "\n";
    return {};
  }
  return std::move(*resources);
}

struct Module {
  std::string path;
  std::string text;
  emulator::PtxModule ptx;
  StringMap<gpurun::KernelResources> registers;
};

Module loadModule(StringRef path, StringRef arch, bool withRegisters) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    die("cannot read " + path);
  std::string text = (*buffer)->getBuffer().str();
  return {path.str(), text, check(emulator::parsePtx(text), path),
          withRegisters ? registersOf(path, arch)
                        : StringMap<gpurun::KernelResources>()};
}

/// Runs `kernel` under the timing model of `chip`; checkers off (the
/// kernels are checked by the emulator's own tests), all host cores.
KernelTiming timeLaunch(const ChipModel &chip, const Module &module,
                        StringRef kernel, std::array<unsigned, 3> grid,
                        std::array<unsigned, 3> block, uint64_t dynamicShared,
                        ArrayRef<uint64_t> args,
                        emulator::DeviceMemory &memory) {
  TimingOptions options;
  auto it = module.registers.find(kernel);
  if (it != module.registers.end())
    options.registersPerThread = it->second.registers;
  KernelTimer timer(chip,
                    check(emulator::describeKernel(module.ptx, kernel), kernel),
                    LaunchShape{grid, block, dynamicShared}, options);
  emulator::EmulatorOptions emulatorOptions;
  emulatorOptions.initcheck = false;
  emulatorOptions.racecheck = false;
  emulatorOptions.tracer = &timer;
  emulator::LaunchConfig config;
  config.grid = grid;
  config.block = block;
  config.dynamicSharedBytes = dynamicShared;
  auto start = std::chrono::steady_clock::now();
  emulator::KernelReport report = check(
      emulator::launchKernel(module.ptx, kernel, config, args, memory,
                             emulatorOptions),
      kernel);
  KernelTiming timing =
      check(timer.finish(double(report.profile.tensorCoreFlops)), kernel);
  errs() << formatv("  {0,-16} {1,10:f2} us simulated, {5} bound, issue "
                    "{6:f2} shared {7:f2} tensor {8:f2} hbm {9:f2} ({2:f1} s "
                    "emulated, {3} of {4} CTAs timed)\n",
                    kernel, timing.microseconds,
                    std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count(),
                    timing.simulatedCtas, timing.gridCtas,
                    boundName(timing.bound), timing.issueUtilization,
                    timing.sharedUtilization, timing.tensorUtilization,
                    timing.hbmUtilization);
  errs() << "    stalls:";
  for (unsigned i = 0; i < kNumStalls; ++i)
    errs() << formatv(" {0} {1:f0}%", stallName(Stall(i)),
                      100 * timing.stallShare[i]);
  errs() << formatv("; {0} CTAs/SM ({1}), {2} waves\n    pipes:",
                    timing.ctasPerSM, timing.occupancyLimit, timing.waves);
  for (unsigned u = 0; u < emulator::kNumTimingUnits; ++u)
    if (timing.pipeUtilization[u] >= 0.01)
      errs() << formatv(" {0} {1:f0}%",
                        emulator::timingUnitName(emulator::TimingUnit(u)),
                        100 * timing.pipeUtilization[u]);
  errs() << "\n    pipe-busy by unit:";
  for (unsigned u = 0; u < emulator::kNumTimingUnits; ++u)
    if (timing.pipeStallShare[u] >= 0.01)
      errs() << formatv(" {0} {1:f0}%",
                        emulator::timingUnitName(emulator::TimingUnit(u)),
                        100 * timing.pipeStallShare[u]);
  errs() << "\n";
  return timing;
}

/// The kernel's own time without the fixed ramp (what CUDA events around
/// many back-to-back launches, or clock reads, measure per kernel).
double kernelSeconds(const ChipModel &chip, const KernelTiming &t) {
  return double(t.cycles) / (chip.clockGHz() * 1e9);
}


/// Where the experiments run: the emulator under the timing model
/// (simulated), or a GPU through the CUDA driver API (measured). Buffers
/// are device addresses; every experiment starts with reset().
class Device {
public:
  virtual ~Device() = default;
  /// "simulated" or "measured".
  virtual StringRef label() const = 0;
  virtual void reset() = 0;
  virtual uint64_t allocate(uint64_t bytes) = 0;
  virtual void upload(uint64_t address, ArrayRef<uint8_t> bytes) = 0;
  /// Fills a buffer the kernel only reads: pseudo-random f16 values in
  /// [-1, 1) on a GPU (tensor cores draw less power on zeros, Luo et al.
  /// 2024), marked written on the emulator (the timing does not depend on
  /// the values).
  virtual void initialize(uint64_t address, uint64_t bytes) = 0;
  virtual uint32_t readU32(uint64_t address) = 0;
  /// The kernel's time in seconds, without its launch overhead.
  virtual double run(const Module &module, StringRef kernel,
                     std::array<unsigned, 3> grid,
                     std::array<unsigned, 3> block, uint64_t dynamicShared,
                     ArrayRef<uint64_t> args) = 0;
};

class EmulatorDevice : public Device {
public:
  explicit EmulatorDevice(const ChipModel &chip) : chip(chip) {}
  StringRef label() const override { return "simulated"; }
  void reset() override { memory = std::make_unique<emulator::DeviceMemory>(); }
  uint64_t allocate(uint64_t bytes) override {
    return memory->allocate(bytes);
  }
  void upload(uint64_t address, ArrayRef<uint8_t> bytes) override {
    if (Error e = memory->write(address, bytes))
      die(toString(std::move(e)));
  }
  void initialize(uint64_t address, uint64_t) override {
    memory->markInitialized(address);
  }
  uint32_t readU32(uint64_t address) override {
    return check(memory->readArray<uint32_t>(address, 1), "read")[0];
  }
  double run(const Module &module, StringRef kernel,
             std::array<unsigned, 3> grid, std::array<unsigned, 3> block,
             uint64_t dynamicShared, ArrayRef<uint64_t> args) override {
    return kernelSeconds(chip, timeLaunch(chip, module, kernel, grid, block,
                                          dynamicShared, args, *memory));
  }

private:
  const ChipModel &chip;
  std::unique_ptr<emulator::DeviceMemory> memory =
      std::make_unique<emulator::DeviceMemory>();
};

class GpuDevice : public Device {
public:
  GpuDevice(std::unique_ptr<gpurun::CudaDriver> driver,
            gpurun::CudaDevice device)
      : driver(std::move(driver)), device(device) {
    cuda(this->driver->streamCreate(&stream, 0), "cuStreamCreate");
    cuda(this->driver->eventCreate(&start, gpurun::cu::kEventDefault),
         "cuEventCreate");
    cuda(this->driver->eventCreate(&stop, gpurun::cu::kEventDefault),
         "cuEventCreate");
  }
  ~GpuDevice() override {
    reset();
    for (auto &entry : modules)
      (void)driver->moduleUnload(entry.second);
  }
  StringRef label() const override { return "measured"; }
  void reset() override {
    for (CUdeviceptr p : buffers)
      (void)driver->memFree(p);
    buffers.clear();
  }
  uint64_t allocate(uint64_t bytes) override {
    CUdeviceptr p = 0;
    cuda(driver->memAlloc(&p, std::max<uint64_t>(bytes, 1)), "cuMemAlloc");
    buffers.push_back(p);
    return p;
  }
  void upload(uint64_t address, ArrayRef<uint8_t> bytes) override {
    cuda(driver->memcpyHtoDAsync(address, bytes.data(), bytes.size(), stream),
         "cuMemcpyHtoDAsync");
    cuda(driver->streamSynchronize(stream), "cuStreamSynchronize");
  }
  void initialize(uint64_t address, uint64_t bytes) override {
    std::vector<uint16_t> values(bytes / 2);
    std::mt19937 rng(7);
    for (uint16_t &v : values) // sign, exponent 0 to 14, any mantissa
      v = uint16_t((rng() & 0x8000) | ((rng() % 15) << 10) | (rng() & 0x3ff));
    upload(address, ArrayRef<uint8_t>(
                        reinterpret_cast<const uint8_t *>(values.data()),
                        values.size() * 2));
  }
  uint32_t readU32(uint64_t address) override {
    uint32_t value = 0;
    cuda(driver->memcpyDtoHAsync(&value, address, 4, stream),
         "cuMemcpyDtoHAsync");
    cuda(driver->streamSynchronize(stream), "cuStreamSynchronize");
    return value;
  }
  double run(const Module &module, StringRef kernel,
             std::array<unsigned, 3> grid, std::array<unsigned, 3> block,
             uint64_t dynamicShared, ArrayRef<uint64_t> args) override {
    CUfunction function = functionOf(module, kernel, dynamicShared);
    // Each argument in its parameter's size (little-endian, as on the
    // emulator).
    const emulator::PtxKernel *ptxKernel = nullptr;
    for (const emulator::PtxKernel &k : module.ptx.kernels)
      if (k.name == kernel)
        ptxKernel = &k;
    if (!ptxKernel || ptxKernel->params.size() != args.size())
      die("kernel '" + kernel + "': wrong arguments");
    std::vector<uint64_t> storage(args.begin(), args.end());
    std::vector<void *> pointers;
    for (uint64_t &value : storage)
      pointers.push_back(&value);
    auto launch = [&] {
      cuda(driver->launchKernel(function, grid[0], grid[1], grid[2], block[0],
                                block[1], block[2], unsigned(dynamicShared),
                                stream, pointers.data(), nullptr),
           "cuLaunchKernel " + kernel);
    };
    // One untimed run, one to size the repetitions, then ~20 ms of them.
    launch();
    double once = timed(launch, 1);
    unsigned reps = unsigned(std::clamp(0.02 / std::max(once, 1e-7), 1.0, 50.0));
    double seconds = timed(launch, reps);
    errs() << formatv("  {0,-16} {1,10:f2} us measured ({2} runs)\n", kernel,
                      seconds * 1e6, reps);
    return seconds;
  }

private:
  void cuda(CUresult result, const Twine &what) {
    if (Error e = driver->check(result, what))
      die(toString(std::move(e)));
  }
  template <typename F> double timed(F &&launch, unsigned reps) {
    cuda(driver->eventRecord(start, stream), "cuEventRecord");
    for (unsigned i = 0; i < reps; ++i)
      launch();
    cuda(driver->eventRecord(stop, stream), "cuEventRecord");
    cuda(driver->eventSynchronize(stop), "cuEventSynchronize");
    float ms = 0;
    cuda(driver->eventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    return double(ms) * 1e-3 / reps;
  }
  CUfunction functionOf(const Module &module, StringRef kernel,
                        uint64_t dynamicShared) {
    CUmodule &loaded = modules[module.path];
    if (!loaded)
      cuda(driver->moduleLoadData(&loaded, module.text.c_str()),
           "cuModuleLoadData " + module.path);
    CUfunction function = nullptr;
    cuda(driver->moduleGetFunction(&function, loaded,
                                   std::string(kernel).c_str()),
         "cuModuleGetFunction " + kernel);
    if (dynamicShared > 48 * 1024)
      cuda(driver->funcSetAttribute(
               function,
               static_cast<CUfunction_attribute>(
                   gpurun::cu::kFuncAttributeMaxDynamicSharedSizeBytes),
               int(dynamicShared)),
           "cuFuncSetAttribute " + kernel);
    return function;
  }

  std::unique_ptr<gpurun::CudaDriver> driver;
  gpurun::CudaDevice device;
  CUstream stream = nullptr;
  CUevent start = nullptr, stop = nullptr;
  std::vector<CUdeviceptr> buffers;
  std::map<std::string, CUmodule> modules;
};

void add(StringRef chip, StringRef experiment, StringRef metric,
         double simulated, double published, StringRef publishedText,
         StringRef source) {
  rows.push_back({chip.str(), experiment.str(), metric.str(), simulated,
                  published, publishedText.str(), source.str()});
}

void stream(Device &dev, const Module &module, StringRef arch) {
  uint64_t n = quick ? uint64_t(1) << 20 : uint64_t(1) << 24; // float4s
  uint64_t bytes = n * 16;
  dev.reset();
  uint64_t a = dev.allocate(bytes), b = dev.allocate(bytes),
           c = dev.allocate(bytes);
  dev.initialize(a, bytes);
  dev.initialize(b, bytes);
  dev.initialize(c, bytes);
  std::array<unsigned, 3> grid = {unsigned(n / 256), 1, 1};
  double copy = dev.run(module, "stream_copy", grid, {256, 1, 1}, 0, {a, c, n});
  uint32_t scalarBits = 0x40400000; // 3.0f
  double triad = dev.run(module, "stream_triad", grid, {256, 1, 1}, 0,
                         {a, b, c, scalarBits, n});
  double copyGBs = 2.0 * bytes / copy / 1e9;
  double triadGBs = 3.0 * bytes / triad / 1e9;
  std::string size = formatv("STREAM float4, {0} MiB arrays", bytes >> 20);
  if (arch == "sm_80") {
    add(arch, size + ", copy", "GB/s", copyGBs, 1610, "1610",
        "Azure AI-benchmarking-guide, ND A100 v4 (A100-SXM4-80GB)");
    add(arch, size + ", triad", "GB/s", triadGBs, 1700, "1700",
        "Azure AI-benchmarking-guide, ND A100 v4 (A100-SXM4-80GB); "
        "the model's achievable fraction is from BabelStream's 1774");
  } else {
    add(arch, size + ", copy", "GB/s", copyGBs, 2900, "2900",
        "Azure AI-benchmarking-guide, ND H100 v5 (H100 80GB HBM3)");
    add(arch, size + ", triad", "GB/s", triadGBs, 2970, "2970",
        "Azure AI-benchmarking-guide, ND H100 v5; the model's achievable "
        "fraction is this figure");
  }
}

/// Cycles per dependent load of the P-chase over `bytes` with one slot
/// per `strideBytes`, the slots in a random cycle: two runs that differ by
/// `steps` loads after the same warm-up.
double chaseLatency(Device &dev, const ChipModel &chip, const Module &module,
                    uint64_t bytes, uint64_t strideBytes, unsigned warm,
                    unsigned steps, bool cached) {
  uint64_t slots = bytes / strideBytes;
  std::vector<uint64_t> order(slots);
  for (uint64_t i = 0; i < slots; ++i)
    order[i] = i;
  std::mt19937_64 rng(1);
  std::shuffle(order.begin() + 1, order.end(), rng);
  // Cycles at the chip's clock (on a GPU, its measured time at the
  // database's sustained clock).
  auto cycles = [&](unsigned measured) {
    dev.reset();
    uint64_t ring = dev.allocate(bytes), out = dev.allocate(8);
    std::vector<uint64_t> words(bytes / 8, 0);
    for (uint64_t i = 0; i < slots; ++i)
      words[order[i] * strideBytes / 8] =
          ring + order[(i + 1) % slots] * strideBytes;
    dev.upload(ring, ArrayRef<uint8_t>(
                         reinterpret_cast<const uint8_t *>(words.data()),
                         words.size() * 8));
    return dev.run(module, "chase", {1, 1, 1}, {1, 1, 1}, 0,
                   {ring, out, warm, measured, cached ? 1u : 0u}) *
           chip.clockGHz() * 1e9;
  };
  return (cycles(2 * steps) - cycles(steps)) / steps;
}

void latencies(Device &dev, const ChipModel &chip, const Module &module,
               StringRef arch) {
  bool a100 = arch == "sm_80";
  // L1: 16 KiB, 128-byte slots, warmed by one pass.
  double l1 = chaseLatency(dev, chip, module, 16 << 10, 128, 128, 512, true);
  // L2: 4 MiB (beyond L1, within L2) through .cg, warmed by a full pass.
  double l2 = chaseLatency(dev, chip, module, 4 << 20, 128, 32768, 2048, false);
  // HBM: 256 MiB in 4 KiB slots, no warm-up: every load of the first pass
  // is a line no one fetched.
  double hbm = chaseLatency(dev, chip, module, uint64_t(256) << 20, 4096, 0, 4096,
                            false);
  if (a100) {
    add(arch, "P-chase 16 KiB (L1 hit)", "cycles", l1, 33, "33 (37.9)",
        "Abdelkhalik 2022 Table IV (Luo 2024 Table IV, A100 PCIe)");
    add(arch, "P-chase 4 MiB .cg (L2 hit)", "cycles", l2, 261.5,
        "261.5 (200; near 208 / far 357)",
        "Luo 2024 Table IV, A100 PCIe (Abdelkhalik 2022 Table IV; Luo 2025 "
        "Table 4)");
    add(arch, "P-chase 256 MiB (HBM)", "cycles", hbm, 466.3,
        "466.3 (290; 566)",
        "Luo 2024 Table IV, A100 PCIe (Abdelkhalik 2022 Table IV; Luo 2025 "
        "Table 3)");
  } else {
    add(arch, "P-chase 16 KiB (L1 hit)", "cycles", l1, 40.7, "40.7",
        "Luo 2024 Table IV, H800 PCIe");
    add(arch, "P-chase 4 MiB .cg (L2 hit)", "cycles", l2, 263.0,
        "263.0 (near 264.5 / far 502)",
        "Luo 2024 Table IV, H800 PCIe (Luo 2025 Table 4)");
    add(arch, "P-chase 256 MiB (HBM)", "cycles", hbm, 478.8, "478.8 (656)",
        "Luo 2024 Table IV, H800 PCIe (Luo 2025 Table 3)");
  }

  // Shared memory: one thread, `steps` dependent ld.shared; two runs.
  auto sharedCycles = [&](unsigned steps) {
    dev.reset();
    uint64_t out = dev.allocate(4);
    return dev.run(module, "shared_chase", {1, 1, 1}, {32, 1, 1}, 0,
                   {out, steps}) *
           chip.clockGHz() * 1e9;
  };
  double shared = (sharedCycles(2048) - sharedCycles(1024)) / 1024;
  add(arch, "shared-memory P-chase", "cycles", shared, a100 ? 23 : 29.0,
      a100 ? "23 (29.0)" : "29.0",
      a100 ? "Abdelkhalik 2022 Table IV (Luo 2024 Table IV)"
           : "Luo 2024 Table IV, H800 PCIe");
}

void sharedStrides(Device &dev, const ChipModel &chip, const Module &module,
                   StringRef arch) {
  // 1024 threads, 8 x 64 loads each, on every SM: bytes per cycle per SM
  // at stride 1, and the slowdown of each power-of-two stride.
  unsigned sms = unsigned(chip.info().numSMs), reps = 64;
  auto cycles = [&](unsigned stride) {
    dev.reset();
    uint64_t out = dev.allocate(uint64_t(sms) * 1024 * 4);
    return dev.run(module, "shared_stride", {sms, 1, 1}, {1024, 1, 1}, 0,
                   {out, stride, reps}) *
           chip.clockGHz() * 1e9;
  };
  double base = cycles(1);
  double bytesPerCycle = 1024.0 * 8 * reps * 4 / base;
  add(arch, "shared loads, stride 1 word", "B/clk/SM", bytesPerCycle,
      arch == "sm_80" ? 128.0 : 127.9, arch == "sm_80" ? "128.0" : "127.9",
      "Luo 2024 Table V (A100 PCIe, H800 PCIe)");
  for (unsigned stride : {2u, 8u, 32u}) {
    double slowdown = cycles(stride) / base;
    add(arch, formatv("shared loads, stride {0} words", stride).str(),
        "time / stride 1", slowdown, double(stride), std::to_string(stride),
        "a k-way bank conflict takes k wavefronts (Jia et al. 2018, "
        "arXiv 1804.06826, shared memory bank conflicts)");
  }
}

void mma(Device &dev, const ChipModel &chip, const Module &module,
         StringRef arch) {
  auto run = [&](StringRef kernel, unsigned ctas, unsigned threads,
                 unsigned steps) {
    dev.reset();
    uint64_t out = dev.allocate(uint64_t(ctas) * threads * 4);
    return dev.run(module, kernel, {ctas, 1, 1}, {threads, 1, 1}, 0,
                   {out, steps});
  };
  double latency = (run("mma_chain", 1, 32, 512) - run("mma_chain", 1, 32, 256)) /
                   256 * chip.clockGHz() * 1e9;
  bool a100 = arch == "sm_80";
  add(arch, "mma.sync m16n8k16 dependent chain", "cycles", latency,
      a100 ? NAN : 24.0, a100 ? "not published" : "24.0",
      a100 ? "-" : "Luo 2024 Table VII, H800 PCIe");
  unsigned sms = unsigned(chip.info().numSMs), steps = quick ? 256 : 1024;
  double seconds = run("mma_throughput", sms, 256, steps);
  // 8 warps per CTA, 4 chains of `steps` m16n8k16 each.
  double flops = double(sms) * 8 * 4 * steps * 2 * 16 * 8 * 16;
  double peak = chip.info().getTensorCores(target::MmaType::F16).denseTflops;
  add(arch, "mma.sync m16n8k16 throughput", "% of f16 peak",
      100 * flops / seconds / 1e12 / peak, a100 ? 99.7 : 64.9,
      a100 ? "99.4-100 (310-312 TF)" : "64.9 (490.7 of 756.5 TF)",
      a100 ? "Abdelkhalik 2022 Table III (WMMA, HMMA.16816)"
           : "Luo 2024 Table VII, H800 PCIe");
}

void cutlassGemm(Device &dev, StringRef arch, bool withRegisters) {
  // The CUTLASS 2.x GEMM of the emulator's tests (sm_80 code: Ampere's
  // mma.sync and cp.async, what cuBLAS runs on A100).
  std::string path =
      sourceDir + "/unittests/GpuEmulator/Inputs/cutlass_gemm.sm_80.ptx";
  Module module = loadModule(path, arch, withRegisters);
  dev.reset();
  uint64_t sizeAddr = dev.allocate(4);
  dev.run(module, "shared_bytes", {1, 1, 1}, {1, 1, 1}, 0, {sizeAddr});
  uint32_t sharedBytes = dev.readU32(sizeAddr);
  unsigned m = quick ? 1024 : 4096;
  uint64_t a = dev.allocate(uint64_t(m) * m * 2),
           b = dev.allocate(uint64_t(m) * m * 2),
           c = dev.allocate(uint64_t(m) * m * 4);
  dev.initialize(a, uint64_t(m) * m * 2);
  dev.initialize(b, uint64_t(m) * m * 2);
  double seconds = dev.run(module, "cutlass_gemm", {m / 128, m / 128, 1},
                           {128, 1, 1}, sharedBytes, {a, b, c, m, m, m});
  double tflops = 2.0 * m * m * m / seconds / 1e12;
  std::string name =
      formatv("CUTLASS GEMM f16 {0}^3 (128x128x32, 3 stages)", m).str();
  if (arch == "sm_80")
    add(arch, name, "TFLOP/s", tflops, quick ? NAN : 228.0,
        quick ? "-" : "228.0 (cuBLASLt)",
        "Azure AI-benchmarking-guide, ND A100 v4, cuBLASLt f16 GEMM 4096^3 "
        "(A100-SXM4-80GB); not the same kernel");
  else
    add(arch, name, "TFLOP/s", tflops, NAN, "- (no mma.sync figure)",
        "H100 cuBLAS runs wgmma (797.8 TF at 8192^3, fast.cu README): not "
        "comparable with an sm_80 kernel");
}

/// A Triton kernel's launch: its arguments padded with null scratch
/// pointers, its threads from .reqntid (or .maxntid).
struct TritonKernel {
  const emulator::PtxKernel *kernel;
  unsigned threads;
};

TritonKernel tritonKernel(const Module &module, StringRef path) {
  if (module.ptx.kernels.empty())
    die("no kernel in " + path);
  const emulator::PtxKernel &k = module.ptx.kernels.front();
  unsigned threads = !k.reqntid.empty()   ? k.reqntid[0]
                     : !k.maxntid.empty() ? k.maxntid[0]
                                          : 128;
  return {&k, threads};
}

void tritonSoftmax(Device &dev, StringRef arch, bool withRegisters) {
  // Tutorial 02 at its M = 4096 rows, N = 4096 columns, f32.
  std::string path =
      sourceDir + "/bench/timing/triton_tutorial_softmax.sm_80.ptx";
  Module module = loadModule(path, arch, withRegisters);
  TritonKernel k = tritonKernel(module, path);
  unsigned rowsCount = quick ? 1024 : 4096, cols = 4096;
  dev.reset();
  uint64_t bytes = uint64_t(rowsCount) * cols * 4;
  uint64_t in = dev.allocate(bytes), out = dev.allocate(bytes);
  dev.initialize(in, bytes);
  SmallVector<uint64_t> args = {out, in, cols, cols, cols};
  while (args.size() < k.kernel->params.size())
    args.push_back(0);
  // 64 bytes of dynamic shared memory: the kernel's metadata.shared.
  double seconds = dev.run(module, k.kernel->name, {rowsCount, 1, 1},
                           {k.threads, 1, 1}, 64, args);
  double gbs = 2.0 * bytes / seconds / 1e9;
  bool published = arch == "sm_80" && !quick;
  add(arch,
      formatv("Triton tutorial softmax {0}x{1} f32", rowsCount, cols).str(),
      "GB/s", gbs, published ? 1420 : NAN, published ? "1400-1440" : "-",
      arch == "sm_80" ? "Triton tutorial 02's printed output (GPU not named; "
                        "A100-class, likely the 40 GB card at 1555 GB/s)"
                      : "-");
}

void tritonMatmul(Device &dev, StringRef arch, bool withRegisters) {
  // Tutorial 03 at 4096^3, 96 KiB of shared memory (two stages of A and
  // B tiles: the kernel's metadata.shared). Its sm_80 code: mma.sync,
  // ldmatrix, cp.async;
  // on sm_90 Triton would emit wgmma, which the emulator does not run yet).
  std::string path =
      sourceDir + "/bench/timing/triton_tutorial_matmul.sm_80.ptx";
  Module module = loadModule(path, arch, withRegisters);
  TritonKernel k = tritonKernel(module, path);
  unsigned m = quick ? 1024 : 4096;
  dev.reset();
  uint64_t a = dev.allocate(uint64_t(m) * m * 2),
           b = dev.allocate(uint64_t(m) * m * 2),
           c = dev.allocate(uint64_t(m) * m * 2);
  dev.initialize(a, uint64_t(m) * m * 2);
  dev.initialize(b, uint64_t(m) * m * 2);
  // (a, b, c, M, N, K, stride_am, stride_bk, stride_cm): the unit strides
  // are constants of the specialized kernel.
  SmallVector<uint64_t> args = {a, b, c, m, m, m, m, m, m};
  while (args.size() < k.kernel->params.size())
    args.push_back(0);
  unsigned programs = (m / 128) * (m / 256);
  double seconds = dev.run(module, k.kernel->name, {programs, 1, 1},
                           {k.threads, 1, 1}, 98304, args);
  double tflops = 2.0 * m * m * m / seconds / 1e12;
  bool published = arch == "sm_80" && !quick;
  add(arch,
      formatv("Triton tutorial matmul f16 {0}^3 (128x256x64, 3 stages)", m)
          .str(),
      "TFLOP/s", tflops, published ? 220.0 : NAN,
      published ? "220.0 (cuBLAS 219.7)" : "-",
      arch == "sm_80" ? "Triton tutorial 03's printed output (GPU not named, "
                        "A100-class)"
                      : "sm_80 code on the sm_90 model: no published figure");
}

/// The product a GPU is: its name against the database's, else its arch.
std::string productOf(const gpurun::CudaDevice &device) {
  StringRef name = device.name;
  if (name.contains("H200"))
    return "H200-SXM-141GB";
  if (name.contains("H100") || name.contains("H800"))
    return "H100-SXM5-80GB";
  if (name.contains("A100"))
    return "A100-SXM4-80GB";
  return "sm_" + std::to_string(device.computeCapability);
}

/// The timing model's parameters that the GPU rows measure, as a
/// calibration file for mirage-gpu-run --timing-calibration (latencies in
/// cycles at the database's sustained clock).
json::Object calibrationOf(const ChipModel &chip) {
  json::Object out;
  auto find = [&](StringRef prefix) -> const Row * {
    for (const Row &r : rows)
      if (StringRef(r.experiment).starts_with(prefix))
        return &r;
    return nullptr;
  };
  auto cycles = [&](StringRef prefix, StringRef key) {
    if (const Row *r = find(prefix))
      if (r->simulated > 0)
        out[key] = int64_t(std::lround(r->simulated));
  };
  cycles("P-chase 16 KiB", "timing.l1HitLatency");
  cycles("P-chase 4 MiB", "timing.l2HitLatency");
  cycles("P-chase 256 MiB", "timing.dramLatency");
  cycles("shared-memory P-chase", "timing.sharedLatency");
  cycles("mma.sync m16n8k16 dependent chain", "timing.mmaLatency");
  if (const Row *r = find("mma.sync m16n8k16 throughput"))
    out["timing.mmaSyncPeakFraction"] = std::min(1.0, r->simulated / 100);
  for (const Row &r : rows)
    if (StringRef(r.experiment).ends_with(", triad"))
      out["timing.dramAchievableFraction"] =
          std::min(1.0, r.simulated / chip.info().dramBandwidthGBs);
  return out;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "the timing model against published figures\n");
  bool onGpu = deviceKind == "gpu";
  if (!onGpu && deviceKind != "emulator")
    die("--device must be emulator or gpu");
  if (!onGpu && !calibrationPath.empty())
    die("--calibration needs --device=gpu: it holds measured values");

  // The chips: those asked for on the emulator, the one present on a GPU.
  SmallVector<std::string> chips;
  std::unique_ptr<GpuDevice> gpu;
  std::string gpuName;
  if (onGpu) {
    auto driver = gpurun::CudaDriver::load(cudaLibrary);
    if (!driver) {
      errs() << "mirage-timing-validation: no CUDA GPU: "
             << toString(driver.takeError()) << "\n";
      return 2;
    }
    auto device = gpurun::openDevice(**driver, 0);
    if (!device) {
      errs() << "mirage-timing-validation: no CUDA GPU: "
             << toString(device.takeError()) << "\n";
      return 2;
    }
    gpuName = device->name;
    chips.push_back(productOf(*device));
    gpu = std::make_unique<GpuDevice>(std::move(*driver), *device);
  } else {
    SmallVector<StringRef> names;
    StringRef(chipList).split(names, ',');
    for (StringRef n : names)
      chips.push_back(n.str());
  }

  std::optional<ChipModel> lastChip;
  for (const std::string &name : chips) {
    const target::TargetInfo &info = check(target::lookupTarget(name), name);
    ChipModel chip = check(ChipModel::get(info), name);
    lastChip.emplace(chip);
    StringRef arch = info.arch;
    errs() << arch << " (" << info.product << (onGpu ? ", " + gpuName : "")
           << "):\n";
    EmulatorDevice emulated(chip);
    Device &dev = onGpu ? static_cast<Device &>(*gpu) : emulated;
    std::string ptx =
        (sourceDir + "/bench/timing/microbenchmarks." + arch + ".ptx").str();
    Module micro = loadModule(ptx, arch, !onGpu);
    auto wanted = [&](StringRef experiment) {
      return only.empty() || llvm::is_contained(only, experiment);
    };
    if (wanted("stream"))
      stream(dev, micro, arch);
    if (wanted("latency"))
      latencies(dev, chip, micro, arch);
    if (wanted("shared"))
      sharedStrides(dev, chip, micro, arch);
    if (wanted("mma"))
      mma(dev, chip, micro, arch);
    if (wanted("cutlass"))
      cutlassGemm(dev, arch, !onGpu);
    if (wanted("softmax"))
      tritonSoftmax(dev, arch, !onGpu);
    if (wanted("matmul"))
      tritonMatmul(dev, arch, !onGpu);
  }

  StringRef label = onGpu ? "measured" : "simulated";
  outs() << "# " << (onGpu ? "measured on " + gpuName : std::string("timing model (simulated)"))
         << " vs published hardware figures"
         << (quick ? " (--quick sizes: not the published ones)" : "")
         << "\n";
  outs() << formatv("| {0} | {1} | {2} | {3} | {4} | {5} | {6} |\n", "chip",
                    "experiment", "metric", label, "published",
                    (label + " / published").str(), "source");
  outs() << "|---|---|---|---|---|---|---|\n";
  json::Array array;
  for (const Row &r : rows) {
    std::string ratio =
        std::isnan(r.published)
            ? "-"
            : formatv("{0:f2}", r.simulated / r.published).str();
    outs() << formatv("| {0} | {1} | {2} | {3:f1} | {4} | {5} | {6} |\n",
                      r.chip, r.experiment, r.metric, r.simulated,
                      r.publishedText, ratio, r.source);
    array.push_back(json::Object{
        {"chip", r.chip},
        {"experiment", r.experiment},
        {"metric", r.metric},
        {"label", label},
        {label, r.simulated},
        {"published", std::isnan(r.published) ? json::Value(nullptr)
                                              : json::Value(r.published)},
        {"source", r.source}});
  }
  if (onGpu && !calibrationPath.empty() && lastChip) {
    std::error_code ec;
    raw_fd_ostream os(calibrationPath, ec);
    if (ec)
      die("cannot write " + calibrationPath);
    os << formatv("{0:2}", json::Value(calibrationOf(*lastChip))) << "\n";
  }
  if (!jsonPath.empty()) {
    std::error_code ec;
    raw_fd_ostream os(jsonPath, ec);
    if (ec)
      die("cannot write " + jsonPath);
    os << formatv("{0:2}", json::Value(std::move(array))) << "\n";
  }
  return 0;
}
