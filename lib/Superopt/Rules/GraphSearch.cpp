//===- GraphSearch.cpp - TASO's cost-based backtracking search ------------===//

#include "mirage/Dialect/MirageAttributes.h"
#include "mirage/Superopt/Rules/GraphSearch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <ctime>
#include <deque>
#include <set>

using namespace mirage::rules;

GraphSearchResult
mirage::rules::searchGraphs(const WorkGraph &start,
                            llvm::ArrayRef<RuleDirection> directions,
                            NodeArena &arena,
                            const GraphSearchOptions &options) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0 = Clock::now();
  std::clock_t cpu0 = std::clock();
  GraphSearchResult result;
  // The caller's ranking (the joint search's µGraph cost) replaces the
  // predefined-kernel cost when set; it needs each child built.
  double startCost = options.cost ? options.cost(start) : start.cost();
  llvm::DenseSet<uint64_t> ranked = {start.hash()};

  // Every graph taken from the queue and expanded, with the entry that
  // reached it.
  struct Visited {
    WorkGraph graph;
    uint64_t entry;
  };
  std::vector<Visited> visited;
  // Every child queued: its parent (a visited graph), the rule and the
  // edit that make it, and its totals. Entry 0 is the start graph.
  struct Entry {
    uint32_t parent;
    const RuleDirection *rule;
    GraphEdit edit;
  };
  constexpr uint32_t noParent = UINT32_MAX;
  // A deque: tens of thousands of entries are not moved as it grows.
  std::deque<Entry> entries;
  entries.push_back({noParent, nullptr, {}});
  auto materialize = [&](uint64_t id) {
    ++result.built;
    const Entry &e = entries[id];
    WorkGraph g =
        e.parent == noParent ? start : visited[e.parent].graph.withEdit(e.edit);
    g.finish();
    return g;
  };
  // The hashes of the graphs expanded: a child is built, and checked
  // against them, only when it is taken from the queue.
  llvm::DenseSet<uint64_t> expanded;
  // The queue, cheapest first, older first among equals.
  std::set<std::pair<double, uint64_t>> queue = {{startCost, 0}};
  // The cheapest graphs generated (distinct by hash; built when they enter).
  struct Best {
    double cost;
    uint64_t id;
    WorkGraph graph;
  };
  std::vector<Best> best;
  best.push_back({startCost, 0, start});
  auto noteBest = [&](double cost, uint64_t id) {
    WorkGraph g = materialize(id);
    if (llvm::any_of(best,
                     [&](const Best &b) { return b.graph.hash() == g.hash(); }))
      return;
    best.push_back({cost, id, std::move(g)});
    std::stable_sort(best.begin(), best.end(),
                     [](const Best &a, const Best &b) {
                       return std::make_pair(a.cost, a.id) <
                              std::make_pair(b.cost, b.id);
                     });
    if (best.size() > std::max(1u, options.keep))
      best.pop_back();
  };
  double bestCost = startCost;
  IncrementalMatcher matcher(directions);

  while (!queue.empty()) {
    if (options.timeLimit > 0 &&
        std::chrono::duration<double>(Clock::now() - t0).count() >
            options.timeLimit) {
      result.timeLimitReached = true;
      break;
    }
    auto [queuedCost, id] = *queue.begin();
    queue.erase(queue.begin());
    WorkGraph g = materialize(id);
    if (options.checkIncremental && !options.cost && g.cost() != queuedCost)
      ++result.incrementalMismatches;
    // The same graph reached by another rewrite order, already expanded.
    if (expanded.contains(g.hash())) {
      ++result.duplicates;
      continue;
    }
    // The budget is checked on a graph not seen yet: a queue left with
    // duplicates only is an exhausted search.
    if (result.visited >= options.budget) {
      result.budgetReached = true;
      break;
    }
    expanded.insert(g.hash());
    ++result.visited;
    uint32_t parent = visited.size();
    visited.push_back({std::move(g), id});
    const WorkGraph &graph = visited.back().graph;
    GraphIndex index(graph);
    EditEvaluator evaluator(graph, index);
    if (options.checkIncremental) {
      // The incremental matcher must find what matching from scratch finds,
      // in the same order.
      std::vector<Match> full, incremental;
      for (const RuleDirection &d : directions)
        forEachMatch(graph, index, d, [&](const Match &m) {
          full.push_back(m);
          return true;
        });
      matcher.forEachMatch(graph, index, [&](const Match &m) {
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
    matcher.forEachMatch(graph, index, [&](const Match &m) {
      ++result.matches;
      // The child is costed from its edit, not built (it is built if it is
      // taken from the queue, or enters the cheapest few).
      std::optional<GraphEdit> edit = planRewrite(graph, index, m, arena);
      std::optional<GraphTotals> totals;
      if (edit)
        totals = evaluator.evaluate(*edit);
      if (options.checkIncremental) {
        // The edit's totals must be what building and finishing the child
        // gives.
        std::optional<WorkGraph> full = applyMatch(graph, index, m, arena);
        bool refused = !totals || totals->cyclic;
        if (full.has_value() == refused ||
            (full && full->totals() != *totals))
          ++result.incrementalMismatches;
      }
      if (!totals || totals->cyclic)
        return true;
      ++result.generated;
      double cost = totals->cost();
      if (options.cost) {
        // Each distinct graph is ranked once (the ranking is dear).
        WorkGraph child = graph.withEdit(*edit);
        child.finish();
        ++result.built;
        if (!ranked.insert(child.hash()).second)
          return true;
        cost = options.cost(child);
      }
      if (cost >= options.alpha * bestCost)
        return true;
      uint64_t nid = entries.size();
      entries.push_back({parent, m.direction, std::move(*edit)});
      queue.insert({cost, nid});
      if (queue.size() > options.maxQueue) {
        auto last = std::prev(queue.end());
        entries[last->second].edit = {};
        queue.erase(last);
        ++result.dropped;
      }
      if (cost < best.back().cost || best.size() < options.keep)
        noteBest(cost, nid);
      bestCost = std::min(bestCost, cost);
      return true;
    });
    if (options.progress && result.visited % 50 == 0) {
      *options.progress << llvm::formatv(
          "{0}{1} graphs visited, {2} generated, {3} queued; best {4:f2} us "
          "(start {5:f2} us)\n",
          options.progressPrefix, result.visited, result.generated,
          queue.size(), bestCost, startCost);
      options.progress->flush();
    }
  }
  for (Best &b : best) {
    GraphSearchResult::Found f{std::move(b.graph), {}};
    for (uint64_t e = b.id; entries[e].parent != noParent;
         e = visited[entries[e].parent].entry)
      f.applied.push_back(entries[e].rule->label());
    std::reverse(f.applied.begin(), f.applied.end());
    result.best.push_back(std::move(f));
  }
  result.queued = entries.size() - 1;
  result.rootsReused = matcher.rootsReused;
  result.rootsMatched = matcher.rootsMatched;
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  result.cpuSeconds = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  return result;
}

mlir::FailureOr<mirage::superopt::VerificationReport>
mirage::rules::commitIfVerified(mlir::func::FuncOp func, const WorkGraph &g,
                                const superopt::VerifierOptions &options) {
  mlir::OpBuilder b(func);
  b.setInsertionPointAfter(func);
  auto candidate = llvm::cast<mlir::func::FuncOp>(b.clone(*func));
  candidate.setSymName((func.getSymName() + "__rewritten").str());
  candidate->removeAttr(kEquivalentToAttrName);
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
