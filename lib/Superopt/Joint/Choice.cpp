//===- Choice.cpp - the graph to emit, fewer rewrites in a near tie -------===//
//
// Costs are estimates: a rewritten graph a hair cheaper than the input is
// no real gain, yet it must be checked against the input before it is
// emitted (on a transformer layer, most of the pass's time) and moves the
// program away from what was written. So a graph with more rewrites is
// preferred only when it gains more than a margin. The margin is applied
// to a class anchored at the cheapest graph, not pairwise: "within the
// margin" is not transitive, and a pairwise order would not be a strict
// weak ordering.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Joint/Joint.h"
#include <algorithm>
#include <numeric>

using namespace mirage;
using namespace mirage::joint;

bool mirage::joint::gainsMoreThan(double cheaper, double costlier,
                                  double minGain) {
  return costlier - cheaper > minGain * costlier;
}

Choice mirage::joint::chooseContender(llvm::ArrayRef<Contender> contenders,
                                      double minGain) {
  Choice choice;
  if (contenders.empty())
    return choice;
  // Cheapest first; among equal costs, fewer rewrites, then the order found.
  llvm::SmallVector<size_t> byCost(contenders.size());
  std::iota(byCost.begin(), byCost.end(), size_t(0));
  std::stable_sort(byCost.begin(), byCost.end(), [&](size_t a, size_t b) {
    if (contenders[a].timeUs != contenders[b].timeUs)
      return contenders[a].timeUs < contenders[b].timeUs;
    return contenders[a].rewrites < contenders[b].rewrites;
  });
  // The class is a prefix of the cost order: x (1 - minGain) grows with x.
  // Scanning it in cost order and replacing only on strictly fewer
  // rewrites gives the fewest rewrites, then the cheapest, then the first
  // found.
  size_t cheapest = byCost.front();
  double anchor = contenders[cheapest].timeUs;
  size_t chosen = cheapest;
  for (size_t i : llvm::drop_begin(byCost)) {
    if (gainsMoreThan(anchor, contenders[i].timeUs, minGain))
      break;
    if (contenders[i].rewrites < contenders[chosen].rewrites)
      chosen = i;
  }
  choice.chosen = chosen;
  // The cheapest's verified cost may only rise, widening the class: that
  // matters only if a contender with fewer rewrites could enter it (the
  // cheapest itself, with more rewrites than the chosen one, stays
  // behind it).
  bool widerClassMatters = llvm::any_of(contenders, [&](const Contender &c) {
    return c.rewrites < contenders[chosen].rewrites;
  });
  if (!contenders[cheapest].verified && widerClassMatters)
    choice.verifyFirst = cheapest;
  else if (!contenders[chosen].verified)
    choice.verifyFirst = chosen;
  return choice;
}
