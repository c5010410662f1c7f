//===- JointTest.cpp - the joint search's segments, costs and memo --------===//
//
// Joint/Joint.h: ops on weights hoisted and skipped, segments cut as
// --superoptimize cuts (grouped by dataflow, within the size limit), the
// memo (a graph costed twice searches once; a rewrite that keeps a segment
// reuses it),
// the budget of searches, GraphSearch.h's cost hook (given the
// predefined cost, the search finds what it finds without it), and the
// choice among the graphs costed (chooseContender: fewer rewrites in a
// near tie, verifying only what can change the choice).
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Block/BlockDialect.h"
#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Dialect/Kernel/KernelDialect.h"
#include "mirage/Dialect/Thread/ThreadDialect.h"
#include "mirage/Superopt/Joint/Joint.h"
#include "mirage/Superopt/Rules/GraphSearch.h"
#include "mirage/Superopt/Rules/RuleLibrary.h"
#include "mirage/Conversion/GraphToKernel/GraphToKernel.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/DialectConversion.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::joint;
using namespace mirage::rules;

namespace {

// silu(X W + (X A) B): W, A, B weights (arguments 1 to 3); small shapes.
const char *kLoraSilu = R"mlir(
func.func @f(%X: tensor<16x64xf16>, %W: tensor<64x256xf16>, %A: tensor<64x8xf16>, %B: tensor<8x256xf16>) -> tensor<16x256xf16> {
  %xw = graph.matmul %X, %W : (tensor<16x64xf16>, tensor<64x256xf16>) -> tensor<16x256xf16>
  %xa = graph.matmul %X, %A : (tensor<16x64xf16>, tensor<64x8xf16>) -> tensor<16x8xf16>
  %xab = graph.matmul %xa, %B : (tensor<16x8xf16>, tensor<8x256xf16>) -> tensor<16x256xf16>
  %s = graph.add %xw, %xab : (tensor<16x256xf16>, tensor<16x256xf16>) -> tensor<16x256xf16>
  %y = graph.silu %s : tensor<16x256xf16>
  return %y : tensor<16x256xf16>
}
)mlir";

LogicalResult toDefaultSchedule(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  populateGraphToKernelPatterns(patterns);
  ConversionTarget target(*func.getContext());
  target.addIllegalDialect<graph::GraphDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(func, target, std::move(patterns));
}

class JointTest : public ::testing::Test {
protected:
  JointTest() {
    ctx.loadDialect<graph::GraphDialect, kernel::KernelDialect,
                    block::BlockDialect, thread::ThreadDialect,
                    func::FuncDialect>();
    ctx.disableMultithreading();
    llvm::Expected<superopt::GpuTarget> t = superopt::GpuTarget::get("sm_90");
    EXPECT_TRUE(static_cast<bool>(t));
    target = std::make_unique<superopt::GpuTarget>(std::move(*t));
  }

  func::FuncOp parse(const char *text) {
    modules.push_back(parseSourceString<ModuleOp>(text, &ctx));
    EXPECT_TRUE(modules.back());
    return *modules.back()->getOps<func::FuncOp>().begin();
  }

  CosterOptions costerOptions(uint64_t maxSearches = 8) {
    CosterOptions o;
    o.search.stateBudget = 100000;
    o.maxSearches = maxSearches;
    o.toDefaultSchedule = toDefaultSchedule;
    return o;
  }

  MLIRContext ctx;
  std::vector<OwningOpRef<ModuleOp>> modules;
  std::unique_ptr<superopt::GpuTarget> target;
};

} // namespace

TEST_F(JointTest, WeightOpsAreHoistedAndSkipped) {
  func::FuncOp f = parse(R"mlir(
func.func @f(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %v: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = graph.relu %x : tensor<8x8xf32>
  %1 = graph.add %w, %v : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = graph.matmul %0, %1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = graph.exp %1 : tensor<8x8xf32>
  %4 = graph.add %2, %3 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}
)mlir");
  SmallVector<Operation *> hoisted =
      hoistWeightOps(f, [](unsigned i) { return i >= 1; });
  ASSERT_EQ(hoisted.size(), 2u);
  Block &body = f.getBody().front();
  // The add and the exp on weights come first, in their order.
  EXPECT_EQ(&body.front(), hoisted[0]);
  EXPECT_EQ(body.front().getNextNode(), hoisted[1]);
  EXPECT_EQ(hoisted[0]->getName().getStringRef(), "graph.add");
  EXPECT_EQ(hoisted[1]->getName().getStringRef(), "graph.exp");
  llvm::SmallPtrSet<Operation *, 8> skip(hoisted.begin(), hoisted.end());
  SmallVector<Segment> segments = cutSegments(f, 8, skip);
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_EQ(segments[0].ops.size(), 3u);
  // x and the two weight values in, the sum out.
  EXPECT_EQ(segments[0].inputs.size(), 3u);
  EXPECT_EQ(segments[0].outputs.size(), 1u);
}

