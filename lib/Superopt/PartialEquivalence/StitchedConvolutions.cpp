//===- StitchedConvolutions.cpp - PET's stitched-convolution mutants ------===//
//
// concat_d(conv(x_1, w), ..., conv(x_K, w)) -> conv(concat_d(x_1..x_K), w)
// along a spatial axis d: one launch and one read of the weight instead of
// K. Both have the output shape when the convolution keeps the extent along
// d (stride 1 there, 2 pad = dil (k - 1)); the mutant is then wrong exactly
// where a window crosses a seam and reads the next tile where the original
// read zero padding. Along the batch axis the same rewrite is exact and the
// graph rules already have it (docs/GraphRules.md); the spatial axes are
// what PET adds: tiles of different extents, which cannot share a batch.
//
// A convolution per tile is often followed by per-tile elementwise ops
// before the concat (bias, inference batch norm as a per-channel scale and
// shift, ReLU): concat_d(f(conv(x_1, w)), ..., f(conv(x_K, w))). When f is
// the same chain for every tile, each op elementwise with its other
// operands the same values and of extent 1 along d, f commutes with the
// concat exactly (an output element depends on the element at the same
// position and on operands that do not vary along d), so the site is
// f(concat_d(conv(x_i, w))) and PET's mutant and correction apply to the
// concat of convolutions inside it.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/PartialEquivalence/PartialEquivalence.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::pet;

namespace {
/// One tile's convolution and the ops after it up to the concat.
struct TileChain {
  graph::Conv2DOp conv;
  SmallVector<Operation *, 4> ops; // in order from the convolution
};
} // namespace

/// The operand of an elementwise op that carries the tile (the chain
/// operand): for a unary op its input; for a binary op the operand of the
/// result's type, the other being of extent 1 along `dim` once aligned to
/// rank 4 (so it does not vary along the concat axis). Null otherwise,
/// with `why`.
static Value chainOperand(Operation *op, int64_t dim, std::string &why) {
  if (auto unary = dyn_cast<graph::UnaryOpInterface>(op))
    return unary.getUnaryInput();
  if (!isa<graph::AddOp, graph::SubOp, graph::MulOp, graph::DivOp>(op)) {
    why = "an input is neither a conv2d nor an elementwise op after one";
    return nullptr;
  }
  Type result = op->getResult(0).getType();
  auto constantAlongAxis = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t at = dim - (4 - type.getRank());
    return type.getRank() <= 4 && (at < 0 || type.getDimSize(at) == 1);
  };
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  bool lhsCarries = lhs.getType() == result && constantAlongAxis(rhs);
  bool rhsCarries = rhs.getType() == result && constantAlongAxis(lhs);
  if (lhsCarries != rhsCarries)
    return lhsCarries ? lhs : rhs;
  why = "an operand of an op after a per-tile convolution varies along the "
        "concat axis (or broadcasts the tile)";
  return nullptr;
}

/// Walks back from a concat input through elementwise ops to a
/// convolution. Every value on the way has one user (the tile's ops go
/// away with the concat: only then is a launch saved).
static std::optional<TileChain> matchTileChain(Value input, int64_t dim,
                                               std::string &why) {
  TileChain chain;
  Value v = input;
  while (true) {
    if (!v.hasOneUse()) {
      why = chain.ops.empty() && v.getDefiningOp<graph::Conv2DOp>()
                ? "a convolution has another user"
                : "a convolution or an op after it has another user";
      return std::nullopt;
    }
    Operation *op = v.getDefiningOp();
    if (!op) {
      why = "an input is not a conv2d";
      return std::nullopt;
    }
    if (auto conv = dyn_cast<graph::Conv2DOp>(op)) {
      chain.conv = conv;
      std::reverse(chain.ops.begin(), chain.ops.end());
      return chain;
    }
    v = chainOperand(op, dim, why);
    if (!v)
      return std::nullopt;
    chain.ops.push_back(op);
  }
}

/// Whether two tiles' chains are the same ops with the same other operands.
static bool sameChain(ArrayRef<Operation *> a, ArrayRef<Operation *> b,
                      int64_t dim) {
  if (a.size() != b.size())
    return false;
  std::string ignored;
  for (auto [x, y] : llvm::zip(a, b)) {
    if (x->getName() != y->getName() ||
        x->getAttrDictionary() != y->getAttrDictionary() ||
        x->getNumOperands() != y->getNumOperands())
      return false;
    Value cx = chainOperand(x, dim, ignored);
    Value cy = chainOperand(y, dim, ignored);
    for (auto [ox, oy] : llvm::zip(x->getOperands(), y->getOperands()))
      if ((ox == cx) != (oy == cy) || (ox != cx && ox != oy))
        return false;
  }
  return true;
}

