//===- VerifierBench.cpp - time the interpreter and the verifier ----------===//
//
// Times, on the calling thread only, one run of each benchmark program
// (bench/programs, the benchmark set of docs/Benchmarks.md) in each arithmetic of the
// reference interpreter:
//
//  - the finite-field test's arithmetic, with q of 31 and of 61 bits (one
//    run is what one field test costs per program);
//  - fp64;
//  - the program's own dtypes (RealMode::Native, fp16 emulated in doubles);
//
// and the full equivalence check of the hand-written RMSNorm + MatMul
// µGraph pair (test/Examples/rms_norm_matmul.mlir). Each figure is the best
// of --reps repetitions, measured with std::chrono::steady_clock; drawing the
// random inputs is timed separately. Prints Markdown tables.
//
// bench/run-verifier-bench.sh builds this tool and runs it pinned to one core.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/MirageDialects.h"
#include "mirage/Superopt/Verification/EquivalenceVerifier.h"
#include "mirage/Superopt/Semantics/FieldArithmetic.h"
#include "mirage/Superopt/Verification/FieldFragment.h"
#include "mirage/Superopt/Semantics/FiniteField.h"
#include "mirage/Superopt/Semantics/Interpreter.h"
#include "mirage/Superopt/Semantics/RealArithmetic.h"
#include "mirage/Superopt/Semantics/Tensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace llvm;
using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;

#ifndef MIRAGE_BENCH_PROGRAMS_DIR
#define MIRAGE_BENCH_PROGRAMS_DIR "bench/programs"
#endif
#ifndef MIRAGE_BENCH_EXAMPLE
#define MIRAGE_BENCH_EXAMPLE "test/Examples/rms_norm_matmul.mlir"
#endif

static cl::OptionCategory benchCategory("mirage-verifier-bench options");

static cl::opt<std::string>
    programsDir(cl::Positional,
                cl::desc("[directory of .mlir programs (default: the "
                         "source tree's bench/programs)]"),
                cl::init(MIRAGE_BENCH_PROGRAMS_DIR), cl::cat(benchCategory));
static cl::opt<unsigned> reps("reps",
                              cl::desc("Repetitions; the best is reported "
                                       "(default 3)"),
                              cl::init(3), cl::cat(benchCategory));
static cl::opt<std::string>
    exampleFile("example",
                cl::desc("File with @rms_norm_matmul_graph and "
                         "@rms_norm_matmul_fused for the equivalence-check "
                         "rows (empty: skip them)"),
                cl::value_desc("file.mlir"), cl::init(MIRAGE_BENCH_EXAMPLE),
                cl::cat(benchCategory));
static cl::opt<std::string>
    filter("filter",
           cl::desc("Only the program files whose name contains this"),
           cl::value_desc("substring"), cl::cat(benchCategory));
enum class Column { Field31, Field61, FP64, Native };
static cl::list<Column> columns(
    "columns",
    cl::desc("Columns to measure (default: all); the others print \"-\""),
    cl::CommaSeparated,
    cl::values(clEnumValN(Column::Field31, "field31", "finite field, q31"),
               clEnumValN(Column::Field61, "field61", "finite field, q61"),
               clEnumValN(Column::FP64, "fp64", "fp64"),
               clEnumValN(Column::Native, "native", "native dtypes")),
    cl::cat(benchCategory));
static bool wanted(Column c) {
  return columns.empty() || llvm::is_contained(columns, c);
}
static cl::opt<bool> fullCheck("full-check",
                               cl::desc("Also time the full equivalence "
                                        "check with default options"),
                               cl::init(true), cl::cat(benchCategory));

static raw_ostream &error() {
  return WithColor::error(errs(), "mirage-verifier-bench");
}

