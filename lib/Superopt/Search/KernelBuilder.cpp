//===- KernelBuilder.cpp - block graphs to kernel.graph_def ops -----------===//
//
// Turns an enumerated block graph (BlockGraphSearch.h) on a concrete grid
// into kernels:
//
//  - one kernel.graph_def: every grid dimension partitions an index
//    variable of the output, the for-loop walks the loop variable;
//  - split (GridChoice::splitParts > 1): one more grid dimension splits
//    the loop variable into parts, as FlashDecoding splits the keys and
//    split-K a matmul's K. The first kernel runs the loop body and the
//    accumulators on its part and saves each accumulator's tile (a partial
//    result) into a device tensor with a leading dimension for the part
//    (block.reshape adds it); a second kernel combines the parts (a sum
//    for a sum accumulator, block.softmax_merge for an online softmax),
//    runs the ops after the loop and saves the output. The partial tensors
//    are new intermediate tensors whose shapes follow from the grid.
//
//===----------------------------------------------------------------------===//

#include "BlockGraphSearch.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

namespace {

bool isAccumulator(const BlockNode &node) {
  return node.kind == BlockNode::Accum || node.kind == BlockNode::SoftmaxAccum;
}

/// Emits block ops for nodes of one graph on one grid: the grid dimensions
/// partition `gridVars` (the loop variable among them when split), the
/// for-loop takes `forloop` steps of the loop variable.
class NodeEmitter {
public:
  NodeEmitter(OpBuilder &builder, Location loc, const SearchTarget &t,
              const BlockGraph &graph, ArrayRef<int> gridVars,
              ArrayRef<int64_t> gridSizes, int64_t forloop)
      : b(builder), loc(loc), t(t), graph(graph), gridVars(gridVars),
        gridSizes(gridSizes), forloop(forloop),
        tiles(graph.nodes.size()) {}

  /// Size of index variable v in a tile.
  int64_t sizeOf(int v) const {
    if (v < 0)
      return 1;
    int64_t e = t.varExtent[v];
    for (auto [gv, gs] : llvm::zip(gridVars, gridSizes))
      if (gv == v)
        e /= gs;
    if (v == graph.loopVar)
      e /= forloop;
    return e;
  }

  /// The grid map of a value over `vars` (a tensor dimension per variable,
  /// after `offset` leading dimensions).
  block::GridMapAttr gridMap(ArrayRef<int> vars, int64_t offset = 0) const {
    SmallVector<int64_t> dims;
    for (int gv : gridVars) {
      auto it = llvm::find(vars, gv);
      dims.push_back(it == vars.end() ? block::GridMapAttr::kReplicate
                                      : offset + (it - vars.begin()));
    }
    if (dims.empty()) // a single block: one grid dimension of size 1
      dims.push_back(block::GridMapAttr::kReplicate);
    return block::GridMapAttr::get(b.getContext(), dims);
  }

  block::TileType tileType(ArrayRef<int> vars, Type element) const {
    SmallVector<int64_t> shape;
    for (int v : vars)
      shape.push_back(sizeOf(v));
    return block::TileType::get(shape, element);
  }
  block::TileType tileType(const BlockNode &node) const {
    return tileType(node.vars, node.type);
  }

  /// `tile` in the layout `vars`, the same variables up to size-1
  /// dimensions: itself, or a block.reshape of it (row-major, so no
  /// element moves relative to the others).
  Value inLayout(Value tile, ArrayRef<int> vars) {
    auto type = cast<block::TileType>(tile.getType());
    block::TileType wanted = tileType(vars, type.getElementType());
    if (type == wanted)
      return tile;
    return block::ReshapeOp::create(b, loc, wanted, tile);
  }

  /// Saves the tile of the graph's output node (its variables are the
  /// goal's) into a tensor of type `outType`.
  Value save(Type outType) {
    const BlockNode &out = graph.nodes.back();
    return block::OutputOp::create(b, loc, outType,
                                   inLayout(tiles[out.a], out.vars),
                                   gridMap(out.vars));
  }

