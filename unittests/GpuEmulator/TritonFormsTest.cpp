//===- TritonFormsTest.cpp - PTX forms that Triton writes and nvcc does not ===//
//
// Triton's PTX (its default output, line info on) carries DWARF `.section`
// blocks after the kernels, `$L__` labels and `.loc` lines inside them,
// one-element vectors (`ld.global.b32 { %r1 }, [...]`) and immediates
// inside stored vectors (`{ %r1, 0 }`), and its reductions let several
// lanes of one st.shared store one value to one word. A kernel written in
// that style runs, and each form still meets its checks: a section that
// never closes names its line; a loaded vector may not hold an immediate;
// different values, or another instruction, storing to the word race.
//
//===----------------------------------------------------------------------===//

#include "EmulatorTestSupport.h"
#include <cmath>

using namespace mirage::emulator;
using namespace mirage::emulator::testing;

namespace {

// out[i] = in[i] + 1 for 64 threads, then out[64 + 2i] = (in[i], 0) as a
// pair, in the way Triton spells it.
const char *kTritonStyle = R"(
	.file	1 "/tmp/add_one.py"
.visible .entry k(
	.param .u64 k_param_0,
	.param .u64 k_param_1
)
.maxntid 64, 1, 1
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	.loc	1 7 0
$L__func_begin0:
	.loc	1 7 0

	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u64 	%rd2, [k_param_1];
$L__tmp0:
	.loc	1 9 20
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	// begin inline asm
	mov.u32 %r2, 0x0;
	ld.global.b32 { %r2 }, [ %rd4 + 0 ];
	// end inline asm
	add.s32 	%r3, %r2, 1;
	add.s64 	%rd5, %rd2, %rd3;
	// begin inline asm
	st.global.b32 [ %rd5 + 0 ], { %r3 };
	// end inline asm
	mul.wide.u32 	%rd6, %r1, 8;
	add.s64 	%rd7, %rd2, %rd6;
	// begin inline asm
	st.global.v2.b32 [ %rd7 + 256 ], { %r2, 0 };
	// end inline asm
	.loc	1 9 4
	ret;
$L__tmp1:
$L__func_end0:

}
	.section	.debug_abbrev
	{
.b8 1
.b8 17
.b8 0
	}
	.section	.debug_info
	{
.b32 60
.b8 2
.b64 $L__func_begin0
.b64 $L__func_end0
	}
	.section	.debug_macinfo	{	}
)";

TEST(TritonFormsTest, ATritonStyleKernelRuns) {
  DeviceMemory memory;
  uint64_t in = memory.allocate(64 * 4), out = memory.allocate(64 * 4 + 64 * 8);
  std::vector<int32_t> values(64);
  for (int i = 0; i < 64; ++i)
    values[i] = 7 * i - 100;
  expectSuccess(memory.writeArray<int32_t>(in, values));
  ASSERT_EQ(failure(run(kTritonStyle, threads(64), {in, out}, memory)), "");
  std::vector<int32_t> got = readBack<int32_t>(memory, out, 64 + 128);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(got[i], values[i] + 1) << i;
    EXPECT_EQ(got[64 + 2 * i], values[i]) << i;
    EXPECT_EQ(got[64 + 2 * i + 1], 0) << i;
  }
}

TEST(TritonFormsTest, AnUnclosedSectionNamesItsLine) {
  std::string ptx = ".visible .entry k() { ret; }\n.section .debug_info\n{\n.b8 1\n";
  DeviceMemory memory;
  std::string error = failure(run(ptx, threads(32), {}, memory));
  EXPECT_NE(error.find("line 5: missing '}' at the end of .section "
                       ".debug_info"),
            std::string::npos)
      << error;
}

