//===- Checkers.cpp - shadow state of a CTA's shared memory ---------------===//

#include "Checkers.h"

using namespace mirage::emulator::detail;

SharedShadow::SharedShadow(uint64_t size) : bytes(size) {}

std::optional<RaceConflict> SharedShadow::read(uint64_t offset, unsigned size,
                                               unsigned thread,
                                               bool &unwritten) {
  std::optional<RaceConflict> conflict;
  uint16_t self = uint16_t(thread);
  unwritten = false;
  for (unsigned i = 0; i < size; ++i) {
    ByteState &b = bytes[offset + i];
    unwritten |= b.writeEpoch == 0;
    if (!conflict && b.writeEpoch == epoch && b.writer != self)
      conflict = RaceConflict{widen(b.writer), true};
    if (b.readEpoch != epoch) {
      b.readEpoch = epoch;
      b.reader = self;
    } else if (b.reader != self) {
      b.reader = kSeveral16;
    }
  }
  return conflict;
}

std::optional<RaceConflict> SharedShadow::write(uint64_t offset, unsigned size,
                                                unsigned thread) {
  std::optional<RaceConflict> conflict;
  uint16_t self = uint16_t(thread);
  for (unsigned i = 0; i < size; ++i) {
    ByteState &b = bytes[offset + i];
    if (!conflict && b.writeEpoch == epoch && b.writer != self)
      conflict = RaceConflict{widen(b.writer), true};
    if (!conflict && b.readEpoch == epoch && b.reader != self)
      conflict = RaceConflict{widen(b.reader), false};
    b.writer = self;
    b.writeEpoch = epoch;
  }
  return conflict;
}