  /// The second output's tile, ready to save: after a one-iteration
  /// accumulator when it is a loop-body tile (the block dialect saves
  /// accumulated tiles only; without a loop that is the identity, in f32
  /// for f16/bf16 data as every accumulator here), in the value's layout.
  Value secondTile(Type f32) {
    const BlockNode &node = graph.nodes[graph.secondTile];
    Value tile = tiles[graph.secondTile];
    if (node.stage != BlockNode::AfterLoop) {
      Type element = node.type.isF16() || node.type.isBF16() ? f32 : node.type;
      tile = block::AccumOp::create(b, loc, tileType(node.vars, element), tile,
                                    block::AccumKind::sum, IntegerAttr());
    }
    return inLayout(tile, t.values[graph.secondGoal].vars);
  }

  /// Saves `tile` (from secondTile) into a tensor of type `outType`.
  Value saveSecond(Value tile, Type outType) {
    return block::OutputOp::create(
        b, loc, outType, tile, gridMap(t.values[graph.secondGoal].vars));
  }

  /// Emits node i (not an output saver); input iterators read `source`.
  void emit(unsigned i, Value source = Value()) {
    MLIRContext *ctx = b.getContext();
    const BlockNode &node = graph.nodes[i];
    Value a = node.a >= 0 ? tiles[node.a] : Value();
    Value c = node.b >= 0 ? tiles[node.b] : Value();
    switch (node.kind) {
    case BlockNode::Input: {
      // The maps follow the tensor's own variables; a tile held in the
      // layout of a size-1 reshape of it is the loaded tile reshaped.
      ArrayRef<int> vars = t.values[node.choice].vars;
      auto it = llvm::find(vars, graph.loopVar);
      int64_t loopDim = graph.loopVar >= 0 && it != vars.end()
                            ? it - vars.begin()
                            : block::LoopMapAttr::kReplicate;
      block::TileType loaded = tileType(vars, node.type);
      tiles[i] = block::InputOp::create(b, loc, loaded, source, gridMap(vars),
                                        block::LoopMapAttr::get(ctx, loopDim));
      tiles[i] = inLayout(tiles[i], node.vars);
      break;
    }
    case BlockNode::Unary: {
      const UnaryChoice &u = t.unaryOps[node.choice];
      tiles[i] = block::UnaryOp::create(
          b, loc, tileType(node), UnaryKindAttr::get(ctx, u.kind), a,
          u.params.empty() ? DenseF64ArrayAttr()
                           : b.getDenseF64ArrayAttr(u.params));
      break;
    }
    case BlockNode::Binary:
      tiles[i] = block::BinaryOp::create(b, loc, tileType(node),
                                         static_cast<BinaryKind>(node.choice),
                                         a, c);
      break;
    case BlockNode::Matmul:
      tiles[i] = block::MatmulOp::create(b, loc, tileType(node), a, c);
      break;
    case BlockNode::Reduce:
      tiles[i] = block::ReduceOp::create(
          b, loc, tileType(node), ReduceKindAttr::get(ctx, ReduceKind::sum), a,
          b.getI64IntegerAttr(node.choice));
      break;
    case BlockNode::Accum: {
      auto kind = static_cast<block::AccumKind>(node.choice);
      tiles[i] = block::AccumOp::create(
          b, loc, tileType(node), a, kind,
          node.dim >= 0 ? b.getI64IntegerAttr(node.dim) : IntegerAttr());
      break;
    }
    case BlockNode::RMSNorm:
      tiles[i] = block::RMSNormOp::create(b, loc, tileType(node), a,
                                          b.getI64IntegerAttr(node.dim),
                                          b.getF64FloatAttr(0.0));
      break;
    case BlockNode::SoftmaxAccum: {
      block::TileType out = tileType(node);
      SmallVector<int64_t> statsShape(out.getShape().drop_back());
      statsShape.push_back(2);
      auto sm = block::SoftmaxAccumOp::create(
          b, loc, out, block::TileType::get(statsShape, node.type), a, c);
      tiles[i] = sm.getOutput();
      stats[i] = sm.getStats();
      break;
    }
    case BlockNode::Output:
      llvm_unreachable("savers are placed by the kernel builders");
    }
  }