using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// A duration in ms with three significant digits or so.
static std::string formatMs(double ms) {
  if (ms < 10)
    return formatv("{0:F2}", ms).str();
  if (ms < 100)
    return formatv("{0:F1}", ms).str();
  return formatv("{0:F0}", ms).str();
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

namespace {
class Random {
public:
  explicit Random(uint64_t seed) : engine(seed) {}
  uint64_t next() { return engine(); }
  /// Uniform in [0, m).
  uint64_t below(uint64_t m) {
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(engine()) * m) >> 64);
  }
  /// Uniform in [-1, 1).
  double symmetric() {
    return 2.0 * (static_cast<double>(engine() >> 11) * 0x1.0p-53) - 1.0;
  }

private:
  std::mt19937_64 engine;
};
} // namespace

static SmallVector<FieldTensor> fieldInputs(func::FuncOp func,
                                            const FieldFragment &frag,
                                            const FieldPair &field,
                                            Random &random) {
  SmallVector<FieldTensor> inputs;
  for (BlockArgument arg : func.getArguments()) {
    auto shape = cast<ShapedType>(arg.getType()).getShape();
    FieldTensor x;
    x.p = Tensor<uint64_t>(shape);
    for (uint64_t &v : x.p.data)
      v = random.below(field.p());
    if (frag.needExponent.contains(arg)) {
      x.q = Tensor<uint64_t>(shape);
      for (uint64_t &v : x.q.data)
        v = random.below(field.q());
    }
    inputs.push_back(std::move(x));
  }
  return inputs;
}

/// Uniform in [-1, 1), rounded to each argument's element type so that the
/// fp64 and native runs read the same values.
static SmallVector<RealTensor> realInputs(func::FuncOp func, Random &random) {
  SmallVector<RealTensor> inputs;
  for (BlockArgument arg : func.getArguments()) {
    auto type = cast<ShapedType>(arg.getType());
    RealTensor x(type.getShape());
    for (double &v : x.data)
      v = roundToType(random.symmetric(), type.getElementType());
    inputs.push_back(std::move(x));
  }
  return inputs;
}

/// Bytes of the arguments in their own dtypes (2 per fp16 element).
static double inputMegabytes(func::FuncOp func) {
  double bytes = 0;
  for (Type t : func.getArgumentTypes()) {
    auto type = cast<ShapedType>(t);
    bytes += static_cast<double>(type.getNumElements()) *
             (type.getElementType().getIntOrFloatBitWidth() / 8.0);
  }
  return bytes / 1e6;
}

namespace {
/// Multiply-adds of the matmuls (graph, kernel or block level) of one run.
struct MatmulWork {
  /// In the real arithmetics: one per product term.
  double macs = 0;
  /// In the field: the Z_p part always, plus the Z_q part of the matmuls
  /// whose result flows into an exp.
  double fieldMacs = 0;
};
} // namespace

