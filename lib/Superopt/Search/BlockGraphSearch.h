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
#include "Superopt/Search/Superoptimizer.h"
#include "mlir/IR/Builders.h"
#include <atomic>
#include <chrono>

namespace mirage::superopt {

/// Budgets shared by all search threads.
struct SearchBudget {
  std::chrono::steady_clock::time_point deadline;
  uint64_t maxStates = 0;
  std::atomic<uint64_t> states{0};
  std::atomic<bool> timeHit{false}, stateHit{false};
  bool exhausted() const { return timeHit || stateHit; }
  /// Adds `n` states; false once a budget is spent.
  bool charge(uint64_t n);
};

struct BlockNode {
  enum Kind : uint8_t { Input, Unary, Binary, Matmul, Reduce, Accum, Output };
  enum Stage : uint8_t { Invariant, Varying, AfterLoop };
  Kind kind;
  Stage stage = Invariant;
  int a = -1, b = -1;
  /// Input: target value index; Unary: menu index; Binary: BinaryKind;
  /// Reduce: dimension.
  unsigned choice = 0;
  ExprId expr = 0;
  llvm::SmallVector<int, 4> vars;
};

/// A complete block graph; its last node is the output saver.
struct BlockGraph {
  llvm::SmallVector<BlockNode> nodes;
  int loopVar = -1;
};

struct BlockGoal {
  unsigned goal;                        // target value index
  llvm::SmallVector<unsigned> available; // target value indices
  int loopVar = -1;
};

struct BlockSearchCounts {
  uint64_t explored = 0, pruned = 0;
  /// The enumeration stopped at its own time slice (other tasks go on).
  bool sliceHit = false;
};

/// Enumerates every block graph that computes the goal from the available
/// tensors within the op limit, until `sliceEnd` or the shared budget.
void enumerateBlockGraphs(const SearchTarget &target, const BlockGoal &goal,
                          const SearchOptions &options, SearchBudget &budget,
                          std::chrono::steady_clock::time_point sliceEnd,
                          llvm::SmallVectorImpl<BlockGraph> &found,
                          BlockSearchCounts &counts);

/// A grid: the partitioned index variable and size of each grid dimension.
struct GridChoice {
  llvm::SmallVector<int, 3> vars;
  llvm::SmallVector<int64_t, 3> sizes;
  int64_t forloop = 1;
};

/// The grids and loop ranges on which `graph` is instantiated.
llvm::SmallVector<GridChoice> gridChoices(const SearchTarget &target,
                                          const BlockGraph &graph,
                                          const SearchOptions &options);

/// Builds `graph` at the builder's insertion point on `grid`, reading
/// `operands[i]` for target value i.
mlir::Operation *buildGraphDef(mlir::OpBuilder &builder, mlir::Location loc,
                               const SearchTarget &target,
                               const BlockGraph &graph, const GridChoice &grid,
                               llvm::function_ref<mlir::Value(unsigned)> operand);

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_BLOCKGRAPHSEARCH_H