static std::optional<StitchSite> matchSite(graph::ConcatOp concat,
                                           std::string &why) {
  int64_t dim = concat.getDim();
  if (dim != 2 && dim != 3) {
    why = "concat along axis " + std::to_string(dim) + ", not H or W";
    return std::nullopt;
  }
  if (concat.getInputs().size() < 2) {
    why = "one input";
    return std::nullopt;
  }
  StitchSite site;
  site.concat = concat;
  site.dim = dim;
  int64_t offset = 0;
  for (Value in : concat.getInputs()) {
    std::optional<TileChain> chain = matchTileChain(in, dim, why);
    if (!chain)
      return std::nullopt;
    graph::Conv2DOp conv = chain->conv;
    if (!site.convs.empty()) {
      if (!sameChain(site.chains.front(), chain->ops, dim)) {
        why = "the ops after the per-tile convolutions differ";
        return std::nullopt;
      }
      graph::Conv2DOp first = site.convs.front();
      if (conv.getWeight() != first.getWeight() ||
          conv.getStrides() != first.getStrides() ||
          conv.getPadding() != first.getPadding() ||
          conv.getDilations() != first.getDilations() ||
          conv.getGroups() != first.getGroups()) {
        why = "the convolutions differ in weight or attributes";
        return std::nullopt;
      }
      auto a = cast<RankedTensorType>(first.getInput().getType());
      auto b = cast<RankedTensorType>(conv.getInput().getType());
      for (int64_t d = 0; d < 4; ++d)
        if (d != dim && a.getDimSize(d) != b.getDimSize(d)) {
          why = "the tiles differ off the concat axis";
          return std::nullopt;
        }
    }
    site.convs.push_back(conv);
    site.chains.push_back(chain->ops);
    auto inType = cast<RankedTensorType>(conv.getInput().getType());
    site.offsets.push_back(offset);
    site.extents.push_back(inType.getDimSize(dim));
    offset += inType.getDimSize(dim);
  }
  graph::Conv2DOp conv = site.convs.front();
  int64_t axis = dim - 2;
  int64_t k = cast<RankedTensorType>(conv.getWeight().getType())
                  .getDimSize(dim);
  int64_t stride = conv.getStrides()[axis], pad = conv.getPadding()[axis],
          dil = conv.getDilations()[axis];
  if (stride != 1 || 2 * pad != dil * (k - 1)) {
    why = "the convolution does not keep the extent along the axis (stride "
          "1 and 2 pad = dil (k - 1))";
    return std::nullopt;
  }
  site.halo = pad;
  return site;
}

std::vector<StitchSite>
mirage::pet::findStitchSites(func::FuncOp func, std::vector<std::string> *why) {
  std::vector<StitchSite> sites;
  func.walk([&](graph::ConcatOp concat) {
    std::string reason;
    if (std::optional<StitchSite> site = matchSite(concat, reason)) {
      sites.push_back(std::move(*site));
      return;
    }
    // A concat of anything but convolutions (or elementwise ops after
    // them) is not worth a line.
    if (why && llvm::any_of(concat.getInputs(), [](Value input) {
          SmallVector<Value> work = {input};
          llvm::SmallPtrSet<Operation *, 8> seen;
          while (!work.empty()) {
            Operation *op = work.pop_back_val().getDefiningOp();
            if (!op || !seen.insert(op).second)
              continue;
            if (isa<graph::Conv2DOp>(op))
              return true;
            if (isa<graph::UnaryOpInterface, graph::AddOp, graph::SubOp,
                    graph::MulOp, graph::DivOp>(op))
              work.append(op->operand_begin(), op->operand_end());
          }
          return false;
        }))
      why->push_back(reason);
  });
  return sites;
}

