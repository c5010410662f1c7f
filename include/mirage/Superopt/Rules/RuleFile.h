//===- RuleFile.h - rules as pairs of graph functions -----------*- C++ -*-===//
//
// A rule file is MLIR: per rule, two graph-dialect functions at the rule's
// generic sizes (f32), so that a rule can be read, diffed, parsed,
// verified (`--verify-equivalence` checks each pair as is) and run.
//
//   func.func @r0007_lhs(%arg0: tensor<2x3xf32> {mirage.shape = ["a", "b"]},
//                        %arg1: tensor<3x4xf32> {mirage.shape = ["b", "c"]},
//                        %arg2: tensor<3x5xf32> {mirage.shape = ["b", "d"]})
//       -> (tensor<2x4xf32>, tensor<2x5xf32>)
//       attributes {mirage.rule = {name = "r0007", family = "matmul",
//                                  rhs = @r0007_rhs, proof = "proved",
//                                  axioms = [...], check = "finite-field",
//                                  tests = 3 : i64, log2_bound = ...}} {...}
//   func.func @r0007_rhs(...) attributes {mirage.equivalent_to = @r0007_lhs}
//
// Each argument's `mirage.shape` is its shape constraint, in dimension
// symbols; a split's `mirage.sizes`, a reshape's `mirage.shape` and a
// scalar op's `mirage.scalar` ("c0", "c0*c1") say what its attribute is in
// the rule's symbols. The written file has a comment per rule with both
// sides as terms and its evidence.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_RULES_RULEFILE_H
#define MIRAGE_SUPEROPT_RULES_RULEFILE_H

#include "mirage/Superopt/Rules/RuleIR.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mirage::rules {

/// Builds the rule's two functions at the builder's insertion point, at
/// its generic sizes. Fails (with a diagnostic at `loc`) if a side's shapes
/// are invalid at those sizes.
mlir::FailureOr<std::pair<mlir::func::FuncOp, mlir::func::FuncOp>>
buildRuleFunctions(mlir::OpBuilder &b, mlir::Location loc, const Rule &rule);

/// Writes the rules as a rule file, after `header` (comment lines).
mlir::LogicalResult writeRuleFile(llvm::raw_ostream &os,
                                  llvm::ArrayRef<Rule> rules,
                                  llvm::StringRef header,
                                  mlir::MLIRContext &ctx);

/// Reads every rule of a module (each function with a `mirage.rule`
/// attribute and the function it names). A malformed rule is an error at
/// its function (sides of different types, an op outside the rule
/// language, a shape annotation that does not match the types, a missing
/// attribute); the result is then failure.
mlir::FailureOr<std::vector<Rule>> readRules(mlir::ModuleOp module);

} // namespace mirage::rules

#endif // MIRAGE_SUPEROPT_RULES_RULEFILE_H
