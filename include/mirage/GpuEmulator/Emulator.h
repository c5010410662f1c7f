//===- Emulator.h - running PTX kernels on the host -------------*- C++ -*-===//
//
// The PTX emulator's execution API: device memory the host fills and reads,
// and launchKernel, which runs one kernel of a parsed module over a grid.
// CTAs run in parallel on host threads; within a CTA, warps of 32 lanes run under the
// "minimum PC" rule (docs/GpuEmulator.md). Out-of-bounds and misaligned
// accesses are always errors; the initcheck and racecheck checkers are
// options.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_GPUEMULATOR_EMULATOR_H
#define MIRAGE_GPUEMULATOR_EMULATOR_H

#include "mirage/GpuEmulator/PtxModule.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace mirage::emulator {

struct LaunchConfig {
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::array<unsigned, 3> block = {1, 1, 1};
  /// The size of the `.extern .shared` array (or of the shared memory past
  /// the static variables).
  uint64_t dynamicSharedBytes = 0;
};

/// Global memory: buffers at 64-bit device addresses, each with a shadow of
/// which bytes were ever written (for initcheck).
class DeviceMemory {
public:
  /// A new uninitialized buffer of `bytes` bytes (at least 1); returns its
  /// device address, 256-byte aligned. Buffers are separated by unmapped
  /// gaps so that running off one does not land in the next.
  uint64_t allocate(uint64_t bytes);
  /// Host copies; they count as writes for initcheck. Fail if the range is
  /// not inside one buffer.
  llvm::Error write(uint64_t address, llvm::ArrayRef<uint8_t> data);
  llvm::Error read(uint64_t address, llvm::MutableArrayRef<uint8_t> data) const;
  /// Marks the whole buffer at `address` as written.
  void markInitialized(uint64_t address);
  /// Marks [address, address + size) as written, where it lies in a buffer.
  void markWritten(uint64_t address, uint64_t size);
  /// The offset from `address` of the first byte in [address, address +
  /// size) that was never written; nullopt if all were, or if the range is
  /// not inside one buffer.
  std::optional<uint64_t> firstUnwritten(uint64_t address,
                                         uint64_t size) const;

  template <typename T>
  llvm::Error writeArray(uint64_t address, llvm::ArrayRef<T> values) {
    return write(address, llvm::ArrayRef<uint8_t>(
                              reinterpret_cast<const uint8_t *>(values.data()),
                              values.size() * sizeof(T)));
  }
  template <typename T>
  llvm::Expected<std::vector<T>> readArray(uint64_t address,
                                           size_t count) const {
    std::vector<T> values(count);
    if (llvm::Error err =
            read(address, llvm::MutableArrayRef<uint8_t>(
                              reinterpret_cast<uint8_t *>(values.data()),
                              count * sizeof(T))))
      return std::move(err);
    return values;
  }

  struct Buffer {
    std::vector<uint8_t> data;
    std::vector<bool> written;
  };
  /// The buffer holding [address, address + size), with its base address;
  /// nullptr if none holds all of it.
  Buffer *find(uint64_t address, uint64_t size, uint64_t &base);

private:
  std::map<uint64_t, Buffer> buffers;
  uint64_t next = 0x100000000; // above any shared-memory offset
};

class LaunchTracer;

struct EmulatorOptions {
  /// Using a value read from global or shared bytes that were never
  /// written is an error: storing it, taking it as an address, or branching
  /// or guarding on it (the read alone is not: NVPTX's vector loads read
  /// padding they never use). A cp.async of such bytes is an error at once.
  bool initcheck = true;
  /// Two threads touching the same shared byte between the same barriers,
  /// at least one writing, is an error.
  bool racecheck = true;
  /// Per CTA; stops runaway loops.
  uint64_t maxWarpInstructionsPerCta = uint64_t(1) << 32;
  /// Host threads that run CTAs in parallel; 0 means one per core. The
  /// result does not depend on it (see launchKernel).
  unsigned threads = 0;
  /// Collect the memory counters of KernelReport::profile (the instruction
  /// classes are always counted).
  bool profile = false;
  /// Sees the warp-level issues of the CTAs it asks for (Trace.h), for a
  /// timing model; the launch's result does not depend on it.
  LaunchTracer *tracer = nullptr;
};

