//===- Passes.h - mirage-opt lowering and import passes ---------*- C++ -*-===//

#ifndef MIRAGE_TRANSFORMS_PASSES_H
#define MIRAGE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "Dialect/Graph/GraphOps.h"
#include "Superopt/Verification/EquivalenceVerifier.h"
#include "mlir/IR/Builders.h"

namespace mirage {
namespace superopt {
struct GpuTarget;
} // namespace superopt

#define GEN_PASS_DECL
#include "Transforms/Passes.h.inc"

/// The default schedule's rewrite patterns (graph op -> predefined kernel),
/// for passes that convert part of a function.
void populateGraphToKernelPatterns(mlir::RewritePatternSet &patterns);

/// Checks the verifier options the graph-optimizing passes share
/// (field-bits, scales, verify-time-limit); `error` starts a diagnostic
/// that names the pass.
mlir::LogicalResult
checkVerifierOptions(llvm::function_ref<mlir::InFlightDiagnostic()> error,
                     unsigned fieldBits, unsigned scales,
                     double verifyTimeLimit);

/// The verifier options those passes give the equivalence checks of their
/// results: the field's bits, the seed, the input scales and, when
/// `verifyTimeLimit` > 0, a stop after that many seconds.
superopt::VerifierOptions graphVerifierOptions(unsigned fieldBits,
                                               uint64_t seed, unsigned scales,
                                               double verifyTimeLimit);

/// Rule-based thread fusion of one block graph (--fuse-thread-chains).
void fuseBlockGraph(mlir::Block &graph);

/// Thread fusion of every graph-defined kernel of `func`, as the µGraph
/// passes apply it to their results. A kernel whose fused chains would
/// exceed the target's registers per thread (or its shared memory) is left
/// unfused, as the search costed it, and counted in `unfused`. A kernel whose
/// fused block graph the verifiers reject is left unfused too (a valid
/// µGraph stays valid), counted in `invalid` when given, and its verifier
/// message kept in `firstInvalid`.
mlir::LogicalResult
fuseThreadChainsWithinTarget(mlir::func::FuncOp func,
                             const superopt::GpuTarget &gpu,
                             unsigned &unfused, unsigned *invalid = nullptr,
                             std::string *firstInvalid = nullptr);

/// The thread level's scalar semantics as f32 arith/math ops
/// (ThreadToArith.cpp); block-to-gpu uses them for unfused elementwise ops.
mlir::Value buildScalarUnary(mlir::OpBuilder &b, mlir::Location loc,
                             UnaryKind kind, llvm::ArrayRef<double> params,
                             mlir::Value x);
mlir::Value buildScalarBinary(mlir::OpBuilder &b, mlir::Location loc,
                              BinaryKind kind, mlir::Value lhs,
                              mlir::Value rhs);
/// cond != 0 ? onTrue : onFalse (selectop).
mlir::Value buildScalarSelect(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value cond, mlir::Value onTrue,
                              mlir::Value onFalse);

/// Keeps `func`'s text in its `mirage.reference` attribute unless it has
/// one: the kernel-level program a GPU run is checked against, recorded by
/// the first lowering pass that leaves the reference interpreter's reach
/// (kernel-to-block, else block-to-gpu). Defined in BlockToGpu.cpp.
void recordReference(mlir::func::FuncOp func);

/// Registers the `mirage-to-ptx` pass pipeline (MirageToPtx.cpp).
void registerMirageToPtxPipeline();

#define GEN_PASS_REGISTRATION
#include "Transforms/Passes.h.inc"

} // namespace mirage

#endif // MIRAGE_TRANSFORMS_PASSES_H