TEST(TritonFormsTest, ALoadedVectorHoldsRegistersOnly) {
  const char *ptx = R"(
.visible .entry k(.param .u64 p) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.v2.b32 {%r1, 0}, [%rd1];
  ret;
}
)";
  DeviceMemory memory;
  uint64_t p = memory.allocate(8);
  std::string error = failure(run(ptx, threads(32), {p}, memory));
  EXPECT_NE(error.find("unsupported instruction 'ld.global.v2.b32'"),
            std::string::npos)
      << error;
}

/// 64 threads store `value` to sm[tid / 32 * 4] with one st.shared (and,
/// with `again`, lane 1 a second time, `again` itself, with another st),
/// then after a barrier thread 0 copies the two words out.
std::string sameWord(llvm::StringRef value, llvm::StringRef again = "") {
  return std::string(R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b32 sm[2];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  shl.b32 %r2, %r2, 2;
  mov.u32 %r3, sm;
  add.s32 %r4, %r3, %r2;
  and.b32 %r5, %r1, 31;
  add.s32 %r6, %r2, 40;
  st.shared.b32 [%r4], )" +
          value.str() + ";\n" +
          (!again.empty() ? "  setp.eq.u32 %p1, %r5, 1;\n  @%p1 st.shared.b32 "
                            "[%r4], " +
                                again.str() + ";\n"
                          : std::string()) +
          R"(  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.shared.v2.b32 {%r2, %r3}, [sm];
  st.global.v2.b32 [%rd1], {%r2, %r3};
DONE:
  ret;
}
)");
}

TEST(TritonFormsTest, LanesStoringOneValueToOneWordDoNotRace) {
  DeviceMemory memory;
  uint64_t out = memory.allocate(8);
  // %r6 = 40 + 4 * warp: one value per warp, each warp its own word.
  ASSERT_EQ(failure(run(sameWord("%r6"), threads(64), {out}, memory)), "");
  std::vector<uint32_t> got = readBack<uint32_t>(memory, out, 2);
  EXPECT_EQ(got[0], 40u);
  EXPECT_EQ(got[1], 44u);
  // Different values from the lanes of one store: a race.
  std::string error = failure(run(sameWord("%r1"), threads(64), {out}, memory));
  EXPECT_NE(error.find("racecheck: thread 0 wrote"), std::string::npos)
      << error;
  // Lane 1 stores again with another instruction: the same value is no
  // race either (in either order the word ends the same, as when warps of
  // Triton's cross-warp reductions store one partial), another value is.
  EXPECT_EQ(failure(run(sameWord("%r6", "%r6"), threads(64), {out}, memory)),
            "");
  error = failure(run(sameWord("%r6", "%r1"), threads(64), {out}, memory));
  EXPECT_NE(error.find("racecheck"), std::string::npos) << error;
}

TEST(TritonFormsTest, WarpsStoringOneValueToOneWordDoNotRace) {
  // Both warps store 7 to sm[0] (Triton's reduction when two warps hold
  // the same elements); then 7 + warp, which differ: a race.
  auto kernel = [](llvm::StringRef value) {
    return std::string(R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b32 sm[1];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  add.s32 %r3, %r2, 7;
  mov.u32 %r4, sm;
  st.shared.b32 [%r4], )") +
           value.str() + R"(;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.shared.b32 %r5, [sm];
  st.global.b32 [%rd1], %r5;
DONE:
  ret;
}
)";
  };
  DeviceMemory memory;
  uint64_t out = memory.allocate(4);
  ASSERT_EQ(failure(run(kernel("7"), threads(64), {out}, memory)), "");
  EXPECT_EQ(readBack<uint32_t>(memory, out, 1)[0], 7u);
  std::string error = failure(run(kernel("%r3"), threads(64), {out}, memory));
  EXPECT_NE(error.find("racecheck: thread"), std::string::npos) << error;
}

