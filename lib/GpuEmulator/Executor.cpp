//===- Executor.cpp - running one CTA of a decoded kernel -----------------===//
//
// Threads are grouped into warps of 32 consecutive linear thread ids
// (PTX ISA §2.2.1, §3.3 "SIMT architecture"). A warp advances by the
// "minimum PC" rule: among its lanes that are neither finished nor waiting
// at a barrier, those at the smallest PC execute that instruction together.
// Divergent lanes thus run their paths one after the other and meet again
// at the first instruction both reach, as structured code reconverges.
// Warps take turns round-robin; a barrier releases its threads when the
// last expected one arrives. Warp collectives (shfl.sync, mma.sync) see
// exactly the lanes that execute them together; lanes that reach one
// before the rest of their member mask wait there (AtCollective).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "Profile.h"
#include "Checkers.h"
#include "Taint.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <cstring>
#include <deque>

using namespace mirage::emulator;
using namespace mirage::emulator::detail;

namespace {

// Where shared and local memory appear in the generic address space
// (§6.4.1 leaves the windows to the implementation): far above every
// global buffer DeviceMemory hands out, each window larger than any CTA's
// shared memory or thread's local memory.
constexpr uint64_t kGenericSharedBase = uint64_t(1) << 48;
constexpr uint64_t kGenericLocalBase = uint64_t(1) << 49;
constexpr uint64_t kGenericWindow = uint64_t(1) << 32;

uint64_t maskBits(uint64_t value, unsigned bits) {
  return bits >= 64 ? value : value & ((uint64_t(1) << bits) - 1);
}

int64_t signExtend(uint64_t value, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(value);
  uint64_t sign = uint64_t(1) << (bits - 1);
  return static_cast<int64_t>((maskBits(value, bits) ^ sign) - sign);
}

// Little-endian element accesses of 1, 2, 4 or 8 bytes, each a fixed-size
// copy the compiler turns into one move (a variable-size memcpy is a call).
uint64_t readBytes(const uint8_t *p, unsigned size) {
  switch (size) {
  case 1:
    return *p;
  case 2: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  default: {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  }
}

void writeBytes(uint8_t *p, uint64_t v, unsigned size) {
  switch (size) {
  case 1:
    *p = uint8_t(v);
    return;
  case 2: {
    uint16_t w = uint16_t(v);
    std::memcpy(p, &w, 2);
    return;
  }
  case 4: {
    uint32_t w = uint32_t(v);
    std::memcpy(p, &w, 4);
    return;
  }
  default:
    std::memcpy(p, &v, 8);
    return;
  }
}

float asF32(uint64_t bits) { return f32FromBits(static_cast<uint32_t>(bits)); }
uint64_t fromF32(float value) { return f32Bits(value); }

/// A float operand for setp: NaN-aware comparison in double, exact for f64,
/// f32, f16 and bf16.
double compareValue(uint64_t bits, ScalarType type, bool ftz) {
  if (type == ScalarType::F64)
    return f64FromBits(bits);
  if (type == ScalarType::F16)
    return cvtF16ToF32(static_cast<uint16_t>(bits));
  if (type == ScalarType::BF16)
    return cvtBF16ToF32(static_cast<uint16_t>(bits));
  float value = asF32(bits);
  // .ftz: subnormal inputs compare as zeros of their sign.
  if (ftz && std::fpclassify(value) == FP_SUBNORMAL)
    value = std::copysign(0.0f, value);
  return value;
}

/// Where lane `lane`'s 32-bit word of an 8x8 matrix of ldmatrix/stmatrix
/// lies in the matrix's rows of 16 bytes: its low half at (loRow, loByte),
/// its high half at (hiRow, hiByte). Lane 4r + w holds word w of row r, or
/// with .trans elements r of rows 2w and 2w + 1.
struct MatrixWordPlace {
  unsigned loRow, loByte, hiRow, hiByte;
};
MatrixWordPlace matrixWordPlace(unsigned lane, bool transpose) {
  unsigned r = lane / 4, w = lane % 4;
  if (transpose)
    return {2 * w, 2 * r, 2 * w + 1, 2 * r};
  return {r, 4 * w, r, 4 * w + 2};
}

/// AtCollective: at a shfl.sync or mma.sync, waiting for the rest of its
/// member lanes (its pc stays at the collective).
enum class ThreadState : uint8_t { Running, AtBarrier, AtCollective, Finished };

/// Warp-instruction issues per warp per scheduling round.
constexpr unsigned kTimeSlice = 256;

/// One cp.async transfer, queued until a wait_group covers its group.
struct AsyncCopy {
  uint64_t shared;
  uint64_t global;
  unsigned bytes;
  unsigned sourceBytes; // the rest is zero-filled (src-size)
  unsigned line;        // of the cp.async, for messages
};

/// Where the tainted bytes of a register came from (initcheck): the load
/// that read bytes nothing wrote, and the first of them.
struct TaintOrigin {
  uint64_t address = 0;
  uint32_t pc = 0;
  uint8_t bytes = 0;
  Space space = Space::Global;
};

/// The taint a lane-local instruction gives its destinations, computed
/// from its sources before it runs (it may overwrite one of them).
struct TaintUpdate {
  unsigned count = 0;
  std::array<unsigned, 2> slots{};
  std::array<uint8_t, 2> masks{};
  TaintOrigin origin;
  void add(unsigned slot, uint8_t mask) {
    slots[count] = slot;
    masks[count++] = mask;
  }
};

bool isFloatType(ScalarType type) {
  return type == ScalarType::F32 || type == ScalarType::F64 ||
         isHalfFamily(type);
}

/// A thread's state besides its PC and ThreadState, which Cta keeps in
/// arrays of their own: the scheduler scans those for every warp issue.
struct Thread {
  unsigned barrier = 0; // the barrier a thread AtBarrier waits at
  /// Set when an AtCollective thread is released because its missing
  /// members can no longer arrive: it then executes the collective with
  /// the lanes it has, which the collective reports as an error.
  bool forceCollective = false;
  std::vector<AsyncCopy> openGroup;
  std::deque<std::vector<AsyncCopy>> committedGroups;
};

class Cta {
public:
  Cta(const DecodedKernel &kernel, const LaunchConfig &config,
      std::array<unsigned, 3> ctaid, llvm::ArrayRef<uint8_t> params,
      DeviceMemory &memory, const EmulatorOptions &options,
      KernelReport &report, GlobalWrites &globalWrites, CtaTracer *tracer)
      : kernel(kernel), config(config), ctaid(ctaid), params(params),
        memory(memory), options(options), report(report),
        globalWrites(globalWrites), tracer(tracer),
        tracerWantsEveryIssue(tracer && tracer->wantsEveryIssue()),
        numThreads(config.block[0] * config.block[1] * config.block[2]),
        numWarps((numThreads + kWarpSize - 1) / kWarpSize), threads(numThreads),
        threadPc(numThreads, 0), threadState(numThreads, ThreadState::Running),
        liveLanes(numWarps, ~0u), warpUniform(numWarps, 1),
        warpPc(numWarps, 0),
        registers(uint64_t(numThreads) * kernel.numRegisters, 0),
        sharedSize(kernel.dynamicSharedOffset + config.dynamicSharedBytes),
        shared(sharedSize, 0), shadow(sharedSize),
        localBytes(kernel.localBytes), local(numThreads * localBytes, 0),
        localWritten(options.initcheck ? numThreads * localBytes : 0, 0) {
    if (numThreads % kWarpSize)
      liveLanes.back() = (1u << (numThreads % kWarpSize)) - 1;
  }

  llvm::Error run();

private:
  llvm::Error stepWarp(unsigned warp, bool &progressed);
  bool waitForCollective(const DecodedInstruction &inst, unsigned pc,
                         unsigned first, unsigned last,
                         llvm::SmallVectorImpl<unsigned> &lanes,
                         uint32_t &executing);
  llvm::Error arrive(const DecodedInstruction &inst,
                     llvm::ArrayRef<unsigned> lanes);
  /// Runs a lane-local instruction for each of `lanes`.
  llvm::Error executeLanes(const DecodedInstruction &inst,
                           llvm::ArrayRef<unsigned> lanes);
  /// The same for the instructions few kernels use (DecodedInstruction::
  /// rare), out of line: kept out of executeLanes and executeLane, they
  /// leave the common opcodes' code as small, and as inlined, as it was.
  LLVM_ATTRIBUTE_NOINLINE llvm::Error
  executeRareLanes(const DecodedInstruction &inst,
                   llvm::ArrayRef<unsigned> lanes);
  template <Opcode Op>
  llvm::Error executeRareLane(const DecodedInstruction &inst, unsigned t);
  /// One lane of an instruction whose opcode is Op: instantiated per
  /// opcode so that the opcode switch folds away inside the lane loop.
  template <Opcode Op>
  llvm::Error executeLane(const DecodedInstruction &inst, unsigned t);
  // The families of executeLane, one per kind of semantics.
  template <Opcode Op>
  llvm::Error executeArithmeticLane(const DecodedInstruction &inst, unsigned t);
  template <Opcode Op>
  llvm::Error executeBitLane(const DecodedInstruction &inst, unsigned t);
  template <Opcode Op>
  llvm::Error executeSetpLane(const DecodedInstruction &inst, unsigned t);
  template <Opcode Op>
  llvm::Error executeMoveLane(const DecodedInstruction &inst, unsigned t);
  template <Opcode Op>
  llvm::Error executeSpecialFunctionLane(const DecodedInstruction &inst,
                                         unsigned t);
  template <Opcode Op>
  llvm::Error executeAsyncCopyLane(const DecodedInstruction &inst, unsigned t);
  llvm::Error executeShfl(const DecodedInstruction &inst,
                          llvm::ArrayRef<unsigned> lanes, unsigned warp,
                          uint32_t executing);
  /// The lanes a warp collective needs: its membermask operand, or the
  /// whole warp for mma.sync and ldmatrix.
  uint32_t collectiveMask(const DecodedInstruction &inst, unsigned t) {
    switch (inst.opcode) {
    case Opcode::Shfl:
      return uint32_t(value(inst.operands[4], t));
    case Opcode::Vote:
      return uint32_t(value(inst.operands[2], t));
    case Opcode::BarWarpSync:
      return uint32_t(value(inst.operands[0], t));
    default:
      return ~0u;
    }
  }
  /// The fault of a `.sync.aligned` collective (mma, ldmatrix, stmatrix)
  /// that only the lanes `executing` reach together.
  llvm::Error wholeWarpFault(const DecodedInstruction &inst,
                             llvm::StringRef mnemonic,
                             llvm::ArrayRef<unsigned> lanes, unsigned warp,
                             uint32_t executing) {
    return fault(lanes.empty() ? warp * kWarpSize : lanes.front(), inst,
                 llvm::formatv("{0}.sync.aligned needs all 32 lanes but "
                               "lanes {1:x8} execute together",
                               mnemonic, executing));
  }
  /// A collective whose membermask `mask` (of lane t) is not exactly met
  /// by the lanes `executing` together.
  std::optional<std::string> membermaskProblem(uint32_t mask, unsigned t,
                                               uint32_t executing) const {
    if ((mask & (1u << (t % kWarpSize))) && !(mask & ~executing))
      return std::nullopt;
    return llvm::formatv("membermask {0:x8} but lanes {1:x8} execute "
                         "together",
                         mask, executing)
        .str();
  }
  llvm::Error executeVote(const DecodedInstruction &inst,
                          llvm::ArrayRef<unsigned> lanes, unsigned warp,
                          uint32_t executing);
  llvm::Error executeWarpBarrier(const DecodedInstruction &inst,
                                 llvm::ArrayRef<unsigned> lanes, unsigned warp,
                                 uint32_t executing);
  llvm::Error executeLdmatrix(const DecodedInstruction &inst,
                              llvm::ArrayRef<unsigned> lanes, unsigned warp,
                              uint32_t executing);
  llvm::Error executeStmatrix(const DecodedInstruction &inst,
                              llvm::ArrayRef<unsigned> lanes, unsigned warp,
                              uint32_t executing);
  llvm::Error executeMma(const DecodedInstruction &inst,
                         llvm::ArrayRef<unsigned> lanes, unsigned warp,
                         uint32_t executing);
  /// With taint live: each lane of a lane-local instruction with its
  /// taint, checked (taintSources) and propagated (applyTaint). Out of line:
  /// kernels that never read an unwritten byte never come here.
  LLVM_ATTRIBUTE_NOINLINE llvm::Error
  executeTracked(const DecodedInstruction &inst,
                 llvm::ArrayRef<unsigned> lanes);
  llvm::Error taintSources(const DecodedInstruction &inst, unsigned t,
                           TaintUpdate &update);
  void applyTaint(unsigned t, const TaintUpdate &update);
  /// Starts tracking taint: from the first load of unwritten bytes on.
  void startTaint();
  uint8_t taintOf(unsigned t, unsigned slot) const {
    return taintLive ? taintMasks[uint64_t(t) * kernel.numRegisters + slot]
                     : 0;
  }
  const TaintOrigin &originOf(unsigned t, unsigned slot) const {
    return taintOrigins[uint64_t(t) * kernel.numRegisters + slot];
  }
  void setTaint(unsigned t, unsigned slot, uint8_t mask,
                const TaintOrigin &origin) {
    uint64_t i = uint64_t(t) * kernel.numRegisters + slot;
    taintMasks[i] = mask & taintWidth(kernel.registerBits[slot]);
    if (mask)
      taintOrigins[i] = origin;
  }
  /// The tainted bytes of a value operand (a vector's elements together,
  /// an address's base register); `origin` becomes the first tainted
  /// register's origin unless it is set.
  uint8_t operandTaint(const Operand &op, unsigned t,
                       std::optional<TaintOrigin> &origin) const;
  /// An error if `op` (or the register `slot`) is tainted: `what` uses
  /// bytes never written.
  llvm::Error checkUse(unsigned t, const DecodedInstruction &inst,
                       const Operand &op, llvm::StringRef what);
  llvm::Error checkSlotUse(unsigned t, const DecodedInstruction &inst,
                           unsigned slot, llvm::StringRef what);
  llvm::Error taintedUse(unsigned t, const DecodedInstruction &inst,
                         llvm::StringRef what, const TaintOrigin &origin);

  llvm::Error load(const DecodedInstruction &inst, unsigned t);
  /// The space a generic address lies in, with `address` made an offset
  /// in it for shared and local memory (global addresses stay).
  Space resolveGeneric(uint64_t &address) const {
    if (address - kGenericSharedBase < kGenericWindow) {
      address -= kGenericSharedBase;
      return Space::Shared;
    }
    if (address - kGenericLocalBase < kGenericWindow) {
      address -= kGenericLocalBase;
      return Space::Local;
    }
    return Space::Global;
  }
  /// Thread t's local bytes at `offset`, checked: inside its local memory,
  /// aligned; a read reports never-written bytes in `unwrittenBytes`, a
  /// write marks them written.
  llvm::Expected<uint8_t *> localBytesAt(const DecodedInstruction &inst,
                                         unsigned t, uint64_t offset,
                                         unsigned size, bool isWrite,
                                         uint32_t *unwrittenBytes);
  llvm::Error atomic(const DecodedInstruction &inst, unsigned t);
  llvm::Error store(const DecodedInstruction &inst, unsigned t);
  llvm::Error issueCopy(const DecodedInstruction &inst, unsigned t);
  llvm::Error waitCopies(const DecodedInstruction &inst, unsigned t,
                         uint64_t keep);
  /// The warp-level request of the memory instruction `inst` by `lanes`
  /// (none for other instructions), before it executes.
  /// Without `sharedDetail`, shared accesses get their kind only (no
  /// wavefronts).
  void describeAccess(const DecodedInstruction &inst,
                      llvm::ArrayRef<unsigned> lanes, unsigned firstThread,
                      WarpAccess &access, bool sharedDetail = true);
  /// Whether `inst` may reach global or local memory (what a tracer that
  /// does not want every issue is told about).
  static bool mayTouchGlobal(const DecodedInstruction &inst) {
    switch (inst.opcode) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
      return inst.space != Space::Shared && inst.space != Space::Param;
    case Opcode::CpAsync:
      return true;
    default:
      return false;
    }
  }
  /// Adds it to the profile.
  void profileAccess(const WarpAccess &access);

  /// Checks a global access of `size` bytes and returns the buffer bytes.
  /// `copyLine` is the line of the cp.async whose copy a wait performs, 0
  /// for an access of `inst` itself. With `unwritten`, a read of bytes
  /// never written sets their bits there (bit i for address + i) for the
  /// caller to taint; without, it is an initcheck error.
  llvm::Expected<uint8_t *> global(const DecodedInstruction &inst, unsigned t,
                                   uint64_t address, unsigned size,
                                   unsigned alignment, bool isWrite,
                                   unsigned copyLine = 0,
                                   uint32_t *unwritten = nullptr);
  /// Checks a shared access (bounds, alignment, initcheck, racecheck);
  /// `unwritten` as for global.
  /// `stored`, for a write: the bytes it will leave there (a write of what
  /// the bytes already hold races with no other write).
  llvm::Error checkShared(const DecodedInstruction &inst, unsigned t,
                          uint64_t offset, unsigned size, bool isWrite,
                          unsigned copyLine = 0,
                          uint32_t *unwritten = nullptr,
                          const uint8_t *stored = nullptr);
  std::string copyNote(unsigned copyLine) const {
    return copyLine ? llvm::formatv(" (the copy of the cp.async at PTX line "
                                    "{0})",
                                    copyLine)
                          .str()
                    : std::string();
  }

  uint64_t &reg(unsigned t, unsigned slot) {
    return registers[uint64_t(t) * kernel.numRegisters + slot];
  }
  /// A register or immediate inline (most operands); the rest out of line.
  uint64_t value(const Operand &op, unsigned t) {
    if (op.kind == Operand::Kind::Register && !op.negated)
      return reg(t, op.reg);
    if (op.kind == Operand::Kind::Immediate)
      return op.imm;
    return otherValue(op, t);
  }
  uint64_t otherValue(const Operand &op, unsigned t);
  void finish(unsigned t) {
    threadState[t] = ThreadState::Finished;
    liveLanes[t / kWarpSize] &= ~(1u << (t % kWarpSize));
  }
  void set(unsigned t, unsigned slot, uint64_t v) {
    reg(t, slot) = maskBits(v, kernel.registerBits[slot]);
  }
  bool guardPasses(const DecodedInstruction &inst, unsigned t) {
    if (!inst.guard)
      return true;
    return (reg(t, *inst.guard) != 0) != inst.guardNegated;
  }

  std::string where(unsigned t, unsigned line) const;
  llvm::Error fault(unsigned t, const DecodedInstruction &inst,
                    const llvm::Twine &message) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   where(t, inst.line) + " '" + inst.text +
                                       "': " + message.str());
  }

  const DecodedKernel &kernel;
  const LaunchConfig &config;
  std::array<unsigned, 3> ctaid;
  llvm::ArrayRef<uint8_t> params;
  DeviceMemory &memory;
  const EmulatorOptions &options;
  KernelReport &report;
  GlobalWrites &globalWrites;
  CtaTracer *tracer;
  bool tracerWantsEveryIssue;
  unsigned numThreads, numWarps;
  std::vector<Thread> threads;
  std::vector<unsigned> threadPc;
  std::vector<ThreadState> threadState;
  /// Per warp: the lanes not Finished; whether all of them are Running at
  /// warpPc (so the next issue needs no scan).
  std::vector<uint32_t> liveLanes;
  std::vector<uint8_t> warpUniform;
  std::vector<unsigned> warpPc;
  std::vector<uint64_t> registers;
  uint64_t sharedSize;
  std::vector<uint8_t> shared;
  SharedShadow shadow;
  /// Each thread's .local memory, localBytes apiece, and (with initcheck)
  /// which of its bytes were written.
  uint64_t localBytes;
  std::vector<uint8_t> local;
  std::vector<uint8_t> localWritten;
  /// initcheck's taint, per register slot of each thread: the bytes whose
  /// value came from memory nothing wrote, and from where. Empty, and
  /// nothing tracked, until a load reads such bytes.
  bool taintLive = false;
  std::vector<uint8_t> taintMasks;
  std::vector<TaintOrigin> taintOrigins;
  uint64_t warpInstructions = 0;
  /// Per barrier id: threads arrived, and the count they expect.
  std::array<unsigned, 16> arrived{}, expected{};
};

