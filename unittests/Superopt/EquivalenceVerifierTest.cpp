//===- EquivalenceVerifierTest.cpp - the verifier's rules and limits ------===//
//
// The floating-point rules (NumericComparison.h) on hand-made tensors, the
// input-scale ladder, and verifyEquivalence on small programs: identical
// copies of cancelling programs, unstable rewrites found at a large input
// scale, random primes and their constant checks, non-finite constants,
// the float-only mode, and the caller's stop request and memory limit.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mirage/Superopt/Verification/InputScales.h"
#include "mirage/Superopt/Verification/NumericComparison.h"
#include "MicroGraphTest.h"
#include "mlir/IR/Diagnostics.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

using namespace mirage;
using namespace mirage::superopt;

namespace {

using Shape = std::vector<int64_t>;
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

RealTensor tensor(std::vector<double> values) {
  int64_t n = values.size();
  return RealTensor(Shape{n}, std::move(values));
}

//===----------------------------------------------------------------------===//
// NumericComparison
//===----------------------------------------------------------------------===//

TEST(NumericComparisonTest, TypicalMagnitudeIsTheMedianOfNonZeros) {
  EXPECT_EQ(typicalMagnitude(tensor({0, 0, -3, 1, 2, 1e9, kNaN})), 3);
  EXPECT_EQ(typicalMagnitude(tensor({0, 0})), 0);
  // One huge element does not move it.
  EXPECT_EQ(typicalMagnitude(tensor({1, 2, 3, 4, 1e12})), 3);
}

TEST(NumericComparisonTest, NativeRejectsNonFiniteOrZeroWhereOriginalIsFine) {
  DtypeTolerance f16 = toleranceFor(mlir::Float16Type::get(
      &*std::make_unique<mlir::MLIRContext>()));
  EXPECT_EQ(f16.rtol, 1e-2);
  RealTensor reference = tensor({1.0, 2.0, 3.0, 4.0});
  RealTensor original = tensor({1.0, 2.0, 3.0, 4.0});
  for (double bad : {kNaN, kInf, 0.0, 3.5}) {
    RealTensor candidate = tensor({1.0, 2.0, bad, 4.0});
    Comparison c = compareNative(reference, original, candidate, f16);
    ASSERT_TRUE(c.bad.has_value()) << bad;
    EXPECT_EQ(*c.bad, 2);
    EXPECT_EQ(c.judged, 4);
  }
  // Within the tolerance: 1% of |r| plus 1% of the median magnitude (3).
  Comparison ok = compareNative(reference, original,
                                tensor({1.02, 2.03, 3.05, 3.94}), f16);
  EXPECT_FALSE(ok.bad.has_value());
  EXPECT_LE(ok.worst, 1.0);
}

TEST(NumericComparisonTest, NativeLendsTheOriginalsOwnError) {
  DtypeTolerance tol{1e-2, 1e-2};
  RealTensor reference = tensor({10.0, 10.0, 10.0});
  // The original itself is 1.0 off somewhere; the candidate may be twice
  // as far off (plus the tolerance), anywhere in the output, not more.
  RealTensor original = tensor({10.0, 11.0, 10.0});
  EXPECT_FALSE(compareNative(reference, original, tensor({10.0, 11.0, 10.0}),
                             tol)
                   .bad);
  EXPECT_FALSE(compareNative(reference, original, tensor({11.9, 8.0, 10.0}),
                             tol)
                   .bad);
  Comparison worse = compareNative(reference, original,
                                   tensor({10.0, 12.3, 10.0}), tol);
  ASSERT_TRUE(worse.bad);
  EXPECT_EQ(*worse.bad, 1);
  EXPECT_DOUBLE_EQ(worse.ownError, 1.0);
  EXPECT_DOUBLE_EQ(worse.allowed, 0.1 + 0.1 + 2.0);
  // An exact original lends nothing: its tolerance alone.
  Comparison exact = compareNative(reference, reference,
                                   tensor({10.0, 10.0, 10.5}), tol);
  ASSERT_TRUE(exact.bad);
  EXPECT_EQ(*exact.bad, 2);
  EXPECT_DOUBLE_EQ(exact.ownError, 0);
  // Near underflow the dtype's resolution is the floor.
  DtypeTolerance f16 = toleranceFor(mlir::Float16Type::get(
      &*std::make_unique<mlir::MLIRContext>()));
  EXPECT_DOUBLE_EQ(f16.floor, 2 * 0x1p-24);
  EXPECT_FALSE(compareNative(tensor({1e-8, 1.0}), tensor({0.0, 1.0}),
                             tensor({0x1p-24, 1.0}), f16)
                   .bad);
}

TEST(NumericComparisonTest, NativeDoesNotJudgeWhereTheOriginalOverflows) {
  DtypeTolerance tol{1e-2, 1e-2};
  RealTensor reference = tensor({1e6, kInf, 2.0});
  RealTensor original = tensor({kInf, kInf, 2.0});
  Comparison c =
      compareNative(reference, original, tensor({kNaN, kNaN, 2.0}), tol);
  EXPECT_FALSE(c.bad);
  EXPECT_EQ(c.judged, 1);
  EXPECT_EQ(c.total, 3);
}

TEST(NumericComparisonTest, NativeDoesNotJudgeExactResultsBeyondTheDtype) {
  // -65535.1 rounds to -inf in f16 (above 65504 + 16): the original's
  // finite -65504 is luck of its rounding, and a candidate's -inf is the
  // correctly rounded value.
  DtypeTolerance f16 = toleranceFor(mlir::Float16Type::get(
      &*std::make_unique<mlir::MLIRContext>()));
  EXPECT_EQ(f16.overflow, 65520);
  Comparison c = compareNative(tensor({-65535.1, 100.0}),
                               tensor({-65504.0, 100.0}),
                               tensor({-kInf, 100.0}), f16);
  EXPECT_FALSE(c.bad);
  EXPECT_EQ(c.judged, 1);
  // Within the allowance of the threshold an infinity of the same sign is
  // rounding noise; further below it is an overflow, and a NaN never fits.
  EXPECT_FALSE(compareNative(tensor({-65000.0, 100.0}),
                             tensor({-65000.0, 100.0}),
                             tensor({-kInf, 100.0}), f16)
                   .bad);
  EXPECT_TRUE(compareNative(tensor({-65000.0, 100.0}),
                            tensor({-65000.0, 100.0}),
                            tensor({kInf, 100.0}), f16)
                  .bad);
  EXPECT_TRUE(compareNative(tensor({-60000.0, 100.0}),
                            tensor({-60000.0, 100.0}),
                            tensor({-kInf, 100.0}), f16)
                  .bad);
  EXPECT_TRUE(compareNative(tensor({-65000.0, 100.0}),
                            tensor({-65000.0, 100.0}),
                            tensor({kNaN, 100.0}), f16)
                  .bad);
}

TEST(NumericComparisonTest, OneLargeElementHidesNoError) {
  // With the largest magnitude as the absolute scale, 1e12 beside values
  // near 1 would allow an error of 1000 in each of them.
  RealTensor reference = tensor({0.9, 0.8, 0.95, 1e12});
  RealTensor candidate = tensor({0.9, 0.7, 0.95, 1e12});
  Comparison exact = compareExact(reference, candidate, true);
  ASSERT_TRUE(exact.bad);
  EXPECT_EQ(*exact.bad, 1);
  Comparison native =
      compareNative(reference, reference, candidate, DtypeTolerance{1e-2, 1e-2});
  ASSERT_TRUE(native.bad);
  EXPECT_EQ(*native.bad, 1);
}

TEST(NumericComparisonTest, ExactNonFiniteRules) {
  RealTensor reference = tensor({kInf, kNaN, 1.0});
  // Required at the first scale: the same non-finite values.
  EXPECT_FALSE(compareExact(reference, tensor({kInf, kNaN, 1.0}), true).bad);
  EXPECT_TRUE(compareExact(reference, tensor({-kInf, kNaN, 1.0}), true).bad);
  EXPECT_TRUE(compareExact(reference, tensor({kInf, 3.0, 1.0}), true).bad);
  // Elsewhere not judged; a non-finite candidate where the reference is
  // finite always fails.
  EXPECT_FALSE(compareExact(reference, tensor({-kInf, 3.0, 1.0}), false).bad);
  EXPECT_TRUE(compareExact(reference, tensor({kInf, kNaN, kNaN}), false).bad);
  // Rounding differences pass.
  EXPECT_FALSE(compareExact(tensor({1.0, 3.0}),
                            tensor({1.0 + 1e-15, 3.0 - 1e-14}), true)
                   .bad);
}

//===----------------------------------------------------------------------===//
// verifyEquivalence
//===----------------------------------------------------------------------===//

class VerifierTest : public mirage::testing::MicroGraphTest {
protected:
  std::string diagnostics;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;
  void SetUp() override {
    handler = std::make_unique<mlir::ScopedDiagnosticHandler>(
        &ctx, [&](mlir::Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return mlir::success();
        });
  }
  VerificationReport verify(llvm::StringRef original,
                            llvm::StringRef candidate,
                            const VerifierOptions &options = {}) {
    auto report = verifyEquivalence(fn(original), fn(candidate), options);
    EXPECT_TRUE(mlir::succeeded(report)) << diagnostics;
    return mlir::succeeded(report) ? *report : VerificationReport();
  }
};

TEST_F(VerifierTest, ScaleLadderFollowsTheNarrowestDtype) {
  ASSERT_TRUE(parse(R"mlir(
func.func @f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  return %x : tensor<4xf16>
}
func.func @f32_with_f16_tile(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %Y = kernel.graph_def (%x) grid = [1] forloop = 1
      : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %t = block.input %a imap = <x: replicate> fmap = <i: replicate> : tensor<4x4xf32> -> !block.tile<4x4xf32>
    %h = thread.fused (%t) : (!block.tile<4x4xf32>) -> !block.tile<4x4xf32> {
    ^bb0(%e: f32):
      thread.yield %e : f32
    }
    %c = block.accum sum %h : !block.tile<4x4xf32> -> !block.tile<4x4xf32>
    %o = block.output %c omap = <x: replicate> : !block.tile<4x4xf32> -> tensor<4x4xf32>
    block.yield %o : tensor<4x4xf32>
  }
  return %Y : tensor<4x4xf32>
}
)mlir")) << diagnostics;
  ScaleLadder f16 = planInputScales(fn("f16"), fn("f16"), 16);
  EXPECT_EQ(f16.scales, (llvm::SmallVector<double>{1, 4, 16, 64}));
  EXPECT_EQ(f16.ceiling, 64);
  ScaleLadder f32 = planInputScales(fn("f32"), fn("f32"), 6);
  EXPECT_EQ(f32.scales,
            (llvm::SmallVector<double>{1, 4, 16, 64, 256, 1024}));
  EXPECT_EQ(f32.ceiling, std::ldexp(1.0, 62));
  // The narrowest type of either program sets the ladder.
  ScaleLadder mixed = planInputScales(fn("f32"), fn("f16"), 16);
  EXPECT_TRUE(mixed.narrowest.isF16());
  EXPECT_EQ(planInputScales(fn("f32"), fn("f32"), 2).scales,
            (llvm::SmallVector<double>{1, 4}));
  EXPECT_EQ(planInputScales(fn("f32"), fn("f32"), 1).scales,
            (llvm::SmallVector<double>{1}));
}

