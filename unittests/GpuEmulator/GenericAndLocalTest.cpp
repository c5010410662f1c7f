//===- GenericAndLocalTest.cpp - generic addresses and .local memory ------===//
//
// ld and st without a state space take generic addresses (§6.4.1); cvta
// converts to and from them; .local variables are each thread's own. nvcc's
// kernel (Inputs/generic_local.cu: a data-indexed per-thread array, a
// pointer into shared or global memory) against the host, and the checks:
// local memory is bounded and initchecked per thread, a generic address in
// no window and no buffer is a memcheck error.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

void checkNvcc(bool useShared) {
  SCOPED_TRACE(useShared ? "shared" : "global");
  auto module = parsePtx(readInput("generic_local.ptx"));
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  std::vector<float> in(130);
  std::vector<int32_t> idx(128);
  for (unsigned i = 0; i < 130; ++i)
    in[i] = float(int(i * 7 % 23) - 11) * 0.5f;
  for (unsigned i = 0; i < 128; ++i)
    idx[i] = int32_t(i * 13 + 5);
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(130 * 4), idxAddr = memory.allocate(512),
           out = memory.allocate(512);
  expectSuccess(memory.writeArray<float>(inAddr, in));
  expectSuccess(memory.writeArray<int32_t>(idxAddr, idx));
  auto report = launchKernel(*module, "generic_local", threads(128),
                             {inAddr, idxAddr, out, uint64_t(useShared)},
                             memory);
  ASSERT_TRUE(bool(report)) << llvm::toString(report.takeError());
  std::vector<float> got = readBack<float>(memory, out, 128);
  for (unsigned t = 0; t < 128; ++t) {
    int i = idx[t] & 15;
    float picked = in[(t + i) % 130] * float(i + 1);
    float sum = in[t] + in[t + 1] + in[t + 2];
    EXPECT_EQ(got[t], picked + sum) << t;
  }
}

TEST(GenericAndLocalTest, NvccLocalArrayAndGenericPointers) {
  checkNvcc(false);
  checkNvcc(true);
}

TEST(GenericAndLocalTest, CvtaRoundTripsAndGenericStores) {
  // Each thread stores through generic addresses into its shared word and
  // its local word, reads both back through the explicit spaces, and
  // converts the generic addresses back.
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b32 sm[32];
  .local .align 8 .b8 depot[16];
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, sm;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  cvta.shared.u64 %rd5, %rd4;
  mul.lo.u32 %r2, %r1, 3;
  st.u32 [%rd5], %r2;
  mov.u64 %rd6, depot;
  cvta.local.u64 %rd7, %rd6;
  add.u32 %r3, %r1, 100;
  st.u32 [%rd7+4], %r3;
  cvt.u32.u64 %r4, %rd4;
  ld.shared.u32 %r5, [%r4];
  ld.local.u32 %r6, [%rd6+4];
  cvta.to.shared.u64 %rd8, %rd5;
  cvta.to.local.u64 %rd9, %rd7;
  sub.s64 %rd10, %rd8, %rd4;
  add.s64 %rd10, %rd10, %rd9;
  cvt.u32.u64 %r7, %rd10;
  cvta.global.u64 %rd11, %rd1;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd11, %rd11, %rd3;
  st.v2.u32 [%rd11], {%r5, %r6};
  st.u32 [%rd11+8], %r7;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t out = memory.allocate(32 * 16);
  ASSERT_EQ(failure(run(ptx, threads(32), {out}, memory)), "");
  std::vector<uint32_t> got = readBack<uint32_t>(memory, out, 32 * 4);
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(got[4 * t], 3 * t) << t;
    EXPECT_EQ(got[4 * t + 1], t + 100) << t;
    EXPECT_EQ(got[4 * t + 2], 0u) << t; // depot's local offset, 0
  }
}

TEST(GenericAndLocalTest, LocalMemoryIsBoundedAndInitchecked) {
  DeviceMemory memory;
  uint64_t out = memory.allocate(4 * 32);
  const char *outside = R"(
.visible .entry k() {
  .local .align 4 .b8 depot[8];
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, depot;
  st.local.u32 [%rd1+8], 1;
  ret;
}
)";
  std::string error = failure(run(outside, threads(1), {}, memory));
  EXPECT_NE(error.find("memcheck: outside the thread's 8 bytes of local "
                       "memory: local write of 4 bytes at 0x8"),
            std::string::npos)
      << error;
  // Thread 0 writes its word; the others read theirs, which they never
  // wrote: local memory is per thread.
  const char *unwritten = R"(
.visible .entry k(.param .u64 out) {
  .local .align 4 .b8 depot[4];
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.local.u32 [depot], 9;
  ld.local.u32 %r2, [depot];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";
  error = failure(run(unwritten, threads(1), {out}, memory));
  EXPECT_EQ(error, "");
  EXPECT_EQ(readBack<uint32_t>(memory, out, 1)[0], 9u);
  error = failure(run(unwritten, threads(2), {out}, memory));
  EXPECT_NE(error.find("thread (1,0,0)"), std::string::npos) << error;
  EXPECT_NE(error.find("never written"), std::string::npos) << error;
  EXPECT_NE(error.find("local"), std::string::npos) << error;
}

TEST(GenericAndLocalTest, AGenericAddressInNoWindowIsAMemcheckError) {
  const char *ptx = R"(
.visible .entry k() {
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 4096;
  ld.u32 %r1, [%rd1];
  ret;
}
)";
  DeviceMemory memory;
  std::string error = failure(run(ptx, threads(1), {}, memory));
  EXPECT_NE(error.find("memcheck: outside every device buffer"),
            std::string::npos)
      << error;
  std::string huge = failure(run(
      ".visible .entry k() { .local .b8 depot[1048576]; ret; }", threads(1),
      {}, memory));
  EXPECT_NE(huge.find("1048576 bytes of local memory per thread, more than "
                      "the 524288 a GPU has"),
            std::string::npos)
      << huge;
}

} // namespace