SitePrograms mirage::pet::buildSitePrograms(const StitchSite &site,
                                            llvm::StringRef prefix) {
  graph::ConcatOp concat = site.concat;
  auto parent = concat->getParentOfType<func::FuncOp>();
  MLIRContext *ctx = parent.getContext();
  Location loc = concat.getLoc();
  SmallVector<Type> argTypes;
  SmallVector<graph::Conv2DOp> convs(site.convs);
  for (graph::Conv2DOp conv : convs)
    argTypes.push_back(conv.getInput().getType());
  argTypes.push_back(convs.front().getWeight().getType());
  Type resultType = concat.getType();
  auto type = FunctionType::get(ctx, argTypes, resultType);

  OpBuilder b(ctx);
  b.setInsertionPointAfter(parent);
  auto make = [&](llvm::StringRef suffix) {
    auto fn = func::FuncOp::create(b, loc, (prefix + suffix).str(), type);
    fn.setPrivate();
    return fn;
  };
  SitePrograms programs;
  programs.original = make("__pet_original");
  programs.mutant = make("__pet_mutant");
  unsigned tiles = site.convs.size();

  // The original: each convolution on its tile, then the concat.
  {
    Block *body = programs.original.addEntryBlock();
    OpBuilder ib = OpBuilder::atBlockEnd(body);
    SmallVector<Value> outs;
    for (unsigned i = 0; i < tiles; ++i) {
      Operation *conv = ib.clone(*convs[i]);
      conv->setOperand(0, body->getArgument(i));
      conv->setOperand(1, body->getArgument(tiles));
      outs.push_back(conv->getResult(0));
    }
    Operation *cat = ib.clone(*concat);
    cat->setOperands(outs);
    func::ReturnOp::create(ib, loc, cat->getResult(0));
  }
  // The mutant: the tiles concatenated, one convolution.
  {
    Block *body = programs.mutant.addEntryBlock();
    OpBuilder ib = OpBuilder::atBlockEnd(body);
    SmallVector<Value> tilesIn(body->getArguments().take_front(tiles));
    Value stitched = buildTileConcat(ib, loc, tilesIn, site.dim);
    Value conv = buildSiteConv(ib, site, stitched, body->getArgument(tiles));
    func::ReturnOp::create(ib, loc, conv);
  }
  return programs;
}

StitchSite mirage::pet::hoistTileChains(const StitchSite &site) {
  if (site.chains.empty() || site.chains.front().empty())
    return site;
  graph::ConcatOp concat = site.concat;
  OpBuilder b(concat);
  SmallVector<Value> outs;
  for (graph::Conv2DOp conv : site.convs)
    outs.push_back(conv.getResult());
  Value value = buildTileConcat(b, concat.getLoc(), outs, site.dim);
  StitchSite bare = site;
  bare.concat = cast<graph::ConcatOp>(value.getDefiningOp());
  bare.chains.assign(site.convs.size(), {});
  // One op per step, on the whole map; its other operands are the tiles'.
  std::string ignored;
  for (Operation *step : site.chains.front()) {
    Value tile = chainOperand(step, site.dim, ignored);
    Operation *op = b.clone(*step);
    for (OpOperand &use : op->getOpOperands())
      if (use.get() == tile)
        use.set(value);
    op->getResult(0).setType(value.getType());
    value = op->getResult(0);
  }
  concat.getResult().replaceAllUsesWith(value);
  concat.erase();
  for (ArrayRef<Operation *> chain : site.chains)
    for (Operation *op : llvm::reverse(chain))
      op->erase();
  return bare;
}

Value mirage::pet::buildTileConcat(OpBuilder &b, Location loc,
                                   ValueRange parts, int64_t dim) {
  auto first = cast<RankedTensorType>(parts.front().getType());
  SmallVector<int64_t> shape(first.getShape());
  shape[dim] = 0;
  for (Value v : parts)
    shape[dim] += cast<RankedTensorType>(v.getType()).getDimSize(dim);
  auto type = RankedTensorType::get(shape, first.getElementType());
  return graph::ConcatOp::create(
             b, loc, TypeRange{type}, parts,
             ArrayRef<NamedAttribute>{
                 b.getNamedAttr("dim", b.getI64IntegerAttr(dim))})
      .getResult();
}

Value mirage::pet::buildSiteConv(OpBuilder &b, const StitchSite &site,
                                 Value input, Value weight) {
  graph::Conv2DOp like = site.convs.front();
  auto in = cast<RankedTensorType>(input.getType());
  auto out = cast<RankedTensorType>(like.getType());
  SmallVector<int64_t> shape(out.getShape());
  // The axis keeps its extent; the batch follows the input.
  shape[0] = in.getDimSize(0);
  shape[site.dim] = in.getDimSize(site.dim);
  Operation *conv = b.clone(*like);
  conv->setOperand(0, input);
  conv->setOperand(1, weight);
  conv->getResult(0).setType(RankedTensorType::get(shape, out.getElementType()));
  return conv->getResult(0);
}