/// The classes the profile counts warp-level instructions in.
enum class InstructionClass {
  IntegerArithmetic, // add/sub/mul/mad/shift/logic/min/max on integers, and
                     // bfe/bfi/popc/clz/bfind/brev/prmt/shf
  FloatArithmetic,   // the same and fma/div/neg/abs/copysign on f32, f16,
                     // bf16, f16x2, bf16x2
  SpecialFunction,   // ex2, lg2, sqrt, rsqrt, rcp, sin, cos, tanh
  Conversion,        // cvt, cvta
  Move,              // mov, selp, setp, activemask
  GlobalMemory,      // ld/st.global
  SharedMemory,      // ld/st.shared, ldmatrix
  ParamLoad,         // ld.param
  AsyncCopy,         // cp.async and its commit/wait
  Control,           // bra, ret
  Barrier,           // bar.sync, bar.warp.sync
  WarpShuffle,       // shfl.sync, vote.sync
  TensorCore,        // mma.sync
};
inline constexpr unsigned kNumInstructionClasses = 13;
llvm::StringRef instructionClassName(InstructionClass cls);

/// What a profiler (Nsight Compute) would count, from the warp-level
/// accesses: global memory moves whole 32-byte sectors; shared memory serves
/// a warp's request in wavefronts of 32 four-byte banks.
struct ProfileCounters {
  /// Warp-level instructions per InstructionClass.
  std::array<uint64_t, kNumInstructionClasses> instructions{};
  /// Bytes the threads asked for, and the distinct 32-byte sectors their
  /// warp-level request touched (cp.async sources count as loads).
  uint64_t globalLoadBytes = 0, globalLoadSectors = 0;
  uint64_t globalStoreBytes = 0, globalStoreSectors = 0;
  /// Bytes the threads read and wrote in shared memory (ld/st.shared, and
  /// the shared side of cp.async).
  uint64_t sharedBytes = 0;
  /// Wavefronts the ld/st.shared took, and the fewest they could take for
  /// their size; the difference is the bank conflicts.
  uint64_t sharedWavefronts = 0, sharedIdealWavefronts = 0;
  /// Multiply-adds of mma.sync, counted as 2 FLOP each (16 x 8 x K per
  /// warp-level instruction); counted with or without `profile`.
  uint64_t tensorCoreFlops = 0;

  ProfileCounters &operator+=(const ProfileCounters &other);
};

struct KernelReport {
  /// Instructions executed, counted once per executing thread and once per
  /// warp-level issue.
  uint64_t threadInstructions = 0;
  uint64_t warpInstructions = 0;
  /// Barrier releases, summed over CTAs.
  uint64_t barriers = 0;
  ProfileCounters profile;

  KernelReport &operator+=(const KernelReport &other);
};

/// Checks, without running it, that the emulator implements every
/// instruction of `kernelName` and can lay out its parameters and shared
/// variables.
llvm::Error verifyKernel(const PtxModule &module, llvm::StringRef kernelName);

/// Runs `kernelName` of `module` over `config.grid`, its CTAs on
/// `options.threads` host threads. CTAs of one launch cannot see each
/// other's global writes (CUDA gives no order between them): for initcheck a
/// byte is written if it was before the launch or by the reading CTA itself.
/// On faults in several CTAs the error is that of the first CTA in grid
/// order, as if they ran one after another. `args` holds one value
/// per `.param`, stored in the parameter's size (little-endian, truncated).
/// An instruction the emulator does not implement is an Error "PTX line N:
/// unsupported instruction 'op.mods'" before anything runs; a fault while
/// running (memory or checker error, deadlock, a warp collective without
/// its lanes) is an Error naming the kernel, the CTA, the thread, the PTX
/// line, the instruction and, for memory, the address.
llvm::Expected<KernelReport>
launchKernel(const PtxModule &module, llvm::StringRef kernelName,
             const LaunchConfig &config, llvm::ArrayRef<uint64_t> args,
             DeviceMemory &memory, const EmulatorOptions &options = {});

} // namespace mirage::emulator

#endif // MIRAGE_GPUEMULATOR_EMULATOR_H
