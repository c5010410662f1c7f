//===- RulesEnumerationTest.cpp - enumeration and canonical forms ---------===//
//
// The graph enumeration of --discover-substitutions (Rules/Enumeration.h)
// and the canonical order that makes it generate each graph once
// (Rules/CanonicalForm.h): isomorphic graphs get one form, and the counts on
// tiny menus are the ones worked out by hand below.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Rules/CanonicalForm.h"
#include "mirage/Superopt/Rules/Enumeration.h"
#include "mirage/Superopt/Rules/Generalize.h"
#include "gtest/gtest.h"
#include <set>

using namespace mirage::rules;

namespace {

Menu menuOf(std::vector<std::string> ops) {
  std::string error;
  std::optional<Menu> menu = buildMenu(ops, FingerprintSizes(), error);
  EXPECT_TRUE(menu.has_value()) << error;
  return menu ? *menu : Menu();
}

unsigned templateIndex(const Menu &menu, llvm::StringRef label) {
  for (unsigned i = 0; i < menu.templates.size(); ++i)
    if (menu.templates[i].label == label)
      return i;
  ADD_FAILURE() << "no template '" << label.str() << "'";
  return 0;
}

EnumOp op(unsigned tmpl, uint8_t a, uint8_t b = 0) {
  EnumOp e;
  e.tmpl = static_cast<uint8_t>(tmpl);
  e.operands[0] = a;
  e.operands[1] = b;
  return e;
}

EnumerationResult enumerate(const Menu &menu, unsigned maxOps,
                            unsigned threads = 1) {
  EnumerationOptions options;
  options.maxOps = maxOps;
  options.maxInputs = 2;
  options.threads = threads;
  return enumerateGraphs(menu, options);
}

// Graphs without ops the enumeration adds for any menu whose only variable
// kind is the matrix x (4 variables): each variable and each pair of them,
// each keyed twice (field values and fp64 values): 2 * (4 + 6) = 20.
constexpr uint64_t kVariableGraphs = 20;

} // namespace

