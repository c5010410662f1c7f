//===- ShapeRules.cpp - shape rules shared by all levels ------------------===//

#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Dialect/Traits.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

namespace mirage {

static LogicalResult overflow(OptLoc loc) {
  return emitOptionalError(loc, "shape arithmetic overflows 64 bits");
}

static std::string fmt(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

std::optional<int64_t> checkedElementCount(ArrayRef<int64_t> dims) {
  std::optional<int64_t> n = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return std::nullopt;
    n = llvm::checkedMul(*n, d);
    if (!n)
      return std::nullopt;
  }
  return n;
}

std::optional<int64_t> checkedProduct(int64_t a, int64_t b) {
  if (a < 0 || b < 0)
    return std::nullopt;
  return llvm::checkedMul(a, b);
}

LogicalResult verifyElementCountWithin(OptLoc loc, ArrayRef<int64_t> dims,
                                       int64_t limit, StringRef what,
                                       StringRef why) {
  std::optional<int64_t> n = checkedElementCount(dims);
  if (!n)
    return emitOptionalError(loc, what, " ", fmt(dims),
                             " has too many elements to count in 64 bits");
  if (*n > limit)
    return emitOptionalError(loc, what, " ", fmt(dims), " has ", *n,
                             " elements, more than the limit of ", limit, " ",
                             why);
  return success();
}

FailureOr<Shape> inferMatmulShape(OptLoc loc, ArrayRef<int64_t> lhs,
                                  ArrayRef<int64_t> rhs) {
  if (lhs.size() < 2 || lhs.size() != rhs.size())
    return emitOptionalError(loc, "matmul operands must have equal rank >= 2, "
                                  "got ",
                             fmt(lhs), " and ", fmt(rhs));
  size_t r = lhs.size();
  if (lhs.take_front(r - 2) != rhs.take_front(r - 2))
    return emitOptionalError(loc, "matmul batch dimensions differ: ", fmt(lhs),
                             " and ", fmt(rhs));
  if (lhs[r - 1] != rhs[r - 2])
    return emitOptionalError(loc, "matmul contraction sizes differ: lhs has ",
                             lhs[r - 1], " columns, rhs has ", rhs[r - 2],
                             " rows");
  Shape out(lhs.take_front(r - 1));
  out.push_back(rhs[r - 1]);
  return out;
}

FailureOr<Shape> inferBroadcastShape(OptLoc loc, ArrayRef<int64_t> lhs,
                                     ArrayRef<int64_t> rhs) {
  Shape out;
  if (!OpTrait::util::getBroadcastedShape(lhs, rhs, out))
    return emitOptionalError(loc, "shapes ", fmt(lhs), " and ", fmt(rhs),
                             " do not broadcast");
  return out;
}

LogicalResult verifyBroadcastTo(OptLoc loc, ArrayRef<int64_t> from,
                                ArrayRef<int64_t> to) {
  bool ok = from.size() <= to.size();
  for (size_t i = 0; ok && i < from.size(); ++i) {
    int64_t f = from[from.size() - 1 - i], t = to[to.size() - 1 - i];
    ok = f == t || f == 1;
  }
  if (!ok)
    return emitOptionalError(loc, "shape ", fmt(from),
                             " does not broadcast to ", fmt(to));
  return success();
}

LogicalResult verifyDim(OptLoc loc, int64_t rank, int64_t dim) {
  if (dim < 0 || dim >= rank)
    return emitOptionalError(loc, "dimension ", dim, " is out of range for rank ",
                             rank);
  return success();
}

FailureOr<Shape> inferReduceShape(OptLoc loc, ArrayRef<int64_t> input,
                                  int64_t dim) {
  if (failed(verifyDim(loc, input.size(), dim)))
    return failure();
  Shape out(input);
  out[dim] = 1;
  return out;
}

FailureOr<Shape> inferTransposeShape(OptLoc loc, ArrayRef<int64_t> input,
                                     ArrayRef<int64_t> perm) {
  if (perm.size() != input.size())
    return emitOptionalError(loc, "permutation has ", perm.size(),
                             " entries for rank ", input.size());
  llvm::SmallBitVector seen(perm.size());
  Shape out;
  for (int64_t p : perm) {
    if (p < 0 || p >= (int64_t)perm.size() || seen.test(p))
      return emitOptionalError(loc, "perm ", fmt(perm),
                               " is not a permutation of [0, ", perm.size(),
                               ")");
    seen.set(p);
    out.push_back(input[p]);
  }
  return out;
}

FailureOr<Shape> inferRepeatShape(OptLoc loc, ArrayRef<int64_t> input,
                                  ArrayRef<int64_t> repeats) {
  if (repeats.size() != input.size())
    return emitOptionalError(loc, "repeats has ", repeats.size(),
                             " entries for rank ", input.size());
  Shape out;
  for (auto [d, r] : llvm::zip(input, repeats)) {
    if (r < 1)
      return emitOptionalError(loc, "repeat counts must be >= 1, got ",
                               fmt(repeats));
    std::optional<int64_t> n = llvm::checkedMul(d, r);
    if (!n)
      return overflow(loc);
    out.push_back(*n);
  }
  return out;
}

LogicalResult verifyReshape(OptLoc loc, ArrayRef<int64_t> input,
                            ArrayRef<int64_t> result) {
  std::optional<int64_t> in = checkedElementCount(input),
                         out = checkedElementCount(result);
  if (!in || !out)
    return overflow(loc);
  if (*in != *out)
    return emitOptionalError(loc, "reshape from ", fmt(input), " to ",
                             fmt(result), " changes the element count (", *in,
                             " vs ", *out, ")");
  return success();
}

bool isUnitDimReshape(ArrayRef<int64_t> input, ArrayRef<int64_t> result) {
  auto notUnit = [](int64_t size) { return size != 1; };
  return llvm::equal(llvm::make_filter_range(input, notUnit),
                     llvm::make_filter_range(result, notUnit));
}

FailureOr<Shape> inferConcatShape(OptLoc loc,
                                  ArrayRef<SmallVector<int64_t>> inputs,
                                  int64_t dim) {
  if (inputs.empty())
    return emitOptionalError(loc, "concat needs at least one input");
  ArrayRef<int64_t> first = inputs.front();
  if (failed(verifyDim(loc, first.size(), dim)))
    return failure();
  Shape out(first);
  for (ArrayRef<int64_t> s : inputs.drop_front()) {
    bool ok = s.size() == first.size();
    for (size_t i = 0; ok && i < s.size(); ++i)
      ok = (int64_t)i == dim || s[i] == first[i];
    if (!ok)
      return emitOptionalError(loc, "concat inputs ", fmt(first), " and ",
                               fmt(s), " differ outside dimension ", dim);
    std::optional<int64_t> n = llvm::checkedAdd(out[dim], s[dim]);
    if (!n)
      return overflow(loc);
    out[dim] = *n;
  }
  return out;
}

FailureOr<SmallVector<Shape>> inferSplitShapes(OptLoc loc,
                                               ArrayRef<int64_t> input,
                                               int64_t dim,
                                               ArrayRef<int64_t> sizes) {
  if (failed(verifyDim(loc, input.size(), dim)))
    return failure();
  int64_t total = 0;
  SmallVector<Shape> out;
  for (int64_t s : sizes) {
    if (s < 1)
      return emitOptionalError(loc, "split sizes must be >= 1, got ",
                               fmt(sizes));
    std::optional<int64_t> next = llvm::checkedAdd(total, s);
    if (!next)
      return overflow(loc);
    total = *next;
    Shape piece(input);
    piece[dim] = s;
    out.push_back(piece);
  }
  if (total != input[dim])
    return emitOptionalError(loc, "split sizes ", fmt(sizes), " add up to ",
                             total, ", not to dimension ", dim, " of size ",
                             input[dim]);
  return out;
}

/// Output extent of a sliding window, or failure when the window does not fit.
static FailureOr<int64_t> windowExtent(OptLoc loc, int64_t in, int64_t k,
                                       int64_t stride, int64_t pad,
                                       int64_t dil) {
  std::optional<int64_t> dilated = llvm::checkedMul(dil, k - 1);
  std::optional<int64_t> padded = llvm::checkedMul<int64_t>(2, pad);
  if (padded)
    padded = llvm::checkedAdd(in, *padded);
  if (!dilated || !padded)
    return overflow(loc);
  int64_t span = *dilated + 1;
  if (*padded < span)
    return emitOptionalError(loc, "window of extent ", span,
                             " does not fit an input of size ", in,
                             " with padding ", pad);
  return (*padded - span) / stride + 1;
}

static LogicalResult verifyPairs(OptLoc loc, StringRef what,
                                 ArrayRef<int64_t> v, int64_t minValue) {
  if (v.size() != 2)
    return emitOptionalError(loc, what, " must have 2 entries, got ", v.size());
  if (v[0] < minValue || v[1] < minValue)
    return emitOptionalError(loc, what, " entries must be >= ", minValue,
                             ", got ", fmt(v));
  return success();
}

FailureOr<Shape> inferConv2DShape(OptLoc loc, ArrayRef<int64_t> input,
                                  ArrayRef<int64_t> weight,
                                  ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> padding,
                                  ArrayRef<int64_t> dilations, int64_t groups) {
  if (input.size() != 4 || weight.size() != 4)
    return emitOptionalError(loc, "conv2d expects rank-4 NCHW input and "
                                  "OIHW weight, got ",
                             fmt(input), " and ", fmt(weight));
  if (failed(verifyPairs(loc, "strides", strides, 1)) ||
      failed(verifyPairs(loc, "padding", padding, 0)) ||
      failed(verifyPairs(loc, "dilations", dilations, 1)))
    return failure();
  if (weight[2] < 1 || weight[3] < 1)
    return emitOptionalError(loc, "conv2d kernel must be at least 1x1, got ",
                             weight[2], "x", weight[3]);
  if (groups < 1 || input[1] % groups || weight[0] % groups)
    return emitOptionalError(loc, "groups = ", groups,
                             " must divide the input channels (", input[1],
                             ") and output channels (", weight[0], ")");
  if (weight[1] * groups != input[1])
    return emitOptionalError(loc, "weight has ", weight[1],
                             " input channels per group, expected ",
                             input[1] / groups);
  auto oh = windowExtent(loc, input[2], weight[2], strides[0], padding[0],
                         dilations[0]);
  auto ow = windowExtent(loc, input[3], weight[3], strides[1], padding[1],
                         dilations[1]);
  if (failed(oh) || failed(ow))
    return failure();
  return Shape{input[0], weight[0], *oh, *ow};
}

FailureOr<Shape> inferPool2DShape(OptLoc loc, ArrayRef<int64_t> input,
                                  ArrayRef<int64_t> kernel,
                                  ArrayRef<int64_t> strides,
                                  ArrayRef<int64_t> padding) {
  if (input.size() != 4)
    return emitOptionalError(loc, "pooling expects a rank-4 NCHW input, got ",
                             fmt(input));
  if (failed(verifyPairs(loc, "kernel", kernel, 1)) ||
      failed(verifyPairs(loc, "strides", strides, 1)) ||
      failed(verifyPairs(loc, "padding", padding, 0)))
    return failure();
  if (padding[0] >= kernel[0] || padding[1] >= kernel[1])
    return emitOptionalError(loc, "padding ", fmt(padding),
                             " must be smaller than the window ", fmt(kernel));
  auto oh = windowExtent(loc, input[2], kernel[0], strides[0], padding[0], 1);
  auto ow = windowExtent(loc, input[3], kernel[1], strides[1], padding[1], 1);
  if (failed(oh) || failed(ow))
    return failure();
  return Shape{input[0], input[1], *oh, *ow};
}

//===----------------------------------------------------------------------===//
// Indexing (issue 24)
//===----------------------------------------------------------------------===//

FailureOr<Shape> inferGatherShape(OptLoc loc, ArrayRef<int64_t> data,
                                  ArrayRef<int64_t> indices, int64_t axis) {
  if (failed(verifyDim(loc, data.size(), axis)))
    return failure();
  if (data[axis] < 1)
    return emitOptionalError(loc, "gathers from an empty dimension ", axis);
  Shape out(data.begin(), data.begin() + axis);
  out.append(indices.begin(), indices.end());
  out.append(data.begin() + axis + 1, data.end());
  return out;
}

LogicalResult verifyElementsIndexShape(OptLoc loc, ArrayRef<int64_t> data,
                                       ArrayRef<int64_t> indices,
                                       int64_t axis) {
  if (indices.size() != data.size())
    return emitOptionalError(loc, "indices have rank ", indices.size(),
                             " but the data has rank ", data.size());
  if (failed(verifyDim(loc, data.size(), axis)))
    return failure();
  if (data[axis] < 1)
    return emitOptionalError(loc, "indexes an empty dimension ", axis);
  for (size_t d = 0; d < data.size(); ++d)
    if (static_cast<int64_t>(d) != axis && indices[d] > data[d])
      return emitOptionalError(loc, "indices are ", indices[d],
                               " long in dimension ", d,
                               ", longer than the data's ", data[d]);
  return success();
}

LogicalResult verifyOneHotShape(OptLoc loc, ArrayRef<int64_t> indices,
                                ArrayRef<int64_t> result) {
  if (result.size() != indices.size() + 1 ||
      result.drop_back() != indices)
    return emitOptionalError(loc, "result shape [", result,
                             "] must be the indices' [", indices,
                             "] and one more dimension, the depth");
  if (result.back() < 1)
    return emitOptionalError(loc, "depth must be at least 1, not ",
                             result.back());
  return success();
}

FailureOr<Shape> inferTopKShape(OptLoc loc, ArrayRef<int64_t> input,
                                int64_t k, int64_t dim) {
  if (failed(verifyDim(loc, input.size(), dim)))
    return failure();
  if (k < 1 || k > input[dim])
    return emitOptionalError(loc, "k = ", k, " must lie in [1, ", input[dim],
                             "], the size of dimension ", dim);
  Shape out(input);
  out[dim] = k;
  return out;
}

LogicalResult verifyUnaryParams(OptLoc loc, UnaryKind kind,
                                ArrayRef<double> params) {
  size_t expected = 0;
  switch (kind) {
  case UnaryKind::clamp:
    expected = 2;
    break;
  case UnaryKind::scale:
  case UnaryKind::pow:
  case UnaryKind::offset:
    expected = 1;
    break;
  default:
    break;
  }
  if (params.size() != expected)
    return emitOptionalError(loc, "unary kind '", stringifyUnaryKind(kind),
                             "' takes ", expected, " parameter(s), got ",
                             params.size());
  if (kind == UnaryKind::clamp && !(params[0] <= params[1]))
    return emitOptionalError(loc, "clamp bounds are empty: min ", params[0],
                             " > max ", params[1]);
  return success();
}

} // namespace mirage
