//===- mirage-run.cpp - run a function in the reference interpreter -------===//
//
// Runs one func.func of a .mlir file in the reference interpreter (fp64 or
// the program's own dtypes) on inputs read from .npy files or drawn from a
// seeded generator, and writes the results as .npy files, so that the
// numerics of a µGraph can be checked without a GPU. docs/mirage-run.md
// describes the options and the input generator.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/MirageDialects.h"
#include "mirage/Importers/LiftedConstants.h"
#include "mirage/Runtime/Manifest.h"
#include "mirage/Runtime/Npy.h"
#include "mirage/Runtime/RandomInputs.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <charconv>
#include <cmath>
#include <limits>

using namespace llvm;
using namespace mlir;
using namespace mirage;
using superopt::RealMode;
using superopt::RealTensor;

static cl::OptionCategory runCategory("mirage-run options");

static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<input .mlir file>"),
                                          cl::cat(runCategory));
static cl::opt<std::string>
    funcName("func",
             cl::desc("Function to run (may be left out when the file "
                      "defines exactly one)"),
             cl::value_desc("name"), cl::cat(runCategory));
static cl::opt<RealMode>
    arith("arith", cl::desc("Arithmetic of the run"), cl::init(RealMode::FP64),
          cl::values(clEnumValN(RealMode::FP64, "fp64", "every op in fp64"),
                     clEnumValN(RealMode::Native, "native",
                                "each op rounded to its own element type")),
          cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the random inputs (default 0)"),
                              cl::init(0), cl::cat(runCategory));
static cl::opt<double>
    inputScale("scale",
               cl::desc("Magnitude of the random inputs: uniform in "
                        "[-S, S), S a power of two (default 1), like the "
                        "verifier's input scales"),
               cl::value_desc("S"), cl::init(1.0), cl::cat(runCategory));
static cl::opt<uint64_t> memoryLimitMiB(
    "memory-limit",
    cl::desc("MiB the run may hold at its peak, as estimated before it "
             "starts (default 0: the machine's physical memory)"),
    cl::value_desc("MiB"), cl::init(0), cl::cat(runCategory));
static cl::list<std::string>
    inputFiles("input",
               cl::desc("A .npy file per function argument, in order, "
                        "instead of random inputs"),
               cl::value_desc("file.npy"), cl::CommaSeparated,
               cl::cat(runCategory));
static cl::opt<std::string>
    outputDir("output-dir",
              cl::desc("Directory for out0.npy, out1.npy, ... (created "
                       "when missing)"),
              cl::value_desc("dir"), cl::init("."), cl::cat(runCategory));
static cl::opt<bool>
    saveInputs("save-inputs",
               cl::desc("Also write the inputs as in0.npy, in1.npy, ..."),
               cl::cat(runCategory));
static cl::opt<bool> print("print",
                           cl::desc("Print each output's shape, first "
                                    "values, min, max and mean"),
                           cl::cat(runCategory));

static raw_ostream &error() { return WithColor::error(errs(), "mirage-run"); }

/// The shortest decimal that reads back as `x`, so printed values are exact
/// and stable across platforms.
static std::string formatDouble(double x) {
  char buffer[32];
  std::to_chars_result r = std::to_chars(buffer, buffer + sizeof(buffer), x);
  return std::string(buffer, r.ptr);
}

/// The function to run: --func, or the only function of the module.
static FailureOr<func::FuncOp> selectFunction(ModuleOp module) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  auto listNames = [&](raw_ostream &os) {
    interleaveComma(funcs, os,
                    [&](func::FuncOp f) { os << '@' << f.getSymName(); });
  };
  if (funcName.getNumOccurrences()) {
    for (func::FuncOp f : funcs)
      if (f.getSymName() == funcName)
        return f;
    raw_ostream &os = error();
    os << "no function @" << funcName << " in '" << inputFilename << "'";
    if (funcs.empty()) {
      os << ", which defines no function\n";
    } else {
      os << "; it defines ";
      listNames(os);
      os << "\n";
    }
    return failure();
  }
  if (funcs.size() == 1)
    return funcs.front();
  raw_ostream &os = error();
  if (funcs.empty()) {
    os << "'" << inputFilename << "' defines no function\n";
  } else {
    os << "'" << inputFilename << "' defines " << funcs.size()
       << " functions (";
    listNames(os);
    os << "); choose one with --func\n";
  }
  return failure();
}