TEST_F(JointTest, SegmentsFollowDataflowAsSuperoptimizeCuts) {
  func::FuncOp f = parse(R"mlir(
func.func @f(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> (tensor<8x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>) {
  %0 = graph.relu %x : tensor<8x4xf32>
  %1 = graph.exp %y : tensor<8x4xf32>
  %2 = graph.concat(%0, %1) dim = 1 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %3 = graph.exp %0 : tensor<8x4xf32>
  %4 = graph.relu %2 : tensor<8x8xf32>
  %5 = graph.transpose %x, perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  return %4, %3, %5 : tensor<8x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>
}
)mlir");
  llvm::SmallPtrSet<Operation *, 8> none;
  SmallVector<Segment> segments = cutSegments(f, 8, none);
  // relu(x) and its exp together, though the unrelated exp(y) and the
  // concat lie between them; exp(y) and the relu after the concat alone;
  // the transpose, data movement only, keeps its predefined kernel.
  ASSERT_EQ(segments.size(), 3u);
  ASSERT_EQ(segments[0].ops.size(), 2u);
  EXPECT_EQ(segments[0].ops[0]->getName().getStringRef(), "graph.relu");
  EXPECT_EQ(segments[0].ops[1]->getName().getStringRef(), "graph.exp");
  EXPECT_EQ(segments[0].inputs.size(), 1u);
  // relu(x) is read by the concat, exp of it by the return.
  EXPECT_EQ(segments[0].outputs.size(), 2u);
  EXPECT_EQ(segments[1].ops.size(), 1u);
  EXPECT_EQ(segments[1].ops[0]->getName().getStringRef(), "graph.exp");
  EXPECT_EQ(segments[2].ops.size(), 1u);
  EXPECT_EQ(segments[2].inputs[0].getDefiningOp()->getName().getStringRef(),
            "graph.concat");
  // The size limit: one op each.
  EXPECT_EQ(cutSegments(f, 1, none).size(), 4u);
}

TEST_F(JointTest, SizeOneReshapesJoinWholeSegmentsWithinTheFloor) {
  func::FuncOp f = parse(R"mlir(
func.func @gated(%x: tensor<1x16x128xf32>, %w1: tensor<128x256xf32>, %w2: tensor<128x256xf32>) -> tensor<1x16x256xf32> {
  %v = graph.reshape %x : tensor<1x16x128xf32> -> tensor<16x128xf32>
  %m1 = graph.matmul %v, %w1 : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32>
  %r1 = graph.reshape %m1 : tensor<16x256xf32> -> tensor<1x16x256xf32>
  %m2 = graph.matmul %v, %w2 : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32>
  %r2 = graph.reshape %m2 : tensor<16x256xf32> -> tensor<1x16x256xf32>
  %y = graph.mul %r1, %r2 : (tensor<1x16x256xf32>, tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
  %e = graph.exp %y : tensor<1x16x256xf32>
  return %e : tensor<1x16x256xf32>
}
)mlir");
  llvm::SmallPtrSet<Operation *, 8> none;
  // Unlimited: the reshapes join the three groups {m1}, {m2}, {mul, exp};
  // the reshape of the argument stays a view outside.
  SmallVector<Segment> all = cutSegments(f, 8, none);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].ops.size(), 6u);
  // The floor of all six: 3 x 16 B x (the 67,584 elements read + 4096 of
  // the largest result) = 3.28 MiB; of one projection with the multiply
  // and the exp 1.97 MiB, within 2 MiB.
  SmallVector<Operation *> first(all[0].ops.begin(), all[0].ops.end());
  EXPECT_EQ(superopt::verificationFloorBytes(first),
            3u * 16u * (2048u + 2u * 32768u + 4096u));
  SmallVector<Segment> floored = cutSegments(f, 8, none, uint64_t(2) << 20);
  ASSERT_EQ(floored.size(), 2u);
  EXPECT_EQ(floored[0].ops.size(), 4u); // m1, r1, mul, exp
  EXPECT_EQ(floored[1].ops.size(), 2u); // m2, r2
  EXPECT_EQ(superopt::verificationFloorBytes(floored[0].ops),
            3u * 16u * (2048u + 32768u + 4096u + 4096u));
  // The cap counts the reshapes as views: with 3 ops the first matmul, its
  // reshape, the multiply and the exp fit; the second stays apart whole.
  SmallVector<Segment> capped = cutSegments(f, 3, none);
  ASSERT_EQ(capped.size(), 2u);
  EXPECT_EQ(capped[0].ops.size(), 4u);
  EXPECT_EQ(capped[1].ops.size(), 2u);
  // With 2 the reshapes never split the multiply from the exp: each
  // projection keeps its reshape, and {mul, exp} stays whole.
  SmallVector<Segment> two = cutSegments(f, 2, none);
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[0].ops.size(), 2u);
  EXPECT_EQ(two[1].ops.size(), 2u);
  EXPECT_EQ(two[2].ops.size(), 2u);
  EXPECT_EQ(two[2].ops[0]->getName().getStringRef(), "graph.mul");
}

