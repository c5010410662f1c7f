//===- OperatorAxioms.h - TASO-style axioms of graph ops --------*- C++ -*-===//
//
// The algebraic properties of the graph dialect's operators, stated the way
// TASO (SOSP'19) stated them: tensors are elements of one uninterpreted sort
// T (shapes are not modelled), each operator is an uninterpreted function over
// T with its integer attributes (axes) as Int and real ones (scalars) as Real
// arguments, and each property is a closed first-order formula over those
// functions. A substitution is correct when Z3 proves its two sides equal
// from the axioms (AxiomProver.h).
//
// Because shapes are not modelled, an axiom is only sound for the shapes its
// side conditions allow (the concat axioms assume the pieces line up; the
// matmul axioms with a concrete axis are about rank-2 operands). Each axiom
// therefore carries a concrete instance on small shapes that the reference
// interpreter checks (AxiomChecker.h); the table is in docs/Axioms.md.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_OPERATORAXIOMS_H
#define MIRAGE_SUPEROPT_OPERATORAXIOMS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mirage::superopt {

/// An operator of the axioms' term language. Names are the graph dialect's
/// mnemonics, except that graph.split's two results are the operators
/// split_0 and split_1 (split at the boundary of the concat the axioms pair
/// them with). In a term and in Z3 its arguments come in this order: the
/// integer attributes, the real attributes, then the tensor operands.
struct OperatorSignature {
  llvm::StringRef name;
  unsigned numIntAttrs;
  unsigned numRealAttrs;
  unsigned numOperands;
  llvm::StringRef doc;
};

/// Every operator the terms and axioms may use.
llvm::ArrayRef<OperatorSignature> getOperatorSignatures();

/// The signature named `name`, or null.
const OperatorSignature *lookupOperatorSignature(llvm::StringRef name);

/// One axiom: a closed formula in SMT-LIB 2 syntax over the sort T, Int,
/// Real and the operators of getOperatorSignatures(), and a concrete instance
/// of it for the checker.
struct OperatorAxiom {
  /// A unique snake_case identifier (also the name of its unsat-core label).
  llvm::StringRef name;
  /// One line saying what the axiom states.
  llvm::StringRef doc;
  /// The formula Z3 assumes, e.g.
  /// "(forall ((x T) (y T)) (= (add x y) (add y x)))".
  llvm::StringRef statement;
  /// MLIR source with two graph-dialect functions @lhs and @rhs of the same
  /// type that the axiom says compute the same tensor.
  llvm::StringRef instance;
  /// The checker draws each input element uniformly from [inputLow,
  /// inputHigh]: small for exp, positive for sqrt, away from 0 for division.
  double inputLow;
  double inputHigh;
};

/// Every axiom, in the order of docs/Axioms.md: the original table, then
/// getMenuAxioms().
llvm::ArrayRef<OperatorAxiom> getOperatorAxioms();

/// The axioms the substitution rules' menu needs beyond the original table
/// (scalar_add, elementwise ops through concat/split/transpose, sums of
/// concats, convolution, pooling); MenuAxioms.cpp.
llvm::ArrayRef<OperatorAxiom> getMenuAxioms();

/// The axiom named `name`, or null.
const OperatorAxiom *lookupOperatorAxiom(llvm::StringRef name);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_OPERATORAXIOMS_H