TEST(RulesMenu, UnknownAndEmptyMenusAreErrors) {
  std::string error;
  EXPECT_FALSE(buildMenu({"matmul", "frobnicate"}, FingerprintSizes(), error));
  EXPECT_NE(error.find("unknown op 'frobnicate'"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(buildMenu({}, FingerprintSizes(), error));
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
  FingerprintSizes bad;
  bad.matrix = 1;
  error.clear();
  EXPECT_FALSE(buildMenu({"add"}, bad, error));
  EXPECT_NE(error.find("between 2 and 8"), std::string::npos) << error;
}

// Three ops in the order add(relu(x0), transpose(x0)) can be built: relu
// first or transpose first. Both orders have one canonical form, and only
// one of them is canonical.
TEST(RulesCanonicalForm, IsomorphicGraphsGetOneForm) {
  Menu menu = menuOf({"add", "relu", "transpose"});
  unsigned relu = templateIndex(menu, "relu");
  unsigned tr = templateIndex(menu, "transpose");
  unsigned add = templateIndex(menu, "add");
  uint8_t x0 = variableCode(0, 0);

  EnumGraph a; // relu, transpose, add
  a.numOps = 3;
  a.ops[0] = op(relu, x0);
  a.ops[1] = op(tr, x0);
  a.ops[2] = op(add, resultCode(0, 0), resultCode(1, 0));
  a.numOutputs = 1;
  a.outputs[0] = resultCode(2, 0);

  EnumGraph b; // transpose, relu, add with its operands swapped
  b.numOps = 3;
  b.ops[0] = op(tr, x0);
  b.ops[1] = op(relu, x0);
  b.ops[2] = op(add, resultCode(0, 0), resultCode(1, 0));
  b.numOutputs = 1;
  b.outputs[0] = resultCode(2, 0);

  EXPECT_NE(isCanonical(menu, llvm::ArrayRef(a.ops, 3)),
            isCanonical(menu, llvm::ArrayRef(b.ops, 3)));
  EnumGraph ca = canonicalize(menu, a), cb = canonicalize(menu, b);
  EXPECT_EQ(serializeGraph(menu, ca), serializeGraph(menu, cb));
  EXPECT_TRUE(isCanonical(menu, llvm::ArrayRef(ca.ops, 3)));
  EXPECT_EQ(describeGraph(menu, ca), describeGraph(menu, cb));
  EXPECT_FALSE(graphLess(menu, ca, cb));
  EXPECT_FALSE(graphLess(menu, cb, ca));

  // A graph that is not isomorphic (relu of the transpose) differs.
  EnumGraph c = a;
  c.ops[1] = op(tr, x0);
  c.ops[0] = op(relu, x0);
  c.ops[2] = op(add, resultCode(0, 0), x0);
  EXPECT_NE(serializeGraph(menu, canonicalize(menu, c)),
            serializeGraph(menu, ca));
}

// Renaming x0 to x1 and back is the identity; renaming to x1 gives a graph
// over x1 that is not the original.
TEST(RulesCanonicalForm, RenamingVariables) {
  Menu menu = menuOf({"relu"});
  unsigned relu = templateIndex(menu, "relu");
  EnumGraph g;
  g.numOps = 1;
  g.ops[0] = op(relu, variableCode(0, 0));
  g.numOutputs = 1;
  g.outputs[0] = resultCode(0, 0);
  EnumGraph r = renameVariables(menu, g, {{variableCode(0, 0),
                                           variableCode(0, 1)}});
  EXPECT_EQ(describeGraph(menu, r), "(relu x1)");
  EnumGraph back = renameVariables(menu, r, {{variableCode(0, 1),
                                              variableCode(0, 0)}});
  EXPECT_EQ(serializeGraph(menu, back), serializeGraph(menu, g));
}

// Menu {relu}, up to 3 ops, over the matrix variables x0..x3. Graphs with
// ops: relu(x0), and relu(relu(x0)), which equals relu(x0) (in fp64, where
// relu is exact) so it is recorded but not extended. Two relus of x0 would
// duplicate an op; relus of two variables are not connected. So 2 graphs
// with ops + 20 without. The group: relu(x0) with relu(relu(x0)), under
// each of the 4 names of x0 (renamings: relu(x0) and relu(relu(x0)) under
// x1, x2, x3: 6), so 4 groups of 2 graphs. Sequences that recompute a
// tensor and are not extended: relu(relu(x0)) after relu(x0), and, after
// the (unrecorded, disconnected) pair relu(x0), relu(x1) with inputs = 2,
// the relu of either result: 3.
TEST(RulesEnumeration, ReluCountsByHand) {
  Menu menu = menuOf({"relu"});
  ASSERT_EQ(menu.templates.size(), 1u);
  ASSERT_EQ(menu.kinds.size(), 1u);
  EnumerationResult r = enumerate(menu, 3);
  EXPECT_EQ(r.stats.graphsRecorded, kVariableGraphs + 2);
  EXPECT_EQ(r.stats.notExtended, 3u);
  EXPECT_EQ(r.stats.renamings, 6u);
  EXPECT_EQ(r.stats.groups, 4u);
  EXPECT_EQ(r.stats.graphsInGroups, 8u);
  EXPECT_FALSE(r.stats.stopped);
  std::set<std::string> texts;
  for (const EnumGraph &g : r.graphs)
    texts.insert(describeGraph(menu, g));
  EXPECT_TRUE(texts.count("(relu x0)"));
  EXPECT_TRUE(texts.count("(relu (relu x0))"));
  EXPECT_TRUE(texts.count("(relu (relu x3))"));
}

// Menu {relu, transpose}, up to 2 ops. Graphs with ops: relu(x0), T(x0)
// (2); chains relu(relu x0), T(T x0), relu(T x0), T(relu x0) (4); the fork
// {relu(x0), T(x0)}, connected through x0 (1). So 7 + 20. Two of them
// recompute a tensor they have: relu(relu x0) (relu x0) and T(T x0) (x0).
TEST(RulesEnumeration, ReluTransposeCountsByHand) {
  Menu menu = menuOf({"relu", "transpose"});
  ASSERT_EQ(menu.templates.size(), 2u);
  EnumerationResult r = enumerate(menu, 2);
  EXPECT_EQ(r.stats.graphsRecorded, kVariableGraphs + 7);
  EXPECT_EQ(r.stats.notExtended, 2u);
  std::set<std::string> texts;
  for (const EnumGraph &g : r.graphs)
    texts.insert(describeGraph(menu, g));
  // T(T(x0)) = x0, relu(T(x0)) = T(relu(x0)), relu(relu(x0)) = relu(x0).
  EXPECT_TRUE(texts.count("(transpose 1 0 (transpose 1 0 x0))"));
  EXPECT_TRUE(texts.count("x0"));
  EXPECT_TRUE(texts.count("(relu (transpose 1 0 x0))"));
  EXPECT_TRUE(texts.count("(transpose 1 0 (relu x0))"));
  // relu(x0) is not transpose(x0): different keys.
  for (const EnumGraph &g : r.graphs) {
    for (const EnumGraph &h : r.graphs) {
      if (describeGraph(menu, g) == "(relu x0)" &&
          describeGraph(menu, h) == "(transpose 1 0 x0)") {
        EXPECT_NE(g.key, h.key);
      }
    }
  }
}

// The enumeration is the same whatever the number of threads.
TEST(RulesEnumeration, DeterministicAcrossThreads) {
  Menu menu = menuOf({"add", "mul", "relu", "transpose"});
  EnumerationResult one = enumerate(menu, 2, 1);
  EnumerationResult two = enumerate(menu, 2, 2);
  EXPECT_EQ(one.stats.graphsRecorded, two.stats.graphsRecorded);
  EXPECT_EQ(one.stats.groups, two.stats.groups);
  ASSERT_EQ(one.graphs.size(), two.graphs.size());
  for (size_t i = 0; i < one.graphs.size(); ++i) {
    EXPECT_EQ(one.graphs[i].key, two.graphs[i].key);
    EXPECT_EQ(serializeGraph(menu, one.graphs[i]),
              serializeGraph(menu, two.graphs[i]));
  }
  // Every graph kept is canonical and shares its key with another.
  for (size_t i = 0; i < one.graphs.size(); ++i) {
    const EnumGraph &g = one.graphs[i];
    EXPECT_TRUE(isCanonical(menu, llvm::ArrayRef(g.ops, g.numOps)));
    bool shared = (i > 0 && one.graphs[i - 1].key == g.key) ||
                  (i + 1 < one.graphs.size() && one.graphs[i + 1].key == g.key);
    EXPECT_TRUE(shared) << describeGraph(menu, g);
  }
}

// Generalization to symbolic shapes (Rules/Generalize.h). Two convolutions
// of one image by two 1x1 weights are one convolution by the weights
// concatenated along their output channels. The weights' literal 1x1 dims
// come before their other dims in the facts that fix the symbols; they
// once stopped that solving early, and the rule was dropped as having
// sizes its variables do not determine.
TEST(RulesGeneralize, WeightsConcatenatedAlongOutputChannels) {
  Menu menu = menuOf({"conv2d", "concat"});
  unsigned cat0 = templateIndex(menu, "concat 0 (images)");
  unsigned cat1 = templateIndex(menu, "concat 1 (images)");
  unsigned conv = templateIndex(menu, "conv2d 1x1");
  unsigned image = 0, oneByOne = 0;
  for (unsigned k = 0; k < menu.kinds.size(); ++k) {
    if (menu.kinds[k].name == "i")
      image = k;
    if (menu.kinds[k].name == "u")
      oneByOne = k;
  }
  uint8_t i0 = variableCode(image, 0), u0 = variableCode(oneByOne, 0),
          u1 = variableCode(oneByOne, 1);
  Candidate c;
  c.lhs.world = c.rhs.world = 1;
  c.lhs.numOps = 2;
  c.lhs.ops[0] = op(cat0, u0, u1);
  c.lhs.ops[1] = op(conv, i0, resultCode(0, 0));
  c.lhs.numOutputs = 1;
  c.lhs.outputs[0] = resultCode(1, 0);
  c.rhs.numOps = 3;
  c.rhs.ops[0] = op(conv, i0, u0);
  c.rhs.ops[1] = op(conv, i0, u1);
  c.rhs.ops[2] = op(cat1, resultCode(0, 0), resultCode(1, 0));
  c.rhs.numOutputs = 1;
  c.rhs.outputs[0] = resultCode(2, 0);
  c.rhsOutput = {0};
  std::string why;
  std::optional<Rule> rule = generalize(menu, c, why);
  ASSERT_TRUE(rule.has_value()) << why;
  EXPECT_EQ(rule->family, "conv");
  // The image [a, b, c, d] and two weights [e, b, 1, 1], [f, b, 1, 1].
  ASSERT_EQ(rule->variables.size(), 3u);
  EXPECT_EQ(rule->variables[1].shape[2].str(rule->dimNames), "1");
  EXPECT_EQ(rule->variables[1].shape[1].str(rule->dimNames),
            rule->variables[0].shape[1].str(rule->dimNames));
  EXPECT_NE(rule->variables[1].shape[0].str(rule->dimNames),
            rule->variables[2].shape[0].str(rule->dimNames));
  for (bool side : {false, true}) {
    llvm::SmallVector<bool, 8> known = determinedSymbols(*rule, rule->side(side));
    for (bool k : known)
      EXPECT_TRUE(k);
  }
}
