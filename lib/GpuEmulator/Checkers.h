//===- Checkers.h - shadow state of a CTA's shared memory -------*- C++ -*-===//
//
// What initcheck and racecheck remember about each byte of a CTA's shared
// memory: whether it was ever written, and which thread last wrote and read
// it in which barrier epoch. The executor reports the conflicts.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_GPUEMULATOR_CHECKERS_H
#define MIRAGE_LIB_GPUEMULATOR_CHECKERS_H

#include <cstdint>
#include <optional>
#include <vector>

namespace mirage::emulator::detail {

/// A racing access by another thread: its CTA-local thread index (or
/// kSeveralThreads when several threads read the byte) and whether it wrote.
inline constexpr uint32_t kSeveralThreads = ~0u;
struct RaceConflict {
  unsigned otherThread;
  bool otherWrote;
};

class SharedShadow {
public:
  explicit SharedShadow(uint64_t bytes);

  /// A bar.sync released: accesses before it no longer race with later ones.
  void nextEpoch() { ++epoch; }

  /// Records a read or write by `thread` and returns the first conflict with
  /// another thread's access in the same epoch: read after write, write
  /// after write, write after read.
  /// `read` also tells whether any byte was never written (one pass for
  /// initcheck and racecheck).
  std::optional<RaceConflict> read(uint64_t offset, unsigned size,
                                   unsigned thread, bool &unwritten);
  std::optional<RaceConflict> write(uint64_t offset, unsigned size,
                                    unsigned thread);

private:
  // 12 bytes per byte of shared memory: CTAs have at most 1024 threads, so
  // a thread (or kSeveralThreads) fits 16 bits; writeEpoch 0 means never
  // written.
  static constexpr uint16_t kSeveral16 = 0xffff;
  struct ByteState {
    uint32_t writeEpoch = 0, readEpoch = 0;
    uint16_t writer = 0, reader = 0;
  };
  static unsigned widen(uint16_t thread) {
    return thread == kSeveral16 ? kSeveralThreads : thread;
  }
  std::vector<ByteState> bytes;
  uint32_t epoch = 1; // 0 marks "never accessed"
};

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_CHECKERS_H
