//===- KernelGraphs.h - kernel-level enumeration of formulations -*- C++ -*-===//
//
// Mirage's kernel-level search (OSDI'25, §4; docs/Search.md, "Kernel-level
// enumeration"): kernel graphs are built op by op from predefined kernel ops
// (matmul, elementwise unary and binary ops, sum reductions, rms_norm,
// softmax, transpose, and reshapes that only insert or drop size-1
// dimensions) over every tensor available so far (the subprogram's
// inputs and the intermediates created before), with each op's shape rule,
// in a canonical order, and pruned by abstract expressions: a new tensor
// must be able to be a subexpression of some goal's. A graph in which every
// goal has a tensor of its abstract expression, shape, element type and
// sources (below) is a *formulation* of the subprogram: X (A B) for (X A) B,
// X (W1 + W2) for X W1 + X W2, softmax((s Q) K) V for softmax(s (Q K)) V.
// Each formulation then goes through the block-level search like the
// program as written; abstract expressions only prune, the verifier decides.
//
// Abstract expressions forget indices, so they cannot tell a tensor from its
// transpose, nor A B from B A: a transpose is data movement (its input's
// expression, as in SearchTarget.h), and the enumeration keeps, besides the
// expression, the *sources* of each dimension: the input dimensions it runs
// along (an elementwise op's result dimension runs along those of its
// operands' aligned dimensions, a matmul's along its operands' rows,
// columns and batch dimensions, a transpose permutes them, a reduced
// dimension has none). Tensors are the same only if their sources are too,
// so a square K and K^T, or A B and B A, are two tensors, and a goal is met
// only in its own layout.
//
// A reshape that only inserts or drops size-1 dimensions is data movement
// too, and free (a view of the same memory, as kernel.reshape is): its
// input's expression, its dimensions other than size 1 run along the
// input's in order, its size-1 dimensions along none. It does not count
// against the op limit, and a reshape's result is not reshaped again (the
// program's reshapes are the menu; a chain of two would be one reshape the
// program does not have). Reshapes that merge or split dimensions are not
// in the enumeration (a dimension of two sources would not be one index
// variable of the block level).
//
// This file knows nothing of IR: tensors are shapes, element-type ids and
// abstract expressions, and the elementwise ops of the menu are given by
// their abstract-expression functions, so the enumeration is tested alone.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_KERNELGRAPHS_H
#define MIRAGE_SUPEROPT_KERNELGRAPHS_H

#include "mirage/Superopt/Search/AbstractExpr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace mirage::superopt {

/// The predefined kernel ops of the enumeration, in the order of the
/// canonical key.
enum class KernelGraphOpKind : uint8_t {
  Matmul,
  Elementwise,
  ReduceSum,
  RMSNorm,
  Transpose,
  Softmax,
  Reshape
};

/// Most dimensions of a tensor of the enumeration (SearchTarget's limit).
inline constexpr unsigned kKernelGraphMaxRank = 8;

/// The source id of dimension `dim` of input `input`.
inline unsigned kernelGraphSource(unsigned input, unsigned dim) {
  return input * kKernelGraphMaxRank + dim;
}

/// Per dimension, the sorted input dimensions (kernelGraphSource) it runs
/// along; none for a dimension of size 1.
using KernelGraphSources = llvm::SmallVector<llvm::SmallVector<unsigned, 2>, 4>;

struct KernelGraphTensor {
  llvm::SmallVector<int64_t, 4> shape;
  /// Tensors combine only with equal ids (the predefined kernels keep one
  /// element type).
  unsigned elementType = 0;
  AbstractExprContext::ExprId expr = 0;
  /// The layout the expression does not see (see the file comment). An
  /// input's are its own dimensions: the enumeration sets them.
  KernelGraphSources sources;
};

struct KernelGraphOp {
  KernelGraphOpKind kind;
  /// Elementwise: the menu entry; ReduceSum and Softmax: the dimension;
  /// Transpose: the menu's permutation; Reshape: the menu's reshape.
  unsigned choice = 0;
  llvm::SmallVector<unsigned, 2> operands; // tensor indices
};

/// A complete kernel graph: the inputs, then one tensor per op in order.
struct KernelGraph {
  unsigned numInputs = 0;
  llvm::SmallVector<KernelGraphTensor, 0> tensors;
  llvm::SmallVector<KernelGraphOp> ops;
  /// The tensor of each goal, in the goals' order.
  llvm::SmallVector<unsigned> outputs;
};