std::string Cta::where(unsigned t, unsigned line) const {
  unsigned bx = config.block[0], by = config.block[1];
  return llvm::formatv("kernel '{0}' CTA ({1},{2},{3}) thread ({4},{5},{6}) "
                       "PTX line {7}",
                       kernel.name, ctaid[0], ctaid[1], ctaid[2], t % bx,
                       (t / bx) % by, t / (bx * by), line)
      .str();
}

uint64_t Cta::otherValue(const Operand &op, unsigned t) {
  switch (op.kind) {
  case Operand::Kind::Register: {
    uint64_t v = reg(t, op.reg);
    return op.negated ? uint64_t(v == 0) : v;
  }
  case Operand::Kind::Immediate:
    return op.imm;
  case Operand::Kind::Special: {
    unsigned bx = config.block[0], by = config.block[1];
    switch (op.special) {
    case SpecialRegister::TidX:
      return t % bx;
    case SpecialRegister::TidY:
      return (t / bx) % by;
    case SpecialRegister::TidZ:
      return t / (bx * by);
    case SpecialRegister::NtidX:
      return config.block[0];
    case SpecialRegister::NtidY:
      return config.block[1];
    case SpecialRegister::NtidZ:
      return config.block[2];
    case SpecialRegister::CtaidX:
      return ctaid[0];
    case SpecialRegister::CtaidY:
      return ctaid[1];
    case SpecialRegister::CtaidZ:
      return ctaid[2];
    case SpecialRegister::NctaidX:
      return config.grid[0];
    case SpecialRegister::NctaidY:
      return config.grid[1];
    case SpecialRegister::NctaidZ:
      return config.grid[2];
    case SpecialRegister::LaneId:
      return t % kWarpSize;
    case SpecialRegister::WarpId:
      return t / kWarpSize;
    case SpecialRegister::LanemaskEq:
      return uint32_t(1) << (t % kWarpSize);
    case SpecialRegister::LanemaskLe:
      return uint32_t((uint64_t(2) << (t % kWarpSize)) - 1);
    case SpecialRegister::LanemaskLt:
      return (uint32_t(1) << (t % kWarpSize)) - 1;
    case SpecialRegister::LanemaskGe:
      return ~((uint32_t(1) << (t % kWarpSize)) - 1);
    case SpecialRegister::LanemaskGt:
      return ~uint32_t((uint64_t(2) << (t % kWarpSize)) - 1);
    }
    llvm_unreachable("unknown special register");
  }
  case Operand::Kind::Address:
  case Operand::Kind::Vector:
  case Operand::Kind::Sink:
    break;
  }
  llvm_unreachable("the decoder admits only value operands here");
}

llvm::Error Cta::run() {
  bool progressed = true;
  while (progressed) {
    progressed = false;
    // Warps take turns of up to kTimeSlice issues: long turns keep one
    // warp's state hot, and turns at all let a warp that spins on memory
    // another warp writes see that write.
    for (unsigned w = 0; w < numWarps; ++w) {
      for (unsigned i = 0; i < kTimeSlice; ++i) {
        bool warpProgressed;
        if (llvm::Error err = stepWarp(w, warpProgressed))
          return err;
        if (!warpProgressed)
          break;
        progressed = true;
      }
    }
  }
  // Every thread has finished or waits at a barrier that cannot complete.
  unsigned finished = 0;
  for (ThreadState state : threadState)
    finished += state == ThreadState::Finished;
  if (finished == numThreads)
    return llvm::Error::success();
  unsigned t = 0;
  while (threadState[t] != ThreadState::AtBarrier)
    ++t;
  unsigned id = threads[t].barrier;
  return fault(t, kernel.code[threadPc[t] - 1],
               llvm::formatv("deadlock: {0} of {1} threads wait at barrier "
                             "{2}; {3} threads exited",
                             arrived[id], expected[id], id, finished));
}

// bar.sync (§9.7.13.1): the barrier completes when the expected number of
// threads arrived. Every completion starts a new racecheck epoch for all
// threads, so with partial barriers a race between two threads that took
// no part in it goes unseen.
llvm::Error Cta::arrive(const DecodedInstruction &inst,
                        llvm::ArrayRef<unsigned> lanes) {
  if (lanes.empty())
    return llvm::Error::success();
  unsigned id = inst.operands[0].imm;
  unsigned count =
      inst.operands.size() == 2 ? unsigned(inst.operands[1].imm) : numThreads;
  if (count > numThreads)
    return fault(lanes.front(), inst,
                 llvm::formatv("barrier {0} expects {1} threads but the CTA "
                               "has {2}",
                               id, count, numThreads));
  if (arrived[id] != 0 && expected[id] != count)
    return fault(lanes.front(), inst,
                 llvm::formatv("threads wait at barrier {0} for {1} and for "
                               "{2} threads",
                               id, expected[id], count));
  expected[id] = count;
  arrived[id] += lanes.size();
  if (arrived[id] > count)
    return fault(lanes.front(), inst,
                 llvm::formatv("{0} threads arrive at barrier {1}, which "
                               "expects {2}",
                               arrived[id], id, count));
  for (unsigned t : lanes) {
    threadState[t] = ThreadState::AtBarrier;
    threads[t].barrier = id;
  }
  if (arrived[id] < count)
    return llvm::Error::success();
  for (unsigned t = 0; t < numThreads; ++t)
    if (threadState[t] == ThreadState::AtBarrier && threads[t].barrier == id)
      threadState[t] = ThreadState::Running;
  arrived[id] = 0;
  shadow.nextEpoch();
  ++report.barriers;
  return llvm::Error::success();
}

// Whether the lanes at the warp collective `inst` wait for more of their
// members; otherwise it adds the members that waited there to `lanes` and
// `executing`. Apart from stepWarp: only shfl.sync and mma.sync come here.
bool Cta::waitForCollective(const DecodedInstruction &inst, unsigned pc,
                            unsigned first, unsigned last,
                            llvm::SmallVectorImpl<unsigned> &lanes,
                            uint32_t &executing) {
  // PTX ISA §9.7.9.6 (sm_70 and later): a thread executing shfl.sync
  // (likewise mma.sync) waits until every non-exited lane of membermask
  // executes the same instruction. The minimum-PC rule can run lanes
  // ahead of others (a loop latch laid out before its header), so the
  // lanes here wait for the missing ones, which run meanwhile.
  uint32_t needed = 0, waiting = 0;
  bool forced = false;
  for (unsigned t : lanes) {
    needed |= collectiveMask(inst, t);
    forced |= threads[t].forceCollective;
    threads[t].forceCollective = false;
  }
  uint32_t missing = 0;
  for (unsigned t = first; t < last; ++t) {
    uint32_t bit = 1u << (t - first);
    if (!(needed & bit) || (executing & bit))
      continue;
    if (threadState[t] == ThreadState::AtCollective && threadPc[t] == pc)
      waiting |= bit;
    else if (threadState[t] != ThreadState::Finished)
      missing |= bit;
  }
  if (missing && !forced) {
    for (unsigned t : lanes) {
      threadPc[t] = pc;
      threadState[t] = ThreadState::AtCollective;
    }
    return true;
  }
  for (unsigned t = first; t < last; ++t)
    if (waiting & (1u << (t - first))) {
      threadState[t] = ThreadState::Running;
      threadPc[t] = pc + 1;
      executing |= 1u << (t - first);
    }
  // The lanes in lane order again (a sort would cost more).
  if (waiting) {
    lanes.clear();
    for (unsigned t = first; t < last; ++t)
      if (executing & (1u << (t - first)))
        lanes.push_back(t);
  }
  return false;
}

