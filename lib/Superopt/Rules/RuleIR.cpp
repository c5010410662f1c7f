//===- RuleIR.cpp - op kinds, dimension and scalar expressions ------------===//

#include "mirage/Superopt/Rules/RuleIR.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace mirage::rules;

namespace {
struct KindInfo {
  OpKind kind;
  const char *mnemonic;
  unsigned operands, results;
  bool commutative, elementwise;
};
} // namespace

static const KindInfo kKinds[kNumOpKinds] = {
    {OpKind::Matmul, "matmul", 2, 1, false, false},
    {OpKind::Add, "add", 2, 1, true, true},
    {OpKind::Sub, "sub", 2, 1, false, true},
    {OpKind::Mul, "mul", 2, 1, true, true},
    {OpKind::ScalarMul, "scalar_mul", 1, 1, false, true},
    {OpKind::ScalarAdd, "scalar_add", 1, 1, false, true},
    {OpKind::Exp, "exp", 1, 1, false, true},
    {OpKind::Relu, "relu", 1, 1, false, true},
    {OpKind::Transpose, "transpose", 1, 1, false, false},
    {OpKind::Concat, "concat", 2, 1, false, false},
    {OpKind::Split, "split", 1, 2, false, false},
    {OpKind::ReduceSum, "reduce_sum", 1, 1, false, false},
    {OpKind::Conv2D, "conv2d", 2, 1, false, false},
    {OpKind::AvgPool2D, "avg_pool2d", 1, 1, false, false},
    {OpKind::MaxPool2D, "max_pool2d", 1, 1, false, false},
    {OpKind::Reshape, "reshape", 1, 1, false, false},
};

static const KindInfo &info(OpKind kind) {
  return kKinds[static_cast<unsigned>(kind)];
}

llvm::StringRef mirage::rules::getMnemonic(OpKind kind) {
  return info(kind).mnemonic;
}
std::optional<OpKind> mirage::rules::lookupOpKind(llvm::StringRef mnemonic) {
  for (const KindInfo &k : kKinds)
    if (mnemonic == k.mnemonic)
      return k.kind;
  return std::nullopt;
}
unsigned mirage::rules::getNumOperands(OpKind kind) {
  return info(kind).operands;
}
unsigned mirage::rules::getNumResults(OpKind kind) {
  return info(kind).results;
}
bool mirage::rules::isCommutative(OpKind kind) {
  return info(kind).commutative;
}
bool mirage::rules::isElementwise(OpKind kind) {
  return info(kind).elementwise;
}

//===----------------------------------------------------------------------===//
// DimExpr
//===----------------------------------------------------------------------===//

DimExpr DimExpr::literal(int64_t value) {
  DimExpr e;
  e.constant = value;
  return e;
}

DimExpr DimExpr::symbol(unsigned index) {
  DimExpr e;
  e.terms.push_back({index, 1});
  return e;
}

std::optional<unsigned> DimExpr::getSymbol() const {
  if (constant == 0 && terms.size() == 1 && terms[0].second == 1)
    return terms[0].first;
  return std::nullopt;
}

int64_t DimExpr::coefficient(unsigned symbol) const {
  for (auto [s, c] : terms)
    if (s == symbol)
      return c;
  return 0;
}

/// Merges two sorted term lists with factors, dropping zero coefficients.
static DimExpr combine(const DimExpr &a, const DimExpr &b, int64_t fb) {
  DimExpr r;
  r.constant = a.constant + fb * b.constant;
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    if (j == b.terms.size() ||
        (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      r.terms.push_back(a.terms[i++]);
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      r.terms.push_back({b.terms[j].first, fb * b.terms[j].second});
      ++j;
    } else {
      int64_t c = a.terms[i].second + fb * b.terms[j].second;
      if (c != 0)
        r.terms.push_back({a.terms[i].first, c});
      ++i;
      ++j;
    }
  }
  return r;
}

DimExpr DimExpr::operator+(const DimExpr &other) const {
  return combine(*this, other, 1);
}
DimExpr DimExpr::operator-(const DimExpr &other) const {
  return combine(*this, other, -1);
}
DimExpr DimExpr::scaled(int64_t factor) const {
  if (factor == 0)
    return literal(0);
  DimExpr r = *this;
  r.constant *= factor;
  for (auto &t : r.terms)
    t.second *= factor;
  return r;
}

