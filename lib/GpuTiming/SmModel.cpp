//===- SmModel.cpp - one SM running recorded CTAs -------------------------===//
//
// Time advances a cycle at a time while some scheduler issues, and jumps to
// the next cycle at which a stalled warp could issue when none can: between
// issues nothing a warp waits for changes, so the jump is exact and the
// stall reasons of the skipped cycles are those of the last scan.
//
//===----------------------------------------------------------------------===//

#include "SmModel.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

using namespace mirage;
using namespace mirage::timing;
using namespace mirage::timing::detail;
using emulator::MemoryKind;
using emulator::StaticInstruction;
using emulator::TimingUnit;

namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
/// Cycles of requests the SM's memory pipe queues before a warp issuing
/// another memory instruction stalls (the MIO queue).
constexpr uint64_t kMemoryQueueCycles = 128;

/// A set-associative sector cache of 128-byte lines with 32-byte sectors,
/// least recently used line replaced.
class SectorCache {
public:
  explicit SectorCache(uint64_t bytes) {
    uint64_t lines = bytes / 128;
    numSets = std::max<uint64_t>(1, lines / kWays);
    enabled = lines >= kWays;
    ways.assign(numSets * kWays, Way{});
  }
  /// Whether `sector` is present; it is then the most recently used.
  bool lookup(uint64_t sector, uint64_t now) {
    if (!enabled)
      return false;
    Way *way = find(sector / 4);
    if (!way || !(way->sectors >> (sector % 4) & 1))
      return false;
    way->lastUse = now;
    return true;
  }
  void insert(uint64_t sector, uint64_t now) {
    if (!enabled)
      return;
    uint64_t line = sector / 4;
    Way *way = find(line);
    if (!way) {
      Way *set = &ways[(line % numSets) * kWays];
      way = std::min_element(set, set + kWays, [](const Way &a, const Way &b) {
        return a.lastUse < b.lastUse;
      });
      *way = Way{line + 1, 0, now};
    }
    way->sectors |= uint8_t(1u << (sector % 4));
    way->lastUse = now;
  }

private:
  static constexpr unsigned kWays = 8;
  struct Way {
    uint64_t tag = 0; // line + 1; 0 is empty
    uint8_t sectors = 0;
    uint64_t lastUse = 0;
  };
  Way *find(uint64_t line) {
    Way *set = &ways[(line % numSets) * kWays];
    for (unsigned i = 0; i < kWays; ++i)
      if (set[i].tag == line + 1)
        return &set[i];
    return nullptr;
  }
  uint64_t numSets = 1;
  bool enabled = false;
  std::vector<Way> ways;
};

struct Warp {
  const std::vector<IssueRecord> *trace = nullptr;
  size_t next = 0;
  unsigned slot = 0; // the resident CTA's slot
  bool live = false;
  bool atBarrier = false;
  uint64_t notBefore = 0;
  /// Per register: the cycle its value is ready, and what produces it.
  std::vector<uint64_t> ready;
  std::vector<Stall> producer;
  /// cp.async: the completion of the open group's copies, and of each
  /// committed group, oldest first.
  uint64_t openGroup = 0;
  std::deque<uint64_t> groups;
  /// The last completion of anything it issued (stores drain before the
  /// CTA exits).
  uint64_t lastCompletion = 0;
  /// This cycle's reason not to issue, and when it could.
  Stall stall = Stall::Dependency;
  uint64_t wake = 0;
  /// The cycle it last issued in.
  uint64_t issuedAt = kNever;
  /// For a Throughput stall: the unit whose pipe was busy.
  TimingUnit stallUnit = TimingUnit::Integer;
};

struct ResidentCta {
  bool active = false;
  size_t index = 0; // into the SM's list
  unsigned liveWarps = 0;
  uint64_t start = 0;
  uint64_t end = 0;
  std::array<unsigned, 16> arrived{};
};

