//===- PrintMugraphDot.cpp - Graphviz pictures of µGraphs -----------------===//
//
// --print-mugraph-dot writes one DOT digraph per function: the kernel level
// as nodes and edges, each graph-defined kernel as a cluster holding its
// block graph. Upstream's --view-op-graph draws any op's regions as nested
// clusters with generic labels; this pass knows the µGraph's levels, so
// edges carry device-tensor and tile shapes, a cluster's label carries the
// grid and the for-loop range, the block graph's edges reach from the
// kernel-level producers straight into its input iterators and out of its
// savers, and thread.fused bodies become a list in one label.
//
// The text is built from LLVM's and MLIR's pieces: llvm::DOT::EscapeString
// (GraphWriter.h) escapes labels and names, raw_indented_ostream indents,
// openOutputFile opens the file, and attributes print with their dialects'
// own printers.
//
//===----------------------------------------------------------------------===//

#include "mirage/Dialect/Block/BlockOps.h"
#include "mirage/Dialect/Graph/GraphOps.h"
#include "mirage/Dialect/Kernel/KernelOps.h"
#include "mirage/Dialect/Thread/ThreadOps.h"
#include "mirage/Reports/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/GraphWriter.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mirage {
#define GEN_PASS_DEF_PRINTMUGRAPHDOT
#include "mirage/Reports/Passes.h.inc"
} // namespace mirage

using namespace mlir;
using namespace mirage;

//===----------------------------------------------------------------------===//
// Label text
//===----------------------------------------------------------------------===//

/// A quoted DOT string: `"..."` with LLVM's escaping (newlines become `\n`,
/// quotes and record characters are backslash-escaped).
static std::string quoted(StringRef text) {
  return "\"" + llvm::DOT::EscapeString(text.str()) + "\"";
}

/// `16x64xf16` for a tensor or tile type, the type's own text otherwise.
static std::string shapeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank()) {
    os << type;
    return text;
  }
  for (int64_t dim : shaped.getShape()) {
    if (ShapedType::isDynamic(dim))
      os << "?x";
    else
      os << dim << "x";
  }
  os << shaped.getElementType();
  return text;
}

/// The shapes of several values, comma separated.
static std::string shapesText(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(types, os, [&](Type type) { os << shapeText(type); });
  return text;
}

/// The kind of a kernel, block or thread op (`silu`, `div`, `sum`), or "".
static std::string kindText(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case<kernel::UnaryOp, kernel::BinaryOp, kernel::ReduceOp,
            kernel::Pool2DOp, block::UnaryOp, block::BinaryOp, block::ReduceOp,
            block::AccumOp, thread::UnaryOp, thread::BinaryOp>(
          [](auto typed) { return stringifyEnum(typed.getKind()).str(); })
      .Default([](Operation *) { return std::string(); });
}

/// Longest attribute text kept in a label; longer ones end in "...".
static constexpr size_t kMaxAttrChars = 48;

/// An attribute's value as it reads in the op's custom form: `1`, `[1, 0]`,
/// `[2.44140625E-4]`, `<x: 1, y: replicate>`.
static std::string attrText(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto ints = dyn_cast<DenseI64ArrayAttr>(attr)) {
    os << "[";
    llvm::interleaveComma(ints.asArrayRef(), os);
    os << "]";
  } else if (auto floats = dyn_cast<DenseF64ArrayAttr>(attr)) {
    // Each value as FloatAttr prints it, exactly (like the ops' params).
    Type f64 = Float64Type::get(attr.getContext());
    os << "[";
    llvm::interleaveComma(floats.asArrayRef(), os, [&](double v) {
      FloatAttr::get(f64, v).print(os, /*elideType=*/true);
    });
    os << "]";
  } else {
    attr.print(os, /*elideType=*/true);
    // A dialect attribute (`#block.grid_map<x: 1>`) without its prefix.
    if (StringRef(text).starts_with("#")) {
      size_t open = text.find('<');
      if (open != std::string::npos)
        text = text.substr(open);
    }
  }
  if (text.size() > kMaxAttrChars)
    text = text.substr(0, kMaxAttrChars) + "...";
  return text;
}

