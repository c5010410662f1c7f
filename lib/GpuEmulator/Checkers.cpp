//===- Checkers.cpp - shadow state of a CTA's shared memory ---------------===//

#include "Checkers.h"

using namespace mirage::emulator::detail;

SharedShadow::SharedShadow(uint64_t size) : bytes(size) {}

bool SharedShadow::isInitialized(uint64_t offset, unsigned size) const {
  for (unsigned i = 0; i < size; ++i)
    if (!bytes[offset + i].written)
      return false;
  return true;
}

std::optional<RaceConflict> SharedShadow::read(uint64_t offset, unsigned size,
                                               unsigned thread) {
  std::optional<RaceConflict> conflict;
  for (unsigned i = 0; i < size; ++i) {
    ByteState &b = bytes[offset + i];
    if (!conflict && b.writeEpoch == epoch && b.writer != thread)
      conflict = RaceConflict{b.writer, true};
    if (b.readEpoch != epoch) {
      b.readEpoch = epoch;
      b.reader = thread;
    } else if (b.reader != thread) {
      b.reader = kSeveralThreads;
    }
  }
  return conflict;
}

std::optional<RaceConflict> SharedShadow::write(uint64_t offset, unsigned size,
                                                unsigned thread) {
  std::optional<RaceConflict> conflict;
  for (unsigned i = 0; i < size; ++i) {
    ByteState &b = bytes[offset + i];
    if (!conflict && b.writeEpoch == epoch && b.writer != thread)
      conflict = RaceConflict{b.writer, true};
    if (!conflict && b.readEpoch == epoch && b.reader != thread)
      conflict = RaceConflict{b.reader, false};
    b.writer = thread;
    b.writeEpoch = epoch;
    b.written = true;
  }
  return conflict;
}
