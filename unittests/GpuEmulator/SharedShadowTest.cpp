//===- SharedShadowTest.cpp - racecheck and initcheck state ---------------===//
//
// The shadow of a CTA's shared memory on its own: races within an epoch,
// none across a barrier, mixed access sizes over the same bytes, and the
// epoch counter's wrap after 2^21 barriers (which no kernel test reaches).
//
//===----------------------------------------------------------------------===//

#include "../../lib/GpuEmulator/Checkers.h"
#include "gtest/gtest.h"

using namespace mirage::emulator::detail;

namespace {

TEST(SharedShadowTest, UnwrittenBytesAreReported) {
  SharedShadow shadow(64);
  bool unwritten = false;
  EXPECT_FALSE(shadow.read(0, 4, 0, unwritten));
  EXPECT_TRUE(unwritten);
  EXPECT_FALSE(shadow.write(8, 2, 0));
  // Half of a 4-byte read at 8 was written.
  EXPECT_FALSE(shadow.read(8, 4, 0, unwritten));
  EXPECT_TRUE(unwritten);
  EXPECT_FALSE(shadow.read(8, 2, 0, unwritten));
  EXPECT_FALSE(unwritten);
}

TEST(SharedShadowTest, RacesWithinAnEpochOnly) {
  SharedShadow shadow(64);
  bool unwritten = false;
  EXPECT_FALSE(shadow.write(16, 16, 3));
  // Another thread reads one byte of that vector store: read after write.
  auto conflict = shadow.read(20, 1, 4, unwritten);
  ASSERT_TRUE(conflict);
  EXPECT_EQ(conflict->otherThread, 3u);
  EXPECT_TRUE(conflict->otherWrote);
  shadow.nextEpoch();
  // After the barrier, reads by several threads and a write by the writer
  // of the epoch before are fine...
  EXPECT_FALSE(shadow.read(16, 4, 4, unwritten));
  EXPECT_FALSE(shadow.read(16, 4, 5, unwritten));
  // ...but a write after those reads races with "several threads".
  conflict = shadow.write(18, 2, 3);
  ASSERT_TRUE(conflict);
  EXPECT_EQ(conflict->otherThread, kSeveralThreads);
  EXPECT_FALSE(conflict->otherWrote);
  // A thread's own accesses never race with each other.
  shadow.nextEpoch();
  EXPECT_FALSE(shadow.write(32, 4, 7));
  EXPECT_FALSE(shadow.read(32, 4, 7, unwritten));
  EXPECT_FALSE(shadow.write(34, 2, 7));
  // Write after a single other thread's read names it.
  EXPECT_FALSE(shadow.read(40, 4, 9, unwritten));
  EXPECT_TRUE(unwritten);
  conflict = shadow.write(40, 8, 10);
  ASSERT_TRUE(conflict);
  EXPECT_EQ(conflict->otherThread, 9u);
  EXPECT_FALSE(conflict->otherWrote);
}

TEST(SharedShadowTest, EpochsWrapWithoutLosingState) {
  SharedShadow shadow(32);
  bool unwritten = false;
  EXPECT_FALSE(shadow.write(0, 4, 1));
  // More barriers than the 21-bit epoch counter holds.
  for (unsigned i = 0; i < (1u << 21) + 3; ++i)
    shadow.nextEpoch();
  // What was written is still written; accesses before the wrap do not
  // race with accesses after it.
  EXPECT_FALSE(shadow.read(0, 4, 2, unwritten));
  EXPECT_FALSE(unwritten);
  EXPECT_FALSE(shadow.read(4, 4, 2, unwritten));
  EXPECT_TRUE(unwritten);
  // Within the new epoch, races are still seen.
  EXPECT_FALSE(shadow.write(8, 4, 5));
  auto conflict = shadow.read(8, 4, 6, unwritten);
  ASSERT_TRUE(conflict);
  EXPECT_EQ(conflict->otherThread, 5u);
  // And across a wrap that falls between a write and a read, none.
  for (unsigned i = 0; i < (1u << 21); ++i)
    shadow.nextEpoch();
  EXPECT_FALSE(shadow.read(8, 4, 6, unwritten));
  EXPECT_FALSE(unwritten);
}

} // namespace
