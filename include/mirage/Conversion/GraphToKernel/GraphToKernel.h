//===- GraphToKernel.h - graph -> kernel ------------------------*- C++ -*-===//
//
// The default schedule: one predefined kernel per graph op
// (--graph-to-kernel), and its patterns for passes that convert part of a
// function (the searches leave what they do not cover to it).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_GRAPHTOKERNEL_GRAPHTOKERNEL_H
#define MIRAGE_CONVERSION_GRAPHTOKERNEL_GRAPHTOKERNEL_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mirage {

#define GEN_PASS_DECL_GRAPHTOKERNEL
#include "mirage/Conversion/Passes.h.inc"

/// The default schedule's rewrite patterns (graph op -> predefined kernel).
void populateGraphToKernelPatterns(mlir::RewritePatternSet &patterns);

/// Converts every graph op under `root` to its predefined kernel and leaves
/// the other ops alone: --graph-to-kernel, and what the searches do with
/// the ops they do not cover.
mlir::LogicalResult convertToDefaultSchedule(mlir::Operation *root);

} // namespace mirage

#endif // MIRAGE_CONVERSION_GRAPHTOKERNEL_GRAPHTOKERNEL_H