TEST_F(JointTest, MemoAndBudget) {
  func::FuncOp f = parse(kLoraSilu);
  NodeArena arena(*target, &ctx);
  FailureOr<WorkGraph> g =
      WorkGraph::fromFunction(f, arena, [](unsigned i) { return i >= 1; });
  ASSERT_TRUE(succeeded(g));
  MuGraphCoster coster(f, *target, costerOptions());
  FailureOr<std::optional<JointCost>> first = coster.evaluate(*g);
  ASSERT_TRUE(succeeded(first) && first->has_value());
  EXPECT_EQ(coster.getStats().searches, 1u);
  // Fused: cheaper than the five predefined kernels, no op on weights only.
  EXPECT_LT((*first)->timeUs, g->cost());
  EXPECT_EQ((*first)->timeUs, (*first)->timeWithWeightOpsUs);
  EXPECT_EQ((*first)->segments, 1u);
  FailureOr<std::optional<JointCost>> again = coster.evaluate(*g);
  ASSERT_TRUE(succeeded(again) && again->has_value());
  EXPECT_EQ(coster.getStats().searches, 1u);
  EXPECT_EQ(coster.getStats().memoHits, 1u);
  EXPECT_EQ((*again)->timeUs, (*first)->timeUs);

  // Costed unverified: lowering needs the verified µGraphs.
  EXPECT_EQ(coster.getStats().verified, 0u);
  {
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    func::FuncOp scratch = parse(kLoraSilu);
    EXPECT_TRUE(failed(coster.lower(*g, scratch)));
  }
  // Verifying searches the segment again, once: the memo entry is replaced,
  // no new segment is searched, and the verified cost is never below the
  // unverified one (its candidates are the same, minus those rejected).
  FailureOr<std::optional<JointCost>> verifiedOr = coster.verify(*g);
  ASSERT_TRUE(succeeded(verifiedOr) && verifiedOr->has_value());
  const JointCost *verified = &**verifiedOr;
  EXPECT_EQ(coster.getStats().searches, 1u);
  EXPECT_EQ(coster.getStats().verified, 1u);
  EXPECT_GE(verified->timeUs, (*first)->timeUs);
  ASSERT_TRUE(succeeded(coster.verify(*g)));
  EXPECT_EQ(coster.getStats().verified, 1u);
  FailureOr<std::optional<JointCost>> third = coster.evaluate(*g);
  ASSERT_TRUE(succeeded(third) && third->has_value());
  EXPECT_EQ((*third)->timeUs, verified->timeUs);

  // The function is unchanged by costing; lowering gives its µGraph.
  EXPECT_EQ(llvm::range_size(f.getBody().front().getOps<graph::MatmulOp>()),
            3u);
  ASSERT_TRUE(succeeded(coster.lower(*g, f)));
  llvm::Expected<superopt::FunctionCost> lowered =
      superopt::estimateFunction(f, *target);
  ASSERT_TRUE(static_cast<bool>(lowered));
  EXPECT_NEAR(lowered->timeUs, verified->timeUs, 1e-9);

  // No search allowed: a graph with a new segment is not costed.
  func::FuncOp f2 = parse(kLoraSilu);
  NodeArena arena2(*target, &ctx);
  FailureOr<WorkGraph> g2 =
      WorkGraph::fromFunction(f2, arena2, [](unsigned i) { return i >= 1; });
  ASSERT_TRUE(succeeded(g2));
  MuGraphCoster none(f2, *target, costerOptions(/*maxSearches=*/0));
  FailureOr<std::optional<JointCost>> refused = none.evaluate(*g2);
  ASSERT_TRUE(succeeded(refused));
  EXPECT_FALSE(refused->has_value());
  EXPECT_EQ(none.getStats().refused, 1u);
}

