//===- RegionAnalysis.cpp - PET's two theorems on graph programs ----------===//
//
// Theorem 1 (boxes). Walk each program forward and keep, for every value
// and each of its axes, the points where the linear form that computes an
// element may change (cuts), and the translation of the arguments that a
// unit step along the axis induces (the argument axes it moves, and by how
// much: a convolution of stride s moves its input s per output step).
// Between two consecutive cuts of every axis, an element and its neighbour
// are the same form over translated arguments. If both programs induce the
// same translation, a box of the common cuts is therefore either equal in
// both programs at every position or at none: the difference at u + e is the
// difference at u with the arguments renamed.
//
// Theorem 2 (tests). A position where the two programs are different
// polynomials of degree at most D in the argument elements agrees on
// inputs drawn uniformly from Z_p with probability at most D / p (Schwartz
// and Zippel). A box is tested at two positions per test, T tests; a wrong
// box passes all with probability at most (D / p)^T, and some wrong box
// among B does with at most B (D / p)^T, which is the bound reported.
// Equal polynomials always agree, so a box found wrong is wrong.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/PartialEquivalence/PartialEquivalence.h"
#include "mirage/Superopt/Semantics/FieldArithmetic.h"
#include "mirage/Superopt/Semantics/FiniteField.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Superopt/Semantics/SplitMix64.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace mirage;
using namespace mirage::pet;
using namespace mirage::superopt;

namespace {
/// One axis of a value: where its form may change, and the translation of
/// the arguments one step along it induces ((argument, axis) -> step).
struct AxisInfo {
  std::set<int64_t> cuts;
  std::map<std::pair<unsigned, unsigned>, int64_t> shift;
};

struct ValueInfo {
  SmallVector<AxisInfo, 4> axes;
  unsigned degree = 0;
};

llvm::Error fail(Operation *op, const llvm::Twine &why) {
  std::string where;
  llvm::raw_string_ostream os(where);
  op->getLoc().print(os);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "'" + op->getName().getStringRef() + "' at " +
                                     where + ": " + why);
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// The translation of `from` merged into `into`; fails when the same
/// argument axis moves by two different steps (the value mixes
/// translations: no box of it is shift-invariant).
bool mergeShift(AxisInfo &into, const AxisInfo &from, int64_t scale = 1) {
  for (auto [key, step] : from.shift) {
    auto [it, inserted] = into.shift.try_emplace(key, step * scale);
    if (!inserted && it->second != step * scale)
      return false;
  }
  return true;
}

/// Cuts of an axis of extent `n` within [0, n], with 0 and n.
void clampCuts(AxisInfo &a, int64_t n) {
  std::set<int64_t> kept = {0, n};
  for (int64_t c : a.cuts)
    if (c > 0 && c < n)
      kept.insert(c);
  a.cuts = std::move(kept);
}

/// An axis that copies `from` element for element (the same extent).
AxisInfo same(const AxisInfo &from) { return from; }

/// Elementwise ops: the union of the operands' axes, aligned at the
/// trailing axis; an operand axis of extent 1 broadcast to more is constant
/// along it and adds nothing.
llvm::Expected<ValueInfo> elementwise(Operation *op,
                                      ArrayRef<const ValueInfo *> ins,
                                      unsigned degree) {
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  ValueInfo r;
  r.axes.resize(out.size());
  r.degree = degree;
  for (auto [i, in] : llvm::enumerate(ins)) {
    ArrayRef<int64_t> shape = shapeOf(op->getOperand(i));
    int64_t offset = out.size() - shape.size();
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1 && out[offset + d] != 1)
        continue;
      AxisInfo &axis = r.axes[offset + d];
      axis.cuts.insert(in->axes[d].cuts.begin(), in->axes[d].cuts.end());
      if (!mergeShift(axis, in->axes[d]))
        return fail(op, "its operands translate the arguments differently");
    }
  }
  for (size_t d = 0; d < out.size(); ++d)
    clampCuts(r.axes[d], out[d]);
  return r;
}

