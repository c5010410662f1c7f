//===- GraphToKernel.cpp - default schedule: one kernel per graph op ------===//

#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Conversion/GraphToKernel/GraphToKernel.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mirage {
#define GEN_PASS_DEF_GRAPHTOKERNEL
#include "mirage/Conversion/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

namespace {

/// Graph ops whose kernel counterpart has the same operands, results and
/// attributes (matmul, rms_norm, softmax, data movement, conv2d).
template <typename GraphOp, typename KernelOp>
struct SameFormToKernel : OpConversionPattern<GraphOp> {
  using OpConversionPattern<GraphOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GraphOp op, typename GraphOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<KernelOp>(op, op->getResultTypes(),
                                          adaptor.getOperands(),
                                          op->getAttrs());
    return success();
  }
};

/// Every elementwise unary graph op becomes kernel.unary of its kind.
struct UnaryToKernel : OpInterfaceConversionPattern<graph::UnaryOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;
  LogicalResult
  matchAndRewrite(graph::UnaryOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<double> params = op.getUnaryParams();
    rewriter.replaceOpWithNewOp<kernel::UnaryOp>(
        op, op->getResultTypes(),
        UnaryKindAttr::get(op->getContext(), op.getUnaryKind()), operands[0],
        params.empty() ? DenseF64ArrayAttr()
                       : rewriter.getDenseF64ArrayAttr(params));
    return success();
  }
};

template <typename GraphOp>
struct BinaryToKernel : OpConversionPattern<GraphOp> {
  using OpConversionPattern<GraphOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GraphOp op, typename GraphOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<kernel::BinaryOp>(
        op, op.getType(), BinaryKindAttr::get(op.getContext(), op.getKind()),
        adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

template <typename GraphOp>
struct ReduceToKernel : OpConversionPattern<GraphOp> {
  using OpConversionPattern<GraphOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GraphOp op, typename GraphOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<kernel::ReduceOp>(
        op, op.getType(), ReduceKindAttr::get(op.getContext(), op.getKind()),
        adaptor.getInput(), op.getDimAttr());
    return success();
  }
};

template <typename GraphOp>
struct PoolToKernel : OpConversionPattern<GraphOp> {
  using OpConversionPattern<GraphOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GraphOp op, typename GraphOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<kernel::Pool2DOp>(
        op, op.getType(), PoolKindAttr::get(op.getContext(), op.getKind()),
        adaptor.getInput(), op.getKernelAttr(), op.getStridesAttr(),
        op.getPaddingAttr());
    return success();
  }
};

} // namespace

namespace {
/// graph.cast becomes kernel.unary cast with the cast's result type
/// (issue 24).
struct CastToKernel : OpConversionPattern<graph::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(graph::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<kernel::UnaryOp>(
        op, op.getType(), UnaryKindAttr::get(op.getContext(), UnaryKind::cast),
        adaptor.getInput(), DenseF64ArrayAttr());
    return success();
  }
};
} // namespace

void mirage::populateGraphToKernelPatterns(RewritePatternSet &patterns) {
  patterns.add<CastToKernel>(patterns.getContext());
  patterns.add<
      SameFormToKernel<graph::MatmulOp, kernel::MatmulOp>,
      SameFormToKernel<graph::RMSNormOp, kernel::RMSNormOp>,
      SameFormToKernel<graph::SoftmaxOp, kernel::SoftmaxOp>,
      SameFormToKernel<graph::TransposeOp, kernel::TransposeOp>,
      SameFormToKernel<graph::ReshapeOp, kernel::ReshapeOp>,
      SameFormToKernel<graph::BroadcastOp, kernel::BroadcastOp>,
      SameFormToKernel<graph::RepeatOp, kernel::RepeatOp>,
      SameFormToKernel<graph::ConcatOp, kernel::ConcatOp>,
      SameFormToKernel<graph::SplitOp, kernel::SplitOp>,
      SameFormToKernel<graph::Conv2DOp, kernel::Conv2DOp>,
      SameFormToKernel<graph::GatherOp, kernel::GatherOp>,
      SameFormToKernel<graph::GatherElementsOp, kernel::GatherElementsOp>,
      SameFormToKernel<graph::ScatterElementsOp, kernel::ScatterElementsOp>,
      SameFormToKernel<graph::OneHotOp, kernel::OneHotOp>,
      SameFormToKernel<graph::TopKOp, kernel::TopKOp>,
      UnaryToKernel, BinaryToKernel<graph::AddOp>,
      BinaryToKernel<graph::SubOp>, BinaryToKernel<graph::MulOp>,
      BinaryToKernel<graph::DivOp>, ReduceToKernel<graph::ReduceSumOp>,
      ReduceToKernel<graph::ReduceMaxOp>, PoolToKernel<graph::MaxPool2DOp>,
      PoolToKernel<graph::AvgPool2DOp>>(patterns.getContext());
  // Comparisons are kernel.binary kinds; select is its own kernel.
  patterns.add<BinaryToKernel<graph::EqOp>, BinaryToKernel<graph::NeOp>,
               BinaryToKernel<graph::LtOp>, BinaryToKernel<graph::LeOp>,
               BinaryToKernel<graph::GtOp>, BinaryToKernel<graph::GeOp>,
               SameFormToKernel<graph::SelectOp, kernel::SelectOp>>(
      patterns.getContext());
}

LogicalResult mirage::convertToDefaultSchedule(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  populateGraphToKernelPatterns(patterns);
  ConversionTarget target(*ctx);
  target.addIllegalDialect<graph::GraphDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(root, target, std::move(patterns));
}

namespace {
struct GraphToKernelPass
    : public mirage::impl::GraphToKernelBase<GraphToKernelPass> {
  void runOnOperation() override {
    if (failed(convertToDefaultSchedule(getOperation())))
      return signalPassFailure();
  }
};

} // namespace
