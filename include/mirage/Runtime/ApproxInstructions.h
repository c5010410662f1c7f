//===- ApproxInstructions.h - what .approx costs the comparison -*- C++ -*-===//
//
// The emulator computes `.approx` instructions correctly rounded (or nearly:
// glibc's double functions), but a GPU only within the PTX ISA's stated
// error. A comparison on the emulator therefore means "a GPU passes too"
// only when the tolerance leaves room for that error: this lists the
// approximate instructions a program's kernels use and their bounds.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_APPROXINSTRUCTIONS_H
#define MIRAGE_RUNTIME_APPROXINSTRUCTIONS_H

#include "mirage/GpuEmulator/PtxModule.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace mirage::gpurun {

struct ApproxUse {
  std::string instruction; // "ex2.approx.ftz.f32"
  std::string bound;       // "2 ulp", "2^-22.9 relative", ...
  /// The bound as a relative error of the result (ulps of f32 as 2^-23
  /// each); 0 for an absolute bound, which has no relative equivalent.
  double relative = 0;
};

/// The distinct approximate instructions of `kernels` in `module`, with
/// their ISA bounds at a normal input (sin and cos at |a| <= 2 pi).
std::vector<ApproxUse> findApproxUses(const emulator::PtxModule &module,
                                      llvm::ArrayRef<std::string> kernels);

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_APPROXINSTRUCTIONS_H