/// A sliding window along one axis: output t reads input t s - pad + j dil
/// for j < k. Its form changes where one of those reads crosses an input
/// cut (the extent's ends included: beyond them it reads padding).
AxisInfo window(const AxisInfo &in, int64_t outExtent, int64_t k,
                int64_t stride, int64_t pad, int64_t dil) {
  AxisInfo r;
  for (int64_t a : in.cuts)
    for (int64_t j = 0; j < k; ++j) {
      // The first t with t s - pad + j dil >= a.
      int64_t num = a + pad - j * dil;
      int64_t t = num >= 0 ? (num + stride - 1) / stride : -((-num) / stride);
      r.cuts.insert(t);
    }
  clampCuts(r, outExtent);
  for (auto [key, step] : in.shift)
    r.shift[key] = step * stride;
  return r;
}

llvm::Expected<ValueInfo> conv2d(graph::Conv2DOp op, const ValueInfo &in,
                                 const ValueInfo &w) {
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  ArrayRef<int64_t> wShape = shapeOf(op.getWeight());
  ValueInfo r;
  r.degree = in.degree + w.degree;
  r.axes.resize(4);
  r.axes[0] = same(in.axes[0]);
  // Output channel o reads weight row o; a group boundary changes which
  // input channels it sums.
  r.axes[1] = same(w.axes[0]);
  int64_t perGroup = out[1] / std::max<int64_t>(1, op.getGroups());
  for (int64_t g = 1; g < static_cast<int64_t>(op.getGroups()); ++g)
    r.axes[1].cuts.insert(g * perGroup);
  for (int64_t s = 0; s < 2; ++s)
    r.axes[2 + s] =
        window(in.axes[2 + s], out[2 + s], wShape[2 + s], op.getStrides()[s],
               op.getPadding()[s], op.getDilations()[s]);
  return r;
}

llvm::Expected<ValueInfo> avgPool(graph::AvgPool2DOp op, const ValueInfo &in) {
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  ValueInfo r;
  r.degree = in.degree;
  r.axes.resize(4);
  r.axes[0] = same(in.axes[0]);
  r.axes[1] = same(in.axes[1]);
  for (int64_t s = 0; s < 2; ++s)
    r.axes[2 + s] = window(in.axes[2 + s], out[2 + s], op.getKernel()[s],
                           op.getStrides()[s], op.getPadding()[s], 1);
  return r;
}

llvm::Expected<ValueInfo> concat(graph::ConcatOp op,
                                 ArrayRef<const ValueInfo *> ins) {
  int64_t dim = op.getDim();
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  ValueInfo r;
  r.axes.resize(out.size());
  int64_t offset = 0;
  for (auto [i, in] : llvm::enumerate(ins)) {
    r.degree = std::max(r.degree, in->degree);
    for (size_t d = 0; d < out.size(); ++d) {
      AxisInfo &axis = r.axes[d];
      for (int64_t c : in->axes[d].cuts)
        axis.cuts.insert(d == static_cast<size_t>(dim) ? c + offset : c);
      if (!mergeShift(axis, in->axes[d]))
        return fail(op, "its inputs translate the arguments differently");
    }
    offset += shapeOf(op.getInputs()[i])[dim];
  }
  for (size_t d = 0; d < out.size(); ++d)
    clampCuts(r.axes[d], out[d]);
  return r;
}

SmallVector<ValueInfo, 1> split(graph::SplitOp op, const ValueInfo &in) {
  int64_t dim = op.getDim();
  SmallVector<ValueInfo, 1> results;
  int64_t offset = 0;
  for (Value piece : op.getResults()) {
    ArrayRef<int64_t> shape = shapeOf(piece);
    ValueInfo r = in;
    AxisInfo &axis = r.axes[dim];
    std::set<int64_t> cuts;
    for (int64_t c : axis.cuts)
      cuts.insert(c - offset);
    axis.cuts = std::move(cuts);
    for (size_t d = 0; d < shape.size(); ++d)
      clampCuts(r.axes[d], shape[d]);
    results.push_back(std::move(r));
    offset += shape[dim];
  }
  return results;
}

