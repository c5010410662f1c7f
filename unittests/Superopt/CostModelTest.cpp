//===- CostModelTest.cpp - the analytic per-target cost model -------------===//
//
// Roofline limits of predefined kernels against hand-computed bounds, the
// fused RMSNorm + MatMul µGraph against its one-kernel-per-op program,
// shared-memory and register overuse, and calibration files.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/FileSystem.h"
#include "mirage/Superopt/CostModel/CostModel.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Path.h"
#include "MicroGraphTest.h"
#include "gtest/gtest.h"
#include <chrono>

using namespace mirage;
using namespace mirage::superopt;

namespace {

/// A file of the repository (the root comes from CMake: __FILE__ is
/// relative when ccache rewrites paths).
std::string repoPath(llvm::StringRef relative) {
  llvm::SmallString<256> path(MIRAGE_SOURCE_DIR);
  llvm::sys::path::append(path, relative);
  return std::string(path);
}

GpuTarget target(llvm::StringRef name) {
  llvm::Expected<GpuTarget> t = GpuTarget::get(name);
  EXPECT_TRUE(bool(t)) << name.str();
  if (!t) {
    llvm::consumeError(t.takeError());
    return GpuTarget();
  }
  return std::move(*t);
}

class CostModelTest : public mirage::testing::MicroGraphTest {
protected:
  /// The first op of function `name`.
  mlir::Operation *firstOp(llvm::StringRef name) {
    mlir::func::FuncOp f = fn(name);
    return f ? &f.getBody().front().front() : nullptr;
  }
  KernelCost cost(mlir::Operation *op, const GpuTarget &t) {
    llvm::Expected<KernelCost> c = estimateKernel(op, t);
    EXPECT_TRUE(bool(c)) << (c ? "" : llvm::toString(c.takeError()));
    return c ? *c : KernelCost();
  }
  /// The error estimateKernel gives, or "" when it succeeds.
  std::string error(mlir::Operation *op, const GpuTarget &t) {
    llvm::Expected<KernelCost> c = estimateKernel(op, t);
    return c ? "" : llvm::toString(c.takeError());
  }

};

constexpr const char *kPredefined = R"mlir(
func.func @mm(%a: tensor<8192x8192xf16>, %b: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
  %c = kernel.matmul %a, %b : (tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  return %c : tensor<8192x8192xf16>
}
func.func @mm32(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %c = kernel.matmul %a, %b : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}
func.func @relu(%a: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %c = kernel.unary relu %a : tensor<4096x4096xf16>
  return %c : tensor<4096x4096xf16>
}
func.func @tiny(%a: tensor<8x8xf16>) -> tensor<8x8xf16> {
  %c = kernel.unary exp %a : tensor<8x8xf16>
  return %c : tensor<8x8xf16>
}
func.func @view(%a: tensor<64x64xf16>) -> tensor<4096xf16> {
  %c = kernel.reshape %a : tensor<64x64xf16> -> tensor<4096xf16>
  %d = kernel.unary exp %c : tensor<4096xf16>
  return %d : tensor<4096xf16>
}
)mlir";

TEST_F(CostModelTest, UnknownTarget) {
  llvm::Expected<GpuTarget> t = GpuTarget::get("sm_70");
  ASSERT_FALSE(bool(t));
  EXPECT_NE(llvm::toString(t.takeError()).find("unknown target 'sm_70'"),
            std::string::npos);
}

// A chip of the target database the model has no L2 bandwidth or launch
// overhead for is refused, saying what to calibrate; a calibration that
// gives both makes it usable, with the database's hardware numbers.
TEST_F(CostModelTest, ChipWithoutModelParametersNeedsCalibration) {
  llvm::Expected<GpuTarget> t = GpuTarget::get("sm_89");
  ASSERT_FALSE(bool(t));
  std::string message = llvm::toString(t.takeError());
  EXPECT_NE(message.find("no l2BandwidthGBs and launchOverheadUs for sm_89 "
                         "(RTX-4090)"),
            std::string::npos)
      << message;
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("sm89", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << R"({"target": "sm_89", "constants": {"l2BandwidthGBs": 5000}})";
  }
  llvm::Expected<GpuTarget> half = GpuTarget::get("sm_89", path);
  ASSERT_FALSE(bool(half));
  message = llvm::toString(half.takeError());
  EXPECT_NE(message.find("no launchOverheadUs for sm_89"), std::string::npos)
      << message;
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << R"({"target": "sm_89", "constants": {"l2BandwidthGBs": 5000, )"
          R"("launchOverheadUs": 3}})";
  }
  llvm::Expected<GpuTarget> full = GpuTarget::get("sm_89", path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(full)) << llvm::toString(full.takeError());
  EXPECT_EQ(full->numSMs, 128);
  EXPECT_EQ(full->l2BandwidthGBs, 5000);
}

