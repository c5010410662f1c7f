//===- CostModel.cpp - analytic per-target kernel cost model --------------===//
//
// docs/CostModel.md states every formula implemented here and the source of
// every constant; keep the two in step.
//
//===----------------------------------------------------------------------===//

#include "mirage/Superopt/CostModel/CostModel.h"

#include "mirage/Target/GpuChip.h"
#include "mirage/Target/KnownTargets.h"

#include "mirage/Dialect/Block/Analysis/SharedMemoryPlan.h"
#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/ShapeRules.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mirage;
using namespace mirage::superopt;
using llvm::Expected;

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

/// The target's numbers from the target database
/// (include/mirage/Target/KnownTargets.h), which names their sources, and the
/// model's own assumptions. The database's l2BandwidthGBs and
/// launchOverheadUs are 0 for chips nothing published has been checked
/// for; GpuTarget::get refuses those unless a calibration gives them.
static Expected<GpuTarget> fromDatabase(StringRef name) {
  Expected<const mirage::target::TargetInfo &> info =
      mirage::target::lookupTarget(name);
  if (!info)
    return info.takeError();
  GpuTarget t;
  t.name = name.str();
  t.numSMs = info->numSMs;
  t.smemPerBlockBytes = info->sharedMemoryPerBlockOptin;
  t.smemPerSMBytes = info->sharedMemoryPerSM;
  t.regsPerSM = info->registersPerSM;
  t.maxRegsPerThread = info->maxRegistersPerThread;
  t.maxThreadsPerSM = info->maxThreadsPerSM;
  t.maxBlocksPerSM = info->maxBlocksPerSM;
  t.l2Bytes = info->l2Bytes;
  t.clockGHz = info->boostClockGHz;
  t.dramBandwidthGBs = info->dramBandwidthGBs;
  t.l2BandwidthGBs = info->l2BandwidthGBs;
  t.smemBytesPerClockPerSM = 128; // 32 banks x 4 bytes
  t.tensorCoreTflops = info->getTensorCores(mirage::target::MmaType::F16).denseTflops;
  t.cudaCoreTflops = info->fp32Tflops;
  t.launchOverheadUs = info->launchOverheadUs;
  t.syncCycles = 20;
  // Assumptions shared by every target (docs/CostModel.md, "Efficiency").
  t.dramEfficiency = 0.85;
  t.l2Efficiency = 0.8;
  t.smemEfficiency = 0.8;
  t.computeEfficiency = 0.8;
  t.dramSaturationSMFraction = 0.5;
  return t;
}

//===----------------------------------------------------------------------===//
// Calibration
//===----------------------------------------------------------------------===//

namespace {
struct DoubleField {
  const char *key;
  double GpuTarget::*field;
  bool isFraction; // must lie in (0, 1]
};
struct IntField {
  const char *key;
  int64_t GpuTarget::*field;
};
} // namespace

static const DoubleField kDoubleFields[] = {
    {"clockGHz", &GpuTarget::clockGHz, false},
    {"dramBandwidthGBs", &GpuTarget::dramBandwidthGBs, false},
    {"l2BandwidthGBs", &GpuTarget::l2BandwidthGBs, false},
    {"smemBytesPerClockPerSM", &GpuTarget::smemBytesPerClockPerSM, false},
    {"tensorCoreTflops", &GpuTarget::tensorCoreTflops, false},
    {"cudaCoreTflops", &GpuTarget::cudaCoreTflops, false},
    {"launchOverheadUs", &GpuTarget::launchOverheadUs, false},
    {"syncCycles", &GpuTarget::syncCycles, false},
    {"dramEfficiency", &GpuTarget::dramEfficiency, true},
    {"l2Efficiency", &GpuTarget::l2Efficiency, true},
    {"smemEfficiency", &GpuTarget::smemEfficiency, true},
    {"computeEfficiency", &GpuTarget::computeEfficiency, true},
    {"dramSaturationSMFraction", &GpuTarget::dramSaturationSMFraction, true},
};

static const IntField kIntFields[] = {
    {"numSMs", &GpuTarget::numSMs},
    {"smemPerBlockBytes", &GpuTarget::smemPerBlockBytes},
    {"smemPerSMBytes", &GpuTarget::smemPerSMBytes},
    {"regsPerSM", &GpuTarget::regsPerSM},
    {"maxRegsPerThread", &GpuTarget::maxRegsPerThread},
    {"maxThreadsPerSM", &GpuTarget::maxThreadsPerSM},
    {"maxBlocksPerSM", &GpuTarget::maxBlocksPerSM},
    {"l2Bytes", &GpuTarget::l2Bytes},
    {"threadsPerBlock", &GpuTarget::threadsPerBlock},
    {"baseRegsPerThread", &GpuTarget::baseRegsPerThread},
};