llvm::Error Cta::stepWarp(unsigned warp, bool &progressed) {
  progressed = false;
  unsigned first = warp * kWarpSize;
  unsigned last = std::min(numThreads, first + kWarpSize);
  llvm::SmallVector<unsigned, kWarpSize> active;
  unsigned pc = ~0u;
  // A converged warp (every live lane Running at warpPc) skips the scan for
  // the minimum PC: most issues of most kernels.
  bool uniform = warpUniform[warp];
  if (uniform) {
    pc = warpPc[warp];
    for (uint32_t mask = liveLanes[warp]; mask; mask &= mask - 1)
      active.push_back(first + llvm::countr_zero(mask));
  } else {
    for (unsigned t = first; t < last; ++t)
      if (threadState[t] == ThreadState::Running)
        pc = std::min(pc, threadPc[t]);
    if (pc == ~0u) {
      // No lane can run: lanes waiting at a collective whose missing
      // members will never come (they exited, or all wait elsewhere) run it
      // now.
      for (unsigned t = first; t < last; ++t)
        if (threadState[t] == ThreadState::AtBarrier)
          return llvm::Error::success();
      for (unsigned t = first; t < last; ++t)
        if (threadState[t] == ThreadState::AtCollective)
          pc = std::min(pc, threadPc[t]);
      if (pc == ~0u)
        return llvm::Error::success();
      for (unsigned t = first; t < last; ++t)
        if (threadState[t] == ThreadState::AtCollective &&
            threadPc[t] == pc) {
          threadState[t] = ThreadState::Running;
          threads[t].forceCollective = true;
        }
    }
    for (unsigned t = first; t < last; ++t)
      if (threadState[t] == ThreadState::Running && threadPc[t] == pc)
        active.push_back(t);
    uniform = active.size() == unsigned(llvm::popcount(liveLanes[warp]));
  }
  progressed = true;
  // Set again below where the warp stays converged.
  warpUniform[warp] = false;

  if (pc >= kernel.code.size()) {
    // Falling off the end of the body returns.
    for (unsigned t : active)
      finish(t);
    return llvm::Error::success();
  }
  if (++warpInstructions > options.maxWarpInstructionsPerCta)
    return fault(active.front(), kernel.code[pc],
                 "instruction limit exceeded (a runaway loop?)");

  const DecodedInstruction &inst = kernel.code[pc];
  if (LLVM_UNLIKELY(taintLive) && inst.guard)
    for (unsigned t : active)
      if (llvm::Error err = checkSlotUse(
              t, inst, *inst.guard,
              inst.opcode == Opcode::Bra ? "the branch condition"
                                         : "the guard predicate"))
        return err;
  llvm::SmallVector<unsigned, kWarpSize> lanes;
  uint32_t executing = 0;
  for (unsigned t : active) {
    threadPc[t] = pc + 1;
    if (guardPasses(inst, t)) {
      lanes.push_back(t);
      executing |= 1u << (t - first);
    }
  }
  if ((inst.opcode == Opcode::Shfl || inst.opcode == Opcode::Mma ||
       inst.opcode == Opcode::Ldmatrix || inst.opcode == Opcode::Stmatrix ||
       inst.opcode == Opcode::Vote ||
       inst.opcode == Opcode::BarWarpSync) &&
      !lanes.empty() &&
      waitForCollective(inst, pc, first, last, lanes, executing))
    return llvm::Error::success();
  ++report.warpInstructions;
  report.threadInstructions += lanes.size();
  ++report.profile.instructions[unsigned(classify(inst))];
  if (inst.opcode == Opcode::Mma)
    report.profile.tensorCoreFlops += 2 * kMmaM * kMmaN * inst.mmaK;
  if (LLVM_UNLIKELY(options.profile || tracer) &&
      (options.profile || tracerWantsEveryIssue || mayTouchGlobal(inst))) {
    WarpAccess access;
    if (!lanes.empty())
      describeAccess(inst, lanes, first, access,
                     options.profile || tracerWantsEveryIssue);
    if (options.profile)
      profileAccess(access);
    if (tracer)
      tracer->issue({pc, warp, executing, access.kind, access.sectors,
                     unsigned(access.wavefronts),
                     unsigned(access.idealWavefronts)});
  }

  switch (inst.opcode) {
  case Opcode::Bra:
    for (unsigned t : lanes)
      threadPc[t] = inst.target;
    if (uniform && (lanes.empty() || lanes.size() == active.size())) {
      warpUniform[warp] = true;
      warpPc[warp] = lanes.empty() ? pc + 1 : inst.target;
    }
    return llvm::Error::success();
  case Opcode::Ret:
    for (unsigned t : lanes) {
      Thread &thread = threads[t];
      finish(t);
      size_t pending = thread.openGroup.size();
      for (const auto &group : thread.committedGroups)
        pending += group.size();
      // The kernel never made these copies visible: a missing wait_group.
      if (pending)
        return fault(t, inst,
                     llvm::formatv("thread exits with {0} cp.async "
                                   "copies never waited for",
                                   pending));
    }
    return llvm::Error::success();
  case Opcode::Trap:
    if (lanes.empty())
      return llvm::Error::success();
    return fault(lanes.front(), inst,
                 "the kernel executed trap (its abort: an indexing kernel "
                 "read an index out of range)");
  case Opcode::BarSync:
    return arrive(inst, lanes);
  case Opcode::Shfl:
    return executeShfl(inst, lanes, warp, executing);
  case Opcode::Mma:
    return executeMma(inst, lanes, warp, executing);
  case Opcode::Ldmatrix:
    return executeLdmatrix(inst, lanes, warp, executing);
  case Opcode::Stmatrix:
    return executeStmatrix(inst, lanes, warp, executing);
  case Opcode::Vote:
    return executeVote(inst, lanes, warp, executing);
  case Opcode::BarWarpSync:
    return executeWarpBarrier(inst, lanes, warp, executing);
  case Opcode::Activemask:
    // The lanes executing it together (the ISA's "activemask": the threads
    // of the warp that are active, no synchronization).
    for (unsigned t : lanes) {
      set(t, inst.operands[0].reg, executing);
      if (LLVM_UNLIKELY(taintLive))
        setTaint(t, inst.operands[0].reg, 0, TaintOrigin());
    }
    if (uniform) {
      warpUniform[warp] = true;
      warpPc[warp] = pc + 1;
    }
    return llvm::Error::success();
  default:
    if (llvm::Error err = LLVM_UNLIKELY(taintLive)
                              ? executeTracked(inst, lanes)
                          : LLVM_UNLIKELY(inst.rare)
                              ? executeRareLanes(inst, lanes)
                              : executeLanes(inst, lanes))
      return err;
    if (uniform) {
      warpUniform[warp] = true;
      warpPc[warp] = pc + 1;
    }
    return llvm::Error::success();
  }
}

// shfl.sync (§9.7.9.6): every lane of membermask must execute it together.
llvm::Error Cta::executeShfl(const DecodedInstruction &inst,
                             llvm::ArrayRef<unsigned> lanes, unsigned warp,
                             uint32_t executing) {
  unsigned first = warp * kWarpSize;
  std::array<uint64_t, kWarpSize> source{};
  for (unsigned t : lanes)
    source[t - first] = value(inst.operands[1], t);
  std::array<uint32_t, kWarpSize> result{};
  std::array<bool, kWarpSize> inRange{};
  // With taint: the lane, clamp and mask decide what moves (an error when
  // tainted); the value carries its taint to the lane that receives it.
  std::array<uint8_t, kWarpSize> sourceTaint{}, resultTaint{};
  std::array<TaintOrigin, kWarpSize> sourceOrigin{}, resultOrigin{};
  if (taintLive)
    for (unsigned t : lanes) {
      for (unsigned i = 2; i < 5; ++i)
        if (llvm::Error err = checkUse(t, inst, inst.operands[i],
                                       "the shuffle's lane, clamp or mask"))
          return err;
      std::optional<TaintOrigin> origin;
      sourceTaint[t - first] = operandTaint(inst.operands[1], t, origin);
      if (origin)
        sourceOrigin[t - first] = *origin;
    }
  for (unsigned t : lanes) {
    unsigned lane = t - first;
    uint32_t memberMask = value(inst.operands[4], t);
    if (!(memberMask & (1u << lane)) || (memberMask & ~executing))
      return fault(t, inst,
                   llvm::formatv("membermask {0:x8} but lanes {1:x8} execute "
                                 "together",
                                 memberMask, executing));
    uint32_t b = value(inst.operands[2], t) & 0x1f;
    uint32_t c = value(inst.operands[3], t);
    uint32_t clamp = c & 0x1f, segMask = (c >> 8) & 0x1f;
    int maxLane = (lane & segMask) | (clamp & ~segMask);
    int minLane = lane & segMask;
    int j = 0;
    bool pval = false;
    switch (inst.shflMode) {
    case ShflMode::Up:
      j = int(lane) - int(b);
      pval = j >= maxLane;
      break;
    case ShflMode::Down:
      j = lane + b;
      pval = j <= maxLane;
      break;
    case ShflMode::Bfly:
      j = lane ^ b;
      pval = j <= maxLane;
      break;
    case ShflMode::Idx:
      j = minLane | (b & ~segMask);
      pval = j <= maxLane;
      break;
    }
    if (!pval)
      j = lane;
    if (!(memberMask & (1u << j)))
      return fault(t, inst,
                   llvm::formatv("source lane {0} is not in the "
                                 "membermask",
                                 j));
    result[lane] = source[j];
    inRange[lane] = pval;
    resultTaint[lane] = sourceTaint[j];
    resultOrigin[lane] = sourceOrigin[j];
  }
  const Operand &dst = inst.operands[0];
  for (unsigned t : lanes) {
    set(t, dst.reg, result[t - first]);
    if (dst.predicate)
      set(t, *dst.predicate, inRange[t - first]);
    if (taintLive) {
      setTaint(t, dst.reg, resultTaint[t - first], resultOrigin[t - first]);
      if (dst.predicate)
        setTaint(t, *dst.predicate, 0, {});
    }
  }
  return llvm::Error::success();
}

// mma.sync.aligned (§9.7.15.5.14): all 32 lanes execute it together.
// stmatrix.sync.aligned.m8n8 (the ISA's "stmatrix"): the inverse of
// ldmatrix. Lane 8m + r gives the address of row r of matrix m (16 bytes,
// 16-byte aligned) and writes that row, for the checkers; lane 4r + w
// provides, per matrix, word w of row r (with .trans: elements r of rows
// 2w and 2w + 1). Data that uses never-written bytes is initcheck's error.
llvm::Error Cta::executeStmatrix(const DecodedInstruction &inst,
                                 llvm::ArrayRef<unsigned> lanes, unsigned warp,
                                 uint32_t executing) {
  if (executing != ~0u)
    return wholeWarpFault(inst, "stmatrix", lanes, warp, executing);
  constexpr unsigned kRows = 8, kRowBytes = 16;
  const Operand &addr = inst.operands[0];
  const auto &src = inst.operands[1].elements;
  unsigned count = inst.matrixCount;
  std::array<std::array<std::array<uint8_t, kRowBytes>, kRows>, 4> rows{};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    unsigned t = lanes[lane];
    for (unsigned m = 0; m < count; ++m) {
      if (LLVM_UNLIKELY(taintLive))
        if (llvm::Error err = checkUse(t, inst, src[m], "the stored data"))
          return err;
      uint32_t word = uint32_t(reg(t, src[m].reg));
      MatrixWordPlace at = matrixWordPlace(lane, inst.transpose);
      unsigned loRow = at.loRow, hiRow = at.hiRow, loByte = at.loByte,
               hiByte = at.hiByte;
      rows[m][loRow][loByte] = uint8_t(word);
      rows[m][loRow][loByte + 1] = uint8_t(word >> 8);
      rows[m][hiRow][hiByte] = uint8_t(word >> 16);
      rows[m][hiRow][hiByte + 1] = uint8_t(word >> 24);
    }
  }
  for (unsigned m = 0; m < count; ++m)
    for (unsigned r = 0; r < kRows; ++r) {
      unsigned t = lanes[8 * m + r];
      if (LLVM_UNLIKELY(taintLive))
        if (llvm::Error err = checkUse(t, inst, addr, "the row's address"))
          return err;
      uint64_t address =
          (addr.baseIsRegister ? reg(t, addr.reg) : 0) + addr.imm;
      if (llvm::Error err = checkShared(inst, t, address, kRowBytes, true))
        return err;
      std::memcpy(shared.data() + address, rows[m][r].data(), kRowBytes);
    }
  return llvm::Error::success();
}

// vote.sync (the ISA's "vote.sync"): every lane of membermask executes it
// together; .ballot gives each the bits of the lanes whose predicate holds,
// .all, .any and .uni whether it holds in all, any, or all or none of them.
llvm::Error Cta::executeVote(const DecodedInstruction &inst,
                             llvm::ArrayRef<unsigned> lanes, unsigned warp,
                             uint32_t executing) {
  unsigned first = warp * kWarpSize;
  uint32_t ballot = 0;
  for (unsigned t : lanes) {
    if (LLVM_UNLIKELY(taintLive))
      for (unsigned i = 1; i < 3; ++i)
        if (llvm::Error err = checkUse(t, inst, inst.operands[i],
                                       "the vote's predicate or membermask"))
          return err;
    if (auto problem =
            membermaskProblem(collectiveMask(inst, t), t, executing))
      return fault(t, inst, *problem);
    if (value(inst.operands[1], t) & 1)
      ballot |= 1u << (t - first);
  }
  for (unsigned t : lanes) {
    uint32_t members = collectiveMask(inst, t) & executing;
    uint32_t yes = ballot & members;
    uint64_t result = 0;
    switch (inst.voteMode) {
    case VoteMode::Ballot:
      result = yes;
      break;
    case VoteMode::All:
      result = yes == members;
      break;
    case VoteMode::Any:
      result = yes != 0;
      break;
    case VoteMode::Uni:
      result = yes == 0 || yes == members;
      break;
    }
    set(t, inst.operands[0].reg, result);
    if (LLVM_UNLIKELY(taintLive))
      setTaint(t, inst.operands[0].reg, 0, TaintOrigin());
  }
  return llvm::Error::success();
}

// bar.warp.sync (the ISA's "bar.warp.sync"): the lanes of membermask wait
// for each other, and their memory accesses before it are ordered before
// those after. For racecheck that starts a new epoch, as bar.sync does; as
// with partial barriers, a race between threads outside it across that
// point goes unseen.
llvm::Error Cta::executeWarpBarrier(const DecodedInstruction &inst,
                                    llvm::ArrayRef<unsigned> lanes,
                                    unsigned warp, uint32_t executing) {
  for (unsigned t : lanes) {
    if (LLVM_UNLIKELY(taintLive))
      if (llvm::Error err =
              checkUse(t, inst, inst.operands[0], "the membermask"))
        return err;
    if (auto problem =
            membermaskProblem(collectiveMask(inst, t), t, executing))
      return fault(t, inst, *problem);
  }
  if (!lanes.empty() && options.racecheck)
    shadow.nextEpoch();
  return llvm::Error::success();
}

