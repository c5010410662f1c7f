//===- InputScales.cpp - input magnitudes of the floating-point checks ----===//

#include "mirage/Superopt/Verification/InputScales.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include <cmath>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

static double largestFinite(FloatType type) {
  return llvm::APFloat::getLargest(type.getFloatSemantics()).convertToDouble();
}

/// Lowers `narrowest` to the element type of `t` if that is a float type
/// with a smaller range.
static void narrowTo(Type t, FloatType &narrowest) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(t));
  if (f && (!narrowest || largestFinite(f) < largestFinite(narrowest)))
    narrowest = f;
}

ScaleLadder mirage::superopt::planInputScales(func::FuncOp original,
                                              func::FuncOp candidate,
                                              unsigned maxScales) {
  // Every value counts, inner ones included: an f16 tile inside an f32
  // program overflows like an f16 tensor.
  FloatType narrowest;
  for (func::FuncOp f : {original, candidate})
    f->walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        narrowTo(t, narrowest);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            narrowTo(arg.getType(), narrowest);
    });
  ScaleLadder ladder;
  ladder.narrowest = narrowest;
  double root = narrowest ? std::sqrt(largestFinite(narrowest))
                          : std::sqrt(std::numeric_limits<double>::max());
  // The largest power of the ratio at or below the root: there every
  // product of two inputs is still finite in the dtype.
  while (ladder.ceiling * kScaleRatio <= root)
    ladder.ceiling *= kScaleRatio;
  for (double s = 1; s <= ladder.ceiling && ladder.scales.size() < maxScales;
       s *= kScaleRatio)
    ladder.scales.push_back(s);
  if (ladder.scales.empty())
    ladder.scales.push_back(1);
  return ladder;
}

bool mirage::superopt::isIndexInput(func::FuncOp f, unsigned argNumber) {
  auto type = cast<ShapedType>(f.getArgument(argNumber).getType());
  return isa<IntegerType>(type.getElementType());
}

/// The extent `use` indexes with operand `operand`, or 0 if it indexes none.
static int64_t indexedExtent(OpOperand &use) {
  auto dimOf = [](Value v, int64_t axis) {
    return cast<ShapedType>(v.getType()).getDimSize(axis);
  };
  Operation *op = use.getOwner();
  return TypeSwitch<Operation *, int64_t>(op)
      .Case<graph::GatherOp, kernel::GatherOp, graph::GatherElementsOp,
            kernel::GatherElementsOp, graph::ScatterElementsOp,
            kernel::ScatterElementsOp>([&](auto g) -> int64_t {
        if (use.get() != g.getIndices())
          return 0;
        return dimOf(g.getData(), g.getAxis());
      })
      .Case<graph::OneHotOp, kernel::OneHotOp>([&](auto o) -> int64_t {
        return cast<ShapedType>(o.getType()).getShape().back();
      })
      .Default([](Operation *) -> int64_t { return 0; });
}

int64_t mirage::superopt::indexInputBound(func::FuncOp original,
                                          func::FuncOp candidate,
                                          unsigned argNumber) {
  int64_t bound = 0;
  for (func::FuncOp f : {original, candidate}) {
    if (!f || argNumber >= f.getNumArguments())
      continue;
    for (OpOperand &use : f.getArgument(argNumber).getUses()) {
      int64_t extent = indexedExtent(use);
      if (extent > 0)
        bound = bound == 0 ? extent : std::min(bound, extent);
    }
  }
  return bound == 0 ? kIndexRangeWithoutUse : bound;
}
