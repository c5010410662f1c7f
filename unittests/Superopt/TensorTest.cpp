//===- TensorTest.cpp - data movement of the interpreter's tensors --------===//
//
// Every data-movement helper of Tensor.h against a reference written with
// explicit multi-indices: the reference never uses forEachStrided or the
// stride helpers it checks.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/Tensor.h"
#include "gtest/gtest.h"
#include <random>

using namespace mirage::superopt;

namespace {

using Shape = std::vector<int64_t>;

/// Distinct values 0.5, 1.5, ... so that every misplaced element shows.
Tensor<double> iota(const Shape &shape) {
  Tensor<double> t(shape);
  for (int64_t i = 0; i < t.size(); ++i)
    t.data[i] = i + 0.5;
  return t;
}

/// Multi-index of the row-major linear index `linear`, computed digit by
/// digit (the reference does not use rowMajorStrides).
Shape unflatten(int64_t linear, const Shape &shape) {
  Shape index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

int64_t flatten(const Shape &index, const Shape &shape) {
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + index[d];
  return linear;
}

Shape shapeOf(const Tensor<double> &t) {
  return Shape(t.shape.begin(), t.shape.end());
}

TEST(TensorTest, RowMajorStrides) {
  auto strides = rowMajorStrides({2, 3, 4});
  EXPECT_EQ(Shape(strides.begin(), strides.end()), (Shape{12, 4, 1}));
  EXPECT_EQ(numElements({2, 3, 4}), 24);
  EXPECT_EQ(numElements({}), 1);
  EXPECT_EQ(numElements({3, 0}), 0);
}

TEST(TensorDeathTest, SizesThatOverflowStopRatherThanWrap) {
  // 2^32 x 2^32 wrapped to 0 elements, and a tensor of that shape was
  // empty: every later read went out of bounds. Callers check sizes first
  // (the interpreter, with a located error); the tensor itself refuses.
  int64_t big = int64_t(1) << 32;
  EXPECT_DEATH((void)numElements({big, big}), "more elements than 64 bits");
  EXPECT_DEATH((void)numElements({2, -1}), "negative dimension");
  EXPECT_DEATH((void)productOfExtents(big, big), "overflows 64 bits");
  EXPECT_EQ(numElements({big, 2}), 2 * big);
  EXPECT_EQ(productOfExtents(big, 2), 2 * big);
}

TEST(TensorTest, TransposeEveryRank3Permutation) {
  Shape xs{2, 3, 4};
  Tensor<double> x = iota(xs);
  Shape perm{0, 1, 2};
  do {
    Tensor<double> r = transpose(x, llvm::ArrayRef<int64_t>(perm));
    Shape rs{xs[perm[0]], xs[perm[1]], xs[perm[2]]};
    ASSERT_EQ(shapeOf(r), rs);
    for (int64_t i = 0; i < r.size(); ++i) {
      Shape I = unflatten(i, rs), J(3);
      for (int d = 0; d < 3; ++d)
        J[perm[d]] = I[d];
      EXPECT_EQ(r.data[i], x.data[flatten(J, xs)])
          << "perm " << perm[0] << perm[1] << perm[2] << " at " << i;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST(TensorTest, TransposeSpotValues) {
  // x[a][b][c] = 12a + 4b + c + 0.5; perm [2, 0, 1]: r[c][a][b] = x[a][b][c].
  Tensor<double> x = iota({2, 3, 4});
  Tensor<double> r = transpose(x, {2, 0, 1});
  ASSERT_EQ(shapeOf(r), (Shape{4, 2, 3}));
  // r[3][1][2] = x[1][2][3] = 12 + 8 + 3 + 0.5.
  EXPECT_EQ(r.data[3 * 6 + 1 * 3 + 2], 23.5);
  // r[1][0][2] = x[0][2][1] = 9.5.
  EXPECT_EQ(r.data[1 * 6 + 0 * 3 + 2], 9.5);
}

/// NumPy broadcasting reference: align trailing dims, size-1 dims read 0.
Tensor<double> broadcastReference(const Tensor<double> &x, const Shape &to) {
  Shape xs = shapeOf(x);
  Tensor<double> r(to);
  size_t offset = to.size() - xs.size();
  for (int64_t i = 0; i < r.size(); ++i) {
    Shape I = unflatten(i, to), J(xs.size());
    for (size_t d = 0; d < xs.size(); ++d)
      J[d] = xs[d] == 1 ? 0 : I[offset + d];
    r.data[i] = x.data[flatten(J, xs)];
  }
  return r;
}

TEST(TensorTest, BroadcastToNumPyRules) {
  struct Case {
    Shape from, to;
  };
  for (const Case &c : {Case{{3, 1}, {2, 3, 4}}, Case{{4}, {2, 3, 4}},
                        Case{{1, 3, 1}, {2, 3, 5}}, Case{{2, 1, 4}, {2, 3, 4}},
                        Case{{1}, {5}}, Case{{}, {2, 2}},
                        Case{{3, 4}, {2, 1, 3, 4}}}) {
    Tensor<double> x = iota(c.from);
    Tensor<double> r = broadcastTo(x, c.to);
    Tensor<double> ref = broadcastReference(x, c.to);
    ASSERT_EQ(shapeOf(r), c.to);
    EXPECT_EQ(r.data, ref.data) << "from rank " << c.from.size();
  }
}

TEST(TensorTest, BroadcastSpotValues) {
  // A column [3, 1] broadcast to [2, 3, 4]: every row repeats its value.
  Tensor<double> col(Shape{3, 1}, std::vector<double>{10, 20, 30});
  Tensor<double> r = broadcastTo(col, {2, 3, 4});
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t c = 0; c < 4; ++c)
        EXPECT_EQ(r.data[a * 12 + b * 4 + c], 10.0 * (b + 1));
}

TEST(TensorTest, SliceAndInsertSlice) {
  Shape xs{4, 5, 6};
  Tensor<double> x = iota(xs);
  Shape offsets{1, 2, 3}, sizes{2, 3, 2};
  Tensor<double> s = slice(x, offsets, sizes);
  ASSERT_EQ(shapeOf(s), sizes);
  for (int64_t i = 0; i < s.size(); ++i) {
    Shape I = unflatten(i, sizes);
    for (int d = 0; d < 3; ++d)
      I[d] += offsets[d];
    EXPECT_EQ(s.data[i], x.data[flatten(I, xs)]) << i;
  }

  // Write the slice (negated) back into a copy: inside the box it is the
  // negation, outside the original.
  Tensor<double> part = s;
  for (double &v : part.data)
    v = -v;
  Tensor<double> y = x;
  insertSlice(y, part, offsets);
  for (int64_t i = 0; i < y.size(); ++i) {
    Shape I = unflatten(i, xs);
    bool inside = true;
    for (int d = 0; d < 3; ++d)
      inside &= I[d] >= offsets[d] && I[d] < offsets[d] + sizes[d];
    EXPECT_EQ(y.data[i], inside ? -x.data[i] : x.data[i]) << i;
  }
}

TEST(TensorTest, ConcatAlongEachDim) {
  for (int64_t dim = 0; dim < 3; ++dim) {
    Shape a{2, 3, 4}, b{2, 3, 4}, c{2, 3, 4};
    a[dim] = 1;
    b[dim] = 2;
    c[dim] = 3;
    Tensor<double> ta = iota(a), tb = iota(b), tc = iota(c);
    for (double &v : tb.data)
      v += 100;
    for (double &v : tc.data)
      v += 200;
    const Tensor<double> *parts[] = {&ta, &tb, &tc};
    Tensor<double> r = concat<double>(parts, dim);
    Shape rs{2, 3, 4};
    rs[dim] = 6;
    ASSERT_EQ(shapeOf(r), rs);
    for (int64_t i = 0; i < r.size(); ++i) {
      Shape I = unflatten(i, rs);
      int64_t k = I[dim];
      const Tensor<double> *src = k < 1 ? &ta : k < 3 ? &tb : &tc;
      I[dim] = k < 1 ? k : k < 3 ? k - 1 : k - 3;
      EXPECT_EQ(r.data[i], src->data[flatten(I, shapeOf(*src))])
          << "dim " << dim << " at " << i;
    }
  }
}

TEST(TensorTest, Repeat) {
  Shape xs{2, 3, 2}, reps{2, 1, 3};
  Tensor<double> x = iota(xs);
  Tensor<double> r = repeat(x, reps);
  Shape rs{4, 3, 6};
  ASSERT_EQ(shapeOf(r), rs);
  for (int64_t i = 0; i < r.size(); ++i) {
    Shape I = unflatten(i, rs);
    for (int d = 0; d < 3; ++d)
      I[d] %= xs[d];
    EXPECT_EQ(r.data[i], x.data[flatten(I, xs)]) << i;
  }
}

TEST(TensorTest, ReshapeKeepsRowMajorOrder) {
  Tensor<double> x = iota({2, 3, 4});
  Tensor<double> r = reshape(x, {6, 4});
  EXPECT_EQ(shapeOf(r), (Shape{6, 4}));
  EXPECT_EQ(r.data, x.data);
  Tensor<double> flat = reshape(r, {24});
  EXPECT_EQ(shapeOf(flat), (Shape{24}));
  EXPECT_EQ(flat.data, x.data);
}

/// The naive unfolding: for every output element, compute its input position
/// from the definition and check bounds.
Tensor<double> im2colReference(const Tensor<double> &x, int64_t kh,
                               int64_t kw, int64_t sh, int64_t sw, int64_t ph,
                               int64_t pw, int64_t dh, int64_t dw, int64_t oh,
                               int64_t ow, double pad) {
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  Tensor<double> r(Shape{n, c, kh * kw, oh * ow});
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = 0; b < c; ++b)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j)
          for (int64_t y = 0; y < oh; ++y)
            for (int64_t z = 0; z < ow; ++z) {
              int64_t iy = y * sh - ph + i * dh, iz = z * sw - pw + j * dw;
              double v = pad;
              if (iy >= 0 && iy < h && iz >= 0 && iz < w)
                v = x.data[((a * c + b) * h + iy) * w + iz];
              r.data[((a * c + b) * kh * kw + i * kw + j) * oh * ow +
                     y * ow + z] = v;
            }
  return r;
}

TEST(TensorTest, Im2colPaddingStrideDilation) {
  struct Case {
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  };
  Tensor<double> x = iota({2, 3, 5, 6});
  for (const Case &c : {Case{3, 2, 2, 1, 1, 2, 2, 1}, Case{3, 3, 1, 1, 0, 0, 1, 1},
                        Case{2, 3, 2, 3, 1, 1, 1, 2}, Case{1, 1, 2, 2, 0, 0, 1, 1}}) {
    int64_t oh = (5 + 2 * c.ph - c.dh * (c.kh - 1) - 1) / c.sh + 1;
    int64_t ow = (6 + 2 * c.pw - c.dw * (c.kw - 1) - 1) / c.sw + 1;
    Tensor<double> r = im2col(x, {c.kh, c.kw}, {c.sh, c.sw}, {c.ph, c.pw},
                              {c.dh, c.dw}, oh, ow, -7.0);
    Tensor<double> ref = im2colReference(x, c.kh, c.kw, c.sh, c.sw, c.ph, c.pw,
                                         c.dh, c.dw, oh, ow, -7.0);
    ASSERT_EQ(shapeOf(r), shapeOf(ref));
    EXPECT_EQ(r.data, ref.data) << "kernel " << c.kh << "x" << c.kw;
  }
}

TEST(TensorTest, Im2colSpotValue) {
  // One 3x3 image, 2x2 kernel, padding 1, stride 2: output 2x2; the first
  // window's top-left tap reads padding, its bottom-right tap reads x[0][0].
  Tensor<double> x(Shape{1, 1, 3, 3}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor<double> r = im2col(x, {2, 2}, {2, 2}, {1, 1}, {1, 1}, 2, 2, 0.0);
  ASSERT_EQ(shapeOf(r), (Shape{1, 1, 4, 4}));
  // Tap (1, 1) of window (0, 0) is x[0][0]; of window (1, 1) is x[2][2].
  EXPECT_EQ(r.data[3 * 4 + 0], 1.0);
  EXPECT_EQ(r.data[3 * 4 + 3], 9.0);
  // Tap (0, 0) of window (0, 0) is padding.
  EXPECT_EQ(r.data[0], 0.0);
  // Tap (0, 0) of window (1, 1) is x[1][1].
  EXPECT_EQ(r.data[3], 5.0);
}

TEST(TensorTest, IntegerElements) {
  // The helpers are element-agnostic: residues move as doubles do.
  Tensor<uint64_t> x(Shape{2, 3}, std::vector<uint64_t>{1, 2, 3, 4, 5, 6});
  Tensor<uint64_t> t = transpose(x, {1, 0});
  EXPECT_EQ(t.data, (std::vector<uint64_t>{1, 4, 2, 5, 3, 6}));
  Tensor<uint64_t> b = broadcastTo(Tensor<uint64_t>(Shape{1, 3}, std::vector<uint64_t>{7, 8, 9}), {2, 3});
  EXPECT_EQ(b.data, (std::vector<uint64_t>{7, 8, 9, 7, 8, 9}));
}

} // namespace
