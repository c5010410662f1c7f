//===- KernelGraphs.h - kernel-level enumeration of formulations -*- C++ -*-===//
//
// Mirage's kernel-level search (OSDI'25, §4; docs/Search.md, "Kernel-level
// enumeration"): kernel graphs are built op by op from predefined kernel ops
// (matmul, elementwise unary and binary ops, sum reductions, rms_norm) over
// every tensor available so far (the subprogram's inputs and the
// intermediates created before), with each op's shape rule, in a canonical
// order, and pruned by abstract expressions: a new tensor must be able to be
// a subexpression of some goal's. A graph in which every goal has a tensor
// of its abstract expression, shape and element type is a *formulation* of
// the subprogram: X (A B) for (X A) B, X (W1 + W2) for X W1 + X W2. Each
// formulation then goes through the block-level search like the program as
// written; abstract expressions only prune, the verifier decides.
//
// This file knows nothing of IR: tensors are shapes, element-type ids and
// abstract expressions, and the elementwise ops of the menu are given by
// their abstract-expression functions, so the enumeration is tested alone.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_KERNELGRAPHS_H
#define MIRAGE_SUPEROPT_KERNELGRAPHS_H

#include "Superopt/Search/AbstractExpr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace mirage::superopt {

/// The predefined kernel ops of the enumeration, in the order of the
/// canonical key.
enum class KernelGraphOpKind : uint8_t { Matmul, Elementwise, ReduceSum, RMSNorm };

struct KernelGraphTensor {
  llvm::SmallVector<int64_t, 4> shape;
  /// Tensors combine only with equal ids (the predefined kernels keep one
  /// element type).
  unsigned elementType = 0;
  AbstractExprContext::ExprId expr = 0;
};

struct KernelGraphOp {
  KernelGraphOpKind kind;
  /// Elementwise: the menu entry; ReduceSum: the reduced dimension.
  unsigned choice = 0;
  llvm::SmallVector<unsigned, 2> operands; // tensor indices
};

/// A complete kernel graph: the inputs, then one tensor per op in order.
struct KernelGraph {
  unsigned numInputs = 0;
  llvm::SmallVector<KernelGraphTensor> tensors;
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
};

struct KernelGraphLimits {
  /// Ops of a kernel graph (its inputs not counted).
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
  bool stateBudgetHit = false, graphLimitHit = false;
};

/// Enumerates the kernel graphs of up to `limits.maxOps` ops over `inputs`
/// that compute every goal (shape, element type and abstract expression
/// equal), depth-first in canonical order, and appends them to `graphs` in
/// enumeration order. A graph is reported once whatever the order of its
/// independent ops; it has no dead op (every tensor it creates is a goal's
/// or read by a later op) and stops at its first complete prefix.
void enumerateKernelGraphs(AbstractExprContext &ctx,
                           llvm::ArrayRef<KernelGraphTensor> inputs,
                           llvm::ArrayRef<KernelGraphTensor> goals,
                           const KernelGraphMenu &menu,
                           const KernelGraphLimits &limits,
                           llvm::SmallVectorImpl<KernelGraph> &graphs,
                           KernelGraphCounts &counts);

/// The result shape of an op of the menu on operand shapes, or nothing when
/// its shape rule rejects them (matmul: equal batch dims and contracted
/// sizes; elementwise: NumPy broadcasting; reductions keep the dimension
/// as size 1; rms_norm: the input's shape).
std::optional<llvm::SmallVector<int64_t, 4>>
kernelGraphShape(KernelGraphOpKind kind, unsigned choice,
                 llvm::ArrayRef<llvm::ArrayRef<int64_t>> operands);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_KERNELGRAPHS_H
