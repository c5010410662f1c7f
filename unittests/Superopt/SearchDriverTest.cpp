//===- SearchDriverTest.cpp - the search passes' shared driver ------------===//
//
// The options both passes turn into SearchOptions, the cache modes, the
// cache key's program text, and the verified cache lookup: a cached µGraph
// is used only when it parses as the subprogram's function, verifies
// equivalent to it and is accepted by the cost model.
//
//===----------------------------------------------------------------------===//

#include "MicroGraphTest.h"
#include "mirage/Superopt/Search/SearchDriver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mirage;
using namespace mirage::superopt;

namespace {

constexpr const char *kPrograms = R"(
func.func @sub(%a: tensor<16x32xf16>, %b: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %0 = kernel.binary add %a, %b : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  return %0 : tensor<16x32xf16>
}
func.func @renamed(%x: tensor<16x32xf16> loc("elsewhere.py":3:1), %y: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %0 = kernel.binary add %x, %y : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16> loc("elsewhere.py":4:2)
  return %0 : tensor<16x32xf16>
}
func.func @wrong(%a: tensor<16x32xf16>, %b: tensor<16x32xf16>) -> tensor<16x32xf16> {
  %0 = kernel.binary mul %a, %b : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  return %0 : tensor<16x32xf16>
}
func.func @other_type(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = kernel.binary add %a, %b : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}
)";

class SearchDriverTest : public mirage::testing::MicroGraphTest {
protected:
  void SetUp() override {
    ASSERT_TRUE(parse(kPrograms));
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("search-driver", dir));
    cacheDir = std::string(dir);
    scratch = mlir::ModuleOp::create(mlir::UnknownLoc::get(&ctx));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(cacheDir); }

  /// Stores `func` as the µGraph of key "k".
  void storeEntry(const SearchCache &store, mlir::func::FuncOp func) {
    CacheEntry entry;
    entry.remark = "stored remark";
    llvm::raw_string_ostream os(entry.body);
    func.print(os);
    ASSERT_FALSE(static_cast<bool>(store.store("k", entry)));
  }
  CachedMuGraph lookup(const SearchCache &store) {
    SearchOptions options;
    return lookupVerified(store, "k", fn("sub"), *scratch, "sub", *gpu,
                          options);
  }

  std::string cacheDir;
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
  llvm::Expected<GpuTarget> gpu = GpuTarget::get("sm_90");
};

TEST_F(SearchDriverTest, PassOptionsBecomeSearchOptions) {
  SearchPassOptions pass{4, 9, 3, 1, 1234, 16, 7.5, 61, 42};
  SearchOptions o = toSearchOptions(pass, /*pool=*/nullptr);
  EXPECT_EQ(o.maxKernelOps, 4u);
  EXPECT_EQ(o.maxBlockOps, 9u);
  EXPECT_EQ(o.maxGridDims, 3u);
  EXPECT_EQ(o.maxKernelOutputs, 1u);
  EXPECT_EQ(o.stateBudget, 1234u);
  EXPECT_EQ(o.memoryBudgetBytes, uint64_t(16) << 20);
  EXPECT_EQ(o.timeLimitSeconds, 7.5);
  EXPECT_EQ(o.verifier.fieldBits, 61u);
  EXPECT_EQ(o.verifier.seed, 42u);
  EXPECT_TRUE(o.verifier.realTestsFirst);
  EXPECT_EQ(o.threadPool, nullptr);
  // What the passes do not share keeps the search's defaults.
  SearchOptions defaults;
  EXPECT_EQ(o.kernelGraphOps, defaults.kernelGraphOps);
  EXPECT_EQ(o.pruning, defaults.pruning);
  EXPECT_EQ(o.verifier.reduceUniformDimension,
            defaults.verifier.reduceUniformDimension);
}

TEST_F(SearchDriverTest, ThreadsFollowTheOptionAndTheContext) {
  EXPECT_EQ(SearchThreads(&ctx, 1).pool(), nullptr);
  EXPECT_EQ(SearchThreads(&ctx, 0).pool(), &ctx.getThreadPool());
  SearchThreads own(&ctx, 3);
  ASSERT_NE(own.pool(), nullptr);
  EXPECT_NE(own.pool(), &ctx.getThreadPool());
  ctx.disableMultithreading();
  EXPECT_EQ(SearchThreads(&ctx, 0).pool(), nullptr);
  EXPECT_EQ(SearchThreads(&ctx, 3).pool(), nullptr);
  ctx.enableMultithreading();
}

TEST_F(SearchDriverTest, CacheModes) {
  EXPECT_EQ(parseCacheMode("on"), CacheMode::On);
  EXPECT_EQ(parseCacheMode("true"), CacheMode::On);
  EXPECT_EQ(parseCacheMode("false"), CacheMode::Off);
  EXPECT_EQ(parseCacheMode("only"), CacheMode::Only);
  EXPECT_EQ(parseCacheMode("refresh"), CacheMode::Refresh);
  EXPECT_EQ(parseCacheMode("clear"), CacheMode::Clear);
  EXPECT_EQ(parseCacheMode("ON"), std::nullopt);
  EXPECT_EQ(parseCacheMode(""), std::nullopt);
  EXPECT_TRUE(readsCache(CacheMode::On));
  EXPECT_TRUE(readsCache(CacheMode::Only));
  EXPECT_TRUE(readsCache(CacheMode::Clear));
  EXPECT_FALSE(readsCache(CacheMode::Off));
  EXPECT_FALSE(readsCache(CacheMode::Refresh));
}