TEST_F(JointTest, CostingPredictsAVerificationOverTheMemoryLimit) {
  // A verifier memory limit under what its floating-point runs of the
  // segment need (the enumeration's own budget untouched): every
  // verification would be refused, so the verified search keeps the
  // default schedule; the costing search keeps it too (its cost is then
  // exact, not a lower bound) and says why.
  func::FuncOp f = parse(kLoraSilu);
  NodeArena arena(*target, &ctx);
  FailureOr<WorkGraph> g =
      WorkGraph::fromFunction(f, arena, [](unsigned i) { return i >= 1; });
  ASSERT_TRUE(succeeded(g));
  CosterOptions o = costerOptions();
  o.search.verifier.memoryLimitBytes = 1024;
  MuGraphCoster coster(f, *target, o);
  FailureOr<std::optional<JointCost>> costed = coster.evaluate(*g);
  ASSERT_TRUE(succeeded(costed) && costed->has_value());
  EXPECT_EQ((*costed)->graphDefined, 0);
  EXPECT_EQ(coster.getStats().budgetCut, 1u);
  FailureOr<std::optional<JointCost>> verified = coster.verify(*g);
  ASSERT_TRUE(succeeded(verified) && verified->has_value());
  EXPECT_EQ((*verified)->timeUs, (*costed)->timeUs);
  EXPECT_EQ(coster.getStats().verifiedCostlier, 0u);

  // With room to verify, the costing search fuses (a lower bound of the
  // verified cost, here equal to it).
  func::FuncOp f2 = parse(kLoraSilu);
  NodeArena arena2(*target, &ctx);
  FailureOr<WorkGraph> g2 =
      WorkGraph::fromFunction(f2, arena2, [](unsigned i) { return i >= 1; });
  ASSERT_TRUE(succeeded(g2));
  MuGraphCoster roomy(f2, *target, costerOptions());
  FailureOr<std::optional<JointCost>> fused = roomy.evaluate(*g2);
  ASSERT_TRUE(succeeded(fused) && fused->has_value());
  EXPECT_GT((*fused)->graphDefined, 0);
  EXPECT_LT((*fused)->timeUs, (*costed)->timeUs);
  EXPECT_EQ(roomy.getStats().budgetCut, 0u);
}

TEST_F(JointTest, CostHookGivenThePredefinedCostChangesNothing) {
  func::FuncOp f = parse(kLoraSilu);
  FailureOr<std::vector<Rule>> rules =
      loadRules(ctx, f.getLoc(), "", /*acceptedOnly=*/true, nullptr);
  ASSERT_TRUE(succeeded(rules));
  std::vector<RuleDirection> directions = prepareDirections(*rules, true);
  NodeArena arena(*target, &ctx);
  FailureOr<WorkGraph> g =
      WorkGraph::fromFunction(f, arena, [](unsigned i) { return i >= 1; });
  ASSERT_TRUE(succeeded(g));
  GraphSearchOptions plain;
  plain.budget = 20;
  GraphSearchResult a = searchGraphs(*g, directions, arena, plain);
  GraphSearchOptions hooked = plain;
  uint64_t calls = 0;
  hooked.cost = [&](const WorkGraph &w) {
    ++calls;
    return w.cost();
  };
  GraphSearchResult b = searchGraphs(*g, directions, arena, hooked);
  // Each distinct graph is ranked once; `generated` counts every rewrite
  // that applies, the same graph reached twice included.
  EXPECT_GT(calls, 1u);
  EXPECT_LE(calls, b.generated + 1);
  ASSERT_EQ(a.best.size(), b.best.size());
  for (size_t i = 0; i < a.best.size(); ++i)
    EXPECT_EQ(a.best[i].graph.hash(), b.best[i].graph.hash());
  EXPECT_EQ(a.visited, b.visited);
  EXPECT_EQ(a.generated, b.generated);

  // A hook that drops every graph but the start: nothing is queued.
  GraphSearchOptions dropAll = plain;
  dropAll.cost = [&](const WorkGraph &w) {
    return w.hash() == g->hash() ? w.cost()
                                 : std::numeric_limits<double>::infinity();
  };
  GraphSearchResult c = searchGraphs(*g, directions, arena, dropAll);
  EXPECT_EQ(c.visited, 1u);
  ASSERT_EQ(c.best.size(), 1u);
  EXPECT_EQ(c.best[0].graph.hash(), g->hash());
}

