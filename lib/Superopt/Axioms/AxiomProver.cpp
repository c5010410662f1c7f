//===- AxiomProver.cpp - Z3 over the operator axioms ----------------------===//
//
// The only file that includes z3++.h. z3++ reports errors by throwing
// z3::exception while LLVM code is built without exceptions, so this file is
// compiled with -fexceptions and every entry point catches and converts to
// llvm::Error before returning.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Axioms/AxiomProver.h"
#include "mirage/Superopt/Axioms/OperatorAxioms.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include <cmath>
#include <optional>
#include <z3++.h>

using namespace mirage::superopt;

namespace {

/// One Z3 context holding the tensor sort, the operator functions and a
/// solver with the selected axioms asserted, each tracked by a Boolean named
/// after it so that unsat cores name the axioms.
class AxiomSolver {
public:
  explicit AxiomSolver(const ProverOptions &options)
      : tensor(ctx.uninterpreted_sort("T")), sorts(ctx), decls(ctx),
        solver(ctx) {
    sorts.push_back(tensor);
    for (const OperatorSignature &sig : getOperatorSignatures()) {
      z3::sort_vector domain(ctx);
      for (unsigned i = 0; i < sig.numIntAttrs; ++i)
        domain.push_back(ctx.int_sort());
      for (unsigned i = 0; i < sig.numRealAttrs; ++i)
        domain.push_back(ctx.real_sort());
      for (unsigned i = 0; i < sig.numOperands; ++i)
        domain.push_back(tensor);
      opIndex[sig.name] = decls.size();
      decls.push_back(ctx.function(sig.name.str().c_str(), domain, tensor));
    }
    z3::params params(ctx);
    params.set("timeout", options.timeoutMs);
    if (options.resourceLimit)
      params.set("rlimit", options.resourceLimit);
    if (options.ematchingOnly)
      params.set("mbqi", false);
    solver.set(params);
  }

  /// Asserts the axioms `options` selects; fails on an unknown name or an
  /// extra axiom that does not parse.
  llvm::Error assumeAxioms(const ProverOptions &options) {
    if (options.axioms.empty()) {
      for (const OperatorAxiom &axiom : getOperatorAxioms())
        if (llvm::Error e = assume(axiom.name, axiom.statement))
          return e;
    } else {
      for (const std::string &name : options.axioms) {
        const OperatorAxiom *axiom = lookupOperatorAxiom(name);
        if (!axiom)
          return llvm::createStringError("unknown axiom '" + name + "'");
        if (llvm::Error e = assume(axiom->name, axiom->statement))
          return e;
      }
    }
    for (size_t i = 0; i < options.extraAxioms.size(); ++i)
      if (llvm::Error e =
              assume("extra" + std::to_string(i), options.extraAxioms[i]))
        return e;
    return llvm::Error::success();
  }

  z3::expr translate(const Term &term) {
    if (term.isVariable())
      return ctx.constant(term.getName().str().c_str(), tensor);
    z3::expr_vector args(ctx);
    for (int64_t i : term.getIntAttrs())
      args.push_back(ctx.int_val(i));
    llvm::ArrayRef<std::string> symbols = term.getRealSymbols();
    for (auto [i, r] : llvm::enumerate(term.getRealAttrs())) {
      if (i < symbols.size() && !symbols[i].empty()) {
        llvm::StringRef text = symbols[i];
        std::optional<z3::expr> e = parseScalar(text);
        if (!e)
          throw z3::exception("malformed symbolic real");
        args.push_back(*e);
      } else {
        args.push_back(exactReal(r));
      }
    }
    for (const Term &operand : term.getOperands())
      args.push_back(translate(operand));
    return decls[opIndex.lookup(term.getName())](args);
  }

  /// Runs the solver and names the tracked assertions of an unsat core.
  SolverAnswer check(std::string &reason, std::vector<std::string> &core) {
    switch (solver.check()) {
    case z3::unsat: {
      z3::expr_vector labels = solver.unsat_core();
      for (unsigned i = 0; i < labels.size(); ++i)
        core.push_back(labels[i].decl().name().str());
      return SolverAnswer::Unsat;
    }
    case z3::sat:
      return SolverAnswer::Sat;
    case z3::unknown:
      reason = solver.reason_unknown();
      return SolverAnswer::Unknown;
    }
    llvm_unreachable("Z3 returned an invalid check result");
  }

