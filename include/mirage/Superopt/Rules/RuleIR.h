//===- RuleIR.h - graph substitution rules and their patterns ---*- C++ -*-===//
//
// A substitution rule (TASO, SOSP'19) says that two small graphs of graph-
// dialect ops compute the same tensors from the same variables. Its sides
// are patterns: ops of the rule menu (OpKind) whose operands are variables
// or results of earlier ops of the same side. What makes a rule apply to
// more than one program is written symbolically:
//
//  - each variable has a shape of dimension expressions (DimExpr) over
//    dimension symbols ("a", "b+c", "1"): the rule's shape constraints;
//  - a scalar_mul or scalar_add carries a scalar expression (ScalarExpr)
//    over scalar symbols ("c0", "c0*c1");
//  - a split's sizes and a reshape's target shape are dimension
//    expressions as well.
//
// Matching binds the symbols to a program's sizes and constants; building
// the other side evaluates them. The same structures describe the rules
// the discovery writes and the rule files the passes read (RuleFile.h).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_RULEIR_H
#define MIRAGE_SUPEROPT_RULES_RULEIR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mirage::rules {

/// The graph-dialect ops rules are written in. Every other op of a program
/// is opaque to the rules: it can be bound to a variable, never matched.
enum class OpKind : uint8_t {
  Matmul,
  Add,
  Sub,
  Mul,
  ScalarMul,
  ScalarAdd,
  Exp,
  Relu,
  Transpose,
  Concat,
  Split,
  ReduceSum,
  Conv2D,
  AvgPool2D,
  MaxPool2D,
  Reshape,
};
constexpr unsigned kNumOpKinds = 16;

/// The graph dialect's mnemonic ("matmul", "scalar_mul", "avg_pool2d", ...).
llvm::StringRef getMnemonic(OpKind kind);
/// The kind of a mnemonic, or nothing.
std::optional<OpKind> lookupOpKind(llvm::StringRef mnemonic);
/// Operands and results of an op of the kind (a rule's concat and split are
/// two-way).
unsigned getNumOperands(OpKind kind);
unsigned getNumResults(OpKind kind);
/// add and mul: a match may swap their operands.
bool isCommutative(OpKind kind);
/// Ops whose value at a position depends only on the operands' values at
/// that position (after broadcasting).
bool isElementwise(OpKind kind);

/// Integer attributes of a pattern op, in a fixed layout per kind:
///   transpose: the permutation;
///   concat, split, reduce_sum: {dim};
///   conv2d: {stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, groups};
///   avg/max_pool2d: {kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w};
///   others: none.
using IntAttrs = llvm::SmallVector<int64_t, 7>;

//===----------------------------------------------------------------------===//
// Dimension expressions
//===----------------------------------------------------------------------===//

/// An integer linear form over dimension symbols: constant + sum of
/// coefficient * symbol. Concatenation adds sizes, convolution with
/// "same" padding keeps them, a reduction makes them 1, so linear forms are
/// all a rule's shapes need.
struct DimExpr {
  int64_t constant = 0;
  /// (symbol, coefficient), sorted by symbol, no zero coefficient.
  llvm::SmallVector<std::pair<unsigned, int64_t>, 2> terms;

  static DimExpr literal(int64_t value);
  static DimExpr symbol(unsigned index);

  bool isConstant() const { return terms.empty(); }
  /// A single symbol with coefficient 1 and no constant.
  std::optional<unsigned> getSymbol() const;
  int64_t coefficient(unsigned symbol) const;

  DimExpr operator+(const DimExpr &other) const;
  DimExpr operator-(const DimExpr &other) const;
  DimExpr scaled(int64_t factor) const;
  /// This expression with `symbol` replaced by `value`.
  DimExpr substitute(unsigned symbol, const DimExpr &value) const;
  /// The value under `sizes` (one per symbol), or nothing if a symbol it
  /// uses is unbound.
  std::optional<int64_t>
  evaluate(llvm::ArrayRef<std::optional<int64_t>> sizes) const;
  std::optional<int64_t> evaluate(llvm::ArrayRef<int64_t> sizes) const;

  /// "a", "a+b", "1", "a+b-c", "2*a+1"; `names` names the symbols.
  std::string str(llvm::ArrayRef<std::string> names) const;

  friend bool operator==(const DimExpr &a, const DimExpr &b) {
    return a.constant == b.constant && a.terms == b.terms;
  }
  friend bool operator!=(const DimExpr &a, const DimExpr &b) {
    return !(a == b);
  }
};

/// Parses DimExpr::str()'s syntax; symbols are looked up in (or, when
/// `addNew`, appended to) `names`. The error says what is wrong.
std::optional<DimExpr> parseDimExpr(llvm::StringRef text,
                                    std::vector<std::string> &names,
                                    bool addNew, std::string &error);

//===----------------------------------------------------------------------===//
// Scalar expressions
//===----------------------------------------------------------------------===//

/// The scalar of a scalar_mul or scalar_add in a rule: a scalar symbol, or
/// the sum or product of two (scalar_mul(c0, scalar_mul(c1, x)) is
/// scalar_mul(c0*c1, x)).
struct ScalarExpr {
  enum class Kind : uint8_t { None, Symbol, Product, Sum };
  Kind kind = Kind::None;
  uint8_t a = 0, b = 0;

