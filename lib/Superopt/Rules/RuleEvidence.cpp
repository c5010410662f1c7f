//===- RuleEvidence.cpp - proving and checking rules ----------------------===//

#include "mirage/Superopt/Rules/RuleEvidence.h"
#include "mirage/Dialect/Graph/GraphDialect.h"
#include "mirage/Superopt/Axioms/AxiomProver.h"
#include "mirage/Superopt/Axioms/OperatorAxioms.h"
#include "mirage/Superopt/Rules/RuleFile.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"
#include <atomic>
#include <mutex>
#include <set>

using namespace mirage::rules;
using mirage::superopt::Term;

static llvm::Expected<Term> termOf(const Rule &rule, const PatternSide &side,
                                   PatternRef ref) {
  if (ref.isVariable())
    return Term::variable("x" + std::to_string(ref.index));
  const PatternOp &op = side.ops[ref.op];
  std::vector<Term> operands;
  for (PatternRef r : op.operands) {
    llvm::Expected<Term> t = termOf(rule, side, r);
    if (!t)
      return t.takeError();
    operands.push_back(std::move(*t));
  }
  std::string name = getMnemonic(op.kind).str();
  llvm::SmallVector<int64_t, 7> ints(op.ints.begin(), op.ints.end());
  switch (op.kind) {
  case OpKind::Split:
    name = ref.index == 0 ? "split_0" : "split_1";
    break;
  case OpKind::Transpose:
    // The axioms' transpose is the transpose of a matrix.
    if (op.ints.size() != 2 || op.ints[0] != 1)
      return llvm::createStringError("only matrix transposes have a term");
    ints.clear();
    break;
  case OpKind::Reshape:
    ints = {static_cast<int64_t>(op.shape.size())};
    break;
  case OpKind::Matmul:
    break;
  default:
    break;
  }
  if (op.scalar.kind != ScalarExpr::Kind::None)
    return Term::applySymbolic(name, ints, {op.scalar.smt()},
                               std::move(operands));
  return Term::apply(name, ints, {}, std::move(operands));
}

llvm::Expected<std::vector<Term>>
mirage::rules::sideTerms(const Rule &rule, const PatternSide &side) {
  std::vector<Term> terms;
  for (PatternRef r : side.outputs) {
    llvm::Expected<Term> t = termOf(rule, side, r);
    if (!t)
      return t.takeError();
    terms.push_back(std::move(*t));
  }
  return terms;
}

/// The operators a term uses.
static void collectOperators(const Term &t, std::set<std::string> &ops) {
  if (t.isVariable())
    return;
  ops.insert(t.getName().str());
  for (const Term &o : t.getOperands())
    collectOperators(o, ops);
}

/// The axioms about the rule's operators: those whose every operator the
/// rule uses, or is one that expresses others (sub is an add of a negated
/// scale; a split is undone by a concat). Fewer axioms leave Z3 fewer
/// instances to chase when an equation is not implied.
static std::vector<std::string> relevantAxioms(llvm::ArrayRef<Term> lhs,
                                               llvm::ArrayRef<Term> rhs) {
  std::set<std::string> ops = {"add", "scalar_mul", "concat", "split_0",
                               "split_1"};
  for (const Term &t : lhs)
    collectOperators(t, ops);
  for (const Term &t : rhs)
    collectOperators(t, ops);
  std::vector<std::string> names;
  for (const mirage::superopt::OperatorAxiom &a :
       mirage::superopt::getOperatorAxioms()) {
    bool relevant = true;
    llvm::SmallVector<llvm::StringRef> tokens;
    llvm::StringRef(a.statement).split(tokens, ' ', -1, false);
    for (llvm::StringRef tok : tokens) {
      tok = tok.trim("()");
      if (mirage::superopt::lookupOperatorSignature(tok) && !ops.count(tok.str())) {
        relevant = false;
        break;
      }
    }
    if (relevant)
      names.push_back(a.name.str());
  }
  return names;
}