  /// Parses an SMT-LIB expression over scalar symbols and numbers, with
  /// + - * (reals) and > >= < <= = and (formulas), as symbolic attributes
  /// and hypotheses write them. Consumes a prefix of `text`.
  std::optional<z3::expr> parseScalar(llvm::StringRef &text) {
    text = text.ltrim();
    if (text.empty())
      return std::nullopt;
    if (text.front() != '(') {
      size_t end = 0;
      while (end < text.size() && !llvm::isSpace(text[end]) &&
             text[end] != '(' && text[end] != ')')
        ++end;
      llvm::StringRef atom = text.take_front(end);
      text = text.drop_front(end);
      double number;
      if (!atom.getAsDouble(number) && std::isfinite(number))
        return exactReal(number);
      if (atom.empty() || !llvm::isAlpha(atom.front()))
        return std::nullopt;
      return ctx.real_const(atom.str().c_str());
    }
    text = text.drop_front().ltrim();
    size_t end = 0;
    while (end < text.size() && !llvm::isSpace(text[end]) && text[end] != '(')
      ++end;
    std::string op = text.take_front(end).str();
    text = text.drop_front(end);
    std::vector<z3::expr> args;
    while (true) {
      text = text.ltrim();
      if (text.empty())
        return std::nullopt;
      if (text.front() == ')') {
        text = text.drop_front();
        break;
      }
      std::optional<z3::expr> arg = parseScalar(text);
      if (!arg)
        return std::nullopt;
      args.push_back(*arg);
    }
    if (args.empty())
      return std::nullopt;
    z3::expr r = args[0];
    if (op == "-" && args.size() == 1)
      return -r;
    for (size_t i = 1; i < args.size(); ++i) {
      if (op == "+")
        r = r + args[i];
      else if (op == "-")
        r = r - args[i];
      else if (op == "*")
        r = r * args[i];
      else if (op == "and")
        r = r && args[i];
      else if (args.size() == 2 && op == ">")
        return args[0] > args[1];
      else if (args.size() == 2 && op == ">=")
        return args[0] >= args[1];
      else if (args.size() == 2 && op == "<")
        return args[0] < args[1];
      else if (args.size() == 2 && op == "<=")
        return args[0] <= args[1];
      else if (args.size() == 2 && op == "=")
        return args[0] == args[1];
      else
        return std::nullopt;
    }
    return r;
  }

  /// Asserts the caller's hypotheses about scalar symbols.
  llvm::Error assumeHypotheses(const ProverOptions &options) {
    for (const std::string &h : options.hypotheses) {
      llvm::StringRef text = h;
      std::optional<z3::expr> e = parseScalar(text);
      if (!e || !text.trim().empty() || !e->is_bool())
        return llvm::createStringError("hypothesis '" + h +
                                       "' is not a formula over scalars");
      solver.add(*e);
    }
    return llvm::Error::success();
  }

  z3::context ctx;
  z3::sort tensor;
  z3::sort_vector sorts;
  z3::func_decl_vector decls;
  z3::solver solver;

private:
  llvm::Error assume(llvm::StringRef label, llvm::StringRef statement) {
    // parse_string takes a script; the formula becomes its one assertion.
    std::string script = ("(assert " + statement + ")").str();
    z3::expr_vector parsed = ctx.parse_string(script.c_str(), sorts, decls);
    if (parsed.size() != 1)
      return llvm::createStringError("axiom '" + label +
                                     "' is not a single formula");
    solver.add(parsed[0], ctx.bool_const(label.str().c_str()));
    return llvm::Error::success();
  }

  /// The exact rational value of a finite double, so that Z3's arithmetic
  /// on scalars agrees with the doubles the terms carry.
  z3::expr exactReal(double r) {
    if (r == 0)
      return ctx.real_val(0);
    int exponent;
    double fraction = std::frexp(std::fabs(r), &exponent);
    // |r| = mantissa * 2^exponent with an integral 53-bit mantissa.
    uint64_t mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
    exponent -= 53;
    while ((mantissa & 1) == 0) {
      mantissa >>= 1;
      ++exponent;
    }
    unsigned width = 64 + static_cast<unsigned>(std::abs(exponent)) + 1;
    llvm::APInt numerator(width, mantissa), denominator(width, 1);
    if (exponent >= 0)
      numerator <<= exponent;
    else
      denominator <<= -exponent;
    std::string text = llvm::toString(numerator, 10, /*Signed=*/false) + "/" +
                       llvm::toString(denominator, 10, /*Signed=*/false);
    z3::expr magnitude = ctx.real_val(text.c_str());
    return r < 0 ? -magnitude : magnitude;
  }

  llvm::StringMap<unsigned> opIndex;
};

} // namespace

llvm::Expected<ProofResult>
mirage::superopt::proveEquation(const Term &lhs, const Term &rhs,
                                const ProverOptions &options) {
  try {
    AxiomSolver s(options);
    if (llvm::Error e = s.assumeAxioms(options))
      return std::move(e);
    if (llvm::Error e = s.assumeHypotheses(options))
      return std::move(e);
    s.solver.add(s.translate(lhs) != s.translate(rhs));
    ProofResult result;
    result.answer = s.check(result.reason, result.usedAxioms);
    if (result.answer == SolverAnswer::Sat)
      result.reason = "the axioms have a model in which the two sides differ";
    return result;
  } catch (const z3::exception &e) {
    return llvm::createStringError(llvm::Twine("Z3: ") + e.msg());
  }
}

llvm::Expected<ProofResult>
mirage::superopt::proveEquation(llvm::StringRef lhs, llvm::StringRef rhs,
                                const ProverOptions &options) {
  llvm::Expected<Term> l = parseTerm(lhs);
  if (!l)
    return l.takeError();
  llvm::Expected<Term> r = parseTerm(rhs);
  if (!r)
    return r.takeError();
  return proveEquation(*l, *r, options);
}

llvm::Expected<ConsistencyResult>
mirage::superopt::checkAxiomConsistency(const ProverOptions &options) {
  try {
    AxiomSolver s(options);
    if (llvm::Error e = s.assumeAxioms(options))
      return std::move(e);
    s.solver.add(s.ctx.constant("distinct_a", s.tensor) !=
                 s.ctx.constant("distinct_b", s.tensor));
    ConsistencyResult result;
    result.answer = s.check(result.reason, result.conflictingAxioms);
    return result;
  } catch (const z3::exception &e) {
    return llvm::createStringError(llvm::Twine("Z3: ") + e.msg());
  }
}
