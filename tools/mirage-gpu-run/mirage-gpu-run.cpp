//===- mirage-gpu-run.cpp - run a lowered program on a GPU and check it ---===//
//
// Loads a manifest written by emit-gpu-artifacts (docs/GpuLowering.md), runs
// one of its functions on the GPU through the CUDA driver API on seeded
// random or given inputs, compares every output with the fp64 interpreter's
// run of the function's reference (or with given expected outputs), and
// times the whole launch sequence, directly and as a CUDA graph. With
// --emulate, the PTX emulator (lib/GpuEmulator) runs the launches instead,
// with its memory, initcheck and racecheck checks, and no GPU is needed.
// docs/mirage-gpu-run.md describes the options, the output and the exit
// codes.
//
// Everything that can be checked without a GPU (the manifest, the
// reference, the inputs) is checked before the first CUDA call, so that
// those errors read the same on every machine.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/ApproxInstructions.h"
#include "mirage/Runtime/CudaDriver.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mirage/Runtime/Dtype.h"
#include "mirage/Runtime/EmulatorProfile.h"
#include "mirage/GpuEmulator/GpuEmulator.h"
#include "mirage/GpuTiming/TimingModel.h"
#include "mirage/Runtime/GpuProgram.h"
#include "mirage/Runtime/Manifest.h"
#include "mirage/Runtime/Npy.h"
#include "mirage/Runtime/PtxEntries.h"
#include "mirage/Runtime/RandomInputs.h"
#include "mirage/Runtime/Reference.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

using namespace llvm;
using namespace mirage;
using namespace mirage::gpurun;
using superopt::RealTensor;

static cl::OptionCategory runCategory("mirage-gpu-run options");

static cl::opt<std::string> manifestPath(cl::Positional, cl::Required,
                                         cl::desc("<manifest.json>"),
                                         cl::cat(runCategory));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Function of the manifest to run (may be left out "
                          "when it has exactly one)"),
                 cl::value_desc("name"), cl::cat(runCategory));
static cl::opt<uint64_t>
    seed("seed",
         cl::desc("Seed of the random inputs (default 0), drawn as "
                  "mirage-run draws them"),
         cl::init(0), cl::cat(runCategory));
static cl::opt<double>
    inputScale("scale",
               cl::desc("Random inputs uniform in [-S, S) instead of [-1, "
                        "1): the same draws times S, a power of two (as "
                        "mirage-run --scale)"),
               cl::init(1.0), cl::cat(runCategory));
static cl::list<std::string>
    inputFiles("input",
               cl::desc("A .npy file per input, in order, instead of random "
                        "inputs; rounded to the buffer's dtype"),
               cl::value_desc("file.npy"), cl::CommaSeparated,
               cl::cat(runCategory));
static cl::list<std::string>
    expectedFiles("expected",
                  cl::desc("A .npy file per output, in order: compare with "
                           "these instead of running the reference"),
                  cl::value_desc("file.npy"), cl::CommaSeparated,
                  cl::cat(runCategory));
static cl::opt<double>
    tolerance("tolerance",
              cl::desc("Largest relative error that passes (default 1e-2)"),
              cl::init(1e-2), cl::cat(runCategory));
static cl::opt<double> maxUlp(
    "max-ulp",
    cl::desc("Also check every element: at most this many units in the last "
             "place of the output's dtype at the reference value (the "
             "subnormals' spacing below the normal range)"),
    cl::cat(runCategory));
static cl::opt<std::string>
    outputDir("output-dir",
              cl::desc("Write the GPU's outputs (out0.npy, ...) and the "
                       "reference's (ref0.npy, ...) here"),
              cl::value_desc("dir"), cl::cat(runCategory));
static cl::opt<unsigned>
    warmup("warmup", cl::desc("Untimed runs before timing (default 10)"),
           cl::init(10), cl::cat(runCategory));
static cl::opt<unsigned>
    iterations("iters",
               cl::desc("Timed runs (default 100; 0 skips the timing)"),
               cl::init(100), cl::cat(runCategory));
static cl::opt<bool>
    cudaGraph("cuda-graph",
              cl::desc("Also time the launches captured as one CUDA graph"),
              cl::cat(runCategory));
static cl::opt<bool>
    preferPtx("ptx",
              cl::desc("Load the PTX (JIT-compiled by the driver) even when "
                       "there is a cubin"),
              cl::cat(runCategory));
static cl::opt<bool>
    jsonOutput("json",
               cl::desc("Print one JSON object with the results on stdout "
                        "(the readable report goes to stderr)"),
               cl::cat(runCategory));
static cl::opt<bool>
    checkOnly("check-only",
              cl::desc("Only validate the manifest and its references; no "
                       "GPU needed. With --emulate, also parse the PTX and "
                       "decode every launched kernel without running it"),
              cl::cat(runCategory));
static cl::opt<bool>
    emulate("emulate",
            cl::desc("Run the launches on the PTX emulator instead of a GPU "
                     "(no GPU needed), with its memory checks"),
            cl::cat(runCategory));
static cl::opt<bool>
    noInitcheck("no-initcheck",
                cl::desc("With --emulate: allow uses of never-written "
                         "memory"),
                cl::cat(runCategory));
static cl::opt<bool>
    noRacecheck("no-racecheck",
                cl::desc("With --emulate: allow shared-memory races between "
                         "barriers"),
                cl::cat(runCategory));
static cl::opt<unsigned> emulateThreads(
    "emulate-threads",
    cl::desc("With --emulate: host threads running CTAs in parallel (default "
             "0: one per core); results do not depend on it"),
    cl::init(0), cl::cat(runCategory));
