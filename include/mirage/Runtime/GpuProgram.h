//===- GpuProgram.h - one manifest function on the GPU ----------*- C++ -*-===//
//
// The device side of a run: the module (cubin, or PTX compiled by the
// driver), the kernels, one device allocation per buffer that is not a view
// (views share their base's pointer), a stream, and the launches in
// manifest order, each kernel taking one device pointer per argument. Runs
// either launch by launch, synchronizing after each so that a fault is
// blamed on the right launch, or back to back for timing, directly or as a
// captured CUDA graph.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_GPUPROGRAM_H
#define MIRAGE_RUNTIME_GPUPROGRAM_H

#include "mirage/Runtime/CudaDriver.h"
#include "mirage/GpuEmulator/PtxModule.h"
#include "mirage/Runtime/Manifest.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mirage::gpurun {

/// The module's code as read from the manifest's files; either may be
/// missing (the cubin when ptxas was not available, or when it was not
/// readable).
struct ModuleImages {
  std::optional<std::string> cubin;
  std::optional<std::string> ptx;
  /// The PTX as the emulator's parser reads it, when there is PTX: read
  /// once, for the launch checks and for the emulator.
  std::optional<emulator::PtxModule> ptxModule;
  std::string cubinPath;
  std::string ptxPath;
};

/// Per-iteration times of a timed run, in microseconds.
struct Timing {
  double medianUs = 0;
  double minUs = 0;
  unsigned iterations = 0;
};

class GpuProgram {
public:
  /// Loads the module (the cubin unless `preferPtx`, and the PTX when the
  /// cubin is missing or the driver rejects it, with a note on `notes`),
  /// resolves the kernels, raises their dynamic shared memory limit where a
  /// launch needs more than the default 48 KiB, allocates the buffers and
  /// creates the stream.
  static llvm::Expected<std::unique_ptr<GpuProgram>>
  create(const CudaDriver &driver, const Function &function,
         const ModuleImages &images, bool preferPtx, llvm::raw_ostream &notes);
  ~GpuProgram();

  /// "cubin" or "ptx": what the module was loaded from.
  llvm::StringRef moduleKind() const { return kind; }

  /// Copies `bytes` to the input with argument index `index`.
  llvm::Error uploadInput(unsigned index, llvm::ArrayRef<char> bytes);

  /// Fills the outputs and temps with 0xff bytes, a NaN in every dtype, so
  /// that an element no kernel writes, or a temp read before it is
  /// written, shows up in the comparison.
  llvm::Error poison();

  /// Runs the launches once, synchronizing after each.
  llvm::Error runChecked();

  /// The bytes of the output with result index `index`.
  llvm::Expected<std::vector<char>> downloadOutput(unsigned index);

  /// Runs the whole program `warmup` times, then `iterations` times back to
  /// back between CUDA events, either launch by launch or, with
  /// `cudaGraph`, as one captured graph launch per iteration.
  llvm::Expected<Timing> time(unsigned warmup, unsigned iterations,
                              bool cudaGraph);

private:
  GpuProgram(const CudaDriver &driver, const Function &function)
      : driver(driver), function(function) {}

  llvm::Error loadModule(const ModuleImages &images, bool preferPtx,
                         llvm::raw_ostream &notes);
  llvm::Error loadPtx(const ModuleImages &images);
  llvm::Error prepareKernels();
  llvm::Error allocate();
  /// Enqueues launch `i` on the stream.
  llvm::Error launch(unsigned i);
  std::string describeLaunch(unsigned i) const;

  const CudaDriver &driver;
  const Function &function;
  std::string kind;
  CUmodule module = nullptr;
  CUstream stream = nullptr;
  /// Per launch: the kernel and the argument values and their addresses,
  /// as cuLaunchKernel takes them.
  std::vector<CUfunction> kernels;
  std::vector<std::vector<CUdeviceptr>> argValues;
  std::vector<std::vector<void *>> argAddresses;
  /// Per buffer: its device pointer (a view's is its base's) and whether
  /// this program allocated it.
  std::vector<CUdeviceptr> pointers;
  std::vector<bool> owned;
};

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_GPUPROGRAM_H