// ldmatrix.sync.aligned.m8n8 (the ISA's "warp-level matrix load"): lane
// 8m + r gives the address of row r of matrix m, 16 bytes (8 elements),
// 16-byte aligned; lane 4r + w receives, per matrix, the 32-bit word w of
// row r: its elements 2w (low half) and 2w + 1. With .trans, the matrix
// comes transposed: lane 4r + w receives elements r of rows 2w and 2w + 1.
// Each row is read by the lane that gives its address, for the checkers.
llvm::Error Cta::executeLdmatrix(const DecodedInstruction &inst,
                                 llvm::ArrayRef<unsigned> lanes, unsigned warp,
                                 uint32_t executing) {
  if (executing != ~0u)
    return wholeWarpFault(inst, "ldmatrix", lanes, warp, executing);
  constexpr unsigned kRows = 8, kRowBytes = 16;
  const Operand &addr = inst.operands[1];
  unsigned count = inst.matrixCount;
  // The rows' bytes and, with initcheck, their never-written bytes.
  std::array<std::array<std::array<uint8_t, kRowBytes>, kRows>, 4> rows;
  std::array<std::array<uint32_t, kRows>, 4> unwritten{};
  std::array<std::array<uint64_t, kRows>, 4> rowAddress{};
  bool anyUnwritten = false;
  for (unsigned m = 0; m < count; ++m)
    for (unsigned r = 0; r < kRows; ++r) {
      unsigned t = lanes[8 * m + r];
      if (LLVM_UNLIKELY(taintLive))
        if (llvm::Error err = checkUse(t, inst, addr, "the row's address"))
          return err;
      uint64_t address =
          (addr.baseIsRegister ? reg(t, addr.reg) : 0) + addr.imm;
      if (llvm::Error err = checkShared(inst, t, address, kRowBytes, false, 0,
                                        &unwritten[m][r]))
        return err;
      std::memcpy(rows[m][r].data(), shared.data() + address, kRowBytes);
      rowAddress[m][r] = address;
      anyUnwritten |= unwritten[m][r] != 0;
    }
  if (LLVM_UNLIKELY(anyUnwritten) && !taintLive)
    startTaint();
  const auto &dst = inst.operands[0].elements;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    unsigned t = lanes[lane];
    for (unsigned m = 0; m < count; ++m) {
      MatrixWordPlace at = matrixWordPlace(lane, inst.transpose);
      unsigned loRow = at.loRow, hiRow = at.hiRow, loByte = at.loByte,
               hiByte = at.hiByte;
      const auto &lo = rows[m][loRow], &hi = rows[m][hiRow];
      uint32_t word = uint32_t(lo[loByte]) | uint32_t(lo[loByte + 1]) << 8 |
                      uint32_t(hi[hiByte]) << 16 |
                      uint32_t(hi[hiByte + 1]) << 24;
      set(t, dst[m].reg, word);
      if (!LLVM_UNLIKELY(taintLive))
        continue;
      uint8_t loMask = unwritten[m][loRow] >> loByte & 3,
              hiMask = unwritten[m][hiRow] >> hiByte & 3;
      TaintOrigin origin;
      if (loMask || hiMask) {
        bool fromLo = loMask != 0;
        origin.address = rowAddress[m][fromLo ? loRow : hiRow] +
                         (fromLo ? loByte : hiByte) +
                         llvm::countr_zero(unsigned(fromLo ? loMask : hiMask));
        origin.pc = uint32_t(&inst - kernel.code.data());
        origin.bytes = uint8_t(llvm::popcount(unsigned(loMask)) +
                               llvm::popcount(unsigned(hiMask)));
        origin.space = Space::Shared;
      }
      setTaint(t, dst[m].reg, uint8_t(loMask | hiMask << 2), origin);
    }
  }
  return llvm::Error::success();
}

llvm::Error Cta::executeMma(const DecodedInstruction &inst,
                            llvm::ArrayRef<unsigned> lanes, unsigned warp,
                            uint32_t executing) {
  if (executing != ~0u)
    return wholeWarpFault(inst, "mma", lanes, warp, executing);
  MmaCRegisters c;
  const auto &dOps = inst.operands[0].elements,
             &aOps = inst.operands[1].elements,
             &bOps = inst.operands[2].elements,
             &cOps = inst.operands[3].elements;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 4; ++i)
      c[lane][i] = asF32(reg(lanes[lane], cOps[i].reg));
  // Each lane's A and B registers, as many as the shape has.
  auto gather = [&](auto &registers, const std::vector<Operand> &ops) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned i = 0; i < registers[lane].size(); ++i)
        registers[lane][i] = uint32_t(reg(lanes[lane], ops[i].reg));
  };
  MmaCRegisters d;
  if (inst.mmaK == kMmaK) {
    MmaARegisters a;
    MmaBRegisters b;
    gather(a, aOps);
    gather(b, bOps);
    d = mmaM16N8K16(inst.mmaType, a, b, c);
  } else {
    MmaK8ARegisters a;
    MmaK8BRegisters b;
    gather(a, aOps);
    gather(b, bOps);
    d = mmaM16N8K8(inst.mmaType, a, b, c);
  }
  // With taint: D(row, col) sums A(row, k) B(k, col) over k, plus C(row,
  // col), so it is tainted when any of those is (per element, through the
  // fragment layouts: padding rows or columns taint only their own).
  std::array<std::array<bool, 4>, kWarpSize> dTaint{};
  TaintOrigin origin;
  if (taintLive) {
    bool k16 = inst.mmaK == kMmaK, haveOrigin = false;
    std::array<bool, kMmaM> rowTainted{};
    std::array<bool, kMmaN> colTainted{};
    auto element = [&](unsigned lane, const Operand &reg, unsigned e) {
      unsigned t = lanes[lane];
      bool tainted = taintOf(t, reg.reg) >> (2 * (e % 2)) & 3;
      if (tainted && !haveOrigin) {
        origin = originOf(t, reg.reg);
        haveOrigin = true;
      }
      return tainted;
    };
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      for (unsigned e = 0; e < (k16 ? kMmaAElements : kMmaK8AElements); ++e)
        if (element(lane, aOps[e / 2], e))
          rowTainted[(k16 ? mmaM16N8K16ACoord(lane, e)
                          : mmaM16N8K8ACoord(lane, e))
                         .row] = true;
      for (unsigned e = 0; e < (k16 ? kMmaBElements : kMmaK8BElements); ++e)
        if (element(lane, bOps[e / 2], e))
          colTainted[(k16 ? mmaM16N8K16BCoord(lane, e)
                          : mmaM16N8K8BCoord(lane, e))
                         .col] = true;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      for (unsigned i = 0; i < 4; ++i) {
        MatrixCoord at = mmaM16N8K16CCoord(lane, i);
        bool cTainted = taintOf(lanes[lane], cOps[i].reg) != 0;
        if (cTainted && !haveOrigin) {
          origin = originOf(lanes[lane], cOps[i].reg);
          haveOrigin = true;
        }
        dTaint[lane][i] = rowTainted[at.row] || colTainted[at.col] || cTainted;
      }
  }
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      set(lanes[lane], dOps[i].reg, fromF32(d[lane][i]));
      if (taintLive)
        setTaint(lanes[lane], dOps[i].reg, dTaint[lane][i] ? 0xff : 0,
                 origin);
    }
  return llvm::Error::success();
}

// add, sub, mul, mad, fma, div, rem, neg, abs, min and max on the integer
// types, f32 and f16: the PtxArithmetic.h semantics by type and modifier.
template <Opcode Op>
llvm::Error Cta::executeArithmeticLane(const DecodedInstruction &inst,
                                       unsigned t) {
  const auto &ops = inst.operands;
  ScalarType type = inst.type;
  unsigned bits = bitWidth(type);
  bool isSigned = isSignedInt(type);
  bool isF32 = type == ScalarType::F32, isF16 = type == ScalarType::F16;
  bool isF64 = type == ScalarType::F64;
  auto operand = [&](unsigned i) { return value(ops[i], t); };
  auto d64 = [&](unsigned i) { return f64FromBits(operand(i)); };
  Rounding rounding = inst.rounding.value_or(Rounding::Rn);
  auto result = [&](uint64_t v) { set(t, ops[0].reg, maskBits(v, bits)); };
  F32Modifiers f32Mods{inst.rounding.value_or(Rounding::Rn), inst.ftz,
                       inst.sat};
  F16Modifiers f16Mods{inst.ftz, inst.sat};
  auto h = [](uint64_t v) { return static_cast<uint16_t>(v); };

  switch (Op) {
  case Opcode::Add:
  case Opcode::Sub: {
    uint64_t a = operand(1), b = operand(2);
    bool add = inst.opcode == Opcode::Add;
    if (isF64)
      return result(f64Bits(add ? addF64(d64(1), d64(2), rounding)
                                : subF64(d64(1), d64(2), rounding))),
             llvm::Error::success();
    if (isF32)
      return result(fromF32(add ? addF32(asF32(a), asF32(b), f32Mods)
                                : subF32(asF32(a), asF32(b), f32Mods))),
             llvm::Error::success();
    if (isF16)
      return result(add ? addF16(h(a), h(b), f16Mods)
                        : subF16(h(a), h(b), f16Mods)),
             llvm::Error::success();
    result(add ? a + b : a - b);
    return llvm::Error::success();
  }
  case Opcode::Mul:
  case Opcode::Mad: {
    uint64_t a = operand(1), b = operand(2);
    bool mad = inst.opcode == Opcode::Mad;
    if (isF64) {
      // mad.rnd.f64 is fma (§9.7.3.7).
      result(f64Bits(mad ? fmaF64(d64(1), d64(2), d64(3), rounding)
                         : mulF64(d64(1), d64(2), rounding)));
      return llvm::Error::success();
    }
    if (isF32) {
      float r = mad ? fmaF32(asF32(a), asF32(b), asF32(operand(3)), f32Mods)
                    : mulF32(asF32(a), asF32(b), f32Mods);
      result(fromF32(r));
      return llvm::Error::success();
    }
    if (isF16) {
      result(mulF16(h(a), h(b), f16Mods));
      return llvm::Error::success();
    }
    uint64_t c = mad ? operand(3) : 0;
    uint64_t r = 0;
    switch (inst.mulMode) {
    case MulMode::Lo:
      r = a * b + c;
      break;
    case MulMode::Hi:
      if (bits == 16)
        r = isSigned ? uint16_t(mulHiS16(int16_t(a), int16_t(b)))
                     : mulHiU16(uint16_t(a), uint16_t(b));
      else if (bits == 32)
        r = isSigned ? uint32_t(mulHiS32(int32_t(a), int32_t(b)))
                     : mulHiU32(uint32_t(a), uint32_t(b));
      else
        r = isSigned ? uint64_t(mulHiS64(int64_t(a), int64_t(b)))
                     : mulHiU64(a, b);
      r += c;
      break;
    case MulMode::Wide:
      // The destination is twice as wide: write it unmasked, wrapped to 32
      // bits for the 16-bit forms.
      if (bits == 16)
        r = isSigned ? uint32_t(mulWideS16(int16_t(a), int16_t(b)))
                     : mulWideU16(uint16_t(a), uint16_t(b));
      else
        r = isSigned ? uint64_t(mulWideS32(int32_t(a), int32_t(b)))
                     : mulWideU32(uint32_t(a), uint32_t(b));
      r += c;
      if (bits == 16)
        r = uint32_t(r);
      set(t, ops[0].reg, r);
      return llvm::Error::success();
    }
    result(r);
    return llvm::Error::success();
  }
  case Opcode::Fma:
    if (isF64)
      result(f64Bits(fmaF64(d64(1), d64(2), d64(3), rounding)));
    else if (isF32)
      result(fromF32(fmaF32(asF32(operand(1)), asF32(operand(2)),
                            asF32(operand(3)), f32Mods)));
    else
      result(fmaF16(h(operand(1)), h(operand(2)), h(operand(3)), f16Mods));
    return llvm::Error::success();
  case Opcode::Div:
  case Opcode::Rem: {
    uint64_t a = operand(1), b = operand(2);
    if (isF64) {
      result(f64Bits(divF64(d64(1), d64(2), rounding)));
      return llvm::Error::success();
    }
    if (isF32) {
      // div.full.f32 is within 2 ulp of the quotient (§9.7.3.8): the
      // correctly rounded quotient is one such result (the runtime's
      // comparison with a GPU allows the 2 ulp, ApproxInstructions.h).
      float r = inst.approx ? divApproxF32(asF32(a), asF32(b), inst.ftz)
                : inst.fullRange
                    ? divF32(asF32(a), asF32(b), Rounding::Rn, inst.ftz)
                    : divF32(asF32(a), asF32(b), *inst.rounding, inst.ftz);
      result(fromF32(r));
      return llvm::Error::success();
    }
    // The ISA leaves division by zero and the signed overflow undefined.
    if (maskBits(b, bits) == 0)
      return fault(t, inst, "integer division by zero");
    bool div = inst.opcode == Opcode::Div;
    if (isSigned) {
      int64_t sa = signExtend(a, bits), sb = signExtend(b, bits);
      if (sb == -1 && sa == signExtend(uint64_t(1) << (bits - 1), bits))
        return fault(t, inst, "signed division overflow");
      result(uint64_t(div ? sa / sb : sa % sb));
    } else {
      uint64_t ua = maskBits(a, bits), ub = maskBits(b, bits);
      result(div ? ua / ub : ua % ub);
    }
    return llvm::Error::success();
  }
  case Opcode::Neg:
  case Opcode::Abs: {
    uint64_t a = operand(1);
    bool neg = inst.opcode == Opcode::Neg;
    // Float neg and abs act on the sign bit alone (§9.7.3.9, §9.7.3.10).
    if (isF32 || isF16 || isF64) {
      uint64_t sign = uint64_t(1) << (bits - 1);
      result(neg ? a ^ sign : a & ~sign);
    } else {
      int64_t s = signExtend(a, bits);
      result(neg ? uint64_t(0) - a : uint64_t(s < 0 ? -(uint64_t)s : s));
    }
    return llvm::Error::success();
  }
  case Opcode::Min:
  case Opcode::Max: {
    uint64_t a = operand(1), b = operand(2);
    bool isMin = inst.opcode == Opcode::Min;
    if (isF64) {
      result(f64Bits(isMin ? minF64(d64(1), d64(2)) : maxF64(d64(1), d64(2))));
    } else if (isF32) {
      result(fromF32(
          isMin ? minF32(asF32(a), asF32(b), inst.propagateNan, inst.ftz)
                : maxF32(asF32(a), asF32(b), inst.propagateNan, inst.ftz)));
    } else if (isF16) {
      result(isMin ? minF16(h(a), h(b), inst.propagateNan, inst.ftz)
                   : maxF16(h(a), h(b), inst.propagateNan, inst.ftz));
    } else {
      bool less = isSigned ? signExtend(a, bits) < signExtend(b, bits)
                           : maskBits(a, bits) < maskBits(b, bits);
      result(less == isMin ? a : b);
    }
    return llvm::Error::success();
  }
  default:
    break;
  }
  llvm_unreachable("executeArithmeticLane runs only its own opcodes");
}