class Sm {
public:
  Sm(const SmInputs &inputs, llvm::ArrayRef<const CtaTrace *> ctas)
      : in(inputs), chip(*inputs.chip), t(inputs.chip->sm()),
        code(inputs.kernel->code), ctas(ctas), l1(inputs.l1Bytes),
        schedulers(t.schedulersPerSM) {
    unsigned slots = inputs.ctasPerSM;
    residents.resize(slots);
    warps.resize(size_t(slots) * inputs.warpsPerCta);
    for (Warp &w : warps) {
      w.ready.assign(inputs.kernel->numRegisters, 0);
      w.producer.assign(inputs.kernel->numRegisters, Stall::Dependency);
    }
    pipeFree.assign(size_t(schedulers) * emulator::kNumTimingUnits, 0);
    lastIssued.assign(schedulers, ~0u);
    double share = std::max(1u, inputs.activeSMs);
    l2Rate = std::min(t.l2BytesPerCyclePerSM, chip.l2BytesPerCycle() / share);
    hbmRate = chip.hbmBytesPerCycle() / share;
  }

  SmResult run(llvm::ArrayRef<uint64_t> indices, unsigned sm);

private:
  void place(unsigned slot, size_t index, uint64_t at);
  bool canIssue(Warp &w);
  void issue(Warp &w, unsigned scheduler);
  void finishWarp(Warp &w);
  void releaseBarrier(unsigned slot, unsigned id);
  unsigned pipeCycles(const StaticInstruction &info) const;
  unsigned latency(TimingUnit unit) const;
  uint64_t &pipe(unsigned scheduler, TimingUnit unit) {
    return pipeFree[scheduler * emulator::kNumTimingUnits + unsigned(unit)];
  }
  /// A request of `sectors` that missed L1 (or bypassed it), leaving the
  /// SM at `at`: when its data is back.
  uint64_t l2Request(llvm::ArrayRef<uint64_t> sectors, uint64_t at,
                     bool isStore);

  const SmInputs &in;
  const ChipModel &chip;
  const target::SmTimingInfo &t;
  const std::vector<StaticInstruction> &code;
  llvm::ArrayRef<const CtaTrace *> ctas;
  SectorCache l1;
  unsigned schedulers;
  std::vector<ResidentCta> residents;
  std::vector<Warp> warps;
  std::vector<uint64_t> pipeFree;
  std::vector<unsigned> lastIssued;
  uint64_t memoryPipeFree = 0, l2LinkFree = 0, hbmFree = 0;
  /// The sectors this SM has requested from L2.
  llvm::DenseSet<uint64_t> l2Seen;
  double l2Rate, hbmRate;
  uint64_t now = 0;
  size_t nextCta = 0;
  /// Slots waiting for their next CTA, with the cycle it starts.
  std::vector<std::pair<unsigned, uint64_t>> pendingPlacements;
  SmResult result;
};

unsigned Sm::latency(TimingUnit unit) const {
  switch (unit) {
  case TimingUnit::Integer:
    return t.integerLatency;
  case TimingUnit::Fp32:
    return t.fp32Latency;
  case TimingUnit::Fp16:
    return t.fp16Latency;
  case TimingUnit::Fp64:
    return t.fp64Latency;
  case TimingUnit::Divide:
    return t.divideLatency;
  case TimingUnit::SpecialFunction:
    return t.specialFunctionLatency;
  case TimingUnit::Conversion:
    return t.conversionLatency;
  case TimingUnit::Move:
  case TimingUnit::Branch:
  case TimingUnit::WarpSync:
    return t.moveLatency;
  case TimingUnit::Shuffle:
    return t.shuffleLatency;
  case TimingUnit::TensorCore:
    return t.mmaLatency;
  default:
    return t.moveLatency;
  }
}