/// A block matmul runs once per block and loop iteration.
static MatmulWork matmulWork(func::FuncOp func, const FieldFragment &frag) {
  MatmulWork work;
  func.walk([&](Operation *op) {
    if (!op->getName().getStringRef().ends_with(".matmul") ||
        op->getNumOperands() != 2 || op->getNumResults() != 1)
      return;
    auto lhs = dyn_cast<ShapedType>(op->getOperand(0).getType());
    auto result = dyn_cast<ShapedType>(op->getResult(0).getType());
    if (!lhs || !result || !lhs.hasStaticShape() || !result.hasStaticShape())
      return;
    double n = static_cast<double>(result.getNumElements()) *
               static_cast<double>(lhs.getShape().back());
    if (auto def = op->getParentOfType<kernel::GraphDefOp>()) {
      n *= static_cast<double>(def.getForloop());
      for (int64_t g : def.getGrid())
        n *= static_cast<double>(g);
    }
    work.macs += n;
    work.fieldMacs += frag.needExponent.contains(op->getResult(0)) ? 2 * n : n;
  });
  return work;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

namespace {
/// The best run time and input-generation time over the repetitions.
struct Timing {
  double runMs = std::numeric_limits<double>::infinity();
  double genMs = std::numeric_limits<double>::infinity();
  bool failed = false;
  bool zeroDivisor = false;
  std::string note; // "n/a (...)" when not applicable, "-" when skipped

  void record(double gen, double run) {
    genMs = std::min(genMs, gen);
    runMs = std::min(runMs, run);
  }
  std::string cell() const {
    if (!note.empty())
      return note;
    if (failed)
      return "error";
    return formatMs(runMs) + (zeroDivisor ? " (zero divisor)" : "");
  }
};

struct Row {
  std::string program, batch;
  double megabytes = 0;
  MatmulWork work;
  Timing field31, field61, fp64, native;
};
} // namespace

static Timing timeField(func::FuncOp func, const FieldFragment &frag,
                        unsigned bits) {
  Timing timing;
  if (!wanted(bits == 31 ? Column::Field31 : Column::Field61)) {
    timing.note = "-";
    return timing;
  }
  if (!frag.isLax()) {
    timing.note = "n/a (" + frag.reason + ")";
    return timing;
  }
  Expected<FieldPair> field = FieldPair::create(bits);
  if (!field) {
    timing.note = "n/a (" + toString(field.takeError()) + ")";
    return timing;
  }
  Random random(0x6669656c64ULL + bits);
  for (unsigned r = 0; r < reps; ++r) {
    Clock::time_point start = Clock::now();
    SmallVector<FieldTensor> inputs = fieldInputs(func, frag, *field, random);
    uint64_t key = random.next();
    double gen = msSince(start);
    start = Clock::now();
    FieldArithmetic arith(*field, key);
    arith.setExponentValues(&frag.needExponent);
    FailureOr<SmallVector<FieldTensor>> out =
        interpretField(func, inputs, arith);
    double run = msSince(start);
    if (failed(out)) {
      timing.failed = true;
      return timing;
    }
    timing.zeroDivisor |= arith.hitZeroDivisor();
    timing.record(gen, run);
  }
  return timing;
}

/// Times fp64 and native runs on the same inputs.
static void timeReal(func::FuncOp func, Timing &fp64, Timing &native) {
  if (!wanted(Column::FP64))
    fp64.note = "-";
  if (!wanted(Column::Native))
    native.note = "-";
  if (!fp64.note.empty() && !native.note.empty())
    return;
  Random random(0x7265616cULL);
  for (unsigned r = 0; r < reps; ++r) {
    Clock::time_point start = Clock::now();
    SmallVector<RealTensor> inputs = realInputs(func, random);
    double gen = msSince(start);
    for (auto [mode, timing] :
         {std::pair<RealMode, Timing *>{RealMode::FP64, &fp64},
          std::pair<RealMode, Timing *>{RealMode::Native, &native}}) {
      if (timing->failed || !timing->note.empty())
        continue;
      start = Clock::now();
      FailureOr<SmallVector<RealTensor>> out =
          interpretReal(func, inputs, mode);
      double run = msSince(start);
      if (failed(out)) {
        timing->failed = true;
        continue;
      }
      timing->record(gen, run);
    }
  }
}

static Row benchFunction(func::FuncOp func, StringRef program,
                         StringRef batch) {
  Row row;
  row.program = program.str();
  row.batch = batch.str();
  row.megabytes = inputMegabytes(func);
  FieldFragment frag = analyzeFieldFragment(func);
  row.work = matmulWork(func, frag);
  row.field31 = timeField(func, frag, 31);
  row.field61 = timeField(func, frag, 61);
  timeReal(func, row.fp64, row.native);
  return row;
}

/// One core's memory bandwidth, for reading the tables: the best of --reps
/// passes over 256 MB buffers (far larger than the caches), reading
/// (summing 64-bit words) and copying (memcpy; counted as the bytes copied).
static void printBandwidth() {
  constexpr size_t kWords = size_t(32) << 20; // 256 MB of uint64_t
  std::vector<uint64_t> src(kWords), dst(kWords);
  for (size_t i = 0; i < kWords; ++i)
    src[i] = i * 0x9e3779b97f4a7c15ULL;
  double readMs = std::numeric_limits<double>::infinity(), copyMs = readMs;
  uint64_t sum = 0;
  for (unsigned r = 0; r < reps; ++r) {
    Clock::time_point start = Clock::now();
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t i = 0; i < kWords; i += 4) {
      s0 += src[i];
      s1 += src[i + 1];
      s2 += src[i + 2];
      s3 += src[i + 3];
    }
    sum += s0 + s1 + s2 + s3;
    readMs = std::min(readMs, msSince(start));
    start = Clock::now();
    std::memcpy(dst.data(), src.data(), kWords * sizeof(uint64_t));
    copyMs = std::min(copyMs, msSince(start));
  }
  double gb = kWords * sizeof(uint64_t) / 1e9;
  outs() << formatv("One core, 256 MB buffers: read {0:F1} GB/s, memcpy "
                    "{1:F1} GB/s (checksum {2})\n\n",
                    gb / (readMs / 1e3), gb / (copyMs / 1e3), sum % 10);
  outs().flush();
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

static OwningOpRef<ModuleOp> parseFile(StringRef path, MLIRContext &context,
                                       SourceMgr &sourceMgr) {
  std::string message;
  std::unique_ptr<MemoryBuffer> file = openInputFile(path, &message);
  if (!file) {
    error() << message << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
}

/// "gqa_b8" -> ("gqa", "8"); a name without a _b<N> suffix has batch "-".
static std::pair<std::string, std::string> splitBatch(StringRef stem) {
  size_t pos = stem.rfind("_b");
  if (pos != StringRef::npos) {
    StringRef digits = stem.drop_front(pos + 2);
    if (!digits.empty() && all_of(digits, isDigit))
      return {stem.take_front(pos).str(), digits.str()};
  }
  return {stem.str(), "-"};
}

static SmallVector<std::string> listPrograms(StringRef dir) {
  SmallVector<std::string> files;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef path = it->path();
    if (sys::path::extension(path) == ".mlir" &&
        sys::path::filename(path).contains(filter))
      files.push_back(path.str());
  }
  if (ec)
    error() << "cannot read '" << dir << "': " << ec.message() << "\n";
  llvm::sort(files);
  return files;
}

static void printRows(ArrayRef<Row> rows) {
  raw_ostream &os = outs();
  os << "| program | b | inputs MB | field q31 (ms) | field q61 (ms) | "
        "fp64 (ms) | native (ms) |\n";
  os << "|---|---|--:|--:|--:|--:|--:|\n";
  for (const Row &r : rows)
    os << "| " << r.program << " | " << r.batch << " | "
       << formatv(r.megabytes < 1 ? "{0:F3}" : "{0:F1}", r.megabytes) << " | "
       << r.field31.cell() << " | " << r.field61.cell() << " | "
       << r.fp64.cell() << " | " << r.native.cell() << " |\n";

  // Work and input generation: matmul multiply-adds per ns of the best run
  // (the whole run's time, so other ops count against the rate).
  auto rate = [](double macs, const Timing &t) -> std::string {
    if (!t.note.empty() || t.failed || macs == 0)
      return "-";
    return formatv("{0:F2}", macs / (t.runMs * 1e6)).str();
  };
  auto gen = [](const Timing &t) -> std::string {
    if (!t.note.empty() || t.failed)
      return "-";
    return formatMs(t.genMs);
  };
  os << "\n| program | b | matmul MMAC | field MMAC | MAC/ns q31 | "
        "MAC/ns q61 | MAC/ns fp64 | MAC/ns native | inputs q31 (ms) | "
        "inputs q61 (ms) | inputs real (ms) |\n";
  os << "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const Row &r : rows)
    os << "| " << r.program << " | " << r.batch << " | "
       << formatv("{0:F1}", r.work.macs / 1e6) << " | "
       << formatv("{0:F1}", r.work.fieldMacs / 1e6) << " | "
       << rate(r.work.fieldMacs, r.field31) << " | "
       << rate(r.work.fieldMacs, r.field61) << " | "
       << rate(r.work.macs, r.fp64) << " | " << rate(r.work.macs, r.native)
       << " | " << gen(r.field31) << " | " << gen(r.field61) << " | "
       << gen(r.fp64.note.empty() ? r.fp64 : r.native) << " |\n";
  os.flush();
}

/// The equivalence-check rows: one field test (one run of each program) and
/// the default full check.
static LogicalResult benchEquivalence(func::FuncOp orig, func::FuncOp cand) {
  raw_ostream &os = outs();
  os << "\n| equivalence check (" << sys::path::filename(exampleFile)
     << ") | time (ms) | report |\n|---|--:|---|\n";
  struct Check {
    const char *name;
    VerifierOptions options;
  };
  SmallVector<Check> checks;
  VerifierOptions one;
  one.fieldTests = 1;
  one.realTests = 0;
  checks.push_back({"one field test (q31), no fp check", one});
  if (fullCheck)
    checks.push_back({"full check (default options)", VerifierOptions()});
  for (const Check &check : checks) {
    double best = std::numeric_limits<double>::infinity();
    std::string summary;
    for (unsigned r = 0; r < reps; ++r) {
      Clock::time_point start = Clock::now();
      FailureOr<VerificationReport> report =
          verifyEquivalence(orig, cand, check.options);
      double ms = msSince(start);
      if (failed(report))
        return failure();
      best = std::min(best, ms);
      summary = report->summary();
    }
    os << "| " << check.name << " | " << formatMs(best) << " | " << summary
       << " |\n";
    os.flush();
  }
  return success();
}

static LogicalResult run(MLIRContext &context) {
  SmallVector<std::string> files = listPrograms(programsDir);
  if (files.empty()) {
    error() << "no .mlir programs in '" << programsDir << "'\n";
    return failure();
  }
  printBandwidth();
  std::vector<Row> rows;
  for (const std::string &path : files) {
    SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    OwningOpRef<ModuleOp> module = parseFile(path, context, sourceMgr);
    if (!module)
      return failure();
    auto [program, batch] = splitBatch(sys::path::stem(path));
    SmallVector<func::FuncOp> funcs(module->getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      std::string name = program;
      if (funcs.size() > 1)
        name += "@" + func.getSymName().str();
      errs() << "timing " << name
             << (batch == "-" ? std::string() : " (b = " + batch + ")")
             << "...\n";
      rows.push_back(benchFunction(func, name, batch));
    }
  }

  // The hand-written µGraph pair: each function's runs as rows of the same
  // tables (the fused one runs at the kernel and block levels), then the
  // equivalence check.
  SourceMgr exampleSourceMgr;
  SourceMgrDiagnosticHandler exampleDiagnostics(exampleSourceMgr, &context);
  OwningOpRef<ModuleOp> example;
  func::FuncOp orig, cand;
  if (!exampleFile.empty()) {
    example = parseFile(exampleFile, context, exampleSourceMgr);
    if (!example)
      return failure();
    orig = example->lookupSymbol<func::FuncOp>("rms_norm_matmul_graph");
    cand = example->lookupSymbol<func::FuncOp>("rms_norm_matmul_fused");
    if (!orig || !cand) {
      error() << "'" << exampleFile
              << "' lacks @rms_norm_matmul_graph or @rms_norm_matmul_fused\n";
      return failure();
    }
    for (func::FuncOp func : {orig, cand}) {
      errs() << "timing @" << func.getSymName() << "...\n";
      rows.push_back(benchFunction(func, ("@" + func.getSymName()).str(), "8"));
    }
  }
  printRows(rows);
  if (example)
    return benchEquivalence(orig, cand);
  return success();
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(benchCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mirage-verifier-bench: times the reference interpreter (finite-field, "
      "fp64 and native runs) and the equivalence verifier on the benchmark "
      "programs, single-threaded\n");
  if (reps == 0) {
    error() << "--reps must be at least 1\n";
    return 1;
  }

  DialectRegistry registry;
  registerMirageDialects(registry);
  registry.insert<func::FuncDialect>();
  // Single-threaded: the interpreter does not use MLIR's thread pool.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  return failed(run(context)) ? 1 : 0;
}