/// What the enumeration may apply. The elementwise entries carry their
/// abstract expressions; the caller knows which kernel each one is.
struct KernelGraphMenu {
  struct Elementwise {
    unsigned arity = 1; // 1 or 2
    bool commutative = false;
    std::function<AbstractExprContext::ExprId(
        AbstractExprContext &, llvm::ArrayRef<AbstractExprContext::ExprId>)>
        expr;
  };
  llvm::SmallVector<Elementwise> elementwise;
  bool matmul = false, reduceSum = false;
  /// rms_norm over the last dimension of `size` (null: not in the menu).
  std::function<AbstractExprContext::ExprId(
      AbstractExprContext &, int64_t size, AbstractExprContext::ExprId)>
      rmsNorm;
  /// softmax along a dimension of `size` (null: not in the menu), along
  /// each of `softmaxDims` of a tensor that has it.
  std::function<AbstractExprContext::ExprId(
      AbstractExprContext &, int64_t size, AbstractExprContext::ExprId)>
      softmax;
  llvm::SmallVector<unsigned, 1> softmaxDims;
  /// Transposes: result dimension d is the operand's dimension perm[d],
  /// applied to tensors of the permutation's rank. Data movement: the
  /// result has its operand's abstract expression.
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 2> transposes;
  /// Reshapes that only insert or drop size-1 dimensions: a tensor of
  /// shape `from` viewed as `to`. Data movement and free: the result has
  /// its operand's abstract expression, and reshapes are not counted in
  /// KernelGraphLimits::maxOps.
  struct Reshape {
    llvm::SmallVector<int64_t, 4> from, to;
  };
  llvm::SmallVector<Reshape, 2> reshapes;
};

struct KernelGraphLimits {
  /// Ops of a kernel graph (its inputs and reshapes, free views, not
  /// counted).
  unsigned maxOps = 3;
  /// States (prefixes visited) before the enumeration stops.
  uint64_t maxStates = 100'000;
  /// Formulations kept; the enumeration stops at the next one.
  unsigned maxGraphs = 8;
  bool pruning = true;
};

struct KernelGraphCounts {
  uint64_t states = 0;     // prefixes visited
  uint64_t pruned = 0;     // ops dropped by abstract expressions
  uint64_t duplicates = 0; // ops whose tensor existed already
  uint64_t own = 0;        // complete graphs of the program's expressions
  bool stateBudgetHit = false, graphLimitHit = false;
};

/// Enumerates the kernel graphs of up to `limits.maxOps` ops over `inputs`
/// that compute every goal (shape, element type, abstract expression and
/// sources equal), depth-first in canonical order, and appends them to
/// `graphs` in enumeration order. A graph is reported once whatever the
/// order of its independent ops; it has no dead op (every tensor it creates
/// is a goal's or read by a later op) and stops at its first complete
/// prefix. A complete graph whose created tensors have exactly the
/// abstract expressions of `own` (sorted, each once: the program's own
/// formulation, up to data movement) is counted in `counts.own` instead,
/// and does not count against `limits.maxGraphs`.
void enumerateKernelGraphs(
    AbstractExprContext &ctx, llvm::ArrayRef<KernelGraphTensor> inputs,
    llvm::ArrayRef<KernelGraphTensor> goals, const KernelGraphMenu &menu,
    const KernelGraphLimits &limits, llvm::SmallVectorImpl<KernelGraph> &graphs,
    KernelGraphCounts &counts,
    llvm::ArrayRef<AbstractExprContext::ExprId> own = {});

/// The result shape of an op of the menu on operand shapes, or nothing when
/// its shape rule rejects them (matmul: equal batch dims and contracted
/// sizes; elementwise: NumPy broadcasting; reductions keep the dimension
/// as size 1; rms_norm and softmax: the input's shape, softmax only along
/// one of its dimensions; transpose: `attr`, a permutation of the
/// operand's rank, applied to the operand's dimensions; reshape: `attr`,
/// the result shape, when it only inserts or drops size-1 dimensions).
std::optional<llvm::SmallVector<int64_t, 4>>
kernelGraphShape(KernelGraphOpKind kind, unsigned choice,
                 llvm::ArrayRef<llvm::ArrayRef<int64_t>> operands,
                 llvm::ArrayRef<int64_t> attr = {});

/// The sources of an op's result (see the file comment) from its operands'
/// shapes and sources and its result shape, which kernelGraphShape gave
/// (`attr` as there; a reshape's is its result shape).
KernelGraphSources
kernelGraphSources(KernelGraphOpKind kind, unsigned choice,
                   llvm::ArrayRef<llvm::ArrayRef<int64_t>> operandShapes,
                   llvm::ArrayRef<const KernelGraphSources *> operandSources,
                   llvm::ArrayRef<int64_t> resultShape,
                   llvm::ArrayRef<int64_t> attr = {});

/// An input's sources: each dimension of size other than 1 its own.
KernelGraphSources kernelGraphInputSources(unsigned input,
                                           llvm::ArrayRef<int64_t> shape);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_KERNELGRAPHS_H
