//===- Reference.cpp - the reference program of a manifest function -------===//

#include "mirage/Runtime/Reference.h"
#include "mirage/Superopt/Verification/InputScales.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace mlir;
using namespace mirage;
using namespace mirage::gpurun;

Reference::~Reference() = default;

/// "[2, 4096] f16", as the manifest describes a buffer.
static std::string describeBuffer(const Buffer &buffer) {
  return formatShape(buffer.shape) + " " + dtypeName(buffer.dtype).str();
}

/// "1 input", "2 inputs".
static std::string pluralize(size_t n, StringRef noun) {
  return std::to_string(n) + " " + noun.str() + (n == 1 ? "" : "s");
}

/// Whether `type` is the tensor type of `buffer`.
static bool matches(Type type, const Buffer &buffer) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         tensor.getShape() == ArrayRef<int64_t>(buffer.shape) &&
         isDtype(tensor.getElementType(), buffer.dtype);
}

FailureOr<std::unique_ptr<Reference>>
Reference::load(MLIRContext &context, const Manifest &manifest,
                const Function &function) {
  std::unique_ptr<Reference> reference(new Reference());
  reference->sourceMgr = std::make_shared<SourceMgr>();
  reference->sourceMgr->AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(function.reference, manifest.path + ":" +
                                                             function.where +
                                                             ".reference"),
      SMLoc());
  // Parser, verifier, checks below and interpreter all report here.
  reference->diagnostics = std::make_unique<SourceMgrDiagnosticHandler>(
      *reference->sourceMgr, &context);
  reference->module =
      parseSourceFile<ModuleOp>(reference->sourceMgr, ParserConfig(&context));
  if (!reference->module)
    return failure();

  SmallVector<func::FuncOp> funcs(reference->module->getOps<func::FuncOp>());
  func::FuncOp func;
  for (func::FuncOp f : funcs)
    if (f.getSymName() == function.name)
      func = f;
  // The pipeline names the reference like the function; a hand-written
  // manifest may not bother when there is only one.
  if (!func && funcs.size() == 1)
    func = funcs.front();
  if (!func)
    return emitError(reference->module->getLoc(), "the reference defines ")
           << (funcs.empty() ? "no function" : "no function @" + function.name)
           << "; it should define the manifest's function \"" << function.name
           << "\"";
  if (failed(superopt::checkInterpretable(func)))
    return failure();

  if (func.getNumArguments() != function.inputs.size())
    return emitError(func.getLoc(), "@")
           << func.getSymName() << " takes "
           << pluralize(func.getNumArguments(), "argument")
           << ", but the manifest function \"" << function.name << "\" has "
           << pluralize(function.inputs.size(), "input");
  for (auto [arg, position] :
       llvm::zip_equal(func.getArguments(), function.inputs)) {
    const Buffer &buffer = function.buffers[position];
    if (!matches(arg.getType(), buffer))
      return emitError(arg.getLoc(), "argument #")
             << arg.getArgNumber() << " of @" << func.getSymName() << " is "
             << arg.getType() << ", but input " << arg.getArgNumber() << " (\""
             << buffer.name << "\") is " << describeBuffer(buffer);
  }
  if (func.getNumResults() != function.outputs.size())
    return emitError(func.getLoc(), "@")
           << func.getSymName() << " returns "
           << pluralize(func.getNumResults(), "result")
           << ", but the manifest function \"" << function.name << "\" has "
           << pluralize(function.outputs.size(), "output");
  for (auto [i, type, position] :
       llvm::enumerate(func.getResultTypes(), function.outputs)) {
    const Buffer &buffer = function.buffers[position];
    if (!matches(type, buffer))
      return emitError(func.getLoc(), "result #")
             << i << " of @" << func.getSymName() << " is " << type
             << ", but output " << i << " (\"" << buffer.name << "\") is "
             << describeBuffer(buffer);
  }
  reference->func = func;
  return reference;
}

FailureOr<SmallVector<superopt::RealTensor>>
Reference::run(ArrayRef<superopt::RealTensor> inputs) {
  return superopt::interpretReal(func, inputs, superopt::RealMode::FP64);
}

int64_t Reference::indexBound(unsigned argNumber) const {
  return superopt::indexInputBound(func, func, argNumber);
}
