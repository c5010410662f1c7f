//===- ReferenceTest.cpp - a manifest function's fp64 reference -----------===//
//
// The reference is checked against the function's buffers (count, shape
// and dtype of each input and output) with a diagnostic that names both
// sides, and runs in fp64.
//
//===----------------------------------------------------------------------===//

#include "mirage/Runtime/Reference.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include <cmath>
#include "gtest/gtest.h"

using namespace mirage;
using namespace mirage::gpurun;

namespace {

constexpr const char *kAdd = R"(
func.func @scaled_add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = kernel.binary add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = kernel.binary mul %0, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
)";

Buffer buffer(std::string name, Role role, unsigned index,
              superopt::TensorShape shape, Dtype dtype) {
  Buffer b;
  b.name = std::move(name);
  b.role = role;
  b.index = index;
  b.shape = std::move(shape);
  b.dtype = dtype;
  b.bytes = 6 * dtypeSize(dtype);
  return b;
}

struct ReferenceTest : ::testing::Test {
  ReferenceTest() : context(registry(), mlir::MLIRContext::Threading::DISABLED) {
    context.printOpOnDiagnostic(false);
    manifest.path = "prog.json";
    function.name = "scaled_add";
    function.where = "functions[0]";
    function.reference = kAdd;
    function.buffers = {buffer("arg0", Role::Input, 0, {2, 3}, Dtype::F32),
                        buffer("arg1", Role::Input, 1, {2, 3}, Dtype::F32),
                        buffer("result0", Role::Output, 0, {2, 3}, Dtype::F32)};
    for (unsigned i = 0; i < 3; ++i)
      function.buffers[i].storage = i;
    function.inputs = {0, 1};
    function.outputs = {2};
  }
  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    registerMirageDialects(r);
    r.insert<mlir::func::FuncDialect>();
    return r;
  }
  /// The diagnostics of a failed load (they go to stderr).
  std::string loadError() {
    ::testing::internal::CaptureStderr();
    mlir::FailureOr<std::unique_ptr<Reference>> r =
        Reference::load(context, manifest, function);
    std::string err = ::testing::internal::GetCapturedStderr();
    return mlir::failed(r) ? err : "loaded";
  }

  mlir::MLIRContext context;
  Manifest manifest;
  Function function;
};

TEST_F(ReferenceTest, RunsInFp64) {
  mlir::FailureOr<std::unique_ptr<Reference>> r =
      Reference::load(context, manifest, function);
  ASSERT_TRUE(mlir::succeeded(r));
  // Values an f32 evaluation would round: (a + b) * b with b = 1 + 2^-30.
  double b = 1.0 + std::ldexp(1.0, -30);
  superopt::RealTensor x({2, 3}, {1e8, -2, 0.5, 3, 1e-3, 7});
  superopt::RealTensor y({2, 3}, std::vector<double>(6, b));
  mlir::FailureOr<llvm::SmallVector<superopt::RealTensor>> out =
      (*r)->run({x, y});
  ASSERT_TRUE(mlir::succeeded(out));
  ASSERT_EQ(out->size(), 1u);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ((*out)[0].data[i], (x.data[i] + b) * b) << i;
}

TEST_F(ReferenceTest, ChecksItAgainstTheBuffers) {
  EXPECT_EQ(loadError(), "loaded");

  function.buffers[1].dtype = Dtype::F16;
  function.buffers[1].bytes = 12;
  std::string err = loadError();
  EXPECT_NE(err.find("prog.json:functions[0].reference:2:"), std::string::npos)
      << err;
  EXPECT_NE(err.find("argument #1 of @scaled_add is 'tensor<2x3xf32>', but "
                     "input 1 (\"arg1\") is [2, 3] f16"),
            std::string::npos)
      << err;

  function.buffers[1].dtype = Dtype::F32;
  function.buffers[2].shape = {3, 2};
  err = loadError();
  EXPECT_NE(err.find("result #0 of @scaled_add is 'tensor<2x3xf32>', but output "
                     "0 (\"result0\") is [3, 2] f32"),
            std::string::npos)
      << err;

  function.buffers[2].shape = {2, 3};
  function.inputs = {0};
  err = loadError();
  EXPECT_NE(err.find("@scaled_add takes 2 arguments, but the manifest "
                     "function \"scaled_add\" has 1 input"),
            std::string::npos)
      << err;
}

TEST_F(ReferenceTest, NamesTheFunctionItLacks) {
  function.reference = std::string(kAdd) +
                       "func.func @other() { return }\n";
  function.name = "missing";
  std::string err = loadError();
  EXPECT_NE(err.find("the reference defines no function @missing; it should "
                     "define the manifest's function \"missing\""),
            std::string::npos)
      << err;
  // With one function, its name need not match.
  function.reference = kAdd;
  EXPECT_EQ(loadError(), "loaded");
}

TEST_F(ReferenceTest, ReportsAParseErrorInTheReference) {
  function.reference = "func.func @scaled_add(%a: tensor<2x3xf32>";
  std::string err = loadError();
  EXPECT_NE(err.find("prog.json:functions[0].reference:1:"), std::string::npos)
      << err;
}

} // namespace
