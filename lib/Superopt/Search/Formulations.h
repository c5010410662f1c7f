//===- Formulations.h - a subprogram's alternative kernel graphs -*- C++ -*-===//
//
// The bridge between a search target (SearchTarget.h) and the kernel-level
// enumeration (Superopt/Search/KernelGraphs.h): the target's inputs, goals
// and op menu as kernel-graph tensors, and each enumerated kernel graph
// built back as a function of predefined kernels with the subprogram's
// signature, ready for the block-level search.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SUPEROPT_FORMULATIONS_H
#define MIRAGE_LIB_SUPEROPT_FORMULATIONS_H

#include "SearchTarget.h"
#include "mirage/Superopt/Search/KernelGraphs.h"
#include "mlir/IR/BuiltinOps.h"

namespace mirage::superopt {

/// Why the kernel-level enumeration does not apply to a target (an op
/// outside its menu: a reshape that merges or splits dimensions, a max,
/// ...; or a transpose SearchTarget makes an atom), or empty when it does.
std::string formulationsUnsupported(const SearchTarget &target);

struct Formulations {
  /// Functions of predefined kernels in the scratch module, with the
  /// target's signature, in enumeration order; the target's own formulation
  /// is not among them.
  llvm::SmallVector<mlir::func::FuncOp> functions;
  /// Their kernel graphs, for the remarks.
  llvm::SmallVector<std::string> descriptions;
  /// `counts.own`: complete graphs dropped as the program's own
  /// formulation (the same set of abstract expressions).
  KernelGraphCounts counts;
};

/// Enumerates the alternative formulations of `target` (which must be
/// supported) and builds them in `scratch`, named after `target.func`.
Formulations enumerateFormulations(const SearchTarget &target,
                                   mlir::ModuleOp scratch,
                                   const KernelGraphLimits &limits);

} // namespace mirage::superopt

#endif // MIRAGE_LIB_SUPEROPT_FORMULATIONS_H