// Triton divides with div.full.f32 (at most 2 ulp, the whole range): the
// emulator gives the correctly rounded quotient, one of the results the ISA
// allows; .ftz flushes subnormal operands and results. Other float opcodes have no
// .full.
TEST(TritonFormsTest, DivFullIsWithinItsBound) {
  const char *ptx = R"(
.visible .entry k(.param .u64 in, .param .u64 out) {
  .reg .f32 %f<8>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v2.f32 {%f1, %f2}, [%rd4];
  div.full.f32 %f3, %f1, %f2;
  div.full.ftz.f32 %f4, %f1, %f2;
  add.s64 %rd5, %rd2, %rd3;
  st.global.v2.f32 [%rd5], {%f3, %f4};
  ret;
}
)";
  std::vector<float> in = {1.0f,    3.0f,  -7.5f,   0.1f,     1e30f,  3e-8f,
                           2.0f,    0x1.8p127f, 0x1p-140f, 2.0f, 5.0f, 0.0f};
  unsigned n = in.size() / 2;
  DeviceMemory memory;
  uint64_t inAddr = memory.allocate(in.size() * 4),
           out = memory.allocate(in.size() * 4);
  expectSuccess(memory.writeArray<float>(inAddr, in));
  ASSERT_EQ(failure(run(ptx, threads(n), {inAddr, out}, memory)), "");
  std::vector<float> got = readBack<float>(memory, out, 2 * n);
  for (unsigned i = 0; i < n; ++i) {
    float a = in[2 * i], b = in[2 * i + 1];
    SCOPED_TRACE(i);
    EXPECT_EQ(got[2 * i], a / b);
    // .ftz: subnormal operands and results become zeros of their sign.
    auto flush = [](float x) {
      return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
    };
    EXPECT_EQ(got[2 * i + 1], flush(flush(a) / flush(b)));
  }
  std::string bad = failure(run(
      ".visible .entry k() { .reg .f32 %f<4>; add.full.f32 %f1, %f2, %f3; }",
      threads(1), {}, memory));
  EXPECT_NE(bad.find("unsupported instruction 'add.full.f32'"),
            std::string::npos)
      << bad;
}

// Volatile accesses and fences (split-K semaphores and flags spell them):
// accepted and run as the accesses they are; fences with proxies (TMA) and
// volatile on the read-only path are not.
TEST(TritonFormsTest, VolatileAccessesAndFences) {
  const char *ptx = R"(
.visible .entry k(.param .u64 p) {
  .shared .align 4 .b32 sm[32];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.volatile.global.u32 %r2, [%rd3];
  mov.u32 %r3, sm;
  shl.b32 %r4, %r1, 2;
  add.s32 %r5, %r3, %r4;
  st.volatile.shared.u32 [%r5], %r2;
  membar.cta;
  fence.acq_rel.gpu;
  fence.sc.sys;
  membar.gl;
  fence.cta;
  ld.volatile.shared.u32 %r6, [%r5];
  add.s32 %r6, %r6, 1;
  st.volatile.global.u32 [%rd3], %r6;
  ret;
}
)";
  DeviceMemory memory;
  uint64_t p = memory.allocate(32 * 4);
  std::vector<uint32_t> in(32);
  for (unsigned i = 0; i < 32; ++i)
    in[i] = 3 * i;
  expectSuccess(memory.writeArray<uint32_t>(p, in));
  ASSERT_EQ(failure(run(ptx, threads(32), {p}, memory)), "");
  std::vector<uint32_t> got = readBack<uint32_t>(memory, p, 32);
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(got[i], 3 * i + 1) << i;
  for (const char *bad :
       {"fence.proxy.async.shared::cta;", "membar.warp;",
        "ld.volatile.global.nc.u32 %r1, [%rd1];", "fence.acq_rel;"}) {
    std::string kernel = std::string(".visible .entry k() { .reg .b32 %r<2>; "
                                     ".reg .b64 %rd<2>; ") +
                         bad + " ret; }";
    std::string error = failure(run(kernel, threads(1), {}, memory));
    EXPECT_NE(error.find("unsupported instruction"), std::string::npos)
        << bad << ": " << error;
  }
}

} // namespace