// Shifts, logic and bfe: integer bit manipulation, apart from the
// arithmetic since none of it rounds or depends on float modifiers.
template <Opcode Op>
llvm::Error Cta::executeBitLane(const DecodedInstruction &inst, unsigned t) {
  const auto &ops = inst.operands;
  ScalarType type = inst.type;
  unsigned bits = bitWidth(type);
  bool isSigned = isSignedInt(type);
  auto operand = [&](unsigned i) { return value(ops[i], t); };
  auto result = [&](uint64_t v) { set(t, ops[0].reg, maskBits(v, bits)); };

  switch (Op) {
  case Opcode::Shl:
  case Opcode::Shr: {
    uint64_t a = maskBits(operand(1), bits);
    // The shift amount is always .u32; amounts past the width clamp to it
    // (§9.7.8.8, §9.7.8.9).
    uint32_t amount = static_cast<uint32_t>(operand(2));
    uint64_t r;
    if (inst.opcode == Opcode::Shl)
      r = bits == 64 ? shlB64(a, amount)
                     : shlB32(uint32_t(a), std::min(amount, bits));
    else if (isSigned)
      r = bits == 64 ? uint64_t(shrS64(int64_t(a), amount))
                     : uint64_t(shrS32(int32_t(signExtend(a, bits)),
                                       std::min(amount, bits)));
    else
      r = bits == 64 ? shrU64(a, amount) : shrU32(uint32_t(a), amount);
    result(r);
    return llvm::Error::success();
  }
  case Opcode::And:
    result(operand(1) & operand(2));
    return llvm::Error::success();
  case Opcode::Or:
    result(operand(1) | operand(2));
    return llvm::Error::success();
  case Opcode::Xor:
    result(operand(1) ^ operand(2));
    return llvm::Error::success();
  case Opcode::Not:
    result(~operand(1));
    return llvm::Error::success();
  case Opcode::Bfe: {
    uint64_t a = operand(1);
    uint32_t pos = operand(2), len = operand(3);
    uint64_t r;
    if (bits == 32)
      r = isSigned ? uint32_t(bfeS32(int32_t(a), pos, len))
                   : bfeU32(uint32_t(a), pos, len);
    else
      r = isSigned ? uint64_t(bfeS64(int64_t(a), pos, len))
                   : bfeU64(a, pos, len);
    result(r);
    return llvm::Error::success();
  }
  default:
    break;
  }
  llvm_unreachable("executeBitLane runs only its own opcodes");
}

// setp: its ordered and unordered float comparisons and the signed and
// unsigned integer ones are a concern of their own.
template <Opcode Op>
llvm::Error Cta::executeSetpLane(const DecodedInstruction &inst, unsigned t) {
  const auto &ops = inst.operands;
  ScalarType type = inst.type;
  unsigned bits = bitWidth(type);
  bool isSigned = isSignedInt(type);
  bool isF32 = type == ScalarType::F32, isF16 = type == ScalarType::F16;
  auto operand = [&](unsigned i) { return value(ops[i], t); };

  switch (Op) {
  case Opcode::Setp: {
    uint64_t a = operand(1), b = operand(2);
    bool r = false;
    if (isF32 || isF16 || type == ScalarType::BF16 ||
        type == ScalarType::F64) {
      double x = compareValue(a, type, inst.ftz),
             y = compareValue(b, type, inst.ftz);
      bool unordered = std::isnan(x) || std::isnan(y);
      switch (inst.compare) {
      case Compare::Eq:
        r = !unordered && x == y;
        break;
      case Compare::Ne:
        r = !unordered && x != y;
        break;
      case Compare::Lt:
        r = !unordered && x < y;
        break;
      case Compare::Le:
        r = !unordered && x <= y;
        break;
      case Compare::Gt:
        r = !unordered && x > y;
        break;
      case Compare::Ge:
        r = !unordered && x >= y;
        break;
      case Compare::Equ:
        r = unordered || x == y;
        break;
      case Compare::Neu:
        r = unordered || x != y;
        break;
      case Compare::Ltu:
        r = unordered || x < y;
        break;
      case Compare::Leu:
        r = unordered || x <= y;
        break;
      case Compare::Gtu:
        r = unordered || x > y;
        break;
      case Compare::Geu:
        r = unordered || x >= y;
        break;
      case Compare::Num:
        r = !unordered;
        break;
      case Compare::Nan:
        r = unordered;
        break;
      default:
        llvm_unreachable("the decoder rejects integer comparisons");
      }
    } else {
      int64_t sa = signExtend(a, bits), sb = signExtend(b, bits);
      uint64_t ua = maskBits(a, bits), ub = maskBits(b, bits);
      switch (inst.compare) {
      case Compare::Eq:
        r = ua == ub;
        break;
      case Compare::Ne:
        r = ua != ub;
        break;
      case Compare::Lt:
        r = isSigned ? sa < sb : ua < ub;
        break;
      case Compare::Le:
        r = isSigned ? sa <= sb : ua <= ub;
        break;
      case Compare::Gt:
        r = isSigned ? sa > sb : ua > ub;
        break;
      case Compare::Ge:
        r = isSigned ? sa >= sb : ua >= ub;
        break;
      case Compare::Lo:
        r = ua < ub;
        break;
      case Compare::Ls:
        r = ua <= ub;
        break;
      case Compare::Hi:
        r = ua > ub;
        break;
      case Compare::Hs:
        r = ua >= ub;
        break;
      default:
        llvm_unreachable("the decoder rejects float comparisons");
      }
    }
    set(t, ops[0].reg, r);
    return llvm::Error::success();
  }
  default:
    break;
  }
  llvm_unreachable("executeSetpLane runs only its own opcodes");
}

// selp, mov (packing and unpacking halves), cvt and cvta: data movement
// and conversions between types, which set no arithmetic flags.
template <Opcode Op>
llvm::Error Cta::executeMoveLane(const DecodedInstruction &inst, unsigned t) {
  const auto &ops = inst.operands;
  ScalarType type = inst.type;
  unsigned bits = bitWidth(type);
  bool isSigned = isSignedInt(type);
  auto operand = [&](unsigned i) { return value(ops[i], t); };
  auto result = [&](uint64_t v) { set(t, ops[0].reg, maskBits(v, bits)); };
  auto h = [](uint64_t v) { return static_cast<uint16_t>(v); };

  switch (Op) {
  case Opcode::Selp:
    result(operand(3) ? operand(1) : operand(2));
    return llvm::Error::success();
  case Opcode::Mov: {
    const Operand &dst = ops[0], &src = ops[1];
    unsigned half = bits / 2;
    if (src.kind == Operand::Kind::Vector) {
      result(maskBits(value(src.elements[0], t), half) |
             (maskBits(value(src.elements[1], t), half) << half));
    } else if (dst.kind == Operand::Kind::Vector) {
      uint64_t v = operand(1);
      for (unsigned i = 0; i < 2; ++i)
        if (dst.elements[i].kind == Operand::Kind::Register)
          set(t, dst.elements[i].reg, maskBits(v >> (i * half), half));
    } else {
      result(operand(1));
    }
    return llvm::Error::success();
  }
  case Opcode::Cvt: {
    using T = ScalarType;
    ScalarType from = inst.sourceType;
    uint64_t a = operand(1);
    if (type == T::F16x2 || type == T::BF16x2) {
      float x = asF32(a), y = asF32(operand(2));
      result(type == T::F16x2 ? cvtF32PairToF16x2(x, y, *inst.rounding)
                              : cvtF32PairToBF16x2(x, y, *inst.rounding));
      return llvm::Error::success();
    }
    if (type == T::F64 || from == T::F64) {
      // f64 (§9.7.9.21): exact widening from f32, rounded narrowing, and
      // the integer conversions in their rounding modes.
      if (type == T::F64 && from == T::F32)
        result(f64Bits(cvtF32ToF64(asF32(a), inst.ftz)));
      else if (type == T::F32)
        result(fromF32(cvtF64ToF32(f64FromBits(a), *inst.rounding, inst.ftz,
                                   inst.sat)));
      else if (type == T::F64)
        result(f64Bits(cvtIntToF64(maskBits(a, bitWidth(from)),
                                   bitWidth(from), isSignedInt(from),
                                   *inst.rounding)));
      else
        result(uint64_t(cvtF64ToInt(f64FromBits(a), *inst.intRounding, bits,
                                    isSigned)));
      return llvm::Error::success();
    }
    if (type == T::F32 && from == T::F32) {
      float x = asF32(a);
      result(fromF32(
          inst.sat ? saturateF32(x)
                   : cvtF32RoundToIntegral(x, *inst.intRounding, inst.ftz)));
      return llvm::Error::success();
    }
    if (type == T::F32 && from == T::F16) {
      result(fromF32(cvtF16ToF32(h(a))));
      return llvm::Error::success();
    }
    if (type == T::F32 && from == T::BF16) {
      result(fromF32(cvtBF16ToF32(h(a))));
      return llvm::Error::success();
    }
    if (type == T::F16 || type == T::BF16) {
      result(type == T::F16
                 ? cvtF32ToF16(asF32(a), *inst.rounding, false, inst.ftz)
                 : cvtF32ToBF16(asF32(a), *inst.rounding, false, inst.ftz));
      return llvm::Error::success();
    }
    unsigned fromBits = bitWidth(from);
    if (type == T::F32) {
      Rounding rnd = *inst.rounding;
      float r = fromBits == 32
                    ? (isSignedInt(from) ? cvtS32ToF32(int32_t(a), rnd)
                                         : cvtU32ToF32(uint32_t(a), rnd))
                    : (isSignedInt(from) ? cvtS64ToF32(int64_t(a), rnd)
                                         : cvtU64ToF32(a, rnd));
      result(fromF32(r));
      return llvm::Error::success();
    }
    if (from == T::F32) {
      float x = asF32(a);
      IntRounding rnd = *inst.intRounding;
      uint64_t r = bits == 32
                       ? (isSigned ? uint32_t(cvtF32ToS32(x, rnd, inst.ftz))
                                   : cvtF32ToU32(x, rnd, inst.ftz))
                       : (isSigned ? uint64_t(cvtF32ToS64(x, rnd, inst.ftz))
                                   : cvtF32ToU64(x, rnd, inst.ftz));
      result(r);
      return llvm::Error::success();
    }
    // Integer to integer: the source's signedness decides the extension
    // (§9.7.9.21).
    result(isSignedInt(from) ? uint64_t(signExtend(a, fromBits))
                             : maskBits(a, fromBits));
    return llvm::Error::success();
  }
  case Opcode::Cvta: {
    // Global addresses are generic ones; shared and local memory have
    // their windows (kGenericSharedBase, kGenericLocalBase).
    uint64_t base = inst.space == Space::Shared  ? kGenericSharedBase
                    : inst.space == Space::Local ? kGenericLocalBase
                                                 : 0;
    uint64_t a = operand(1);
    result(inst.fromGeneric ? a - base : a + base);
    return llvm::Error::success();
  }
  default:
    break;
  }
  llvm_unreachable("executeMoveLane runs only its own opcodes");
}

// The special functions (ex2, lg2, rsqrt, sin, cos, tanh, sqrt, rcp): the
// approximations of the SFU and the IEEE forms of sqrt and rcp.
template <Opcode Op>
llvm::Error Cta::executeSpecialFunctionLane(const DecodedInstruction &inst,
                                            unsigned t) {
  const auto &ops = inst.operands;
  ScalarType type = inst.type;
  unsigned bits = bitWidth(type);
  auto operand = [&](unsigned i) { return value(ops[i], t); };
  auto result = [&](uint64_t v) { set(t, ops[0].reg, maskBits(v, bits)); };

  switch (Op) {
  case Opcode::Ex2:
    result(fromF32(ex2ApproxF32(asF32(operand(1)), inst.ftz)));
    return llvm::Error::success();
  case Opcode::Lg2:
    result(fromF32(lg2ApproxF32(asF32(operand(1)), inst.ftz)));
    return llvm::Error::success();
  case Opcode::Rsqrt:
    result(fromF32(rsqrtApproxF32(asF32(operand(1)), inst.ftz)));
    return llvm::Error::success();
  case Opcode::Sin:
    result(fromF32(sinApproxF32(asF32(operand(1)), inst.ftz)));
    return llvm::Error::success();
  case Opcode::Cos:
    result(fromF32(cosApproxF32(asF32(operand(1)), inst.ftz)));
    return llvm::Error::success();
  case Opcode::Tanh:
    result(fromF32(tanhApproxF32(asF32(operand(1)))));
    return llvm::Error::success();
  case Opcode::Sqrt: {
    if (type == ScalarType::F64) {
      result(f64Bits(sqrtF64(f64FromBits(operand(1)), *inst.rounding)));
      return llvm::Error::success();
    }
    float x = asF32(operand(1));
    result(fromF32(inst.approx ? sqrtApproxF32(x, inst.ftz)
                               : sqrtF32(x, *inst.rounding, inst.ftz)));
    return llvm::Error::success();
  }
  case Opcode::Rcp: {
    if (type == ScalarType::F64) {
      result(f64Bits(rcpF64(f64FromBits(operand(1)), *inst.rounding)));
      return llvm::Error::success();
    }
    float x = asF32(operand(1));
    result(fromF32(inst.approx ? rcpApproxF32(x, inst.ftz)
                               : rcpF32(x, *inst.rounding, inst.ftz)));
    return llvm::Error::success();
  }
  default:
    break;
  }
  llvm_unreachable("executeSpecialFunctionLane runs only its own opcodes");
}