static llvm::Error calibrationError(const Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "calibration: " + msg);
}

static llvm::Error applyConstant(GpuTarget &t, StringRef key,
                                 const llvm::json::Value &value) {
  std::optional<double> number = value.getAsNumber();
  for (const DoubleField &f : kDoubleFields) {
    if (key != f.key)
      continue;
    if (!number)
      return calibrationError("constant '" + key + "' must be a number");
    // Zero would divide by zero in the roofline; NaN fails every comparison.
    if (!(*number > 0))
      return calibrationError("constant '" + key + "' must be positive, got " +
                              llvm::formatv("{0}", *number));
    if (f.isFraction && *number > 1)
      return calibrationError("constant '" + key +
                              "' is a fraction in (0, 1], got " +
                              llvm::formatv("{0}", *number));
    t.*f.field = *number;
    return llvm::Error::success();
  }
  for (const IntField &f : kIntFields) {
    if (key != f.key)
      continue;
    std::optional<int64_t> integer = value.getAsInteger();
    if (!integer)
      return calibrationError("constant '" + key + "' must be an integer");
    if (*integer <= 0)
      return calibrationError("constant '" + key + "' must be positive, got " +
                              Twine(*integer));
    t.*f.field = *integer;
    return llvm::Error::success();
  }
  return calibrationError("unknown constant '" + key + "'");
}

llvm::Error GpuTarget::applyCalibrationJSON(StringRef json) {
  Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return calibrationError("invalid JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return calibrationError("the top level must be an object");

  // Work on a copy so that a bad file leaves the target as it was.
  GpuTarget t = *this;
  for (const auto &[key, value] : *root) {
    if (key == "description") {
      if (!value.getAsString())
        return calibrationError("'description' must be a string");
    } else if (key == "target") {
      std::optional<StringRef> target = value.getAsString();
      if (!target)
        return calibrationError("'target' must be a string");
      if (*target != name)
        return calibrationError("the file is for '" + *target +
                                "', not for '" + name + "'");
    } else if (key == "constants") {
      const llvm::json::Object *constants = value.getAsObject();
      if (!constants)
        return calibrationError("'constants' must be an object");
      for (const auto &[ckey, cvalue] : *constants)
        if (llvm::Error err = applyConstant(t, ckey, cvalue))
          return err;
    } else if (key == "kernels") {
      const llvm::json::Array *kernels = value.getAsArray();
      if (!kernels)
        return calibrationError("'kernels' must be an array");
      for (const llvm::json::Value &entry : *kernels) {
        const llvm::json::Object *kernel = entry.getAsObject();
        if (!kernel)
          return calibrationError("each 'kernels' entry must be an object");
        std::optional<StringRef> signature;
        std::optional<double> timeUs;
        for (const auto &[kkey, kvalue] : *kernel) {
          if (kkey == "signature") {
            signature = kvalue.getAsString();
            if (!signature)
              return calibrationError("'signature' must be a string");
          } else if (kkey == "timeUs") {
            timeUs = kvalue.getAsNumber();
            if (!timeUs)
              return calibrationError("'timeUs' must be a number");
            if (!(*timeUs > 0))
              return calibrationError("'timeUs' must be positive, got " +
                                      llvm::formatv("{0}", *timeUs));
          } else {
            return calibrationError("unknown key '" + StringRef(kkey) +
                                    "' in a 'kernels' entry");
          }
        }
        if (!signature || !timeUs)
          return calibrationError(
              "a 'kernels' entry needs 'signature' and 'timeUs'");
        t.measuredUs[*signature] = *timeUs;
      }
    } else {
      return calibrationError("unknown key '" + StringRef(key) + "'");
    }
  }
  *this = std::move(t);
  return llvm::Error::success();
}

Expected<GpuTarget> GpuTarget::get(StringRef name) { return get(name, ""); }

Expected<GpuTarget> GpuTarget::get(StringRef name,
                                   StringRef calibrationPath) {
  Expected<GpuTarget> gpu = fromDatabase(name);
  if (!gpu)
    return gpu.takeError();
  if (!calibrationPath.empty())
    if (llvm::Error err = gpu->applyCalibration(calibrationPath))
      return std::move(err);
  // Checked after the calibration, which may give what the database lacks.
  mirage::target::TargetInfo given = llvm::cantFail(
      mirage::target::lookupTarget(name), "fromDatabase found it");
  given.l2BandwidthGBs = gpu->l2BandwidthGBs;
  given.launchOverheadUs = gpu->launchOverheadUs;
  if (std::optional<std::string> missing =
          mirage::target::getMissingCostModelParameters(given))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *missing);
  return gpu;
}

