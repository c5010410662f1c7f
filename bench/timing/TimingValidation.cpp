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
//
// --quick shrinks the sizes (STREAM 16x, GEMM 4096 to 1024) for a smoke
// run; the published comparison is for the full sizes.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/GpuEmulator.h"
#include "mirage/GpuTiming/TimingModel.h"
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

emulator::PtxModule readPtx(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    die("cannot read " + path);
  return check(emulator::parsePtx((*buffer)->getBuffer()), path);
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
  emulator::PtxModule ptx;
  StringMap<gpurun::KernelResources> registers;
};

Module loadModule(StringRef path, StringRef arch) {
  return {readPtx(path), registersOf(path, arch)};
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

void add(StringRef chip, StringRef experiment, StringRef metric,
         double simulated, double published, StringRef publishedText,
         StringRef source) {
  rows.push_back({chip.str(), experiment.str(), metric.str(), simulated,
                  published, publishedText.str(), source.str()});
}

const char *kBabelStream =
    "BabelStream triad on A100-SXM4-80GB, 1774 GB/s (UoB-HPC/BabelStream "
    "issue 137)";

void stream(const ChipModel &chip, const Module &module, StringRef arch) {
  uint64_t n = quick ? uint64_t(1) << 20 : uint64_t(1) << 24; // float4s
  uint64_t bytes = n * 16;
  emulator::DeviceMemory memory;
  uint64_t a = memory.allocate(bytes), b = memory.allocate(bytes),
           c = memory.allocate(bytes);
  memory.markInitialized(a);
  memory.markInitialized(b);
  memory.markInitialized(c);
  std::array<unsigned, 3> grid = {unsigned(n / 256), 1, 1};
  KernelTiming copy = timeLaunch(chip, module, "stream_copy", grid,
                                 {256, 1, 1}, 0, {a, c, n}, memory);
  uint32_t scalarBits = 0x40400000; // 3.0f
  KernelTiming triad = timeLaunch(chip, module, "stream_triad", grid,
                                  {256, 1, 1}, 0, {a, b, c, scalarBits, n},
                                  memory);
  double copyGBs = 2.0 * bytes / kernelSeconds(chip, copy) / 1e9;
  double triadGBs = 3.0 * bytes / kernelSeconds(chip, triad) / 1e9;
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
  (void)kBabelStream;
}

/// Cycles per dependent load of the P-chase over `bytes` with one slot
/// per `strideBytes`, the slots in a random cycle: two runs that differ by
/// `steps` loads after the same warm-up.
double chaseLatency(const ChipModel &chip, const Module &module,
                    uint64_t bytes, uint64_t strideBytes, unsigned warm,
                    unsigned steps, bool cached) {
  uint64_t slots = bytes / strideBytes;
  std::vector<uint64_t> order(slots);
  for (uint64_t i = 0; i < slots; ++i)
    order[i] = i;
  std::mt19937_64 rng(1);
  std::shuffle(order.begin() + 1, order.end(), rng);
  auto cycles = [&](unsigned measured) {
    emulator::DeviceMemory memory;
    uint64_t ring = memory.allocate(bytes), out = memory.allocate(8);
    std::vector<uint64_t> words(bytes / 8, 0);
    for (uint64_t i = 0; i < slots; ++i)
      words[order[i] * strideBytes / 8] =
          ring + order[(i + 1) % slots] * strideBytes;
    if (Error e = memory.writeArray<uint64_t>(ring, words))
      die(toString(std::move(e)));
    KernelTiming t = timeLaunch(chip, module, "chase", {1, 1, 1}, {1, 1, 1},
                                0, {ring, out, warm, measured, cached ? 1u : 0u},
                                memory);
    return double(t.cycles);
  };
  return (cycles(2 * steps) - cycles(steps)) / steps;
}

void latencies(const ChipModel &chip, const Module &module, StringRef arch) {
  bool a100 = arch == "sm_80";
  // L1: 16 KiB, 128-byte slots, warmed by one pass.
  double l1 = chaseLatency(chip, module, 16 << 10, 128, 128, 512, true);
  // L2: 4 MiB (beyond L1, within L2) through .cg, warmed by a full pass.
  double l2 = chaseLatency(chip, module, 4 << 20, 128, 32768, 2048, false);
  // HBM: 256 MiB in 4 KiB slots, no warm-up: every load of the first pass
  // is a line no one fetched.
  double hbm = chaseLatency(chip, module, uint64_t(256) << 20, 4096, 0, 4096,
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
    emulator::DeviceMemory memory;
    uint64_t out = memory.allocate(4);
    return double(timeLaunch(chip, module, "shared_chase", {1, 1, 1},
                             {32, 1, 1}, 0, {out, steps}, memory)
                      .cycles);
  };
  double shared = (sharedCycles(2048) - sharedCycles(1024)) / 1024;
  add(arch, "shared-memory P-chase", "cycles", shared, a100 ? 23 : 29.0,
      a100 ? "23 (29.0)" : "29.0",
      a100 ? "Abdelkhalik 2022 Table IV (Luo 2024 Table IV)"
           : "Luo 2024 Table IV, H800 PCIe");
}

void sharedStrides(const ChipModel &chip, const Module &module,
                   StringRef arch) {
  // 1024 threads, 8 x 64 loads each, on every SM: bytes per cycle per SM
  // at stride 1, and the slowdown of each power-of-two stride.
  unsigned sms = unsigned(chip.info().numSMs), reps = 64;
  auto cycles = [&](unsigned stride) {
    emulator::DeviceMemory memory;
    uint64_t out = memory.allocate(uint64_t(sms) * 1024 * 4);
    KernelTiming t = timeLaunch(chip, module, "shared_stride", {sms, 1, 1},
                                {1024, 1, 1}, 0, {out, stride, reps}, memory);
    return double(t.cycles);
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

void mma(const ChipModel &chip, const Module &module, StringRef arch) {
  auto run = [&](StringRef kernel, unsigned ctas, unsigned threads,
                 unsigned steps) {
    emulator::DeviceMemory memory;
    uint64_t out = memory.allocate(uint64_t(ctas) * threads * 4);
    return timeLaunch(chip, module, kernel, {ctas, 1, 1}, {threads, 1, 1}, 0,
                      {out, steps}, memory);
  };
  double latency =
      (double(run("mma_chain", 1, 32, 512).cycles) -
       double(run("mma_chain", 1, 32, 256).cycles)) /
      256;
  bool a100 = arch == "sm_80";
  add(arch, "mma.sync m16n8k16 dependent chain", "cycles", latency,
      a100 ? NAN : 24.0, a100 ? "not published" : "24.0",
      a100 ? "-" : "Luo 2024 Table VII, H800 PCIe");
  unsigned sms = unsigned(chip.info().numSMs);
  KernelTiming t = run("mma_throughput", sms, 256, quick ? 256 : 1024);
  double tflops = t.tensorFlops / kernelSeconds(chip, t) / 1e12;
  double peak = chip.info().getTensorCores(target::MmaType::F16).denseTflops;
  add(arch, "mma.sync m16n8k16 throughput", "% of f16 peak",
      100 * tflops / peak, a100 ? 99.7 : 64.9,
      a100 ? "99.4-100 (310-312 TF)" : "64.9 (490.7 of 756.5 TF)",
      a100 ? "Abdelkhalik 2022 Table III (WMMA, HMMA.16816)"
           : "Luo 2024 Table VII, H800 PCIe");
}

void cutlassGemm(const ChipModel &chip, StringRef arch) {
  // The CUTLASS 2.x GEMM of the emulator's tests (sm_80 code: Ampere's
  // mma.sync and cp.async, what cuBLAS runs on A100).
  std::string path = MIRAGE_SOURCE_DIR
      "/unittests/GpuEmulator/Inputs/cutlass_gemm.sm_80.ptx";
  Module module = loadModule(path, arch);
  emulator::DeviceMemory memory;
  uint64_t sizeAddr = memory.allocate(4);
  emulator::LaunchConfig one;
  check(emulator::launchKernel(module.ptx, "shared_bytes", one, {sizeAddr},
                               memory),
        "shared_bytes");
  uint32_t sharedBytes = check(memory.readArray<uint32_t>(sizeAddr, 1),
                               "shared_bytes")[0];
  unsigned m = quick ? 1024 : 4096;
  uint64_t a = memory.allocate(uint64_t(m) * m * 2),
           b = memory.allocate(uint64_t(m) * m * 2),
           c = memory.allocate(uint64_t(m) * m * 4);
  memory.markInitialized(a);
  memory.markInitialized(b);
  KernelTiming t =
      timeLaunch(chip, module, "cutlass_gemm", {m / 128, m / 128, 1},
                 {128, 1, 1}, sharedBytes, {a, b, c, m, m, m}, memory);
  double tflops = 2.0 * m * m * m / kernelSeconds(chip, t) / 1e12;
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

void tritonSoftmax(const ChipModel &chip, StringRef arch) {
  // Tutorial 02 at its M = 4096 rows, N = 4096 columns, f32.
  std::string path =
      MIRAGE_SOURCE_DIR "/bench/timing/triton_tutorial_softmax.sm_80.ptx";
  Module module = loadModule(path, arch);
  TritonKernel k = tritonKernel(module, path);
  unsigned rowsCount = quick ? 1024 : 4096, cols = 4096;
  emulator::DeviceMemory memory;
  uint64_t bytes = uint64_t(rowsCount) * cols * 4;
  uint64_t in = memory.allocate(bytes), out = memory.allocate(bytes);
  memory.markInitialized(in);
  SmallVector<uint64_t> args = {out, in, cols, cols, cols};
  while (args.size() < k.kernel->params.size())
    args.push_back(0);
  // 64 bytes of dynamic shared memory: the kernel's metadata.shared.
  KernelTiming t = timeLaunch(chip, module, k.kernel->name, {rowsCount, 1, 1},
                              {k.threads, 1, 1}, 64, args, memory);
  double gbs = 2.0 * bytes / kernelSeconds(chip, t) / 1e9;
  bool published = arch == "sm_80" && !quick;
  add(arch,
      formatv("Triton tutorial softmax {0}x{1} f32", rowsCount, cols).str(),
      "GB/s", gbs, published ? 1420 : NAN, published ? "1400-1440" : "-",
      arch == "sm_80" ? "Triton tutorial 02's printed output (GPU not named; "
                        "A100-class, likely the 40 GB card at 1555 GB/s)"
                      : "-");
}

void tritonMatmul(const ChipModel &chip, StringRef arch) {
  // Tutorial 03 at 4096^3, 96 KiB of shared memory (two stages of A and
  // B tiles: the kernel's metadata.shared). Its sm_80 code: mma.sync,
  // ldmatrix, cp.async;
  // on sm_90 Triton would emit wgmma, which the emulator does not run yet).
  std::string path =
      MIRAGE_SOURCE_DIR "/bench/timing/triton_tutorial_matmul.sm_80.ptx";
  Module module = loadModule(path, arch);
  TritonKernel k = tritonKernel(module, path);
  unsigned m = quick ? 1024 : 4096;
  emulator::DeviceMemory memory;
  uint64_t a = memory.allocate(uint64_t(m) * m * 2),
           b = memory.allocate(uint64_t(m) * m * 2),
           c = memory.allocate(uint64_t(m) * m * 2);
  memory.markInitialized(a);
  memory.markInitialized(b);
  // (a, b, c, M, N, K, stride_am, stride_bk, stride_cm): the unit strides
  // are constants of the specialized kernel.
  SmallVector<uint64_t> args = {a, b, c, m, m, m, m, m, m};
  while (args.size() < k.kernel->params.size())
    args.push_back(0);
  unsigned programs = (m / 128) * (m / 256);
  KernelTiming t = timeLaunch(chip, module, k.kernel->name, {programs, 1, 1},
                              {k.threads, 1, 1}, 98304, args, memory);
  double tflops = 2.0 * m * m * m / kernelSeconds(chip, t) / 1e12;
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

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "the timing model against published figures\n");
  SmallVector<StringRef> chips;
  StringRef(chipList).split(chips, ',');
  for (StringRef arch : chips) {
    ChipModel chip = check(
        ChipModel::get(check(target::lookupTarget(arch), arch)), arch);
    errs() << arch << " (" << chip.info().product << "):\n";
    std::string ptx = (Twine(MIRAGE_SOURCE_DIR) + "/bench/timing/microbenchmarks." +
                       arch + ".ptx")
                          .str();
    Module micro = loadModule(ptx, arch);
    auto wanted = [&](StringRef name) {
      return only.empty() || llvm::is_contained(only, name);
    };
    if (wanted("stream"))
      stream(chip, micro, arch);
    if (wanted("latency"))
      latencies(chip, micro, arch);
    if (wanted("shared"))
      sharedStrides(chip, micro, arch);
    if (wanted("mma"))
      mma(chip, micro, arch);
    if (wanted("cutlass"))
      cutlassGemm(chip, arch);
    if (wanted("softmax"))
      tritonSoftmax(chip, arch);
    if (wanted("matmul"))
      tritonMatmul(chip, arch);
  }

  outs() << "# timing model (simulated) vs published hardware figures"
         << (quick ? " (--quick sizes: not the published ones)" : "")
         << "\n";
  outs() << formatv("| {0} | {1} | {2} | {3} | {4} | {5} | {6} |\n", "chip",
                    "experiment", "metric", "simulated", "published",
                    "model / published", "source");
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
        {"simulated", r.simulated},
        {"published", std::isnan(r.published) ? json::Value(nullptr)
                                              : json::Value(r.published)},
        {"source", r.source}});
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