// A product is its own target: the H200 has the H100's SMs and more
// memory bandwidth.
TEST_F(CostModelTest, ProductsAreTargets) {
  llvm::Expected<GpuTarget> h200 = GpuTarget::get("H200-SXM-141GB");
  llvm::Expected<GpuTarget> h100 = GpuTarget::get("sm_90");
  ASSERT_TRUE(bool(h200) && bool(h100));
  EXPECT_EQ(h200->numSMs, h100->numSMs);
  EXPECT_GT(h200->dramBandwidthGBs, h100->dramBandwidthGBs);
}

TEST_F(CostModelTest, LargeF16MatmulIsComputeBoundAtTensorCoreRate) {
  ASSERT_TRUE(parse(kPredefined));
  GpuTarget a100 = target("sm_80");
  KernelCost c = cost(firstOp("mm"), a100);
  double n = 8192;
  EXPECT_EQ(c.bound, "compute");
  EXPECT_DOUBLE_EQ(c.flops, 2 * n * n * n);
  EXPECT_DOUBLE_EQ(c.dramBytes, 3 * n * n * 2);
  // 2MNK / 312 TFLOP/s, slowed only by the documented efficiency factor
  // and the launch.
  double idealUs = 2 * n * n * n / 312e12 * 1e6;
  EXPECT_GT(c.timeUs, idealUs);
  EXPECT_NEAR(c.timeUs, idealUs / a100.computeEfficiency + a100.launchOverheadUs,
              1e-6 * idealUs);
}

TEST_F(CostModelTest, F32MatmulUsesCudaCores) {
  ASSERT_TRUE(parse(kPredefined));
  GpuTarget a100 = target("sm_80");
  KernelCost c = cost(firstOp("mm32"), a100);
  double n = 4096;
  EXPECT_EQ(c.bound, "compute");
  double idealUs = 2 * n * n * n / 19.5e12 * 1e6;
  EXPECT_NEAR(c.timeUs, idealUs / a100.computeEfficiency + a100.launchOverheadUs,
              1e-6 * idealUs);
}

TEST_F(CostModelTest, SizesBeyond64BitsAreCountedInFloatingPoint) {
  // 2^32 x 2^32 elements: a 64-bit element count wraps to 0 (the model
  // printed "0 B" and a negative FLOP count).
  ASSERT_TRUE(parse(R"mlir(
func.func @huge(%a: tensor<4294967296x4294967296xf16>, %b: tensor<4294967296x8xf16>) -> tensor<4294967296x8xf16> {
  %c = kernel.matmul %a, %b : (tensor<4294967296x4294967296xf16>, tensor<4294967296x8xf16>) -> tensor<4294967296x8xf16>
  return %c : tensor<4294967296x8xf16>
}
)mlir"));
  GpuTarget h100 = target("sm_90");
  KernelCost c = cost(firstOp("huge"), h100);
  double n = 4294967296.0;
  EXPECT_DOUBLE_EQ(c.dramBytes, (n * n + 2 * n * 8) * 2);
  EXPECT_DOUBLE_EQ(c.flops, 2 * n * 8 * n);
  EXPECT_GT(c.timeUs, 1e12);
}

TEST_F(CostModelTest, WideningMatmulUsesTensorCores) {
  // f16 tiles multiplied into an f32 accumulator run on tensor cores like
  // an f16 result: the operands decide, not the result type.
  auto graph = [](llvm::StringRef resultType) {
    return (R"mlir(
func.func @k(%a: tensor<64x4096xf16>, %b: tensor<4096x64xf16>) -> tensor<64x64xf16> {
  %c = kernel.graph_def (%a, %b) grid = [1] forloop = 16
      : (tensor<64x4096xf16>, tensor<4096x64xf16>) -> tensor<64x64xf16> {
  ^bb0(%x: tensor<64x4096xf16>, %y: tensor<4096x64xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<64x4096xf16> -> !block.tile<64x256xf16>
    %yt = block.input %y imap = <x: replicate> fmap = <i: 0> : tensor<4096x64xf16> -> !block.tile<256x64xf16>
    %m = block.matmul %xt, %yt : (!block.tile<64x256xf16>, !block.tile<256x64xf16>) -> !block.tile<64x64x)mlir" +
            resultType + R"mlir(>
    %s = block.accum sum %m : !block.tile<64x64x)mlir" + resultType +
            R"mlir(> -> !block.tile<64x64x)mlir" + resultType + R"mlir(>
    %o = block.output %s omap = <x: replicate> : !block.tile<64x64x)mlir" +
            resultType + R"mlir(> -> tensor<64x64xf16>
    block.yield %o : tensor<64x64xf16>
  }
  return %c : tensor<64x64xf16>
}
)mlir")
        .str();
  };
  GpuTarget h100 = target("sm_90");
  ASSERT_TRUE(parse(graph("f16")));
  KernelCost narrow = cost(firstOp("k"), h100);
  ASSERT_TRUE(parse(graph("f32")));
  KernelCost wide = cost(firstOp("k"), h100);
  EXPECT_DOUBLE_EQ(wide.flops, narrow.flops);
  // Same compute time; the f32 tiles only add shared-memory traffic. The
  // footprint is the same: the code generator keeps a sum accumulator in
  // f32 whatever its declared type (SharedMemoryPlan.h), and this one in
  // registers.
  EXPECT_GT(wide.smemBytes, narrow.smemBytes);
  EXPECT_EQ(wide.smemFootprint, narrow.smemFootprint);
  EXPECT_LT(wide.timeUs, narrow.timeUs * 1.5);
}