/// Every argument must be a statically shaped float tensor: its shape is the
/// shape of the input and its element type says which values to generate.
/// Every size of the function must fit the interpreter's limits, checked
/// here before any input is read or drawn.
static LogicalResult checkArguments(func::FuncOp func) {
  if (func.isExternal())
    return emitError(func.getLoc(), "@")
           << func.getSymName() << " has no body to interpret";
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape() ||
        !isa<FloatType>(type.getElementType()))
      return emitError(arg.getLoc(), "argument #")
             << arg.getArgNumber() << " of @" << func.getSymName() << " is "
             << arg.getType()
             << "; mirage-run takes statically shaped float tensors only";
    double largest = APFloat::getLargest(
                         cast<FloatType>(type.getElementType())
                             .getFloatSemantics())
                         .convertToDouble();
    if (inputFiles.empty() && inputScale > largest)
      return emitError(arg.getLoc(), "--scale=")
             << formatDouble(inputScale) << " exceeds the largest "
             << type.getElementType() << " value " << formatDouble(largest)
             << " of argument #" << arg.getArgNumber() << " of @"
             << func.getSymName();
  }
  if (failed(superopt::checkInterpretable(func)))
    return failure();
  uint64_t limit = memoryLimitMiB ? memoryLimitMiB << 20
                                  : superopt::physicalMemoryBytes();
  uint64_t peak =
      superopt::estimatePeakBytes(func, superopt::kRealElementBytes);
  if (peak > limit)
    return emitError(func.getLoc(), "running @")
           << func.getSymName() << " needs about " << (peak >> 20)
           << " MiB at its peak, more than the memory limit of "
           << (limit >> 20) << " MiB";
  return success();
}

/// The numeric flags in range, or an error naming the flag.
static LogicalResult checkFlags() {
  int exponent;
  if (!std::isfinite(inputScale) || inputScale <= 0 ||
      std::frexp(inputScale, &exponent) != 0.5) {
    error() << "--scale must be a positive power of two (so that the "
               "scaled inputs stay exact), got "
            << formatDouble(inputScale) << "\n";
    return failure();
  }
  if (memoryLimitMiB > (uint64_t(1) << 40)) {
    error() << "--memory-limit must be at most 2^40 MiB, got "
            << memoryLimitMiB << "\n";
    return failure();
  }
  if (inputScale.getNumOccurrences() && !inputFiles.empty()) {
    error() << "--scale applies to random inputs only; it cannot be used "
               "with --input\n";
    return failure();
  }
  return success();
}

/// The values of the arguments that replace constants (the importers'
/// `mirage.lifted_constant`), by argument; nothing for the others.
static FailureOr<SmallVector<std::optional<RealTensor>>>
liftedConstants(func::FuncOp func) {
  SmallVector<std::optional<RealTensor>> values(func.getNumArguments());
  for (BlockArgument arg : func.getArguments()) {
    Attribute attr = func.getArgAttr(arg.getArgNumber(), kLiftedConstantAttr);
    if (!attr)
      continue;
    auto elements = dyn_cast<ElementsAttr>(attr);
    auto type = cast<RankedTensorType>(arg.getType());
    auto reject = [&] {
      emitError(arg.getLoc(), "argument #")
          << arg.getArgNumber() << " of @" << func.getSymName() << " has a "
          << kLiftedConstantAttr
          << " attribute that is not a float tensor of its shape";
      return failure();
    };
    if (!elements || elements.getShapedType().getShape() != type.getShape())
      return reject();
    auto floats = elements.tryGetValues<APFloat>();
    if (!floats)
      return reject();
    std::vector<double> data;
    for (const APFloat &x : *floats)
      data.push_back(x.convertToDouble());
    values[arg.getArgNumber()] = RealTensor(type.getShape(), std::move(data));
  }
  return values;
}

/// Reads one --input file per argument in `args` and checks its shape.
static FailureOr<SmallVector<RealTensor>>
readInputs(func::FuncOp func, ArrayRef<BlockArgument> args) {
  SmallVector<RealTensor> inputs;
  for (auto [arg, file] : llvm::zip_equal(args, inputFiles)) {
    Expected<npy::Array> array = npy::read(file);
    if (!array) {
      error() << toString(array.takeError()) << "\n";
      return failure();
    }
    auto type = cast<RankedTensorType>(arg.getType());
    if (ArrayRef<int64_t>(array->shape) != type.getShape()) {
      emitError(arg.getLoc(), "input '")
          << file << "' has shape " << gpurun::formatShape(array->shape)
          << ", but argument #" << arg.getArgNumber() << " of @"
          << func.getSymName() << " has shape " << gpurun::formatShape(type.getShape())
          << " (" << type << ")";
      return failure();
    }
    inputs.push_back(std::move(*array));
  }
  return inputs;
}