unsigned Sm::pipeCycles(const StaticInstruction &info) const {
  auto rate = [&](unsigned lanesPerSM) {
    unsigned perScheduler = std::max(1u, lanesPerSM / schedulers);
    return std::max(1u, 32 / perScheduler);
  };
  switch (info.unit) {
  case TimingUnit::Integer:
    return rate(t.integerLanes);
  case TimingUnit::Fp32:
    return rate(t.fp32Lanes);
  case TimingUnit::Fp16:
    return rate(t.fp16x2Lanes);
  case TimingUnit::Fp64:
    return rate(t.fp64Lanes);
  case TimingUnit::Divide:
    return t.divideIssueCycles;
  case TimingUnit::SpecialFunction:
    return rate(t.specialFunctionLanes);
  case TimingUnit::Conversion:
    return rate(t.conversionLanes);
  case TimingUnit::Shuffle:
    return rate(t.shuffleLanes);
  case TimingUnit::TensorCore:
    return std::max(1u, unsigned(std::lround(
                            info.mmaMacs / chip.mmaMacsPerCyclePerScheduler())));
  case TimingUnit::Memory:
  case TimingUnit::AsyncCopy:
    return rate(t.memoryLanes);
  default:
    return rate(t.moveLanes);
  }
}

void Sm::place(unsigned slot, size_t index, uint64_t at) {
  ResidentCta &cta = residents[slot];
  cta = ResidentCta{};
  cta.active = true;
  cta.index = index;
  cta.start = at;
  const CtaTrace &trace = *ctas[index];
  for (unsigned w = 0; w < in.warpsPerCta; ++w) {
    Warp &warp = warps[size_t(slot) * in.warpsPerCta + w];
    std::fill(warp.ready.begin(), warp.ready.end(), 0);
    warp.trace = &trace.warps[w];
    warp.next = 0;
    warp.slot = slot;
    warp.live = !warp.trace->empty();
    warp.atBarrier = false;
    warp.notBefore = at;
    warp.openGroup = 0;
    warp.groups.clear();
    warp.lastCompletion = at;
    warp.issuedAt = kNever;
    cta.liveWarps += warp.live;
  }
  if (cta.liveWarps == 0) {
    cta.active = false;
    cta.end = at;
    result.spans.push_back({index, 0, slot, at, at});
  }
}

bool Sm::canIssue(Warp &w) {
  const IssueRecord &record = (*w.trace)[w.next];
  const StaticInstruction &info = code[record.pc];
  if (w.atBarrier) {
    w.stall = Stall::Barrier;
    w.wake = kNever;
    return false;
  }
  if (w.notBefore > now) {
    w.stall = Stall::Dependency;
    w.wake = w.notBefore;
    return false;
  }
  uint64_t readyAt = 0;
  Stall cause = Stall::Dependency;
  for (unsigned reg : info.uses)
    if (w.ready[reg] > readyAt) {
      readyAt = w.ready[reg];
      cause = w.producer[reg];
    }
  // A write after an outstanding load of the same register waits too (the
  // scoreboard covers both).
  for (unsigned reg : info.defs)
    if (w.ready[reg] > readyAt) {
      readyAt = w.ready[reg];
      cause = w.producer[reg];
    }
  if (info.unit == TimingUnit::AsyncWait) {
    // The groups beyond the newest `keep` must be complete; wait_all
    // includes the open group.
    size_t keep = info.keepGroups;
    uint64_t done = info.waitsForOpenGroup ? w.openGroup : 0;
    for (size_t i = 0; i + keep < w.groups.size(); ++i)
      done = std::max(done, w.groups[i]);
    if (done > readyAt) {
      readyAt = done;
      cause = Stall::Memory;
    }
  }
  if (readyAt > now) {
    w.stall = cause;
    w.wake = readyAt;
    return false;
  }
  return true;
}

