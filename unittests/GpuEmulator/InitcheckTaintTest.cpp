//===- InitcheckTaintTest.cpp - initcheck reports uses, not reads ---------===//
//
// initcheck taints what a load reads from bytes nothing wrote and reports
// only where such a value is used: stored, taken as an address, or deciding
// a branch or guard. Each kernel here reads padding (as NVPTX's vector
// loads of small tiles do) and either never uses it, which must pass, or
// uses it one way, which must be reported at the use, naming the load and
// the bytes. Line numbers count kHeader's three lines and the empty line
// that starts each kernel.
//
//===----------------------------------------------------------------------===//

#include "mirage/GpuEmulator/Emulator.h"
#include "mirage/GpuEmulator/PtxParser.h"
#include "gtest/gtest.h"
#include <string>

using namespace mirage::emulator;

namespace {

const char *kHeader = ".version 7.0\n.target sm_80\n.address_size 64\n";

/// Launches kernel `k` of `ptx` on `block` threads with `out`, 16 bytes, as
/// its one argument; the error message, or "" on success.
std::string run(const std::string &ptx, unsigned block = 1,
                EmulatorOptions options = {}) {
  auto module = parsePtx(kHeader + ptx);
  if (!module)
    return "parse: " + llvm::toString(module.takeError());
  DeviceMemory memory;
  uint64_t out = memory.allocate(16 * block);
  LaunchConfig config;
  config.block = {block, 1, 1};
  auto report = launchKernel(*module, "k", config, {out}, memory, options);
  if (report)
    return "";
  return llvm::toString(report.takeError());
}

std::string withUse(std::string ptx, llvm::StringRef use) {
  ptx.replace(ptx.find("USE"), 3, use.str());
  return ptx;
}

// Three of the four floats of a 16-byte shared tile are written; one
// ld.shared.v4 reads all four (line 16), as NVPTX loads a 3-element tile.
const char *kTile = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 16 .b32 sm[4];
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f3F800000;
  st.shared.f32 [sm], %f1;
  st.shared.f32 [sm+4], %f1;
  st.shared.f32 [sm+8], %f1;
  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [sm];
  add.f32 %f5, %f1, %f2;
  add.f32 %f5, %f5, %f3;
  st.global.f32 [%rd1], %f5;
  USE
  ret;
}
)";

TEST(InitcheckTaintTest, PaddingThatIsNeverUsedPasses) {
  EXPECT_EQ(run(withUse(kTile, "")), "");
  // Arithmetic on the padding whose result goes nowhere is no use either.
  EXPECT_EQ(run(withUse(kTile, "mul.f32 %f6, %f4, %f5;")), "");
  // Overwriting the tainted register cleans it.
  EXPECT_EQ(run(withUse(kTile, "mov.f32 %f4, %f5;\n"
                               "  st.global.f32 [%rd1+4], %f4;")),
            "");
}

TEST(InitcheckTaintTest, EachUseOfThePaddingIsReported) {
  const std::string origin = "uses bytes never written: shared read of 4 "
                             "bytes at 0xc by 'ld.shared.v4.f32' at PTX "
                             "line 16";
  struct Case {
    const char *use;
    const char *where;
    const char *what;
  };
  for (Case c : {
           Case{"st.global.f32 [%rd1+4], %f4;", "PTX line 20 'st.global.f32'",
                "the stored data"},
           // Through arithmetic, into a vector store.
           Case{"add.f32 %f6, %f5, %f4;\n"
                "  st.global.v2.f32 [%rd1+8], {%f5, %f6};",
                "PTX line 21 'st.global.v2.f32'", "the stored data"},
           Case{"cvt.rzi.u32.f32 %r1, %f4;\n"
                "  ld.shared.f32 %f7, [%r1];",
                "PTX line 21 'ld.shared.f32'", "the load's address"},
           Case{"cvt.rzi.u32.f32 %r1, %f4;\n"
                "  st.shared.f32 [%r1], %f5;",
                "PTX line 21 'st.shared.f32'", "the store's address"},
           Case{"setp.gt.f32 %p1, %f4, 0f00000000;\n"
                "  @%p1 bra DONE;\n"
                "DONE:",
                "PTX line 21 'bra'", "the branch condition"},
           Case{"setp.gt.f32 %p1, %f4, 0f00000000;\n"
                "  @%p1 st.global.f32 [%rd1+4], %f5;",
                "PTX line 21 'st.global.f32'", "the guard predicate"},
       }) {
    SCOPED_TRACE(c.use);
    std::string message = run(withUse(kTile, c.use));
    EXPECT_NE(message.find(std::string(c.where) + ": initcheck: " + c.what +
                           " " + origin),
              std::string::npos)
        << message;
  }
  // With initcheck off nothing is tracked: the store passes.
  EmulatorOptions off;
  off.initcheck = false;
  EXPECT_EQ(run(withUse(kTile, "st.global.f32 [%rd1+4], %f4;"), 1, off), "");
}

