//===- AxiomTerm.h - small graph terms for the axiom prover -----*- C++ -*-===//
//
// A term is a tree of operators from getOperatorSignatures() whose leaves
// are named tensor variables. Written as an s-expression, an application
// lists the operator, its integer attributes, its real attributes and then
// its operands, the order the operator's Z3 function takes them in:
//
//   (matmul (add x y) z)
//   (scalar_mul 2.5 (reduce_sum 1 x))
//   (concat 0 (split_0 0 x) (split_1 0 x))
//
// A real attribute may also be symbolic: a scalar symbol or an SMT-LIB
// expression over symbols, as a substitution rule's scalars are
// ("(scalar_mul c0 x)", "(scalar_mul (* c0 c1) x)"). Symbols are named
// c<digits> and stand for the same real wherever they occur in a proof.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_AXIOMTERM_H
#define MIRAGE_SUPEROPT_AXIOMTERM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mirage::superopt {

class Term {
public:
  /// A tensor variable; `name` is an identifier ([A-Za-z_][A-Za-z0-9_]*).
  static llvm::Expected<Term> variable(llvm::StringRef name);

  /// `op` applied to attributes and operands; fails unless their numbers
  /// match the operator's signature and every real attribute is finite.
  static llvm::Expected<Term> apply(llvm::StringRef op,
                                    llvm::ArrayRef<int64_t> intAttrs,
                                    llvm::ArrayRef<double> realAttrs,
                                    std::vector<Term> operands);

  bool isVariable() const { return variable_; }
  /// The variable's name, or the operator's name.
  llvm::StringRef getName() const { return name; }
  llvm::ArrayRef<int64_t> getIntAttrs() const { return intAttrs; }
  llvm::ArrayRef<double> getRealAttrs() const { return realAttrs; }
  llvm::ArrayRef<Term> getOperands() const { return operands; }

  /// `op` applied to attributes and operands, with symbolic real
  /// attributes: `realExprs[i]` is an SMT-LIB real expression over scalar
  /// symbols ("c0", "(* c0 c1)", "(+ c0 c1)") or a number.
  static llvm::Expected<Term> applySymbolic(llvm::StringRef op,
                                            llvm::ArrayRef<int64_t> intAttrs,
                                            llvm::ArrayRef<std::string> realExprs,
                                            std::vector<Term> operands);

  /// For each real attribute, its symbolic expression, or "" for a number.
  llvm::ArrayRef<std::string> getRealSymbols() const { return realSymbols; }

  /// The s-expression; parseTerm(t.str()) gives t back.
  std::string str() const;

  friend bool operator==(const Term &a, const Term &b);
  friend bool operator!=(const Term &a, const Term &b) { return !(a == b); }

private:
  Term() = default;

  bool variable_ = false;
  std::string name;
  llvm::SmallVector<int64_t, 1> intAttrs;
  llvm::SmallVector<double, 1> realAttrs;
  llvm::SmallVector<std::string, 1> realSymbols;
  std::vector<Term> operands;
};

/// Structural equality; real attributes compare as doubles.
bool operator==(const Term &a, const Term &b);

/// Parses one term written as above; the error names the offending position.
llvm::Expected<Term> parseTerm(llvm::StringRef text);

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_AXIOMTERM_H
