//===- TermFromGraph.cpp - graph-dialect values as axiom terms ------------===//

#include "mirage/Superopt/Axioms/TermFromGraph.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include <string>

using namespace mirage::superopt;
namespace graph = mirage::graph;

static llvm::Error unsupported(mlir::Operation *op, const llvm::Twine &why) {
  return llvm::createStringError("'" + op->getName().getStringRef() +
                                 "' has no term: " + why);
}

/// The axioms number the rows and columns of matrices 0 and 1 (as TASO
/// did), so matmul and transpose are read only on rank-2 operands: a batched
/// matmul under those axioms would be unsound.
static bool isMatrix(mlir::Value v) {
  return llvm::cast<mlir::ShapedType>(v.getType()).getRank() == 2;
}

llvm::Expected<Term> mirage::superopt::termFromGraph(mlir::Value value) {
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value))
    return Term::variable("arg" + std::to_string(arg.getArgNumber()));
  mlir::Operation *op = value.getDefiningOp();

  // The op's mnemonic is the term operator's name wherever both exist.
  auto apply = [&](llvm::ArrayRef<int64_t> ints, llvm::ArrayRef<double> reals,
                   mlir::ValueRange operands) -> llvm::Expected<Term> {
    std::vector<Term> terms;
    for (mlir::Value operand : operands) {
      llvm::Expected<Term> t = termFromGraph(operand);
      if (!t)
        return t.takeError();
      terms.push_back(std::move(*t));
    }
    return Term::apply(op->getName().stripDialect(), ints, reals,
                       std::move(terms));
  };

  return llvm::TypeSwitch<mlir::Operation *, llvm::Expected<Term>>(op)
      .Case<graph::AddOp, graph::SubOp, graph::MulOp, graph::DivOp,
            graph::ExpOp, graph::SqrtOp, graph::SquareOp, graph::ReluOp,
            graph::SiluOp, graph::GeluOp, graph::TanhOp, graph::SigmoidOp,
            graph::BroadcastOp>(
          [&](mlir::Operation *) { return apply({}, {}, op->getOperands()); })
      .Case<graph::ReduceSumOp, graph::ReduceMaxOp, graph::SoftmaxOp>(
          [&](auto typed) {
            return apply({static_cast<int64_t>(typed.getDim())}, {},
                         op->getOperands());
          })
      .Case<graph::ScalarMulOp, graph::ScalarAddOp>([&](auto typed) {
        return apply({}, {typed.getScalar().convertToDouble()},
                     op->getOperands());
      })
      .Case([&](graph::RMSNormOp typed) -> llvm::Expected<Term> {
        if (!typed.getEps().isZero())
          return unsupported(op, "only eps = 0 is in the term language");
        return apply({}, {}, op->getOperands());
      })
      .Case([&](graph::MatmulOp typed) -> llvm::Expected<Term> {
        if (!isMatrix(typed.getLhs()))
          return unsupported(op, "only rank-2 matmuls are in the term "
                                 "language");
        return apply({}, {}, op->getOperands());
      })
      .Case([&](graph::TransposeOp typed) -> llvm::Expected<Term> {
        // On a matrix the only non-identity permutation is [1, 0].
        if (!isMatrix(typed.getInput()) || typed.getPerm()[0] != 1)
          return unsupported(op, "only rank-2 transposes are in the term "
                                 "language");
        return apply({}, {}, op->getOperands());
      })
      .Case([&](graph::Conv2DOp typed) -> llvm::Expected<Term> {
        llvm::ArrayRef<int64_t> st = typed.getStrides(),
                                pad = typed.getPadding(),
                                dil = typed.getDilations();
        return apply({st[0], st[1], pad[0], pad[1], dil[0], dil[1],
                      static_cast<int64_t>(typed.getGroups())},
                     {}, op->getOperands());
      })
      .Case<graph::AvgPool2DOp, graph::MaxPool2DOp>(
          [&](auto typed) -> llvm::Expected<Term> {
            llvm::ArrayRef<int64_t> k = typed.getKernel(),
                                    st = typed.getStrides(),
                                    pad = typed.getPadding();
            return apply({k[0], k[1], st[0], st[1], pad[0], pad[1]}, {},
                         op->getOperands());
          })
      .Case([&](graph::ReshapeOp typed) -> llvm::Expected<Term> {
        int64_t rank = llvm::cast<mlir::ShapedType>(typed.getType()).getRank();
        return apply({rank}, {}, op->getOperands());
      })
      .Case([&](graph::ConcatOp typed) -> llvm::Expected<Term> {
        if (typed.getInputs().size() != 2)
          return unsupported(op, "only two-way concats are in the term "
                                 "language");
        return apply({static_cast<int64_t>(typed.getDim())}, {},
                     op->getOperands());
      })
      .Case([&](graph::SplitOp typed) -> llvm::Expected<Term> {
        if (typed->getNumResults() != 2)
          return unsupported(op, "only two-way splits are in the term "
                                 "language");
        llvm::Expected<Term> input = termFromGraph(typed.getInput());
        if (!input)
          return input.takeError();
        unsigned piece = llvm::cast<mlir::OpResult>(value).getResultNumber();
        std::vector<Term> operands;
        operands.push_back(std::move(*input));
        return Term::apply(piece == 0 ? "split_0" : "split_1",
                           {static_cast<int64_t>(typed.getDim())}, {},
                           std::move(operands));
      })
      .Default([&](mlir::Operation *) -> llvm::Expected<Term> {
        return unsupported(op, "not an operator of the axioms");
      });
}

llvm::Expected<Term> mirage::superopt::termFromGraph(mlir::func::FuncOp func,
                                                     unsigned resultIndex) {
  if (!llvm::hasSingleElement(func.getBody()))
    return llvm::createStringError("@" + func.getSymName() +
                                   " must have one block");
  mlir::Operation *terminator = func.getBody().front().getTerminator();
  if (resultIndex >= terminator->getNumOperands())
    return llvm::createStringError("@" + func.getSymName() + " has no result " +
                                   llvm::Twine(resultIndex));
  return termFromGraph(terminator->getOperand(resultIndex));
}
