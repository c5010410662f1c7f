//===- OperatorAxiomsTest.cpp - axioms: true, consistent and useful -------===//

#include "mirage/Superopt/Axioms/OperatorAxioms.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mirage/Superopt/Axioms/AxiomChecker.h"
#include "mirage/Superopt/Axioms/AxiomProver.h"
#include "mirage/Superopt/Axioms/AxiomTerm.h"
#include "mirage/Superopt/Axioms/TermFromGraph.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

using namespace mirage::superopt;

namespace {

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

TEST(OperatorAxiomsTest, TableIsWellFormed) {
  llvm::ArrayRef<OperatorAxiom> axioms = getOperatorAxioms();
  EXPECT_GE(axioms.size(), 30u);
  EXPECT_LE(axioms.size(), 120u);
  llvm::StringSet<> names;
  for (const OperatorAxiom &a : axioms) {
    EXPECT_TRUE(names.insert(a.name).second)
        << "duplicate axiom " << a.name.str();
    EXPECT_FALSE(a.doc.empty()) << a.name.str();
    EXPECT_TRUE(a.statement.starts_with("(forall")) << a.name.str();
    EXPECT_LT(a.inputLow, a.inputHigh) << a.name.str();
    EXPECT_EQ(lookupOperatorAxiom(a.name), &a);
  }
  EXPECT_EQ(lookupOperatorAxiom("no_such_axiom"), nullptr);
}

TEST(OperatorAxiomsTest, DocumentationListsEveryAxiom) {
  auto doc = llvm::MemoryBuffer::getFile(MIRAGE_AXIOMS_DOC);
  ASSERT_TRUE(bool(doc)) << MIRAGE_AXIOMS_DOC;
  llvm::StringRef text = (*doc)->getBuffer();
  for (const OperatorAxiom &a : getOperatorAxioms()) {
    std::string row =
        "| `" + a.name.str() + "` | `" + a.statement.str() + "` |";
    EXPECT_TRUE(text.contains(row)) << "docs/Axioms.md lacks the row " << row;
  }
}

//===----------------------------------------------------------------------===//
// The checker: true axioms pass, false ones fail
//===----------------------------------------------------------------------===//

TEST(OperatorAxiomsTest, EveryAxiomHoldsOnItsInstance) {
  mlir::MLIRContext ctx;
  std::string failing;
  for (const OperatorAxiom &axiom : getOperatorAxioms()) {
    llvm::Expected<AxiomCheckResult> result = checkAxiom(axiom, ctx);
    if (!result) {
      failing += llvm::toString(result.takeError()) + "\n";
      continue;
    }
    if (!result->holds)
      failing += axiom.name.str() + ": " + result->mismatch + "\n";
  }
  EXPECT_TRUE(failing.empty()) << "axioms failing their check:\n" << failing;
}

// exp(a + b) = exp(a) + exp(b): well-formed, and false.
constexpr llvm::StringLiteral kExpOfAddIsSum = R"mlir(!m = tensor<2x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.add %x, %y : (!m, !m) -> !m
  %1 = graph.exp %0 : !m
  return %1 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.exp %x : !m
  %1 = graph.exp %y : !m
  %2 = graph.add %0, %1 : (!m, !m) -> !m
  return %2 : !m
})mlir";

// Matrix products commute: false for square matrices.
constexpr llvm::StringLiteral kMatmulCommutes = R"mlir(!m = tensor<3x3xf32>
func.func @lhs(%x: !m, %y: !m) -> !m {
  %0 = graph.matmul %x, %y : (!m, !m) -> !m
  return %0 : !m
}
func.func @rhs(%x: !m, %y: !m) -> !m {
  %0 = graph.matmul %y, %x : (!m, !m) -> !m
  return %0 : !m
})mlir";

TEST(OperatorAxiomsTest, CheckerRejectsFalseAxioms) {
  mlir::MLIRContext ctx;
  for (llvm::StringRef source : {kExpOfAddIsSum, kMatmulCommutes}) {
    llvm::Expected<AxiomCheckResult> result =
        checkAxiomInstance(source, -1.0, 1.0, ctx);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_FALSE(result->holds) << source.str();
    EXPECT_FALSE(result->mismatch.empty());
    EXPECT_GT(result->worstError, 1e-3);
  }
}

