//===- BlockGraphSearch.h - enumerating block graphs ------------*- C++ -*-===//
//
// The block level of the µGraph search: for one goal value of the target and
// the device tensors available to compute it, a depth-first enumeration of
// block graphs in canonical order, pruned by abstract expressions, and the
// instantiation of each complete block graph as a kernel.graph_def on a
// concrete grid and for-loop range.
//
// Grid sizes do not change any abstract expression or index variable, so
// the enumeration runs once per for-loop choice (none, or one reduced index
// variable) and its results are instantiated on every grid.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_BLOCKGRAPHSEARCH_H
#define MIRAGE_LIB_SUPEROPT_BLOCKGRAPHSEARCH_H

#include "SearchTarget.h"
#include "mirage/Superopt/Search/Superoptimizer.h"
#include "mlir/IR/Builders.h"
#include <atomic>
#include <chrono>
#include <optional>

namespace mirage::superopt {

/// The wall-clock safety cut shared by all search threads. It is not a
/// budget in the deterministic sense: where it cuts depends on the machine
/// and its load, so a result it cut is reported as such and not cached.
struct SearchDeadline {
  std::chrono::steady_clock::time_point at;
  std::atomic<bool> hit{false};
  /// Whether the deadline has passed (and records it).
  bool expired() {
    if (hit.load(std::memory_order_relaxed))
      return true;
    if (std::chrono::steady_clock::now() < at)
      return false;
    hit = true;
    return true;
  }
};

/// The limits of one block-level task. States and bytes are counted, not
/// timed, so a task stops at the same point whatever the load and the
/// thread count.
struct TaskLimits {
  uint64_t maxStates = 0;
  /// Bytes of the task's own data (abstract expressions, block graphs).
  uint64_t maxBytes = 0;
  SearchDeadline *deadline = nullptr;
};

struct BlockNode {
  enum Kind : uint8_t {
    Input,
    Unary,
    Binary,
    Matmul,
    Reduce,
    Accum, // choice: AccumKind (sum, red_sum, red_rms); dim for red_*
    SoftmaxAccum, // a: scores, b: values; the node is its output
    RMSNorm,      // dim: the normalized dimension
    Output
  };
  enum Stage : uint8_t { Invariant, Varying, AfterLoop };
  Kind kind;
  Stage stage = Invariant;
  /// The tile's element type: the tensor's for inputs and elementwise ops;
  /// f32 for sums of f16/bf16 data unless the original rounds the same value
  /// to that type (see BlockGraphSearch.cpp).
  mlir::Type type;
  int a = -1, b = -1;
  /// Input: target value index; Unary: menu index; Binary: BinaryKind;
  /// Reduce: dimension; Accum: its block::AccumKind.
  unsigned choice = 0;
  /// The dimension a composite (block.rms_norm, block.accum red_*) reduces.
  int dim = -1;
  ExprId expr = 0;
  llvm::SmallVector<int, 4> vars;
};

/// A complete block graph; its last node is the output saver.
struct BlockGraph {
  llvm::SmallVector<BlockNode> nodes;
  int loopVar = -1;
  /// A second output (kernel-outputs >= 2): node `secondTile`, a tile of
  /// the target value `secondGoal` that the graph computes on its way to
  /// the goal, saved too (through a one-iteration block.accum when it is a
  /// loop-body tile of a graph without a loop). -1: one output.
  int secondTile = -1;
  unsigned secondGoal = 0;
  /// Block ops the second output adds: its saver, and the accumulator of a
  /// tile computed before the (absent) loop.
  unsigned secondOutputOps() const {
    if (secondTile < 0)
      return 0;
    return nodes[secondTile].stage == BlockNode::AfterLoop ? 1 : 2;
  }
};

struct BlockGoal {
  unsigned goal;                        // target value index
  llvm::SmallVector<unsigned> available; // target value indices
  int loopVar = -1;
  /// Values the kernel may also save, computed on its way to the goal:
  /// for each complete graph holding a tile of one of them (same abstract
  /// expression and variables), a copy saving that tile as a second output
  /// is recorded too (docs/Search.md, "Two outputs").
  llvm::SmallVector<unsigned> pairWith;
};

struct BlockSearchCounts {
  uint64_t explored = 0, pruned = 0;
  /// The largest amount of the task's own data, in (estimated) bytes.
  uint64_t peakBytes = 0;
  /// Why the enumeration stopped before its end, if it did.
  bool stateCapHit = false, memoryCapHit = false, deadlineHit = false;
  bool complete() const { return !stateCapHit && !memoryCapHit && !deadlineHit; }
};

/// Enumerates every block graph that computes the goal from the available
/// tensors within the op limit, in a fixed order, until the end or a limit.
void enumerateBlockGraphs(const SearchTarget &target, const BlockGoal &goal,
                          const SearchOptions &options,
                          const TaskLimits &limits,
                          llvm::SmallVectorImpl<BlockGraph> &found,
                          BlockSearchCounts &counts);

/// One block graph computing two independent goals: `first`'s nodes, then
/// `second`'s, sharing the nodes they have in common (an input iterator of
/// the same tensor in the same layout, the same op on shared tiles),
/// first's saver last and second's output tile saved as the
/// second output (`secondGoal`). Nothing when their loop choices differ,
/// either has two outputs already, or the union with its second saver has
/// more than `maxBlockOps` block ops.
std::optional<BlockGraph> combineGraphs(const BlockGraph &first,
                                        const BlockGraph &second,
                                        unsigned secondGoal,
                                        unsigned maxBlockOps);

/// Estimated bytes of a list of block graphs (the memory budget's count).
uint64_t approximateBytes(llvm::ArrayRef<BlockGraph> graphs);

/// A grid: the partitioned index variable and size of each grid dimension.
struct GridChoice {
  llvm::SmallVector<int, 3> vars;
  llvm::SmallVector<int64_t, 3> sizes;
  int64_t forloop = 1;
  /// Parts the loop variable is split into by one more grid dimension (the
  /// last): the kernel writes its accumulators' partial results and a
  /// second kernel, on the grid (combineVars, combineSizes) over the output
  /// variables, combines them (KernelBuilder.cpp). 1: no split.
  int64_t splitParts = 1;
  llvm::SmallVector<int, 3> combineVars;
  llvm::SmallVector<int64_t, 3> combineSizes;
};

/// The grids and loop ranges on which `graph` is instantiated: the output
/// variables partitioned by up to `maxGridDims` grid dimensions; for a graph
/// with a loop whose accumulators can be split (sums and online softmaxes,
/// their tiles no more than `maxKernelOutputs`), also the loop variable
/// split in parts by one more grid dimension (at most three in all). The
/// combining kernel's grid is left empty: see combineChoices.
llvm::SmallVector<GridChoice> gridChoices(const SearchTarget &target,
                                          const BlockGraph &graph,
                                          const SearchOptions &options);

/// The grids of a split graph's combining kernel: up to `maxGridDims`
/// dimensions over the output's variables.
llvm::SmallVector<GridChoice> combineChoices(const SearchTarget &target,
                                             const BlockGraph &graph,
                                             const SearchOptions &options);

/// The partial results a split of `graph` writes: one per sum accumulator,
/// two per online softmax (its output and stats).
unsigned partialOutputs(const BlockGraph &graph);

/// Builds `graph` at the builder's insertion point on an unsplit `grid`,
/// reading `operand(i)` for target value i: one kernel.graph_def.
mlir::Operation *buildGraphDef(mlir::OpBuilder &builder, mlir::Location loc,
                               const SearchTarget &target,
                               const BlockGraph &graph, const GridChoice &grid,
                               llvm::function_ref<mlir::Value(unsigned)> operand);

/// The two kernels of a split grid: the partial kernel (its results are the
/// partial tensors) and the combining kernel (its result is the goal).
mlir::Operation *
buildPartialKernel(mlir::OpBuilder &builder, mlir::Location loc,
                   const SearchTarget &target, const BlockGraph &graph,
                   const GridChoice &grid,
                   llvm::function_ref<mlir::Value(unsigned)> operand);
mlir::Operation *buildCombineKernel(mlir::OpBuilder &builder,
                                    mlir::Location loc,
                                    const SearchTarget &target,
                                    const BlockGraph &graph,
                                    const GridChoice &grid,
                                    mlir::ValueRange partials);

/// The goal's value computed by `graph` on `grid` (one kernel, or the two
/// of a split grid), and the second goal's after it for a graph with two
/// outputs.
llvm::SmallVector<mlir::Value, 2> buildKernels(mlir::OpBuilder &builder, mlir::Location loc,
                         const SearchTarget &target, const BlockGraph &graph,
                         const GridChoice &grid,
                         llvm::function_ref<mlir::Value(unsigned)> operand);

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_BLOCKGRAPHSEARCH_H
