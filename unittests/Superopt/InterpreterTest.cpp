//===- InterpreterTest.cpp - running µGraph functions on concrete inputs --===//
//
// Small programs parsed from MLIR text, run by interpretReal and compared
// with naive fp64 loops; block-graph and thread.fused versions against the
// graph versions; native-dtype rounding; diagnostics.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "MicroGraphTest.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cmath>
#include <random>

using namespace mirage;
using namespace mirage::superopt;

namespace {

using Shape = std::vector<int64_t>;

class InterpreterTest : public mirage::testing::MicroGraphTest {
protected:
  /// Runs `name`; an interpreter failure is a test failure.
  std::vector<RealTensor> run(llvm::StringRef name,
                              std::vector<RealTensor> inputs,
                              RealMode mode = RealMode::FP64) {
    mlir::func::FuncOp f = fn(name);
    EXPECT_TRUE(f) << "no function " << name.str();
    if (!f)
      return {};
    auto result = interpretReal(f, inputs, mode);
    EXPECT_TRUE(mlir::succeeded(result)) << "interpreting " << name.str();
    if (mlir::failed(result))
      return {};
    return std::vector<RealTensor>(result->begin(), result->end());
  }

  std::mt19937_64 rng{2024};
};

RealTensor randomTensor(const Shape &shape, std::mt19937_64 &rng,
                        double lo = -1, double hi = 1) {
  std::uniform_real_distribution<double> dist(lo, hi);
  RealTensor t(shape);
  for (double &v : t.data)
    v = dist(rng);
  return t;
}

Shape shapeOf(const RealTensor &t) { return Shape(t.shape.begin(), t.shape.end()); }

void expectNear(const RealTensor &got, const RealTensor &want, double tol,
                const std::string &what) {
  ASSERT_EQ(shapeOf(got), shapeOf(want)) << what;
  unsigned failures = 0;
  for (int64_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(got.data[i] - want.data[i]) <=
          tol * std::max(1.0, std::fabs(want.data[i]))) &&
        ++failures <= 5)
      ADD_FAILURE() << what << " at " << i << ": got " << got.data[i]
                    << ", want " << want.data[i];
  EXPECT_EQ(failures, 0u) << what;
}

/// Naive [M, K] x [K, N].
RealTensor matmulRef(const RealTensor &a, const RealTensor &b) {
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  RealTensor c(Shape{m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l)
        s += a.data[i * k + l] * b.data[l * n + j];
      c.data[i * n + j] = s;
    }
  return c;
}

//===----------------------------------------------------------------------===//
// Graph programs in fp64
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, MatmulAdd) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<3x5xf32>, %w: tensor<5x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %m = graph.matmul %x, %w : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  %y = graph.add %m, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
)mlir"));
  RealTensor x = randomTensor({3, 5}, rng), w = randomTensor({5, 4}, rng),
             b = randomTensor({4}, rng);
  auto out = run("f", {x, w, b});
  ASSERT_EQ(out.size(), 1u);
  RealTensor want = matmulRef(x, w);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      want.data[i * 4 + j] += b.data[j];
  expectNear(out[0], want, 1e-14, "matmul + add");
}

TEST_F(InterpreterTest, RMSNormWithEps) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %y = graph.rms_norm %x {eps = 0.25 : f64} : tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}
func.func @noeps(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %y = graph.rms_norm %x : tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}
)mlir"));
  RealTensor x = randomTensor({3, 8}, rng);
  for (double eps : {0.25, 0.0}) {
    auto out = run(eps ? "f" : "noeps", {x});
    ASSERT_EQ(out.size(), 1u);
    RealTensor want(Shape{3, 8});
    for (int64_t i = 0; i < 3; ++i) {
      double ss = 0;
      for (int64_t j = 0; j < 8; ++j)
        ss += x.data[i * 8 + j] * x.data[i * 8 + j];
      double rms = std::sqrt(ss / 8 + eps);
      for (int64_t j = 0; j < 8; ++j)
        want.data[i * 8 + j] = x.data[i * 8 + j] / rms;
    }
    expectNear(out[0], want, 1e-14, eps ? "rms_norm eps" : "rms_norm");
  }
}

TEST_F(InterpreterTest, Softmax) {
  ASSERT_TRUE(parse(R"mlir(
func.func @rows(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %y = graph.softmax %x, dim = 1 : tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
func.func @cols(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %y = graph.softmax %x, dim = 0 : tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
)mlir"));
  RealTensor x = randomTensor({3, 5}, rng, -4, 4);
  for (int dim : {0, 1}) {
    auto out = run(dim ? "rows" : "cols", {x});
    ASSERT_EQ(out.size(), 1u);
    RealTensor want(Shape{3, 5});
    int64_t lines = dim ? 3 : 5, len = dim ? 5 : 3;
    for (int64_t l = 0; l < lines; ++l) {
      auto at = [&](int64_t t) { return dim ? l * 5 + t : t * 5 + l; };
      double sum = 0;
      for (int64_t t = 0; t < len; ++t)
        sum += std::exp(x.data[at(t)]);
      for (int64_t t = 0; t < len; ++t)
        want.data[at(t)] = std::exp(x.data[at(t)]) / sum;
    }
    expectNear(out[0], want, 1e-14, "softmax dim " + std::to_string(dim));
  }
}

TEST_F(InterpreterTest, TransposeConcatSplit) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>)
    -> (tensor<4x2x3xf32>, tensor<2x1x4xf32>, tensor<2x7x4xf32>) {
  %t = graph.transpose %x, perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %c = graph.concat(%x, %y) dim = 1 : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %s:2 = graph.split %c, dim = 1, sizes = [1, 7] : tensor<2x8x4xf32> -> tensor<2x1x4xf32>, tensor<2x7x4xf32>
  return %t, %s#0, %s#1 : tensor<4x2x3xf32>, tensor<2x1x4xf32>, tensor<2x7x4xf32>
}
)mlir"));
  RealTensor x(Shape{2, 3, 4}), y(Shape{2, 5, 4});
  for (int64_t i = 0; i < x.size(); ++i)
    x.data[i] = i;
  for (int64_t i = 0; i < y.size(); ++i)
    y.data[i] = 100 + i;
  auto out = run("f", {x, y});
  ASSERT_EQ(out.size(), 3u);
  RealTensor t(Shape{4, 2, 3}), s0(Shape{2, 1, 4}), s1(Shape{2, 7, 4});
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t c = 0; c < 4; ++c)
        t.data[(c * 2 + a) * 3 + b] = x.data[(a * 3 + b) * 4 + c];
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t r = 0; r < 8; ++r)
      for (int64_t c = 0; c < 4; ++c) {
        double v = r < 3 ? x.data[(a * 3 + r) * 4 + c]
                         : y.data[(a * 5 + r - 3) * 4 + c];
        if (r < 1)
          s0.data[(a * 1 + r) * 4 + c] = v;
        else
          s1.data[(a * 7 + r - 1) * 4 + c] = v;
      }
  expectNear(out[0], t, 0, "transpose");
  expectNear(out[1], s0, 0, "split #0");
  expectNear(out[2], s1, 0, "split #1");
}

