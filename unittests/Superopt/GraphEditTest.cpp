//===- GraphEditTest.cpp - costing a rewrite from its parent --------------===//
//
// Rules/WorkGraph.h: EditEvaluator::evaluate must give exactly the totals
// (cost, cost with weight ops, live ops) and the cycle flag that applying
// the edit and finishing the child from scratch give. Random graphs of
// elementwise ops, some on weights only, and random rewrites shaped like
// the matcher's (a new node, or an existing value, takes over every use of
// a value): many make nodes dead, change which ops compute from weights
// only, or close a cycle.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Rules/Matcher.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"
#include <random>

using namespace mirage;
using namespace mirage::rules;

namespace {

/// A random function of `numOps` elementwise ops over four 8x16 arguments
/// (the last two weights), returning the last two values.
std::string randomFunction(std::mt19937 &rng, unsigned numOps) {
  std::string type = "tensor<8x16xf32>";
  std::string text = "func.func @f(%a0: " + type + ", %a1: " + type +
                     ", %a2: " + type + ", %a3: " + type + ") -> (" + type +
                     ", " + type + ") {\n";
  std::vector<std::string> values = {"%a0", "%a1", "%a2", "%a3"};
  const char *binary[] = {"add", "mul", "sub"};
  const char *unary[] = {"relu", "exp"};
  for (unsigned i = 0; i < numOps; ++i) {
    auto pick = [&] { return values[rng() % values.size()]; };
    std::string name = "%v" + std::to_string(i);
    if (rng() % 3 == 0)
      text += "  " + name + " = graph." + unary[rng() % 2] + " " + pick() +
              " : " + type + "\n";
    else
      text += "  " + name + " = graph." + binary[rng() % 3] + " " + pick() +
              ", " + pick() + " : (" + type + ", " + type + ") -> " + type +
              "\n";
    values.push_back(name);
  }
  text += "  return " + values[values.size() - 1] + ", " +
          values[values.size() - 2] + " : " + type + ", " + type + "\n}\n";
  return text;
}

class GraphEditTest : public ::testing::Test {
protected:
  GraphEditTest() {
    ctx.loadDialect<mirage::graph::GraphDialect, mlir::func::FuncDialect>();
    llvm::Expected<superopt::GpuTarget> t = superopt::GpuTarget::get("sm_90");
    EXPECT_TRUE(static_cast<bool>(t));
    target = std::make_unique<superopt::GpuTarget>(std::move(*t));
  }
  mlir::MLIRContext ctx;
  std::unique_ptr<superopt::GpuTarget> target;
};

} // namespace

TEST_F(GraphEditTest, EvaluateIsFinish) {
  std::mt19937 rng(7);
  unsigned edits = 0, cyclic = 0, changedWeights = 0, shrunk = 0;
  for (unsigned trial = 0; trial < 60; ++trial) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(
            randomFunction(rng, 6 + trial % 20), &ctx);
    ASSERT_TRUE(module);
    auto func = *module->getOps<mlir::func::FuncOp>().begin();
    NodeArena arena(*target, &ctx);
    mlir::FailureOr<WorkGraph> parsed = WorkGraph::fromFunction(
        func, arena, [](unsigned i) { return i >= 2; });
    ASSERT_TRUE(succeeded(parsed));
    const WorkGraph &g = *parsed;
    GraphIndex index(g);
    EditEvaluator evaluator(g, index);
    const uint32_t pn = g.getNodes().size();
    std::vector<uint32_t> live;
    for (uint32_t i = 0; i < pn; ++i)
      if (index.live[i])
        live.push_back(i);
    for (unsigned e = 0; e < 40; ++e) {
      uint32_t from = live[rng() % live.size()];
      if (g.node(from)->type == WNode::Type::Argument)
        continue;
      GraphEdit edit;
      auto nodeAt = [&](uint32_t i) {
        return i >= pn ? edit.appended[i - pn] : g.node(i);
      };
      WValue to;
      if (rng() % 3 == 0) {
        // An existing value takes over (as in x * 1 -> x).
        to = {live[rng() % live.size()], 0};
        if (to.node == from)
          continue;
      } else {
        // A new node on random live values (possibly downstream of
        // `from`: a cycle once its uses are redirected).
        WNode n;
        n.type = WNode::Type::Rule;
        n.kind = rng() % 2 ? OpKind::Relu : OpKind::Add;
        n.operands.push_back({live[rng() % live.size()], 0});
        if (n.kind == OpKind::Add)
          n.operands.push_back({live[rng() % live.size()], 0});
        n.resultShapes.push_back({8, 16});
        n.elementType = g.node(from)->elementType;
        edit.appended.push_back(arena.add(std::move(n), nodeAt));
        to = {pn, 0};
      }
      for (auto [user, k] : index.users[from]) {
        if (llvm::any_of(edit.replaced,
                         [&](const auto &r) { return r.first == user; }))
          continue;
        WNode copy = *g.node(user);
        for (WValue &v : copy.operands)
          if (v == WValue{from, 0})
            v = to;
        edit.replaced.push_back({user, arena.add(std::move(copy), nodeAt)});
      }
      for (unsigned k = 0; k < g.getOutputs().size(); ++k)
        if (g.getOutputs()[k] == WValue{from, 0})
          edit.outputs.push_back({k, to});

      GraphTotals fast = evaluator.evaluate(edit);
      WorkGraph child = g.withEdit(edit);
      child.finish();
      GraphTotals full = child.totals();
      ++edits;
      ASSERT_EQ(fast.cyclic, full.cyclic) << "trial " << trial;
      if (full.cyclic) {
        ++cyclic;
        continue;
      }
      EXPECT_EQ(fast.totalCost, full.totalCost) << "trial " << trial;
      EXPECT_EQ(fast.unfoldedCost, full.unfoldedCost) << "trial " << trial;
      EXPECT_EQ(fast.liveOps, full.liveOps) << "trial " << trial;
      changedWeights += (full.totalCost - g.totals().totalCost) !=
                        (full.unfoldedCost - g.totals().unfoldedCost);
      shrunk += full.liveOps < g.numLiveOps();
    }
  }
  // The random edits reach every case above.
  EXPECT_GT(edits, 1000u);
  EXPECT_GT(cyclic, 20u);
  EXPECT_GT(changedWeights, 20u);
  EXPECT_GT(shrunk, 20u);
}
