//===- Discovery.cpp - TASO's substitution discovery, end to end ----------===//

#include "mirage/Superopt/Rules/Discovery.h"
#include "mirage/Superopt/Rules/Generalize.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <set>

using namespace mirage::rules;

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

/// The order of families in a rule file.
int familyRank(llvm::StringRef family) {
  static const char *kOrder[] = {"elementwise", "exp",   "relu",
                                 "transpose",   "reduce", "concat-split",
                                 "matmul",      "pool",  "conv"};
  for (int i = 0; i < 9; ++i)
    if (family == kOrder[i])
      return i;
  return 9;
}
/// A rule's text with its shape constraints: equal for equal rules.
std::string ruleKey(const Rule &r) {
  std::string key = describeSide(r, r.lhs) + " = " + describeSide(r, r.rhs);
  for (const RuleVariable &v : r.variables) {
    key += " |";
    for (const DimExpr &d : v.shape)
      key += " " + d.str(r.dimNames);
  }
  for (const PatternSide *p : {&r.lhs, &r.rhs})
    for (const PatternOp &op : p->ops)
      for (const DimExpr &d : op.shape)
        key += " " + d.str(r.dimNames);
  return key;
}
} // namespace

llvm::Expected<DiscoveryReport>
mirage::rules::discoverRules(const DiscoveryOptions &options,
                             mlir::MLIRContext &ctx) {
  std::string error;
  std::optional<Menu> menu = buildMenu(options.menu, options.sizes, error);
  if (!menu)
    return llvm::createStringError(error);
  if (options.maxOps < 1 || options.maxOps > kMaxEnumOps)
    return llvm::createStringError(
        llvm::formatv("max-ops must be between 1 and {0}", kMaxEnumOps).str());
  if (options.maxInputs < 1 || options.maxInputs > 8)
    return llvm::createStringError("inputs must be between 1 and 8");
  DiscoveryReport report;
  Clock::time_point start = Clock::now();
  auto overBudget = [&] { return since(start) > options.timeBudget; };
  auto note = [&](llvm::StringRef stage) {
    if (!report.timeBudgetReached && overBudget()) {
      report.timeBudgetReached = true;
      report.timeBudgetStage = stage.str();
    }
  };

  // 1. Enumeration.
  EnumerationOptions eo;
  eo.maxOps = options.maxOps;
  eo.maxInputs = options.maxInputs;
  eo.seed = options.seed;
  eo.threads = options.threads;
  eo.progress = options.progress;
  eo.shouldStop = overBudget;
  Clock::time_point t = Clock::now();
  EnumerationResult enumerated = enumerateGraphs(*menu, eo);
  report.enumeration = enumerated.stats;
  report.enumerateSeconds = since(t);
  note("enumeration");

  // 2. Candidates and pruning.
  t = Clock::now();
  llvm::Expected<FingerprintEvaluator> eval =
      FingerprintEvaluator::create(options.seed, menu->numScalars);
  if (!eval)
    return eval.takeError();
  std::vector<Candidate> candidates =
      formCandidates(*menu, *eval, enumerated.graphs, report.pruning,
                     overBudget);
  enumerated.graphs = {};
  report.pruneSeconds = since(t);
  note("pruning");
  if (options.progress)
    *options.progress << llvm::formatv(
        "discover-substitutions: {0} graphs, {1} candidates, {2} after "
        "pruning\n",
        report.enumeration.graphsRecorded, report.pruning.candidates,
        report.pruning.afterConjunctions);

  // 3. Generalization. Candidates that differ only in their variables'
  // kinds can generalize to the same rule: kept once.
  t = Clock::now();
  std::set<std::string> seenRules;
  for (const Candidate &c : candidates) {
    std::string why;
    std::optional<Rule> rule = generalize(*menu, c, why);
    if (!rule) {
      ++report.notGeneralized;
      report.notGeneralizedNotes.push_back(describeGraph(*menu, c.lhs) +
                                           " = " +
                                           describeGraph(*menu, c.rhs) +
                                           " (" + why + ")");
      continue;
    }
    if (!seenRules.insert(ruleKey(*rule)).second) {
      ++report.duplicates;
      continue;
    }
    report.rules.push_back(std::move(*rule));
  }
  report.generalized = report.rules.size();
  report.generalizeSeconds = since(t);
  // Sorted and named before the evidence, so that the names do not depend
  // on which rules the evidence accepts.
  std::vector<std::pair<std::string, size_t>> keys;
  for (size_t i = 0; i < report.rules.size(); ++i) {
    const Rule &r = report.rules[i];
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%d %02zu ", familyRank(r.family),
                  r.lhs.ops.size() + r.rhs.ops.size());
    keys.push_back({prefix + describeSide(r, r.lhs) + " = " +
                        describeSide(r, r.rhs),
                    i});
  }
  llvm::sort(keys);
  std::vector<Rule> sorted;
  for (auto &[key, i] : keys) {
    sorted.push_back(std::move(report.rules[i]));
    char name[16];
    std::snprintf(name, sizeof name, "r%04zu", sorted.size());
    sorted.back().name = name;
  }
  report.rules = std::move(sorted);

  // 4. Numerical check at generic sizes, 5. proofs.
  t = Clock::now();
  checkRules(report.rules, ctx, options.check, options.threads,
             options.progress, overBudget);
  report.checkSeconds = since(t);
  note("check");
  t = Clock::now();
  proveRules(report.rules, options.proof, options.threads, options.progress,
             overBudget);
  report.proveSeconds = since(t);
  note("proofs");
  for (const Rule &r : report.rules) {
    if (r.evidence.checked)
      (r.evidence.checkPassed ? report.checkedOk : report.checkFailed)++;
    if (r.evidence.proof == ProofStatus::Proved)
      ++report.proved;
    else if (r.evidence.proof != ProofStatus::NotTried)
      ++report.notProved;
    report.accepted += isAccepted(r);
  }
  return report;
}
