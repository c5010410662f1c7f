//===- AxiomTerm.cpp - graph terms and their s-expression syntax ----------===//

#include "Superopt/Axioms/AxiomTerm.h"
#include "Superopt/Axioms/OperatorAxioms.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mirage::superopt;

static bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s.front()) || s.front() == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

llvm::Expected<Term> Term::variable(llvm::StringRef name) {
  if (!isIdentifier(name))
    return llvm::createStringError("'" + name +
                                   "' is not a valid variable name");
  Term t;
  t.variable_ = true;
  t.name = name.str();
  return t;
}

llvm::Expected<Term> Term::apply(llvm::StringRef op,
                                 llvm::ArrayRef<int64_t> intAttrs,
                                 llvm::ArrayRef<double> realAttrs,
                                 std::vector<Term> operands) {
  const OperatorSignature *sig = lookupOperatorSignature(op);
  if (!sig)
    return llvm::createStringError("unknown operator '" + op + "'");
  if (intAttrs.size() != sig->numIntAttrs ||
      realAttrs.size() != sig->numRealAttrs ||
      operands.size() != sig->numOperands)
    return llvm::createStringError(
        llvm::formatv("'{0}' takes {1} integer attribute(s), {2} real "
                      "attribute(s) and {3} operand(s), got {4}, {5} and {6}",
                      op, sig->numIntAttrs, sig->numRealAttrs, sig->numOperands,
                      intAttrs.size(), realAttrs.size(), operands.size())
            .str());
  for (double r : realAttrs)
    if (!std::isfinite(r))
      return llvm::createStringError("'" + op +
                                     "' has a non-finite real attribute");
  Term t;
  t.name = op.str();
  t.intAttrs.assign(intAttrs.begin(), intAttrs.end());
  t.realAttrs.assign(realAttrs.begin(), realAttrs.end());
  t.operands = std::move(operands);
  return t;
}

/// The shortest decimal that reads back as `r`, so that str() round-trips.
static std::string formatReal(double r) {
  char buffer[32];
  for (int precision = 1;; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, r);
    if (precision >= 17 || std::strtod(buffer, nullptr) == r)
      return buffer;
  }
}

std::string Term::str() const {
  if (variable_)
    return name;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '(' << name;
  for (int64_t i : intAttrs)
    os << ' ' << i;
  for (double r : realAttrs)
    os << ' ' << formatReal(r);
  for (const Term &operand : operands)
    os << ' ' << operand.str();
  os << ')';
  return s;
}

bool mirage::superopt::operator==(const Term &a, const Term &b) {
  // Real attributes compare bitwise-equal as doubles: the prover gives Z3
  // each one's exact value, so only identical doubles are the same constant.
  return a.variable_ == b.variable_ && a.name == b.name &&
         a.intAttrs == b.intAttrs && a.realAttrs == b.realAttrs &&
         a.operands == b.operands;
}

namespace {

/// Recursive descent over the tokens '(' , ')' and atoms.
class TermParser {
public:
  explicit TermParser(llvm::StringRef text) : text(text) {}

  llvm::Expected<Term> parseAll() {
    llvm::Expected<Term> term = parse();
    if (!term)
      return term.takeError();
    skipSpace();
    if (pos != text.size())
      return error("trailing input");
    return term;
  }

private:
  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  llvm::StringRef atom() {
    size_t begin = pos;
    while (pos < text.size() && !llvm::isSpace(text[pos]) && text[pos] != '(' &&
           text[pos] != ')')
      ++pos;
    return text.slice(begin, pos);
  }

  llvm::Error error(const llvm::Twine &message) const {
    return llvm::createStringError(
        llvm::formatv("{0} at offset {1} of '{2}'", message.str(), pos, text)
            .str());
  }

  llvm::Expected<Term> parse() {
    skipSpace();
    if (pos == text.size())
      return error("expected a term");
    if (text[pos] == ')')
      return error("unexpected ')'");
    if (text[pos] != '(') {
      size_t begin = pos;
      llvm::StringRef name = atom();
      if (!isIdentifier(name)) {
        pos = begin;
        return error("expected a variable name or '('");
      }
      return Term::variable(name);
    }
    ++pos;
    skipSpace();
    size_t opPos = pos;
    llvm::StringRef op = atom();
    const OperatorSignature *sig = lookupOperatorSignature(op);
    if (!sig) {
      pos = opPos;
      return error("unknown operator '" + op + "'");
    }
    llvm::SmallVector<int64_t, 1> ints;
    llvm::SmallVector<double, 1> reals;
    for (unsigned i = 0; i < sig->numIntAttrs + sig->numRealAttrs; ++i) {
      skipSpace();
      size_t attrPos = pos;
      llvm::StringRef literal = atom();
      bool isInt = i < sig->numIntAttrs;
      int64_t intValue;
      double realValue;
      // getAsInteger and getAsDouble return true on failure.
      if (isInt ? literal.getAsInteger(10, intValue)
                : literal.getAsDouble(realValue)) {
        pos = attrPos;
        return error(llvm::formatv("'{0}' expects {1} attribute {2}", op,
                                   isInt ? "an integer" : "a real", i + 1));
      }
      if (isInt)
        ints.push_back(intValue);
      else
        reals.push_back(realValue);
    }
    std::vector<Term> operands;
    while (true) {
      skipSpace();
      if (pos == text.size())
        return error("missing ')'");
      if (text[pos] == ')')
        break;
      llvm::Expected<Term> operand = parse();
      if (!operand)
        return operand.takeError();
      operands.push_back(std::move(*operand));
    }
    llvm::Expected<Term> term =
        Term::apply(op, ints, reals, std::move(operands));
    if (!term)
      return error(llvm::toString(term.takeError()));
    ++pos;
    return term;
  }

  llvm::StringRef text;
  size_t pos = 0;
};

} // namespace

llvm::Expected<Term> mirage::superopt::parseTerm(llvm::StringRef text) {
  return TermParser(text).parseAll();
}
