//===- Generalize.h - a candidate's most general shapes ---------*- C++ -*-===//
//
// Turns a candidate found at the fingerprint sizes into a rule with
// symbolic shapes (Generalize.cpp says how), and checks a rule's shapes at
// given sizes.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_GENERALIZE_H
#define MIRAGE_SUPEROPT_RULES_GENERALIZE_H

#include "mirage/Superopt/Rules/Candidates.h"
#include "mlir/Support/LogicalResult.h"

namespace mirage::rules {

/// The rule of a candidate, with symbolic shapes, its family and generic
/// sizes (distinct per symbol) at which both sides are valid. Nothing, with
/// the reason in `why`, if no such sizes exist.
std::optional<Rule> generalize(const Menu &menu, const Candidate &candidate,
                               std::string &why);

/// Whether every shape of both sides is valid and positive when the
/// dimension symbols take `sizes`, and the two sides' outputs have the same
/// shapes.
mlir::LogicalResult checkRuleShapes(const Rule &rule,
                                    llvm::ArrayRef<int64_t> sizes);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_GENERALIZE_H