TEST_F(CostModelTest, ElementwiseIsMemoryBoundAtBandwidth) {
  ASSERT_TRUE(parse(kPredefined));
  for (llvm::StringRef name : {"sm_80", "sm_90"}) {
    GpuTarget t = target(name);
    KernelCost c = cost(firstOp("relu"), t);
    double bytes = 2.0 * 4096 * 4096 * 2; // read and write, f16
    EXPECT_EQ(c.bound, "memory") << name.str();
    EXPECT_DOUBLE_EQ(c.dramBytes, bytes);
    double ideal = bytes / (t.dramBandwidthGBs * 1e3);
    EXPECT_NEAR(c.timeUs - t.launchOverheadUs, ideal / t.dramEfficiency,
                1e-9 * ideal)
        << name.str();
  }
}

TEST_F(CostModelTest, TinyKernelIsLaunchBoundAndReshapeIsFree) {
  ASSERT_TRUE(parse(kPredefined));
  GpuTarget t = target("sm_90");
  KernelCost tiny = cost(firstOp("tiny"), t);
  EXPECT_EQ(tiny.bound, "launch");
  KernelCost view = cost(firstOp("view"), t);
  EXPECT_EQ(view.bound, "free");
  EXPECT_EQ(view.timeUs, 0);
  llvm::Expected<FunctionCost> f = estimateFunction(fn("view"), t);
  ASSERT_TRUE(bool(f));
  EXPECT_EQ(f->kernels, 1);
}

TEST_F(CostModelTest, Sm90IsFasterThanSm80) {
  ASSERT_TRUE(parse(kPredefined));
  GpuTarget a100 = target("sm_80"), h100 = target("sm_90");
  for (llvm::StringRef name : {"mm", "mm32", "relu"})
    EXPECT_LT(cost(firstOp(name), h100).timeUs,
              cost(firstOp(name), a100).timeUs)
        << name.str();
}

TEST_F(CostModelTest, FusedRmsNormMatmulBeatsOneKernelPerOp) {
  module = mlir::parseSourceFile<mlir::ModuleOp>(
      repoPath("test/Examples/rms_norm_matmul.mlir"), &ctx);
  ASSERT_TRUE(module);
  for (llvm::StringRef name : {"sm_80", "sm_90"}) {
    GpuTarget t = target(name);
    llvm::Expected<FunctionCost> graph =
        estimateFunction(fn("rms_norm_matmul_graph"), t);
    llvm::Expected<FunctionCost> fused =
        estimateFunction(fn("rms_norm_matmul_fused"), t);
    ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
    ASSERT_TRUE(bool(fused)) << llvm::toString(fused.takeError());
    EXPECT_EQ(graph->kernels, 2);
    EXPECT_EQ(fused->kernels, 1);
    EXPECT_LT(fused->timeUs, graph->timeUs) << name.str();

    // Device-memory traffic: the fused kernel reads X and W once (re-reads
    // of X by the 96 blocks come from L2) and writes Y; the graph program
    // also writes and reads back the normalized X.
    double x = 16 * 4096 * 2, w = 4096.0 * 6144 * 2, y = 16 * 6144 * 2;
    KernelCost k = cost(firstOp("rms_norm_matmul_fused"), t);
    EXPECT_DOUBLE_EQ(k.dramBytes, x + w + y);
    EXPECT_DOUBLE_EQ(k.l2Bytes, 95 * x);
    EXPECT_EQ(k.blocks, 96);
    EXPECT_EQ(k.waves, 1);
    double graphBytes = 0;
    for (mlir::Operation &op : fn("rms_norm_matmul_graph").getBody().front())
      if (!op.hasTrait<mlir::OpTrait::IsTerminator>())
        graphBytes += cost(&op, t).dramBytes;
    EXPECT_DOUBLE_EQ(graphBytes - k.dramBytes, 2 * x);
    // The code generator's plan: loop tiles X 16x256, W 256x64, X^2,
    // X^2 / 4096 and its row sums (XW is summed in registers, on tensor
    // cores); accumulators XW and mean(X^2) in f32 (post-loop tiles are
    // smaller than the loop's and reuse it). Each is 16-byte aligned; the
    // matmul's operands X and W have rows 16 bytes longer (conflict-free
    // fragment loads).
    int64_t body = (16 * 264 + 256 * 72 + 16 * 256 + 16 * 256 + 16) * 2;
    int64_t accums = (16 * 64 + 16) * 4;
    EXPECT_EQ(k.smemFootprint, body + accums);
  }
}