/// Naive grouped NCHW convolution.
RealTensor convRef(const RealTensor &x, const RealTensor &w, int64_t stride,
                   int64_t pad, int64_t dil, int64_t groups, int64_t oh,
                   int64_t ow) {
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  int64_t o = w.shape[0], cg = w.shape[1], kh = w.shape[2], kw = w.shape[3];
  RealTensor y(Shape{n, o, oh, ow});
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t g = oc / (o / groups);
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double s = 0;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t u = 0; u < kh; ++u)
              for (int64_t v = 0; v < kw; ++v) {
                int64_t yy = i * stride - pad + u * dil;
                int64_t xx = j * stride - pad + v * dil;
                if (yy < 0 || yy >= h || xx < 0 || xx >= wd)
                  continue;
                s += x.data[((b * c + g * cg + ic) * h + yy) * wd + xx] *
                     w.data[((oc * cg + ic) * kh + u) * kw + v];
              }
          y.data[((b * o + oc) * oh + i) * ow + j] = s;
        }
    }
  return y;
}

// A split into many pieces: slicing them must not read its input through
// a reference the binding of earlier pieces moved (the environment grows).
TEST_F(InterpreterTest, SplitIntoManyPieces) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<40x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %s:40 = graph.split %x, dim = 0, sizes = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] : tensor<40x3xf32> -> tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
  return %s#0, %s#17, %s#39 : tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}
)mlir"));
  RealTensor x = randomTensor({40, 3}, rng);
  auto out = run("f", {x});
  ASSERT_EQ(out.size(), 3u);
  int64_t rows[] = {0, 17, 39};
  for (int i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 3; ++j)
      EXPECT_EQ(out[i].data[j], x.data[rows[i] * 3 + j]) << "piece " << rows[i];
}