  /// The output tensor of saving `tile` with `omap` on this grid.
  RankedTensorType savedType(block::TileType tile, block::GridMapAttr omap,
                             Type element) const {
    SmallVector<int64_t> shape(tile.getShape());
    for (auto [g, d] : llvm::enumerate(omap.getDims()))
      if (d != block::GridMapAttr::kReplicate)
        shape[d] *= gridSizes[g];
    return RankedTensorType::get(shape, element);
  }

  OpBuilder &b;
  Location loc;
  const SearchTarget &t;
  const BlockGraph &graph;
  ArrayRef<int> gridVars;
  ArrayRef<int64_t> gridSizes;
  int64_t forloop;
  SmallVector<Value> tiles;
  /// The stats result of each online-softmax node.
  DenseMap<unsigned, Value> stats;
};

/// A kernel.graph_def with the given operands and result types, its region
/// ready to be filled.
kernel::GraphDefOp createKernel(OpBuilder &b, Location loc,
                                TypeRange results, ValueRange operands,
                                ArrayRef<int64_t> grid, int64_t forloop) {
  SmallVector<int64_t> sizes(grid);
  if (sizes.empty())
    sizes.push_back(1);
  auto def = kernel::GraphDefOp::create(b, loc, results, operands, sizes,
                                        static_cast<uint64_t>(forloop));
  Block *body = new Block();
  def.getBody().push_back(body);
  for (Value v : operands)
    body->addArgument(v.getType(), loc);
  return def;
}

/// The accumulator nodes of a graph, in node order.
SmallVector<unsigned> accumulatorNodes(const BlockGraph &graph) {
  SmallVector<unsigned> out;
  for (auto [i, node] : llvm::enumerate(graph.nodes))
    if (isAccumulator(node))
      out.push_back(i);
  return out;
}

} // namespace

unsigned superopt::partialOutputs(const BlockGraph &graph) {
  unsigned n = 0;
  for (const BlockNode &node : graph.nodes)
    n += node.kind == BlockNode::SoftmaxAccum ? 2
         : node.kind == BlockNode::Accum      ? 1
                                              : 0;
  return n;
}

Operation *superopt::buildGraphDef(OpBuilder &builder, Location loc,
                                   const SearchTarget &target,
                                   const BlockGraph &graph,
                                   const GridChoice &grid,
                                   function_ref<Value(unsigned)> operand) {
  assert(grid.splitParts == 1 && "a split grid builds two kernels");
  SmallVector<Value> operands;
  for (const BlockNode &n : graph.nodes)
    if (n.kind == BlockNode::Input)
      operands.push_back(operand(n.choice));
  // The output tensor: the goal's shape and type (the output vars equal the
  // goal's).
  const BlockNode &outNode = graph.nodes.back();
  SmallVector<int64_t> outShape;
  for (int v : outNode.vars)
    outShape.push_back(v < 0 ? 1 : target.varExtent[v]);
  auto outType = RankedTensorType::get(outShape, outNode.type);

  SmallVector<Type, 2> resultTypes{outType};
  if (graph.secondTile >= 0)
    resultTypes.push_back(target.values[graph.secondGoal].value.getType());
  auto def = createKernel(builder, loc, resultTypes, operands, grid.sizes,
                          grid.forloop);
  Block *body = &def.getBody().front();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  NodeEmitter e(builder, loc, target, graph, grid.vars, grid.sizes,
                grid.forloop);

  // Placement: the loop body, the accumulators, the ops after the loop.
  size_t n = graph.nodes.size();
  unsigned nextArg = 0;
  for (size_t i = 0; i < n; ++i) {
    const BlockNode &node = graph.nodes[i];
    if (node.kind == BlockNode::Input)
      e.emit(i, body->getArgument(nextArg++));
    else if (node.stage != BlockNode::AfterLoop && !isAccumulator(node))
      e.emit(i);
  }
  for (unsigned i : accumulatorNodes(graph))
    e.emit(i);
  for (size_t i = 0; i + 1 < n; ++i)
    if (graph.nodes[i].stage == BlockNode::AfterLoop &&
        !isAccumulator(graph.nodes[i]))
      e.emit(i);
  // The savers end the block graph: the second output's accumulator first.
  Value second = graph.secondTile >= 0 ? e.secondTile(target.f32Type) : Value();
  SmallVector<Value, 2> saved{e.save(outType)};
  if (second)
    saved.push_back(e.saveSecond(second, resultTypes[1]));
  block::YieldOp::create(builder, loc, saved);
  return def;
}