  static ScalarExpr symbol(unsigned s) {
    return {Kind::Symbol, static_cast<uint8_t>(s), 0};
  }
  static ScalarExpr product(unsigned s, unsigned t) {
    return {Kind::Product, static_cast<uint8_t>(s), static_cast<uint8_t>(t)};
  }
  static ScalarExpr sum(unsigned s, unsigned t) {
    return {Kind::Sum, static_cast<uint8_t>(s), static_cast<uint8_t>(t)};
  }
  /// The value for symbol values `values` (computed in double, as the
  /// program's attribute would be).
  double evaluate(llvm::ArrayRef<double> values) const;
  /// "c0", "c0*c1", "c0+c1".
  std::string str() const;
  /// SMT-LIB: "c0", "(* c0 c1)", "(+ c0 c1)".
  std::string smt() const;

  friend bool operator==(const ScalarExpr &x, const ScalarExpr &y) {
    return x.kind == y.kind && x.a == y.a && x.b == y.b;
  }
};

std::optional<ScalarExpr> parseScalarExpr(llvm::StringRef text);

//===----------------------------------------------------------------------===//
// Patterns and rules
//===----------------------------------------------------------------------===//

/// A value of a pattern: variable `index` (op < 0) or result `index` of op
/// `op` of the same side.
struct PatternRef {
  int32_t op = -1;
  uint32_t index = 0;

  static PatternRef variable(unsigned v) { return {-1, v}; }
  static PatternRef result(unsigned op, unsigned r = 0) {
    return {static_cast<int32_t>(op), r};
  }
  bool isVariable() const { return op < 0; }
  friend bool operator==(const PatternRef &a, const PatternRef &b) {
    return a.op == b.op && a.index == b.index;
  }
  friend bool operator!=(const PatternRef &a, const PatternRef &b) {
    return !(a == b);
  }
};

struct PatternOp {
  OpKind kind = OpKind::Add;
  llvm::SmallVector<PatternRef, 2> operands;
  IntAttrs ints;
  /// scalar_mul, scalar_add.
  ScalarExpr scalar;
  /// split: the two sizes; reshape: the target shape.
  llvm::SmallVector<DimExpr, 4> shape;
};

/// One side of a rule: ops in topological order and the values it yields.
struct PatternSide {
  llvm::SmallVector<PatternOp, 4> ops;
  llvm::SmallVector<PatternRef, 2> outputs;
};

struct RuleVariable {
  llvm::SmallVector<DimExpr, 4> shape;
};

/// How a rule's proof ended.
enum class ProofStatus : uint8_t { NotTried, Proved, NotProved, Error };
llvm::StringRef stringify(ProofStatus status);
std::optional<ProofStatus> parseProofStatus(llvm::StringRef text);

/// The evidence that a rule is right: its proof from the operator axioms
/// and its numerical check at the generic sizes.
struct RuleEvidence {
  ProofStatus proof = ProofStatus::NotTried;
  /// The axioms of the proof (Z3's unsat core), or why it failed.
  std::vector<std::string> axioms;
  std::string proofNote;
  /// Whether the proof assumed every scalar symbol positive (then so does
  /// the rule: a constraint checked at every match).
  bool assumesPositiveScalars = false;
  /// The numerical check: "finite-field" (with a bound) or "fp64" (integer
  /// inputs, no bound), the number of tests and log2 of the bound (0 when
  /// there is none); `checked` false when it did not run.
  bool checked = false;
  bool checkPassed = false;
  std::string checkMethod;
  unsigned checkTests = 0;
  double checkLog2Bound = 0;
  std::string checkNote;
};

/// A substitution rule: lhs and rhs compute the same tensors from the same
/// variables, for every binding of the dimension symbols that gives the
/// variables their shapes (and of the scalar symbols, positive ones if the
/// evidence says so). Either side may replace the other, provided the
/// replacing side's variables and symbols are all bound by the matched one.
struct Rule {
  std::string name;   // "r0042"
  std::string family; // "matmul-concat", "conv-merge", ...
  llvm::SmallVector<RuleVariable, 4> variables;
  std::vector<std::string> dimNames;    // "a", "b", ...
  unsigned numScalars = 0;              // c0, c1, ...
  PatternSide lhs, rhs;
  /// Sizes of the dimension symbols and values of the scalar symbols at
  /// which the rule file writes the two sides as graph functions (distinct
  /// sizes, so that the written functions test the general shapes).
  llvm::SmallVector<int64_t, 8> genericSizes;
  llvm::SmallVector<double, 2> genericScalars;
  RuleEvidence evidence;

  const PatternSide &side(bool right) const { return right ? rhs : lhs; }
};

/// A rule side as an s-expression per output, variables named x0, x1, ...,
/// scalars c0, c1: "(matmul x0 (concat 1 x1 x2))". For messages and files.
std::string describeSide(const Rule &rule, const PatternSide &side);

/// Solves the dimension symbols from known sizes: `sizes` holds what is
/// known; each (expression, size) pair of `facts` with one unknown symbol
/// left (of coefficient +-1) fixes it, until nothing changes. Returns false
/// if a fact contradicts the sizes found.
bool solveSizes(llvm::ArrayRef<std::pair<const DimExpr *, int64_t>> facts,
                llvm::MutableArrayRef<std::optional<int64_t>> sizes);

/// Which dimension symbols a side determines when it is matched: those
/// the variables' shapes and the side's split sizes and reshape targets
/// fix (solveSizes over them, symbolically).
llvm::SmallVector<bool, 8> determinedSymbols(const Rule &rule,
                                             const PatternSide &side);

/// Checks the structure of a rule: operand references point backwards,
/// operand and result counts match each kind, outputs exist, symbols are in
/// range. The string says what is wrong.
std::optional<std::string> validateRule(const Rule &rule);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_RULEIR_H