llvm::Error GpuTarget::applyCalibration(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return calibrationError("cannot read '" + path +
                            "': " + buffer.getError().message());
  if (llvm::Error err = applyCalibrationJSON((*buffer)->getBuffer()))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   path + ": " + llvm::toString(std::move(err)));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Shapes and arithmetic weights
//===----------------------------------------------------------------------===//

static int64_t elementBytes(Type elementType) {
  return std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
}

// Sizes are doubles: an element count or byte count of a valid type may not
// fit 64 bits (a 2^32 x 2^32 tensor), and the model only needs magnitudes.
// ShapedType::getNumElements would wrap.

static double numElements(Type type) {
  double n = 1;
  for (int64_t d : cast<ShapedType>(type).getShape())
    n *= double(d);
  return n;
}

static double numBytes(Type type) {
  auto shaped = cast<ShapedType>(type);
  return numElements(type) * double(elementBytes(shaped.getElementType()));
}

/// Products of f16 or bf16 operands run on tensor cores (whatever the
/// accumulator's type: an f32 result of f16 tiles is the mma's own form);
/// f32 operands on CUDA cores.
static bool usesTensorCores(Operation *op) {
  Type element = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  return element.isF16() || element.isBF16();
}

/// Arithmetic per element, in FLOP-equivalents of a CUDA-core FMA slot.
/// Transcendentals go through the SFU (about a quarter of the FMA rate) plus
/// range reduction; the weights are estimates, documented in CostModel.md.
static double unaryWeight(UnaryKind kind) {
  switch (kind) {
  case UnaryKind::exp:
  case UnaryKind::sqrt:
    return 4;
  case UnaryKind::silu:
  case UnaryKind::sigmoid:
    return 6; // exp, add, div
  case UnaryKind::tanh:
    return 6; // exp-based, as the SFU computes it
  case UnaryKind::gelu:
    return 10; // tanh form
  case UnaryKind::erf:
    return 8; // a rational approximation, as libdevice's erff
  case UnaryKind::pow:
    return 8; // exp(log(x) * e)
  case UnaryKind::clamp:
    return 2;
  case UnaryKind::square:
  case UnaryKind::relu:
  case UnaryKind::scale:
  case UnaryKind::offset:
  case UnaryKind::cast: // one cvt; the bytes moved are what it costs
    return 1;
  }
  return 1;
}

static double binaryWeight(BinaryKind kind) {
  if (isComparison(kind))
    return 2; // setp, then selp of 1.0 or 0.0
  return kind == BinaryKind::div ? 4 : 1;
}

/// select: setp of cond != 0, selp (selectop).
static constexpr double kSelectWeight = 2;

//===----------------------------------------------------------------------===//
// Predefined kernels (and graph ops, costed as their default kernel)
//===----------------------------------------------------------------------===//

namespace {
enum class Family {
  Matmul,
  Elementwise,
  Reduce,
  Normalize, // rms_norm, softmax: one pass over each row
  Movement,  // transpose, broadcast, repeat, concat, split
  View,      // reshape
  Conv2D,
  Pool2D,
  Gather,    // gather, gather_elements: reads only the rows it takes
  Indexing,  // scatter_elements, one_hot: memory-bound
  TopK,      // a selection over each row
  Unknown,
};

/// What the cost of a predefined kernel depends on, besides its types.
struct Predefined {
  Family family = Family::Unknown;
  StringRef kernelName; // the kernel op's name, e.g. "kernel.unary"
  StringRef kind;       // "exp", "sum", ... or empty
  double weight = 0;    // FLOPs per element (elementwise, reduce, normalize)
  int64_t window = 0;   // pooling window elements
};
} // namespace