uint64_t Sm::l2Request(llvm::ArrayRef<uint64_t> sectors, uint64_t at,
                       bool isStore) {
  if (sectors.empty())
    return at;
  double bytes = 32.0 * sectors.size();
  double missBytes = 0, worstMiss = 0;
  for (uint64_t s : sectors) {
    // A store's sector is written back to HBM once; a load's first request
    // by this SM may be the grid's first.
    bool first = l2Seen.insert(s).second;
    double miss = !first   ? in.capacityMissFraction
                  : isStore ? 1.0
                            : in.missFraction(s);
    missBytes += 32.0 * miss;
    worstMiss = std::max(worstMiss, miss);
  }
  uint64_t linkStart = std::max(at, l2LinkFree);
  l2LinkFree = linkStart + uint64_t(std::ceil(bytes / l2Rate));
  uint64_t hbmDone = linkStart;
  if (missBytes > 0) {
    uint64_t hbmStart = std::max(linkStart, hbmFree);
    hbmFree = hbmStart + uint64_t(std::ceil(missBytes / hbmRate));
    hbmDone = hbmFree;
  }
  result.l2Bytes += bytes;
  result.hbmBytes += missBytes;
  if (isStore)
    return std::max(l2LinkFree, hbmDone);
  double latency =
      t.l2HitLatency + worstMiss * (double(t.dramLatency) - t.l2HitLatency);
  return std::max(l2LinkFree, hbmDone) + uint64_t(latency);
}

void Sm::issue(Warp &w, unsigned scheduler) {
  const IssueRecord &record = (*w.trace)[w.next];
  const StaticInstruction &info = code[record.pc];
  const CtaTrace &trace = *ctas[residents[w.slot].index];
  ++result.issued;
  unsigned cycles = pipeCycles(info);
  pipe(scheduler, info.unit) = now + cycles;
  result.unitBusy[unsigned(info.unit)] += cycles;
  uint64_t done = now + latency(info.unit);
  Stall producer = Stall::Dependency;

  switch (record.memory) {
  case MemoryKind::SharedLoad:
  case MemoryKind::SharedStore: {
    uint64_t start = std::max(now, memoryPipeFree);
    unsigned wavefronts = std::max<unsigned>(1, record.wavefronts);
    memoryPipeFree = start + wavefronts;
    result.memoryPipeBusy += wavefronts;
    done = start + t.sharedLatency + wavefronts - 1;
    producer = Stall::SharedMemory;
    break;
  }
  case MemoryKind::GlobalLoad:
  case MemoryKind::LocalLoad:
  case MemoryKind::CopyToShared:
  case MemoryKind::GlobalStore:
  case MemoryKind::LocalStore:
  case MemoryKind::GlobalAtomic: {
    llvm::ArrayRef<uint64_t> sectors = trace.sectorsOf(record);
    // The L1 handles a request a 128-byte line per cycle.
    unsigned lines = 0;
    for (size_t i = 0; i < sectors.size(); ++i)
      lines += i == 0 || sectors[i] / 4 != sectors[i - 1] / 4;
    lines = std::max(1u, lines);
    uint64_t start = std::max(now, memoryPipeFree);
    memoryPipeFree = start + lines;
    result.memoryPipeBusy += lines;
    bool isStore = record.memory == MemoryKind::GlobalStore ||
                   record.memory == MemoryKind::LocalStore;
    if (isStore) {
      // Write-through to L2; the data stays valid in L1 where present.
      done = l2Request(sectors, start, /*isStore=*/true);
      w.lastCompletion = std::max(w.lastCompletion, done);
      break;
    }
    bool viaL1 =
        record.memory != MemoryKind::GlobalAtomic && info.cachesInL1;
    llvm::SmallVector<uint64_t, 32> misses;
    for (uint64_t s : sectors)
      if (!viaL1 || !l1.lookup(s, start))
        misses.push_back(s);
    done = start + t.l1HitLatency + lines - 1;
    if (!misses.empty())
      done = std::max(done, l2Request(misses, start + t.l1HitLatency / 2,
                                      /*isStore=*/false));
    if (viaL1)
      for (uint64_t s : misses)
        l1.insert(s, start);
    if (record.memory == MemoryKind::GlobalAtomic)
      w.lastCompletion = std::max(w.lastCompletion, done);
    if (record.memory == MemoryKind::CopyToShared) {
      // The shared side is written as the data arrives.
      result.memoryPipeBusy += std::max<unsigned>(1, record.wavefronts);
      w.openGroup = std::max(w.openGroup, done);
      w.lastCompletion = std::max(w.lastCompletion, done);
    }
    producer = Stall::Memory;
    break;
  }
  case MemoryKind::ParamLoad:
    done = now + t.paramLatency;
    break;
  case MemoryKind::None:
    break;
  }

  switch (info.unit) {
  case TimingUnit::TensorCore:
    result.tensorBusy += cycles;
    break;
  case TimingUnit::AsyncCommit:
    w.groups.push_back(w.openGroup);
    w.openGroup = 0;
    break;
  case TimingUnit::AsyncWait: {
    while (w.groups.size() > info.keepGroups)
      w.groups.pop_front();
    if (info.waitsForOpenGroup)
      w.openGroup = 0;
    break;
  }
  default:
    break;
  }
  for (unsigned reg : info.defs) {
    w.ready[reg] = done;
    w.producer[reg] = producer;
  }
  w.lastCompletion = std::max(w.lastCompletion, done);
  ++w.next;

  if (info.unit == TimingUnit::Barrier) {
    ResidentCta &cta = residents[w.slot];
    w.atBarrier = true;
    unsigned id = info.barrierId % 16;
    ++cta.arrived[id];
    unsigned expected = info.barrierThreads
                            ? (info.barrierThreads + 31) / 32
                            : cta.liveWarps;
    if (cta.arrived[id] >= expected)
      releaseBarrier(w.slot, id);
  }
  if (w.next == w.trace->size())
    finishWarp(w);
}

