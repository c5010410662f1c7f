//===- CanonicalForm.h - one order per graph, up to isomorphism -*- C++ -*-===//
//
// A graph of enumerated ops has many topological orders. Its canonical
// order is the one whose serialization is lexicographically least, where an
// op serializes as its template, its scalar choice and its operands (the
// operands of add and mul sorted), an operand being a variable code or the
// position of the op that computes it. Because two distinct ops of one
// graph never serialize alike at the same position, the least order is
// found greedily: at each position, the ready op with the least
// serialization. So the enumeration extends only sequences that are their
// own canonical order, and each graph is generated once whatever order its
// independent ops were added in.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_CANONICALFORM_H
#define MIRAGE_SUPEROPT_RULES_CANONICALFORM_H

#include "mirage/Superopt/Rules/Enumeration.h"

namespace mirage::rules {

/// The serialization of op `op` when its operands sit where `ops`' current
/// order puts them: {template << 8 | scalar, operand codes...}.
llvm::SmallVector<uint32_t, 3> serializeOp(const Menu &menu, const EnumOp &op);

/// Whether the last op of `ops` keeps the sequence canonical, given that
/// the sequence without it is: no earlier position could have taken it
/// with a smaller serialization, and it duplicates no op. `ops` must be in
/// topological order.
bool extendsCanonically(const Menu &menu, llvm::ArrayRef<EnumOp> ops);

/// Whether `ops` is in its canonical order.
bool isCanonical(const Menu &menu, llvm::ArrayRef<EnumOp> ops);

/// `graph` with its ops in canonical order (operand and output codes
/// renumbered accordingly).
EnumGraph canonicalize(const Menu &menu, const EnumGraph &graph);

/// `graph` with its variables renamed by `rename` (old code -> new code;
/// codes not in the map are kept), then canonicalized.
EnumGraph renameVariables(const Menu &menu, const EnumGraph &graph,
                          llvm::ArrayRef<std::pair<uint8_t, uint8_t>> rename);

/// A total order on canonical graphs: fewer ops first, then serialization,
/// then outputs.
bool graphLess(const Menu &menu, const EnumGraph &a, const EnumGraph &b);
/// The serialization of a canonical graph, outputs included.
llvm::SmallVector<uint32_t, 16> serializeGraph(const Menu &menu,
                                               const EnumGraph &graph);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_CANONICALFORM_H