static Predefined classify(Operation *op) {
  using P = Predefined;
  return TypeSwitch<Operation *, P>(op)
      .Case<kernel::MatmulOp, graph::MatmulOp>([](auto) {
        return P{Family::Matmul, "kernel.matmul", "", 0, 0};
      })
      .Case<kernel::UnaryOp>([](kernel::UnaryOp u) {
        return P{Family::Elementwise, "kernel.unary",
                 stringifyUnaryKind(u.getKind()), unaryWeight(u.getKind()), 0};
      })
      .Case<graph::UnaryOpInterface>([](graph::UnaryOpInterface u) {
        return P{Family::Elementwise, "kernel.unary",
                 stringifyUnaryKind(u.getUnaryKind()),
                 unaryWeight(u.getUnaryKind()), 0};
      })
      .Case<graph::CastOp>([](graph::CastOp) {
        return P{Family::Elementwise, "kernel.unary",
                 stringifyUnaryKind(UnaryKind::cast),
                 unaryWeight(UnaryKind::cast), 0};
      })
      .Case<kernel::BinaryOp>([](kernel::BinaryOp b) {
        return P{Family::Elementwise, "kernel.binary",
                 stringifyBinaryKind(b.getKind()), binaryWeight(b.getKind()),
                 0};
      })
      .Case<graph::BinaryOpInterface>([](graph::BinaryOpInterface b) {
        return P{Family::Elementwise, "kernel.binary",
                 stringifyBinaryKind(b.getBinaryKind()),
                 binaryWeight(b.getBinaryKind()), 0};
      })
      .Case<kernel::SelectOp, graph::SelectOp>([](auto) {
        return P{Family::Elementwise, "kernel.select", "", kSelectWeight, 0};
      })
      .Case<kernel::ReduceOp>([](kernel::ReduceOp r) {
        return P{Family::Reduce, "kernel.reduce",
                 stringifyReduceKind(r.getKind()), 1, 0};
      })
      .Case<graph::ReduceSumOp, graph::ReduceMaxOp>([](auto r) {
        return P{Family::Reduce, "kernel.reduce",
                 stringifyReduceKind(r.getKind()), 1, 0};
      })
      // square, sum, rsqrt (amortized), multiply.
      .Case<kernel::RMSNormOp, graph::RMSNormOp>([](auto) {
        return P{Family::Normalize, "kernel.rms_norm", "", 4, 0};
      })
      // max, subtract, exp, sum, divide.
      .Case<kernel::SoftmaxOp, graph::SoftmaxOp>([](auto) {
        return P{Family::Normalize, "kernel.softmax", "", 11, 0};
      })
      .Case<kernel::TransposeOp, graph::TransposeOp>([](auto) {
        return P{Family::Movement, "kernel.transpose", "", 0, 0};
      })
      .Case<kernel::BroadcastOp, graph::BroadcastOp>([](auto) {
        return P{Family::Movement, "kernel.broadcast", "", 0, 0};
      })
      .Case<kernel::RepeatOp, graph::RepeatOp>([](auto) {
        return P{Family::Movement, "kernel.repeat", "", 0, 0};
      })
      .Case<kernel::ConcatOp, graph::ConcatOp>([](auto) {
        return P{Family::Movement, "kernel.concat", "", 0, 0};
      })
      .Case<kernel::SplitOp, graph::SplitOp>([](auto) {
        return P{Family::Movement, "kernel.split", "", 0, 0};
      })
      .Case<kernel::ReshapeOp, graph::ReshapeOp>([](auto) {
        return P{Family::View, "kernel.reshape", "", 0, 0};
      })
      .Case<kernel::Conv2DOp, graph::Conv2DOp>([](auto) {
        return P{Family::Conv2D, "kernel.conv2d", "", 0, 0};
      })
      .Case<kernel::Pool2DOp>([](kernel::Pool2DOp p) {
        ArrayRef<int64_t> k = p.getKernel();
        return P{Family::Pool2D, "kernel.pool2d", stringifyPoolKind(p.getKind()),
                 0, k.size() == 2 ? k[0] * k[1] : 1};
      })
      .Case<graph::MaxPool2DOp, graph::AvgPool2DOp>([](auto p) {
        ArrayRef<int64_t> k = p.getKernel();
        return P{Family::Pool2D, "kernel.pool2d", stringifyPoolKind(p.getKind()),
                 0, k.size() == 2 ? k[0] * k[1] : 1};
      })
      // Indexing (issue 24).
      .Case<kernel::GatherOp, graph::GatherOp>([](auto) {
        return P{Family::Gather, "kernel.gather", "", 0, 0};
      })
      .Case<kernel::GatherElementsOp, graph::GatherElementsOp>([](auto) {
        return P{Family::Gather, "kernel.gather_elements", "", 0, 0};
      })
      .Case<kernel::ScatterElementsOp, graph::ScatterElementsOp>([](auto s) {
        return P{Family::Indexing, "kernel.scatter_elements",
                 stringifyScatterReduction(s.getReduction()), 1, 0};
      })
      .Case<kernel::OneHotOp, graph::OneHotOp>([](auto) {
        return P{Family::Indexing, "kernel.one_hot", "", 0, 0};
      })
      .Case<kernel::TopKOp, graph::TopKOp>([](auto t) {
        // A k-deep insertion per element: about log2(k) + 1 compares.
        return P{Family::TopK, "kernel.topk", "",
                 std::log2(double(t.getK())) + 1, 0};
      })
      .Default([](Operation *) { return P{}; });
}

