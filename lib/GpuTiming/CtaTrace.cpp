//===- CtaTrace.cpp - recording one CTA's issues --------------------------===//

#include "CtaTrace.h"

using namespace mirage;
using namespace mirage::timing::detail;
using emulator::MemoryKind;

CtaRecorder::CtaRecorder(bool detailed, unsigned numWarps) {
  if (detailed) {
    trace = std::make_unique<CtaTrace>();
    trace->warps.resize(numWarps);
  }
}

void CtaRecorder::issue(const emulator::WarpIssue &issue) {
  switch (issue.memory) {
  case MemoryKind::GlobalLoad:
  case MemoryKind::LocalLoad:
  case MemoryKind::CopyToShared:
    loaded.insert(issue.sectors.begin(), issue.sectors.end());
    break;
  case MemoryKind::GlobalStore:
  case MemoryKind::LocalStore:
    stored.insert(issue.sectors.begin(), issue.sectors.end());
    break;
  case MemoryKind::GlobalAtomic:
    loaded.insert(issue.sectors.begin(), issue.sectors.end());
    stored.insert(issue.sectors.begin(), issue.sectors.end());
    break;
  default:
    break;
  }
  if (!trace)
    return;
  IssueRecord record;
  record.pc = issue.pc;
  record.memory = issue.memory;
  record.wavefronts = uint16_t(std::min(issue.wavefronts, 0xffffu));
  record.sectorBegin = uint32_t(trace->sectors.size());
  record.sectorCount = uint16_t(std::min<size_t>(issue.sectors.size(), 0xffff));
  trace->sectors.insert(trace->sectors.end(), issue.sectors.begin(),
                        issue.sectors.begin() + record.sectorCount);
  trace->warps[issue.warp].push_back(record);
}