static cl::opt<bool>
    profileKernels("profile",
                   cl::desc("With --emulate: count instruction classes, "
                            "global sectors, shared-memory bank conflicts "
                            "and occupancy (from ptxas -v) per launch"),
                   cl::cat(runCategory));
static cl::opt<bool> timingModel(
    "timing",
    cl::desc("With --emulate: predict each launch's time with the timing "
             "model (docs/TimingModel.md): bound, fractions of peak, stalls; "
             "--cuda-graph charges a graph's launch overhead"),
    cl::cat(runCategory));
static cl::opt<std::string> timingTarget(
    "timing-target",
    cl::desc("With --timing: the GPU to model, a product of the target "
             "database (default: the manifest's chip, e.g. sm_90 is the "
             "H100-SXM5-80GB)"),
    cl::value_desc("name"), cl::cat(runCategory));
static cl::opt<unsigned> timingSMs(
    "timing-sms",
    cl::desc("With --timing: SMs simulated in detail (default 1); the "
             "kernel takes the slowest"),
    cl::init(1), cl::cat(runCategory));
static cl::opt<std::string> timingCalibration(
    "timing-calibration",
    cl::desc("With --timing: a calibration file (bench/gpu writes one) "
             "whose measured values replace the target database's"),
    cl::value_desc("file.json"), cl::cat(runCategory));
static cl::opt<std::string> timingTrace(
    "timing-trace",
    cl::desc("With --timing: write a Chrome/Perfetto trace of the sampled "
             "SMs' CTAs here"),
    cl::value_desc("file.json"), cl::cat(runCategory));
static cl::opt<int> deviceOrdinal("device",
                                  cl::desc("CUDA device to use (default 0)"),
                                  cl::init(0), cl::cat(runCategory));
static cl::opt<std::string>
    cudaLibrary("cuda-library",
                cl::desc("The CUDA driver library to load (default "
                         "libcuda.so.1)"),
                cl::value_desc("path"), cl::init("libcuda.so.1"),
                cl::cat(runCategory));

namespace {
/// The exit statuses (docs/mirage-gpu-run.md).
enum ExitStatus : int {
  kPass = 0,
  kError = 1,
  kNoGpu = 2,
  kMismatch = 3,
};
} // namespace

static raw_ostream &error() {
  return WithColor::error(errs(), "mirage-gpu-run");
}

static raw_ostream &warning() {
  return WithColor::warning(errs(), "mirage-gpu-run");
}

static int fail(Error e) {
  error() << toString(std::move(e)) << "\n";
  return kError;
}

//===----------------------------------------------------------------------===//
// Choosing and checking what to run
//===----------------------------------------------------------------------===//

static const Function *selectFunction(const Manifest &manifest) {
  auto listNames = [&](raw_ostream &os) {
    interleaveComma(manifest.functions, os,
                    [&](const Function &f) { os << '"' << f.name << '"'; });
  };
  if (functionName.getNumOccurrences()) {
    for (const Function &f : manifest.functions)
      if (f.name == functionName)
        return &f;
    raw_ostream &os = error();
    os << manifest.path << ": no function \"" << functionName
       << "\"; it defines ";
    listNames(os);
    os << "\n";
    return nullptr;
  }
  if (manifest.functions.size() == 1)
    return &manifest.functions.front();
  raw_ostream &os = error();
  os << manifest.path << " defines " << manifest.functions.size()
     << " functions (";
  listNames(os);
  os << "); choose one with --function\n";
  return nullptr;
}

/// Reads the module files. A run needs the cubin or the PTX (the PTX with
/// --ptx); the one it cannot use is only noted. The launches are checked
/// against the PTX's kernels (names, parameters, block bounds); without a
/// PTX, a note says they were not.
static Expected<ModuleImages> readImages(const Manifest &manifest) {
  ModuleImages images;
  images.ptxPath = manifest.ptxPath;
  images.cubinPath = manifest.cubinPath;
  std::string ptxError, cubinError = "the manifest names no cubin";
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> ptx =
          MemoryBuffer::getFile(manifest.ptxPath, /*IsText=*/false))
    images.ptx = (*ptx)->getBuffer().str();
  else
    ptxError = ptx.getError().message();
  if (!manifest.cubinPath.empty()) {
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> cubin =
            MemoryBuffer::getFile(manifest.cubinPath, /*IsText=*/false))
      images.cubin = (*cubin)->getBuffer().str();
    else
      cubinError = cubin.getError().message();
  }
  if ((preferPtx || emulate) && !images.ptx)
    return createStringError(inconvertibleErrorCode(),
                             manifest.path + ": cannot read the PTX '" +
                                 manifest.ptxPath + "': " + ptxError);
  if (!images.ptx && !images.cubin)
    return createStringError(
        inconvertibleErrorCode(),
        manifest.path + ": cannot read the PTX '" + manifest.ptxPath + "' (" +
            ptxError + ") nor the cubin" +
            (manifest.cubinPath.empty() ? ""
                                        : " '" + manifest.cubinPath + "'") +
            " (" + cubinError + ")");
  if (!images.ptx) {
    WithColor::note(errs(), "mirage-gpu-run")
        << manifest.path << ": no PTX to check the launches against the "
        << "kernels' signatures\n";
    return images;
  }
  Expected<emulator::PtxModule> ptx =
      readPtxModule(*images.ptx, manifest.ptxPath);
  if (!ptx)
    return ptx.takeError();
  if (Error e = checkLaunchesAgainstPtx(manifest, *ptx))
    return std::move(e);
  images.ptxModule = std::move(*ptx);
  return images;
}

