//===- MirageAttributes.h - the discardable attributes mirage writes -*- C++ -*-===//
//
// The `mirage.*` attributes that passes leave on functions and arguments
// for later passes, tools and users to read. Each name is written here
// once, so that a writer and its readers cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_MIRAGEATTRIBUTES_H
#define MIRAGE_DIALECT_MIRAGEATTRIBUTES_H

#include "mirage/Target/KnownTargets.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mirage {

/// On the left-hand function of a rule file's rule: its evidence.
inline constexpr llvm::StringLiteral kRuleAttrName = "mirage.rule";
/// On a function that should equal another (the right-hand side of a rule,
/// a candidate under verification): the other's symbol.
inline constexpr llvm::StringLiteral kEquivalentToAttrName =
    "mirage.equivalent_to";
/// On a function argument: a weight, known before the run (folded ops on
/// weights cost nothing).
inline constexpr llvm::StringLiteral kWeightAttrName = "mirage.weight";
/// On a lowered function: the text of the last form the reference
/// interpreter runs, which GPU runs are checked against.
inline constexpr llvm::StringLiteral kReferenceAttrName = "mirage.reference";
/// On a lowered function's argument: the index of the result it holds.
inline constexpr llvm::StringLiteral kOutputAttrName = "mirage.output";
/// On a function a search rewrote: the target (an arch or product name of
/// the target database) whose cost model ranked its candidates. Lowering
/// uses it unless told otherwise. On `gpu.module @mirage_kernels`: the
/// arch block-to-gpu generated its kernels for.
inline constexpr llvm::StringLiteral kTargetAttrName = "mirage.target";

/// Whether `func` is part of a rule or a verification pair (the searches
/// leave such functions alone).
inline bool isRuleOrEquivalencePair(mlir::Operation *func) {
  return func->hasAttr(kRuleAttrName) || func->hasAttr(kEquivalentToAttrName);
}

/// Keeps `func`'s text in its `mirage.reference` attribute unless it has
/// one: the kernel-level program a GPU run is checked against, recorded by
/// the first lowering pass that leaves the reference interpreter's reach
/// (kernel-to-block, else block-to-gpu, else kernel-to-gpu).
inline void recordReference(mlir::Operation *func) {
  if (func->hasAttr(kReferenceAttrName))
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "module {\n";
  func->print(os);
  os << "\n}\n";
  func->setAttr(kReferenceAttrName,
                mlir::StringAttr::get(func->getContext(), text));
}

/// The target `func` was searched for, or "" when none is recorded.
inline llvm::StringRef getSearchedTarget(mlir::Operation *func) {
  if (auto name = func->getAttrOfType<mlir::StringAttr>(kTargetAttrName))
    return name.getValue();
  return {};
}

/// Records that a search ranked `func`'s candidates for `target`.
inline void setSearchedTarget(mlir::Operation *func, llvm::StringRef target) {
  func->setAttr(kTargetAttrName,
                mlir::StringAttr::get(func->getContext(), target));
}

/// The target to lower `func` for: `option` when given, else the target
/// its search recorded, else target::kDefaultTarget. When both are given
/// and name different chips, warns at `func` (`pass` names the option's
/// pass) unless `warn` is false: its µGraphs were chosen for another chip.
inline std::string resolveLoweringTarget(mlir::Operation *func,
                                         llvm::StringRef option,
                                         llvm::StringRef pass,
                                         bool warn = true) {
  llvm::StringRef searched = getSearchedTarget(func);
  if (option.empty())
    return (searched.empty() ? llvm::StringRef(target::kDefaultTarget)
                             : searched)
        .str();
  if (warn && !searched.empty() && !searched.equals_insensitive(option)) {
    // A product and its arch's reference product are the same chip.
    llvm::Expected<const target::TargetInfo &> a = target::lookupTarget(option);
    llvm::Expected<const target::TargetInfo &> b =
        target::lookupTarget(searched);
    bool same = a && b && &*a == &*b;
    if (!a)
      llvm::consumeError(a.takeError());
    if (!b)
      llvm::consumeError(b.takeError());
    if (!same)
      mlir::emitWarning(func->getLoc())
          << pass << ": lowering for target '" << option
          << "', but the function was searched for '" << searched
          << "' (its µGraphs were ranked by that chip's cost model); "
             "leave `target` unset to lower for the searched target";
  }
  return option.str();
}

/// The one target to lower all of `module`'s functions for (a module's
/// kernels share one gpu.module and one #nvvm.target): `option` when given
/// (warning at each function searched for another), else the target its
/// searched functions agree on, else target::kDefaultTarget. An error at
/// the module when they disagree.
inline mlir::FailureOr<std::string>
resolveModuleLoweringTarget(mlir::Operation *module, llvm::StringRef option,
                            llvm::StringRef pass) {
  std::string chosen = option.str();
  std::string searchedBy; // "@f: sm_80, @g: sm_90"
  bool disagree = false;
  for (mlir::Region &region : module->getRegions())
    for (mlir::Operation &op : region.getOps()) {
      llvm::StringRef searched = getSearchedTarget(&op);
      if (searched.empty() || !llvm::isa<mlir::FunctionOpInterface>(op))
        continue;
      if (!option.empty()) {
        (void)resolveLoweringTarget(&op, option, pass);
        continue;
      }
      auto name = op.getAttrOfType<mlir::StringAttr>("sym_name");
      if (!searchedBy.empty())
        searchedBy += ", ";
      searchedBy += "@" + (name ? name.getValue() : "?").str() + ": " +
                    searched.str();
      if (chosen.empty())
        chosen = searched.str();
      else if (!llvm::StringRef(chosen).equals_insensitive(searched))
        disagree = true;
    }
  if (disagree)
    return mlir::emitError(module->getLoc())
           << pass << ": the functions were searched for different targets ("
           << searchedBy << "), and one module is lowered for one target: "
           << "give `target`";
  return chosen.empty() ? target::kDefaultTarget.str() : chosen;
}

} // namespace mirage

#endif // MIRAGE_DIALECT_MIRAGEATTRIBUTES_H
