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
  void nextEpoch();

  /// Records a read or write by `thread` and returns the first conflict with
  /// another thread's access in the same epoch: read after write, write
  /// after write, write after read.
  /// `read` also tells whether any byte was never written (one pass for
  /// initcheck and racecheck).
  std::optional<RaceConflict> read(uint64_t offset, unsigned size,
                                   unsigned thread, bool &unwritten);
  std::optional<RaceConflict> write(uint64_t offset, unsigned size,
                                    unsigned thread);
  /// Which of the `size` (at most 32) bytes at `offset` were never written:
  /// bit i for byte offset + i. For initcheck's taint, after a read that
  /// found some.
  uint32_t unwrittenMask(uint64_t offset, unsigned size) const {
    uint32_t mask = 0;
    for (unsigned i = 0; i < size; ++i)
      if (writeEpoch(bytes[offset + i]) == 0)
        mask |= 1u << i;
    return mask;
  }

private:
  // One 64-bit word per byte of shared memory (one load per byte on the
  // hot path of every ld/st.shared): the last writer and reader thread in
  // 11 bits each (a CTA has at most 1024 threads; 0x7ff is "several
  // readers"), and the epochs of the last write and read in 21 bits each.
  // Write epoch 0 means never written. Epochs wrap: at the largest, every
  // access so far is moved to epoch 1 (the past) and counting restarts at 2,
  // so a CTA may pass any number of barriers.
  static constexpr unsigned kThreadBits = 11, kEpochBits = 21;
  static constexpr uint64_t kThreadMask = (1u << kThreadBits) - 1;
  static constexpr uint64_t kEpochMask = (1u << kEpochBits) - 1;
  static constexpr uint64_t kSeveral = kThreadMask;
  static constexpr unsigned kReaderShift = kThreadBits;
  static constexpr unsigned kWriteEpochShift = 2 * kThreadBits;
  static constexpr unsigned kReadEpochShift = 2 * kThreadBits + kEpochBits;

  static uint64_t writer(uint64_t s) { return s & kThreadMask; }
  static uint64_t reader(uint64_t s) { return (s >> kReaderShift) & kThreadMask; }
  static uint64_t writeEpoch(uint64_t s) {
    return (s >> kWriteEpochShift) & kEpochMask;
  }
  static uint64_t readEpoch(uint64_t s) { return s >> kReadEpochShift; }
  static unsigned widen(uint64_t thread) {
    return thread == kSeveral ? kSeveralThreads : unsigned(thread);
  }

  std::vector<uint64_t> bytes;
  uint64_t epoch = 1; // 0 marks "never accessed"
};

// Inline: called for every lane of every ld/st.shared.
/// Whether the `size` states from `state` are all equal: then one update
/// serves them all (the common case: a vector access to data one thread
/// stored with one instruction).
inline bool shadowUniform(const uint64_t *state, unsigned size) {
  uint64_t diff = 0;
  for (unsigned i = 1; i < size; ++i)
    diff |= state[i] ^ state[0];
  return diff == 0;
}

inline std::optional<RaceConflict> SharedShadow::read(uint64_t offset, unsigned size,
                                               unsigned thread,
                                               bool &unwritten) {
  std::optional<RaceConflict> conflict;
  uint64_t self = thread;
  unwritten = false;
  uint64_t *state = bytes.data() + offset;
  auto update = [&](uint64_t s) {
    uint64_t we = writeEpoch(s);
    unwritten |= we == 0;
    if (we == epoch && writer(s) != self && !conflict)
      conflict = RaceConflict{widen(writer(s)), true};
    uint64_t newReader = readEpoch(s) != epoch || reader(s) == self
                             ? self
                             : kSeveral;
    return writer(s) | newReader << kReaderShift | we << kWriteEpochShift |
           epoch << kReadEpochShift;
  };
  if (shadowUniform(state, size)) {
    uint64_t s = update(state[0]);
    for (unsigned i = 0; i < size; ++i)
      state[i] = s;
    return conflict;
  }
  for (unsigned i = 0; i < size; ++i)
    state[i] = update(state[i]);
  return conflict;
}

inline std::optional<RaceConflict> SharedShadow::write(uint64_t offset, unsigned size,
                                                unsigned thread) {
  std::optional<RaceConflict> conflict;
  uint64_t self = thread;
  uint64_t *state = bytes.data() + offset;
  auto update = [&](uint64_t s) {
    if (!conflict && writeEpoch(s) == epoch && writer(s) != self)
      conflict = RaceConflict{widen(writer(s)), true};
    if (!conflict && readEpoch(s) == epoch && reader(s) != self)
      conflict = RaceConflict{widen(reader(s)), false};
    return self | (s & (kThreadMask << kReaderShift)) |
           epoch << kWriteEpochShift | (s & (kEpochMask << kReadEpochShift));
  };
  if (shadowUniform(state, size)) {
    uint64_t s = update(state[0]);
    for (unsigned i = 0; i < size; ++i)
      state[i] = s;
    return conflict;
  }
  for (unsigned i = 0; i < size; ++i)
    state[i] = update(state[i]);
  return conflict;
}

} // namespace mirage::emulator::detail

#endif // MIRAGE_LIB_GPUEMULATOR_CHECKERS_H
