//===- MirageOptModule.cpp - mirage_opt's native part ---------------------===//
//
// The bridge from Python to mirage-opt: parse and print modules, run pass
// pipelines, and run functions in the reference interpreter on NumPy
// arrays. Modules cross the boundary as MLIR text (the Python side builds
// and imports programs as text), so one context per call is enough and no
// MLIR object outlives a call. Every failure raises mirage_opt.MirageError
// carrying the MLIR diagnostics, located in the module text.
//
//===----------------------------------------------------------------------===//

#include "mirage/Init/InitMirageOpt.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace mlir;

namespace {

/// One call's MLIR state: a context with mirage-opt's registry, the module
/// text in a source manager (so diagnostics point into it), and every
/// diagnostic printed as mirage-opt prints it.
class Session {
public:
  explicit Session(const std::string &text, const std::string &name)
      : context(makeRegistry(), MLIRContext::Threading::ENABLED),
        diagnosticStream(diagnostics) {
    context.printOpOnDiagnostic(false);
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                                 llvm::SMLoc());
    handler = std::make_unique<SourceMgrDiagnosticHandler>(
        sourceMgr, &context, diagnosticStream);
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  }

  bool parsed() const { return bool(module); }
  ModuleOp getModule() { return *module; }
  MLIRContext &getContext() { return context; }

  /// Everything reported so far (errors, warnings, remarks).
  std::string takeDiagnostics() {
    std::string text = std::move(diagnostics);
    diagnostics.clear();
    return text;
  }

  std::string print(bool locations = true) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (!locations) {
      module->print(os);
      return text;
    }
    // With locations, so that the source lines an importer recorded (and
    // the positions of text a user wrote) survive every round trip.
    module->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true,
                                                         /*prettyForm=*/false));
    return text;
  }

private:
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    mirage::registerMirageOptDialects(registry);
    return registry;
  }

  MLIRContext context;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  OwningOpRef<ModuleOp> module;
};

/// The Python exception type, created in the module init below.
nb::object mirageError;

[[noreturn]] void raise(const std::string &what, const std::string &diags) {
  std::string message = what;
  if (!diags.empty())
    message += ":\n" + diags;
  PyErr_SetString(mirageError.ptr(), message.c_str());
  throw nb::python_error();
}

std::unique_ptr<Session> open(const std::string &text,
                              const std::string &name) {
  auto session = std::make_unique<Session>(text, name);
  if (!session->parsed())
    raise("cannot parse the module", session->takeDiagnostics());
  if (failed(mlir::verify(session->getModule())))
    raise("the module does not verify", session->takeDiagnostics());
  return session;
}

/// Parses and verifies `text`; returns it printed in MLIR's form, with or
/// without its locations.
std::string parseModule(const std::string &text, const std::string &name,
                        bool locations) {
  return open(text, name)->print(locations);
}

/// Runs a textual pass pipeline, as `mirage-opt --pass-pipeline=...` does;
/// returns the resulting module and the diagnostics (remarks, warnings).
std::pair<std::string, std::string> runPipeline(const std::string &text,
                                                const std::string &pipeline,
                                                const std::string &name) {
  mirage::registerMirageOptPasses();
  std::unique_ptr<Session> session = open(text, name);
  // The pipeline names its anchor ("builtin.module(...)"), as
  // mirage-opt's --pass-pipeline does.
  std::string pipelineErrors;
  FailureOr<OpPassManager> parsed = failure();
  {
    llvm::raw_string_ostream errs(pipelineErrors);
    parsed = parsePassPipeline(pipeline, errs);
  }
  if (failed(parsed))
    raise("invalid pass pipeline '" + pipeline + "'", pipelineErrors);
  std::optional<StringRef> anchor = parsed->getOpName();
  if (anchor != ModuleOp::getOperationName())
    raise("the pass pipeline must be anchored on builtin.module, not '" +
              anchor.value_or("any").str() + "'",
          "");
  PassManager pm(&session->getContext(), ModuleOp::getOperationName());
  static_cast<OpPassManager &>(pm) = *parsed;
  LogicalResult result = success();
  {
    // Long searches print their progress on stderr; Python threads run on.
    nb::gil_scoped_release release;
    result = pm.run(session->getModule());
  }
  std::string diags = session->takeDiagnostics();
  if (failed(result))
    raise("the pipeline '" + pipeline + "' failed", diags);
  return {session->print(), diags};
}

using Array = nb::ndarray<nb::numpy, double, nb::c_contig>;

