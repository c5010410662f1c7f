//===- Reference.h - the reference program of a manifest function -*- C++
//-*-===//
//
// A manifest function's "reference" is its kernel-level MLIR before
// lowering. It is parsed here, checked against the function's buffers (one
// argument per input and one result per output, with the buffer's shape
// and dtype), and run in the fp64 interpreter to give the values the GPU's
// outputs are compared with. Diagnostics point into the reference text,
// named "<manifest>:functions[i].reference".
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_REFERENCE_H
#define MIRAGE_RUNTIME_REFERENCE_H

#include "mirage/Runtime/Manifest.h"
#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include <memory>

namespace mlir {
class SourceMgrDiagnosticHandler;
} // namespace mlir

namespace mirage::gpurun {

class Reference {
public:
  /// Parses and checks `function`'s reference; on failure the diagnostics
  /// have been printed to stderr. `context` must have the Mirage dialects
  /// and func registered, and outlive the result.
  static mlir::FailureOr<std::unique_ptr<Reference>>
  load(mlir::MLIRContext &context, const Manifest &manifest,
       const Function &function);
  ~Reference();

  /// The bound an index argument's values are drawn below: the smallest
  /// extent any of its uses indexes (gather's data along its axis,
  /// one_hot's depth), as the verifier draws them.
  int64_t indexBound(unsigned argNumber) const;

  /// Runs the reference in fp64 on `inputs` (one per argument).
  mlir::FailureOr<llvm::SmallVector<superopt::RealTensor>>
  run(llvm::ArrayRef<superopt::RealTensor> inputs);

private:
  Reference() = default;

  std::shared_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
};

} // namespace mirage::gpurun

#endif // MIRAGE_RUNTIME_REFERENCE_H
