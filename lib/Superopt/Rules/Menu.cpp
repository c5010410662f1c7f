//===- Menu.cpp - the ops and variables the enumeration combines ----------===//
//
// The default menu covers the ops TASO enumerated that the graph dialect
// has (matmul, elementwise add and mul, scalar multiplication, relu,
// transpose, two-way concat and split, convolution with "same" padding,
// average and max pooling, kernel enlargement) and adds sub, exp,
// scalar_add, reduce_sum and the reshape that turns a per-channel vector
// into a per-output-channel weight scale.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Rules/Enumeration.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mirage::rules;

std::vector<std::string> mirage::rules::getDefaultMenuOps() {
  return {"matmul",    "add",        "sub",        "mul",
          "scalar_mul", "scalar_add", "exp",        "relu",
          "transpose", "concat",     "split",      "reduce_sum",
          "conv2d",    "avg_pool2d", "max_pool2d", "reshape"};
}

enum World : unsigned { kMatrices = 0, kImages = 1 };

std::optional<Menu> mirage::rules::buildMenu(llvm::ArrayRef<std::string> ops,
                                             const FingerprintSizes &sizes,
                                             std::string &error) {
  llvm::StringSet<> want;
  for (const std::string &op : ops) {
    std::optional<OpKind> kind = lookupOpKind(op);
    if (!kind) {
      error = "unknown op '" + op + "' in the menu (the menu's ops: ";
      llvm::raw_string_ostream os(error);
      llvm::interleaveComma(getDefaultMenuOps(), os);
      os << ")";
      return std::nullopt;
    }
    want.insert(op);
  }
  if (want.empty()) {
    error = "the menu is empty";
    return std::nullopt;
  }
  auto has = [&](llvm::StringRef op) { return want.contains(op); };
  for (auto [name, v] : {std::pair<const char *, int64_t>{"matrix", sizes.matrix},
                         {"batch", sizes.batch},
                         {"channels", sizes.channels},
                         {"spatial", sizes.spatial}})
    if (v < 2 || v > 8) {
      error = std::string("fingerprint size '") + name +
              "' must be between 2 and 8, got " + std::to_string(v);
      return std::nullopt;
    }

  Menu menu;
  menu.worldNames = {"matrices", "images"};
  int64_t s = sizes.matrix, n = sizes.batch, c = sizes.channels,
          h = sizes.spatial;
  bool elementwise = has("add") || has("sub") || has("mul");
  bool conv = has("conv2d");
  bool matrixOps = has("matmul") || has("transpose") || has("reduce_sum") ||
                   has("exp");
  bool imageOps = conv || has("avg_pool2d") || has("max_pool2d");

  auto kind = [&](VariableKind k) { menu.kinds.push_back(std::move(k)); };
  // Matrices: all dims equal, so that products, sums and transposes of any
  // of them type-check (the rule's shapes are generalized afterwards).
  if (matrixOps || !imageOps) {
    kind({"x", kMatrices, {s, s}, {false, false}, -1, false, 4,
          "a matrix"});
    if (has("split"))
      kind({"y", kMatrices, {s, 2 * s}, {false, false}, 1, false, 1,
            "a matrix whose columns are two blocks (split along 1)"});
    if (elementwise)
      kind({"v", kMatrices, {s}, {false}, -1, true, 2,
            "a row vector broadcast over a matrix (a bias)"});
  }
  if (imageOps) {
    kind({"i", kImages, {n, c, h, h}, {false, false, false, false}, -1, false,
          2, "an NCHW image"});
    if (has("split"))
      kind({"j", kImages, {n, 2 * c, h, h}, {false, false, false, false}, 1,
            false, 1, "an NCHW image whose channels are two blocks"});
    if (conv) {
      kind({"w", kImages, {c, c, 3, 3}, {false, false, true, true}, -1, true,
            2, "a 3x3 convolution weight (OIHW)"});
      kind({"u", kImages, {c, c, 1, 1}, {false, false, true, true}, -1, true,
            2, "a 1x1 convolution weight (OIHW)"});
    }
    if (elementwise)
      kind({"b", kImages, {c, 1, 1}, {false, true, true}, -1, true, 2,
            "a per-channel vector broadcast over an image (a bias)"});
  }
  for (const VariableKind &k : menu.kinds)
    if (k.count > 8) {
      error = "at most 8 variables per kind";
      return std::nullopt;
    }

  auto worldsWith = [&](unsigned world) {
    return llvm::any_of(menu.kinds,
                        [&](const VariableKind &k) { return k.world == world; });
  };
  auto add = [&](OpKind k, IntAttrs ints, unsigned world, std::string label,
                 llvm::SmallVector<ScalarExpr, 4> scalars = {}) {
    if (!worldsWith(world))
      return;
    OpTemplate t{k, std::move(ints), world, std::move(scalars),
                 std::move(label)};
    menu.templates.push_back(std::move(t));
  };
  llvm::SmallVector<ScalarExpr, 4> mulScalars = {
      ScalarExpr::symbol(0), ScalarExpr::symbol(1), ScalarExpr::product(0, 1)};
  llvm::SmallVector<ScalarExpr, 4> addScalars = {
      ScalarExpr::symbol(0), ScalarExpr::symbol(1), ScalarExpr::sum(0, 1),
      ScalarExpr::product(0, 1)};
  for (unsigned world : {kMatrices, kImages}) {
    std::string w = world == kMatrices ? "" : " (images)";
    if (world == kMatrices && has("matmul"))
      add(OpKind::Matmul, {}, world, "matmul");
    for (OpKind k : {OpKind::Add, OpKind::Sub, OpKind::Mul})
      if (has(getMnemonic(k)))
        add(k, {}, world, getMnemonic(k).str() + w);
    if (has("scalar_mul"))
      add(OpKind::ScalarMul, {}, world, "scalar_mul" + w, mulScalars);
    // Offsets matter for matrices (a normalization's epsilon); on images
    // they would only repeat the same identities.
    if (has("scalar_add") && world == kMatrices)
      add(OpKind::ScalarAdd, {}, world, "scalar_add" + w, addScalars);
    if (world == kMatrices && has("exp"))
      add(OpKind::Exp, {}, world, "exp");
    if (has("relu"))
      add(OpKind::Relu, {}, world, "relu" + w);
    if (world == kMatrices && has("transpose"))
      add(OpKind::Transpose, {1, 0}, world, "transpose");
    for (int64_t d : {0, 1}) {
      if (has("concat"))
        add(OpKind::Concat, {d}, world, "concat " + std::to_string(d) + w);
      if (has("split"))
        add(OpKind::Split, {d}, world, "split " + std::to_string(d) + w);
      if (world == kMatrices && has("reduce_sum"))
        add(OpKind::ReduceSum, {d}, world, "reduce_sum " + std::to_string(d));
    }
    if (world != kImages)
      continue;
    if (conv) {
      add(OpKind::Conv2D, {1, 1, 1, 1, 1, 1, 1}, world, "conv2d 3x3 same");
      add(OpKind::Conv2D, {1, 1, 0, 0, 1, 1, 1}, world, "conv2d 1x1");
    }
    if (has("avg_pool2d"))
      add(OpKind::AvgPool2D, {3, 3, 1, 1, 1, 1}, world, "avg_pool2d 3x3 same");
    if (has("max_pool2d"))
      add(OpKind::MaxPool2D, {3, 3, 1, 1, 1, 1}, world, "max_pool2d 3x3 same");
    if (has("reshape") && elementwise)
      add(OpKind::Reshape, {}, world, "reshape [c,1,1] -> [c,1,1,1]");
  }
  if (menu.templates.empty()) {
    error = "the menu has no op that applies to its variables";
    return std::nullopt;
  }
  if (menu.templates.size() > 255) {
    error = "too many op templates";
    return std::nullopt;
  }
  return menu;
}