static void printSummary(raw_ostream &os, const Manifest &manifest,
                         const Function &function) {
  os << manifest.path << ": valid: function \"" << function.name << "\", "
     << function.inputs.size() << " input"
     << (function.inputs.size() == 1 ? "" : "s") << ", "
     << function.outputs.size() << " output"
     << (function.outputs.size() == 1 ? "" : "s") << ", "
     << function.buffers.size() << " buffers, " << function.launches.size()
     << " launch" << (function.launches.size() == 1 ? "" : "es") << "\n";
}

static int checkManifest(mlir::MLIRContext &context, const Manifest &manifest) {
  SmallVector<const Function *> functions;
  if (functionName.getNumOccurrences()) {
    const Function *f = selectFunction(manifest);
    if (!f)
      return kError;
    functions.push_back(f);
  } else {
    for (const Function &f : manifest.functions)
      functions.push_back(&f);
  }
  Expected<ModuleImages> images = readImages(manifest);
  if (!images)
    return fail(images.takeError());
  // With --emulate: every instruction of every launched kernel must be one
  // the emulator runs, so that a cheap check of a large program tells
  // whether --emulate could run it.
  const emulator::PtxModule *ptx =
      emulate && images->ptxModule ? &*images->ptxModule : nullptr;
  for (const Function *f : functions) {
    if (failed(Reference::load(context, manifest, *f)))
      return kError;
    if (ptx)
      for (auto [i, launch] : enumerate(f->launches))
        if (Error e = emulator::verifyKernel(*ptx, launch.kernel)) {
          error() << "function \"" << f->name << "\" launch " << i
                  << " (kernel '" << launch.kernel
                  << "'): " << toString(std::move(e)) << "\n";
          return kError;
        }
    printSummary(outs(), manifest, *f);
  }
  if (ptx)
    outs() << "every launched kernel decodes for the emulator\n";
  return kPass;
}

//===----------------------------------------------------------------------===//
// Inputs and expected outputs
//===----------------------------------------------------------------------===//

static std::string formatNumber(double x);

/// Reads one .npy file per buffer of `positions` and checks its shape.
static Expected<SmallVector<RealTensor>>
readTensors(const Function &function, ArrayRef<unsigned> positions,
            ArrayRef<std::string> files, StringRef option, StringRef role) {
  if (files.size() != positions.size())
    return createStringError(
        inconvertibleErrorCode(),
        "function \"" + function.name + "\" has " + Twine(positions.size()) +
            " " + role + (positions.size() == 1 ? "" : "s") + ", but " +
            Twine(files.size()) + " --" + option + " file" +
            (files.size() == 1 ? " was" : "s were") + " given");
  SmallVector<RealTensor> tensors;
  for (auto [i, position, file] : enumerate(positions, files)) {
    const Buffer &buffer = function.buffers[position];
    bool index = isIndexDtype(buffer.dtype);
    Expected<npy::Array> array = npy::read(file, /*integers=*/index);
    if (!array)
      return array.takeError();
    // Positions are integers: rounding 2.5 to a position would be a guess.
    if (index)
      for (double x : array->data)
        if (x != std::nearbyint(x))
          return createStringError(
              inconvertibleErrorCode(),
              "--" + option + " '" + file + "' holds " + formatNumber(x) +
                  ", but " + role + " " + Twine(i) + " (\"" + buffer.name +
                  "\") is an index tensor of " + dtypeName(buffer.dtype) +
                  "; give it integers");
    if (ArrayRef<int64_t>(array->shape) != ArrayRef<int64_t>(buffer.shape))
      return createStringError(inconvertibleErrorCode(),
                               "--" + option + " '" + file + "' has shape " +
                                   formatShape(array->shape) + ", but " + role +
                                   " " + Twine(i) + " (\"" + buffer.name +
                                   "\") has shape " +
                                   formatShape(buffer.shape));
    tensors.push_back(std::move(*array));
  }
  return tensors;
}

/// The inputs as the GPU will see them: random on the buffer dtype's grid
/// (exact in it), or the given files rounded to the dtype, so that the
/// reference runs on exactly the uploaded values. An index input's draws
/// (one per element from the same stream, in [-1, 1) before the scale)
/// become positions uniform in [0, bound), as the verifier draws them.
static Expected<SmallVector<RealTensor>> makeInputs(const Function &function,
                                                    const Reference &reference) {
  if (!inputFiles.empty()) {
    Expected<SmallVector<RealTensor>> inputs =
        readTensors(function, function.inputs, inputFiles, "input", "input");
    if (!inputs)
      return inputs.takeError();
    for (auto [tensor, position] : zip_equal(*inputs, function.inputs))
      for (double &x : tensor.data)
        x = roundTo(function.buffers[position].dtype, x);
    return inputs;
  }
  SmallVector<RandomTensorSpec> specs;
  for (unsigned position : function.inputs) {
    const Buffer &buffer = function.buffers[position];
    specs.push_back({buffer.shape, dtypePrecision(buffer.dtype)});
  }
  SmallVector<RealTensor> inputs =
      generateRandomInputs(specs, seed, inputScale);
  for (auto [i, position] : enumerate(function.inputs)) {
    if (!isIndexDtype(function.buffers[position].dtype))
      continue;
    double bound = static_cast<double>(reference.indexBound(i));
    for (double &x : inputs[i].data)
      x = std::min(bound - 1, std::floor((x / inputScale + 1) / 2 * bound));
  }
  return inputs;
}

static std::string formatNumber(double x);