/// `name = value`, one per line, for each of `op`'s attributes that its
/// first line does not show: inherent ones other than the kind, by name;
/// discardable ones
/// (`mirage.*`) are left out.
static std::string attrsText(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (NamedAttribute named : op->getAttrDictionary()) {
    StringRef name = named.getName().getValue();
    if (name == "kind" || name.contains('.') || name == "operandSegmentSizes" ||
        name == "resultSegmentSizes")
      continue;
    if (!first)
      os << "\n";
    first = false;
    os << name << " = " << attrText(named.getValue());
  }
  return text;
}

/// The op's name, its kind if it has one, and its attributes.
static std::string opHeader(Operation *op) {
  std::string header = op->getName().getStringRef().str();
  std::string kind = kindText(op);
  if (!kind.empty())
    header += " " + kind;
  std::string attrs = attrsText(op);
  if (!attrs.empty())
    header += "\n" + attrs;
  return header;
}

/// `grid = [96], forloop = 16`.
static std::string launchText(kernel::GraphDefOp kernel) {
  return "grid = " + attrText(kernel.getGridAttr()) +
         ", forloop = " + std::to_string(kernel.getForloop());
}

/// The body of a thread.fused op, one scalar op per line: inputs are `#i`,
/// computed values `t0`, `t1`, ...
static std::string fusedBodyText(thread::FusedOp fused) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::DenseMap<Value, std::string> names;
  Block &body = fused.getBody().front();
  for (BlockArgument arg : body.getArguments())
    names[arg] = "#" + std::to_string(arg.getArgNumber());
  auto operandsText = [&](Operation &op) {
    std::string operands;
    llvm::raw_string_ostream ops(operands);
    llvm::interleaveComma(op.getOperands(), ops, [&](Value v) {
      auto it = names.find(v);
      ops << (it == names.end() ? std::string("?") : it->second);
    });
    return operands;
  };
  unsigned next = 0;
  for (Operation &op : body) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      os << "\nyield " << operandsText(op);
      continue;
    }
    std::string resultNames;
    for (Value result : op.getResults()) {
      names[result] = "t" + std::to_string(next++);
      resultNames += (resultNames.empty() ? "" : ", ") + names[result];
    }
    // thread.unary silu -> silu; other ops (arith.mulf after
    // --thread-to-arith) by name.
    std::string what = kindText(&op);
    if (what.empty())
      what = op.getName().getStringRef().str();
    if (auto unary = dyn_cast<thread::UnaryOp>(op)) {
      if (auto params = unary.getParamsAttr())
        what += attrText(params);
    } else if (Attribute value = op.getAttr("value")) {
      what += "[" + attrText(value) + "]"; // arith.constant[1.0]
    }
    os << "\n"
       << resultNames << " = " << what << "(" << operandsText(op) << ")";
  }
  return text;
}

//===----------------------------------------------------------------------===//
// The DOT writer
//===----------------------------------------------------------------------===//

