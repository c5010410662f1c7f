//===- PtxEntriesTest.cpp - a manifest's launches against its PTX ---------===//
//
// The checks mirage-gpu-run makes before any CUDA call, over the PtxModule
// the emulator's parser reads: the kernel exists, one 64-bit pointer per
// buffer, the block within .maxntid / equal to .reqntid, the chip.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/PtxEntries.h"
#include "gtest/gtest.h"

using namespace mirage;
using namespace mirage::gpurun;

namespace {

constexpr const char *kPtx = R"(
.version 7.8
.target sm_90
.address_size 64

.visible .entry scale(
	.param .u64 scale_param_0,
	.param .u64 scale_param_1
)
.maxntid 128, 1, 1
{
	ret;
}

.visible .entry fixed(
	.param .u64 fixed_param_0
)
.reqntid 64
{
	ret;
}

.visible .entry narrow(
	.param .u64 narrow_param_0,
	.param .u32 narrow_param_1
)
{
	ret;
}
)";

Manifest manifestLaunching(llvm::StringRef kernel, unsigned args,
                           unsigned threads) {
  Manifest manifest;
  manifest.path = "m.json";
  manifest.chip = "sm_90";
  manifest.ptxPath = "m.ptx";
  Function function;
  function.name = "f";
  function.where = "functions[0]";
  Launch launch;
  launch.kernel = kernel.str();
  launch.grid = {1, 1, 1};
  launch.block = {threads, 1, 1};
  launch.dynamicSharedMemory = 0;
  for (unsigned i = 0; i < args; ++i)
    launch.args.push_back(i);
  function.launches.push_back(launch);
  manifest.functions.push_back(function);
  return manifest;
}

std::string checkMessage(const Manifest &manifest) {
  llvm::Expected<emulator::PtxModule> module = readPtxModule(kPtx, "m.ptx");
  if (!module)
    return "parse: " + llvm::toString(module.takeError());
  llvm::Error error = checkLaunchesAgainstPtx(manifest, *module);
  return error ? llvm::toString(std::move(error)) : "";
}

TEST(PtxEntriesTest, AMatchingLaunchPasses) {
  EXPECT_EQ(checkMessage(manifestLaunching("scale", 2, 128)), "");
}

TEST(PtxEntriesTest, AKernelThePtxLacksIsNamedWithTheEntries) {
  EXPECT_EQ(checkMessage(manifestLaunching("shift", 2, 32)),
            "m.json: functions[0].launches[0].kernel: \"shift\" is not an "
            ".entry of the PTX 'm.ptx' (it has fixed, narrow, scale)");
}

TEST(PtxEntriesTest, EveryParameterTakesOneBuffer) {
  EXPECT_NE(checkMessage(manifestLaunching("scale", 3, 32))
                .find("3 buffers, but .entry scale takes 2 parameters"),
            std::string::npos);
}

TEST(PtxEntriesTest, AParameterThatIsNoPointerIsRejected) {
  EXPECT_NE(checkMessage(manifestLaunching("narrow", 2, 64))
                .find("args[1]: .entry narrow takes .u32 as parameter 1, not "
                      "the 64-bit device pointer a buffer is passed as"),
            std::string::npos);
}

TEST(PtxEntriesTest, BlocksRespectMaxntidAndReqntid) {
  EXPECT_NE(checkMessage(manifestLaunching("scale", 2, 256))
                .find("[256, 1, 1] has 256 threads, more than .entry scale "
                      "allows (.maxntid 128, 1, 1)"),
            std::string::npos);
  // `.reqntid 64` is 64, 1, 1: exactly that block.
  EXPECT_EQ(checkMessage(manifestLaunching("fixed", 1, 64)), "");
  EXPECT_NE(checkMessage(manifestLaunching("fixed", 1, 32))
                .find("[32, 1, 1], but .entry fixed requires .reqntid 64, 1, "
                      "1"),
            std::string::npos);
}

TEST(PtxEntriesTest, TheChipMustBeThePtxTarget) {
  Manifest manifest = manifestLaunching("scale", 2, 32);
  manifest.chip = "sm_80";
  EXPECT_EQ(checkMessage(manifest),
            "m.json: chip: \"sm_80\", but the PTX 'm.ptx' targets sm_90");
}

TEST(PtxEntriesTest, UnparsablePtxNamesTheFile) {
  llvm::Expected<emulator::PtxModule> module =
      readPtxModule(".version 7.8\n.target sm_90\n.entry k(\n", "bad.ptx");
  ASSERT_FALSE(module);
  std::string message = llvm::toString(module.takeError());
  EXPECT_EQ(message.rfind("cannot parse the PTX 'bad.ptx': ", 0), 0u)
      << message;
}

} // namespace