static void printShape(llvm::raw_ostream &os, Type type) {
  auto shaped = cast<ShapedType>(type);
  for (int64_t d : shaped.getShape())
    os << d << 'x';
  os << shaped.getElementType();
}

static void printSignature(llvm::raw_ostream &os, Operation *op,
                           const Predefined &p) {
  os << p.kernelName;
  if (!p.kind.empty())
    os << ' ' << p.kind;
  os << ' ';
  llvm::interleave(
      op->getOperandTypes(), os, [&](Type t) { printShape(os, t); }, ",");
  os << "->";
  llvm::interleave(
      op->getResultTypes(), os, [&](Type t) { printShape(os, t); }, ",");
}

std::string mirage::superopt::kernelSignature(Operation *op) {
  Predefined p = classify(op);
  if (p.family == Family::Unknown)
    return "";
  std::string s;
  llvm::raw_string_ostream os(s);
  printSignature(os, op, p);
  return s;
}

/// Launch overhead plus the larger of the memory and compute terms.
static void finishRoofline(KernelCost &cost, const GpuTarget &t, double memUs,
                           double computeUs, double extraUs = 0) {
  double body = std::max(memUs, computeUs);
  cost.timeUs = t.launchOverheadUs + body + extraUs;
  if (t.launchOverheadUs >= body)
    cost.bound = "launch";
  else
    cost.bound = memUs >= computeUs ? "memory" : "compute";
}

static KernelCost estimatePredefined(Operation *op, const Predefined &p,
                                     const GpuTarget &t) {
  KernelCost cost;
  if (p.family == Family::View) {
    cost.bound = "free";
    return cost;
  }
  // Each operand is read once and each result written once: library kernels
  // tile so that reuse (a matmul's operands) is served by shared memory and
  // L2, not by device memory.
  for (Type type : op->getOperandTypes())
    cost.dramBytes += numBytes(type);
  for (Type type : op->getResultTypes())
    cost.dramBytes += numBytes(type);
  // A gather reads the elements it takes (as many as its result has) and
  // its indices, not the whole table: an embedding lookup touches a few
  // rows of a 50k-row matrix.
  if (p.family == Family::Gather)
    cost.dramBytes = numBytes(op->getOperand(1).getType()) +
                     2 * numBytes(op->getResult(0).getType());

  Type result = op->getResult(0).getType();
  bool tensorCores = false;
  switch (p.family) {
  case Family::Matmul: {
    int64_t k = cast<ShapedType>(op->getOperand(0).getType()).getShape().back();
    cost.flops = 2.0 * numElements(result) * double(k);
    tensorCores = usesTensorCores(op);
    break;
  }
  case Family::Conv2D: {
    // OIHW weight: every output element is a dot product over I x KH x KW.
    ArrayRef<int64_t> w =
        cast<ShapedType>(op->getOperand(1).getType()).getShape();
    cost.flops = 2.0 * numElements(result) * double(w[1]) * double(w[2]) *
                 double(w[3]);
    tensorCores = usesTensorCores(op);
    break;
  }
  case Family::Pool2D:
    cost.flops = numElements(result) * double(p.window);
    break;
  case Family::Elementwise:
    cost.flops = numElements(result) * p.weight;
    break;
  case Family::Reduce:
  case Family::Normalize:
  case Family::TopK:
    cost.flops = numElements(op->getOperand(0).getType()) * p.weight;
    break;
  case Family::Indexing:
    cost.flops = numElements(op->getOperand(op->getNumOperands() - 1)
                                 .getType()) *
                 p.weight;
    break;
  case Family::Gather:
  case Family::Movement:
  case Family::View:
  case Family::Unknown:
    break;
  }
  double memUs = cost.dramBytes / (t.dramBandwidthGBs * 1e3 * t.dramEfficiency);
  double rateTflops = tensorCores ? t.tensorCoreTflops : t.cudaCoreTflops;
  double computeUs = cost.flops / (rateTflops * 1e6 * t.computeEfficiency);
  finishRoofline(cost, t, memUs, computeUs);
  return cost;
}

//===----------------------------------------------------------------------===//
// Graph-defined kernels
//===----------------------------------------------------------------------===//

