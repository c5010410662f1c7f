//===- GraphSearch.cpp - TASO's cost-based backtracking search ------------===//

#include "Superopt/Rules/GraphSearch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <set>

using namespace mirage::rules;

GraphSearchResult
mirage::rules::searchGraphs(const WorkGraph &start,
                            llvm::ArrayRef<RuleDirection> directions,
                            NodeArena &arena,
                            const GraphSearchOptions &options) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0 = Clock::now();
  GraphSearchResult result;
  auto rank = [&](const WorkGraph &g) {
    return options.cost ? options.cost(g) : g.cost();
  };
  double startCost = rank(start);

  // Every graph generated, with how it was reached.
  struct State {
    WorkGraph graph;
    int64_t parent;
    const RuleDirection *rule;
  };
  std::vector<State> states;
  states.push_back({start, -1, nullptr});
  llvm::DenseSet<uint64_t> seen = {start.hash()};
  // The queue, cheapest first, older first among equals.
  std::set<std::pair<double, uint64_t>> queue = {{startCost, 0}};
  // The cheapest graphs generated.
  std::vector<std::pair<double, uint64_t>> best = {{startCost, 0}};
  auto noteBest = [&](double cost, uint64_t id) {
    best.push_back({cost, id});
    std::stable_sort(best.begin(), best.end());
    if (best.size() > std::max(1u, options.keep))
      best.pop_back();
  };
  double bestCost = startCost;
  IncrementalMatcher matcher(directions);

  while (!queue.empty()) {
    if (result.visited >= options.budget) {
      result.budgetReached = true;
      break;
    }
    if (options.timeLimit > 0 &&
        std::chrono::duration<double>(Clock::now() - t0).count() >
            options.timeLimit) {
      result.timeLimitReached = true;
      break;
    }
    uint64_t id = queue.begin()->second;
    queue.erase(queue.begin());
    ++result.visited;
    // A copy: `states` grows while this graph is expanded.
    WorkGraph g = states[id].graph;
    // Queued graphs were finished from their parents (finishFrom): the
    // matcher needs the per-node weights too.
    g.finish();
    GraphIndex index(g);
    FinishBase base(g, index);
    if (options.checkIncremental) {
      // The incremental matcher must find what matching from scratch finds,
      // in the same order.
      std::vector<Match> full, incremental;
      for (const RuleDirection &d : directions)
        forEachMatch(g, index, d, [&](const Match &m) {
          full.push_back(m);
          return true;
        });
      matcher.forEachMatch(g, index, [&](const Match &m) {
        incremental.push_back(m);
        return true;
      });
      auto same = [](const Match &a, const Match &b) {
        return a.direction == b.direction && a.ops == b.ops &&
               a.variables == b.variables && a.sizes == b.sizes &&
               a.scalars == b.scalars;
      };
      if (full.size() != incremental.size() ||
          !std::equal(full.begin(), full.end(), incremental.begin(), same))
        ++result.incrementalMismatches;
    }
    {
      matcher.forEachMatch(g, index, [&](const Match &m) {
        const RuleDirection &d = *m.direction;
        ++result.matches;
        std::optional<WorkGraph> next = applyMatch(g, index, m, arena, &base);
        if (options.checkIncremental) {
          // finishFrom must agree with finish() on everything it computes.
          std::optional<WorkGraph> full = applyMatch(g, index, m, arena);
          if (full.has_value() != next.has_value() ||
              (full && (full->hash() != next->hash() ||
                        full->cost() != next->cost() ||
                        full->costWithWeightOps() !=
                            next->costWithWeightOps() ||
                        full->numLiveOps() != next->numLiveOps())))
            ++result.incrementalMismatches;
        }
        if (!next || !seen.insert(next->hash()).second)
          return true;
        ++result.generated;
        double cost = rank(*next);
        if (cost >= options.alpha * bestCost)
          return true;
        uint64_t nid = states.size();
        states.push_back({std::move(*next), static_cast<int64_t>(id), &d});
        queue.insert({cost, nid});
        if (queue.size() > options.maxQueue)
          queue.erase(std::prev(queue.end()));
        if (cost < best.back().first || best.size() < options.keep)
          noteBest(cost, nid);
        bestCost = std::min(bestCost, cost);
        return true;
      });
    }
    if (options.progress && result.visited % 50 == 0) {
      *options.progress << llvm::formatv(
          "{0}{1} graphs visited, {2} generated, {3} queued; best {4:f2} us "
          "(start {5:f2} us)\n",
          options.progressPrefix, result.visited, result.generated,
          queue.size(), bestCost, startCost);
      options.progress->flush();
    }
  }
  for (auto [cost, id] : best) {
    GraphSearchResult::Found f{states[id].graph, {}};
    f.graph.finish();
    for (int64_t s = id; states[s].parent >= 0; s = states[s].parent)
      f.applied.push_back(states[s].rule->label());
    std::reverse(f.applied.begin(), f.applied.end());
    result.best.push_back(std::move(f));
  }
  result.rootsReused = matcher.rootsReused;
  result.rootsMatched = matcher.rootsMatched;
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return result;
}

mlir::FailureOr<mirage::superopt::VerificationReport>
mirage::rules::commitIfVerified(mlir::func::FuncOp func, const WorkGraph &g,
                                const superopt::VerifierOptions &options) {
  mlir::OpBuilder b(func);
  b.setInsertionPointAfter(func);
  auto candidate = llvm::cast<mlir::func::FuncOp>(b.clone(*func));
  candidate.setSymName((func.getSymName() + "__rewritten").str());
  candidate->removeAttr("mirage.equivalent_to");
  auto cleanup = llvm::make_scope_exit([&] {
    if (candidate)
      candidate.erase();
  });
  if (failed(g.writeInto(candidate)))
    return mlir::failure();
  mlir::FailureOr<superopt::VerificationReport> report =
      superopt::verifyEquivalence(func, candidate, options);
  if (failed(report) || !report->equivalent)
    return report;
  func.getBody().takeBody(candidate.getBody());
  return report;
}
