//===- EqSat.h - equality saturation of graphs: entry header ----*- C++ -*-===//
//
// Graph-level equality saturation with the verified rule set of
// Superopt/Rules (docs/EqualitySaturation.md):
//
//   EGraph.h      e-nodes, hash-consing, union-find, rebuilding, analysis
//   Saturation.h  e-matching of rule sides, saturation under limits, work
//                 graphs in and out
//   Extraction.h  greedy, sharing-aware local search (the default) and
//                 optimal (Z3 ILP) extraction, cycle-free
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_EQSAT_EQSAT_H
#define MIRAGE_SUPEROPT_EQSAT_EQSAT_H

#include "mirage/Superopt/EqSat/EGraph.h"
#include "mirage/Superopt/EqSat/Extraction.h"
#include "mirage/Superopt/EqSat/Saturation.h"

#endif // MIRAGE_SUPEROPT_EQSAT_EQSAT_H
