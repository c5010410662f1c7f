//===- CtaTrace.h - the recorded issues of one CTA --------------*- C++ -*-===//
//
// What the KernelTimer keeps of a traced CTA: each warp's issues in program
// order, compact (the SM model replays them), and of every CTA the distinct
// sectors it loaded and stored (the grid's sharing decides L2 hits).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_GPUTIMING_CTATRACE_H
#define MIRAGE_LIB_GPUTIMING_CTATRACE_H

#include "mirage/GpuEmulator/Trace.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace mirage::timing::detail {

struct IssueRecord {
  uint32_t pc;
  emulator::MemoryKind memory;
  /// Shared wavefronts; for cp.async those of its shared side.
  uint16_t wavefronts;
  /// The issue's sectors: [sectorBegin, sectorBegin + sectorCount) of
  /// CtaTrace::sectors.
  uint16_t sectorCount;
  uint32_t sectorBegin;
};

struct CtaTrace {
  std::vector<std::vector<IssueRecord>> warps;
  std::vector<uint64_t> sectors;
  llvm::ArrayRef<uint64_t> sectorsOf(const IssueRecord &r) const {
    return llvm::ArrayRef<uint64_t>(sectors).slice(r.sectorBegin,
                                                   r.sectorCount);
  }
};

class CtaRecorder : public emulator::CtaTracer {
public:
  /// With `detailed`, the issues are kept (a CTA of a sampled SM);
  /// otherwise only the sectors.
  CtaRecorder(bool detailed, unsigned numWarps);
  void issue(const emulator::WarpIssue &issue) override;
  bool wantsEveryIssue() const override { return trace != nullptr; }

  std::unique_ptr<CtaTrace> trace;
  llvm::DenseSet<uint64_t> loaded, stored;
};

} // namespace mirage::timing::detail

#endif // MIRAGE_LIB_GPUTIMING_CTATRACE_H
