//===- AxiomProver.h - prove term equations from the axioms -----*- C++ -*-===//
//
// Proves lhs = rhs between two terms the way TASO verified substitutions:
// Z3 is given the operator axioms (OperatorAxioms.h) and lhs != rhs over
// fresh tensor constants for the variables; unsat means the equation follows
// from the axioms. Each call uses its own Z3 context, so calls on different
// threads are independent. Z3 and its exceptions stay inside the library.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_AXIOMPROVER_H
#define MIRAGE_SUPEROPT_AXIOMPROVER_H

#include "mirage/Superopt/Axioms/AxiomTerm.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mirage::superopt {

struct ProverOptions {
  /// Z3's time limit for one check, in milliseconds.
  unsigned timeoutMs = 5000;
  /// Z3's resource limit for one check (0: none). Unlike the time limit it
  /// counts Z3's own steps, so whether a proof finishes within it does not
  /// depend on the machine or its load.
  unsigned resourceLimit = 0;
  /// Instantiate quantifiers by E-matching only (no model-based
  /// instantiation): a proof is found as fast, and an equation the axioms
  /// do not imply gives up soon instead of running to the limit.
  bool ematchingOnly = false;
  /// The axioms to assume, by name; empty means all of getOperatorAxioms().
  std::vector<std::string> axioms;
  /// Further closed SMT-LIB formulas over T, Int, Real and the operators to
  /// assume, e.g. substitutions verified earlier, used as lemmas.
  std::vector<std::string> extraAxioms;
  /// Assumptions about the scalar symbols of symbolic real attributes, as
  /// SMT-LIB formulas over them and numbers ("(> c0 0)"): comparisons,
  /// +, - and *, and `and`.
  std::vector<std::string> hypotheses;
};

/// Z3's answer about the asserted formulas.
enum class SolverAnswer { Unsat, Sat, Unknown };

struct ProofResult {
  /// Z3's answer for axioms & lhs != rhs.
  SolverAnswer answer = SolverAnswer::Unknown;
  /// Why the equation was not proved: Z3's reason for unknown (e.g.
  /// "timeout"), or that the axioms have a model where the sides differ.
  std::string reason;
  /// When proved, a subset of the assumed axioms that suffices (Z3's unsat
  /// core, not necessarily minimal); extra axioms appear as "extra<i>".
  std::vector<std::string> usedAxioms;

  bool proved() const { return answer == SolverAnswer::Unsat; }
};

/// Tries to prove lhs = rhs. Fails (llvm::Error) only on bad input: an
/// unknown axiom name or an extra axiom Z3 cannot parse.
llvm::Expected<ProofResult> proveEquation(const Term &lhs, const Term &rhs,
                                          const ProverOptions &options = {});

/// Parses both sides with parseTerm and proves them equal.
llvm::Expected<ProofResult> proveEquation(llvm::StringRef lhs,
                                          llvm::StringRef rhs,
                                          const ProverOptions &options = {});

struct ConsistencyResult {
  SolverAnswer answer = SolverAnswer::Unknown;
  /// Z3's reason when the answer is unknown.
  std::string reason;
  /// When inconsistent, axioms that together are contradictory (unsat core).
  std::vector<std::string> conflictingAxioms;

  /// Unsat: the axioms contradict each other. Sat or unknown: no
  /// contradiction was found.
  bool inconsistent() const { return answer == SolverAnswer::Unsat; }
};

/// Checks the selected axioms (and extra axioms) for a contradiction.
/// Equational axioms over an uninterpreted sort always have the one-element
/// model, so two distinct tensor constants are asserted as well, so that
/// axioms that force every tensor to be equal count as inconsistent, like
/// ones that contradict the arithmetic of the axes and scalars. Z3 looks for
/// the contradiction through the axiom instances it builds, so sat or
/// unknown is evidence of consistency, not a proof of it.
llvm::Expected<ConsistencyResult>
checkAxiomConsistency(const ProverOptions &options = {});

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_AXIOMPROVER_H