// cp.async and its groups: a thread's queue of copies, not its registers.
template <Opcode Op>
llvm::Error Cta::executeAsyncCopyLane(const DecodedInstruction &inst,
                                      unsigned t) {
  const auto &ops = inst.operands;
  auto operand = [&](unsigned i) { return value(ops[i], t); };

  switch (Op) {
  case Opcode::CpAsync:
    return issueCopy(inst, t);
  case Opcode::CpAsyncCommit: {
    Thread &thread = threads[t];
    thread.committedGroups.push_back(std::move(thread.openGroup));
    thread.openGroup.clear();
    return llvm::Error::success();
  }
  case Opcode::CpAsyncWaitAll: {
    // wait_all is commit_group followed by wait_group 0 (§9.7.9.25.3.3).
    Thread &thread = threads[t];
    thread.committedGroups.push_back(std::move(thread.openGroup));
    thread.openGroup.clear();
    return waitCopies(inst, t, 0);
  }
  case Opcode::CpAsyncWait:
    return waitCopies(inst, t, operand(0));
  default:
    break;
  }
  llvm_unreachable("executeAsyncCopyLane runs only its own opcodes");
}

// One lane of a lane-local instruction: each family of opcodes in a
// function of its own, instantiated per opcode like this one so that both
// switches fold away inside the lane loop.
template <Opcode Op>
llvm::Error Cta::executeLane(const DecodedInstruction &inst, unsigned t) {
  switch (Op) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Mad:
  case Opcode::Fma:
  case Opcode::Div:
  case Opcode::Rem:
  case Opcode::Neg:
  case Opcode::Abs:
  case Opcode::Min:
  case Opcode::Max:
    return executeArithmeticLane<Op>(inst, t);
  case Opcode::Shl:
  case Opcode::Shr:
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Xor:
  case Opcode::Not:
  case Opcode::Bfe:
    return executeBitLane<Op>(inst, t);
  case Opcode::Setp:
    return executeSetpLane<Op>(inst, t);
  case Opcode::Selp:
  case Opcode::Mov:
  case Opcode::Cvt:
  case Opcode::Cvta:
    return executeMoveLane<Op>(inst, t);
  case Opcode::Ld:
    return load(inst, t);
  case Opcode::St:
    return store(inst, t);
  case Opcode::Atom:
  case Opcode::Red:
    return atomic(inst, t);
  case Opcode::Ex2:
  case Opcode::Lg2:
  case Opcode::Sqrt:
  case Opcode::Rsqrt:
  case Opcode::Rcp:
  case Opcode::Sin:
  case Opcode::Cos:
  case Opcode::Tanh:
    return executeSpecialFunctionLane<Op>(inst, t);
  case Opcode::CpAsync:
  case Opcode::CpAsyncCommit:
  case Opcode::CpAsyncWait:
  case Opcode::CpAsyncWaitAll:
    return executeAsyncCopyLane<Op>(inst, t);
  case Opcode::Membar:
  case Opcode::Fence:
    // Nothing to order (PtxOpcodes.def).
    return llvm::Error::success();
  default:
    break;
  }
  llvm_unreachable("rare opcodes run in executeRareLane, warp-level ones in "
                   "stepWarp");
}

llvm::Error Cta::executeLanes(const DecodedInstruction &inst,
                              llvm::ArrayRef<unsigned> lanes) {
  switch (inst.opcode) {
#define PTX_LANE_OPCODE(Enum, Mnemonic, Class)                                 \
  case Opcode::Enum:                                                           \
    for (unsigned t : lanes)                                                   \
      if (llvm::Error err = executeLane<Opcode::Enum>(inst, t))                \
        return err;                                                            \
    return llvm::Error::success();
#include "PtxOpcodes.def"
  default:
    break;
  }
  llvm_unreachable("rare forms run in executeRareLanes, warp-level opcodes "
                   "in stepWarp");
}

llvm::Error Cta::executeRareLanes(const DecodedInstruction &inst,
                                  llvm::ArrayRef<unsigned> lanes) {
  switch (inst.opcode) {
#define PTX_RARE_OPCODE(Enum, Mnemonic, Class)                                 \
  case Opcode::Enum:                                                           \
    for (unsigned t : lanes)                                                   \
      if (llvm::Error err = executeRareLane<Opcode::Enum>(inst, t))            \
        return err;                                                            \
    return llvm::Error::success();
#define PTX_SPLIT_OPCODE(Enum, Mnemonic, Class)                                \
  PTX_RARE_OPCODE(Enum, Mnemonic, Class)
#include "PtxOpcodes.def"
  default:
    break;
  }
  llvm_unreachable("the decoder marks no other opcode rare");
}

// The rare forms (DecodedInstruction::rare): the half-precision arithmetic
// on bf16, f16x2 and bf16x2 (§9.7.4; packed forms per 16-bit half), fma
// .relu, neg/abs .ftz, the bit instructions and copysign.
template <Opcode Op>
llvm::Error Cta::executeRareLane(const DecodedInstruction &inst, unsigned t) {
  const auto &ops = inst.operands;
  ScalarType type = inst.type;
  unsigned bits = bitWidth(type);
  auto operand = [&](unsigned i) { return value(ops[i], t); };
  auto result = [&](uint64_t v) {
    set(t, ops[0].reg, maskBits(v, bits));
    return llvm::Error::success();
  };
  bool nan = inst.propagateNan, ftz = inst.ftz;
  F16Modifiers mods{inst.ftz, inst.sat, inst.relu};
  using T = ScalarType;

  switch (Op) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Min:
  case Opcode::Max: {
    uint64_t a = operand(1), b = operand(2);
    uint16_t x = uint16_t(a), y = uint16_t(b);
    uint32_t p = uint32_t(a), q = uint32_t(b);
    switch (type) {
    case T::BF16:
      return result(Op == Opcode::Add   ? addBF16(x, y)
                    : Op == Opcode::Sub ? subBF16(x, y)
                    : Op == Opcode::Mul ? mulBF16(x, y)
                    : Op == Opcode::Min ? minBF16(x, y, nan)
                                        : maxBF16(x, y, nan));
    case T::F16x2:
      return result(Op == Opcode::Add   ? addF16x2(p, q, mods)
                    : Op == Opcode::Sub ? subF16x2(p, q, mods)
                    : Op == Opcode::Mul ? mulF16x2(p, q, mods)
                    : Op == Opcode::Min ? minF16x2(p, q, nan, ftz)
                                        : maxF16x2(p, q, nan, ftz));
    case T::BF16x2:
      return result(Op == Opcode::Add   ? addBF16x2(p, q)
                    : Op == Opcode::Sub ? subBF16x2(p, q)
                    : Op == Opcode::Mul ? mulBF16x2(p, q)
                    : Op == Opcode::Min ? minBF16x2(p, q, nan)
                                        : maxBF16x2(p, q, nan));
    default:
      break;
    }
    break;
  }
  case Opcode::Fma: {
    uint64_t a = operand(1), b = operand(2), c = operand(3);
    switch (type) {
    case T::F16:
      return result(fmaF16(uint16_t(a), uint16_t(b), uint16_t(c), mods));
    case T::BF16:
      return result(fmaBF16(uint16_t(a), uint16_t(b), uint16_t(c), inst.relu));
    case T::F16x2:
      return result(fmaF16x2(uint32_t(a), uint32_t(b), uint32_t(c), mods));
    case T::BF16x2:
      return result(
          fmaBF16x2(uint32_t(a), uint32_t(b), uint32_t(c), inst.relu));
    default:
      break;
    }
    break;
  }
  case Opcode::Neg:
  case Opcode::Abs: {
    // The sign bit alone, after .ftz (§9.7.3.9, §9.7.3.10, §9.7.4.5,
    // §9.7.4.6).
    uint64_t a = operand(1);
    bool neg = Op == Opcode::Neg;
    switch (type) {
    case T::F32:
      return result(
          fromF32(neg ? negF32(asF32(a), ftz) : absF32(asF32(a), ftz)));
    case T::F16:
      return result(neg ? negF16(uint16_t(a), ftz) : absF16(uint16_t(a), ftz));
    case T::BF16:
      return result(neg ? negBF16(uint16_t(a)) : absBF16(uint16_t(a)));
    case T::F16x2:
      return result(neg ? negF16x2(uint32_t(a), ftz)
                        : absF16x2(uint32_t(a), ftz));
    case T::BF16x2:
      return result(neg ? negBF16x2(uint32_t(a)) : absBF16x2(uint32_t(a)));
    default:
      break;
    }
    break;
  }
  case Opcode::Lop3:
    return result(lop3B32(uint32_t(operand(1)), uint32_t(operand(2)),
                          uint32_t(operand(3)), uint8_t(operand(4))));
  case Opcode::Bfi: {
    uint64_t a = operand(1), b = operand(2);
    uint32_t pos = operand(3), len = operand(4);
    return result(bits == 32 ? bfiB32(uint32_t(a), uint32_t(b), pos, len)
                             : bfiB64(a, b, pos, len));
  }
  // popc, clz and bfind write a .u32 whatever their source type.
  case Opcode::Popc: {
    uint64_t a = operand(1);
    set(t, ops[0].reg, bits == 32 ? popcB32(uint32_t(a)) : popcB64(a));
    return llvm::Error::success();
  }
  case Opcode::Clz: {
    uint64_t a = operand(1);
    set(t, ops[0].reg, bits == 32 ? clzB32(uint32_t(a)) : clzB64(a));
    return llvm::Error::success();
  }
  case Opcode::Bfind: {
    uint64_t a = operand(1);
    bool shift = inst.shiftAmount, isSigned = isSignedInt(type);
    uint32_t r = bits == 32 ? (isSigned ? bfindS32(int32_t(a), shift)
                                        : bfindU32(uint32_t(a), shift))
                            : (isSigned ? bfindS64(int64_t(a), shift)
                                        : bfindU64(a, shift));
    set(t, ops[0].reg, r);
    return llvm::Error::success();
  }
  case Opcode::Brev: {
    uint64_t a = operand(1);
    return result(bits == 32 ? brevB32(uint32_t(a)) : brevB64(a));
  }
  case Opcode::Prmt:
    return result(prmtB32(uint32_t(operand(1)), uint32_t(operand(2)),
                          uint32_t(operand(3)), inst.prmtMode));
  case Opcode::Shf: {
    uint32_t a = operand(1), b = operand(2), c = operand(3);
    return result(inst.shiftLeft ? shfLB32(a, b, c, inst.clamp)
                                 : shfRB32(a, b, c, inst.clamp));
  }
  case Opcode::Copysign:
    return result(fromF32(copysignF32(asF32(operand(1)), asF32(operand(2)))));
  default:
    break;
  }
  llvm_unreachable("the decoder marks no other form rare");
}

//===----------------------------------------------------------------------===//
// initcheck's taint (Taint.h)
//===----------------------------------------------------------------------===//

void Cta::startTaint() {
  taintLive = true;
  taintMasks.assign(registers.size(), 0);
  taintOrigins.assign(registers.size(), TaintOrigin());
}

uint8_t Cta::operandTaint(const Operand &op, unsigned t,
                          std::optional<TaintOrigin> &origin) const {
  auto ofSlot = [&](unsigned slot) -> uint8_t {
    uint8_t mask = taintOf(t, slot);
    if (mask && !origin)
      origin = originOf(t, slot);
    return mask;
  };
  switch (op.kind) {
  case Operand::Kind::Register:
    // `!%p` is 0 or 1 whatever byte of %p is tainted.
    return op.negated ? (ofSlot(op.reg) ? 1 : 0) : ofSlot(op.reg);
  case Operand::Kind::Address:
    return op.baseIsRegister ? ofSlot(op.reg) : 0;
  case Operand::Kind::Vector: {
    uint8_t mask = 0;
    for (const Operand &element : op.elements)
      mask |= operandTaint(element, t, origin);
    return mask;
  }
  case Operand::Kind::Immediate:
  case Operand::Kind::Special:
  case Operand::Kind::Sink:
    return 0;
  }
  llvm_unreachable("unknown operand kind");
}

llvm::Error Cta::taintedUse(unsigned t, const DecodedInstruction &inst,
                            llvm::StringRef what, const TaintOrigin &origin) {
  const DecodedInstruction &from = kernel.code[origin.pc];
  llvm::StringRef space = origin.space == Space::Shared  ? "shared"
                          : origin.space == Space::Local ? "local"
                                                         : "global";
  return fault(t, inst,
               llvm::formatv("initcheck: {0} uses bytes never written: {1} "
                             "read of {2} bytes at {3:x} by '{4}' at PTX "
                             "line {5}",
                             what, space, unsigned(origin.bytes),
                             origin.address, from.text, from.line));
}

llvm::Error Cta::checkUse(unsigned t, const DecodedInstruction &inst,
                          const Operand &op, llvm::StringRef what) {
  std::optional<TaintOrigin> origin;
  if (!operandTaint(op, t, origin))
    return llvm::Error::success();
  return taintedUse(t, inst, what, *origin);
}

llvm::Error Cta::checkSlotUse(unsigned t, const DecodedInstruction &inst,
                              unsigned slot, llvm::StringRef what) {
  if (!taintOf(t, slot))
    return llvm::Error::success();
  return taintedUse(t, inst, what, originOf(t, slot));
}