DimExpr DimExpr::substitute(unsigned symbol, const DimExpr &value) const {
  int64_t c = coefficient(symbol);
  if (c == 0)
    return *this;
  DimExpr without = *this;
  llvm::erase_if(without.terms, [&](auto &t) { return t.first == symbol; });
  return without + value.scaled(c);
}

std::optional<int64_t>
DimExpr::evaluate(llvm::ArrayRef<std::optional<int64_t>> sizes) const {
  int64_t v = constant;
  for (auto [s, c] : terms) {
    if (s >= sizes.size() || !sizes[s])
      return std::nullopt;
    v += c * *sizes[s];
  }
  return v;
}

std::optional<int64_t> DimExpr::evaluate(llvm::ArrayRef<int64_t> sizes) const {
  int64_t v = constant;
  for (auto [s, c] : terms) {
    if (s >= sizes.size())
      return std::nullopt;
    v += c * sizes[s];
  }
  return v;
}

std::string DimExpr::str(llvm::ArrayRef<std::string> names) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  bool first = true;
  for (auto [sym, c] : terms) {
    if (c < 0)
      os << '-';
    else if (!first)
      os << '+';
    if (c != 1 && c != -1)
      os << (c < 0 ? -c : c) << '*';
    if (sym < names.size())
      os << names[sym];
    else
      os << '?' << sym;
    first = false;
  }
  if (constant != 0 || first) {
    if (!first && constant > 0)
      os << '+';
    os << constant;
  }
  return s;
}