/// --scale is a positive power of two (so the scaled draws stay exact) that
/// every input's dtype can hold, and applies to random inputs only; --max-ulp
/// is a number >= 0.
static LogicalResult checkInputScale(const Function &function) {
  int exponent;
  if (!std::isfinite(inputScale) || inputScale <= 0 ||
      std::frexp(inputScale, &exponent) != 0.5) {
    error() << "--scale must be a positive power of two (so that the scaled "
               "inputs stay exact), got "
            << formatNumber(inputScale) << "\n";
    return failure();
  }
  if (inputScale.getNumOccurrences() && !inputFiles.empty()) {
    error() << "--scale applies to random inputs only; it cannot be used "
               "with --input\n";
    return failure();
  }
  for (unsigned position : function.inputs) {
    const Buffer &buffer = function.buffers[position];
    // Index inputs are positions, never scaled.
    if (!isIndexDtype(buffer.dtype) && inputScale > dtypeLargest(buffer.dtype)) {
      error() << "--scale=" << formatNumber(inputScale)
              << " exceeds the largest " << dtypeName(buffer.dtype)
              << " value " << formatNumber(dtypeLargest(buffer.dtype))
              << " of input \"" << buffer.name << "\"\n";
      return failure();
    }
  }
  if (maxUlp.getNumOccurrences() && !(maxUlp >= 0 && maxUlp <= 1e300)) {
    error() << "--max-ulp must be a number >= 0, got "
            << formatNumber(maxUlp) << "\n";
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Comparison and reporting
//===----------------------------------------------------------------------===//

namespace {
struct Comparison {
  double maxAbsError = 0;
  double maxAbsReference = 0;
  double relativeError = 0;
  /// Where the largest error is, or -1 when every element matches.
  int64_t worst = -1;
  /// Elements that are NaN or infinite on the GPU where the reference is
  /// finite.
  int64_t nonFinite = 0;
  /// With --max-ulp: the largest error in units of the dtype's spacing at
  /// the reference value, and where it is (-1 when none).
  double maxUlpError = 0;
  int64_t worstUlp = -1;
  bool pass = false;
};
} // namespace

static Comparison compare(ArrayRef<double> gpu, ArrayRef<double> ref,
                          Dtype dtype) {
  Comparison c;
  for (auto [i, g, r] : enumerate(gpu, ref)) {
    if (std::isfinite(r)) {
      c.maxAbsReference = std::max(c.maxAbsReference, std::fabs(r));
      if (!std::isfinite(g))
        ++c.nonFinite;
    }
    // Equal values, equal infinities and NaN against NaN agree; a NaN
    // against a number is an infinite error, so that it cannot hide.
    double err = 0;
    if (!(g == r || (std::isnan(g) && std::isnan(r)))) {
      err = std::fabs(g - r);
      if (std::isnan(err))
        err = std::numeric_limits<double>::infinity();
    }
    if (err > c.maxAbsError || (c.worst < 0 && err > 0)) {
      c.maxAbsError = err;
      c.worst = static_cast<int64_t>(i);
    }
    // A reference beyond the dtype's range (infinite after rounding) is
    // measured in the top binade's spacing.
    double ulps = std::isfinite(r) ? err / dtypeUlp(dtype, r) : err;
    if (ulps > c.maxUlpError || (c.worstUlp < 0 && ulps > 0)) {
      c.maxUlpError = ulps;
      c.worstUlp = static_cast<int64_t>(i);
    }
  }
  c.relativeError =
      c.maxAbsError /
      std::max(c.maxAbsReference, std::numeric_limits<double>::min());
  // Index outputs are positions: exact or wrong.
  c.pass = isIndexDtype(dtype)
               ? c.maxAbsError == 0
               : c.relativeError <= tolerance &&
                     (!maxUlp.getNumOccurrences() || c.maxUlpError <= maxUlp);
  return c;
}

static SmallVector<int64_t> unflatten(int64_t index, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    result[d] = index % shape[d];
    index /= shape[d];
  }
  return result;
}

/// A number for the JSON output; JSON has no NaN or infinity.
static json::Value jsonNumber(double x) {
  if (std::isfinite(x))
    return x;
  return nullptr;
}

static std::string formatNumber(double x) {
  return formatv("{0}", format("%.3e", x)).str();
}

static json::Value jsonTiming(const std::optional<Timing> &timing) {
  if (!timing)
    return nullptr;
  return json::Object{{"median", timing->medianUs}, {"min", timing->minUs}};
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

static LogicalResult writeTensor(StringRef name, const RealTensor &tensor) {
  SmallString<128> path(outputDir);
  sys::path::append(path, name);
  if (Error e = npy::write(path, tensor)) {
    error() << "cannot write '" << path << "': " << toString(std::move(e))
            << "\n";
    return failure();
  }
  return success();
}

namespace {
/// What running the launches produced, for the shared comparison and
/// report.
struct Execution {
  SmallVector<RealTensor> outputs;
  /// Report lines that go after the comparison (the timings).
  std::string trailer;
  /// The JSON fields that describe the target (device, module, timings).
  json::Object json;
};
} // namespace

/// Runs the launches on the GPU, reads the outputs back and times the
/// program.
static int runOnGpu(const Manifest &manifest, const Function &function,
                    const ModuleImages &images, ArrayRef<RealTensor> inputs,
                    raw_ostream &log, Execution &result) {
  SmallVectorImpl<RealTensor> &outputs = result.outputs;
  Expected<std::unique_ptr<CudaDriver>> driver = CudaDriver::load(cudaLibrary);
  if (!driver) {
    error() << "no CUDA GPU: " << toString(driver.takeError()) << "\n";
    return kNoGpu;
  }
  Expected<CudaDevice> device = openDevice(**driver, deviceOrdinal);
  if (!device) {
    error() << "no CUDA GPU: " << toString(device.takeError()) << "\n";
    return kNoGpu;
  }
  scope_exit closeOnExit([&] { closeDevice(**driver, *device); });
  log << "device " << deviceOrdinal << ": " << device->name << " (sm_"
      << device->computeCapability << ", driver "
      << device->driverVersion / 1000 << "."
      << device->driverVersion % 1000 / 10 << ")\n";
  if (StringRef(manifest.chip).drop_front(3).rtrim("af") !=
      std::to_string(device->computeCapability))
    log << "note: the program was compiled for " << manifest.chip
        << ", the device is sm_" << device->computeCapability << "\n";

  // One run, checked launch by launch.
  std::optional<Timing> plainTime, graphTime;
  std::string moduleKind;
  {
    Expected<std::unique_ptr<GpuProgram>> program =
        GpuProgram::create(**driver, function, images, preferPtx, log);
    if (!program)
      return fail(program.takeError());
    moduleKind = (*program)->moduleKind().str();
    log << "function \"" << function.name << "\": " << function.launches.size()
        << " launch" << (function.launches.size() == 1 ? "" : "es")
        << ", module from the " << moduleKind << " '"
        << (moduleKind == "cubin" ? images.cubinPath : images.ptxPath) << "'\n";
    for (auto [i, tensor, position] : enumerate(inputs, function.inputs))
      if (Error e = (*program)->uploadInput(
              i, encode(function.buffers[position].dtype, tensor.data)))
        return fail(std::move(e));
    if (Error e = (*program)->poison())
      return fail(std::move(e));
    if (Error e = (*program)->runChecked())
      return fail(std::move(e));
    for (auto [i, position] : enumerate(function.outputs)) {
      const Buffer &buffer = function.buffers[position];
      Expected<std::vector<char>> bytes = (*program)->downloadOutput(i);
      if (!bytes)
        return fail(bytes.takeError());
      outputs.emplace_back(buffer.shape, decode(buffer.dtype, *bytes));
    }

    if (iterations > 0) {
      Expected<Timing> timing =
          (*program)->time(warmup, iterations, /*cudaGraph=*/false);
      if (!timing)
        return fail(timing.takeError());
      plainTime = *timing;
      if (cudaGraph) {
        timing = (*program)->time(warmup, iterations, /*cudaGraph=*/true);
        if (!timing)
          return fail(timing.takeError());
        graphTime = *timing;
      }
    }
  }
  raw_string_ostream trailer(result.trailer);
  auto printTime = [&](StringRef label, const std::optional<Timing> &t) {
    if (t)
      trailer << label << ": median " << format("%.2f", t->medianUs)
              << " us, min " << format("%.2f", t->minUs) << " us ("
              << t->iterations << " runs after " << warmup << " warm-up)\n";
  };
  printTime("time", plainTime);
  printTime("time as a CUDA graph", graphTime);
  result.json = json::Object{
      {"device", device->name},
      {"compute_capability", device->computeCapability},
      {"module", moduleKind},
      {"time_us", json::Object{{"warmup", warmup.getValue()},
                               {"iterations", iterations.getValue()},
                               {"plain", jsonTiming(plainTime)},
                               {"graph", jsonTiming(graphTime)}}}};
  return kPass;
}

/// Adds ptxas's registers and the occupancy to each launch's profile; says
/// why when it cannot (no ptxas, a chip the cost model does not know).
static void addOccupancy(const Manifest &manifest, const ModuleImages &images,
                         const Function &function,
                         MutableArrayRef<LaunchProfile> profiles,
                         raw_ostream &log) {
  Expected<std::string> ptxas = findPtxas();
  if (!ptxas) {
    log << "profile: no registers or occupancy: "
        << toString(ptxas.takeError()) << "\n";
    return;
  }
  Expected<StringMap<KernelResources>> resources =
      readKernelResources(*ptxas, images.ptxPath, manifest.chip);
  if (!resources) {
    log << "profile: no registers or occupancy: "
        << toString(resources.takeError()) << "\n";
    return;
  }
  Expected<superopt::GpuTarget> target =
      superopt::GpuTarget::get(manifest.chip);
  if (!target)
    log << "profile: no occupancy: " << toString(target.takeError()) << "\n";
  for (auto [launch, profile] : zip_equal(function.launches, profiles)) {
    auto it = resources->find(launch.kernel);
    if (it == resources->end())
      continue;
    profile.resources = it->second;
    if (target)
      profile.occupancy = computeOccupancy(
          *target, it->second,
          launch.block[0] * launch.block[1] * launch.block[2],
          launch.dynamicSharedMemory,
          uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2]);
  }
}

/// Runs the launches on the PTX emulator: every buffer in emulated device
/// memory, the inputs written, the outputs and temps left unwritten so that
/// initcheck catches a read of memory no kernel wrote.
static int runOnEmulator(const Manifest &manifest, const Function &function,
                         const ModuleImages &images,
                         ArrayRef<RealTensor> inputs, raw_ostream &log,
                         Execution &result) {
  // readImages parsed the PTX (--emulate needs it).
  const std::optional<emulator::PtxModule> &module = images.ptxModule;
  log << "emulator: function \"" << function.name
      << "\": " << function.launches.size() << " launch"
      << (function.launches.size() == 1 ? "" : "es") << ", PTX '"
      << images.ptxPath << "' (" << manifest.chip << ")\n";

  // Every kernel decodes before anything runs: an unsupported instruction
  // in the last launch is reported before the first one has run.
  for (auto [i, launch] : enumerate(function.launches))
    if (Error e = emulator::verifyKernel(*module, launch.kernel)) {
      error() << "launch " << i << " (kernel '" << launch.kernel
              << "'): " << toString(std::move(e)) << "\n";
      return kError;
    }

  // The emulator's .approx results are correctly rounded, a GPU's only
  // within the ISA's bound: say which the kernels use, and warn when the
  // tolerance leaves little room for that difference.
  std::vector<std::string> kernelNames;
  for (const Launch &launch : function.launches)
    kernelNames.push_back(launch.kernel);
  std::vector<ApproxUse> approx = findApproxUses(*module, kernelNames);
  json::Array approxJson;
  if (!approx.empty()) {
    log << "approximate instructions (correctly rounded here; a GPU within "
           "the PTX ISA's bound):";
    double worst = 0;
    for (auto [i, use] : enumerate(approx)) {
      log << (i ? ", " : " ") << use.instruction << " (" << use.bound << ")";
      worst = std::max(worst, use.relative);
      approxJson.push_back(json::Object{{"instruction", use.instruction},
                                        {"bound", use.bound}});
    }
    log << "\n";
    if (16 * worst > tolerance)
      warning() << "the tolerance " << formatNumber(tolerance)
                << " leaves less than 16x room over the relative error "
                << formatNumber(worst)
                << " a GPU may add to an approximate instruction\n";
  }

  emulator::DeviceMemory memory;
  SmallVector<uint64_t> addresses(function.buffers.size(), 0);
  for (auto [i, buffer] : enumerate(function.buffers))
    if (buffer.storage == i)
      addresses[i] = memory.allocate(std::max<uint64_t>(buffer.bytes, 1));
  for (auto [i, buffer] : enumerate(function.buffers))
    if (buffer.storage != i)
      addresses[i] = addresses[buffer.storage];
  for (auto [tensor, position] : zip_equal(inputs, function.inputs)) {
    const Buffer &buffer = function.buffers[position];
    std::vector<char> bytes = encode(buffer.dtype, tensor.data);
    if (Error e = memory.write(
            addresses[position],
            ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()),
                              bytes.size())))
      return fail(std::move(e));
    memory.markInitialized(addresses[position]);
  }

  // The timing model: its chip, and ptxas's registers for the occupancy.
  std::optional<timing::ChipModel> chip;
  StringMap<KernelResources> kernelResources;
  timing::ProgramTiming programTiming;
  if (timingModel) {
    Expected<const target::TargetInfo &> info = target::lookupTarget(
        timingTarget.empty() ? StringRef(manifest.chip) : StringRef(timingTarget));
    if (!info)
      return fail(info.takeError());
    target::TargetInfo modeled = *info;
    if (!timingCalibration.empty())
      if (Error e = target::applyTargetCalibration(modeled, timingCalibration))
        return fail(std::move(e));
    Expected<timing::ChipModel> model = timing::ChipModel::get(modeled);
    if (!model)
      return fail(model.takeError());
    chip.emplace(*model);
    programTiming.cudaGraph = cudaGraph;
    programTiming.launchOverheadUs = cudaGraph
                                         ? modeled.timing.graphLaunchOverheadUs
                                         : modeled.launchOverheadUs;
    Expected<std::string> ptxas = findPtxas();
    Expected<StringMap<KernelResources>> resources =
        ptxas ? readKernelResources(*ptxas, images.ptxPath, manifest.chip)
              : Expected<StringMap<KernelResources>>(ptxas.takeError());
    if (resources)
      kernelResources = std::move(*resources);
    else
      log << "timing: no registers per thread: "
          << toString(resources.takeError()) << "\n";
  }

  emulator::EmulatorOptions options;
  options.initcheck = !noInitcheck;
  options.racecheck = !noRacecheck;
  options.threads = emulateThreads;
  options.profile = profileKernels;
  json::Array reports;
  std::vector<LaunchProfile> profiles;
  double totalSeconds = 0;
  uint64_t totalThreadInstructions = 0;
  for (auto [i, launch] : enumerate(function.launches)) {
    emulator::LaunchConfig config;
    config.grid = launch.grid;
    config.block = launch.block;
    config.dynamicSharedBytes = launch.dynamicSharedMemory;
    SmallVector<uint64_t> args;
    for (unsigned position : launch.args)
      args.push_back(addresses[position]);
    std::optional<timing::KernelTimer> timer;
    if (chip) {
      Expected<emulator::KernelDescription> description =
          emulator::describeKernel(*module, launch.kernel);
      if (!description)
        return fail(description.takeError());
      timing::TimingOptions timingOptions;
      timingOptions.sampledSMs = timingSMs;
      auto it = kernelResources.find(launch.kernel);
      if (it != kernelResources.end())
        timingOptions.registersPerThread = it->second.registers;
      timer.emplace(*chip, std::move(*description),
                    timing::LaunchShape{launch.grid, launch.block,
                                        launch.dynamicSharedMemory},
                    timingOptions);
      options.tracer = &*timer;
    }
    auto start = std::chrono::steady_clock::now();
    Expected<emulator::KernelReport> report = emulator::launchKernel(
        *module, launch.kernel, config, args, memory, options);
    options.tracer = nullptr;
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    if (!report) {
      // Faults name the kernel already; unsupported instructions do not.
      std::string message = toString(report.takeError());
      error() << "launch " << i
              << (StringRef(message).starts_with("kernel '")
                      ? ""
                      : " (kernel '" + launch.kernel + "')")
              << ": " << message << "\n";
      return kError;
    }
    totalSeconds += seconds;
    totalThreadInstructions += report->threadInstructions;
    log << "launch " << i << " \"" << launch.kernel << "\" grid "
        << formatShape({launch.grid[0], launch.grid[1], launch.grid[2]})
        << " block "
        << formatShape({launch.block[0], launch.block[1], launch.block[2]})
        << ": " << report->threadInstructions << " thread-instructions, "
        << report->warpInstructions << " warp-instructions, "
        << report->barriers << " barriers\n";
    reports.push_back(json::Object{
        {"kernel", launch.kernel},
        {"thread_instructions", int64_t(report->threadInstructions)},
        {"warp_instructions", int64_t(report->warpInstructions)},
        {"barriers", int64_t(report->barriers)},
        {"seconds", seconds}});
    profiles.push_back({launch.kernel, *report, std::nullopt, std::nullopt});
    if (timer) {
      Expected<timing::KernelTiming> kernelTiming =
          timer->finish(double(report->profile.tensorCoreFlops));
      if (!kernelTiming) {
        error() << "launch " << i << ": "
                << toString(kernelTiming.takeError()) << "\n";
        return kError;
      }
      programTiming.kernels.push_back(std::move(*kernelTiming));
    }
  }
  log << formatv("emulated {0} thread-instructions in {1:f2} s ({2:f1} M/s)\n",
                 totalThreadInstructions, totalSeconds,
                 totalSeconds > 0 ? totalThreadInstructions / totalSeconds / 1e6
                                  : 0.0);

  // With initcheck, an output byte no kernel wrote is an error: a reader of
  // the output would get whatever the memory held.
  if (!noInitcheck)
    for (unsigned position : function.outputs) {
      const Buffer &buffer = function.buffers[position];
      if (std::optional<uint64_t> at =
              memory.firstUnwritten(addresses[position], buffer.bytes)) {
        error() << "initcheck: output " << buffer.index << " \"" << buffer.name
                << "\": byte " << *at << " of " << buffer.bytes
                << " was never written by any launch\n";
        return kError;
      }
    }

  json::Value timingJsonValue = nullptr;
  if (chip) {
    printTimingTable(log, *chip, programTiming);
    timingJsonValue = timingJson(*chip, programTiming);
    if (!timingTrace.empty()) {
      std::error_code ec;
      raw_fd_ostream os(timingTrace, ec);
      if (ec) {
        error() << "cannot write '" << timingTrace << "': " << ec.message()
                << "\n";
        return kError;
      }
      os << formatv("{0:2}", chromeTrace(*chip, programTiming)) << "\n";
    }
  }

  if (profileKernels) {
    addOccupancy(manifest, images, function, profiles, log);
    printProfile(log, profiles);
    for (auto [report, profile] : zip_equal(reports, profiles))
      (*report.getAsObject())["profile"] = profileJson(profile);
  }

  for (unsigned position : function.outputs) {
    const Buffer &buffer = function.buffers[position];
    std::vector<char> bytes(buffer.bytes);
    if (Error e = memory.read(
            addresses[position],
            MutableArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(bytes.data()),
                                     bytes.size())))
      return fail(std::move(e));
    result.outputs.emplace_back(buffer.shape, decode(buffer.dtype, bytes));
  }
  result.json = json::Object{{"device", "emulator"},
                             {"module", "ptx"},
                             {"emulator", std::move(reports)},
                             {"initcheck", !noInitcheck},
                             {"racecheck", !noRacecheck},
                             {"approx_instructions", std::move(approxJson)}};
  if (chip)
    result.json["timing"] = std::move(timingJsonValue);
  return kPass;
}

