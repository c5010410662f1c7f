//===- LiftedConstants.h - constants the importers lift ---------*- C++ -*-===//
//
// The graph dialect has no tensor constants. The importers (Passes.h) turn
// every constant tensor a graph op uses into a trailing function argument
// carrying this argument attribute, whose value is the constant's
// ElementsAttr; tools that run a function (mirage-run) supply it from there.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_IMPORTERS_LIFTEDCONSTANTS_H
#define MIRAGE_IMPORTERS_LIFTEDCONSTANTS_H

#include "llvm/ADT/StringRef.h"

namespace mirage {
constexpr llvm::StringLiteral kLiftedConstantAttr = "mirage.lifted_constant";
} // namespace mirage

#endif // MIRAGE_IMPORTERS_LIFTEDCONSTANTS_H