std::string mirage::rules::variableName(const Menu &menu, uint8_t code) {
  unsigned kind = code / 8, index = code % 8;
  if (kind >= menu.kinds.size())
    return "?";
  return menu.kinds[kind].name + std::to_string(index);
}

std::string mirage::rules::describeGraph(const Menu &menu,
                                         const EnumGraph &graph) {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::function<void(uint8_t)> value = [&](uint8_t code) {
    if (isVariableCode(code)) {
      os << variableName(menu, code);
      return;
    }
    unsigned op = (code - kResultCodeBase) / 2, result = code % 2;
    const EnumOp &e = graph.ops[op];
    const OpTemplate &t = menu.templates[e.tmpl];
    if (t.kind == OpKind::Split)
      os << "(split_" << result;
    else
      os << '(' << getMnemonic(t.kind);
    for (int64_t i : t.ints)
      os << ' ' << i;
    if (!t.scalars.empty())
      os << ' ' << t.scalars[e.scalar].str();
    for (unsigned a = 0; a < getNumOperands(t.kind); ++a) {
      os << ' ';
      value(e.operands[a]);
    }
    os << ')';
  };
  for (unsigned i = 0; i < graph.numOutputs; ++i) {
    if (i)
      os << ", ";
    value(graph.outputs[i]);
  }
  return s;
}