/// Runs `funcName` in the reference interpreter (mode "fp64" or "native")
/// on float64 arrays, one per argument; returns float64 arrays.
std::vector<Array> interpret(const std::string &text,
                             const std::string &funcName,
                             const std::vector<Array> &inputs,
                             const std::string &mode, uint64_t memoryBytes,
                             const std::string &name) {
  std::unique_ptr<Session> session = open(text, name);
  auto func = session->getModule().lookupSymbol<func::FuncOp>(funcName);
  if (!func)
    raise("no function @" + funcName + " in the module", "");
  if (mode != "fp64" && mode != "native")
    raise("mode must be 'fp64' or 'native', not '" + mode + "'", "");
  if (inputs.size() != func.getNumArguments())
    raise("@" + funcName + " takes " + std::to_string(func.getNumArguments()) +
              " inputs, " + std::to_string(inputs.size()) + " were given",
          "");
  if (failed(mirage::superopt::checkInterpretable(func)))
    raise("@" + funcName + " cannot be interpreted",
          session->takeDiagnostics());

  llvm::SmallVector<mirage::superopt::RealTensor> tensors;
  for (auto [i, array] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(func.getArgument(i).getType());
    bool sameShape = array.ndim() == size_t(type.getRank());
    for (size_t d = 0; sameShape && d < array.ndim(); ++d)
      sameShape = int64_t(array.shape(d)) == type.getDimSize(d);
    if (!sameShape) {
      std::string got = "[";
      for (size_t d = 0; d < array.ndim(); ++d)
        got += (d ? ", " : "") + std::to_string(array.shape(d));
      raise("input " + std::to_string(i) + " of @" + funcName +
                " has shape " + got + "], but the argument is " +
                [&] {
                  std::string s;
                  llvm::raw_string_ostream os(s);
                  os << type;
                  return s;
                }(),
            "");
    }
    mirage::superopt::TensorShape shape(type.getShape());
    std::vector<double> data(array.data(), array.data() + array.size());
    tensors.emplace_back(shape, std::move(data));
  }

  mirage::superopt::InterpreterLimits limits;
  limits.memoryBytes = memoryBytes;
  FailureOr<llvm::SmallVector<mirage::superopt::RealTensor>> results;
  {
    nb::gil_scoped_release release;
    results = mirage::superopt::interpretReal(
        func, tensors,
        mode == "native" ? mirage::superopt::RealMode::Native
                         : mirage::superopt::RealMode::FP64,
        limits);
  }
  if (failed(results))
    raise("running @" + funcName + " failed", session->takeDiagnostics());

  std::vector<Array> outputs;
  for (mirage::superopt::RealTensor &r : *results) {
    auto *data = new std::vector<double>(std::move(r.data));
    nb::capsule owner(data, [](void *p) noexcept {
      delete static_cast<std::vector<double> *>(p);
    });
    std::vector<size_t> shape(r.shape.begin(), r.shape.end());
    outputs.emplace_back(data->data(), shape.size(), shape.data(), owner);
  }
  return outputs;
}

/// One module holding the functions of both (their names must differ):
/// what --verify-equivalence needs to compare two programs.
std::string mergeModules(const std::string &first, const std::string &second,
                         const std::string &name) {
  std::unique_ptr<Session> a = open(first, name);
  // The second module parses in the first one's context, so its ops can
  // move over.
  ParserConfig config(&a->getContext());
  OwningOpRef<ModuleOp> b =
      parseSourceString<ModuleOp>(second, config, name + " (second)");
  if (!b)
    raise("cannot parse the second module", a->takeDiagnostics());
  Block *body = a->getModule().getBody();
  for (Operation &op : llvm::make_early_inc_range(*b->getBody()))
    op.moveBefore(body, body->end());
  if (failed(mlir::verify(a->getModule())))
    raise("the merged module does not verify (do function names clash?)",
          a->takeDiagnostics());
  return a->print();
}

/// The names of the functions of a module, in order.
std::vector<std::string> functionNames(const std::string &text,
                                       const std::string &name) {
  std::unique_ptr<Session> session = open(text, name);
  std::vector<std::string> names;
  for (auto func : session->getModule().getOps<func::FuncOp>())
    names.push_back(func.getSymName().str());
  return names;
}

/// The string attribute `attr` of function `function` (mirage.target, ...),
/// or None.
std::optional<std::string> functionAttribute(const std::string &text,
                                             const std::string &function,
                                             const std::string &attr,
                                             const std::string &name) {
  std::unique_ptr<Session> session = open(text, name);
  auto func = session->getModule().lookupSymbol<func::FuncOp>(function);
  if (!func)
    return std::nullopt;
  if (auto value = func->getAttrOfType<StringAttr>(attr))
    return value.getValue().str();
  return std::nullopt;
}

} // namespace

NB_MODULE(_mirage_opt, m) {
  m.doc() = "mirage-opt's native part: parsing, pass pipelines and the "
            "reference interpreter (use the mirage_opt package)";
  mirageError = nb::steal(PyErr_NewExceptionWithDoc(
      "mirage_opt.MirageError",
      "An MLIR error: the message carries mirage-opt's diagnostics.",
      PyExc_RuntimeError, nullptr));
  m.attr("MirageError") = mirageError;
  m.def("parse_module", &parseModule, nb::arg("text"),
        nb::arg("name") = "<python>", nb::arg("locations") = true,
        "Parses and verifies a module; returns it as MLIR prints it.");
  m.def("run_pipeline", &runPipeline, nb::arg("text"), nb::arg("pipeline"),
        nb::arg("name") = "<python>",
        "Runs a pass pipeline ('builtin.module(...)'); returns (module text, "
        "diagnostics).");
  m.def("interpret", &interpret, nb::arg("text"), nb::arg("function"),
        nb::arg("inputs"), nb::arg("mode") = "fp64",
        nb::arg("memory_bytes") = 0, nb::arg("name") = "<python>",
        "Runs a function in the reference interpreter on float64 arrays.");
  m.def("merge_modules", &mergeModules, nb::arg("first"), nb::arg("second"),
        nb::arg("name") = "<python>",
        "One module with the functions of both.");
  m.def("function_names", &functionNames, nb::arg("text"),
        nb::arg("name") = "<python>");
  m.def("function_attribute", &functionAttribute, nb::arg("text"),
        nb::arg("function"), nb::arg("attr"), nb::arg("name") = "<python>",
        "A function's string attribute, or None.");
}