// chooseContender: the near-tie preference for fewer rewrites.
TEST(JointChoiceTest, NearTieKeepsTheInputAndAGainIsTaken) {
  // The input (0 rewrites, verified) and a rewrite 0.05% cheaper.
  std::vector<Contender> c = {{100.0, 0, true}, {99.95, 1, true}};
  Choice tie = chooseContender(c, 0.001);
  EXPECT_EQ(tie.chosen, 0u);
  EXPECT_FALSE(tie.verifyFirst);
  // Above the margin, or with no margin, the rewrite is taken.
  EXPECT_EQ(chooseContender(c, 0.0004).chosen, 1u);
  EXPECT_EQ(chooseContender(c, 0).chosen, 1u);
  // A rounding-level difference (a sum in another order) is a tie.
  std::vector<Contender> noise = {{389.3376, 0, true},
                                  {389.3376 * (1 - 1e-16), 1, true}};
  EXPECT_EQ(chooseContender(noise, 0.001).chosen, 0u);
  // Exactly the margin is not more than it.
  std::vector<Contender> edge = {{100.0, 0, true}, {99.0, 2, true}};
  EXPECT_EQ(chooseContender(edge, 0.01).chosen, 0u);
  EXPECT_EQ(chooseContender(edge, 0.0099).chosen, 1u);
}

TEST(JointChoiceTest, MarginZeroIsTheCheapestThenFewerRewrites) {
  std::vector<Contender> c = {
      {5.0, 3, true}, {4.0, 2, true}, {4.0, 1, true}, {4.5, 0, true}};
  EXPECT_EQ(chooseContender(c, 0).chosen, 2u);
  // Equal costs and rewrites: the first found.
  std::vector<Contender> same = {{4.0, 1, true}, {4.0, 1, true}};
  EXPECT_EQ(chooseContender(same, 0).chosen, 0u);
  EXPECT_FALSE(chooseContender({}, 0.001).chosen);
}

TEST(JointChoiceTest, TheClassIsAnchoredAtTheCheapest) {
  // Each is within 1% of the next, but 10 rewrites at 98.0 gain 1.98% over
  // the input: a pairwise tie would chain back to it. The class of 98.0 at
  // 1% reaches 98.99: it holds the 5-rewrite graph, not the input.
  std::vector<Contender> c = {
      {100.0, 0, true}, {99.1, 2, true}, {98.6, 5, true}, {98.0, 10, true}};
  EXPECT_EQ(chooseContender(c, 0.01).chosen, 2u);
  // Within the class: fewest rewrites, then the cheapest.
  std::vector<Contender> d = {
      {98.5, 3, true}, {98.2, 3, true}, {98.0, 9, true}};
  EXPECT_EQ(chooseContender(d, 0.01).chosen, 1u);
}

TEST(JointChoiceTest, VerifiesOnlyWhatCanChangeTheChoice) {
  // The cheapest is a lower bound within the margin of the input: whatever
  // its verified cost, the input stays: nothing to verify.
  std::vector<Contender> tie = {{100.0, 0, true}, {99.95, 1, false}};
  Choice a = chooseContender(tie, 0.001);
  EXPECT_EQ(a.chosen, 0u);
  EXPECT_FALSE(a.verifyFirst);
  // A cheaper lower bound, chosen: it is to be verified first.
  std::vector<Contender> gain = {{100.0, 0, true}, {90.0, 1, false}};
  Choice b = chooseContender(gain, 0.001);
  EXPECT_EQ(b.chosen, 1u);
  EXPECT_EQ(b.verifyFirst, 1u);
  // Once verified higher, within the margin: the input.
  gain[1] = {99.95, 1, true};
  EXPECT_EQ(chooseContender(gain, 0.001).chosen, 0u);
  // The cheapest unverified and not chosen: its verified cost could widen
  // the class to the input (fewer rewrites than the chosen graph), so it
  // is verified first.
  std::vector<Contender> wide = {
      {100.0, 0, true}, {90.05, 2, true}, {90.0, 4, false}};
  Choice c = chooseContender(wide, 0.001);
  EXPECT_EQ(c.chosen, 1u);
  EXPECT_EQ(c.verifyFirst, 2u);
  // A chosen graph that is not verified, the cheapest verified: verify it.
  std::vector<Contender> chosenBound = {
      {100.0, 0, true}, {90.02, 2, false}, {90.0, 4, true}};
  Choice d = chooseContender(chosenBound, 0.001);
  EXPECT_EQ(d.chosen, 1u);
  EXPECT_EQ(d.verifyFirst, 1u);
}