constexpr const char *kOveruse = R"mlir(
func.func @big(%x: tensor<256x512xf16>) -> tensor<256x512xf16> {
  %y = kernel.graph_def (%x) grid = [1] forloop = 1
      : (tensor<256x512xf16>) -> tensor<256x512xf16> {
  ^bb0(%a: tensor<256x512xf16>):
    %t = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<256x512xf16> -> !block.tile<256x512xf16>
    %s = block.accum sum %t : !block.tile<256x512xf16> -> !block.tile<256x512xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<256x512xf16> -> tensor<256x512xf16>
    block.yield %o : tensor<256x512xf16>
  }
  return %y : tensor<256x512xf16>
}
func.func @regs(%x: tensor<128x128xf16>) -> tensor<128x128xf16> {
  %y = kernel.graph_def (%x) grid = [1] forloop = 1
      : (tensor<128x128xf16>) -> tensor<128x128xf16> {
  ^bb0(%a: tensor<128x128xf16>):
    %t = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<128x128xf16> -> !block.tile<128x128xf16>
    %e = thread.fused (%t) : (!block.tile<128x128xf16>) -> !block.tile<128x128xf16> {
    ^bb0(%v: f16):
      %r = thread.unary exp %v : f16
      thread.yield %r : f16
    }
    %s = block.accum sum %e : !block.tile<128x128xf16> -> !block.tile<128x128xf16>
    %o = block.output %s omap = <x: 0> : !block.tile<128x128xf16> -> tensor<128x128xf16>
    block.yield %o : tensor<128x128xf16>
  }
  return %y : tensor<128x128xf16>
}
)mlir";

TEST_F(CostModelTest, SharedMemoryOveruseIsRejected) {
  ASSERT_TRUE(parse(kOveruse));
  // Input tile (f16) and accumulator (f32, as the code generator keeps
  // it): 256 x 512 x (2 + 4) bytes.
  std::string err = error(firstOp("big"), target("sm_90"));
  EXPECT_NE(err.find("needs 786432 bytes of shared memory"), std::string::npos)
      << err;
  EXPECT_NE(err.find("sm_90 allows 232448"), std::string::npos) << err;
  llvm::Expected<FunctionCost> f = estimateFunction(fn("big"), target("sm_80"));
  ASSERT_FALSE(bool(f));
  EXPECT_NE(llvm::toString(f.takeError()).find("sm_80 allows 166912"),
            std::string::npos);
}

TEST_F(CostModelTest, RegisterOveruseIsRejected) {
  ASSERT_TRUE(parse(kOveruse));
  GpuTarget t = target("sm_80");
  // 16384 elements over 128 threads, 2 live values each, plus the base.
  std::string err = error(firstOp("regs"), t);
  EXPECT_NE(err.find("about 288 registers per thread"), std::string::npos)
      << err;
  // With more threads per block the same chain fits.
  t.threadsPerBlock = 256;
  KernelCost c = cost(firstOp("regs"), t);
  EXPECT_EQ(c.regsPerThread, 32 + 2 * 64);
}