constexpr llvm::StringLiteral kPrograms = R"mlir(
func.func @identity(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = graph.scalar_mul %x, 1.0 : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
func.func @shifted(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %k = graph.scalar_mul %x, 1.0 : tensor<4x8xf16>
  %a = graph.clamp %k, min = 1000.0, max = 1000.0 : tensor<4x8xf16>
  %s = graph.add %k, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %y = graph.sub %s, %a : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
func.func @softmax(%x: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %y = graph.softmax %x, dim = 1 : tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}
func.func @softmax_without_max(%x: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %e = graph.exp %x : tensor<4x32xf16>
  %s = graph.reduce_sum %e, dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %y = graph.div %e, %s : (tensor<4x32xf16>, tensor<4x1xf16>) -> tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}
func.func @double(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = graph.scalar_mul %x, 2.0 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @double_plus_vanishing(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = graph.scalar_mul %x, 2.0 : tensor<4x8xf32>
  %a = graph.clamp %x, min = 1.0, max = 4.0 : tensor<4x8xf32>
  %b = graph.clamp %x, min = 1.0, max = 1.0 : tensor<4x8xf32>
  %d = graph.sub %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = graph.scalar_mul %d, 0.99999995133839547634124755859375 : tensor<4x8xf32>
  %z = graph.add %y, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
func.func @times_inf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = graph.scalar_mul %x, 0x7FF0000000000000 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @times_minus_inf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = graph.scalar_mul %x, 0xFFF0000000000000 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @times_nan(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = graph.scalar_mul %x, 0x7FF8000000000000 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @exp_exp(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  %e = graph.exp %x : tensor<4x64xf32>
  %h = graph.scalar_mul %e, 0.25 : tensor<4x64xf32>
  %ee = graph.exp %h : tensor<4x64xf32>
  %s = graph.reduce_sum %ee, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
func.func @exp_exp_clamped(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  %c = graph.clamp %x, min = -1.0, max = 1.0 : tensor<4x64xf32>
  %e = graph.exp %c : tensor<4x64xf32>
  %h = graph.scalar_mul %e, 0.25 : tensor<4x64xf32>
  %ee = graph.exp %h : tensor<4x64xf32>
  %s = graph.reduce_sum %ee, dim = 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
)mlir";

TEST_F(VerifierTest, CancellingProgramVerifiesAgainstItsOwnCopy) {
  // (x + 1000) - 1000 in f16 loses x's low bits; compared with fp64 alone
  // it failed against itself. Its own f16 error is its allowance.
  ASSERT_TRUE(parse(kPrograms));
  VerificationReport self = verify("shifted", "shifted");
  EXPECT_TRUE(self.equivalent) << self.summary();
  EXPECT_LE(self.nativeMaxError, 1.0);
  // Against the program it claims to equal, it is still rejected.
  VerificationReport vsIdentity = verify("identity", "shifted");
  EXPECT_FALSE(vsIdentity.equivalent);
  ASSERT_TRUE(vsIdentity.mismatch);
  EXPECT_NE(vsIdentity.mismatch->method.find("f16 check"), std::string::npos);
}

TEST_F(VerifierTest, SoftmaxWithoutMaxIsRejectedAtALargeScale) {
  ASSERT_TRUE(parse(kPrograms));
  VerificationReport report = verify("softmax", "softmax_without_max");
  ASSERT_FALSE(report.equivalent);
  ASSERT_TRUE(report.mismatch) << report.summary();
  // Exact in the reals (the field test agrees), fine on [-1, 1), but exp
  // overflows f16 once an input exceeds 11.1.
  EXPECT_TRUE(report.fieldApplied);
  EXPECT_GT(report.mismatch->scale, 1);
  EXPECT_NE(report.mismatch->method.find("f16 check at input scale"),
            std::string::npos)
      << report.mismatch->method;
  EXPECT_NE(report.mismatch->candidateValue.find("nan"), std::string::npos)
      << report.mismatch->candidateValue;
  // The search's fail-fast order gives the same verdict.
  VerifierOptions fast;
  fast.realTestsFirst = true;
  VerificationReport first = verify("softmax", "softmax_without_max", fast);
  EXPECT_FALSE(first.equivalent);
  ASSERT_TRUE(first.mismatch);
  EXPECT_EQ(first.mismatch->scale, report.mismatch->scale);
  // And a copy of the stable op verifies at every scale of the f16 ladder.
  VerificationReport stable = verify("softmax", "softmax");
  EXPECT_TRUE(stable.equivalent) << stable.summary();
  EXPECT_EQ(stable.scales, (llvm::SmallVector<double>{1, 4, 16, 64}));
}

TEST_F(VerifierTest, PrimesAreRandomPerSeedAndReported) {
  ASSERT_TRUE(parse(kPrograms));
  std::set<uint64_t> qs;
  for (uint64_t seed : {0, 1, 2, 3}) {
    VerifierOptions options;
    options.seed = seed;
    options.realTests = 0;
    VerificationReport a = verify("double", "double", options);
    VerificationReport b = verify("double", "double", options);
    ASSERT_TRUE(a.fieldApplied);
    EXPECT_EQ(a.q, b.q) << "the same seed, the same primes";
    EXPECT_EQ(a.p, 2 * a.q + 1);
    EXPECT_EQ(64 - __builtin_clzll(a.q), 31);
    EXPECT_NE(a.summary().find("p = " + std::to_string(a.p)),
              std::string::npos);
    EXPECT_NE(a.summary().find("random primes"), std::string::npos);
    qs.insert(a.q);
  }
  EXPECT_EQ(qs.size(), 4u);
}

TEST_F(VerifierTest, VanishingConstantMakesTheVerifierRedraw) {
  // c = p / 2^32 for Mirage-opt's old fixed p = 4294967087: c (x-dependent
  // term) vanished modulo p, and the pair was accepted with a bound of
  // 2^-72. Given those primes first, the verifier sees the constant vanish,
  // draws a random pair, and finds the difference.
  ASSERT_TRUE(parse(kPrograms));
  VerifierOptions options;
  options.firstPair = {4294967087ull, 2147483543ull};
  VerificationReport report = verify("double", "double_plus_vanishing", options);
  ASSERT_EQ(report.fieldRedraws.size(), 1u) << report.summary() << diagnostics;
  EXPECT_NE(report.fieldRedraws[0].find("vanishes modulo p = 4294967087"),
            std::string::npos)
      << report.fieldRedraws[0];
  EXPECT_FALSE(report.equivalent);
  ASSERT_TRUE(report.mismatch);
  EXPECT_NE(report.mismatch->method.find("finite-field test"),
            std::string::npos);
  EXPECT_NE(report.p, 4294967087ull);
  EXPECT_EQ(report.primeDraws, 2u);
}

TEST_F(VerifierTest, NonFiniteConstantsGiveUpTheFieldTest) {
  ASSERT_TRUE(parse(kPrograms));
  VerifierOptions fieldOnly;
  fieldOnly.realTests = 0; // the floating-point checks still run: at least 3
  for (llvm::StringRef other : {"times_minus_inf", "times_nan"}) {
    VerificationReport report = verify("times_inf", other, fieldOnly);
    EXPECT_FALSE(report.fieldApplied);
    EXPECT_NE(report.fieldAbandoned.find("has no finite-field image"),
              std::string::npos)
        << report.fieldAbandoned;
    EXPECT_FALSE(report.equivalent) << other.str();
    ASSERT_TRUE(report.mismatch);
    EXPECT_NE(report.mismatch->method.find("fp64"), std::string::npos);
    EXPECT_GE(report.realTests, 3u);
  }
  VerificationReport self = verify("times_inf", "times_inf", fieldOnly);
  EXPECT_TRUE(self.equivalent) << self.summary();
  EXPECT_NE(self.summary().find("finite-field test given up"),
            std::string::npos)
      << self.summary();
}

TEST_F(VerifierTest, FloatOnlyModeClimbsTheScales) {
  // At [-1, 1) clamping to [-1, 1] changes nothing: one input scale would
  // accept it.
  ASSERT_TRUE(parse(kPrograms));
  // (Two exps on one path take the pair outside the field fragment.)
  VerificationReport report = verify("exp_exp", "exp_exp_clamped");
  EXPECT_FALSE(report.equivalent);
  EXPECT_TRUE(report.outsideFragment);
  ASSERT_TRUE(report.mismatch);
  EXPECT_EQ(report.mismatch->scale, 4);
  EXPECT_NE(report.mismatch->method.find("fp64 check"), std::string::npos);
  EXPECT_EQ(report.realTests, 3u);
  VerificationReport self = verify("exp_exp", "exp_exp");
  EXPECT_TRUE(self.equivalent);
  // exp(exp(16) / 4) is past f32's range: the original's own overflow ends
  // the ladder after scale 4.
  EXPECT_EQ(self.scales.size(), 3u);
  EXPECT_FALSE(self.ladderStop.empty());
}

TEST_F(VerifierTest, StopRequestInterrupts) {
  ASSERT_TRUE(parse(kPrograms));
  for (unsigned stopAt : {1u, 2u, 5u, 9u}) {
    VerifierOptions options;
    unsigned asked = 0;
    options.shouldStop = [&] { return ++asked >= stopAt; };
    VerificationReport report = verify("softmax", "softmax", options);
    EXPECT_FALSE(report.equivalent) << stopAt;
    EXPECT_FALSE(report.mismatch) << stopAt;
    ASSERT_TRUE(report.interrupted) << stopAt;
    EXPECT_NE(report.interrupted->find("stopped"), std::string::npos);
    EXPECT_EQ(asked, stopAt) << "nothing ran after the stop";
  }
}

TEST_F(VerifierTest, MemoryLimitInterrupts) {
  ASSERT_TRUE(parse(kPrograms));
  VerifierOptions options;
  options.memoryLimitBytes = 1024; // less than one run of a 4x32 program
  VerificationReport report = verify("softmax", "softmax", options);
  EXPECT_FALSE(report.equivalent);
  EXPECT_FALSE(report.mismatch);
  ASSERT_TRUE(report.interrupted);
  EXPECT_NE(report.interrupted->find("memory limit"), std::string::npos)
      << *report.interrupted;
  options.memoryLimitBytes = 1 << 20;
  EXPECT_TRUE(verify("softmax", "softmax", options).equivalent);
}

} // namespace