Operation *superopt::buildPartialKernel(OpBuilder &builder, Location loc,
                                        const SearchTarget &target,
                                        const BlockGraph &graph,
                                        const GridChoice &grid,
                                        function_ref<Value(unsigned)> operand) {
  assert(grid.splitParts > 1 && graph.loopVar >= 0);
  SmallVector<int> vars(grid.vars.begin(), grid.vars.end());
  SmallVector<int64_t> sizes(grid.sizes.begin(), grid.sizes.end());
  vars.push_back(graph.loopVar);
  sizes.push_back(grid.splitParts);
  SmallVector<Value> operands;
  for (const BlockNode &n : graph.nodes)
    if (n.kind == BlockNode::Input)
      operands.push_back(operand(n.choice));

  // Types first: each accumulator's tile with a leading part dimension,
  // saved with the part's grid dimension along it.
  OpBuilder::InsertionGuard guard(builder);
  NodeEmitter e(builder, loc, target, graph, vars, sizes, grid.forloop);
  MLIRContext *ctx = builder.getContext();
  struct Saved {
    unsigned node;
    bool stats;
    block::TileType tile, lifted;
    block::GridMapAttr omap;
    RankedTensorType type;
  };
  SmallVector<Saved> saved;
  for (unsigned i : accumulatorNodes(graph)) {
    block::TileType tile = e.tileType(graph.nodes[i]);
    SmallVector<block::TileType, 2> tiles{tile};
    if (graph.nodes[i].kind == BlockNode::SoftmaxAccum) {
      SmallVector<int64_t> statsShape(tile.getShape().drop_back());
      statsShape.push_back(2);
      tiles.push_back(block::TileType::get(statsShape, tile.getElementType()));
    }
    for (auto [k, tt] : llvm::enumerate(tiles)) {
      SmallVector<int64_t> shape{1};
      llvm::append_range(shape, tt.getShape());
      auto lifted = block::TileType::get(shape, tt.getElementType());
      // The output grid map: the node's variables one dimension further in
      // (the stats' last dimension has none), the part along dimension 0.
      SmallVector<int> tileVars(graph.nodes[i].vars.begin(),
                                graph.nodes[i].vars.end());
      if (k == 1)
        tileVars.back() = -1;
      SmallVector<int64_t> dims(e.gridMap(tileVars, 1).getDims());
      dims.back() = 0;
      auto omap = block::GridMapAttr::get(ctx, dims);
      saved.push_back({i, k == 1, tt, lifted, omap,
                       e.savedType(lifted, omap, tt.getElementType())});
    }
  }
  SmallVector<Type> results;
  for (const Saved &s : saved)
    results.push_back(s.type);

  auto def = createKernel(builder, loc, results, operands, sizes, grid.forloop);
  Block *body = &def.getBody().front();
  builder.setInsertionPointToStart(body);
  unsigned nextArg = 0;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const BlockNode &node = graph.nodes[i];
    if (node.kind == BlockNode::Input)
      e.emit(i, body->getArgument(nextArg++));
    else if (node.stage != BlockNode::AfterLoop && !isAccumulator(node))
      e.emit(i);
  }
  for (unsigned i : accumulatorNodes(graph))
    e.emit(i);
  // The savers end the block graph: every reshape comes first.
  SmallVector<Value> lifted, yields;
  for (const Saved &s : saved) {
    Value tile = s.stats ? e.stats.lookup(s.node) : e.tiles[s.node];
    lifted.push_back(block::ReshapeOp::create(builder, loc, s.lifted, tile));
  }
  for (auto [s, tile] : llvm::zip(saved, lifted))
    yields.push_back(block::OutputOp::create(builder, loc, s.type, tile, s.omap));
  block::YieldOp::create(builder, loc, yields);
  return def;
}