/// The infos of a function's outputs.
llvm::Expected<SmallVector<ValueInfo, 1>> propagate(func::FuncOp func) {
  if (!llvm::hasSingleElement(func.getBody()))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the region analysis needs a body of one "
                                   "block");
  Block &body = func.getBody().front();
  llvm::DenseMap<Value, ValueInfo> infos;
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "an argument is not a static tensor");
    ValueInfo info;
    info.degree = 1;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      AxisInfo axis;
      axis.cuts = {0, type.getDimSize(d)};
      axis.shift[{arg.getArgNumber(), static_cast<unsigned>(d)}] = 1;
      info.axes.push_back(std::move(axis));
    }
    infos[arg] = std::move(info);
  }
  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<ValueInfo, 1> outs;
      for (Value v : ret.getOperands())
        outs.push_back(infos.lookup(v));
      return outs;
    }
    SmallVector<const ValueInfo *> ins;
    for (Value v : op.getOperands()) {
      auto it = infos.find(v);
      if (it == infos.end())
        return fail(&op, "an operand is not a value of the function");
      ins.push_back(&it->second);
    }
    auto binaryDegree = [&](bool product) {
      return product ? ins[0]->degree + ins[1]->degree
                     : std::max(ins[0]->degree, ins[1]->degree);
    };
    if (auto s = dyn_cast<graph::SplitOp>(op)) {
      for (auto [v, info] : llvm::zip(s.getResults(), split(s, *ins[0])))
        infos[v] = std::move(info);
      continue;
    }
    llvm::Expected<ValueInfo> info =
        llvm::TypeSwitch<Operation *, llvm::Expected<ValueInfo>>(&op)
            .Case([&](graph::Conv2DOp c) { return conv2d(c, *ins[0], *ins[1]); })
            .Case([&](graph::AvgPool2DOp p) { return avgPool(p, *ins[0]); })
            .Case([&](graph::ConcatOp c) { return concat(c, ins); })
            .Case<graph::AddOp, graph::SubOp>([&](Operation *o) {
              return elementwise(o, ins, binaryDegree(false));
            })
            .Case([&](graph::MulOp o) {
              return elementwise(o, ins, binaryDegree(true));
            })
            .Case<graph::ScalarMulOp, graph::ScalarAddOp>([&](Operation *o) {
              return elementwise(o, ins, ins[0]->degree);
            })
            .Default([&](Operation *o) -> llvm::Expected<ValueInfo> {
              return fail(o, "outside the region analysis (conv2d, "
                             "avg_pool2d, concat, split, add, sub, mul, "
                             "scalar_mul, scalar_add)");
            });
    if (!info)
      return info.takeError();
    infos[op.getResult(0)] = std::move(*info);
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the function has no return");
}

int64_t linearIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> at) {
  int64_t index = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    index = index * shape[d] + at[d];
  return index;
}
} // namespace

int64_t Box::positions() const {
  int64_t n = 1;
  for (size_t d = 0; d < lo.size(); ++d)
    n *= hi[d] - lo[d];
  return n;
}

unsigned RegionReport::wrongBoxes() const {
  unsigned n = 0;
  for (const auto &out : boxes)
    for (const Box &b : out)
      n += b.wrong;
  return n;
}

std::string RegionReport::summary() const {
  uint64_t total = 0;
  for (const auto &out : boxes)
    total += out.size();
  return llvm::formatv("{0} box(es) ({1} wrong); {2} of {3} positions tested "
                       "in each of {4} test(s) over Z_p, p = {5} (degree {6}); "
                       "P(a wrong box passed) <= 2^{7:f1}",
                       total, wrongBoxes(), positionsTested, totalPositions,
                       tests, p, degree, log2Bound)
      .str();
}