TEST_F(InterpreterTest, Conv2DGroupsStridePadding) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%x: tensor<2x4x7x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<2x6x4x3xf32> {
  %y = graph.conv2d %x, %w {groups = 2 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<2x4x7x6xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x3xf32>
  return %y : tensor<2x6x4x3xf32>
}
func.func @dilated(%x: tensor<2x4x7x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<2x6x3x2xf32> {
  %y = graph.conv2d %x, %w {groups = 2 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilations = array<i64: 2, 2>} : (tensor<2x4x7x6xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x3x2xf32>
  return %y : tensor<2x6x3x2xf32>
}
func.func @kernel_level(%x: tensor<2x4x7x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<2x6x4x3xf32> {
  %y = kernel.conv2d %x, %w {groups = 2 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<2x4x7x6xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x3xf32>
  return %y : tensor<2x6x4x3xf32>
}
)mlir"));
  RealTensor x = randomTensor({2, 4, 7, 6}, rng),
             w = randomTensor({6, 2, 3, 3}, rng);
  auto out = run("f", {x, w});
  ASSERT_EQ(out.size(), 1u);
  expectNear(out[0], convRef(x, w, 2, 1, 1, 2, 4, 3), 1e-14, "conv2d");
  auto dil = run("dilated", {x, w});
  ASSERT_EQ(dil.size(), 1u);
  expectNear(dil[0], convRef(x, w, 2, 1, 2, 2, 3, 2), 1e-14, "dilated conv2d");
  auto kern = run("kernel_level", {x, w});
  ASSERT_EQ(kern.size(), 1u);
  expectNear(kern[0], out[0], 0, "kernel.conv2d");
}

TEST_F(InterpreterTest, PoolingWithPadding) {
  ASSERT_TRUE(parse(R"mlir(
func.func @maxp(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %y = graph.max_pool2d %x, kernel = [3, 3] {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
func.func @avgp(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %y = graph.avg_pool2d %x, kernel = [3, 3] {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
)mlir"));
  // All negative: a max that let the padding in would give 0 at the border.
  RealTensor x = randomTensor({1, 2, 5, 5}, rng, -3, -1);
  auto mx = run("maxp", {x});
  auto av = run("avgp", {x});
  ASSERT_EQ(mx.size(), 1u);
  ASSERT_EQ(av.size(), 1u);
  RealTensor wantMax(Shape{1, 2, 3, 3}), wantAvg(Shape{1, 2, 3, 3});
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        double m = -INFINITY, s = 0;
        for (int64_t u = 0; u < 3; ++u)
          for (int64_t v = 0; v < 3; ++v) {
            int64_t yy = i * 2 - 1 + u, xx = j * 2 - 1 + v;
            if (yy < 0 || yy >= 5 || xx < 0 || xx >= 5)
              continue;
            double val = x.data[(c * 5 + yy) * 5 + xx];
            m = std::max(m, val);
            s += val;
          }
        wantMax.data[(c * 3 + i) * 3 + j] = m;
        wantAvg.data[(c * 3 + i) * 3 + j] = s / 9; // padding counts as 0
      }
  expectNear(mx[0], wantMax, 0, "max_pool2d");
  expectNear(av[0], wantAvg, 1e-15, "avg_pool2d");
  EXPECT_LT(mx[0].data[0], 0.0);
}

TEST_F(InterpreterTest, KernelLevelPredefinedOps) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %r: tensor<4x1xf32>) -> (tensor<4x3xf32>, tensor<4x1xf32>) {
  %m = kernel.matmul %a, %b : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %d = kernel.binary div %m, %r : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %c = kernel.unary clamp %d params = [-0.5, 0.5] : tensor<4x3xf32>
  %s = kernel.reduce max %a, dim = 1 : tensor<4x6xf32> -> tensor<4x1xf32>
  return %c, %s : tensor<4x3xf32>, tensor<4x1xf32>
}
)mlir"));
  RealTensor a = randomTensor({4, 6}, rng), b = randomTensor({6, 3}, rng),
             r = randomTensor({4, 1}, rng, 0.5, 1.5);
  auto out = run("f", {a, b, r});
  ASSERT_EQ(out.size(), 2u);
  RealTensor mm = matmulRef(a, b), mx(Shape{4, 1});
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 3; ++j)
      mm.data[i * 3 + j] =
          std::min(0.5, std::max(-0.5, mm.data[i * 3 + j] / r.data[i]));
    mx.data[i] = *std::max_element(a.data.begin() + i * 6, a.data.begin() + i * 6 + 6);
  }
  expectNear(out[0], mm, 1e-14, "kernel ops");
  expectNear(out[1], mx, 0, "kernel.reduce max");
}

//===----------------------------------------------------------------------===//
// Block graphs and thread.fused against the graph versions
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, BlockGraphRowSum) {
  ASSERT_TRUE(parse(R"mlir(
func.func @graph(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = graph.reduce_sum %x, dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
func.func @blocks(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 2 : (tensor<4x8xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<4x8xf32> -> !block.tile<2x4xf32>
    %r = block.reduce sum %t, dim = 1 : !block.tile<2x4xf32> -> !block.tile<2x1xf32>
    %acc = block.accum sum %r : !block.tile<2x1xf32> -> !block.tile<2x1xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<2x1xf32> -> tensor<4x1xf32>
    block.yield %o : tensor<4x1xf32>
  }
  return %Y : tensor<4x1xf32>
}
)mlir"));
  RealTensor x = randomTensor({4, 8}, rng);
  auto g = run("graph", {x}), b = run("blocks", {x});
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  RealTensor want(Shape{4, 1});
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 8; ++j)
      want.data[i] += x.data[i * 8 + j];
  expectNear(g[0], want, 1e-14, "graph row sum");
  expectNear(b[0], want, 1e-14, "block row sum");
}

TEST_F(InterpreterTest, BlockGraphMaxAccumulator) {
  ASSERT_TRUE(parse(R"mlir(
func.func @graph(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = graph.reduce_max %x, dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
func.func @blocks(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 4 : (tensor<4x8xf32>) -> tensor<4x1xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<4x8xf32> -> !block.tile<2x2xf32>
    %r = block.reduce max %t, dim = 1 : !block.tile<2x2xf32> -> !block.tile<2x1xf32>
    %acc = block.accum max %r : !block.tile<2x1xf32> -> !block.tile<2x1xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<2x1xf32> -> tensor<4x1xf32>
    block.yield %o : tensor<4x1xf32>
  }
  return %Y : tensor<4x1xf32>
}
)mlir"));
  RealTensor x = randomTensor({4, 8}, rng, -5, -1);
  // Put each row's maximum in a different loop iteration.
  for (int64_t i = 0; i < 4; ++i)
    x.data[i * 8 + 2 * i + 1] = -0.5;
  auto g = run("graph", {x}), b = run("blocks", {x});
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  RealTensor want(Shape{4, 1}, -0.5);
  expectNear(g[0], want, 0, "graph row max");
  expectNear(b[0], want, 0, "block row max");
}

TEST_F(InterpreterTest, BlockGraphConcatAccumulatorAndGrid2D) {
  ASSERT_TRUE(parse(R"mlir(
func.func @graph(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %y = graph.scalar_mul %x, 3.0 : tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
func.func @concat(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %Y = kernel.graph_def (%x) grid = [2] forloop = 3 : (tensor<4x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<4x6xf32>):
    %t = block.input %a imap = <x: 0> fmap = <i: 1> : tensor<4x6xf32> -> !block.tile<2x2xf32>
    %s = block.unary scale %t params = [3.0] : !block.tile<2x2xf32>
    %c = block.accum concat %s, dim = 1 : !block.tile<2x2xf32> -> !block.tile<2x6xf32>
    %o = block.output %c omap = <x: 0> : !block.tile<2x6xf32> -> tensor<4x6xf32>
    block.yield %o : tensor<4x6xf32>
  }
  return %Y : tensor<4x6xf32>
}
func.func @grid2d(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %Y = kernel.graph_def (%x) grid = [2, 3] forloop = 1 : (tensor<4x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<4x6xf32>):
    %t = block.input %a imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<4x6xf32> -> !block.tile<2x2xf32>
    %s = block.unary scale %t params = [3.0] : !block.tile<2x2xf32>
    %acc = block.accum sum %s : !block.tile<2x2xf32> -> !block.tile<2x2xf32>
    %o = block.output %acc omap = <x: 0, y: 1> : !block.tile<2x2xf32> -> tensor<4x6xf32>
    block.yield %o : tensor<4x6xf32>
  }
  return %Y : tensor<4x6xf32>
}
func.func @swapped(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %Y = kernel.graph_def (%x) grid = [3, 2] forloop = 1 : (tensor<4x6xf32>) -> tensor<6x4xf32> {
  ^bb0(%a: tensor<4x6xf32>):
    %t = block.input %a imap = <x: 1, y: 0> fmap = <i: replicate> : tensor<4x6xf32> -> !block.tile<2x2xf32>
    %acc = block.accum sum %t : !block.tile<2x2xf32> -> !block.tile<2x2xf32>
    %o = block.output %acc omap = <x: 0, y: 1> : !block.tile<2x2xf32> -> tensor<6x4xf32>
    block.yield %o : tensor<6x4xf32>
  }
  return %Y : tensor<6x4xf32>
}
)mlir"));
  RealTensor x(Shape{4, 6});
  for (int64_t i = 0; i < x.size(); ++i)
    x.data[i] = i + 1;
  RealTensor want = x;
  for (double &v : want.data)
    v *= 3;
  auto g = run("graph", {x}), c = run("concat", {x}), d = run("grid2d", {x});
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(c.size(), 1u);
  ASSERT_EQ(d.size(), 1u);
  expectNear(g[0], want, 0, "graph scale");
  expectNear(c[0], want, 0, "concat accumulator");
  expectNear(d[0], want, 0, "2-d grid");
  // Block (bx, by) reads tile (by, bx) of x (rows by, columns bx) and writes
  // it at tile (bx, by): 2x2 tiles move, their contents do not transpose.
  auto s = run("swapped", {x});
  ASSERT_EQ(s.size(), 1u);
  RealTensor moved(Shape{6, 4});
  for (int64_t bx = 0; bx < 3; ++bx)
    for (int64_t by = 0; by < 2; ++by)
      for (int64_t u = 0; u < 2; ++u)
        for (int64_t v = 0; v < 2; ++v)
          moved.data[(bx * 2 + u) * 4 + by * 2 + v] =
              x.data[(by * 2 + u) * 6 + bx * 2 + v];
  expectNear(s[0], moved, 0, "tile placement");
}

TEST_F(InterpreterTest, BlockGraphRMSNormMatmul) {
  ASSERT_TRUE(parse(R"mlir(
func.func @graph(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %n = graph.rms_norm %X : tensor<4x64xf32>
  %y = graph.matmul %n, %W : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
func.func @fused(%X: tensor<4x64xf32>, %W: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %Y = kernel.graph_def (%X, %W) grid = [2] forloop = 4
      : (tensor<4x64xf32>, tensor<64x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x64xf32> -> !block.tile<4x16xf32>
    %wt = block.input %w imap = <x: 1> fmap = <i: 0> : tensor<64x32xf32> -> !block.tile<16x16xf32>
    %sq = block.unary square %xt : !block.tile<4x16xf32>
    %ss = block.reduce sum %sq, dim = 1 : !block.tile<4x16xf32> -> !block.tile<4x1xf32>
    %mm = block.matmul %xt, %wt : (!block.tile<4x16xf32>, !block.tile<16x16xf32>) -> !block.tile<4x16xf32>
    %acc_mm = block.accum sum %mm : !block.tile<4x16xf32> -> !block.tile<4x16xf32>
    %acc_ss = block.accum sum %ss : !block.tile<4x1xf32> -> !block.tile<4x1xf32>
    %mean = block.unary scale %acc_ss params = [0.015625] : !block.tile<4x1xf32>
    %rms = block.unary sqrt %mean : !block.tile<4x1xf32>
    %y = block.binary div %acc_mm, %rms : (!block.tile<4x16xf32>, !block.tile<4x1xf32>) -> !block.tile<4x16xf32>
    %out = block.output %y omap = <x: 1> : !block.tile<4x16xf32> -> tensor<4x32xf32>
    block.yield %out : tensor<4x32xf32>
  }
  return %Y : tensor<4x32xf32>
}
)mlir"));
  RealTensor X = randomTensor({4, 64}, rng), W = randomTensor({64, 32}, rng);
  RealTensor want = matmulRef(X, W);
  for (int64_t i = 0; i < 4; ++i) {
    double ss = 0;
    for (int64_t k = 0; k < 64; ++k)
      ss += X.data[i * 64 + k] * X.data[i * 64 + k];
    for (int64_t j = 0; j < 32; ++j)
      want.data[i * 32 + j] /= std::sqrt(ss / 64);
  }
  auto g = run("graph", {X, W}), f = run("fused", {X, W});
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(f.size(), 1u);
  expectNear(g[0], want, 1e-13, "graph rms_norm matmul");
  expectNear(f[0], want, 1e-13, "block rms_norm matmul");
}

TEST_F(InterpreterTest, ThreadFusedSiluMul) {
  ASSERT_TRUE(parse(R"mlir(
func.func @graph(%X: tensor<4x32xf32>, %W1: tensor<32x16xf32>, %W2: tensor<32x16xf32>) -> tensor<4x16xf32> {
  %a = graph.matmul %X, %W1 : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
  %b = graph.matmul %X, %W2 : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
  %s = graph.silu %a : tensor<4x16xf32>
  %y = graph.mul %s, %b : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func @fused(%X: tensor<4x32xf32>, %W1: tensor<32x16xf32>, %W2: tensor<32x16xf32>) -> tensor<4x16xf32> {
  %Y = kernel.graph_def (%X, %W1, %W2) grid = [2] forloop = 2
      : (tensor<4x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%x: tensor<4x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<4x32xf32> -> !block.tile<4x16xf32>
    %at = block.input %w1 imap = <x: 1> fmap = <i: 0> : tensor<32x16xf32> -> !block.tile<16x8xf32>
    %bt = block.input %w2 imap = <x: 1> fmap = <i: 0> : tensor<32x16xf32> -> !block.tile<16x8xf32>
    %m1 = block.matmul %xt, %at : (!block.tile<4x16xf32>, !block.tile<16x8xf32>) -> !block.tile<4x8xf32>
    %m2 = block.matmul %xt, %bt : (!block.tile<4x16xf32>, !block.tile<16x8xf32>) -> !block.tile<4x8xf32>
    %a1 = block.accum sum %m1 : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %a2 = block.accum sum %m2 : !block.tile<4x8xf32> -> !block.tile<4x8xf32>
    %g = thread.fused (%a1, %a2) : (!block.tile<4x8xf32>, !block.tile<4x8xf32>) -> !block.tile<4x8xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = thread.unary silu %p : f32
      %m = thread.binary mul %s, %q : f32
      thread.yield %m : f32
    }
    %o = block.output %g omap = <x: 1> : !block.tile<4x8xf32> -> tensor<4x16xf32>
    block.yield %o : tensor<4x16xf32>
  }
  return %Y : tensor<4x16xf32>
}
)mlir"));
  RealTensor X = randomTensor({4, 32}, rng), W1 = randomTensor({32, 16}, rng),
             W2 = randomTensor({32, 16}, rng);
  RealTensor a = matmulRef(X, W1), b = matmulRef(X, W2), want(Shape{4, 16});
  for (int64_t i = 0; i < want.size(); ++i)
    want.data[i] = a.data[i] / (1 + std::exp(-a.data[i])) * b.data[i];
  auto g = run("graph", {X, W1, W2}), f = run("fused", {X, W1, W2});
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(f.size(), 1u);
  expectNear(g[0], want, 1e-13, "graph gated mlp");
  expectNear(f[0], want, 1e-13, "fused gated mlp");
}

TEST_F(InterpreterTest, ThreadFusedBroadcastsInputs) {
  ASSERT_TRUE(parse(R"mlir(
func.func @fused(%X: tensor<4x6xf32>, %R: tensor<4x1xf32>) -> tensor<4x6xf32> {
  %Y = kernel.graph_def (%X, %R) grid = [2] forloop = 1
      : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32> {
  ^bb0(%x: tensor<4x6xf32>, %r: tensor<4x1xf32>):
    %xt = block.input %x imap = <x: 0> fmap = <i: replicate> : tensor<4x6xf32> -> !block.tile<2x6xf32>
    %rt = block.input %r imap = <x: 0> fmap = <i: replicate> : tensor<4x1xf32> -> !block.tile<2x1xf32>
    %q = thread.fused (%xt, %rt) : (!block.tile<2x6xf32>, !block.tile<2x1xf32>) -> !block.tile<2x6xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = thread.binary sub %a, %b : f32
      thread.yield %d : f32
    }
    %acc = block.accum sum %q : !block.tile<2x6xf32> -> !block.tile<2x6xf32>
    %o = block.output %acc omap = <x: 0> : !block.tile<2x6xf32> -> tensor<4x6xf32>
    block.yield %o : tensor<4x6xf32>
  }
  return %Y : tensor<4x6xf32>
}
)mlir"));
  RealTensor X = randomTensor({4, 6}, rng), R = randomTensor({4, 1}, rng);
  auto f = run("fused", {X, R});
  ASSERT_EQ(f.size(), 1u);
  RealTensor want(Shape{4, 6});
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 6; ++j)
      want.data[i * 6 + j] = X.data[i * 6 + j] - R.data[i];
  expectNear(f[0], want, 0, "fused row subtract");
}

//===----------------------------------------------------------------------===//
// Native dtypes
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, NativeF16Rounds) {
  ASSERT_TRUE(parse(R"mlir(
func.func @add(%a: tensor<2xf16>, %b: tensor<2xf16>) -> tensor<2xf16> {
  %y = graph.add %a, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  return %y : tensor<2xf16>
}
func.func @addbf(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> tensor<2xbf16> {
  %y = graph.add %a, %b : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<2xbf16>
  return %y : tensor<2xbf16>
}
func.func @id(%a: tensor<3xf16>) -> tensor<3xf16> {
  return %a : tensor<3xf16>
}
func.func @sum(%a: tensor<5xf16>) -> tensor<1xf16> {
  %y = graph.reduce_sum %a, dim = 0 : tensor<5xf16> -> tensor<1xf16>
  return %y : tensor<1xf16>
}
)mlir"));
  double tiny = std::ldexp(1.0, -12);
  RealTensor one(Shape{2}, 1.0), small(Shape{2}, tiny);
  auto native = run("add", {one, small}, RealMode::Native);
  auto exact = run("add", {one, small}, RealMode::FP64);
  ASSERT_EQ(native.size(), 1u);
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_EQ(native[0].data, (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(exact[0].data, (std::vector<double>{1 + tiny, 1 + tiny}));

  RealTensor bsmall(Shape{2}, std::ldexp(1.0, -8));
  auto bf = run("addbf", {one, bsmall}, RealMode::Native);
  ASSERT_EQ(bf.size(), 1u);
  EXPECT_EQ(bf[0].data, (std::vector<double>{1.0, 1.0}));

  // Inputs are rounded to their argument's dtype first.
  RealTensor in(Shape{3}, std::vector<double>{1 + std::ldexp(1.0, -11), 65520.0, 0.1});
  auto id = run("id", {in}, RealMode::Native);
  ASSERT_EQ(id.size(), 1u);
  EXPECT_EQ(id[0].data, (std::vector<double>{1.0, INFINITY, 0x1.998p-4}));

  // A reduction rounds once, at its result (an fp32 accumulator): four
  // half-ulps of 1 add up to two ulps, 1 + 2^-9. Rounding after every
  // addition would have lost each of them (1 + 2^-11 ties to 1).
  double q = std::ldexp(1.0, -11);
  RealTensor xs(Shape{5}, std::vector<double>{1, q, q, q, q});
  auto s = run("sum", {xs}, RealMode::Native);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].data, (std::vector<double>{1 + std::ldexp(1.0, -9)}));
}

TEST_F(InterpreterTest, NativeThreadFusedComputesInF32Registers) {
  // (a + b) - a: the GPU code computes a chain in f32 registers whatever
  // its body's types (--thread-to-arith), and so does the native run. With
  // a = 1, b = 2^-12 f16 registers would lose b (f16 keeps 10 fraction
  // bits); f32 keeps it. With a = 16, b = 2^-20 f32 loses it too.
  ASSERT_TRUE(parse(R"mlir(
func.func @f(%X: tensor<2x4xf16>, %Y: tensor<2x4xf16>) -> tensor<2x4xf16> {
  %Z = kernel.graph_def (%X, %Y) grid = [2] forloop = 1
      : (tensor<2x4xf16>, tensor<2x4xf16>) -> tensor<2x4xf16> {
  ^bb0(%x: tensor<2x4xf16>, %y: tensor<2x4xf16>):
    %xt = block.input %x imap = <x: 0> fmap = <i: replicate> : tensor<2x4xf16> -> !block.tile<1x4xf16>
    %yt = block.input %y imap = <x: 0> fmap = <i: replicate> : tensor<2x4xf16> -> !block.tile<1x4xf16>
    %q = thread.fused (%xt, %yt) : (!block.tile<1x4xf16>, !block.tile<1x4xf16>) -> !block.tile<1x4xf16> {
    ^bb0(%a: f16, %b: f16):
      %s = thread.binary add %a, %b : f16
      %d = thread.binary sub %s, %a : f16
      thread.yield %d : f16
    }
    %acc = block.accum sum %q : !block.tile<1x4xf16> -> !block.tile<1x4xf16>
    %o = block.output %acc omap = <x: 0> : !block.tile<1x4xf16> -> tensor<2x4xf16>
    block.yield %o : tensor<2x4xf16>
  }
  return %Z : tensor<2x4xf16>
}
)mlir"));
  double kept = std::ldexp(1.0, -12), lost = std::ldexp(1.0, -20);
  auto wide = run("f", {RealTensor(Shape{2, 4}, 1.0), RealTensor(Shape{2, 4}, kept)},
                  RealMode::Native);
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].data, std::vector<double>(8, kept));
  auto native = run("f", {RealTensor(Shape{2, 4}, 16.0), RealTensor(Shape{2, 4}, lost)},
                    RealMode::Native);
  auto exact = run("f", {RealTensor(Shape{2, 4}, 16.0), RealTensor(Shape{2, 4}, lost)},
                   RealMode::FP64);
  ASSERT_EQ(native.size(), 1u);
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_EQ(native[0].data, std::vector<double>(8, 0.0));
  EXPECT_EQ(exact[0].data, std::vector<double>(8, lost));
}

TEST_F(InterpreterTest, NativeAccumulatorsHoldF32) {
  // The GPU code keeps sum accumulators in f32 whatever their type says;
  // so does the native run: 40000 + 40000 overflows f16, not f32, and the
  // final 10000 fits f16 again. A matmul feeding only a sum accumulator
  // keeps its f32 registers too: its 40000 + 40000 partial is not an f16
  // tile.
  ASSERT_TRUE(parse(R"mlir(
func.func @acc(%X: tensor<1x4xf16>) -> tensor<1x1xf16> {
  %Z = kernel.graph_def (%X) grid = [1] forloop = 4
      : (tensor<1x4xf16>) -> tensor<1x1xf16> {
  ^bb0(%x: tensor<1x4xf16>):
    %t = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<1x4xf16> -> !block.tile<1x1xf16>
    %a = block.accum sum %t : !block.tile<1x1xf16> -> !block.tile<1x1xf16>
    %o = block.output %a omap = <x: replicate> : !block.tile<1x1xf16> -> tensor<1x1xf16>
    block.yield %o : tensor<1x1xf16>
  }
  return %Z : tensor<1x1xf16>
}
func.func @mm(%X: tensor<1x4xf16>, %W: tensor<4x1xf16>) -> tensor<1x1xf16> {
  %Z = kernel.graph_def (%X, %W) grid = [1] forloop = 2
      : (tensor<1x4xf16>, tensor<4x1xf16>) -> tensor<1x1xf16> {
  ^bb0(%x: tensor<1x4xf16>, %w: tensor<4x1xf16>):
    %xt = block.input %x imap = <x: replicate> fmap = <i: 1> : tensor<1x4xf16> -> !block.tile<1x2xf16>
    %wt = block.input %w imap = <x: replicate> fmap = <i: 0> : tensor<4x1xf16> -> !block.tile<2x1xf16>
    %m = block.matmul %xt, %wt : (!block.tile<1x2xf16>, !block.tile<2x1xf16>) -> !block.tile<1x1xf16>
    %a = block.accum sum %m : !block.tile<1x1xf16> -> !block.tile<1x1xf16>
    %o = block.output %a omap = <x: replicate> : !block.tile<1x1xf16> -> tensor<1x1xf16>
    block.yield %o : tensor<1x1xf16>
  }
  return %Z : tensor<1x1xf16>
}
)mlir"));
  RealTensor x(Shape{1, 4}, std::vector<double>{40000, 40000, -40000, -30000});
  auto acc = run("acc", {x}, RealMode::Native);
  ASSERT_EQ(acc.size(), 1u);
  EXPECT_EQ(acc[0].data, std::vector<double>{10000});
  RealTensor w(Shape{4, 1}, 1.0);
  RealTensor xm(Shape{1, 4}, std::vector<double>{40000, 40000, -40000, -30000});
  auto mm = run("mm", {xm, w}, RealMode::Native);
  ASSERT_EQ(mm.size(), 1u);
  EXPECT_EQ(mm[0].data, std::vector<double>{10000});
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

class DiagnosticsTest : public InterpreterTest {
protected:
  /// Runs `name` expecting failure; returns the diagnostics it emitted.
  std::string failing(llvm::StringRef name, std::vector<RealTensor> inputs) {
    std::string messages;
    mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
      messages += d.str() + "\n";
      return mlir::success();
    });
    auto result = interpretReal(fn(name), inputs, RealMode::FP64);
    EXPECT_TRUE(mlir::failed(result)) << name.str() << " should fail";
    return messages;
  }
};

const char *kMatmul = R"mlir(
func.func @mm(%a: tensor<3x5xf32>, %b: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %y = graph.matmul %a, %b : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
func.func private @decl(%a: tensor<3x5xf32>) -> tensor<3x5xf32>
func.func @rmax(%a: tensor<3x5xf32>) -> tensor<3x1xf32> {
  %y = graph.reduce_max %a, dim = 1 : tensor<3x5xf32> -> tensor<3x1xf32>
  return %y : tensor<3x1xf32>
}
)mlir";

TEST_F(DiagnosticsTest, WrongInputCount) {
  ASSERT_TRUE(parse(kMatmul));
  std::string msg = failing("mm", {RealTensor(Shape{3, 5})});
  EXPECT_NE(msg.find("'mm' takes 2 arguments but 1 inputs were given"),
            std::string::npos)
      << msg;
}

TEST_F(DiagnosticsTest, WrongInputShape) {
  ASSERT_TRUE(parse(kMatmul));
  std::string msg = failing("mm", {RealTensor(Shape{3, 5}), RealTensor(Shape{4, 5})});
  EXPECT_NE(msg.find("input #1 has shape [4, 5]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tensor<5x4xf32>"), std::string::npos) << msg;
}

TEST_F(DiagnosticsTest, ExternalFunction) {
  ASSERT_TRUE(parse(kMatmul));
  std::string msg = failing("decl", {RealTensor(Shape{3, 5})});
  EXPECT_NE(msg.find("has no body"), std::string::npos) << msg;
}

TEST_F(DiagnosticsTest, MaxRunsInTheField) {
  ASSERT_TRUE(parse(kMatmul));
  auto field = FieldPair::create(31);
  ASSERT_TRUE(bool(field));
  FieldArithmetic arith(*field, 1);
  // Rows 0 and 2 hold the same multiset in another order, row 1 another.
  FieldTensor x{Tensor<uint64_t>(Shape{3, 5}, 1), {}, {}};
  for (int64_t j = 0; j < 5; ++j) {
    x.p.data[j] = j + 1;
    x.p.data[5 + j] = j + 2;
    x.p.data[10 + j] = 5 - j;
  }
  auto result = interpretField(fn("rmax"), {x}, arith);
  ASSERT_TRUE(mlir::succeeded(result));
  const auto &m = (*result)[0].p.data;
  EXPECT_EQ(m[0], m[2]);
  EXPECT_NE(m[0], m[1]);
  auto real = interpretReal(fn("rmax"), {RealTensor(Shape{3, 5}, 2.0)}, RealMode::FP64);
  ASSERT_TRUE(mlir::succeeded(real));
  EXPECT_EQ((*real)[0].data, (std::vector<double>{2, 2, 2}));
}

//===----------------------------------------------------------------------===//
// Limits: sizes checked before allocating, the memory estimate, stopping
//===----------------------------------------------------------------------===//

constexpr llvm::StringLiteral kLimits = R"mlir(
func.func @huge(%a: tensor<4294967296x4294967296xf32>, %b: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  %c = graph.matmul %a, %b : (tensor<4294967296x4294967296xf32>, tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %c : tensor<4294967296x4294967296xf32>
}
func.func @wide(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = graph.repeat %a, repeats = [65536, 16384] : tensor<2x4xf32> -> tensor<131072x65536xf32>
  %s = graph.reduce_sum %r, dim = 0 : tensor<131072x65536xf32> -> tensor<1x65536xf32>
  %t = graph.reshape %s : tensor<1x65536xf32> -> tensor<16384x4xf32>
  %u:2 = graph.split %t, dim = 0, sizes = [2, 16382] : tensor<16384x4xf32> -> tensor<2x4xf32>, tensor<16382x4xf32>
  return %u#0 : tensor<2x4xf32>
}
func.func @chain(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %b = graph.exp %a : tensor<256x256xf32>
  %c = graph.exp %b : tensor<256x256xf32>
  %d = graph.add %b, %c : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %e = graph.exp %d : tensor<256x256xf32>
  return %e : tensor<256x256xf32>
}
)mlir";

class LimitsTest : public mirage::testing::MicroGraphTest {
protected:
  std::string diagnostics;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;
  void SetUp() override {
    handler = std::make_unique<mlir::ScopedDiagnosticHandler>(
        &ctx, [&](mlir::Diagnostic &d) {
          llvm::raw_string_ostream os(diagnostics);
          os << d.getLocation() << ": " << d.str() << "\n";
          return mlir::success();
        });
  }
};

TEST_F(LimitsTest, ElementCountsThatWrapAreRejectedBeforeAllocating) {
  // 2^32 x 2^32 elements wrap to 0 in 64-bit arithmetic: mirage-run read
  // empty buffers and crashed. Now a located error, before any allocation.
  ASSERT_TRUE(parse(kLimits));
  EXPECT_TRUE(mlir::failed(checkInterpretable(fn("huge"))));
  EXPECT_NE(diagnostics.find("argument #0 of 'huge' [4294967296, 4294967296] "
                             "has too many elements to count in 64 bits"),
            std::string::npos)
      << diagnostics;
  diagnostics.clear();
  auto result = interpretReal(fn("huge"), {}, RealMode::FP64);
  EXPECT_TRUE(mlir::failed(result));
  EXPECT_NE(diagnostics.find("too many elements"), std::string::npos)
      << diagnostics;
}

TEST_F(LimitsTest, ValuesOverTheElementLimitAreLocated) {
  // 2^33 elements inside the function: the op that makes them is named.
  ASSERT_TRUE(parse(kLimits));
  EXPECT_TRUE(mlir::failed(checkInterpretable(fn("wide"))));
  EXPECT_NE(diagnostics.find("result #0 of 'graph.repeat' [131072, 65536] has "
                             "8589934592 elements, more than the limit of "
                             "2147483647"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("\"-\":7:8"), std::string::npos)
      << "located at the repeat: " << diagnostics;
}

TEST_F(LimitsTest, PeakEstimateFollowsLiveness) {
  ASSERT_TRUE(parse(kLimits));
  mlir::func::FuncOp chain = fn("chain");
  ASSERT_TRUE(mlir::succeeded(checkInterpretable(chain)));
  const uint64_t n = 256 * 256;
  uint64_t peak = estimatePeakBytes(chain, kRealElementBytes);
  // At the add, a (twice: input and a rounded copy), b, c and d are live,
  // and d's temporaries are two more copies: 7 tensors. No step holds more.
  EXPECT_EQ(peak, 7 * n * kRealElementBytes);
  EXPECT_EQ(estimatePeakBytes(chain, kFieldElementBytes),
            7 * n * kFieldElementBytes);
}

TEST_F(LimitsTest, MemoryLimitBindsBeforeTheRun) {
  ASSERT_TRUE(parse(kLimits));
  RealTensor a(Shape{256, 256}, 0.5);
  InterpreterLimits limits;
  limits.memoryBytes = 1 << 20; // the chain needs about 3.5 MiB
  RunInterruption why;
  auto result = interpretReal(fn("chain"), {a}, RealMode::FP64, limits, &why);
  EXPECT_TRUE(mlir::failed(result));
  EXPECT_EQ(why.kind, RunInterruption::Kind::OverMemory);
  EXPECT_NE(why.reason.find("more than the memory limit of 1.0 MiB"),
            std::string::npos)
      << why.reason;
  EXPECT_TRUE(diagnostics.empty()) << "reported, not diagnosed: "
                                   << diagnostics;
  // Without a place to report it, the same is an error at the function.
  result = interpretReal(fn("chain"), {a}, RealMode::FP64, limits);
  EXPECT_TRUE(mlir::failed(result));
  EXPECT_NE(diagnostics.find("running 'chain' needs about 3.5 MiB"),
            std::string::npos)
      << diagnostics;
  // With room it runs.
  limits.memoryBytes = 8 << 20;
  EXPECT_TRUE(mlir::succeeded(
      interpretReal(fn("chain"), {a}, RealMode::FP64, limits, &why)));
}

TEST_F(LimitsTest, StopRequestStopsBetweenOps) {
  ASSERT_TRUE(parse(kLimits));
  RealTensor a(Shape{256, 256}, 0.5);
  InterpreterLimits limits;
  unsigned asked = 0;
  limits.shouldStop = [&] { return ++asked == 3; };
  RunInterruption why;
  auto result = interpretReal(fn("chain"), {a}, RealMode::Native, limits, &why);
  EXPECT_TRUE(mlir::failed(result));
  EXPECT_EQ(why.kind, RunInterruption::Kind::Stopped);
  EXPECT_EQ(asked, 3u) << "asked once per op until it said stop";
  EXPECT_TRUE(diagnostics.empty()) << diagnostics;
}

TEST_F(LimitsTest, StopRequestStopsBetweenBlocks) {
  // A graph-defined kernel asks before each block of its grid.
  ASSERT_TRUE(parse(R"mlir(
func.func @tiles(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %Y = kernel.graph_def (%x) grid = [2, 2] forloop = 1
      : (tensor<8x8xf32>) -> tensor<8x8xf32> {
  ^bb0(%a: tensor<8x8xf32>):
    %t = block.input %a imap = <x: 0, y: 1> fmap = <i: replicate> : tensor<8x8xf32> -> !block.tile<4x4xf32>
    %c = block.accum sum %t : !block.tile<4x4xf32> -> !block.tile<4x4xf32>
    %o = block.output %c omap = <x: 0, y: 1> : !block.tile<4x4xf32> -> tensor<8x8xf32>
    block.yield %o : tensor<8x8xf32>
  }
  return %Y : tensor<8x8xf32>
}
)mlir"));
  InterpreterLimits limits;
  unsigned asked = 0;
  // Once before the kernel, then before blocks 0, 1 and 2: stop at block 2.
  limits.shouldStop = [&] { return ++asked == 4; };
  RunInterruption why;
  auto field = FieldPair::create(31);
  ASSERT_TRUE(bool(field));
  FieldArithmetic arith(*field, 1);
  FieldTensor x{Tensor<uint64_t>(Shape{8, 8}, 3), {}};
  auto result = interpretField(fn("tiles"), {x}, arith, limits, &why);
  EXPECT_TRUE(mlir::failed(result));
  EXPECT_EQ(why.kind, RunInterruption::Kind::Stopped);
  EXPECT_EQ(asked, 4u);
  EXPECT_TRUE(diagnostics.empty()) << diagnostics;
}

} // namespace