static int run(mlir::MLIRContext &context, const Manifest &manifest) {
  // Everything that needs no GPU first.
  const Function *selected = selectFunction(manifest);
  if (!selected)
    return kError;
  const Function &function = *selected;
  if (failed(checkInputScale(function)))
    return kError;
  mlir::FailureOr<std::unique_ptr<Reference>> reference =
      Reference::load(context, manifest, function);
  if (failed(reference))
    return kError;
  Expected<ModuleImages> images = readImages(manifest);
  if (!images)
    return fail(images.takeError());
  Expected<SmallVector<RealTensor>> inputs = makeInputs(function, **reference);
  if (!inputs)
    return fail(inputs.takeError());
  std::optional<SmallVector<RealTensor>> expected;
  if (!expectedFiles.empty()) {
    Expected<SmallVector<RealTensor>> read = readTensors(
        function, function.outputs, expectedFiles, "expected", "output");
    if (!read)
      return fail(read.takeError());
    expected = std::move(*read);
  }
  if (!outputDir.empty())
    if (std::error_code ec = sys::fs::create_directories(outputDir)) {
      error() << "cannot create output directory '" << outputDir
              << "': " << ec.message() << "\n";
      return kError;
    }

  // The readable report; with --json, stdout carries the JSON alone.
  raw_ostream &log = jsonOutput ? errs() : outs();

  // One run, checked launch by launch.
  Execution execution;
  if (int status = (emulate ? runOnEmulator : runOnGpu)(
          manifest, function, *images, *inputs, log, execution))
    return status;
  SmallVector<RealTensor> &outputs = execution.outputs;

  // The values to compare with.
  SmallVector<RealTensor> references;
  if (expected) {
    references = std::move(*expected);
  } else {
    mlir::FailureOr<SmallVector<RealTensor>> ran = (*reference)->run(*inputs);
    if (failed(ran))
      return kError;
    references = std::move(*ran);
  }

  bool allPass = true;
  json::Array jsonOutputs;
  for (auto [i, position] : enumerate(function.outputs)) {
    const Buffer &buffer = function.buffers[position];
    Comparison c =
        compare(outputs[i].data, references[i].data, buffer.dtype);
    allPass &= c.pass;
    log << "output " << i << " \"" << buffer.name << "\" "
        << formatShape(buffer.shape) << " " << dtypeName(buffer.dtype)
        << ": max abs error " << formatNumber(c.maxAbsError);
    json::Object entry{{"name", buffer.name},
                       {"index", int64_t(i)},
                       {"shape", json::Array(buffer.shape)},
                       {"dtype", dtypeName(buffer.dtype)},
                       {"max_abs_error", jsonNumber(c.maxAbsError)},
                       {"max_abs_reference", jsonNumber(c.maxAbsReference)},
                       {"relative_error", jsonNumber(c.relativeError)},
                       {"non_finite", c.nonFinite},
                       {"pass", c.pass}};
    if (c.worst >= 0) {
      SmallVector<int64_t> at = unflatten(c.worst, buffer.shape);
      log << " (at " << formatShape(at) << ": gpu "
          << formatNumber(outputs[i].data[c.worst]) << ", reference "
          << formatNumber(references[i].data[c.worst]) << ")";
      entry["worst"] =
          json::Object{{"index", json::Array(at)},
                       {"gpu", jsonNumber(outputs[i].data[c.worst])},
                       {"reference", jsonNumber(references[i].data[c.worst])}};
    }
    log << ", max |reference| " << formatNumber(c.maxAbsReference)
        << ", relative error " << formatNumber(c.relativeError);
    if (maxUlp.getNumOccurrences()) {
      log << ", max ulp error " << formatNumber(c.maxUlpError);
      entry["max_ulp_error"] = jsonNumber(c.maxUlpError);
      if (c.worstUlp >= 0) {
        SmallVector<int64_t> at = unflatten(c.worstUlp, buffer.shape);
        log << " (at " << formatShape(at) << ": gpu "
            << formatNumber(outputs[i].data[c.worstUlp]) << ", reference "
            << formatNumber(references[i].data[c.worstUlp]) << ")";
        entry["worst_ulp"] = json::Object{
            {"index", json::Array(at)},
            {"gpu", jsonNumber(outputs[i].data[c.worstUlp])},
            {"reference", jsonNumber(references[i].data[c.worstUlp])}};
      }
    }
    if (c.nonFinite)
      log << ", " << c.nonFinite << " NaN or infinite";
    log << ": " << (c.pass ? "pass" : "FAIL") << "\n";
    jsonOutputs.push_back(std::move(entry));

    if (!outputDir.empty() &&
        (failed(writeTensor(("out" + Twine(i) + ".npy").str(), outputs[i])) ||
         failed(writeTensor(("ref" + Twine(i) + ".npy").str(), references[i]))))
      return kError;
  }

  log << execution.trailer;
  log << (allPass ? "PASS" : "FAIL") << ": "
      << (expected ? "against --expected" : "against the fp64 reference")
      << ", tolerance " << formatNumber(tolerance);
  if (maxUlp.getNumOccurrences())
    log << ", at most " << formatNumber(maxUlp) << " ulp per element";
  log << "\n";

  if (jsonOutput) {
    json::Object result{{"manifest", manifest.path},
                        {"function", function.name},
                        {"chip", manifest.chip},
                        {"launches", int64_t(function.launches.size())},
                        {"reference", expected ? "expected" : "interpreter"},
                        {"tolerance", tolerance.getValue()},
                        {"scale", inputScale.getValue()},
                        {"outputs", std::move(jsonOutputs)},
                        {"pass", allPass}};
    for (auto &[key, value] : execution.json)
      result[key] = std::move(value);
    outs() << formatv("{0:2}", json::Value(std::move(result))) << "\n";
  }
  return allPass ? kPass : kMismatch;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mirage-gpu-run: runs a lowered µGraph program (a mirage-gpu-manifest) "
      "on a CUDA GPU, checks its outputs against the fp64 reference "
      "interpreter and times it\n");

  // The emulator neither times nor picks a device: say so rather than
  // ignore the options.
  if (emulate)
    for (cl::Option *timingOption : std::initializer_list<cl::Option *>{
             &warmup, &iterations, &cudaGraph, &preferPtx, &deviceOrdinal})
      if (timingOption->getNumOccurrences() &&
          !(timingOption == &cudaGraph && timingModel))
        errs() << "mirage-gpu-run: warning: --" << timingOption->ArgStr
               << " has no effect with --emulate (no timing, no device)\n";
  for (cl::Option *option : std::initializer_list<cl::Option *>{
           &timingTarget, &timingSMs, &timingCalibration, &timingTrace})
    if (option->getNumOccurrences() && !timingModel)
      errs() << "mirage-gpu-run: warning: --" << option->ArgStr
             << " has no effect without --timing\n";
  if (timingModel && !emulate) {
    WithColor::error(errs(), "mirage-gpu-run")
        << "--timing needs --emulate: the timing model replays what the "
           "emulator executes (on a GPU, the launches are timed)\n";
    return kError;
  }

  Expected<Manifest> manifest = loadManifest(manifestPath);
  if (!manifest)
    return fail(manifest.takeError());

  mlir::DialectRegistry registry;
  registerMirageDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  // One interpreter run: a thread pool would only cost start-up time.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);

  if (checkOnly)
    return checkManifest(context, *manifest);
  return run(context, *manifest);
}