/// Registers per thread of a thread.fused chain: the most scalar values live
/// at once in its body (arguments included), each held for every element the
/// thread owns, one 32-bit register per value element.
static double fusedRegisters(thread::FusedOp fused, const GpuTarget &t) {
  Block &body = fused.getBody().front();
  // Position of the last use of each value; arguments are defined at -1.
  llvm::SmallDenseMap<Value, int, 32> lastUse;
  int index = 0;
  for (Operation &op : body) {
    for (Value operand : op.getOperands())
      lastUse[operand] = index;
    ++index;
  }
  auto liveAt = [&](int i) {
    int live = 0;
    for (BlockArgument arg : body.getArguments()) {
      auto it = lastUse.find(arg);
      live += it != lastUse.end() && it->second >= i;
    }
    int j = 0;
    for (Operation &op : body) {
      if (j > i)
        break;
      for (Value result : op.getResults()) {
        auto it = lastUse.find(result);
        live += j == i || (it != lastUse.end() && it->second >= i);
      }
      ++j;
    }
    return live;
  };
  int maxLive = 0;
  for (int i = 0; i < index; ++i)
    maxLive = std::max(maxLive, liveAt(i));

  double elements = 0;
  for (Type type : fused.getResultTypes())
    elements = std::max(elements, numElements(type));
  double perThread = std::ceil(elements / double(t.threadsPerBlock));
  return double(t.baseRegsPerThread) + double(maxLive) * perThread;
}

/// FLOPs of one element of a thread.fused chain.
static double fusedWeight(thread::FusedOp fused) {
  double w = 0;
  for (Operation &op : fused.getBody().front()) {
    if (auto u = dyn_cast<thread::UnaryOp>(op))
      w += unaryWeight(u.getKind());
    else if (auto b = dyn_cast<thread::BinaryOp>(op))
      w += binaryWeight(b.getKind());
    else if (isa<thread::SelectOp>(op))
      w += kSelectWeight;
  }
  return w;
}