namespace {

/// Node styles, one per kind of node.
constexpr StringLiteral kArgStyle =
    "shape = ellipse, style = filled, fillcolor = \"#eeeeee\"";
constexpr StringLiteral kResultStyle =
    "shape = ellipse, style = filled, fillcolor = \"#eeeeee\"";
constexpr StringLiteral kGraphOpStyle =
    "shape = box, style = \"rounded,filled\", fillcolor = \"#ffffff\"";
constexpr StringLiteral kKernelStyle =
    "shape = box, style = filled, fillcolor = \"#dae8fc\"";
constexpr StringLiteral kGraphDefStyle =
    "shape = box3d, style = filled, fillcolor = \"#d5e8d4\"";
constexpr StringLiteral kInputStyle =
    "shape = invhouse, style = filled, fillcolor = \"#fff2cc\"";
constexpr StringLiteral kOutputStyle =
    "shape = house, style = filled, fillcolor = \"#fff2cc\"";
constexpr StringLiteral kAccumStyle =
    "shape = box, style = filled, fillcolor = \"#f8cecc\"";
constexpr StringLiteral kFusedStyle =
    "shape = note, style = filled, fillcolor = \"#e1d5e7\"";
constexpr StringLiteral kBlockOpStyle =
    "shape = box, style = filled, fillcolor = \"#ffffff\"";
constexpr StringLiteral kClusterStyle =
    "graph [style = \"rounded,filled\", color = \"#82b366\", "
    "fillcolor = \"#f3f9f0\", labeljust = l, labelloc = b]";
constexpr StringLiteral kBodyStyle =
    "graph [style = \"dashed,filled\", color = \"#999999\", "
    "fillcolor = \"#ffffff\", labeljust = l, labelloc = b]";

/// Writes the digraph of one function. Nodes are `n<i>`, numbered in walk
/// order; edges are collected while the nodes are written and written after
/// them, outside every cluster, so that each node sits where it was first
/// declared.
class FunctionDotWriter {
public:
  FunctionDotWriter(raw_indented_ostream &os, bool blockGraphs)
      : os(os), blockGraphs(blockGraphs) {}

  void write(func::FuncOp func) {
    os << "digraph " << quoted(func.getSymName()) << " {\n";
    os.indent();
    os << "label = " << quoted("@" + func.getSymName().str()) << ";\n";
    os << "labelloc = t;\n";
    // Edges may end at a cluster's border (lhead) only in compound mode.
    os << "compound = true;\n";
    os << "fontname = \"Helvetica\";\n";
    os << "node [fontname = \"Helvetica\", fontsize = 11];\n";
    os << "edge [fontname = \"Helvetica\", fontsize = 9];\n";

    Block &body = func.getBody().front();
    SmallVector<unsigned> args, results;
    for (BlockArgument arg : body.getArguments()) {
      producer[arg] = writeNode("arg" + std::to_string(arg.getArgNumber()) +
                                    "\n" + shapeText(arg.getType()),
                                kArgStyle);
      args.push_back(producer[arg]);
    }
    for (Operation &op : body) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        for (OpOperand &result : op.getOpOperands()) {
          unsigned node =
              writeNode("result " + std::to_string(result.getOperandNumber()) +
                            "\n" + shapeText(result.get().getType()),
                        kResultStyle);
          addEdge(result.get(), node, /*numOperands=*/1, 0);
          results.push_back(node);
        }
        continue;
      }
      auto kernel = dyn_cast<kernel::GraphDefOp>(op);
      if (kernel && blockGraphs)
        writeCluster(kernel);
      else
        writeOp(&op, styleOf(&op));
    }
    // Arguments on top, results at the bottom.
    writeRank("source", args);
    writeRank("sink", results);

    for (const std::string &edge : edges)
      os << edge << ";\n";
    os.unindent();
    os << "}\n";
  }

