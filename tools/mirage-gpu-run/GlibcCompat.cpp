//===- GlibcCompat.cpp - run on glibc older than the build machine's -----===//
//
// Only in the self-contained build (MIRAGE_LINK_MLIR_DYLIB=OFF), whose binary
// is copied to GPU machines. LLVM's static Support library, compiled against
// glibc 2.36 or later, draws random numbers with arc4random, which glibc
// added in 2.36; that one reference would keep the runner from starting on
// glibc 2.34 and 2.35 (Ubuntu 22.04, RHEL 9). Defined here, it is bound
// inside the binary instead, on top of getrandom (glibc 2.25).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdlib>
#include <sys/random.h>

extern "C" uint32_t arc4random(void) {
  uint32_t value = 0;
  // getrandom blocks only until the kernel's pool is first seeded, and
  // returns all 4 bytes or fails; rand() is a last resort for a call that
  // only ever seeds hash tables.
  if (getrandom(&value, sizeof(value), 0) != sizeof(value))
    value = static_cast<uint32_t>(std::rand());
  return value;
}