std::optional<DimExpr> mirage::rules::parseDimExpr(
    llvm::StringRef text, std::vector<std::string> &names, bool addNew,
    std::string &error) {
  DimExpr result;
  llvm::StringRef rest = text.trim();
  if (rest.empty()) {
    error = "empty dimension expression";
    return std::nullopt;
  }
  bool firstTerm = true;
  while (!rest.empty()) {
    int64_t sign = 1;
    if (rest.front() == '+' || rest.front() == '-') {
      sign = rest.front() == '-' ? -1 : 1;
      rest = rest.drop_front().ltrim();
    } else if (!firstTerm) {
      error = ("expected '+' or '-' in '" + text + "'").str();
      return std::nullopt;
    }
    firstTerm = false;
    // A term: integer, symbol, or integer '*' symbol.
    size_t digits = 0;
    while (digits < rest.size() && llvm::isDigit(rest[digits]))
      ++digits;
    int64_t factor = 1;
    bool haveNumber = digits > 0;
    if (haveNumber) {
      if (rest.take_front(digits).getAsInteger(10, factor)) {
        error = ("number too large in '" + text + "'").str();
        return std::nullopt;
      }
      rest = rest.drop_front(digits).ltrim();
      if (!rest.starts_with("*")) {
        result.constant += sign * factor;
        continue;
      }
      rest = rest.drop_front().ltrim();
    }
    size_t len = 0;
    while (len < rest.size() &&
           (llvm::isAlnum(rest[len]) || rest[len] == '_'))
      ++len;
    if (len == 0 || llvm::isDigit(rest.front())) {
      error = ("expected a dimension symbol in '" + text + "'").str();
      return std::nullopt;
    }
    std::string name = rest.take_front(len).str();
    rest = rest.drop_front(len).ltrim();
    auto it = llvm::find(names, name);
    unsigned index;
    if (it != names.end()) {
      index = it - names.begin();
    } else if (addNew) {
      index = names.size();
      names.push_back(name);
    } else {
      error = "unknown dimension symbol '" + name + "'";
      return std::nullopt;
    }
    result = result + DimExpr::symbol(index).scaled(sign * factor);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// ScalarExpr
//===----------------------------------------------------------------------===//

double ScalarExpr::evaluate(llvm::ArrayRef<double> values) const {
  auto at = [&](unsigned i) { return i < values.size() ? values[i] : 0.0; };
  switch (kind) {
  case Kind::None:
    return 0;
  case Kind::Symbol:
    return at(a);
  case Kind::Product:
    return at(a) * at(b);
  case Kind::Sum:
    return at(a) + at(b);
  }
  return 0;
}

std::string ScalarExpr::str() const {
  auto name = [](unsigned i) { return "c" + std::to_string(i); };
  switch (kind) {
  case Kind::None:
    return "";
  case Kind::Symbol:
    return name(a);
  case Kind::Product:
    return name(a) + "*" + name(b);
  case Kind::Sum:
    return name(a) + "+" + name(b);
  }
  return "";
}

std::string ScalarExpr::smt() const {
  auto name = [](unsigned i) { return "c" + std::to_string(i); };
  switch (kind) {
  case Kind::None:
    return "0";
  case Kind::Symbol:
    return name(a);
  case Kind::Product:
    return "(* " + name(a) + " " + name(b) + ")";
  case Kind::Sum:
    return "(+ " + name(a) + " " + name(b) + ")";
  }
  return "0";
}

std::optional<ScalarExpr> mirage::rules::parseScalarExpr(llvm::StringRef text) {
  auto symbolIndex = [](llvm::StringRef s) -> std::optional<unsigned> {
    s = s.trim();
    unsigned i;
    if (!s.consume_front("c") || s.empty() || s.getAsInteger(10, i) || i > 7)
      return std::nullopt;
    return i;
  };
  for (char op : {'*', '+'}) {
    auto [l, r] = text.split(op);
    if (r.empty() && !text.contains(op))
      continue;
    auto a = symbolIndex(l), b = symbolIndex(r);
    if (!a || !b)
      return std::nullopt;
    return op == '*' ? ScalarExpr::product(*a, *b) : ScalarExpr::sum(*a, *b);
  }
  if (auto a = symbolIndex(text))
    return ScalarExpr::symbol(*a);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

llvm::StringRef mirage::rules::stringify(ProofStatus status) {
  switch (status) {
  case ProofStatus::NotTried:
    return "not-tried";
  case ProofStatus::Proved:
    return "proved";
  case ProofStatus::NotProved:
    return "not-proved";
  case ProofStatus::Error:
    return "error";
  }
  return "error";
}

std::optional<ProofStatus>
mirage::rules::parseProofStatus(llvm::StringRef text) {
  for (ProofStatus s : {ProofStatus::NotTried, ProofStatus::Proved,
                        ProofStatus::NotProved, ProofStatus::Error})
    if (text == stringify(s))
      return s;
  return std::nullopt;
}

static void describeRef(llvm::raw_ostream &os, const PatternSide &side,
                        PatternRef ref);

static void describeOp(llvm::raw_ostream &os, const PatternSide &side,
                       const PatternOp &op, unsigned result) {
  if (op.kind == OpKind::Split)
    os << "(split_" << result;
  else
    os << '(' << getMnemonic(op.kind);
  for (int64_t i : op.ints)
    os << ' ' << i;
  if (op.scalar.kind != ScalarExpr::Kind::None)
    os << ' ' << op.scalar.str();
  for (PatternRef operand : op.operands) {
    os << ' ';
    describeRef(os, side, operand);
  }
  os << ')';
}

static void describeRef(llvm::raw_ostream &os, const PatternSide &side,
                        PatternRef ref) {
  if (ref.isVariable()) {
    os << 'x' << ref.index;
    return;
  }
  describeOp(os, side, side.ops[ref.op], ref.index);
}

std::string mirage::rules::describeSide(const Rule &, const PatternSide &side) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(side.outputs, os,
                        [&](PatternRef r) { describeRef(os, side, r); });
  return s;
}

std::optional<std::string> mirage::rules::validateRule(const Rule &rule) {
  auto checkDim = [&](const DimExpr &e) -> bool {
    return llvm::all_of(e.terms, [&](auto &t) {
      return t.first < rule.dimNames.size();
    });
  };
  for (auto [i, var] : llvm::enumerate(rule.variables))
    for (const DimExpr &d : var.shape)
      if (!checkDim(d))
        return "variable x" + std::to_string(i) +
               " uses an unknown dimension symbol";
  for (bool right : {false, true}) {
    const PatternSide &side = rule.side(right);
    const char *name = right ? "rhs" : "lhs";
    auto checkRef = [&](PatternRef ref, size_t before) -> bool {
      if (ref.isVariable())
        return ref.index < rule.variables.size();
      return static_cast<size_t>(ref.op) < before &&
             ref.index < getNumResults(side.ops[ref.op].kind);
    };
    for (auto [i, op] : llvm::enumerate(side.ops)) {
      if (op.operands.size() != getNumOperands(op.kind))
        return std::string(name) + " op " + std::to_string(i) + " (" +
               getMnemonic(op.kind).str() + ") has the wrong operand count";
      for (PatternRef ref : op.operands)
        if (!checkRef(ref, i))
          return std::string(name) + " op " + std::to_string(i) +
                 " reads a value that is not defined before it";
      for (const DimExpr &d : op.shape)
        if (!checkDim(d))
          return std::string(name) + " op " + std::to_string(i) +
                 " uses an unknown dimension symbol";
      bool scalarOp =
          op.kind == OpKind::ScalarMul || op.kind == OpKind::ScalarAdd;
      if (scalarOp != (op.scalar.kind != ScalarExpr::Kind::None))
        return std::string(name) + " op " + std::to_string(i) +
               (scalarOp ? " needs a scalar" : " cannot have a scalar");
      if (scalarOp && (op.scalar.a >= rule.numScalars ||
                       (op.scalar.kind != ScalarExpr::Kind::Symbol &&
                        op.scalar.b >= rule.numScalars)))
        return std::string(name) + " op " + std::to_string(i) +
               " uses an unknown scalar symbol";
    }
    if (side.outputs.empty())
      return std::string(name) + " has no output";
    for (PatternRef ref : side.outputs)
      if (!checkRef(ref, side.ops.size()))
        return std::string(name) + " yields an undefined value";
  }
  if (rule.lhs.outputs.size() != rule.rhs.outputs.size())
    return std::string("the two sides yield different numbers of values");
  return std::nullopt;
}

bool mirage::rules::solveSizes(
    llvm::ArrayRef<std::pair<const DimExpr *, int64_t>> facts,
    llvm::MutableArrayRef<std::optional<int64_t>> sizes) {
  bool progress = true;
  while (progress) {
    progress = false;
    for (auto [e, value] : facts) {
      int64_t known = e->constant, coeff = 0;
      unsigned unknown = 0, symbol = 0;
      for (auto [s, c] : e->terms) {
        if (s >= sizes.size())
          return false;
        if (sizes[s]) {
          known += c * *sizes[s];
        } else {
          ++unknown;
          symbol = s;
          coeff = c;
        }
      }
      if (unknown == 0) {
        if (known != value)
          return false;
      } else if (unknown == 1 && (coeff == 1 || coeff == -1)) {
        sizes[symbol] = (value - known) * coeff;
        progress = true;
      }
    }
  }
  return true;
}

llvm::SmallVector<bool, 8>
mirage::rules::determinedSymbols(const Rule &rule, const PatternSide &side) {
  // Solve with a stand-in size for every fact: only which symbols get fixed
  // matters. Literal dims (a kernel's 3x3, a bias's 1s) fix no symbol and
  // would contradict the stand-in: left out (a literal dim before a
  // variable's other dims once stopped the solving early, so that rules
  // with a 1x1 or 3x3 weight concatenated along its output channels were
  // dropped as undetermined).
  std::vector<std::pair<const DimExpr *, int64_t>> facts;
  auto note = [&](const DimExpr &e) {
    if (!e.terms.empty())
      facts.push_back({&e, 0});
  };
  for (const RuleVariable &v : rule.variables)
    for (const DimExpr &e : v.shape)
      note(e);
  for (const PatternOp &op : side.ops)
    if (op.kind == OpKind::Split || op.kind == OpKind::Reshape)
      for (const DimExpr &e : op.shape)
        note(e);
  llvm::SmallVector<std::optional<int64_t>, 8> sizes(rule.dimNames.size());
  solveSizes(facts, sizes);
  llvm::SmallVector<bool, 8> known;
  for (auto &s : sizes)
    known.push_back(s.has_value());
  return known;
}