// Where a tainted value must not go (a store's data, an address, a
// cp.async's size) and what the destinations of the other lane-local
// instructions inherit. The precise forms are those that move bytes
// without mixing them; the rest taint their whole result.
llvm::Error Cta::taintSources(const DecodedInstruction &inst, unsigned t,
                              TaintUpdate &update) {
  const auto &ops = inst.operands;
  switch (inst.opcode) {
  case Opcode::Ld:
    // The load taints its destinations itself, from the bytes it reads.
    return checkUse(t, inst, ops[1], "the load's address");
  case Opcode::St:
    if (llvm::Error err = checkUse(t, inst, ops[0], "the store's address"))
      return err;
    return checkUse(t, inst, ops[1], "the stored data");
  case Opcode::CpAsync:
    for (const Operand &op : ops)
      if (llvm::Error err =
              checkUse(t, inst, op, "the cp.async's address or size"))
        return err;
    return llvm::Error::success();
  case Opcode::Atom:
  case Opcode::Red:
    // The old value comes from bytes checked written (atomic()).
    for (size_t i = inst.opcode == Opcode::Atom ? 1 : 0; i < ops.size(); ++i)
      if (llvm::Error err =
              checkUse(t, inst, ops[i], "the atomic's address or operand"))
        return err;
    return llvm::Error::success();
  case Opcode::CpAsyncCommit:
  case Opcode::CpAsyncWait:
  case Opcode::CpAsyncWaitAll:
  case Opcode::Membar:
  case Opcode::Fence:
    return llvm::Error::success();
  default:
    break;
  }
  const Operand &dst = ops[0];
  std::optional<TaintOrigin> origin;
  auto of = [&](const Operand &op) { return operandTaint(op, t, origin); };
  ScalarType type = inst.type;
  unsigned bits = bitWidth(type);
  // All of the destination, if any source byte is tainted.
  auto whole = [&] {
    uint8_t any = 0;
    for (unsigned i = 1; i < ops.size(); ++i)
      any |= of(ops[i]);
    return any ? uint8_t(0xff) : uint8_t(0);
  };
  bool immediateSecond =
      ops.size() > 2 && ops[2].kind == Operand::Kind::Immediate;
  switch (inst.opcode) {
  case Opcode::Mov: {
    // Packing and unpacking halves (mov.b32 %r, {%h0, %h1}) keep each
    // half's bytes apart.
    unsigned halfBytes = bits / 16;
    uint8_t half = taintWidth(bits / 2);
    if (ops[1].kind == Operand::Kind::Vector) {
      uint8_t mask = 0;
      for (unsigned i = 0; i < 2; ++i)
        mask |= uint8_t((of(ops[1].elements[i]) & half) << (i * halfBytes));
      update.add(dst.reg, mask);
    } else if (dst.kind == Operand::Kind::Vector) {
      uint8_t source = of(ops[1]);
      for (unsigned i = 0; i < 2; ++i)
        if (dst.elements[i].kind == Operand::Kind::Register)
          update.add(dst.elements[i].reg,
                     uint8_t(source >> (i * halfBytes) & half));
    } else {
      update.add(dst.reg, of(ops[1]) & taintWidth(bits));
    }
    break;
  }
  case Opcode::Cvt: {
    ScalarType from = inst.sourceType;
    if (type == ScalarType::F16x2 || type == ScalarType::BF16x2) {
      // cvt.rn.f16x2.f32 d, a, b: a rounds into the upper half, b into
      // the lower.
      update.add(dst.reg, uint8_t((of(ops[1]) ? 0xc : 0) |
                                  (of(ops[2]) ? 0x3 : 0)));
      break;
    }
    if (isFloatType(type) || isFloatType(from)) {
      update.add(dst.reg, whole());
      break;
    }
    // Integer to integer: the source's bytes truncated or extended; a sign
    // extension copies the top byte's taint.
    unsigned fromBits = bitWidth(from);
    uint8_t source = of(ops[1]) & taintWidth(fromBits);
    if (isSignedInt(from) && (source >> (fromBits / 8 - 1) & 1))
      source |= uint8_t(~taintWidth(fromBits));
    update.add(dst.reg, source & taintWidth(bits));
    break;
  }
  case Opcode::Shl:
  case Opcode::Shr:
    if (immediateSecond)
      update.add(dst.reg, taintShift(of(ops[1]), bits, ops[2].imm,
                                     inst.opcode == Opcode::Shl,
                                     isSignedInt(type)));
    else
      update.add(dst.reg, whole());
    break;
  case Opcode::And:
    if (immediateSecond)
      update.add(dst.reg, taintAndConstant(of(ops[1]), ops[2].imm));
    else if (ops[1].kind == Operand::Kind::Immediate)
      update.add(dst.reg, taintAndConstant(of(ops[2]), ops[1].imm));
    else
      update.add(dst.reg, whole());
    break;
  case Opcode::Selp:
    // A tainted predicate taints the choice; else the chosen value's taint.
    if (of(ops[3]))
      update.add(dst.reg, 0xff);
    else
      update.add(dst.reg, of(ops[value(ops[3], t) ? 1 : 2]));
    break;
  case Opcode::Prmt:
    if (inst.prmtMode == PrmtMode::Default &&
        ops[3].kind == Operand::Kind::Immediate)
      update.add(dst.reg, taintPrmt(of(ops[1]), of(ops[2]), ops[3].imm));
    else
      update.add(dst.reg, whole());
    break;
  default:
    if (dst.kind != Operand::Kind::Register)
      break;
    if (type == ScalarType::F16x2 || type == ScalarType::BF16x2) {
      // Packed arithmetic works on each half alone.
      uint8_t any = 0;
      for (unsigned i = 1; i < ops.size(); ++i)
        any |= of(ops[i]);
      update.add(dst.reg,
                 uint8_t((any & 0x3 ? 0x3 : 0) | (any & 0xc ? 0xc : 0)));
      break;
    }
    update.add(dst.reg, whole());
    break;
  }
  if (origin)
    update.origin = *origin;
  return llvm::Error::success();
}

void Cta::applyTaint(unsigned t, const TaintUpdate &update) {
  for (unsigned i = 0; i < update.count; ++i)
    setTaint(t, update.slots[i], update.masks[i], update.origin);
}

llvm::Error Cta::executeTracked(const DecodedInstruction &inst,
                                llvm::ArrayRef<unsigned> lanes) {
  for (const unsigned &t : lanes) {
    TaintUpdate update;
    if (llvm::Error err = taintSources(inst, t, update))
      return err;
    llvm::ArrayRef<unsigned> lane(t);
    if (llvm::Error err = inst.rare ? executeRareLanes(inst, lane)
                                    : executeLanes(inst, lane))
      return err;
    applyTaint(t, update);
  }
  return llvm::Error::success();
}

llvm::Expected<uint8_t *> Cta::global(const DecodedInstruction &inst,
                                      unsigned t, uint64_t address,
                                      unsigned size, unsigned alignment,
                                      bool isWrite, unsigned copyLine,
                                      uint32_t *unwritten) {
  auto error = [&](llvm::StringRef what) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0} '{1}': {2}: global {3} of {4} bytes at {5:x}{6}",
                      where(t, inst.line), inst.text, what,
                      isWrite ? "write" : "read", size, address,
                      copyNote(copyLine))
            .str());
  };
  uint64_t base;
  DeviceMemory::Buffer *buffer = memory.find(address, size, base);
  if (!buffer)
    return error("memcheck: outside every device buffer");
  if (address % alignment)
    return error("memcheck: misaligned");
  uint64_t offset = address - base;
  // Other CTAs' writes of this launch stay out of the shadow until it ends
  // (launchKernel), so what counts as written does not depend on the order
  // CTAs run in.
  if (!isWrite && options.initcheck) {
    for (unsigned i = 0; i < size; ++i) {
      bool launchWrote = globalWrites.contains(address + i);
      if (!buffer->written[offset + i] && !launchWrote) {
        if (!unwritten)
          return error("initcheck: reads bytes never written");
        *unwritten |= 1u << i;
      }
      // The read-only path is only defined for memory no thread of the
      // launch writes; this CTA wrote these bytes.
      if (inst.nonCoherent && launchWrote)
        return error("ld.global.nc reads bytes this launch wrote (the "
                     "non-coherent path need not see them)");
    }
  }
  if (isWrite && options.initcheck)
    globalWrites.add(address, size);
  return buffer->data.data() + offset;
}

llvm::Error Cta::checkShared(const DecodedInstruction &inst, unsigned t,
                             uint64_t offset, unsigned size, bool isWrite,
                             unsigned copyLine, uint32_t *unwrittenBytes,
                             const uint8_t *stored) {
  auto error = [&](const llvm::Twine &what) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0} '{1}': {2}: shared {3} of {4} bytes at {5:x}{6}",
                      where(t, inst.line), inst.text, what.str(),
                      isWrite ? "write" : "read", size, offset,
                      copyNote(copyLine))
            .str());
  };
  if (offset + size > sharedSize || offset + size < offset)
    return error(llvm::formatv("memcheck: outside the {0} bytes of shared "
                               "memory",
                               sharedSize));
  if (offset % size)
    return error("memcheck: misaligned");
  if (!options.initcheck && !options.racecheck)
    return llvm::Error::success();
  bool unwritten = false;
  auto conflict = isWrite ? shadow.write(offset, size, t)
                          : shadow.read(offset, size, t, unwritten);
  if (unwritten && options.initcheck) {
    if (!unwrittenBytes)
      return error("initcheck: reads bytes never written");
    *unwrittenBytes = shadow.unwrittenMask(offset, size);
  }
  // Another thread's write of the very bytes this one stores, by lanes of
  // one st (CUDA defines the result) or by other warps (Triton's cross-warp
  // reductions, where warps holding the same elements store the same
  // partial): in either order memory ends the same, so no later access can
  // tell; a read of the bytes is still checked on its own.
  if (options.racecheck && conflict && isWrite && conflict->otherWrote &&
      stored && std::memcmp(shared.data() + offset, stored, size) == 0)
    conflict.reset();
  if (options.racecheck && conflict) {
    std::string other =
        conflict->otherThread == kSeveralThreads
            ? std::string("several threads")
            : llvm::formatv("thread {0}", conflict->otherThread).str();
    return error(llvm::formatv("racecheck: {0} {1} these bytes since the "
                               "last barrier",
                               other, conflict->otherWrote ? "wrote" : "read"));
  }
  return llvm::Error::success();
}

llvm::Expected<uint8_t *> Cta::localBytesAt(const DecodedInstruction &inst,
                                             unsigned t, uint64_t offset,
                                             unsigned size, bool isWrite,
                                             uint32_t *unwrittenBytes) {
  auto error = [&](const llvm::Twine &what) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0} '{1}': {2}: local {3} of {4} bytes at {5:x}",
                      where(t, inst.line), inst.text, what.str(),
                      isWrite ? "write" : "read", size, offset)
            .str());
  };
  if (offset + size > localBytes || offset + size < offset)
    return error(llvm::formatv("memcheck: outside the thread's {0} bytes of "
                               "local memory",
                               localBytes));
  if (offset % size)
    return error("memcheck: misaligned");
  uint64_t at = uint64_t(t) * localBytes + offset;
  if (options.initcheck) {
    for (unsigned i = 0; i < size; ++i) {
      if (isWrite)
        localWritten[at + i] = 1;
      else if (!localWritten[at + i])
        *unwrittenBytes |= 1u << i;
    }
  }
  return local.data() + at;
}

llvm::Error Cta::load(const DecodedInstruction &inst, unsigned t) {
  const Operand &addr = inst.operands[1];
  uint64_t address = (addr.baseIsRegister ? reg(t, addr.reg) : 0) + addr.imm;
  unsigned elementBytes = bitWidth(inst.type) / 8;
  unsigned total = elementBytes * inst.vectorWidth;
  const uint8_t *bytes = nullptr;
  // Bytes never written are no error yet: they taint what they are loaded
  // into, and only a use of that is reported.
  uint32_t unwritten = 0;
  Space space = inst.space;
  if (space == Space::Generic)
    space = resolveGeneric(address);
  switch (space) {
  case Space::Generic:
    llvm_unreachable("resolved above");
  case Space::Local: {
    auto data = localBytesAt(inst, t, address, total, false, &unwritten);
    if (!data)
      return data.takeError();
    bytes = *data;
    break;
  }
  case Space::Param:
    if (address + total > params.size() || address + total < address)
      return fault(t, inst,
                   llvm::formatv("parameter read of {0} bytes at "
                                 "offset {1} is outside the {2} "
                                 "parameter bytes",
                                 total, address, params.size()));
    bytes = params.data() + address;
    break;
  case Space::Global: {
    auto data = global(inst, t, address, total, total, false, 0, &unwritten);
    if (!data)
      return data.takeError();
    bytes = *data;
    break;
  }
  case Space::Shared:
    if (llvm::Error err =
            checkShared(inst, t, address, total, false, 0, &unwritten))
      return err;
    bytes = shared.data() + address;
    break;
  }
  if (LLVM_UNLIKELY(unwritten) && !taintLive)
    startTaint();
  const Operand &dst = inst.operands[0];
  for (unsigned i = 0; i < inst.vectorWidth; ++i) {
    const Operand &element = inst.vectorWidth == 1 ? dst : dst.elements[i];
    if (element.kind != Operand::Kind::Register)
      continue;
    uint64_t v = readBytes(bytes + i * elementBytes, elementBytes);
    // Signed loads into wider registers sign-extend (§9.7.9.8).
    if (isSignedInt(inst.type))
      v = signExtend(v, elementBytes * 8);
    set(t, element.reg, v);
    if (LLVM_UNLIKELY(taintLive)) {
      uint8_t mask = uint8_t(unwritten >> (i * elementBytes) &
                             ((1u << elementBytes) - 1));
      TaintOrigin origin;
      if (mask) {
        origin.address =
            address + i * elementBytes + llvm::countr_zero(unsigned(mask));
        origin.pc = uint32_t(&inst - kernel.code.data());
        origin.bytes = uint8_t(llvm::popcount(unsigned(mask)));
        origin.space = space;
        // A sign extension copies the top byte's taint upwards.
        if (isSignedInt(inst.type) && (mask >> (elementBytes - 1) & 1))
          mask |= uint8_t(0xff << elementBytes);
      }
      setTaint(t, element.reg, mask, origin);
    }
  }
  return llvm::Error::success();
}