TEST(OperatorAxiomsTest, CheckerRejectsMalformedInstances) {
  mlir::MLIRContext ctx;
  auto expectError = [&](llvm::StringRef source, llvm::StringRef message) {
    llvm::Expected<AxiomCheckResult> result =
        checkAxiomInstance(source, -1.0, 1.0, ctx);
    ASSERT_FALSE(bool(result)) << source.str();
    std::string text = llvm::toString(result.takeError());
    EXPECT_NE(text.find(message.str()), std::string::npos) << text;
  };
  expectError("func.func @lhs(", "does not parse");
  expectError(R"mlir(func.func @lhs(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
})mlir",
              "@lhs and @rhs");
  // The same computation twice would pass vacuously.
  expectError(R"mlir(func.func @lhs(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.exp %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @rhs(%y: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.exp %y : tensor<2xf32>
  return %0 : tensor<2xf32>
})mlir",
              "identical bodies");
  expectError(R"mlir(func.func @lhs(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @rhs(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
})mlir",
              "different types");
}

//===----------------------------------------------------------------------===//
// Terms
//===----------------------------------------------------------------------===//

TEST(AxiomTermTest, ParsesAndPrints) {
  for (llvm::StringRef text :
       {"x", "(matmul (add x y) z)", "(scalar_mul 2.5 (reduce_sum 1 x))",
        "(scalar_mul -0.1 x)", "(concat 0 (split_0 0 x) (split_1 0 x))"}) {
    llvm::Expected<Term> term = parseTerm(text);
    ASSERT_TRUE(bool(term)) << llvm::toString(term.takeError());
    EXPECT_EQ(term->str(), text.str());
    llvm::Expected<Term> again = parseTerm(term->str());
    ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
    EXPECT_EQ(*again, *term);
  }
  llvm::Expected<Term> spaced = parseTerm("  ( matmul\n x   y ) ");
  ASSERT_TRUE(bool(spaced)) << llvm::toString(spaced.takeError());
  EXPECT_EQ(spaced->str(), "(matmul x y)");
  EXPECT_EQ(spaced->getOperands().size(), 2u);
  EXPECT_TRUE(spaced->getOperands()[0].isVariable());
}

TEST(AxiomTermTest, RejectsMalformedTerms) {
  auto expectError = [](llvm::StringRef text, llvm::StringRef message) {
    llvm::Expected<Term> term = parseTerm(text);
    ASSERT_FALSE(bool(term)) << text.str();
    std::string error = llvm::toString(term.takeError());
    EXPECT_NE(error.find(message.str()), std::string::npos) << error;
  };
  expectError("(frobnicate x)", "unknown operator");
  expectError("(matmul x)", "takes 0 integer");
  expectError("(exp x y)", "takes 0 integer");
  expectError("(reduce_sum x)", "expects an integer attribute");
  expectError("(reduce_sum 1.5 x)", "expects an integer attribute");
  expectError("(scalar_mul x y)", "expects a real attribute");
  expectError("(add x y", "missing ')'");
  expectError("(add x y))", "trailing input");
  expectError("", "expected a term");
  expectError("3", "expected a variable name");
  llvm::Expected<Term> inf = Term::apply("scalar_mul", {}, {1.0 / 0.0}, {});
  ASSERT_FALSE(bool(inf));
  llvm::consumeError(inf.takeError());
}

//===----------------------------------------------------------------------===//
// Terms read from graph functions
//===----------------------------------------------------------------------===//

