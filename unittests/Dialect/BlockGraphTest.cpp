//===- BlockGraphTest.cpp - block graphs built and checked from C++ -------===//

#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage;

namespace {

class BlockGraphTest : public ::testing::Test {
protected:
  BlockGraphTest() {
    DialectRegistry registry;
    registerMirageDialects(registry);
    registry.insert<func::FuncDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &ctx, [this](Diagnostic &d) {
          errors += d.str() + "\n";
          return success();
        });
  }

  /// A one-kernel µGraph: y = x * 2 per block, with the given maps.
  std::string scaleKernel(StringRef imap, StringRef omap, StringRef tile,
                          StringRef out) {
    return std::string(R"(func.func @f(%X: tensor<64x128xf32>) -> )" + out.str() + R"( {
  %y = kernel.graph_def (%X) grid = [4, 2] forloop = 1
      : (tensor<64x128xf32>) -> )" + out.str() + R"( {
  ^bb0(%x: tensor<64x128xf32>):
    %t = block.input %x imap = )" + imap.str() +
            R"( fmap = <i: replicate> : tensor<64x128xf32> -> )" + tile.str() +
            R"(
    %a = block.accum sum %t : )" + tile.str() + " -> " + tile.str() + R"(
    %s = block.unary scale %a params = [2.0] : )" + tile.str() + R"(
    %o = block.output %s omap = )" + omap.str() + " : " + tile.str() +
            " -> " + out.str() + R"(
    block.yield %o : )" + out.str() + R"(
  }
  return %y : )" + out.str() + R"(
})");
  }

  LogicalResult parseAndVerify(StringRef source) {
    errors.clear();
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
    return success(module && succeeded(verify(*module)));
  }

  MLIRContext ctx;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  std::string errors;
};

TEST_F(BlockGraphTest, GridMapPrintsReadably) {
  auto map = block::GridMapAttr::get(&ctx, {1, block::GridMapAttr::kReplicate});
  std::string text;
  llvm::raw_string_ostream os(text);
  os << map;
  EXPECT_EQ(text, "#block.grid_map<x: 1, y: replicate>");
  EXPECT_TRUE(map.isReplicate(1));
  EXPECT_FALSE(map.isReplicate(0));
}

TEST_F(BlockGraphTest, TileShapeFollowsFromMaps) {
  // x partitions dim 0 into 4, y partitions dim 1 into 2: 16x64 tiles.
  EXPECT_TRUE(succeeded(parseAndVerify(scaleKernel(
      "<x: 0, y: 1>", "<x: 0, y: 1>", "!block.tile<16x64xf32>",
      "tensor<64x128xf32>"))))
      << errors;
  // Swapped omap: the blocks' tiles concatenate to a 32x256 tensor instead.
  EXPECT_TRUE(succeeded(parseAndVerify(scaleKernel(
      "<x: 0, y: 1>", "<x: 1, y: 0>", "!block.tile<16x64xf32>",
      "tensor<32x256xf32>"))))
      << errors;
}

TEST_F(BlockGraphTest, RejectsTileShapeThatDoesNotFollow) {
  EXPECT_TRUE(failed(parseAndVerify(scaleKernel(
      "<x: 0, y: 1>", "<x: 0, y: 1>", "!block.tile<16x128xf32>",
      "tensor<64x256xf32>"))));
  EXPECT_NE(errors.find("does not follow from the maps"), std::string::npos)
      << errors;
}

TEST_F(BlockGraphTest, RejectsReplicatedOmapOnPartitionedGrid) {
  EXPECT_TRUE(failed(parseAndVerify(scaleKernel(
      "<x: 0, y: 1>", "<x: 0, y: replicate>", "!block.tile<16x64xf32>",
      "tensor<64x64xf32>"))));
  EXPECT_NE(errors.find("would overwrite each other"), std::string::npos)
      << errors;
}

TEST_F(BlockGraphTest, RejectsGridThatDoesNotDivide) {
  // 3 blocks along x cannot split 64 rows.
  std::string src = scaleKernel("<x: 0, y: 1>", "<x: 0, y: 1>",
                                "!block.tile<16x64xf32>", "tensor<64x128xf32>");
  size_t at = src.find("grid = [4, 2]");
  src.replace(at, 13, "grid = [3, 2]");
  EXPECT_TRUE(failed(parseAndVerify(src)));
  EXPECT_NE(errors.find("does not divide it"), std::string::npos) << errors;
}

} // namespace