TEST_F(SearchDriverTest, TheKeyIgnoresNamesAndLocations) {
  std::string sub = cacheProgramText(fn("sub"));
  EXPECT_EQ(sub, cacheProgramText(fn("renamed")));
  EXPECT_NE(sub, cacheProgramText(fn("wrong")));
  EXPECT_NE(sub, cacheProgramText(fn("other_type")));
  EXPECT_NE(sub.find("\"kernel.binary\""), std::string::npos) << sub;
  // The function printed is left as it was.
  EXPECT_EQ(fn("renamed").getSymName(), "renamed");
}

TEST_F(SearchDriverTest, AMissIsNoProblem) {
  ASSERT_TRUE(static_cast<bool>(gpu));
  SearchCache store(cacheDir);
  CachedMuGraph hit = lookup(store);
  EXPECT_EQ(hit.state, CachedMuGraph::State::Miss);
  EXPECT_TRUE(hit.problem.empty());
  EXPECT_TRUE(scratch->getBody()->empty());
}

TEST_F(SearchDriverTest, AnEquivalentEntryIsUsedAfterItsReverification) {
  ASSERT_TRUE(static_cast<bool>(gpu));
  SearchCache store(cacheDir);
  storeEntry(store, fn("renamed"));
  CachedMuGraph hit = lookup(store);
  ASSERT_EQ(hit.state, CachedMuGraph::State::Hit) << hit.problem;
  ASSERT_TRUE(hit.best);
  EXPECT_EQ(hit.best.getSymName(), "sub_cached");
  EXPECT_EQ(hit.best->getParentOp(), scratch->getOperation());
  EXPECT_EQ(hit.remark, "stored remark");
  EXPECT_FALSE(hit.verification.empty());
  EXPECT_EQ(hit.before.kernels, 1);
  EXPECT_EQ(hit.after.kernels, 1);
  EXPECT_GT(hit.after.timeUs, 0);
}

TEST_F(SearchDriverTest, AWrongEntryIsRefusedAndLeavesNothing) {
  ASSERT_TRUE(static_cast<bool>(gpu));
  SearchCache store(cacheDir);
  storeEntry(store, fn("wrong"));
  CachedMuGraph hit = lookup(store);
  EXPECT_EQ(hit.state, CachedMuGraph::State::Unusable);
  EXPECT_FALSE(hit.best);
  EXPECT_FALSE(hit.keepEntry);
  EXPECT_NE(hit.problem.find("its µGraph failed re-verification (output #0 "
                             "differs at ["),
            std::string::npos)
      << hit.problem;
  EXPECT_TRUE(scratch->getBody()->empty());

  storeEntry(store, fn("other_type"));
  hit = lookup(store);
  EXPECT_EQ(hit.state, CachedMuGraph::State::Unusable);
  EXPECT_EQ(hit.problem,
            "its µGraph does not parse as this subprogram's function");
  EXPECT_TRUE(scratch->getBody()->empty());
}

TEST_F(SearchDriverTest, ACorruptEntrySaysWhy) {
  ASSERT_TRUE(static_cast<bool>(gpu));
  SearchCache store(cacheDir);
  storeEntry(store, fn("renamed"));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(store.pathOf("k"), ec, llvm::sys::fs::OF_Append);
    ASSERT_FALSE(ec);
    os << "// edited\n";
  }
  CachedMuGraph hit = lookup(store);
  EXPECT_EQ(hit.state, CachedMuGraph::State::Unusable);
  EXPECT_FALSE(hit.problem.empty());
  EXPECT_FALSE(hit.best);
}

TEST_F(SearchDriverTest, BudgetCutsAreSpelledOut) {
  SearchStats s;
  EXPECT_EQ(describeBudgetCuts(s, 100), "");
  s.tasks = 4;
  s.tasksCutByStates = 2;
  s.stateShare = 25;
  s.rounds = 3;
  s.tasksCutByMemory = 1;
  s.peakTaskBytes = uint64_t(5) << 20;
  EXPECT_EQ(describeBudgetCuts(s, 100),
            "state budget reached: 2 of 4 tasks cut at 25 states each "
            "(budget 100, 3 round(s)); memory budget reached: 1 task(s) cut "
            "(largest task 5 MiB)");
  SearchStats k;
  EXPECT_EQ(describeKernelLevel(k, false), "");
  k.kernelGraphSkipped = "one op";
  EXPECT_EQ(describeKernelLevel(k, true),
            "; kernel level: not enumerated, one op");
}

} // namespace