/// The inputs: arguments that replace constants take their values from
/// their attribute (unless one --input file is given for every argument);
/// the others come from --input files or the seeded generator.
static FailureOr<SmallVector<RealTensor>> gatherInputs(func::FuncOp func) {
  FailureOr<SmallVector<std::optional<RealTensor>>> lifted =
      liftedConstants(func);
  if (failed(lifted))
    return failure();
  if (!inputFiles.empty() && inputFiles.size() == func.getNumArguments())
    lifted->assign(func.getNumArguments(), std::nullopt);
  SmallVector<BlockArgument> open;
  for (BlockArgument arg : func.getArguments())
    if (!(*lifted)[arg.getArgNumber()])
      open.push_back(arg);

  SmallVector<RealTensor> drawn;
  if (inputFiles.empty()) {
    SmallVector<Type> types;
    for (BlockArgument arg : open)
      types.push_back(arg.getType());
    drawn = generateRandomInputs(types, seed, inputScale);
  } else if (inputFiles.size() != open.size()) {
    size_t fixed = func.getNumArguments() - open.size();
    InFlightDiagnostic diag = emitError(func.getLoc(), "@");
    diag << func.getSymName() << " takes " << func.getNumArguments()
         << " argument" << (func.getNumArguments() == 1 ? "" : "s");
    if (fixed)
      diag << " (" << open.size() << " without a " << kLiftedConstantAttr
           << ")";
    diag << ", but " << inputFiles.size() << " --input file"
         << (inputFiles.size() == 1 ? " was" : "s were") << " given";
    return failure();
  } else {
    FailureOr<SmallVector<RealTensor>> read = readInputs(func, open);
    if (failed(read))
      return failure();
    drawn = std::move(*read);
  }

  SmallVector<RealTensor> inputs;
  auto next = drawn.begin();
  for (std::optional<RealTensor> &value : *lifted)
    inputs.push_back(value ? std::move(*value) : std::move(*next++));
  return inputs;
}

/// Writes tensors as <prefix>0.npy, <prefix>1.npy, ... in --output-dir.
static LogicalResult writeTensors(ArrayRef<RealTensor> tensors,
                                  StringRef prefix) {
  for (auto [i, tensor] : llvm::enumerate(tensors)) {
    SmallString<128> path(outputDir);
    sys::path::append(path, prefix + Twine(i) + ".npy");
    if (Error e = npy::write(path, tensor)) {
      error() << "cannot write '" << path << "': " << toString(std::move(e))
              << "\n";
      return failure();
    }
  }
  return success();
}

/// A summary for eyes and FileCheck: shape, the first values, min, max and
/// mean (min and max are nan when any element is).
static void printTensor(raw_ostream &os, StringRef name,
                        const RealTensor &tensor) {
  constexpr size_t kShown = 8;
  os << name << ": shape " << gpurun::formatShape(tensor.shape) << ", " << tensor.size()
     << " elements\n";
  if (tensor.data.empty())
    return;
  os << "  values: ";
  ArrayRef<double> data(tensor.data);
  interleaveComma(data.take_front(kShown), os,
                  [&](double x) { os << formatDouble(x); });
  if (data.size() > kShown)
    os << ", ...";
  os << "\n";
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
  bool anyNaN = false;
  for (double x : data) {
    anyNaN |= std::isnan(x);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    sum += x;
  }
  if (anyNaN)
    lo = hi = std::numeric_limits<double>::quiet_NaN();
  os << "  min " << formatDouble(lo) << ", max " << formatDouble(hi)
     << ", mean " << formatDouble(sum / data.size()) << "\n";
}

static LogicalResult run(MLIRContext &context) {
  if (failed(checkFlags()))
    return failure();
  std::string errorMessage;
  std::unique_ptr<MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    error() << errorMessage << "\n";
    return failure();
  }
  auto sourceMgr = std::make_shared<SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(file), SMLoc());
  // Parser, verifier and interpreter errors all point into the source.
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return failure();

  FailureOr<func::FuncOp> func = selectFunction(*module);
  if (failed(func) || failed(checkArguments(*func)))
    return failure();

  FailureOr<SmallVector<RealTensor>> inputs = gatherInputs(*func);
  if (failed(inputs))
    return failure();

  if (std::error_code ec = sys::fs::create_directories(outputDir)) {
    error() << "cannot create output directory '" << outputDir
            << "': " << ec.message() << "\n";
    return failure();
  }
  if (saveInputs && failed(writeTensors(*inputs, "in")))
    return failure();

  superopt::InterpreterLimits limits;
  limits.memoryBytes = memoryLimitMiB << 20;
  FailureOr<SmallVector<RealTensor>> outputs =
      superopt::interpretReal(*func, *inputs, arith, limits);
  if (failed(outputs))
    return failure();
  if (failed(writeTensors(*outputs, "out")))
    return failure();
  if (print)
    for (auto [i, output] : llvm::enumerate(*outputs))
      printTensor(outs(), ("out" + Twine(i)).str(), output);
  return success();
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mirage-run: runs a function in the reference interpreter and writes "
      "its results as .npy files\n");

  DialectRegistry registry;
  registerMirageDialects(registry);
  registry.insert<func::FuncDialect>();
  // One interpreter run: a thread pool would only cost start-up time.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  // The located source line says where; the op in generic form, which MLIR
  // appends to op diagnostics by default, would only bury the message.
  context.printOpOnDiagnostic(false);
  return failed(run(context)) ? 1 : 0;
}
