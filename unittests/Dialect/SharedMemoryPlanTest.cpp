//===- SharedMemoryPlanTest.cpp - where a block graph's tiles live --------===//
//
// The plan block-to-gpu allocates and kernel-to-block and the cost model
// check against: accumulators first (f32), loop-body tiles after them, the
// post-loop tiles over the loop body's space, 16-byte alignment, and a
// tensor-core sum kept in registers only where the chip has the mma.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Block/Analysis/SharedMemoryPlan.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage;

namespace {

// X (16x1024) times W (1024x64) in 4 steps of 256, summed, then exp.
constexpr const char *kMatmulExp = R"mlir(
func.func @k(%a: tensor<16x1024xf16>, %b: tensor<1024x64xf16>) -> tensor<16x64xf16> {
  %c = kernel.graph_def (%a, %b) grid = [1] forloop = 4
      : (tensor<16x1024xf16>, tensor<1024x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x1024xf16>, %y: tensor<1024x64xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<16x1024xf16> -> !block.tile<16x256xf16>
    %yt = block.input %y imap = <x: replicate> fmap = <i: 0> : tensor<1024x64xf16> -> !block.tile<256x64xf16>
    %m = block.matmul %xt, %yt : (!block.tile<16x256xf16>, !block.tile<256x64xf16>) -> !block.tile<16x64xf16>
    %s = block.accum sum %m : !block.tile<16x64xf16> -> !block.tile<16x64xf16>
    %e = block.unary exp %s : !block.tile<16x64xf16>
    %o = block.output %e omap = <x: replicate> : !block.tile<16x64xf16> -> tensor<16x64xf16>
    block.yield %o : tensor<16x64xf16>
  }
  return %c : tensor<16x64xf16>
}
)mlir";

// A 5x3 f16 tile (30 bytes) and its f32 sum (60 bytes).
constexpr const char *kOddTile = R"mlir(
func.func @k(%a: tensor<5x3xf16>) -> tensor<5x3xf16> {
  %c = kernel.graph_def (%a) grid = [1] forloop = 1
      : (tensor<5x3xf16>) -> tensor<5x3xf16> {
  ^bb0(%x: tensor<5x3xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: replicate> : tensor<5x3xf16> -> !block.tile<5x3xf16>
    %s = block.accum sum %t : !block.tile<5x3xf16> -> !block.tile<5x3xf16>
    %o = block.output %s omap = <x: replicate> : !block.tile<5x3xf16> -> tensor<5x3xf16>
    block.yield %o : tensor<5x3xf16>
  }
  return %c : tensor<5x3xf16>
}
)mlir";

class SharedMemoryPlanTest : public ::testing::Test {
protected:
  SharedMemoryPlanTest() {
    DialectRegistry registry;
    registerMirageDialects(registry);
    registry.insert<func::FuncDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  Block &graphOf(const char *source) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    kernel::GraphDefOp def;
    module->walk([&](kernel::GraphDefOp op) { def = op; });
    return def.getBody().front();
  }

  /// The op of `graph` named `name` (its first result), by order.
  static Value resultOf(Block &graph, StringRef name, unsigned nth = 0) {
    for (Operation &op : graph)
      if (op.getName().getStringRef() == name && nth-- == 0)
        return op.getResult(0);
    return {};
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(SharedMemoryPlanTest, TensorCoreSumStaysInRegisters) {
  Block &graph = graphOf(kMatmulExp);
  block::SharedMemoryPlan plan =
      block::planSharedMemory(graph, /*chipHasF16Mma=*/true);
  Value accum = resultOf(graph, "block.accum");
  Value x = resultOf(graph, "block.input", 0);
  Value w = resultOf(graph, "block.input", 1);
  Value product = resultOf(graph, "block.matmul");
  Value exp = resultOf(graph, "block.unary");
  // The f16-typed accumulator is held in f32: 16 x 64 x 4 bytes.
  EXPECT_EQ(plan.persistentBytes, 16 * 64 * 4);
  EXPECT_EQ(plan.offsets.lookup(accum), 0);
  EXPECT_EQ(plan.offsets.lookup(x), 4096);
  // The matmul's operands have rows of 32 and 8 sixteen-byte units: 16
  // bytes more per row (an odd number of units, conflict-free rows).
  EXPECT_EQ(plan.rowPitch.lookup(x), 264);
  EXPECT_EQ(plan.rowPitch.lookup(w), 72);
  EXPECT_FALSE(plan.rowPitch.count(exp));
  EXPECT_EQ(plan.offsets.lookup(w), 4096 + 16 * 264 * 2);
  EXPECT_FALSE(plan.offsets.count(product));
  ASSERT_EQ(plan.registerMatmuls.size(), 1u);
  EXPECT_EQ(plan.registerMatmuls.front().first, product.getDefiningOp());
  // The post-loop exp reuses the loop body's space.
  EXPECT_EQ(plan.offsets.lookup(exp), 4096);
  EXPECT_EQ(plan.bytes, 4096 + 16 * 264 * 2 + 256 * 72 * 2);
  EXPECT_EQ(plan.loopBody.size(), 3u);
  EXPECT_EQ(plan.postLoop.size(), 1u);
  EXPECT_EQ(plan.savers.size(), 1u);
}

TEST_F(SharedMemoryPlanTest, WithoutTensorCoresTheProductIsATile) {
  Block &graph = graphOf(kMatmulExp);
  block::SharedMemoryPlan plan =
      block::planSharedMemory(graph, /*chipHasF16Mma=*/false);
  EXPECT_TRUE(plan.registerMatmuls.empty());
  EXPECT_EQ(plan.offsets.lookup(resultOf(graph, "block.matmul")),
            4096 + 16 * 256 * 2 + 256 * 64 * 2);
  EXPECT_EQ(plan.bytes, 4096 + 16 * 256 * 2 + 256 * 64 * 2 + 16 * 64 * 2);
  // Without tensor cores no operand row is padded.
  EXPECT_TRUE(plan.rowPitch.empty());
}

TEST_F(SharedMemoryPlanTest, TilesAreSixteenByteAligned) {
  Block &graph = graphOf(kOddTile);
  block::SharedMemoryPlan plan = block::planSharedMemory(graph, true);
  // The f32 sum: 60 bytes -> 64; the f16 input after it: 30 -> 32.
  EXPECT_EQ(plan.offsets.lookup(resultOf(graph, "block.accum")), 0);
  EXPECT_EQ(plan.offsets.lookup(resultOf(graph, "block.input")), 64);
  EXPECT_EQ(plan.bytes, 96);
}

} // namespace
