//===- CostModel.h - analytic per-target kernel cost model ------*- C++ -*-===//
//
// Estimates the run time of kernel-level (and graph-level) ops on an NVIDIA
// GPU without running them: a roofline over each kernel's device-memory,
// L2, shared-memory and arithmetic work, plus launch and __syncthreads
// overheads. The µGraph search ranks candidates with it, so one estimate
// allocates nothing and takes microseconds. The formulas and every constant,
// with its source, are in docs/CostModel.md.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_COSTMODEL_H
#define MIRAGE_SUPEROPT_COSTMODEL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace mirage::superopt {

/// The version of the cost model's formulas and built-in constants. It is
/// part of every search cache key (Search/SearchCache.h): bump it whenever an
/// estimate can change, since the search ranks candidates by it.
///   2: sizes counted in floating point; tensor cores chosen by operand
///      type (issue 11).
///   3: block.softmax_accum, block.softmax_merge and block.reshape (issue 16).
inline constexpr unsigned kCostModelVersion = 3;

/// The parameters of one GPU: the target database's hardware numbers and
/// the model's own (docs/CostModel.md); a calibration file may override
/// any of them.
struct GpuTarget {
  std::string name; // "sm_80", "sm_90"

  // Hardware limits (CUDA C++ Programming Guide, "Technical Specifications
  // per Compute Capability"; NVIDIA A100 / H100 datasheets).
  int64_t numSMs = 0;
  int64_t smemPerBlockBytes = 0; // opt-in maximum dynamic shared memory
  int64_t smemPerSMBytes = 0;
  int64_t regsPerSM = 0; // 32-bit registers
  int64_t maxRegsPerThread = 0;
  int64_t maxThreadsPerSM = 0;
  int64_t maxBlocksPerSM = 0;
  int64_t l2Bytes = 0;

  // Throughputs (peak, dense).
  double clockGHz = 0;              // boost clock
  double dramBandwidthGBs = 0;      // HBM, 1e9 bytes/s
  double l2BandwidthGBs = 0;        // L2 read bandwidth, 1e9 bytes/s
  double smemBytesPerClockPerSM = 0;
  double tensorCoreTflops = 0;      // f16/bf16 inputs, f32 accumulate
  double cudaCoreTflops = 0;        // f32 FMA counted as 2 flops

  // Overheads.
  double launchOverheadUs = 0; // per kernel launch, back to back in a stream
  double syncCycles = 0;       // one __syncthreads of a block

  // Fractions of peak that real kernels reach (model assumptions).
  double dramEfficiency = 1;
  double l2Efficiency = 1;
  double smemEfficiency = 1;
  double computeEfficiency = 1;
  /// Fraction of the SMs whose loads in flight saturate device memory; a
  /// graph-defined kernel with fewer blocks gets proportionally less.
  double dramSaturationSMFraction = 1;

  // Code-generation assumptions for graph-defined kernels.
  int64_t threadsPerBlock = 128;
  int64_t baseRegsPerThread = 32; // indices, addresses, loop state

  /// Measured times (µs) of predefined kernels, keyed by kernelSignature().
  llvm::StringMap<double> measuredUs;

  /// The parameters of a target of the target database (an arch, "sm_90",
  /// or a product, "H200-SXM-141GB"). An error for a target the cost model
  /// has no L2 bandwidth or launch overhead for (every arch but sm_80 and
  /// sm_90), saying what a calibration file must give.
  static llvm::Expected<GpuTarget> get(llvm::StringRef name);
  /// The same, with the calibration file `calibrationPath` applied when it
  /// is not empty (the passes' `target` and `calibration` options).
  static llvm::Expected<GpuTarget> get(llvm::StringRef name,
                                       llvm::StringRef calibrationPath);

  /// Overrides constants and adds measured kernel times from a JSON file
  /// (format in docs/CostModel.md). On error the target is unchanged.
  llvm::Error applyCalibration(llvm::StringRef path);
  /// The same, from the file's contents.
  llvm::Error applyCalibrationJSON(llvm::StringRef json);
};

/// The estimate of one kernel launch.
struct KernelCost {
  double timeUs = 0;
  double dramBytes = 0;  // device-memory (HBM) traffic
  double l2Bytes = 0;    // re-reads of replicated inputs served by L2
  double smemBytes = 0;  // shared-memory reads and writes, all blocks
  double flops = 0;
  int64_t smemFootprint = 0; // bytes of shared memory per block
  int64_t regsPerThread = 0; // graph-defined kernels only
  int64_t blocks = 0;        // graph-defined kernels only
  int64_t waves = 0;         // graph-defined kernels only
  /// What limits it: "memory", "compute", "launch", "measured" (from the
  /// calibration file) or "free" (a reshape: a view, no launch).
  llvm::StringRef bound;
};

/// The estimate of a function: the sum of its kernels.
struct FunctionCost {
  double timeUs = 0;
  int64_t kernels = 0; // launches (views excluded)
};

/// Estimates one op: any kernel-dialect op, or a graph-dialect op costed as
/// the predefined kernel the default schedule gives it. Fails for other ops,
/// and for a graph-defined kernel whose block graph needs more shared memory
/// per block or more registers per thread than the target allows.
llvm::Expected<KernelCost> estimateKernel(mlir::Operation *op,
                                          const GpuTarget &target);

/// Sums estimateKernel over the ops of a function (its terminator excluded).
llvm::Expected<FunctionCost> estimateFunction(mlir::func::FuncOp func,
                                              const GpuTarget &target);

/// The key of a predefined kernel in GpuTarget::measuredUs, e.g.
/// "kernel.matmul 16x4096xf16,4096x6144xf16->16x6144xf16" or
/// "kernel.unary exp 8x64xf16->8x64xf16". A graph op has the key of its
/// default kernel. Empty for a graph-defined kernel and unknown ops.
std::string kernelSignature(mlir::Operation *op);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_COSTMODEL_H
