//===- AxiomTerm.cpp - graph terms and their s-expression syntax ----------===//

#include "mirage/Superopt/Axioms/AxiomTerm.h"
#include "mirage/Superopt/Axioms/OperatorAxioms.h"
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

/// Whether `e` is a symbolic real: a symbol c<digits>, or a parenthesized
/// expression of +, - and * over symbols and numbers.
static bool isSymbolicReal(llvm::StringRef e) {
  e = e.trim();
  if (e.empty())
    return false;
  if (e.front() != '(') {
    if (!e.consume_front("c") || e.empty())
      return false;
    return llvm::all_of(e, [](char c) { return llvm::isDigit(c); });
  }
  if (e.back() != ')')
    return false;
  llvm::StringRef inner = e.drop_front().drop_back().trim();
  if (inner.empty() || !llvm::is_contained(llvm::StringRef("+-*"),
                                           inner.front()))
    return false;
  inner = inner.drop_front().trim();
  unsigned args = 0;
  while (!inner.empty()) {
    size_t end = 0;
    if (inner.front() == '(') {
      int depth = 0;
      for (; end < inner.size(); ++end) {
        depth += inner[end] == '(' ? 1 : inner[end] == ')' ? -1 : 0;
        if (depth == 0)
          break;
      }
      if (end == inner.size())
        return false;
      ++end;
    } else {
      while (end < inner.size() && !llvm::isSpace(inner[end]))
        ++end;
    }
    llvm::StringRef arg = inner.take_front(end);
    double number;
    if (!isSymbolicReal(arg) && arg.getAsDouble(number))
      return false;
    ++args;
    inner = inner.drop_front(end).trim();
  }
  return args >= 1;
}

llvm::Expected<Term> Term::applySymbolic(llvm::StringRef op,
                                         llvm::ArrayRef<int64_t> intAttrs,
                                         llvm::ArrayRef<std::string> realExprs,
                                         std::vector<Term> operands) {
  llvm::SmallVector<double, 1> numbers;
  llvm::SmallVector<std::string, 1> symbols;
  for (const std::string &e : realExprs) {
    double value;
    if (!llvm::StringRef(e).trim().getAsDouble(value)) {
      numbers.push_back(value);
      symbols.push_back("");
    } else if (isSymbolicReal(e)) {
      numbers.push_back(0);
      symbols.push_back(llvm::StringRef(e).trim().str());
    } else {
      return llvm::createStringError("'" + op + "' has the real attribute '" +
                                     e + "', neither a number nor a symbolic "
                                     "expression");
    }
  }
  llvm::Expected<Term> t = apply(op, intAttrs, numbers, std::move(operands));
  if (t)
    t->realSymbols = std::move(symbols);
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
  for (size_t i = 0; i < realAttrs.size(); ++i)
    os << ' '
       << (i < realSymbols.size() && !realSymbols[i].empty()
               ? realSymbols[i]
               : formatReal(realAttrs[i]));
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
         a.realSymbols == b.realSymbols && a.operands == b.operands;
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
    std::vector<std::string> realExprs;
    bool symbolic = false;
    for (unsigned i = 0; i < sig->numIntAttrs + sig->numRealAttrs; ++i) {
      skipSpace();
      size_t attrPos = pos;
      if (i >= sig->numIntAttrs && pos < text.size() &&
          (text[pos] == '(' || text[pos] == 'c')) {
        // A symbolic real: a symbol or a parenthesized expression.
        size_t end = pos;
        if (text[pos] == '(') {
          int depth = 0;
          for (; end < text.size(); ++end) {
            depth += text[end] == '(' ? 1 : text[end] == ')' ? -1 : 0;
            if (depth == 0)
              break;
          }
          if (end < text.size())
            ++end;
        } else {
          while (end < text.size() && !llvm::isSpace(text[end]) &&
                 text[end] != '(' && text[end] != ')')
            ++end;
        }
        llvm::StringRef expr = text.slice(pos, end);
        if (!isSymbolicReal(expr))
          return error(llvm::formatv("'{0}' expects a real attribute {1}", op,
                                     i + 1));
        pos = end;
        realExprs.push_back(expr.str());
        symbolic = true;
        continue;
      }
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
      if (isInt) {
        ints.push_back(intValue);
      } else {
        reals.push_back(realValue);
        realExprs.push_back(formatReal(realValue));
      }
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
        symbolic ? Term::applySymbolic(op, ints, realExprs, std::move(operands))
                 : Term::apply(op, ints, reals, std::move(operands));
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
