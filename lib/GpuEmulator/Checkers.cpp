//===- Checkers.cpp - shadow state of a CTA's shared memory ---------------===//

#include "Checkers.h"

using namespace mirage::emulator::detail;

SharedShadow::SharedShadow(uint64_t size) : bytes(size, 0) {}

void SharedShadow::nextEpoch() {
  if (++epoch <= kEpochMask)
    return;
  // Out of epochs: every access so far happened before the barrier that
  // starts epoch 2, so only "ever written" needs to survive.
  for (uint64_t &s : bytes) {
    uint64_t w = writeEpoch(s) ? 1 : 0, r = readEpoch(s) ? 1 : 0;
    s = writer(s) | reader(s) << kReaderShift | w << kWriteEpochShift |
        r << kReadEpochShift;
  }
  epoch = 2;
}