private:
  static StringRef styleOf(Operation *op) {
    if (isa<kernel::GraphDefOp>(op))
      return kGraphDefStyle;
    if (isa<block::InputOp>(op))
      return kInputStyle;
    if (isa<block::OutputOp>(op))
      return kOutputStyle;
    if (block::isLoopAccumulator(op))
      return kAccumStyle;
    if (isa<thread::FusedOp>(op))
      return kFusedStyle;
    Dialect *dialect = op->getDialect();
    if (isa_and_nonnull<kernel::KernelDialect>(dialect))
      return kKernelStyle;
    if (isa_and_nonnull<block::BlockDialect>(dialect))
      return kBlockOpStyle;
    return kGraphOpStyle;
  }

  /// `{rank = <rank>; n1; n2;}`: the nodes on one row (`same`), the top
  /// (`source`) or the bottom (`sink`).
  void writeRank(StringRef rank, ArrayRef<unsigned> nodes) {
    if (nodes.empty())
      return;
    os << "{rank = " << rank << ";";
    for (unsigned node : nodes)
      os << " n" << node << ";";
    os << "}\n";
  }

  unsigned writeNode(StringRef label, StringRef style) {
    unsigned id = nextNode++;
    os << "n" << id << " [label = " << quoted(label) << ", " << style << "];\n";
    return id;
  }

  /// An edge from the node producing `value` to `node`, labelled with the
  /// value's shape, preceded by the operand number when `node` has several.
  void addEdge(Value value, unsigned node, unsigned numOperands,
               unsigned operandNumber,
               std::optional<unsigned> headCluster = std::nullopt) {
    auto it = producer.find(value);
    if (it == producer.end())
      return;
    std::string label = shapeText(value.getType());
    if (numOperands > 1)
      label = std::to_string(operandNumber) + ": " + label;
    std::string edge = "n" + std::to_string(it->second) + " -> n" +
                       std::to_string(node) + " [label = " + quoted(label);
    // Device tensors (kernel-level values) are drawn thicker than tiles.
    if (!isa<block::TileType>(value.getType()))
      edge += ", penwidth = 1.6";
    if (headCluster)
      edge += ", lhead = cluster_k" + std::to_string(*headCluster);
    edge += "]";
    edges.push_back(std::move(edge));
  }

  /// One node for `op`, with edges from its operands' producers.
  unsigned writeOp(Operation *op, StringRef style) {
    std::string label = opHeader(op);
    if (auto kernel = dyn_cast<kernel::GraphDefOp>(op))
      label = op->getName().getStringRef().str() + " #" +
              std::to_string(nextKernel++) + "\n" + launchText(kernel);
    else if (auto input = dyn_cast<block::InputOp>(op))
      label = op->getName().getStringRef().str() +
              "\nimap = " + attrText(input.getImap()) +
              "\nfmap = " + attrText(input.getFmap());
    else if (auto fused = dyn_cast<thread::FusedOp>(op))
      label += fusedBodyText(fused);
    if (op->getNumResults() > 0)
      label += "\n" + shapesText(op->getResultTypes());
    unsigned node = writeNode(label, style);
    for (OpOperand &operand : op->getOpOperands())
      addEdge(operand.get(), node, op->getNumOperands(),
              operand.getOperandNumber());
    for (Value result : op->getResults())
      producer[result] = node;
    return node;
  }

  /// A graph-defined kernel as a cluster of its block graph. Its region's
  /// arguments stand for its operands, so the input iterators' edges start at
  /// the operands' producers; its results are what the savers yield, so the
  /// consumers' edges start at the savers.
  void writeCluster(kernel::GraphDefOp kernel) {
    unsigned cluster = nextKernel++;
    Block &graph = kernel.getBody().front();
    os << "subgraph cluster_k" << cluster << " {\n";
    os.indent();
    // Left-justified lines (`\l`) at the bottom left, out of the way of
    // the edges coming in at the top.
    os << "label = "
       << quoted(kernel->getName().getStringRef().str() + " #" +
                 std::to_string(cluster) + "\\l" + launchText(kernel) + "\\l")
       << ";\n";
    os << kClusterStyle << ";\n";
    for (auto [arg, operand] :
         llvm::zip_equal(graph.getArguments(), kernel.getInputs())) {
      auto it = producer.find(operand);
      if (it != producer.end())
        producer[arg] = it->second;
    }
    // The for-loop body (the ops before the first accumulator) is a
    // cluster of its own, with the input iterators on its top row and the
    // accumulators on one row below it.
    bool hasAccum = llvm::any_of(
        graph, [](Operation &op) { return block::isLoopAccumulator(&op); });
    bool inBody = false;
    SmallVector<unsigned> inputs, accums;
    if (hasAccum) {
      os << "subgraph cluster_k" << cluster << "_body {\n";
      os.indent();
      os << "label = "
         << quoted("for-loop body: " + std::to_string(kernel.getForloop()) +
                   (kernel.getForloop() == 1 ? " iteration" : " iterations"))
         << ";\n";
      os << kBodyStyle << ";\n";
      inBody = true;
    }
    for (Operation &op : graph) {
      if (inBody && block::isLoopAccumulator(&op)) {
        writeRank("same", inputs);
        os.unindent();
        os << "}\n";
        inBody = false;
      }
      if (auto yield = dyn_cast<block::YieldOp>(op)) {
        for (auto [result, saved] :
             llvm::zip_equal(kernel.getOutputs(), yield.getOperands())) {
          auto it = producer.find(saved);
          if (it != producer.end())
            producer[result] = it->second;
        }
        continue;
      }
      unsigned node = writeOp(&op, styleOf(&op));
      if (isa<block::InputOp>(op))
        inputs.push_back(node);
      else if (block::isLoopAccumulator(&op))
        accums.push_back(node);
    }
    if (inBody) {
      os.unindent();
      os << "}\n";
    }
    writeRank("same", accums);
    // A tensor the block graph does not read still flows into the kernel:
    // an edge to the cluster's border, through an invisible node.
    std::optional<unsigned> anchor;
    for (auto [arg, operand] :
         llvm::zip_equal(graph.getArguments(), kernel.getInputs())) {
      if (!arg.use_empty())
        continue;
      if (!anchor)
        anchor = writeNode("", "shape = point, style = invis");
      addEdge(operand, *anchor, 1, 0, cluster);
    }
    os.unindent();
    os << "}\n";
  }

  raw_indented_ostream &os;
  bool blockGraphs;
  unsigned nextNode = 0;
  /// Graph-defined kernels are numbered in order, `#0`, `#1`, ..., drawn
  /// as clusters (`cluster_k<n>`) or as nodes.
  unsigned nextKernel = 0;
  /// The node each value comes from: its op's, or for a kernel's region
  /// arguments and results, the node of the value they stand for.
  llvm::DenseMap<Value, unsigned> producer;
  std::vector<std::string> edges;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct PrintMugraphDotPass
    : public mirage::impl::PrintMugraphDotBase<PrintMugraphDotPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    markAllAnalysesPreserved();

    // Check everything before writing anything. Errors are at the module's
    // or the function's location, without printing the module.
    SmallVector<func::FuncOp> funcs;
    if (!function.empty()) {
      Operation *symbol = module.lookupSymbol(function);
      auto func = dyn_cast_or_null<func::FuncOp>(symbol);
      if (!func) {
        InFlightDiagnostic diag = emitError(module.getLoc())
                                  << "print-mugraph-dot: no function named '"
                                  << function << "' in the module";
        SmallVector<std::string> names;
        for (auto other : module.getOps<func::FuncOp>())
          names.push_back("@" + other.getSymName().str());
        if (names.empty())
          diag << " (it has none)";
        else
          diag << " (it has " << llvm::join(names, ", ") << ")";
        return signalPassFailure();
      }
      if (func.isExternal()) {
        emitError(func.getLoc()) << "print-mugraph-dot: @" << function
                                 << " is a declaration: it has no body to draw";
        return signalPassFailure();
      }
      funcs.push_back(func);
    } else {
      for (auto func : module.getOps<func::FuncOp>())
        if (!func.isExternal())
          funcs.push_back(func);
    }

    std::unique_ptr<llvm::ToolOutputFile> file;
    if (output != "-") {
      std::string message;
      file = openOutputFile(output, &message);
      if (!file) {
        emitError(module.getLoc()) << "print-mugraph-dot: " << message;
        return signalPassFailure();
      }
    }
    raw_ostream &stream = file ? file->os() : llvm::errs();
    raw_indented_ostream os(stream);
    for (func::FuncOp func : funcs)
      FunctionDotWriter(os, blockGraphs).write(func);
    stream.flush();
    if (file)
      file->keep();
  }
};

} // namespace
