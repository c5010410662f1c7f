//===- Rules.h - graph substitution rules (TASO): entry header --*- C++ -*-===//
//
// Everything about graph-level substitution rules, in one concern
// (docs/GraphRules.md):
//
//   RuleIR.h          rules, patterns, dimension and scalar expressions
//   ShapeInference.h  the shape rule of each rule op, concrete and symbolic
//   Enumeration.h     the menu and the enumeration of small graphs
//   CanonicalForm.h   one op order per graph
//   Fingerprint.h     tiny-tensor evaluation in the field and in fp64
//   Candidates.h      candidate substitutions and TASO's pruning
//   Generalize.h      symbolic shapes of a candidate
//   RuleEvidence.h    Z3 proofs and numerical checks of rules
//   RuleFile.h        rules as MLIR: writing and reading rule files
//   Discovery.h       the discovery, end to end
//   GraphOps.h        rule ops as graph-dialect ops and back
//   WorkGraph.h       a graph function as the search rewrites it
//   Matcher.h         matching rules and applying them
//   GraphSearch.h     TASO's cost-based backtracking search
//   RuleLibrary.h     the rule file that ships with mirage-opt
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_RULES_H
#define MIRAGE_SUPEROPT_RULES_RULES_H

#include "mirage/Superopt/Rules/CanonicalForm.h"
#include "mirage/Superopt/Rules/Candidates.h"
#include "mirage/Superopt/Rules/Discovery.h"
#include "mirage/Superopt/Rules/Enumeration.h"
#include "mirage/Superopt/Rules/Fingerprint.h"
#include "mirage/Superopt/Rules/Generalize.h"
#include "mirage/Superopt/Rules/GraphOps.h"
#include "mirage/Superopt/Rules/GraphSearch.h"
#include "mirage/Superopt/Rules/Matcher.h"
#include "mirage/Superopt/Rules/RuleEvidence.h"
#include "mirage/Superopt/Rules/RuleFile.h"
#include "mirage/Superopt/Rules/RuleIR.h"
#include "mirage/Superopt/Rules/RuleLibrary.h"
#include "mirage/Superopt/Rules/ShapeInference.h"
#include "mirage/Superopt/Rules/WorkGraph.h"

#endif // MIRAGE_SUPEROPT_RULES_RULES_H