void mirage::rules::proveRule(Rule &rule, const ProofOptions &options) {
  RuleEvidence &e = rule.evidence;
  e.axioms.clear();
  e.proofNote.clear();
  e.assumesPositiveScalars = false;
  llvm::Expected<std::vector<Term>> lhs = sideTerms(rule, rule.lhs);
  if (!lhs) {
    e.proof = ProofStatus::Error;
    e.proofNote = llvm::toString(lhs.takeError());
    return;
  }
  llvm::Expected<std::vector<Term>> rhs = sideTerms(rule, rule.rhs);
  if (!rhs) {
    e.proof = ProofStatus::Error;
    e.proofNote = llvm::toString(rhs.takeError());
    return;
  }
  superopt::ProverOptions prover;
  prover.timeoutMs = options.timeoutMs;
  prover.resourceLimit = options.resourceLimit;
  prover.ematchingOnly = true;
  prover.axioms = relevantAxioms(*lhs, *rhs);
  for (bool positive : {false, true}) {
    if (positive) {
      if (rule.numScalars == 0)
        break;
      for (unsigned i = 0; i < rule.numScalars; ++i)
        prover.hypotheses.push_back("(> c" + std::to_string(i) + " 0)");
    }
    std::set<std::string> used;
    bool all = true;
    for (size_t i = 0; i < lhs->size() && all; ++i) {
      llvm::Expected<superopt::ProofResult> r =
          superopt::proveEquation((*lhs)[i], (*rhs)[i], prover);
      if (!r) {
        e.proof = ProofStatus::Error;
        e.proofNote = llvm::toString(r.takeError());
        return;
      }
      if (!r->proved()) {
        all = false;
        e.proofNote = "output " + std::to_string(i) + ": " +
                      (r->answer == superopt::SolverAnswer::Sat
                           ? std::string("the axioms have a model where the "
                                         "sides differ")
                           : "Z3 gave up (" + r->reason + ")");
        break;
      }
      used.insert(r->usedAxioms.begin(), r->usedAxioms.end());
    }
    if (all) {
      e.proof = ProofStatus::Proved;
      e.axioms.assign(used.begin(), used.end());
      e.proofNote.clear();
      e.assumesPositiveScalars = positive;
      return;
    }
  }
  e.proof = ProofStatus::NotProved;
}

/// Rules with relu or max pooling are checked in floating point only.
static bool needsFloatOnly(const Rule &rule) {
  for (const PatternSide *p : {&rule.lhs, &rule.rhs})
    for (const PatternOp &op : p->ops)
      if (op.kind == OpKind::Relu || op.kind == OpKind::MaxPool2D)
        return true;
  return false;
}

void mirage::rules::checkRule(Rule &rule, mlir::MLIRContext &ctx,
                              const CheckOptions &options) {
  RuleEvidence &e = rule.evidence;
  e.checked = true;
  e.checkPassed = false;
  e.checkNote.clear();
  mlir::OpBuilder b(&ctx);
  mlir::Location loc = mlir::UnknownLoc::get(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  std::string diagnostics;
  auto funcs = buildRuleFunctions(b, loc, rule);
  if (failed(funcs)) {
    e.checkNote = "its functions do not build at the generic sizes";
    return;
  }
  superopt::VerifierOptions v;
  v.seed = options.seed;
  v.maxScales = options.scales;
  v.fieldTest = !needsFloatOnly(rule);
  mlir::FailureOr<superopt::VerificationReport> report =
      superopt::verifyEquivalence(funcs->first, funcs->second, v);
  if (failed(report)) {
    e.checkNote = "the verifier could not compare the sides";
    return;
  }
  e.checkPassed = report->equivalent;
  e.checkMethod = report->fieldApplied ? "finite-field" : "fp64";
  e.checkTests = report->fieldApplied ? report->fieldTests
                                      : report->realTests *
                                            report->scales.size();
  e.checkLog2Bound = report->fieldApplied ? report->log2Bound : 0;
  if (!report->equivalent)
    e.checkNote = report->summary();
}

namespace {
/// Runs `work(i)` for every index on a pool of `threads`, in chunks, with
/// progress lines.
void forEachParallel(size_t n, unsigned threads, llvm::raw_ostream *progress,
                     llvm::StringRef what,
                     const std::function<bool()> &shouldStop,
                     llvm::function_ref<void(size_t)> work) {
  llvm::StdThreadPool pool(llvm::hardware_concurrency(threads));
  std::atomic<size_t> next{0}, done{0};
  std::mutex mutex;
  unsigned workers = pool.getMaxConcurrency();
  for (unsigned w = 0; w < workers; ++w)
    pool.async([&] {
      while (true) {
        if (shouldStop && shouldStop())
          return;
        size_t i = next.fetch_add(1);
        if (i >= n)
          return;
        work(i);
        size_t d = ++done;
        if (progress && (d % 250 == 0 || d == n)) {
          std::lock_guard<std::mutex> lock(mutex);
          *progress << llvm::formatv("discover-substitutions: {0} {1} of {2}\n",
                                     what, d, n);
          progress->flush();
        }
      }
    });
  pool.wait();
}
} // namespace

void mirage::rules::proveRules(llvm::MutableArrayRef<Rule> rules,
                               const ProofOptions &options, unsigned threads,
                               llvm::raw_ostream *progress,
                               const std::function<bool()> &shouldStop) {
  forEachParallel(rules.size(), threads, progress, "proved", shouldStop,
                  [&](size_t i) { proveRule(rules[i], options); });
}

void mirage::rules::checkRules(llvm::MutableArrayRef<Rule> rules,
                               mlir::MLIRContext &ctx,
                               const CheckOptions &options, unsigned threads,
                               llvm::raw_ostream *progress,
                               const std::function<bool()> &shouldStop) {
  ctx.loadDialect<mlir::func::FuncDialect, mirage::graph::GraphDialect>();
  // The verifier reports problems as diagnostics; here they are part of a
  // rule's evidence, not errors of the pass.
  mlir::ScopedDiagnosticHandler quiet(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  forEachParallel(rules.size(), threads, progress, "checked", shouldStop,
                  [&](size_t i) { checkRule(rules[i], ctx, options); });
}