class TermFromGraphTest : public ::testing::Test {
protected:
  TermFromGraphTest() {
    mlir::DialectRegistry registry;
    mirage::registerMirageDialects(registry);
    registry.insert<mlir::func::FuncDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// The terms of @lhs and @rhs in `source`.
  std::pair<std::string, std::string> sides(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &ctx);
    if (!module)
      return {"<parse error>", ""};
    auto side = [&](llvm::StringRef name) -> std::string {
      llvm::Expected<Term> t =
          termFromGraph(module->lookupSymbol<mlir::func::FuncOp>(name));
      return t ? t->str() : "<" + llvm::toString(t.takeError()) + ">";
    };
    return {side("lhs"), side("rhs")};
  }

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(TermFromGraphTest, ReadsInstances) {
  auto [lhs, rhs] =
      sides(lookupOperatorAxiom("matmul_of_inner_concat")->instance);
  EXPECT_EQ(lhs, "(matmul (concat 1 arg0 arg1) (concat 0 arg2 arg3))");
  EXPECT_EQ(rhs, "(add (matmul arg0 arg2) (matmul arg1 arg3))");
  std::tie(lhs, rhs) =
      sides(lookupOperatorAxiom("split_0_of_concat")->instance);
  EXPECT_EQ(lhs, "(split_0 1 (concat 1 arg0 arg1))");
  EXPECT_EQ(rhs, "arg0");
  std::tie(lhs, rhs) =
      sides(lookupOperatorAxiom("scalar_mul_compose")->instance);
  EXPECT_EQ(lhs, "(scalar_mul 2.5 (scalar_mul -0.75 arg0))");
  EXPECT_EQ(rhs, "(scalar_mul -1.875 arg0)");
}

TEST_F(TermFromGraphTest, RejectsWhatTermsCannotExpress) {
  auto [transpose, eps] = sides(R"mlir(
func.func @lhs(%x: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  %0 = graph.transpose %x, perm = [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
func.func @rhs(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.rms_norm %x {eps = 1.0e-6 : f64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})mlir");
  EXPECT_NE(transpose.find("only rank-2 transposes"), std::string::npos)
      << transpose;
  EXPECT_NE(eps.find("eps = 0"), std::string::npos) << eps;
  auto [matmul, reshape] = sides(R"mlir(
func.func @lhs(%x: tensor<2x3x4xf32>, %y: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = graph.matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
func.func @rhs(%x: tensor<2x3x4xf32>) -> tensor<4x3x4xf32> {
  %0 = graph.repeat %x, repeats = [2, 1, 1] : tensor<2x3x4xf32> -> tensor<4x3x4xf32>
  return %0 : tensor<4x3x4xf32>
})mlir");
  EXPECT_NE(matmul.find("only rank-2 matmuls"), std::string::npos) << matmul;
  EXPECT_NE(reshape.find("'graph.repeat' has no term"), std::string::npos)
      << reshape;
}

// Ties each statement to its instance: the instance's two sides, read as
// terms, follow from that one axiom. An instance that checks something
// other than what Z3 assumes fails here.
TEST_F(TermFromGraphTest, EveryInstanceFollowsFromItsStatement) {
  std::string failing;
  for (const OperatorAxiom &axiom : getOperatorAxioms()) {
    auto [lhs, rhs] = sides(axiom.instance);
    ProverOptions options;
    options.axioms = {axiom.name.str()};
    llvm::Expected<ProofResult> result = proveEquation(lhs, rhs, options);
    if (!result)
      failing +=
          axiom.name.str() + ": " + llvm::toString(result.takeError()) + "\n";
    else if (!result->proved())
      failing += axiom.name.str() + ": " + lhs + " = " + rhs + " not proved (" +
                 result->reason + ")\n";
  }
  EXPECT_TRUE(failing.empty()) << failing;
}

//===----------------------------------------------------------------------===//
// The prover
//===----------------------------------------------------------------------===//

struct Equation {
  const char *lhs, *rhs;
};

/// Equations that need several axioms (or an axiom used in an instance
/// that differs from its statement by commutativity and the like).
const Equation kTheorems[] = {
    // Distributivity, applied right to left.
    {"(add (matmul x y) (matmul x z))", "(matmul x (add y z))"},
    // The transpose of a product of three.
    {"(transpose (matmul (matmul x y) z))",
     "(matmul (matmul (transpose z) (transpose y)) (transpose x))"},
    // A k-split matmul, partial products summed in the other order.
    {"(matmul (concat 1 a b) (concat 0 c d))",
     "(add (matmul b d) (matmul a c))"},
    // LoRA: X W + (X A) B = X (W + A B).
    {"(add (matmul x w) (matmul (matmul x a) b))",
     "(matmul x (add w (matmul a b)))"},
    // Scalars compose through Z3's real arithmetic.
    {"(scalar_mul 2 (scalar_mul 3 x))", "(scalar_mul 6 x)"},
    {"(sub x x)", "(scalar_mul 0 x)"},
    // A row sum pushed through a product and a sum.
    {"(reduce_sum 1 (matmul x (add y z)))",
     "(add (matmul x (reduce_sum 1 y)) (matmul x (reduce_sum 1 z)))"},
    // Softmax of a sum, expanded.
    {"(softmax 1 (add x y))",
     "(div (mul (exp y) (exp x)) (reduce_sum 1 (mul (exp x) (exp y))))"},
    // A column concat transposes into a row concat.
    {"(transpose (concat 1 x y))", "(concat 0 (transpose x) (transpose y))"},
    // Splitting a product with concatenated columns.
    {"(split_0 1 (matmul x (concat 1 y z)))", "(matmul x y)"},
};

TEST(AxiomProverTest, ProvesMultiStepEquations) {
  for (const Equation &eq : kTheorems) {
    llvm::Expected<ProofResult> result = proveEquation(eq.lhs, eq.rhs);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_TRUE(result->proved())
        << eq.lhs << " = " << eq.rhs << ": " << result->reason;
    EXPECT_FALSE(result->usedAxioms.empty()) << eq.lhs;
    for (const std::string &name : result->usedAxioms)
      EXPECT_NE(lookupOperatorAxiom(name), nullptr) << name;
  }
}

TEST(AxiomProverTest, UnsatCoreNamesTheAxiomsUsed) {
  // The right side is nested the other way, so associativity is needed.
  llvm::Expected<ProofResult> result =
      proveEquation("(transpose (matmul (matmul x y) z))",
                    "(matmul (matmul (transpose z) (transpose y)) "
                    "(transpose x))");
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  ASSERT_TRUE(result->proved()) << result->reason;
  llvm::StringSet<> used;
  for (const std::string &name : result->usedAxioms)
    used.insert(name);
  EXPECT_TRUE(used.contains("transpose_of_matmul"));
  EXPECT_TRUE(used.contains("matmul_associative"));
}

TEST(AxiomProverTest, NeedsTheRightAxioms) {
  // Distributivity alone proves it; without distributivity it is not proved.
  ProverOptions only;
  only.axioms = {"matmul_distributes_lhs"};
  llvm::Expected<ProofResult> proved = proveEquation(
      "(matmul x (add y z))", "(add (matmul x y) (matmul x z))", only);
  ASSERT_TRUE(bool(proved)) << llvm::toString(proved.takeError());
  EXPECT_TRUE(proved->proved()) << proved->reason;

  ProverOptions without;
  without.timeoutMs = 1000;
  without.axioms = {"matmul_associative", "add_commutative"};
  llvm::Expected<ProofResult> notProved = proveEquation(
      "(matmul x (add y z))", "(add (matmul x y) (matmul x z))", without);
  ASSERT_TRUE(bool(notProved)) << llvm::toString(notProved.takeError());
  EXPECT_FALSE(notProved->proved());
  EXPECT_FALSE(notProved->reason.empty());
}

TEST(AxiomProverTest, DoesNotProveFalseEquations) {
  // Z3 cannot refute these (its model search gives up) but must not prove
  // them; a short time limit keeps the test fast.
  ProverOptions options;
  options.timeoutMs = 1000;
  for (const Equation &eq :
       {Equation{"(matmul x y)", "(matmul y x)"},
        Equation{"(exp (add x y))", "(add (exp x) (exp y))"},
        Equation{"(scalar_mul 2 x)", "(scalar_mul 3 x)"},
        Equation{"(transpose (matmul x y))",
                 "(matmul (transpose x) (transpose y))"}}) {
    llvm::Expected<ProofResult> result = proveEquation(eq.lhs, eq.rhs, options);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_FALSE(result->proved()) << eq.lhs << " = " << eq.rhs;
    EXPECT_NE(result->answer, SolverAnswer::Unsat);
    EXPECT_FALSE(result->reason.empty());
    EXPECT_TRUE(result->usedAxioms.empty());
  }
}

TEST(AxiomProverTest, ReportsBadInput) {
  ProverOptions unknownAxiom;
  unknownAxiom.axioms = {"matmul_commutative"};
  llvm::Expected<ProofResult> r1 =
      proveEquation("(matmul x y)", "(matmul y x)", unknownAxiom);
  ASSERT_FALSE(bool(r1));
  EXPECT_NE(llvm::toString(r1.takeError()).find("unknown axiom"),
            std::string::npos);

  ProverOptions badExtra;
  badExtra.extraAxioms = {"(forall ((x T)) (= (frob x) x))"};
  llvm::Expected<ProofResult> r2 = proveEquation("x", "x", badExtra);
  ASSERT_FALSE(bool(r2));
  EXPECT_NE(llvm::toString(r2.takeError()).find("Z3"), std::string::npos);

  llvm::Expected<ProofResult> r3 = proveEquation("(matmul x)", "x");
  ASSERT_FALSE(bool(r3));
  llvm::consumeError(r3.takeError());
}

TEST(AxiomProverTest, UsesExtraAxiomsAsLemmas) {
  // With matmul commutativity assumed (false, but a lemma as far as the
  // prover knows), the otherwise unprovable equation follows.
  ProverOptions options;
  options.axioms = {"add_commutative"};
  options.extraAxioms = {
      "(forall ((x T) (y T)) (= (matmul x y) (matmul y x)))"};
  llvm::Expected<ProofResult> result =
      proveEquation("(add (matmul x y) z)", "(add z (matmul y x))", options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_TRUE(result->proved()) << result->reason;
  EXPECT_NE(llvm::find(result->usedAxioms, "extra0"), result->usedAxioms.end());
}

//===----------------------------------------------------------------------===//
// Consistency
//===----------------------------------------------------------------------===//

TEST(AxiomProverTest, AxiomsAreConsistent) {
  ProverOptions options;
  options.timeoutMs = 2000;
  llvm::Expected<ConsistencyResult> result = checkAxiomConsistency(options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  std::string conflict;
  for (const std::string &name : result->conflictingAxioms)
    conflict += name + " ";
  EXPECT_FALSE(result->inconsistent()) << "contradiction among: " << conflict;
}

TEST(AxiomProverTest, ConsistencyCheckFindsContradictions) {
  // x * y = x with commutativity makes every tensor equal.
  ProverOptions collapse;
  collapse.timeoutMs = 3000;
  collapse.extraAxioms = {"(forall ((x T) (y T)) (= (mul x y) x))"};
  llvm::Expected<ConsistencyResult> r1 = checkAxiomConsistency(collapse);
  ASSERT_TRUE(bool(r1)) << llvm::toString(r1.takeError());
  EXPECT_TRUE(r1->inconsistent()) << r1->reason;
  EXPECT_NE(llvm::find(r1->conflictingAxioms, "extra0"),
            r1->conflictingAxioms.end());

  // A contradiction in the arithmetic of the scalars alone.
  ProverOptions arithmetic;
  arithmetic.timeoutMs = 3000;
  arithmetic.axioms = {"scalar_mul_one"};
  arithmetic.extraAxioms = {"(forall ((c Real)) (> c c))"};
  llvm::Expected<ConsistencyResult> r2 = checkAxiomConsistency(arithmetic);
  ASSERT_TRUE(bool(r2)) << llvm::toString(r2.takeError());
  EXPECT_TRUE(r2->inconsistent()) << r2->reason;
}

} // namespace