llvm::Expected<std::vector<SmallVector<SmallVector<int64_t>>>>
mirage::pet::outputCuts(func::FuncOp func) {
  llvm::Expected<SmallVector<ValueInfo, 1>> outs = propagate(func);
  if (!outs)
    return outs.takeError();
  std::vector<SmallVector<SmallVector<int64_t>>> cuts;
  for (const ValueInfo &info : *outs) {
    SmallVector<SmallVector<int64_t>> axes;
    for (const AxisInfo &a : info.axes)
      axes.emplace_back(a.cuts.begin(), a.cuts.end());
    cuts.push_back(std::move(axes));
  }
  return cuts;
}

llvm::Expected<RegionReport>
mirage::pet::analyzeRegions(func::FuncOp original, func::FuncOp mutant,
                            const RegionOptions &options) {
  auto error = [](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
  };
  if (original.getFunctionType() != mutant.getFunctionType())
    return error("the programs have different signatures");
  llvm::Expected<SmallVector<ValueInfo, 1>> a = propagate(original);
  if (!a)
    return a.takeError();
  llvm::Expected<SmallVector<ValueInfo, 1>> b = propagate(mutant);
  if (!b)
    return b.takeError();

  RegionReport report;
  report.boxes.resize(a->size());
  uint64_t boxCount = 0;
  for (size_t o = 0; o < a->size(); ++o) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(original.getResultTypes()[o]).getShape();
    report.degree = std::max({report.degree, (*a)[o].degree, (*b)[o].degree});
    // The common cuts of both programs, and their translations must agree
    // (theorem 1's condition).
    SmallVector<SmallVector<int64_t>> cuts;
    uint64_t count = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      const AxisInfo &x = (*a)[o].axes[d], &y = (*b)[o].axes[d];
      if (x.shift != y.shift)
        return error(llvm::formatv("output {0}, axis {1}: the programs "
                                   "translate their arguments differently "
                                   "along it, so its boxes are not "
                                   "comparable",
                                   o, d));
      std::set<int64_t> all = x.cuts;
      all.insert(y.cuts.begin(), y.cuts.end());
      cuts.emplace_back(all.begin(), all.end());
      count *= cuts.back().size() - 1;
      if (count > options.maxBoxes)
        return error(llvm::formatv("output {0} has more than {1} boxes",
                                   o, options.maxBoxes));
    }
    boxCount += count;
    report.totalPositions += numElements(shape);
    // Every box, in row-major order of its corner.
    SmallVector<size_t, 4> at(shape.size(), 0);
    for (uint64_t n = 0; n < count; ++n) {
      Box box;
      for (size_t d = 0; d < shape.size(); ++d) {
        box.lo.push_back(cuts[d][at[d]]);
        box.hi.push_back(cuts[d][at[d] + 1]);
      }
      report.boxes[o].push_back(std::move(box));
      for (int64_t d = shape.size() - 1; d >= 0; --d) {
        if (++at[d] + 1 < cuts[d].size())
          break;
        at[d] = 0;
      }
    }
  }

  llvm::Expected<FieldPair> field = FieldPair::random(
      options.fieldBits, SplitMix64::mix(options.seed ^ 0x706574ULL));
  if (!field)
    return field.takeError();
  report.p = field->p();
  double perTest =
      std::log2(std::max(1u, report.degree)) - std::log2(double(field->p()));
  double log2Boxes = std::log2(double(std::max<uint64_t>(1, boxCount)));
  report.tests = std::max(
      1.0, std::ceil((options.targetLog2Bound - log2Boxes) / perTest));
  report.log2Bound = log2Boxes + report.tests * perTest;

  // The positions each box is tested at, and how many tests found each
  // different.
  struct Probe {
    unsigned output;
    size_t box;
    int64_t index;
    unsigned differed = 0;
  };
  std::vector<Probe> probes;
  for (size_t o = 0; o < report.boxes.size(); ++o) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(original.getResultTypes()[o]).getShape();
    for (size_t i = 0; i < report.boxes[o].size(); ++i) {
      const Box &box = report.boxes[o][i];
      SmallVector<int64_t, 4> last;
      for (size_t d = 0; d < shape.size(); ++d)
        last.push_back(box.hi[d] - 1);
      probes.push_back({unsigned(o), i, linearIndex(shape, box.lo)});
      if (options.twoPositions && box.positions() > 1)
        probes.push_back({unsigned(o), i, linearIndex(shape, last)});
    }
  }
  report.positionsTested = probes.size();

  // Sizes before anything is allocated: every value within the
  // interpreter's limit, and the runs' peak within the memory limit.
  {
    std::string why;
    ScopedDiagnosticHandler capture(original.getContext(), [&](Diagnostic &d) {
      if (why.empty())
        why = d.str();
      return success();
    });
    if (failed(checkInterpretable(original)) ||
        failed(checkInterpretable(mutant)))
      return error("the site programs cannot be interpreted: " + why);
  }
  uint64_t limit = options.memoryLimitBytes ? options.memoryLimitBytes
                                            : physicalMemoryBytes();
  uint64_t peak = estimatePeakBytes(original, kFieldElementBytes) +
                  estimatePeakBytes(mutant, kFieldElementBytes);
  if (peak > limit)
    return error(llvm::formatv("the field runs of the site programs need "
                               "about {0}, over the limit of {1}",
                               formatByteCount(peak), formatByteCount(limit)));

  SplitMix64 gen(SplitMix64::mix(options.seed ^ 0x696e70757473ULL) ^
                 field->q());
  Block &body = original.getBody().front();
  for (unsigned t = 0; t < report.tests; ++t) {
    SmallVector<FieldTensor> inputs;
    for (BlockArgument arg : body.getArguments()) {
      FieldTensor x;
      x.p = Tensor<uint64_t>(cast<RankedTensorType>(arg.getType()).getShape());
      for (uint64_t &v : x.p.data)
        v = gen.below(field->p());
      inputs.push_back(std::move(x));
    }
    uint64_t key = gen.next();
    FieldArithmetic arithA(*field, key), arithB(*field, key);
    // The interpreter's diagnostics (a value too large, say) become the
    // reason the analysis does not apply, not errors of the caller's run.
    std::string why;
    FailureOr<SmallVector<FieldTensor>> outA = failure(), outB = failure();
    {
      ScopedDiagnosticHandler capture(original.getContext(),
                                      [&](Diagnostic &d) {
                                        if (why.empty())
                                          why = d.str();
                                        return success();
                                      });
      outA = interpretField(original, inputs, arithA);
      if (succeeded(outA))
        outB = interpretField(mutant, inputs, arithB);
    }
    if (failed(outA) || failed(outB))
      return error(llvm::formatv("the {0} could not be run in the field: {1}",
                                 failed(outA) ? "original" : "mutant", why));
    for (Probe &probe : probes)
      probe.differed += (*outA)[probe.output].p.data[probe.index] !=
                        (*outB)[probe.output].p.data[probe.index];
  }
  // A box is wrong if a test told the programs apart anywhere in it. Its
  // two positions must then agree (theorem 1): one wrong in every test and
  // the other right in every test means the cuts missed a change of form.
  for (size_t i = 0; i < probes.size(); ++i) {
    const Probe &probe = probes[i];
    Box &box = report.boxes[probe.output][probe.box];
    box.wrong |= probe.differed > 0;
    if (i + 1 < probes.size() && probes[i + 1].output == probe.output &&
        probes[i + 1].box == probe.box) {
      unsigned other = probes[i + 1].differed;
      if ((probe.differed == report.tests && other == 0) ||
          (other == report.tests && probe.differed == 0))
        return error(llvm::formatv(
            "output {0}, box {1}: right at one corner and wrong at the other "
            "in every test; the analysis missed a cut",
            probe.output, probe.box));
    }
  }
  return report;
}
