//===- Trace.h - the instructions a launch executes, for a timing model -*- C++ -*-===//
//
// The emulator runs a kernel functionally; a timing model (lib/GpuTiming)
// replays what it executed on a model of the hardware. This header is the
// interface between them: describeKernel tells, once per kernel, what each
// instruction is (its unit, the registers it reads and writes); a
// LaunchTracer given in EmulatorOptions then sees every warp-level issue of
// the CTAs it asks for, in each warp's program order, with the memory it
// touched (global sectors, shared wavefronts).
//
// Warps of a CTA interleave in the emulator by its own rule (the minimum-PC
// rule of docs/GpuEmulator.md), which is not the hardware's: a tracer must
// only rely on the order within one warp, and on the barriers.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_TRACE_H
#define MIRAGE_GPUEMULATOR_TRACE_H

#include "mirage/GpuEmulator/Emulator.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mirage::emulator {

/// The execution unit (pipe) an instruction issues to: what decides its
/// issue rate and its dependent latency in a timing model.
enum class TimingUnit : uint8_t {
  Integer,         // integer arithmetic, logic, shifts, bit operations
  Fp32,            // f32 add/mul/fma/min/max/neg/abs
  Fp16,            // f16, bf16, f16x2, bf16x2 arithmetic
  Fp64,            // f64 arithmetic
  Divide,          // div/rem: a sequence of instructions on the GPU
  SpecialFunction, // ex2, lg2, sqrt, rsqrt, rcp, sin, cos, tanh
  Conversion,      // cvt, cvta
  Move,            // mov, selp, setp, activemask
  Branch,          // bra, ret, trap
  Barrier,         // bar.sync
  WarpSync,        // bar.warp.sync
  Shuffle,         // shfl.sync, vote.sync
  TensorCore,      // mma.sync
  Memory,          // ld, st, atom, red, ldmatrix, stmatrix
  AsyncCopy,       // cp.async
  AsyncCommit,     // cp.async.commit_group
  AsyncWait,       // cp.async.wait_group, cp.async.wait_all
  Fence,           // membar, fence
};
inline constexpr unsigned kNumTimingUnits = 18;
llvm::StringRef timingUnitName(TimingUnit unit);

/// One instruction of a kernel, as a timing model needs it.
struct StaticInstruction {
  unsigned line = 0;
  /// Opcode and modifiers as written: "fma.rn.f32".
  std::string text;
  TimingUnit unit = TimingUnit::Integer;
  InstructionClass cls = InstructionClass::IntegerArithmetic;
  /// Register slots written and read (the guard predicate and address base
  /// registers among the reads). Slots index the kernel's registers.
  llvm::SmallVector<unsigned, 4> defs;
  llvm::SmallVector<unsigned, 8> uses;
  /// mma.sync: the multiply-adds it does, and its shape's k.
  unsigned mmaMacs = 0;
  unsigned mmaK = 0;
  /// cp.async.wait_group N: N (the groups that may stay in flight);
  /// wait_all: 0, and waitsForOpenGroup (it commits the open group first).
  unsigned keepGroups = 0;
  bool waitsForOpenGroup = false;
  /// Whether a global load keeps its lines in L1: not ld.global.cg or .cv,
  /// not cp.async.cg.
  bool cachesInL1 = true;
  /// bar.sync: the barrier id and the threads it expects (0: all).
  unsigned barrierId = 0;
  unsigned barrierThreads = 0;
};

/// What describeKernel returns.
struct KernelDescription {
  std::string name;
  std::vector<StaticInstruction> code;
  unsigned numRegisters = 0;
  /// Bytes of the static `.shared` variables and of each thread's `.local`
  /// memory.
  uint64_t staticSharedBytes = 0;
  uint64_t localBytesPerThread = 0;
};

/// Decodes `kernelName` of `module` (as launchKernel does) and describes its
/// instructions; the same errors as verifyKernel.
llvm::Expected<KernelDescription> describeKernel(const PtxModule &module,
                                                 llvm::StringRef kernelName);

/// Where a memory instruction went, resolved at run time for generic
/// addresses.
enum class MemoryKind : uint8_t {
  None,
  GlobalLoad,
  GlobalStore,
  GlobalAtomic,  // atom and red on global memory
  SharedLoad,    // ld.shared, ldmatrix, shared atom (read-modify-write)
  SharedStore,   // st.shared, stmatrix
  LocalLoad,
  LocalStore,
  ParamLoad,
  CopyToShared,  // cp.async: global source sectors, shared wavefronts
};

/// One warp-level issue.
struct WarpIssue {
  /// The instruction: an index into KernelDescription::code.
  unsigned pc = 0;
  /// The warp within its CTA.
  unsigned warp = 0;
  /// The lanes that executed it (its guard passed): a bit per lane.
  uint32_t lanes = 0;
  MemoryKind memory = MemoryKind::None;
  /// Global and local memory: the distinct 32-byte sectors the lanes
  /// touched, ascending, as address / 32 (local memory at addresses of its
  /// own, interleaved across the warp's lanes as the hardware lays it out).
  llvm::ArrayRef<uint64_t> sectors;
  /// Shared memory: the wavefronts the request took (bank conflicts
  /// included), and the fewest it could take.
  unsigned wavefronts = 0;
  unsigned idealWavefronts = 0;
};

/// Receives the issues of one CTA, on the host thread that runs it.
class CtaTracer {
public:
  virtual ~CtaTracer();
  virtual void issue(const WarpIssue &issue) = 0;
  /// False when the tracer needs only the global and local memory issues
  /// (ld, st, atom, red and cp.async that reach them) and their sectors:
  /// the emulator then reports nothing else and computes no shared
  /// wavefronts, which saves most of the tracing cost for the CTAs a timing
  /// model does not replay.
  virtual bool wantsEveryIssue() const { return true; }
};

/// Chooses the CTAs of a launch to trace and receives their traces.
/// beginCta and endCta are called on the worker threads that run CTAs,
/// concurrently for different CTAs: implementations must be thread-safe.
class LaunchTracer {
public:
  virtual ~LaunchTracer();
  /// Before CTA `linearIndex` (x fastest) runs; nullptr traces nothing.
  virtual std::unique_ptr<CtaTracer> beginCta(uint64_t linearIndex) = 0;
  /// After it ran to completion without a fault.
  virtual void endCta(uint64_t linearIndex,
                      std::unique_ptr<CtaTracer> tracer) = 0;
};

} // namespace mirage::emulator

#endif // MIRAGE_GPUEMULATOR_TRACE_H