void Sm::releaseBarrier(unsigned slot, unsigned id) {
  ResidentCta &cta = residents[slot];
  cta.arrived[id] = 0;
  for (unsigned i = 0; i < in.warpsPerCta; ++i) {
    Warp &w = warps[size_t(slot) * in.warpsPerCta + i];
    if (w.live && w.atBarrier) {
      w.atBarrier = false;
      w.notBefore = now + t.barrierLatency;
    }
  }
}

void Sm::finishWarp(Warp &w) {
  w.live = false;
  w.atBarrier = false;
  ResidentCta &cta = residents[w.slot];
  cta.end = std::max(cta.end, w.lastCompletion);
  if (--cta.liveWarps == 0) {
    cta.active = false;
    cta.end = std::max(cta.end, now + 1);
    result.spans.push_back({cta.index, 0, w.slot, cta.start, cta.end});
    if (nextCta < ctas.size())
      pendingPlacements.push_back({w.slot, cta.end + t.ctaLaunchCycles});
    return;
  }
  // The warps still at a barrier that counted this one may now be all.
  for (unsigned id = 0; id < 16; ++id)
    if (cta.arrived[id] && cta.arrived[id] >= cta.liveWarps)
      releaseBarrier(w.slot, id);
}

SmResult Sm::run(llvm::ArrayRef<uint64_t> indices, unsigned sm) {
  unsigned slots = unsigned(residents.size());
  for (unsigned s = 0; s < slots && nextCta < ctas.size(); ++s)
    place(s, nextCta++, 0);
  uint64_t lastEnd = 0;
  for (;;) {
    // CTAs whose slot freed start now.
    for (size_t i = 0; i < pendingPlacements.size();) {
      auto [slot, at] = pendingPlacements[i];
      if (at <= now && nextCta < ctas.size()) {
        place(slot, nextCta++, now);
        pendingPlacements.erase(pendingPlacements.begin() + i);
      } else if (nextCta >= ctas.size()) {
        pendingPlacements.erase(pendingPlacements.begin() + i);
      } else {
        ++i;
      }
    }
    bool issuedAny = false;
    for (unsigned s = 0; s < schedulers; ++s) {
      // Whether a warp can issue now: operands ready, and its unit's pipe
      // (for memory, the SM's memory queue) free.
      auto ready = [&](Warp &w) {
        if (!canIssue(w))
          return false;
        const StaticInstruction &info = code[(*w.trace)[w.next].pc];
        uint64_t pipeAt = pipe(s, info.unit);
        if ((info.unit == TimingUnit::Memory ||
             info.unit == TimingUnit::AsyncCopy) &&
            memoryPipeFree > now + kMemoryQueueCycles)
          pipeAt = std::max(pipeAt, memoryPipeFree - kMemoryQueueCycles);
        if (pipeAt > now) {
          w.stall = Stall::Throughput;
          w.stallUnit = info.unit;
          w.wake = pipeAt;
          return false;
        }
        return true;
      };
      // Greedy: the warp that issued last, if it can; else the oldest.
      int chosen = -1;
      unsigned last = lastIssued[s];
      if (last < warps.size() && warps[last].live && ready(warps[last]))
        chosen = int(last);
      for (unsigned i = s; i < warps.size(); i += schedulers) {
        Warp &w = warps[i];
        if (!w.live || int(i) == chosen || !ready(w))
          continue;
        if (chosen < 0) {
          chosen = int(i);
        } else {
          w.stall = Stall::NotSelected;
          w.wake = now + 1;
        }
      }
      if (chosen >= 0) {
        Warp &w = warps[chosen];
        issue(w, s);
        w.issuedAt = now;
        lastIssued[s] = unsigned(chosen);
        issuedAny = true;
      }
    }
    bool anyActive = llvm::any_of(residents, [](const ResidentCta &c) {
      return c.active;
    });
    if (!anyActive && pendingPlacements.empty())
      break;
    // The cycles until something changes: one after an issue, else the
    // earliest wake or placement.
    uint64_t next = now + 1;
    if (!issuedAny) {
      next = kNever;
      for (const Warp &w : warps)
        if (w.live && w.wake > now)
          next = std::min(next, w.wake);
      for (auto [slot, at] : pendingPlacements)
        next = std::min(next, std::max(at, now + 1));
      if (next == kNever) {
        // Every live warp waits at a barrier that cannot complete: the
        // emulator ran this CTA to its end, so this is a model limit (a
        // partial barrier); release them.
        for (unsigned s = 0; s < slots; ++s)
          for (unsigned id = 0; id < 16; ++id)
            if (residents[s].active && residents[s].arrived[id])
              releaseBarrier(s, id);
        next = now + 1;
      }
    }
    // A warp that issued this cycle stalls for the rest of the step (none
    // when the step is one cycle).
    for (const Warp &w : warps)
      if (w.live && w.issuedAt != now) {
        result.stallCycles[unsigned(w.stall)] += next - now;
        if (w.stall == Stall::Throughput)
          result.pipeStallCycles[unsigned(w.stallUnit)] += next - now;
      }
    now = next;
  }
  for (const ResidentCta &c : residents)
    lastEnd = std::max(lastEnd, c.end);
  for (KernelTiming::CtaSpan &span : result.spans) {
    span.sm = sm;
    span.cta = indices[span.cta];
    lastEnd = std::max(lastEnd, span.end);
  }
  result.cycles = std::max(lastEnd, now);
  return result;
}

} // namespace

SmResult detail::simulateSm(const SmInputs &inputs,
                            llvm::ArrayRef<const CtaTrace *> ctas,
                            llvm::ArrayRef<uint64_t> ctaIndices, unsigned sm) {
  if (ctas.empty())
    return {};
  Sm model(inputs, ctas);
  return model.run(ctaIndices, sm);
}