static Expected<KernelCost> estimateGraphDef(kernel::GraphDefOp op,
                                             const GpuTarget &t) {
  auto iface = cast<block::BlockGraphOpInterface>(op.getOperation());
  std::optional<int64_t> gridBlocks =
      checkedElementCount(iface.getGridDims());
  if (!gridBlocks)
    return llvm::createStringError("the grid has too many blocks to count in "
                                   "64 bits");
  int64_t blocks = *gridBlocks;
  int64_t iterations = iface.getForloopRange();

  // Per-block quantities.
  double dramRead = 0, l2Read = 0, dramWrite = 0; // whole kernel
  double smemBytes = 0, tensorFlops = 0, cudaFlops = 0, syncs = 0;
  double regs = t.baseRegsPerThread;
  bool inLoop = true;

  for (Operation &inner : iface.getBlockGraph()) {
    if (isa<block::YieldOp>(inner))
      continue;
    if (block::isLoopAccumulator(&inner))
      inLoop = false;
    // How many times one block runs this op.
    double runs = inLoop ? double(iterations) : 1.0;

    if (auto input = dyn_cast<block::InputOp>(inner)) {
      double tile = numBytes(input.getTile().getType());
      // A tile that does not move with the loop is loaded once, before it.
      bool hoisted = input.getFmap().isReplicate();
      double loads = hoisted ? 1.0 : double(iterations);
      double total = double(blocks) * loads * tile;
      // The first read of each element comes from device memory; blocks that
      // re-read it (a replicated grid dimension) hit L2 if the tensor fits.
      double unique = std::min(total, numBytes(input.getSource().getType()));
      dramRead += unique;
      if (numBytes(input.getSource().getType()) <= double(t.l2Bytes))
        l2Read += total - unique;
      else
        dramRead += total - unique;
      smemBytes += loads * tile;
      syncs += loads;
      continue;
    }
    if (auto output = dyn_cast<block::OutputOp>(inner)) {
      double tile = numBytes(output.getTile().getType());
      dramWrite += double(blocks) * tile;
      smemBytes += tile;
      syncs += 1;
      continue;
    }
    if (auto sm = dyn_cast<block::SoftmaxAccumOp>(inner)) {
      // Each iteration: a warp per row reads S twice (max, then exp into P),
      // P V on tensor cores (f16 values) from P and V, the output read and
      // rewritten by the rescale; after the loop a / l once.
      auto scores = cast<ShapedType>(sm.getScores().getType());
      auto values = cast<ShapedType>(sm.getValues().getType());
      double sElems = numElements(scores);
      double rows = sElems / double(scores.getShape().back());
      double outElems = numElements(sm.getOutput().getType());
      double pBytes = sElems * double(elementBytes(values.getElementType()));
      double outBytes = numBytes(sm.getOutput().getType());
      double statsBytes = numBytes(sm.getStats().getType());
      double it = double(iterations);
      smemBytes += it * (2 * numBytes(scores) + 2 * pBytes + numBytes(values) +
                         2 * outBytes + 2 * statsBytes) +
                   2 * outBytes + statsBytes;
      cudaFlops += it * (7 * sElems + 2 * outElems + 8 * rows) +
                   outElems * binaryWeight(BinaryKind::div);
      double productFlops = it * 2.0 * outElems * double(scores.getShape().back());
      bool tensorCores = values.getElementType().isF16() ||
                         values.getElementType().isBF16();
      (tensorCores ? tensorFlops : cudaFlops) += productFlops;
      syncs += 2 * it + 1;
      continue;
    }
    if (auto accum = dyn_cast<block::AccumOp>(inner)) {
      double in = numBytes(accum.getInput().getType());
      double inElems = numElements(accum.getInput().getType());
      block::AccumKind kind = accum.getKind();
      if (kind == block::AccumKind::red_sum ||
          kind == block::AccumKind::red_rms) {
        // A warp per row reads the tile and updates its row's state.
        double state = numBytes(accum.getResult().getType());
        smemBytes += iterations * (in + 2 * state);
        cudaFlops += iterations * inElems *
                         (kind == block::AccumKind::red_rms ? 2.0 : 1.0) +
                     (kind == block::AccumKind::red_rms
                          ? numElements(accum.getResult().getType()) *
                                (1 + unaryWeight(UnaryKind::sqrt))
                          : 0.0);
        syncs += iterations;
        continue;
      }
      // sum and max read the accumulator and write it back; concat only
      // writes its slice.
      bool combines = kind != block::AccumKind::concat;
      smemBytes += iterations * (combines ? 3.0 : 2.0) * in;
        cudaFlops += combines ? double(iterations) * inElems : 0.0;
      syncs += iterations;
      continue;
    }

    // Shared-memory ops: read every operand tile, write every result tile.
    double traffic = 0;
    for (Type type : inner.getOperandTypes())
      traffic += numBytes(type);
    double resultBytes = 0;
    for (Type type : inner.getResultTypes())
      resultBytes += numBytes(type);
    traffic += resultBytes;
    smemBytes += runs * traffic;
    syncs += runs;

    Type result = inner.getResult(0).getType();
    if (isa<block::MatmulOp>(inner)) {
      int64_t k =
          cast<ShapedType>(inner.getOperand(0).getType()).getShape().back();
      double flops = runs * 2.0 * numElements(result) * double(k);
      (usesTensorCores(&inner) ? tensorFlops : cudaFlops) += flops;
    } else if (auto u = dyn_cast<block::UnaryOp>(inner)) {
      cudaFlops += runs * numElements(result) * unaryWeight(u.getKind());
    } else if (auto b = dyn_cast<block::BinaryOp>(inner)) {
      cudaFlops += runs * numElements(result) * binaryWeight(b.getKind());
    } else if (isa<block::ReduceOp>(inner)) {
      cudaFlops += runs * numElements(inner.getOperand(0).getType());
    } else if (isa<block::RMSNormOp>(inner)) {
      // Squares summed per row, then one division per element (the input
      // is read twice).
      double n = numElements(inner.getOperand(0).getType());
      smemBytes += runs * numBytes(inner.getOperand(0).getType());
      cudaFlops += runs * n * (2 + binaryWeight(BinaryKind::div));
    } else if (auto merge = dyn_cast<block::SoftmaxMergeOp>(inner)) {
      // Per result element, over the parts: max, exp, two products, sums.
      double parts = double(cast<ShapedType>(merge.getPartials().getType())
                                .getShape()[merge.getDim()]);
      cudaFlops += runs * numElements(result) * parts *
                   (unaryWeight(UnaryKind::exp) + 5);
    } else if (auto fused = dyn_cast<thread::FusedOp>(inner)) {
      cudaFlops += runs * numElements(result) * fusedWeight(fused);
      regs = std::max(regs, fusedRegisters(fused, t));
    }
  }

  // The footprint is the code generator's memory plan (accumulators live
  // throughout, post-loop tiles reuse the loop body's space, tensor-core
  // sums stay in registers): what block-to-gpu will allocate.
  const GpuChip *chip = lookupGpuChipOfTarget(t.name);
  double footprintBytes = double(
      block::planSharedMemory(iface.getBlockGraph(),
                              chip && chip->mma != GpuMma::None)
          .bytes);
  if (footprintBytes > double(t.smemPerBlockBytes))
    return llvm::createStringError(
        llvm::formatv("block graph needs {0:F0} bytes of shared memory per "
                      "block; {1} allows {2}",
                      footprintBytes, t.name, t.smemPerBlockBytes)
            .str());
  if (regs > double(t.maxRegsPerThread))
    return llvm::createStringError(
        llvm::formatv("thread.fused chain needs about {0:F0} registers per "
                      "thread ({1} threads per block); {2} allows {3}",
                      regs, t.threadsPerBlock, t.name, t.maxRegsPerThread)
            .str());
  // Both now fit the target's (64-bit) limits.
  int64_t footprint = static_cast<int64_t>(footprintBytes);
  int64_t regsPerThread = static_cast<int64_t>(regs);

  // Occupancy: blocks resident on one SM at once.
  int64_t perSM = std::min(t.maxBlocksPerSM, t.maxThreadsPerSM / t.threadsPerBlock);
  if (footprint > 0)
    perSM = std::min(perSM, t.smemPerSMBytes / footprint);
  perSM = std::min(perSM, t.regsPerSM / (regsPerThread * t.threadsPerBlock));
  perSM = std::max<int64_t>(perSM, 1);
  auto ceilDiv = [](int64_t a, int64_t b) { return a / b + (a % b != 0); };
  int64_t waves = ceilDiv(blocks, t.numSMs * perSM);
  // The busiest SM runs this many blocks, one after another or side by side
  // sharing its tensor cores, CUDA cores and shared-memory banks.
  int64_t busiest = ceilDiv(blocks, t.numSMs);
  int64_t activeSMs = std::min(blocks, t.numSMs);

  double smRateTc = t.tensorCoreTflops * 1e6 / t.numSMs;  // FLOP per µs
  double smRateCc = t.cudaCoreTflops * 1e6 / t.numSMs;
  double computeUs =
      double(busiest) * (tensorFlops / smRateTc + cudaFlops / smRateCc) /
      t.computeEfficiency;
  double smemRate = t.smemBytesPerClockPerSM * t.clockGHz * 1e3; // B per µs
  double smemUs = double(busiest) * smemBytes / (smemRate * t.smemEfficiency);
  // Too few blocks cannot keep enough loads in flight to saturate HBM.
  double saturation = std::min(
      1.0, double(activeSMs) / (t.numSMs * t.dramSaturationSMFraction));
  double dramUs = (dramRead + dramWrite) /
                  (t.dramBandwidthGBs * 1e3 * t.dramEfficiency * saturation);
  double l2Us = l2Read / (t.l2BandwidthGBs * 1e3 * t.l2Efficiency * saturation);
  // Barriers are latency on each block's critical path; blocks resident on
  // the same SM overlap theirs, so they cost once per wave.
  double syncUs = double(waves) * syncs * t.syncCycles / (t.clockGHz * 1e3);

  KernelCost cost;
  cost.dramBytes = dramRead + dramWrite;
  cost.l2Bytes = l2Read;
  cost.smemBytes = double(blocks) * smemBytes;
  cost.flops = double(blocks) * (tensorFlops + cudaFlops);
  cost.smemFootprint = footprint;
  cost.regsPerThread = regsPerThread;
  cost.blocks = blocks;
  cost.waves = waves;
  finishRoofline(cost, t, std::max({dramUs, l2Us, smemUs}), computeUs, syncUs);
  return cost;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

Expected<KernelCost> mirage::superopt::estimateKernel(Operation *op,
                                                      const GpuTarget &t) {
  if (auto graphDef = dyn_cast<kernel::GraphDefOp>(op))
    return estimateGraphDef(graphDef, t);
  Predefined p = classify(op);
  if (p.family == Family::Unknown)
    return llvm::createStringError("'" + op->getName().getStringRef().str() +
                                   "' is not a kernel or graph op");
  KernelCost cost = estimatePredefined(op, p, t);
  if (!t.measuredUs.empty() && p.family != Family::View) {
    // Only built when the calibration has measurements, so the search's
    // uncalibrated calls do not allocate.
    llvm::SmallString<128> signature;
    llvm::raw_svector_ostream os(signature);
    printSignature(os, op, p);
    auto it = t.measuredUs.find(signature);
    if (it != t.measuredUs.end()) {
      cost.timeUs = it->second;
      cost.bound = "measured";
    }
  }
  return cost;
}

Expected<FunctionCost> mirage::superopt::estimateFunction(func::FuncOp func,
                                                          const GpuTarget &t) {
  FunctionCost total;
  for (Operation &op : func.getBody().front()) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    Expected<KernelCost> cost = estimateKernel(&op, t);
    if (!cost)
      return cost.takeError();
    total.timeUs += cost->timeUs;
    total.kernels += cost->bound != "free";
  }
  return total;
}