// atom and red (§9.7.13.5, §9.7.13.6): the lanes one after another in
// lane order (an order the hardware may choose); each reads the old value,
// writes the new one and, for atom, returns the old. The old value must
// have been written (initcheck). In shared memory, atomics do not race with
// each other; a plain access after one in the same epoch by another thread
// does.
llvm::Error Cta::atomic(const DecodedInstruction &inst, unsigned t) {
  bool isAtom = inst.opcode == Opcode::Atom;
  const auto &ops = inst.operands;
  const Operand &addr = ops[isAtom ? 1 : 0];
  uint64_t address = (addr.baseIsRegister ? reg(t, addr.reg) : 0) + addr.imm;
  unsigned bits = bitWidth(inst.type), size = bits / 8;
  uint8_t *bytes = nullptr;
  if (inst.space == Space::Global) {
    auto read = global(inst, t, address, size, size, false, 0, nullptr);
    if (!read)
      return read.takeError();
    auto write = global(inst, t, address, size, size, true);
    if (!write)
      return write.takeError();
    bytes = *write;
  } else {
    auto error = [&](const llvm::Twine &what) {
      return fault(t, inst,
                   llvm::formatv("{0}: shared atomic of {1} bytes at {2:x}",
                                 what.str(), size, address)
                       .str());
    };
    if (address + size > sharedSize || address + size < address)
      return error(llvm::formatv("memcheck: outside the {0} bytes of shared "
                                 "memory",
                                 sharedSize));
    if (address % size)
      return error("memcheck: misaligned");
    if (options.initcheck && shadow.unwrittenMask(address, size))
      return error("initcheck: reads bytes never written");
    if (options.initcheck || options.racecheck)
      (void)shadow.write(address, size, t); // for the plain accesses after
    bytes = shared.data() + address;
  }
  uint64_t old = readBytes(bytes, size);
  uint64_t b = maskBits(value(ops[isAtom ? 2 : 1], t), bits);
  uint64_t result = 0;
  bool isSigned = isSignedInt(inst.type);
  switch (inst.atomOp) {
  case AtomOp::Add:
    // atom.add.f32 rounds to nearest and flushes subnormal inputs and
    // results to zeros of their sign (§9.7.13.5).
    if (inst.type == ScalarType::F32) {
      F32Modifiers ftz;
      ftz.ftz = true;
      result = fromF32(addF32(asF32(old), asF32(b), ftz));
    } else {
      result = old + b;
    }
    break;
  case AtomOp::Min:
  case AtomOp::Max: {
    bool less = isSigned ? signExtend(b, bits) < signExtend(old, bits)
                         : b < old;
    bool takeB = inst.atomOp == AtomOp::Min ? less : !less && b != old;
    result = takeB ? b : old;
    break;
  }
  case AtomOp::Inc:
    result = old >= b ? 0 : old + 1;
    break;
  case AtomOp::Dec:
    result = old == 0 || old > b ? b : old - 1;
    break;
  case AtomOp::And:
    result = old & b;
    break;
  case AtomOp::Or:
    result = old | b;
    break;
  case AtomOp::Xor:
    result = old ^ b;
    break;
  case AtomOp::Exch:
    result = b;
    break;
  case AtomOp::Cas:
    result = old == b ? maskBits(value(ops[3], t), bits) : old;
    break;
  }
  writeBytes(bytes, maskBits(result, bits), size);
  if (isAtom) {
    // A signed old value widens with its sign, as ld does.
    set(t, ops[0].reg, isSigned ? uint64_t(signExtend(old, bits)) : old);
    if (LLVM_UNLIKELY(taintLive))
      setTaint(t, ops[0].reg, 0, TaintOrigin());
  }
  return llvm::Error::success();
}

llvm::Error Cta::store(const DecodedInstruction &inst, unsigned t) {
  const Operand &addr = inst.operands[0];
  uint64_t address = (addr.baseIsRegister ? reg(t, addr.reg) : 0) + addr.imm;
  unsigned elementBytes = bitWidth(inst.type) / 8;
  unsigned total = elementBytes * inst.vectorWidth;
  uint8_t *bytes = nullptr;
  Space space = inst.space;
  if (space == Space::Generic)
    space = resolveGeneric(address);
  if (space == Space::Global) {
    auto data = global(inst, t, address, total, total, true);
    if (!data)
      return data.takeError();
    bytes = *data;
  } else if (space == Space::Local) {
    auto data = localBytesAt(inst, t, address, total, true, nullptr);
    if (!data)
      return data.takeError();
    bytes = *data;
  } else {
    // What the store leaves, for racecheck (a sink keeps the bytes).
    std::array<uint8_t, 32> after{};
    if (address + total <= sharedSize && total <= after.size()) {
      std::memcpy(after.data(), shared.data() + address, total);
      const Operand &src = inst.operands[1];
      for (unsigned i = 0; i < inst.vectorWidth; ++i) {
        const Operand &element = inst.vectorWidth == 1 ? src : src.elements[i];
        if (element.kind != Operand::Kind::Sink)
          writeBytes(after.data() + i * elementBytes, value(element, t),
                     elementBytes);
      }
    }
    if (llvm::Error err = checkShared(
            inst, t, address, total, true, 0, nullptr,
            address + total <= sharedSize && total <= after.size()
                ? after.data()
                : nullptr))
      return err;
    bytes = shared.data() + address;
  }
  const Operand &src = inst.operands[1];
  for (unsigned i = 0; i < inst.vectorWidth; ++i) {
    const Operand &element = inst.vectorWidth == 1 ? src : src.elements[i];
    if (element.kind == Operand::Kind::Sink)
      continue;
    writeBytes(bytes + i * elementBytes, value(element, t), elementBytes);
  }
  return llvm::Error::success();
}

// cp.async (§9.7.9.25.3): the copy is only queued; wait_group makes it
// visible.
llvm::Error Cta::issueCopy(const DecodedInstruction &inst, unsigned t) {
  const Operand &dst = inst.operands[0], &src = inst.operands[1];
  AsyncCopy copy;
  copy.shared = (dst.baseIsRegister ? reg(t, dst.reg) : 0) + dst.imm;
  copy.global = (src.baseIsRegister ? reg(t, src.reg) : 0) + src.imm;
  copy.bytes = inst.copyBytes;
  copy.sourceBytes = inst.copyBytes;
  copy.line = inst.line;
  if (inst.operands.size() == 4) {
    uint64_t sourceBytes = value(inst.operands[3], t);
    if (sourceBytes > inst.copyBytes)
      return fault(t, inst,
                   llvm::formatv("src-size {0} exceeds cp-size {1}",
                                 sourceBytes, inst.copyBytes));
    copy.sourceBytes = sourceBytes;
  }
  // Bounds and alignment are checked at issue, where the bug is.
  if (copy.shared + copy.bytes > sharedSize || copy.shared % copy.bytes)
    return fault(t, inst,
                 llvm::formatv("memcheck: cp.async destination of "
                               "{0} bytes at shared {1:x} is "
                               "outside or misaligned",
                               copy.bytes, copy.shared));
  uint64_t base;
  if (copy.sourceBytes && (!memory.find(copy.global, copy.sourceBytes, base) ||
                           copy.global % copy.bytes))
    return fault(t, inst,
                 llvm::formatv("memcheck: cp.async source of {0} "
                               "bytes at {1:x} is outside every "
                               "device buffer or misaligned",
                               copy.sourceBytes, copy.global));
  threads[t].openGroup.push_back(copy);
  return llvm::Error::success();
}

llvm::Error Cta::waitCopies(const DecodedInstruction &inst, unsigned t,
                            uint64_t keep) {
  Thread &thread = threads[t];
  while (thread.committedGroups.size() > keep) {
    for (const AsyncCopy &copy : thread.committedGroups.front()) {
      // 16 bytes, the common cp-size, as fixed-size copies (moves); other
      // sizes as library calls.
      uint8_t buffer[16] = {};
      if (copy.sourceBytes) {
        auto data = global(inst, t, copy.global, copy.sourceBytes, copy.bytes,
                           false, copy.line);
        if (!data)
          return data.takeError();
        if (copy.sourceBytes == 16)
          std::memcpy(buffer, *data, 16);
        else
          std::memcpy(buffer, *data, copy.sourceBytes);
      }
      if (llvm::Error err =
              checkShared(inst, t, copy.shared, copy.bytes, true, copy.line))
        return err;
      if (copy.bytes == 16)
        std::memcpy(shared.data() + copy.shared, buffer, 16);
      else
        std::memcpy(shared.data() + copy.shared, buffer, copy.bytes);
    }
    thread.committedGroups.pop_front();
  }
  return llvm::Error::success();
}

void Cta::describeAccess(const DecodedInstruction &inst,
                         llvm::ArrayRef<unsigned> lanes, unsigned firstThread,
                         WarpAccess &access, bool sharedDetail) {
  auto addressOf = [&](const Operand &addr, unsigned t) {
    return (addr.baseIsRegister ? reg(t, addr.reg) : 0) + addr.imm;
  };
  if (inst.opcode == Opcode::Ldmatrix || inst.opcode == Opcode::Stmatrix) {
    // 16 bytes per row address: one phase (wavefront at best) per matrix.
    const Operand &addr =
        inst.operands[inst.opcode == Opcode::Ldmatrix ? 1 : 0];
    llvm::SmallVector<LaneAccess, kWarpSize> rows;
    for (unsigned lane = 0; lane < 8 * inst.matrixCount; ++lane)
      rows.push_back({lane, addressOf(addr, lanes[lane])});
    access.kind = inst.opcode == Opcode::Ldmatrix ? MemoryKind::SharedLoad
                                                  : MemoryKind::SharedStore;
    if (!sharedDetail)
      return;
    access.sharedBytes = 16 * rows.size();
    access.wavefronts = sharedWavefronts(rows, 16, access.idealWavefronts);
    return;
  }
  bool isLoad = inst.opcode == Opcode::Ld, isStore = inst.opcode == Opcode::St;
  bool isCopy = inst.opcode == Opcode::CpAsync;
  bool isAtomic = inst.opcode == Opcode::Atom || inst.opcode == Opcode::Red;
  if (!isLoad && !isStore && !isCopy && !isAtomic)
    return;
  access.atomic = isAtomic;
  // ld's and atom's address is their second operand, st's and red's their
  // first; cp.async reads global memory at its second and writes shared
  // memory at its first.
  bool addressFirst = isStore || inst.opcode == Opcode::Red;
  const Operand &addr = inst.operands[addressFirst ? 0 : 1];
  Space space = isCopy ? Space::Global : inst.space;
  if (space == Space::Generic) {
    // Counted in the space of the first lane's address.
    uint64_t first = addressOf(addr, lanes.front());
    space = resolveGeneric(first);
  }
  if (space == Space::Param) {
    access.kind = MemoryKind::ParamLoad;
    return;
  }
  unsigned size = isCopy     ? inst.copyBytes
                  : isAtomic ? bitWidth(inst.type) / 8
                             : bitWidth(inst.type) / 8 * inst.vectorWidth;
  llvm::SmallVector<LaneAccess, kWarpSize> accesses;
  for (unsigned t : lanes) {
    uint64_t address = addressOf(addr, t);
    if (inst.space == Space::Generic && !isCopy)
      resolveGeneric(address);
    accesses.push_back({t - firstThread, address});
  }
  if (space == Space::Local) {
    // The hardware interleaves local memory across a warp's lanes in
    // 4-byte words (word w of lane l at w * 128 + l * 4 in the warp's
    // region), so a warp reading one offset touches 128 contiguous bytes.
    access.kind = isStore ? MemoryKind::LocalStore : MemoryKind::LocalLoad;
    uint64_t ctaIndex =
        ctaid[0] + uint64_t(config.grid[0]) *
                       (ctaid[1] + uint64_t(config.grid[1]) * ctaid[2]);
    uint64_t region = (uint64_t(1) << 56) +
                      (ctaIndex * numWarps + firstThread / kWarpSize) *
                          kernel.localBytes * kWarpSize;
    for (const LaneAccess &a : accesses)
      for (uint64_t w = a.address / 4; w <= (a.address + size - 1) / 4; ++w)
        access.sectors.push_back((region + w * 128 + a.lane * 4) / 32);
    llvm::sort(access.sectors);
    access.sectors.erase(
        std::unique(access.sectors.begin(), access.sectors.end()),
        access.sectors.end());
    return;
  }
  if (isCopy)
    access.sharedBytes += uint64_t(size) * accesses.size();
  if (space == Space::Shared) {
    access.kind = isLoad || isAtomic ? MemoryKind::SharedLoad
                                     : MemoryKind::SharedStore;
    if (!sharedDetail)
      return;
    access.sharedBytes += uint64_t(size) * accesses.size();
    access.wavefronts =
        sharedWavefronts(accesses, size, access.idealWavefronts);
    return;
  }
  access.kind = isCopy     ? MemoryKind::CopyToShared
                : isAtomic ? MemoryKind::GlobalAtomic
                : isStore  ? MemoryKind::GlobalStore
                           : MemoryKind::GlobalLoad;
  access.globalBytes = uint64_t(size) * accesses.size();
  globalSectorList(accesses, size, access.sectors);
  if (isCopy && sharedDetail) {
    // The shared side: each lane writes its `size` bytes; the hardware
    // groups them in wavefronts as for a store of that size.
    llvm::SmallVector<LaneAccess, kWarpSize> targets;
    for (unsigned t : lanes)
      targets.push_back({t - firstThread, addressOf(inst.operands[0], t)});
    access.wavefronts =
        sharedWavefronts(targets, size, access.idealWavefronts);
  }
}

void Cta::profileAccess(const WarpAccess &access) {
  if (access.atomic)
    return;
  ProfileCounters &counters = report.profile;
  counters.sharedBytes += access.sharedBytes;
  switch (access.kind) {
  case MemoryKind::SharedLoad:
  case MemoryKind::SharedStore:
    counters.sharedWavefronts += access.wavefronts;
    counters.sharedIdealWavefronts += access.idealWavefronts;
    return;
  case MemoryKind::GlobalLoad:
  case MemoryKind::CopyToShared:
    // cp.async's shared side is asynchronous: not among the ld/st.shared
    // wavefronts.
    counters.globalLoadBytes += access.globalBytes;
    counters.globalLoadSectors += access.sectors.size();
    return;
  case MemoryKind::GlobalStore:
    counters.globalStoreBytes += access.globalBytes;
    counters.globalStoreSectors += access.sectors.size();
    return;
  // Local memory (interleaved across threads by the hardware:
  // its sectors are not the threads' offsets), are not counted.
  default:
    return;
  }
}

} // namespace

llvm::Error detail::runCta(const DecodedKernel &kernel,
                           const LaunchConfig &config,
                           std::array<unsigned, 3> ctaid,
                           llvm::ArrayRef<uint8_t> params, DeviceMemory &memory,
                           const EmulatorOptions &options, KernelReport &report,
                           GlobalWrites &globalWrites, CtaTracer *tracer) {
  Cta cta(kernel, config, ctaid, params, memory, options, report,
          globalWrites, tracer);
  return cta.run();
}