TEST_F(CostModelTest, CalibrationOverridesConstantsAndTimes) {
  ASSERT_TRUE(parse(kPredefined));
  GpuTarget t = target("sm_90");
  double before = cost(firstOp("relu"), t).timeUs - t.launchOverheadUs;
  llvm::Error err = t.applyCalibrationJSON(
      R"({"target": "sm_90", "constants": {"dramBandwidthGBs": 1675,
          "launchOverheadUs": 7.5}})");
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(t.launchOverheadUs, 7.5);
  double after = cost(firstOp("relu"), t).timeUs - t.launchOverheadUs;
  EXPECT_NEAR(after, 2 * before, 1e-9 * after);

  std::string signature = kernelSignature(firstOp("mm"));
  EXPECT_EQ(signature,
            "kernel.matmul 8192x8192xf16,8192x8192xf16->8192x8192xf16");
  err = t.applyCalibrationJSON(
      (R"({"kernels": [{"signature": ")" + signature +
       R"(", "timeUs": 1234.5}]})"));
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  KernelCost measured = cost(firstOp("mm"), t);
  EXPECT_EQ(measured.timeUs, 1234.5);
  EXPECT_EQ(measured.bound, "measured");
  // Other shapes are still modelled.
  EXPECT_EQ(cost(firstOp("mm32"), t).bound, "compute");
}

TEST_F(CostModelTest, ExampleCalibrationFileLoads) {
  GpuTarget t = target("sm_90");
  llvm::Error err =
      t.applyCalibration(repoPath("bench/calibration/example-sm_90.json"));
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(t.dramBandwidthGBs, 3000);
  EXPECT_EQ(t.measuredUs.size(), 2u);
  // It is for sm_90 only.
  GpuTarget a100 = target("sm_80");
  err = a100.applyCalibration(repoPath("bench/calibration/example-sm_90.json"));
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("not for 'sm_80'"),
            std::string::npos);
}

TEST_F(CostModelTest, MalformedCalibrationIsAnError) {
  struct Case {
    const char *json;
    const char *message;
  };
  const Case cases[] = {
      {"{", "invalid JSON"},
      {"[]", "top level must be an object"},
      {R"({"constant": {}})", "unknown key 'constant'"},
      {R"({"constants": {"dramBandwidth": 1}})",
       "unknown constant 'dramBandwidth'"},
      {R"({"constants": {"dramBandwidthGBs": "fast"}})",
       "'dramBandwidthGBs' must be a number"},
      {R"({"constants": {"launchOverheadUs": -1}})",
       "'launchOverheadUs' must be positive"},
      {R"({"constants": {"dramEfficiency": 1.5}})",
       "'dramEfficiency' is a fraction"},
      {R"({"constants": {"numSMs": 13.5}})", "'numSMs' must be an integer"},
      {R"({"kernels": {}})", "'kernels' must be an array"},
      {R"({"kernels": [{"signature": "x"}]})", "needs 'signature' and 'timeUs'"},
      {R"({"kernels": [{"signature": "x", "timeUs": -3}]})",
       "'timeUs' must be positive"},
      {R"({"kernels": [{"signature": "x", "timeUs": 3, "n": 1}]})",
       "unknown key 'n'"},
  };
  for (const Case &c : cases) {
    GpuTarget t = target("sm_80");
    llvm::Error err = t.applyCalibrationJSON(c.json);
    ASSERT_TRUE(bool(err)) << c.json;
    std::string message = llvm::toString(std::move(err));
    EXPECT_NE(message.find(c.message), std::string::npos)
        << c.json << " -> " << message;
  }
  // A valid override before the error in the same file does not survive it.
  GpuTarget t = target("sm_80");
  llvm::Error err = t.applyCalibrationJSON(
      R"({"constants": {"launchOverheadUs": 9, "syncCycles": -1}})");
  ASSERT_TRUE(bool(err));
  llvm::consumeError(std::move(err));
  EXPECT_EQ(t.launchOverheadUs, target("sm_80").launchOverheadUs);

  err = t.applyCalibration(repoPath("bench/calibration/no-such-file.json"));
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("cannot read"), std::string::npos);
}

TEST_F(CostModelTest, EstimateIsFast) {
  module = mlir::parseSourceFile<mlir::ModuleOp>(
      repoPath("test/Examples/rms_norm_matmul.mlir"), &ctx);
  ASSERT_TRUE(module);
  GpuTarget t = target("sm_90");
  mlir::Operation *op = firstOp("rms_norm_matmul_fused");
  constexpr int kRuns = 20000;
  double sum = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kRuns; ++i) {
    llvm::Expected<KernelCost> c = estimateKernel(op, t);
    ASSERT_TRUE(bool(c));
    sum += c->timeUs;
  }
  double us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - start)
                  .count() /
              kRuns;
  EXPECT_GT(sum, 0);
  // The search calls it on thousands of candidates: microseconds each (the
  // bound is loose so that a loaded machine does not fail it).
  EXPECT_LT(us, 50.0);
}

} // namespace