Operation *superopt::buildCombineKernel(OpBuilder &builder, Location loc,
                                        const SearchTarget &target,
                                        const BlockGraph &graph,
                                        const GridChoice &grid,
                                        ValueRange partials) {
  // No for-loop: each block reads every part of its share of the partial
  // tensors, combines them and runs the ops after the original loop.
  NodeEmitter e(builder, loc, target, graph, grid.combineVars,
                grid.combineSizes, /*forloop=*/1);
  // The loop variable is gone here: no tile has it.
  const BlockNode &outNode = graph.nodes.back();
  SmallVector<int64_t> outShape;
  for (int v : outNode.vars)
    outShape.push_back(v < 0 ? 1 : target.varExtent[v]);
  auto outType = RankedTensorType::get(outShape, outNode.type);
  auto def = createKernel(builder, loc, TypeRange{outType}, partials,
                          grid.combineSizes, 1);
  Block *body = &def.getBody().front();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  MLIRContext *ctx = builder.getContext();
  unsigned nextArg = 0;
  SmallVector<std::pair<unsigned, Value>> combined;
  for (unsigned i : accumulatorNodes(graph)) {
    const BlockNode &node = graph.nodes[i];
    block::TileType tile = e.tileType(node);
    Type f32 = tile.getElementType(); // accumulators of f16/bf16 data: f32
    auto load = [&](ArrayRef<int> vars, ArrayRef<int64_t> tileShape) {
      SmallVector<int64_t> shape{grid.splitParts};
      llvm::append_range(shape, tileShape);
      return block::InputOp::create(
          builder, loc, block::TileType::get(shape, f32),
          body->getArgument(nextArg++), e.gridMap(vars, 1),
          block::LoopMapAttr::get(ctx, block::LoopMapAttr::kReplicate));
    };
    Value parts = load(node.vars, tile.getShape());
    SmallVector<int64_t> oneShape{1};
    llvm::append_range(oneShape, tile.getShape());
    auto one = block::TileType::get(oneShape, f32);
    Value merged;
    if (node.kind == BlockNode::SoftmaxAccum) {
      SmallVector<int> statsVars(node.vars.begin(), node.vars.end());
      statsVars.back() = -1;
      SmallVector<int64_t> statsShape(tile.getShape().drop_back());
      statsShape.push_back(2);
      Value stats = load(statsVars, statsShape);
      merged = block::SoftmaxMergeOp::create(builder, loc, one, parts, stats,
                                             builder.getI64IntegerAttr(0));
    } else {
      merged = block::ReduceOp::create(
          builder, loc, one, ReduceKindAttr::get(ctx, ReduceKind::sum), parts,
          builder.getI64IntegerAttr(0));
    }
    Value flat = block::ReshapeOp::create(
        builder, loc, block::TileType::get(tile.getShape(), f32), merged);
    combined.push_back({i, flat});
  }
  // One iteration: the accumulators only turn the combined tiles into
  // post-loop values, as the block graph's phase rule wants.
  for (auto [i, flat] : combined)
    e.tiles[i] = block::AccumOp::create(builder, loc, flat.getType(), flat,
                                        block::AccumKind::sum, IntegerAttr());
  for (size_t i = 0; i + 1 < graph.nodes.size(); ++i)
    if (graph.nodes[i].stage == BlockNode::AfterLoop &&
        !isAccumulator(graph.nodes[i]))
      e.emit(i);
  block::YieldOp::create(builder, loc, ValueRange{e.save(outType)});
  return def;
}

SmallVector<Value, 2>
superopt::buildKernels(OpBuilder &builder, Location loc,
                       const SearchTarget &target, const BlockGraph &graph,
                       const GridChoice &grid,
                       function_ref<Value(unsigned)> operand) {
  if (grid.splitParts == 1)
    return SmallVector<Value, 2>(
        buildGraphDef(builder, loc, target, graph, grid, operand)
            ->getResults());
  assert(graph.secondTile < 0 && "a split graph has one output");
  Operation *partial =
      buildPartialKernel(builder, loc, target, graph, grid, operand);
  return {buildCombineKernel(builder, loc, target, graph, grid,
                             partial->getResults())
              ->getResult(0)};
}