// Two bytes of a 4-byte shared word are written (an f16 or bf16 element);
// ld.shared.b32 reads the pair (line 13), and the kernel takes the written
// half apart in the ways NVPTX does.
const char *kPair = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b16 sm[2];
  .reg .b16 %rs<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.b16 %rs1, 0x3c00;
  st.shared.b16 [sm], %rs1;
  ld.shared.b32 %r1, [sm];
  USE
  ret;
}
)";

TEST(InitcheckTaintTest, TaintIsPerByte) {
  for (const char *clean : {
           "mov.b32 {%rs2, %rs3}, %r1;\n  st.global.b16 [%rd1], %rs2;",
           "{ .reg .b16 tmp; mov.b32 {%rs2, tmp}, %r1; }\n"
           "  st.global.b16 [%rd1], %rs2;",
           "and.b32 %r2, %r1, 0xffff;\n  st.global.b32 [%rd1], %r2;",
           "cvt.u16.u32 %rs2, %r1;\n  st.global.b16 [%rd1], %rs2;",
           "shl.b32 %r2, %r1, 16;\n  st.global.b32 [%rd1], %r2;",
           "prmt.b32 %r2, %r1, 0, 0x4410;\n  st.global.b32 [%rd1], %r2;",
           // Packed halves: the written half's result is clean.
           "add.f16x2 %r2, %r1, %r1;\n"
           "  mov.b32 {%rs2, %rs3}, %r2;\n  st.global.b16 [%rd1], %rs2;",
       }) {
    SCOPED_TRACE(clean);
    EXPECT_EQ(run(withUse(kPair, clean)), "");
  }
  for (const char *tainted : {
           "mov.b32 {%rs2, %rs3}, %r1;\n  st.global.b16 [%rd1], %rs3;",
           "shr.u32 %r2, %r1, 16;\n  st.global.b32 [%rd1], %r2;",
           "shr.u32 %r2, %r1, 8;\n  st.global.b32 [%rd1], %r2;",
           "prmt.b32 %r2, %r1, 0, 0x4432;\n  st.global.b32 [%rd1], %r2;",
           "st.global.b32 [%rd1], %r1;",
           // A whole-value operation mixes the bytes.
           "add.u32 %r2, %r1, 1;\n  and.b32 %r2, %r2, 0xff;\n"
           "  st.global.b32 [%rd1], %r2;",
       }) {
    SCOPED_TRACE(tainted);
    std::string message = run(withUse(kPair, tainted));
    EXPECT_NE(message.find("initcheck: the stored data uses bytes never "
                           "written: shared read of 2 bytes at 0x2 by "
                           "'ld.shared.b32' at PTX line 13"),
              std::string::npos)
        << message;
  }
}

// Lane 1 reads padding and shuffles it to lane 0, which stores it: the
// taint travels with the value, and lane 0 is reported.
TEST(InitcheckTaintTest, ShuffledTaintIsReportedAtTheReceivingLane) {
  const char *ptx = R"(
.visible .entry k(.param .u64 out) {
  .shared .align 4 .b32 sm[32];
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  setp.ne.u32 %p1, %r1, 1;
  @%p1 st.shared.u32 [%r2], %r1;
  bar.sync 0;
  ld.shared.u32 %r3, [%r2];
  shfl.sync.down.b32 %r4, %r3, 1, 31, -1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  SHFL_USE
  ret;
}
)";
  std::string text = ptx;
  std::string stored = text;
  stored.replace(stored.find("SHFL_USE"), 8, "st.global.u32 [%rd3], %r4;");
  std::string message = run(stored, 32);
  EXPECT_NE(message.find("thread (0,0,0) PTX line 20 'st.global.u32': "
                         "initcheck: the stored data uses bytes never "
                         "written: shared read of 4 bytes at 0x4 by "
                         "'ld.shared.u32' at PTX line 16"),
            std::string::npos)
      << message;
  // Lane 1's own padding was shuffled away; storing what it received
  // (lane 2's word) is fine, and the tainted %r3 of lane 1 is unused.
  std::string fine = text;
  fine.replace(fine.find("SHFL_USE"), 8,
               "setp.eq.u32 %p1, %r1, 0;\n  @!%p1 st.global.u32 [%rd3], %r4;");
  EXPECT_EQ(run(fine, 32), "");
}

} // namespace
