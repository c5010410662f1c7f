//===- Tensor.h - dense row-major tensors and data movement -----*- C++ -*-===//
//
// The interpreter's storage: a static shape and row-major elements. Data
// movement (transpose, broadcast, slicing, ...) does not depend on what the
// elements are, so it is written once here for every arithmetic: doubles for
// the fp64 and native-dtype runs, residues for the finite-field runs.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPEROPT_TENSOR_H
#define MIRAGE_SUPEROPT_TENSOR_H

#include "mirage/Dialect/Graph/ShapeRules.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"
#include <cassert>
#include <cstdint>
#include <vector>

namespace mirage::superopt {

using TensorShape = llvm::SmallVector<int64_t, 4>;

/// The element count of `shape`. Callers check sizes that come from a
/// program or a file against their limits first (the interpreter against
/// its memory limit, with a located diagnostic); a shape that still reaches
/// here with a negative dimension or a count that overflows 64 bits is a
/// bug, and stops the program rather than wrapping to a wrong size.
inline int64_t numElements(llvm::ArrayRef<int64_t> shape) {
  std::optional<int64_t> n = checkedElementCount(shape);
  if (!n)
    llvm::report_fatal_error("tensor shape with a negative dimension or more "
                             "elements than 64 bits count");
  return *n;
}

/// Row-major strides of `shape`.
/// a * b for the extent of a shape computed from other extents (a repeat,
/// an unfolded window), with the same guard as numElements.
inline int64_t productOfExtents(int64_t a, int64_t b) {
  std::optional<int64_t> n = checkedProduct(a, b);
  if (!n)
    llvm::report_fatal_error("tensor extent overflows 64 bits");
  return *n;
}

/// (Within a shape whose element count is checked, no stride overflows.)
inline TensorShape rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  TensorShape strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

template <typename T> struct Tensor {
  TensorShape shape;
  std::vector<T> data;

  Tensor() = default;
  explicit Tensor(llvm::ArrayRef<int64_t> shape, T init = T())
      : shape(shape.begin(), shape.end()), data(numElements(shape), init) {}
  Tensor(llvm::ArrayRef<int64_t> shape, std::vector<T> data)
      : shape(shape.begin(), shape.end()), data(std::move(data)) {
    assert(static_cast<int64_t>(this->data.size()) == numElements(shape));
  }

  int64_t size() const { return static_cast<int64_t>(data.size()); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
};

/// Calls f(dstIndex, srcIndex) for every element of a `dstShape` tensor whose
/// element at multi-index I is read from `src` at sum_d I[d] * srcStrides[d]
/// + srcOffset. Every data-movement op is an instance of this walk.
template <typename F>
void forEachStrided(llvm::ArrayRef<int64_t> dstShape,
                    llvm::ArrayRef<int64_t> srcStrides, int64_t srcOffset,
                    F &&f) {
  int64_t rank = dstShape.size();
  int64_t n = numElements(dstShape);
  if (n == 0)
    return;
  if (rank == 0) {
    f(0, srcOffset);
    return;
  }
  // Walk the innermost dimension as a tight loop.
  llvm::SmallVector<int64_t, 6> index(rank, 0);
  int64_t inner = dstShape[rank - 1], innerStride = srcStrides[rank - 1];
  int64_t src = srcOffset;
  for (int64_t dst = 0; dst < n; dst += inner) {
    for (int64_t j = 0; j < inner; ++j)
      f(dst + j, src + j * innerStride);
    for (int64_t d = rank - 2; d >= 0; --d) {
      src += srcStrides[d];
      if (++index[d] < dstShape[d])
        break;
      src -= srcStrides[d] * dstShape[d];
      index[d] = 0;
    }
  }
}

/// result.shape[i] = x.shape[perm[i]].
template <typename T>
Tensor<T> transpose(const Tensor<T> &x, llvm::ArrayRef<int64_t> perm) {
  TensorShape shape, strides, xStrides = rowMajorStrides(x.shape);
  for (int64_t p : perm) {
    shape.push_back(x.shape[p]);
    strides.push_back(xStrides[p]);
  }
  Tensor<T> r(shape);
  forEachStrided(shape, strides, 0,
                 [&](int64_t d, int64_t s) { r.data[d] = x.data[s]; });
  return r;
}

/// Strides that read `from` (aligned at the trailing dimension, NumPy
/// broadcasting) as a tensor of shape `to`: broadcast dimensions get stride 0.
inline TensorShape broadcastStrides(llvm::ArrayRef<int64_t> from,
                                    llvm::ArrayRef<int64_t> to) {
  TensorShape fromStrides = rowMajorStrides(from), strides(to.size(), 0);
  int64_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1)
      strides[offset + i] = fromStrides[i];
  return strides;
}

template <typename T>
Tensor<T> broadcastTo(const Tensor<T> &x, llvm::ArrayRef<int64_t> to) {
  if (llvm::ArrayRef<int64_t>(x.shape) == to)
    return x;
  Tensor<T> r(to);
  forEachStrided(to, broadcastStrides(x.shape, to), 0,
                 [&](int64_t d, int64_t s) { r.data[d] = x.data[s]; });
  return r;
}

template <typename T>
Tensor<T> reshape(Tensor<T> x, llvm::ArrayRef<int64_t> to) {
  assert(numElements(to) == x.size());
  x.shape.assign(to.begin(), to.end());
  return x;
}

/// The box [offsets, offsets + sizes) of x.
template <typename T>
Tensor<T> slice(const Tensor<T> &x, llvm::ArrayRef<int64_t> offsets,
                llvm::ArrayRef<int64_t> sizes) {
  TensorShape strides = rowMajorStrides(x.shape);
  int64_t base = 0;
  for (size_t d = 0; d < offsets.size(); ++d)
    base += offsets[d] * strides[d];
  Tensor<T> r(sizes);
  forEachStrided(sizes, strides, base,
                 [&](int64_t d, int64_t s) { r.data[d] = x.data[s]; });
  return r;
}

/// Writes `part` into the box of `dst` that starts at `offsets`.
template <typename T>
void insertSlice(Tensor<T> &dst, const Tensor<T> &part,
                 llvm::ArrayRef<int64_t> offsets) {
  TensorShape strides = rowMajorStrides(dst.shape);
  int64_t base = 0;
  for (size_t d = 0; d < offsets.size(); ++d)
    base += offsets[d] * strides[d];
  forEachStrided(part.shape, strides, base,
                 [&](int64_t s, int64_t d) { dst.data[d] = part.data[s]; });
}

template <typename T>
Tensor<T> concat(llvm::ArrayRef<const Tensor<T> *> parts, int64_t dim) {
  TensorShape shape = parts.front()->shape;
  shape[dim] = 0;
  for (const Tensor<T> *p : parts)
    shape[dim] += p->shape[dim];
  Tensor<T> r(shape);
  TensorShape offsets(shape.size(), 0);
  for (const Tensor<T> *p : parts) {
    insertSlice(r, *p, offsets);
    offsets[dim] += p->shape[dim];
  }
  return r;
}

/// Tiles x repeats[i] times along dimension i.
template <typename T>
Tensor<T> repeat(const Tensor<T> &x, llvm::ArrayRef<int64_t> repeats) {
  TensorShape shape;
  for (size_t d = 0; d < repeats.size(); ++d)
    shape.push_back(productOfExtents(x.shape[d], repeats[d]));
  Tensor<T> r(shape);
  TensorShape offsets(shape.size(), 0);
  int64_t copies = numElements(repeats);
  for (int64_t c = 0; c < copies; ++c) {
    int64_t rest = c;
    for (int64_t d = repeats.size() - 1; d >= 0; --d) {
      offsets[d] = (rest % repeats[d]) * x.shape[d];
      rest /= repeats[d];
    }
    insertSlice(r, x, offsets);
  }
  return r;
}

/// Unfolds the windows of an NCHW tensor for a convolution or pooling with
/// kernel KH x KW: the result is [N, C, KH*KW, OH*OW], where element
/// (n, c, kh*KW+kw, oh*OW+ow) is input (n, c, oh*sh - ph + kh*dh,
/// ow*sw - pw + kw*dw), or `pad` where that falls outside the input.
template <typename T>
Tensor<T>
im2col(const Tensor<T> &x, llvm::ArrayRef<int64_t> kernel,
       llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> padding,
       llvm::ArrayRef<int64_t> dilations, int64_t oh, int64_t ow, T pad) {
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  int64_t kh = kernel[0], kw = kernel[1];
  Tensor<T> r({n, c, productOfExtents(kh, kw), productOfExtents(oh, ow)},
              pad);
  T *out = r.data.data();
  for (int64_t nc = 0; nc < n * c; ++nc) {
    const T *in = x.data.data() + nc * h * w;
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j, out += oh * ow)
        for (int64_t y = 0; y < oh; ++y) {
          int64_t iy = y * strides[0] - padding[0] + i * dilations[0];
          if (iy < 0 || iy >= h)
            continue;
          for (int64_t z = 0; z < ow; ++z) {
            int64_t iz = z * strides[1] - padding[1] + j * dilations[1];
            if (iz >= 0 && iz < w)
              out[y * ow + z] = in[iy * w + iz];
          }
        }
  }
  return r;
}

} // namespace mirage::superopt

#endif // MIRAGE_SUPEROPT_TENSOR_H
